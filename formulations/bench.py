"""Benchmark the formulations on a puzzle file: time per puzzle and mean effort.

    python -m formulations.bench FILE [--solver cpsat:model=boolean,presolve=off ...]
                                      [--timeout S] [--limit N] [--solutions 1|2]

A solver is NAME or NAME:opt=value,opt=value. The times are whole calls
(model building included); every solution is checked against the puzzle.
The table is printed as Markdown so it can go into a README as it is.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from puzzles.grid import Grid, PuzzleError
from puzzles.outcome import Budget, Status

from . import SOLVERS

DEFAULT_SOLVERS = ("cpsat", "cpsat:model=boolean", "cpsat:presolve=off", "python-constraint", "mip", "sat")


def read_puzzles(path: Path, limit: int | None = None) -> list[Grid]:
    """The puzzles of a line-format file; a bad line is reported and skipped."""
    grids: list[Grid] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            grids.append(Grid.parse(text.split()[0]))
        except PuzzleError as exc:
            print(f"{path}:{number}: skipped: {exc}", file=sys.stderr)
        if limit is not None and len(grids) >= limit:
            break
    return grids


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise SystemExit(f"bad option {item!r} in {spec!r}: expected opt=value")
        options[key.strip()] = value.strip()
    if name not in SOLVERS:
        raise SystemExit(f"unknown solver {name!r} (choose from {', '.join(SOLVERS)})")
    return name, options


def run(spec: str, grids: list[Grid], budget: Budget, solutions: int) -> dict[str, object]:
    name, options = parse_spec(spec)
    method = SOLVERS[name]
    times: list[float] = []
    totals: dict[str, int] = {}
    counts = {s: 0 for s in Status}
    wrong = 0
    solver_seconds: list[float] = []
    no_search = 0  # puzzles settled without a branch (CP-SAT, MIP) or a decision (SAT)
    flags: dict[str, int] = {}  # boolean facts in Outcome.info, e.g. root_lp_integral
    for grid in grids:
        outcome = method(grid, budget, solutions=solutions, **options)
        if outcome.status is Status.ERROR:
            raise SystemExit(f"{spec}: {outcome.detail}")
        times.append(outcome.seconds)
        counts[outcome.status] += 1
        for key, value in outcome.effort.items():
            totals[key] = totals.get(key, 0) + value
        if outcome.solution is not None and grid.solution_problems(outcome.solution):
            wrong += 1
        if isinstance(outcome.info.get("solver_seconds"), float):
            solver_seconds.append(outcome.info["solver_seconds"])  # type: ignore[arg-type]
        search = next((k for k in ("branches", "decisions") if k in outcome.effort), None)
        if search is None and name == "mip":
            search = "nodes"
        if search is not None and outcome.status is Status.SOLVED and outcome.effort[search] == 0:
            no_search += 1
        for key, value in outcome.info.items():
            if isinstance(value, bool) and key not in ("presolve",):
                flags[key] = flags.get(key, 0) + int(value)
    n = len(grids)
    return {
        "spec": spec,
        "solved": counts[Status.SOLVED],
        "gave_up": counts[Status.GAVE_UP],
        "unsat": counts[Status.UNSATISFIABLE],
        "wrong": wrong,
        "median_ms": 1000 * statistics.median(times),
        "mean_ms": 1000 * statistics.mean(times),
        "total_s": sum(times),
        "effort": {k: v / n for k, v in totals.items()},
        "solver_ms": 1000 * statistics.mean(solver_seconds) if solver_seconds else None,
        "no_search": no_search if name != "python-constraint" else None,
        "flags": flags,
    }


def table(rows: list[dict[str, object]], puzzles: int) -> str:
    out = [
        f"| formulation | solved/{puzzles} | median ms | mean ms | solver's own mean ms | "
        "mean effort per puzzle | settled without search |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        effort = ", ".join(f"{k} {v:,.1f}" for k, v in r["effort"].items())  # type: ignore[union-attr]
        solved = f"{r['solved']}" + (f" ({r['gave_up']} gave up)" if r["gave_up"] else "")
        if r["wrong"]:
            solved += f" ({r['wrong']} WRONG)"
        own = "-" if r["solver_ms"] is None else f"{r['solver_ms']:.1f}"
        notes = "-" if r["no_search"] is None else f"{r['no_search']}"
        for key, value in r["flags"].items():  # type: ignore[union-attr]
            notes += f"; {key}: {value}"
        out.append(f"| {r['spec']} | {solved} | {r['median_ms']:.1f} | {r['mean_ms']:.1f} | {own} | {effort} | {notes} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formulations.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--solver", action="append", help="NAME or NAME:opt=value,... (repeatable)")
    parser.add_argument("--timeout", type=float, help="seconds per puzzle")
    parser.add_argument("--nodes", type=int, help="node budget per puzzle")
    parser.add_argument("--limit", type=int, help="only the first N puzzles")
    parser.add_argument("--solutions", type=int, choices=(1, 2), default=1)
    args = parser.parse_args(argv)
    grids = read_puzzles(args.file, args.limit)
    if not grids:
        print(f"{args.file}: no puzzles", file=sys.stderr)
        return 1
    budget = Budget(args.timeout, args.nodes)
    rows = []
    started = time.perf_counter()
    for spec in args.solver or DEFAULT_SOLVERS:
        row = run(spec, grids, budget, args.solutions)
        rows.append(row)
        print(f"# {spec}: {row['solved']}/{len(grids)} solved in {row['total_s']:.1f} s", file=sys.stderr, flush=True)
    print(f"{args.file.name}: {len(grids)} puzzles, solutions={args.solutions}, "
          f"timeout={args.timeout}, wall {time.perf_counter() - started:.0f} s")
    print(table(rows, len(grids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
