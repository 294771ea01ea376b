#!/usr/bin/env python3
"""How hard a made puzzle is on fresh isomorphs, against a public collection's median, under one method.

    python benchmarks/hard_for.py MADE [--method SPEC] [--easy SPEC] [--isomorphs 20] [--seed 99] [--top 3]
        [--reference FILE]

MADE is what `sudoku-generate --hard-for SPEC` wrote (CSV or line format), best first. Its first
--top puzzles are each run on --isomorphs random isomorphs that the search never drew (another seed), and the
geometric mean of (1 + the method's counter), less 1, is printed with the counts themselves: the search's own
score over the isomorphs it drew favours the lucky ones (the winner's curse), these do not. The reference
collection (default: the collection forum-hardest-1106) is run once on the file as written and once on one
random isomorph of each puzzle (the file's own orientation can favour a search: forum-hardest-1106 is written
so that most solutions' first row reads 123456789), and its median and geometric mean are printed both ways.
With --easy SPEC (puzzles made with --easy-for), the easy method runs on the same isomorphs and the ratio of
the two means (each plus one) is printed instead. Every run goes through compare.py's machinery
(comparison.run.compare), on the cores.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from commands.flags import positive  # noqa: E402
from comparison.programs.hard_search import counter_of, geometric_mean  # noqa: E402
from comparison.run.comparison import compare  # noqa: E402
from puzzles import data  # noqa: E402

REFERENCE = "forum-hardest-1106"  # a collection's name: puzzles/data.py finds its file


def efforts(path: str, methods: list[str], isomorphs: int | None, seed: int, limit: int | None = None,
            ) -> dict[str, dict[int, list[float]]]:
    """Each method's counter on each puzzle of `path` (by line), on the same isomorphs when asked (the
    original left out), else on the puzzle as written."""
    found: dict[str, dict[int, list[float]]] = {method: defaultdict(list) for method in methods}
    run = compare([path], methods, isomorphs=isomorphs, seed=seed, limit=limit, certify=False, timeout=60)
    for record in run:
        if record["status"] == "bad_entry" or (isomorphs and not record["isomorph"]):
            continue
        if record["status"] not in ("solved", "unsatisfiable"):
            raise SystemExit(f"{path}:{record['line']}: {record['method']} ended {record['status']} "
                             f"({record['detail']})")
        found[record["method"]][record["line"]].append(counter_of({**(record.get("extra") or {}), **record})[1])
    return found


def logs(values: list[float]) -> list[float]:
    return [math.log1p(v) for v in values]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hard_for", description=__doc__.split("\n")[0])
    parser.add_argument("made")
    parser.add_argument("--method", default="mrv:propagate=singles")
    parser.add_argument("--easy", metavar="SPEC", help="the --easy-for method: its effort on the same isomorphs, "
                        "and the ratio of the two means (each plus one); no reference then")
    parser.add_argument("--isomorphs", type=positive(int), default=20)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--top", type=positive(int), default=3)
    parser.add_argument("--reference", default=REFERENCE, help="a puzzle file or a collection's name")
    args = parser.parse_args(argv)
    for path in (args.made, args.reference):
        if not Path(path).is_file() and path not in data.NAMES:
            print(f"hard_for: {path}: no such file", file=sys.stderr)
            return 2
    print(f"{args.method}, by its own counter; geometric means are of (1 + count), less 1")
    methods = [args.method, *([args.easy] if args.easy else [])]
    found = efforts(args.made, methods, args.isomorphs, args.seed, args.top)
    for line, values in sorted(found[args.method].items()):
        hard = geometric_mean(logs(values))
        print(f"{args.made}:{line}: geometric mean {hard:.1f}, median {statistics.median(values):.1f} over "
              f"{len(values)} fresh isomorphs (seed {args.seed}): {', '.join(f'{v:g}' for v in values)}")
        if args.easy:
            easy = found[args.easy][line]
            print(f"  {args.easy}: geometric mean {geometric_mean(logs(easy)):.1f} "
                  f"({', '.join(f'{v:g}' for v in easy)}); ratio {(hard + 1) / (geometric_mean(logs(easy)) + 1):.2f}")
    if args.easy:
        return 0
    try:
        reference = data.resolve(args.reference)
    except data.MissingCollection as exc:
        print(f"reference {args.reference}: not found ({exc}), skipped")
        return 0
    for how, isomorphs in (("as written", None), (f"one random isomorph each (seed {args.seed})", 1)):
        each = [v for vs in efforts(reference, [args.method], isomorphs, args.seed)[args.method].values()
                for v in vs]
        print(f"{Path(reference).name}, {how}: median {statistics.median(each):.1f}, geometric mean "
              f"{geometric_mean(logs(each)):.1f} over {len(each)} puzzles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
