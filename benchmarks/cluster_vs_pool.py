"""compare.py on a local Dask cluster against the local pool: throughput and the parent's share of the CPU.

    python -m benchmarks.cluster_vs_pool [FILE] [--solver SPEC] [--rounds N] [--workers N]

Runs `compare.py FILE --solver SPEC --no-certify` with `--jobs N` and with `--cluster local:N`, alternating,
each in a fresh process, and prints each run's puzzles a second and the share of all CPU time (the run's
process and every process it started) that the parent process itself spent; then the medians and the
ratio of the medians. The machine may be shared: the figures of one series are comparable with each other.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from commands.flags import positive  # noqa: E402
from puzzles import Entry, PuzzleFileError, data, read_puzzles  # noqa: E402

ONE_RUN = """
import json, resource, sys, time
import compare
started = time.perf_counter()
status = compare.main(sys.argv[1:])
wall = time.perf_counter() - started
me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": status, "wall": wall, "parent": me.ru_utime + me.ru_stime,
                  "children": children.ru_utime + children.ru_stime}), file=sys.stderr)
"""


def run(argv: list[str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", ONE_RUN, *argv], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    last = done.stderr.strip().splitlines()[-1]
    figures: dict[str, float] = json.loads(last)
    if figures["status"] != 0:
        raise SystemExit(f"the run failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default="17-clue", help="a puzzle file or a collection's name")
    parser.add_argument("--solver", default="mrv:propagate=singles")
    parser.add_argument("--rounds", type=positive(int), default=3)
    parser.add_argument("--workers", type=positive(int), default=2)
    parser.add_argument("--limit", type=positive(int))
    args = parser.parse_args(argv)
    try:
        args.file = data.resolve(args.file)
    except data.DataError as exc:
        raise SystemExit(f"cluster_vs_pool: {exc}") from None
    common = [args.file, "--solver", args.solver, "--no-certify", *(["--limit", str(args.limit)] if args.limit else [])]
    ways = {"pool": ["--jobs", str(args.workers)], "cluster": ["--cluster", f"local:{args.workers}"]}
    rates: dict[str, list[float]] = {name: [] for name in ways}
    shares: dict[str, list[float]] = {name: [] for name in ways}
    try:
        puzzles = args.limit or sum(isinstance(record, Entry) for record in read_puzzles(args.file))
    except PuzzleFileError as exc:  # no such file, a folder, unreadable
        raise SystemExit(f"cluster_vs_pool: {exc}") from None
    for round_ in range(1, args.rounds + 1):
        for name, how in ways.items():
            figures = run([*common, *how])
            rate = puzzles / figures["wall"]
            share = figures["parent"] / (figures["parent"] + figures["children"])
            rates[name].append(rate)
            shares[name].append(share)
            print(f"round {round_} {name:8} {figures['wall']:7.2f} s  {rate:8,.0f} puzzles/s  parent "
                  f"{figures['parent']:6.2f} s CPU of {figures['parent'] + figures['children']:6.2f} s ({share:.1%})",
                  flush=True)
    pool, cluster = statistics.median(rates["pool"]), statistics.median(rates["cluster"])
    for name in ways:
        print(f"median {name:8} {statistics.median(rates[name]):8,.0f} puzzles/s, parent's CPU share "
              f"{statistics.median(shares[name]):.1%}")
    print(f"cluster / pool throughput: {cluster / pool:.2f}")


if __name__ == "__main__":
    main()
