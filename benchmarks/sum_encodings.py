"""The SAT sum encodings of Killer cages side by side: each encoding's size (variables and clauses, the cages' own
part too), its search (conflicts, decisions) and its time, on the same puzzles and one back end, run in one
process and interleaved (each puzzle solved by every encoding in turn, the order rotating), so that the
machine's load falls on all of them alike:

    python benchmarks/sum_encodings.py killer-9.txt [--limit 200] [--solver minisat22] [--solutions 2]

Ctrl-C prints the table of the puzzles finished.
Each encoding is the `sat` method's `sums` option (docs/methods/formulations.md); `combinations + 45` is the
project's own with the 45 rule's derived sums (`redundant=45`). Every answer is checked against the puzzle; a
wrong one stops the run. Medians over the puzzles; the time is the whole solve (model built and solved).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from benchmarks.killer_runs import accepted, interleaved, read_killers  # noqa: E402
from commands.flags import positive  # noqa: E402
from formulations import SOLVERS  # noqa: E402
from formulations.constraints.sat import SUMS  # noqa: E402
from puzzles import Budget, Grid, Method, Status  # noqa: E402


@dataclass
class Tally:
    """One encoding's figures, a list a fact, one entry a puzzle it settled in its budget."""

    label: str
    options: dict[str, str]
    facts: dict[str, list[float]] = field(default_factory=dict)
    gave_up: int = 0

    def add(self, name: str, value: object) -> None:
        if isinstance(value, int | float):
            self.facts.setdefault(name, []).append(float(value))

    def median(self, name: str) -> float | None:
        values = self.facts.get(name)
        return statistics.median(values) if values else None


FACTS = ("variables", "cage_variables", "clauses", "cage_clauses", "decisions", "conflicts", "ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a file of Killer puzzles (sudoku-generate --variant killer)")
    parser.add_argument("--limit", type=positive(int), default=200, help="puzzles read from the file (default 200)")
    parser.add_argument("--solver", default="minisat22", help="the SAT back end (default minisat22)")
    parser.add_argument("--solutions", type=int, choices=(1, 2), default=2,
                        help="1: the first solution; 2 (default): and the proof that there is no other")
    parser.add_argument("--timeout", type=positive(float), default=10.0, help="seconds a solve (default 10)")
    args = parser.parse_args(argv)
    puzzles = read_killers(args.file, args.limit)
    if puzzles is None:
        return 2
    tallies = [Tally(sums, {"sums": sums}) for sums in SUMS]
    tallies.append(Tally("combinations + 45", {"sums": "combinations", "redundant": "45"}))
    sat = SOLVERS["sat"]
    done = 0
    try:
        done = run(puzzles, tallies, sat, args)
    except KeyboardInterrupt:  # Ctrl-C: the table of the puzzles finished
        done = min(len(t.facts.get("ms", [])) + t.gave_up for t in tallies)
        print(f"interrupted after {done} puzzles", file=sys.stderr)
    if done < 0:
        return 1
    print(f"{done} Killer puzzles of {args.file}, back end {args.solver}, solutions={args.solutions}, "
          f"{args.timeout:g} s a solve; medians over the puzzles each encoding settled")
    header = ["sums", *FACTS, "gave up"]
    rows = [[t.label, *(_shown(t.median(name), name) for name in FACTS), str(t.gave_up)] for t in tallies]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths,
                                                                                                  strict=True))))
    return 0


def run(puzzles: list[Grid], tallies: list[Tally], sat: Method, args: argparse.Namespace) -> int:
    """Every puzzle through every encoding, in turn: how many puzzles, or -1 after a wrong answer or an error."""
    for index, grid, tally in interleaved(puzzles, tallies):
        outcome = sat(grid, Budget(seconds=args.timeout), solutions=args.solutions, solver=args.solver,
                      **tally.options)
        if not accepted(outcome, grid, index, f"sums={tally.label}"):
            return -1
        if outcome.status is Status.GAVE_UP:
            tally.gave_up += 1
            continue
        for name in FACTS[:4]:
            tally.add(name, outcome.info.get(name))
        for name in ("decisions", "conflicts"):
            tally.add(name, outcome.effort.get(name))
        tally.add("ms", outcome.seconds * 1000)
    return len(puzzles)


def _shown(value: float | None, name: str) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if name == "ms" else f"{value:,.0f}"


if __name__ == "__main__":
    raise SystemExit(main())
