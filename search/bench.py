"""A small benchmark of the hand-written searches (compare.py will be the real one).

    python -m search.bench FILE [--solver mrv:propagate=singles ...] [--solutions 2]
                                [--isomorphs 1 --seed 0] [--limit N] [--seconds S]

For each solver (a name from search.SOLVERS, then `:option=value,...`), prints
the median and mean wall time per puzzle and the mean of every counter. With
--isomorphs K each puzzle is replaced by K random isomorphs (relabelled values,
permuted bands, stacks, rows and columns, maybe transposed; drawn with
random.Random(seed)), as tdoku's benchmark averages over isomorphs; the
isomorphs are drawn once, so every solver sees the same puzzles.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter

from puzzles.formats import Entry, read_puzzles
from puzzles.grid import Grid
from puzzles.isomorph import random_isomorph
from puzzles.outcome import Budget, Status

from . import SOLVERS

__all__ = ["random_isomorph", "parse_solver", "main"]


def parse_solver(text: str) -> tuple[str, dict[str, str]]:
    """'mrv:propagate=singles,tie=swap' -> ('mrv', {'propagate': 'singles', 'tie': 'swap'})."""
    name, _, rest = text.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise SystemExit(f"option {item!r} of {text!r} is not name=value")
        options[key.strip()] = value.strip()
    if name not in SOLVERS:
        raise SystemExit(f"unknown solver {name!r}: choose one of {', '.join(SOLVERS)}")
    return name, options


def load(path: str, limit: int | None, isomorphs: int, seed: int) -> list[Grid]:
    grids = []
    for record in read_puzzles(path):
        if isinstance(record, Entry):
            grids.append(record.grid)
        else:
            print(f"skipped {record}", file=sys.stderr)
        if limit is not None and len(grids) >= limit:
            break
    if isomorphs:
        rng = random.Random(seed)
        grids = [random_isomorph(g, rng) for g in grids for _ in range(isomorphs)]
    return grids


def run(label: str, name: str, options: dict[str, str], grids: list[Grid], solutions: int,
        budget: Budget) -> None:
    times: list[float] = []
    totals: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    for grid in grids:
        out = SOLVERS[name](grid, budget, solutions=solutions, **options)
        if out.status is Status.ERROR:
            raise SystemExit(f"{label}: {out.detail}")
        if out.solution is not None and grid.solution_problems(out.solution):
            raise SystemExit(f"{label}: wrong solution for {grid.line()}")
        statuses[str(out.status) + ("" if out.unique is None else f"/unique={out.unique}")] += 1
        times.append(out.seconds)
        totals.update(out.effort)
    n = len(grids)
    means = "  ".join(f"{k}={v / n:,.1f}" for k, v in totals.items())
    status = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    print(f"{label:38s} median {statistics.median(times) * 1e3:8.3f} ms  mean "
          f"{statistics.fmean(times) * 1e3:8.3f} ms  {means}  [{status}]", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m search.bench", description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--solver", action="append", help="name[:opt=value,...] (repeatable)")
    parser.add_argument("--solutions", type=int, default=1, choices=(1, 2))
    parser.add_argument("--isomorphs", type=int, default=0, help="random isomorphs per puzzle (0: the file as is)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, help="only the first N puzzles of the file")
    parser.add_argument("--seconds", type=float, help="time budget per puzzle")
    parser.add_argument("--nodes", type=int, help="node budget per puzzle")
    args = parser.parse_args(argv)
    solvers = args.solver or ["mrv:propagate=singles"]
    grids = load(args.file, args.limit, args.isomorphs, args.seed)
    what = f"{len(grids)} puzzles" + (f" ({args.isomorphs} isomorph(s) each, seed {args.seed})" if args.isomorphs else "")
    print(f"{args.file}: {what}, solutions={args.solutions}")
    budget = Budget(args.seconds, args.nodes)
    for text in solvers:
        name, options = parse_solver(text)
        run(text, name, options, grids, args.solutions, budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
