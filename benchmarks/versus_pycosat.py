#!/usr/bin/env python3
"""A hand-written search against a C SAT solver on the standard CNF, puzzle by puzzle.

    python benchmarks/versus_pycosat.py [FILE ...] [--solver NAME[:key=value,...]] [--limit K]
        [--seed S | --literal]

The CNF is the project's complete encoding (formulations/sat.py: exactly one
value per cell and per unit-value, the givens as unit clauses), its shared
clauses built once per box size, solved by pycosat (PicoSAT, in C). Both are
called in one loop, alternating which goes first on each puzzle, so that the
machine's noise falls on both alike; every answer is checked cell by cell.
Each is first run once, untimed, on the file's first puzzle, so that imports
and tables built once per process do not fall on a puzzle's time. It prints
median, mean and max seconds per puzzle for both, and their ratios (the
hand-written side is ahead where the ratio is below 1), and the line of each
one's slowest puzzle. Default files: the collections top1465 and
forum-hardest-1106 (`sudoku-data fetch top1465 forum-hardest-1106`).

Each puzzle is timed as one random isomorph of it (relabelled, rows and columns
permuted), the ones `compare.py FILE --isomorphs 1 --seed S` draws, as the
published figures (docs/reference/data.md) average over isomorphs: a file's own
orientation can favour one side. forum-hardest-1106 is written so that most
solutions' first row reads 123456789, so a search that places the lowest value
of the first free cell first starts right on it. `--literal` times the file as
written.
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from comparison.core.errors import UsageError  # noqa: E402
from comparison.core.stream import puzzles_of  # noqa: E402
from comparison.run.methods import load_registry, parse_solver  # noqa: E402
from formulations.sat import decode, encode  # noqa: E402
from puzzles import Budget, Entry, Grid, PuzzleFileError, data, read_puzzles  # noqa: E402

try:  # once, not in the timed calls
    import pycosat  # the bench extra: pip install -e ".[bench]"
except ImportError:  # main says so before it times anything; the tests skip
    pycosat = None

DEFAULT_FILES = ["top1465", "forum-hardest-1106"]  # collections' names: puzzles/data.py finds their files


def pycosat_solve(grid: Grid) -> Grid | None:
    _, clauses = encode(grid)
    model = pycosat.solve(clauses)
    return None if isinstance(model, str) else decode(grid, model)


Solve = Callable[[Grid], "Grid | None"]


def timed(solve: Solve, grid: Grid) -> tuple[float, Grid | None]:
    started = time.perf_counter()
    solution = solve(grid)
    return time.perf_counter() - started, solution


def compare_file(path: Path, search: Solve, limit: int | None,
                 seed: int | None) -> tuple[dict[str, list[float]], list[int]]:
    """Seconds per puzzle of both, in one interleaved loop, every solution checked; and the puzzles' lines.
    Each puzzle is one random isomorph of the file's (drawn from `seed`), or the file's own when seed is None."""
    times: dict[str, list[float]] = {"search": [], "pycosat": []}
    runners = {"search": search, "pycosat": pycosat_solve}
    entries = enumerate(itertools.islice((e for e in read_puzzles(path) if isinstance(e, Entry)), limit))
    puzzles = list(puzzles_of(entries, None if seed is None else 1, seed or 0))
    if not puzzles:
        raise SystemExit(f"{path}: no puzzle to time")
    for solve in runners.values():  # warm up: imports, and tables built once per process, are not a puzzle's
        solve(puzzles[0].grid)
    for i, puzzle in enumerate(puzzles):
        order = ["search", "pycosat"] if i % 2 == 0 else ["pycosat", "search"]
        for name in order:
            seconds, solution = timed(runners[name], puzzle.grid)
            if solution is None or puzzle.grid.solution_problems(solution):
                raise SystemExit(f"{path}:{puzzle.line}: {name} gave no valid solution")
            times[name].append(seconds)
    return times, [puzzle.line for puzzle in puzzles]


def summary(times: list[float]) -> tuple[float, float, float]:
    return statistics.median(times), statistics.fmean(times), max(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="puzzle files or collections' names (default: top1465, "
                        "forum-hardest-1106)")
    parser.add_argument("--solver", default="mrv:propagate=singles", help="the hand-written method and options")
    parser.add_argument("--limit", type=int, help="only the first K puzzles of each file")
    oriented = parser.add_mutually_exclusive_group()
    oriented.add_argument("--seed", type=int, default=0, help="seed of the isomorphs (default 0)")
    oriented.add_argument("--literal", action="store_true", help="time the files' own puzzles, not isomorphs")
    args = parser.parse_args(argv)
    if pycosat is None:
        parser.error('pycosat is not installed: pip install -e ".[bench]"')
    try:
        chosen = parse_solver(args.solver, load_registry([args.solver.partition(":")[0]]), 1, Budget())
    except UsageError as exc:
        parser.error(str(exc))

    def search(grid: Grid) -> Grid | None:
        return chosen.method(grid, Budget(), **chosen.options).solution

    seed = None if args.literal else args.seed
    puzzles = "the files' own puzzles" if seed is None else f"a random isomorph of each puzzle, seed {seed}"
    print(f"{chosen.label} against pycosat on the complete CNF (seconds per puzzle, both in one loop; {puzzles})")
    for file in args.files or DEFAULT_FILES:
        try:
            path = Path(data.resolve(file))
            times, lines = compare_file(path, search, args.limit, seed)
        except (PuzzleFileError, data.DataError) as exc:  # read whole before any timing: nothing of it is lost
            print(f"versus_pycosat: {exc}", file=sys.stderr)
            return 2
        mine, theirs = summary(times["search"]), summary(times["pycosat"])
        print(f"{path.name}: {len(times['search']):,} puzzles")
        for label, (a, b) in zip(("median", "mean", "max"), zip(mine, theirs, strict=True), strict=True):
            print(f"  {label:6}  {chosen.label} {a * 1000:9.3f} ms   pycosat {b * 1000:9.3f} ms   ratio {a / b:6.2f}")
        slowest = {name: lines[max(range(len(lines)), key=t.__getitem__)] for name, t in times.items()}
        print(f"  slowest puzzle: {chosen.label} line {slowest['search']}, pycosat line {slowest['pycosat']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
