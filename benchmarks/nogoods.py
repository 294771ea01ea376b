"""What a conflict teaches: the nogoods `cdcl` learns against the clauses CP-SAT learns, on the same puzzles.

    python benchmarks/nogoods.py killer-16.txt [--limit 5] [--timeout 20]

Each side searches each puzzle for a first solution (the search both make alike; the proof of uniqueness after it
is left out), one side after the other:

- `cdcl` as compare.py runs it (search.learning `configured`: its defaults' choices for the puzzle), told each
  nogood as it keeps it: its literals, and its LBD (how many decision levels they span).
- CP-SAT as `cpsat` is made (formulations/cpsat.py, one worker; `redundant=45` on a puzzle with cages, as the
  Killer pages run it), its search log read for the literals it learned (the "SAT stats" table's LitLearned,
  after its minimisation) over its conflicts. Its log shows no LBD.

The two count different literals: `cdcl`'s say "cell c holds value v", CP-SAT's are those of its integer
variables' encoding (a value, or a bound). A size compares what each search keeps from a conflict, in its own
terms. Every solution is checked against the puzzle; a wrong one stops the run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from ortools.sat.python import cp_model  # noqa: E402

from commands.flags import positive  # noqa: E402
from formulations import cpsat  # noqa: E402
from formulations.driver import Allowance  # noqa: E402
from puzzles import Budget, Entry, Grid, PuzzleFileError, read_puzzles  # noqa: E402
from puzzles.constraints.killer import cages_in  # noqa: E402
from puzzles.options import parse  # noqa: E402
from puzzles.words import plural  # noqa: E402
from search import learning  # noqa: E402
from search.depth_first import Limits  # noqa: E402


@dataclass
class Kept:
    """A side's search on one puzzle: whether it found a solution, its conflicts, and the sizes (and for `cdcl` the
    LBDs) of what it learned."""

    solved: bool
    conflicts: int
    sizes: list[int] = field(default_factory=list)  # cdcl: each nogood's literals
    lbds: list[int] = field(default_factory=list)
    learned_literals: int | None = None  # CP-SAT: every learned clause's literals together, as its log says

    def mean_size(self) -> float | None:
        if self.sizes:
            return statistics.mean(self.sizes)
        if self.learned_literals is not None and self.conflicts:
            return self.learned_literals / self.conflicts
        return None


class Quiet:
    """An observer of `cdcl`'s search that lets go of all it is told: the benchmarks' observers (here and
    backjumps.py) keep what they count by overriding those methods."""

    def started(self, grid: Grid, counters: object) -> None: pass
    def givens_clash(self, conflict: list[int]) -> None: pass
    def propagated(self, level: int, assigned: list[learning.Assigned]) -> None: pass
    def chose(self, level: int, x: int, left: int, by: int) -> None: pass
    def decided(self, level: int, x: int) -> None: pass
    def conflict(self, level: int, conflict: list[int]) -> None: pass
    def analyzed(self, conflict: list[int], nogood: list[int], back: int) -> None: pass
    def backjumped(self, level: int, nogood: list[int], lbd: int) -> None: pass
    def solution(self, level: int) -> None: pass
    def blocked(self) -> None: pass
    def restarted(self) -> None: pass


class Nogoods(Quiet):
    """An observer of `cdcl`'s search that keeps each nogood's size and LBD."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.lbds: list[int] = []

    def backjumped(self, level: int, nogood: list[int], lbd: int) -> None:
        self.sizes.append(len(nogood))
        self.lbds.append(lbd)


def default_cdcl(grid: Grid, seconds: float, told: learning.Observer) -> learning.Solver:
    """`cdcl` with its defaults on the puzzle (as compare.py runs it), its clock started, told to `told`."""
    return learning.configured(grid, parse(learning.OPTIONS, {}), Limits.of(Budget(seconds=seconds),
                                                                           time.perf_counter()), told)


def by_cdcl(grid: Grid, seconds: float) -> Kept:
    """`cdcl` with its defaults, to a first solution."""
    told = Nogoods()
    finish = learning.run(default_cdcl(grid, seconds, told), 1)
    if finish.found:
        checked(grid, grid.with_values(list(finish.found[0])), "cdcl")
    return Kept(bool(finish.found), len(told.sizes), told.sizes, told.lbds)


def by_cpsat(grid: Grid, seconds: float) -> Kept:
    """CP-SAT's model as `cpsat` makes it, one worker, to a first solution, its log read for what it learned."""
    options = parse(cpsat.OPTIONS, {})  # the defaults (one worker)
    if cages_in(grid.layout.constraints):
        options["redundant"] = "45"
    model = cpsat.SudokuModel(grid, "integer", options)
    solver = model.fresh_solver(Allowance(seconds, float("inf")))
    solver.parameters.log_search_progress = True
    solver.parameters.log_to_stdout = False
    log: list[str] = []
    solver.log_callback = log.append
    status = solver.solve(model.model)
    solved = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if solved:
        checked(grid, model.read(), "cpsat")
    return Kept(solved, solver.num_conflicts, learned_literals=learned_literals(log))


def learned_literals(log: list[str]) -> int | None:
    """The literals CP-SAT learned, from its log's "SAT stats" table (its first worker's row), or None where the
    log has no such table."""
    lines = [line for message in log for line in message.splitlines()]
    for i, line in enumerate(lines[:-1]):
        head = line.split()
        if head[:2] == ["SAT", "stats"] and "LitLearned" in head:
            row = lines[i + 1].split()  # the worker's name, then a figure under each of head[2:]
            return int(row[head.index("LitLearned") - 1].replace("'", ""))
    return None


def checked(grid: Grid, solution: Grid, side: str) -> None:
    if not grid.is_solved_by(solution):
        raise SystemExit(f"{side}: a wrong answer: {'; '.join(grid.solution_problems(solution))}")


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def line(index: int, mine: Kept, theirs: Kept) -> str:
    """One puzzle's row: each side's conflicts and mean size, cdcl's median size and LBD."""
    status = "".join("S" if side.solved else "-" for side in (mine, theirs))
    median = figure(statistics.median(mine.sizes)) if mine.sizes else "-"
    lbd = figure(statistics.mean(mine.lbds)) if mine.lbds else "-"
    return (f"  {index + 1:>6}  {status:>6}  {mine.conflicts:>14,}  {figure(mine.mean_size()):>9}  {median:>11}  "
            f"{lbd:>8}  {theirs.conflicts:>15,}  {figure(theirs.mean_size()):>9}")


HEAD = "  puzzle  solved  cdcl conflicts  mean size  median size  mean LBD  cpsat conflicts  mean size"


def read_run(program: str, description: str, argv: list[str] | None, limit: int, timeout: float,
             each: str) -> tuple[argparse.Namespace, list[Grid]] | None:
    """A run's arguments (a puzzle file, --limit, --timeout: seconds `each`) and the file's first puzzles; None, said
    in one line, where the file cannot be read or holds no puzzle. (This benchmark's and backjumps.py's.)"""
    parser = argparse.ArgumentParser(prog=f"{program}.py", description=description)
    parser.add_argument("file", help="a puzzle file (line form or f-puzzles JSON lines)")
    parser.add_argument("--limit", type=positive(int), default=limit, help=f"the first K puzzles (default {limit})")
    parser.add_argument("--timeout", type=positive(float), default=timeout,
                        help=f"seconds {each} (default {timeout:g})")
    args = parser.parse_args(argv)
    try:
        puzzles = [entry.grid for entry in read_puzzles(args.file) if isinstance(entry, Entry)][:args.limit]
    except PuzzleFileError as exc:  # no such file, a folder, unreadable
        print(f"{program}: {exc}", file=sys.stderr)
        return None
    if not puzzles:
        print(f"{args.file}: no puzzle read", file=sys.stderr)
        return None
    return args, puzzles


def main(argv: list[str] | None = None) -> int:
    run = read_run("nogoods", __doc__.split("\n\n")[0], argv, 5, 20.0, "a side a puzzle")
    if run is None:
        return 2
    args, puzzles = run
    print(f"{args.file}: {plural(len(puzzles), 'puzzle')}, a first solution each, {args.timeout:g} s a side a puzzle "
          "(solved: cdcl, cpsat)")
    print(HEAD)
    mine_means: list[float] = []
    their_means: list[float] = []
    for index, grid in enumerate(puzzles):
        mine, theirs = by_cdcl(grid, args.timeout), by_cpsat(grid, args.timeout)
        print(line(index, mine, theirs), flush=True)
        if (a := mine.mean_size()) is not None and (b := theirs.mean_size()) is not None:
            mine_means.append(a)
            their_means.append(b)
    if mine_means:
        print(f"  over the {plural(len(mine_means), 'puzzle')} where both learned: median of the mean sizes, cdcl "
              f"{statistics.median(mine_means):.1f}, cpsat {statistics.median(their_means):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
