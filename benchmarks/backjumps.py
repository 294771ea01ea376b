"""What a conflict undoes: how far `cdcl` jumps back, and what a chronological backtrack would keep of it.

    python benchmarks/backjumps.py jigsaw-16.txt [--limit 15] [--timeout 60]

`cdcl` as compare.py runs it (search.learning `configured`: its defaults' choices for the puzzle), asked for two
solutions as the comparisons ask (each puzzle settled: solved and its uniqueness proved, or given up), told each
conflict and each jump back. At a conflict at decision level L the search learns a nogood and jumps back to the
level B where the nogood first forces something, undoing every assignment above B: level L's (the decision that
failed and what its propagation made before the conflict) and those of the levels between, B + 1 to L - 1, which
the nogood does not ask to undo. A chronological backtrack (Nadel and Ryvchin, SAT 2018) keeps those and goes
back one level only; it pays where jumps pass over many levels whose assignments the search then makes again.

A row a puzzle: its jumps (one a conflict, but for the last, at level 0, which ends the search); the mean level of
a conflict; the mean levels a jump undoes; the share of jumps over more than one level; the literals a conflict
undoes; and the share of those on the levels between, what a chronological backtrack would keep. The counts do not
depend on the machine.
"""
from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from benchmarks.nogoods import Quiet, checked, default_cdcl, read_run  # noqa: E402
from puzzles import Grid  # noqa: E402
from puzzles.outcome import Status  # noqa: E402
from puzzles.words import plural  # noqa: E402
from search import learning  # noqa: E402


@dataclass
class Jumps:
    """One search's jumps back: per conflict, the level it came at, the levels undone, the literals undone, and of
    those the ones on the levels between the jump's target and the conflict's level."""

    settled: bool = False
    levels: list[int] = field(default_factory=list)
    undone_levels: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    between: list[int] = field(default_factory=list)

    def kept_share(self) -> float | None:
        """What a chronological backtrack would keep of the literals undone, as a share of them."""
        return sum(self.between) / sum(self.undone) if self.undone else None


class Told(Quiet):
    """An observer of `cdcl`'s search that measures each jump back on the solver's trail (the solver is given to it
    once made: `configured` needs the observer first)."""

    def __init__(self) -> None:
        self.solver: learning.Solver | None = None
        self.jumps = Jumps()
        self.trail_at_conflict = 0
        self.level_start = 0  # where the conflict's level begins on the trail

    def conflict(self, level: int, conflict: list[int]) -> None:
        assert self.solver is not None
        self.trail_at_conflict = self.solver.assigned
        self.level_start = self.solver.trail_lim[level - 1] if level > 0 else 0
        self.jumps.levels.append(level)

    def backjumped(self, level: int, nogood: list[int], lbd: int) -> None:
        assert self.solver is not None
        kept = self.solver.assigned - 1  # the trail left by the jump, without the literal the nogood forces there
        self.jumps.undone_levels.append(self.jumps.levels[-1] - level)
        self.jumps.undone.append(self.trail_at_conflict - kept)
        self.jumps.between.append(self.level_start - kept)


def jumps_of(grid: Grid, seconds: float) -> Jumps:
    """`cdcl` with its defaults on the puzzle, two solutions asked; every solution found checked."""
    told = Told()
    told.solver = solver = default_cdcl(grid, seconds, told)
    finish = learning.run(solver, 2)
    for found in finish.found:
        checked(grid, grid.with_values(list(found)), "cdcl")
    told.jumps.levels = told.jumps.levels[:len(told.jumps.undone)]  # a last conflict at level 0 ends the search
    told.jumps.settled = finish.status is not Status.GAVE_UP
    return told.jumps


def figure(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def row(index: int, jumps: Jumps) -> str:
    """One puzzle's row."""
    count = len(jumps.undone)
    mean = statistics.mean
    over_one = sum(levels > 1 for levels in jumps.undone_levels) / count if count else None
    return (f"  {index + 1:>6}  {'S' if jumps.settled else '-':>7}  {count:>9,}  "
            f"{figure(mean(jumps.levels) if count else None):>10}  "
            f"{figure(mean(jumps.undone_levels) if count else None, 2):>13}  {percent(over_one):>15}  "
            f"{figure(mean(jumps.undone) if count else None, 0):>15}  {percent(jumps.kept_share()):>19}")


HEAD = ("  puzzle  settled      jumps  mean level  levels undone  jumps > 1 level  literals undone  "
        "kept by chronology")


def main(argv: list[str] | None = None) -> int:
    run = read_run("backjumps", __doc__.split("\n\n")[0], argv, 15, 60.0, "a puzzle")
    if run is None:
        return 2
    args, puzzles = run
    print(f"{args.file}: {plural(len(puzzles), 'puzzle')}, cdcl asked for two solutions, {args.timeout:g} s a puzzle "
          "(a mean a conflict; kept by chronology: the share of the literals undone on the levels a jump passes over)")
    print(HEAD)
    every = Jumps()
    for index, grid in enumerate(puzzles):
        jumps = jumps_of(grid, args.timeout)
        print(row(index, jumps), flush=True)
        every.undone += jumps.undone
        every.between += jumps.between
        every.undone_levels += jumps.undone_levels
    if every.undone:
        print(f"  in all: {len(every.undone):,} jumps, {statistics.mean(every.undone_levels):.2f} levels undone a "
              f"jump, {percent(every.kept_share())} of the literals undone kept by a chronological backtrack")
    return 0


if __name__ == "__main__":
    sys.exit(main())
