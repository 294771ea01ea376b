"""What the 45 rule adds, puzzle by puzzle: each family of methods with and without the rule's derived sums, on
the same Killer puzzles, run in one process and interleaved (each puzzle through every configuration in turn,
the order rotating), so that the machine's load falls on both sides of a pair alike:

    python benchmarks/rule45.py killer-9.txt [--limit 200] [--timeout 1] [--solutions 1]

The pairs (docs/concepts/killer.md says what a derived sum is): CP-SAT's linear sums with and without
`redundant=45`, its tables likewise, SAT's combinations encoding likewise (only the derived sums whose cells share
a house are encoded there), the MIP likewise, and the hand-written rung `cages` against `innies` (the same rung
with the 45 rule), both under `mrv`. For each pair it prints how many puzzles each side settled within the
budget; over the puzzles both settled, each side's median time, the median of the per-puzzle time ratio (with /
without: below 1, the rule pays), on how many puzzles the side with the rule was faster, the same ratio of the
family's search counter (CP-SAT's branches, SAT's conflicts, the MIP's nodes, the rung's guesses:
docs/concepts/effort.md), and the share each
side settled with that counter at 0 (no guess, no branch, no conflict). Every answer is checked against the
puzzle; a wrong one stops the run. Ctrl-C prints the table of the puzzles finished.
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
from comparison.core.errors import UsageError  # noqa: E402
from comparison.core.selected import Selected  # noqa: E402
from comparison.run.methods import load_registry, parse_solver  # noqa: E402
from puzzles import Budget, Grid, Status  # noqa: E402
from puzzles.kept import fresh  # noqa: E402


@dataclass(frozen=True)
class Pair:
    """A family's configuration without the 45 rule and with it, and the counter that measures its search."""

    label: str
    without: str
    with45: str
    counter: str


PAIRS = (Pair("CP-SAT linear", "cpsat", "cpsat:redundant=45", "branches"),
         Pair("CP-SAT table", "cpsat:sums=table", "cpsat:sums=table,redundant=45", "branches"),
         Pair("SAT combinations", "sat", "sat:redundant=45", "conflicts"),
         Pair("MIP", "mip", "mip:redundant=45", "nodes"),
         Pair("hand-written rung", "mrv:propagate=cages", "mrv:propagate=innies", "guesses"))


@dataclass
class Run:
    """One configuration's outcome on one puzzle it settled: seconds, and its counters."""

    seconds: float
    effort: dict[str, int]


@dataclass
class Side:
    """One configuration: its outcome on each puzzle so far (None: gave up)."""

    chosen: Selected
    runs: list[Run | None] = field(default_factory=list)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a file of Killer puzzles (sudoku-generate --variant killer)")
    parser.add_argument("--limit", type=positive(int), default=200, help="puzzles read from the file (default 200)")
    parser.add_argument("--timeout", type=positive(float), default=1.0, help="seconds a solve (default 1)")
    parser.add_argument("--solutions", type=int, choices=(1, 2), default=1,
                        help="1 (default): the first solution; 2: and the proof that there is no other")
    args = parser.parse_args(argv)
    puzzles = read_killers(args.file, args.limit)
    if puzzles is None:
        return 2
    budget = Budget(seconds=args.timeout)
    registry = load_registry()
    try:
        sides = {spec: Side(parse_solver(spec, registry, args.solutions, budget))
                 for pair in PAIRS for spec in (pair.without, pair.with45)}
    except UsageError as exc:
        parser.error(str(exc))
    try:
        if not run(puzzles, list(sides.values()), budget):
            return 1
    except KeyboardInterrupt:  # Ctrl-C: the table of the puzzles every side finished
        print("interrupted", file=sys.stderr)
    done = min(len(side.runs) for side in sides.values())
    print(f"{done} Killer puzzles of {args.file}, {args.timeout:g} s a solve, solutions={args.solutions}; "
          f"times and ratios over the puzzles both sides of a pair settled")
    for pair in PAIRS:
        print(pair_lines(pair, sides[pair.without], sides[pair.with45], done))
    return 0


def run(puzzles: list[Grid], sides: list[Side], budget: Budget) -> bool:
    """Every puzzle through every configuration, in turn; False after a wrong answer or an error."""
    for index, grid, side in interleaved(puzzles, sides):
        fresh()  # as compare.py: each side's time includes its model of the puzzle
        outcome = side.chosen.method(grid, budget, **side.chosen.options)
        if not accepted(outcome, grid, index, side.chosen.label):
            return False
        gave_up = outcome.status is Status.GAVE_UP
        side.runs.append(None if gave_up else Run(outcome.seconds, dict(outcome.effort)))
    return True


def pair_lines(pair: Pair, without: Side, with45: Side, done: int) -> str:
    """A pair's lines of the table."""
    pairs = [(a, b) for a, b in zip(without.runs[:done], with45.runs[:done], strict=True)]
    both = [(a, b) for a, b in pairs if a is not None and b is not None]
    settled = [sum(run is not None for run in side.runs[:done]) for side in (without, with45)]
    lines = [f"{pair.label}: {without.chosen.label} settled {settled[0]}, {with45.chosen.label} {settled[1]}, "
             f"both {len(both)}"]
    if not both:
        return "\n".join(lines)
    medians = [statistics.median(run.seconds for run in side) * 1000 for side in zip(*both, strict=True)]
    ratios = [b.seconds / a.seconds for a, b in both if a.seconds > 0]
    faster = sum(b.seconds < a.seconds for a, b in both)
    lines.append(f"  median ms {medians[0]:.2f} -> {medians[1]:.2f}; per-puzzle time ratio median "
                 f"{statistics.median(ratios):.2f}; faster with the rule on {faster} of {len(both)}")
    efforts = [(a.effort.get(pair.counter, 0), b.effort.get(pair.counter, 0)) for a, b in both]
    counted = [b / a for a, b in efforts if a > 0]
    ratio = f"{statistics.median(counted):.2f}" if counted else "-"
    zero = [100 * sum(e[i] == 0 for e in efforts) / len(efforts) for i in (0, 1)]
    lines.append(f"  {pair.counter}: median {statistics.median(a for a, _ in efforts):,.0f} -> "
                     f"{statistics.median(b for _, b in efforts):,.0f}; per-puzzle ratio median {ratio}; "
                     f"none at all {zero[0]:.1f}% -> {zero[1]:.1f}%")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
