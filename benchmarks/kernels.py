#!/usr/bin/env python3
"""The compiled kernels against the same sources interpreted (SUDOKU_SEARCH_COMPILED=0): measured, not asserted.

    python benchmarks/kernels.py [--solver SPEC] [--file FILE] [--limit K] [--compare FILE ...] [--rounds R]
        [--compare-args ARGS]

Per puzzle: two worker processes, one of each build, are handed each puzzle in turn (alternating which goes
first), and each times its own solve; it prints the median and mean seconds per puzzle of both and their
ratio (interpreted / compiled: above 1, the compiled build is faster). Whole runs: `python compare.py FILE`
in each build, alternating, `--rounds` times each; the median wall seconds and their ratio. Defaults:
mrv:propagate=singles on the collection top1465 (`sudoku-data fetch top1465`), and compare.py on puzzles/seeds.txt.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from commands.flags import positive  # noqa: E402
from puzzles import Entry, data, read_puzzles  # noqa: E402

BUILDS = {"compiled": {}, "interpreted": {"SUDOKU_SEARCH_COMPILED": "0"}}

WORKER = """
import json, sys, time
from puzzles import Grid, kernels
from puzzles.options import MethodSpec
from search import SOLVERS
spec = MethodSpec.parse(sys.argv[1])
name, options = spec.name, dict(spec.options)
method = SOLVERS[name]
print(json.dumps(kernels.BUILD.line()), flush=True)
for line in sys.stdin:
    grid = Grid.parse(line)
    started = time.perf_counter()
    out = method(grid, **options)
    took = time.perf_counter() - started
    print(json.dumps([took, out.status.value, out.effort]), flush=True)
"""


def environment(build: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SUDOKU_SEARCH_COMPILED"}
    return {**env, **BUILDS[build], "PYTHONPATH": str(ROOT)}


def per_puzzle(spec: str, path: Path, limit: int | None) -> None:
    lines = [record.grid.line() for record in read_puzzles(path) if isinstance(record, Entry)][:limit]
    workers = {build: subprocess.Popen([sys.executable, "-c", WORKER, spec], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, cwd=ROOT, env=environment(build))
               for build in BUILDS}
    times: dict[str, list[float]] = {build: [] for build in BUILDS}
    try:
        for build, worker in workers.items():
            assert worker.stdout is not None
            print(f"{build}: {json.loads(worker.stdout.readline())}")
        for i, line in enumerate(lines):
            order = list(workers) if i % 2 == 0 else list(reversed(workers))
            effort = {}
            for build in order:
                worker = workers[build]
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(line + "\n")
                worker.stdin.flush()
                took, _status, effort[build] = json.loads(worker.stdout.readline())
                times[build].append(took)
            if effort["compiled"] != effort["interpreted"]:
                raise SystemExit(f"the builds counted differently on {line}: {effort}")
    finally:
        for worker in workers.values():
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait()
    medians = {build: statistics.median(ts) for build, ts in times.items()}
    means = {build: statistics.fmean(ts) for build, ts in times.items()}
    print(f"{spec} on {path.name}, {len(lines)} puzzles, alternating:")
    for build in BUILDS:
        print(f"  {build:11} median {medians[build] * 1e3:8.3f} ms   mean {means[build] * 1e3:8.3f} ms")
    print(f"  interpreted / compiled: median {medians['interpreted'] / medians['compiled']:.2f}x, "
          f"mean {means['interpreted'] / means['compiled']:.2f}x")


def whole_runs(files: list[str], extra: list[str], rounds: int) -> None:
    walls: dict[str, list[float]] = {build: [] for build in BUILDS}
    for r in range(rounds):
        for build in (list(BUILDS) if r % 2 == 0 else list(reversed(BUILDS))):
            started = time.perf_counter()
            done = subprocess.run([sys.executable, str(ROOT / "compare.py"), *files, *extra], cwd=ROOT,
                                  env=environment(build), capture_output=True, text=True)
            walls[build].append(time.perf_counter() - started)
            first = done.stdout.splitlines()[0] if done.stdout else ""
            if done.returncode not in (0, 1) or not first.startswith(f"kernels: {build}"):
                raise SystemExit(f"compare.py ({build}) exited {done.returncode}: {first} {done.stderr[-500:]}")
    medians = {build: statistics.median(ws) for build, ws in walls.items()}
    print(f"python compare.py {' '.join(files + extra)}: wall seconds, median of {rounds}, alternating:")
    for build in BUILDS:
        print(f"  {build:11} {medians[build]:8.2f} s   (runs: {', '.join(f'{w:.2f}' for w in walls[build])})")
    print(f"  interpreted / compiled: {medians['interpreted'] / medians['compiled']:.2f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solver", default="mrv:propagate=singles")
    parser.add_argument("--file", default="top1465", help="a puzzle file or a collection's name (default top1465)")
    parser.add_argument("--limit", type=positive(int), default=None)
    parser.add_argument("--compare", nargs="*", default=[str(ROOT / "puzzles" / "seeds.txt")],
                        help="the files of the whole compare.py runs (none: skip them)")
    parser.add_argument("--compare-args", default="", help="more arguments for compare.py, e.g. '--jobs 2'")
    parser.add_argument("--rounds", type=positive(int), default=3)
    args = parser.parse_args(argv)
    try:
        file = Path(data.resolve(args.file))
    except data.DataError as exc:
        raise SystemExit(f"benchmarks/kernels.py: {exc}") from None
    if not file.is_file():
        raise SystemExit(f"benchmarks/kernels.py: {args.file} is missing")
    per_puzzle(args.solver, file, args.limit)
    if args.compare:
        whole_runs(args.compare, shlex.split(args.compare_args), args.rounds)


if __name__ == "__main__":
    main()
