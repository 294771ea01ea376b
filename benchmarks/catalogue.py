#!/usr/bin/env python3
"""The catalogue's study: every kind of rule, on puzzles made of it, through the methods side by side.

    python benchmarks/catalogue.py [KIND ...] [--count K] [--seed S] [--dir DIR] [--solver SPEC ...]
        [--timeout S] [--iss DIR]

For each kind (a variant name `sudoku-generate --variant` takes: by default every kind of rule it draws over a
puzzle's solution and the three rules of the whole grid; `killer+thermometer` and other combinations when named),
`--count` minimal 9x9 puzzles are made (`sudoku-generate --variant KIND --minimal --count K --seed S`, kept in
`--dir` as KIND-9.txt and made again only when missing), and every side runs on every puzzle as
benchmarks/versus_iss.py runs them: each proving uniqueness (`solutions=2`), in one loop with the first side
rotated, every answer checked cell by cell against the puzzle's rules and against the other sides'. ISS joins as
a side with `--iss DIR` on the kinds its driver gives it (benchmarks/iss_driver.mjs); on others it is left out.

It prints each kind's run as versus_iss.py does, then one table: per kind and side, puzzles settled, the median
milliseconds a puzzle, and for a hand-written search the share settled without a guess; and the best
hand-written search's median as a multiple of CP-SAT's (below 1: ahead).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import search  # the hand-written searches, by name: SOLVERS
from benchmarks.versus_iss import (
    ISS_ENV,
    REFUSED,
    Figures,
    Iss,
    IssError,
    Side,
    compare_file,
    methods,
    node_program,
    puzzles_in,
    report,
)
from commands import generate
from commands.flags import positive
from comparison.core.errors import UsageError
from making.variants import drawn_kinds
from puzzles import PuzzleFileError, kernels

GLOBAL_KINDS = ("antiknight", "antiking", "nonconsecutive")
SOLVERS = ("cdcl", "mrv:propagate=singles", "mrv:propagate=locked", "cpsat", "sat")
CPSAT = "cpsat"


@dataclass(frozen=True)
class Row:
    """One kind's line of the summary: its puzzles and each side's figures."""

    kind: str
    count: int
    figures: list[Figures]


def puzzle_file(kind: str, count: int, seed: int, folder: Path) -> Path:
    """The kind's puzzles, made once into the folder (quiet: the generator's progress is not the study's)."""
    path = folder / f"{kind.replace('+', '_')}-9.txt"
    if path.exists() and len(puzzles_in(path, None)) >= count:
        return path
    print(f"making {count} minimal {kind} puzzles ...", file=sys.stderr)
    with contextlib.redirect_stdout(io.StringIO()):
        made = generate.main(["--variant", kind, "--minimal", "--count", str(count), "--seed", str(seed),
                              "--output", str(path)])
    if made:
        raise SystemExit(f"catalogue: sudoku-generate --variant {kind} failed (exit {made})")
    return path


def iss_takes(iss: Iss, path: Path) -> bool:
    """Whether ISS's driver turns the file's first puzzle into ISS's constraints (else ISS sits the kind out)."""
    _, grid = puzzles_in(path, 1)[0]
    return not str(iss.ask(grid).get("error", "")).startswith(REFUSED)


def summary(rows: list[Row]) -> list[str]:
    """The table: a kind a line; per side settled, median ms, and a hand-written search's share without a guess."""
    names = list(dict.fromkeys(f.side.name for row in rows for f in row.figures))
    head = ["kind", "puzzles", *names, "best hand-written / CP-SAT"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        by_name = {f.side.name: f for f in row.figures}
        cells = [row.kind, str(row.count)]
        for name in names:
            f = by_name.get(name)
            if f is None or not f.seconds:
                cells.append("")
                continue
            text = f"{f.settled}/{row.count}, {statistics.median(f.seconds) * 1000:.1f} ms"
            if name.partition(":")[0] in search.SOLVERS and len(f.guesses) == row.count:
                text += f", {sum(g == 0 for g in f.guesses) / row.count:.0%} no guess"
            cells.append(text)
        cells.append(ratio_to_cpsat(row.figures))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def ratio_to_cpsat(figures: list[Figures]) -> str:
    """The fastest hand-written side's median over CP-SAT's, with its name; empty without both."""
    cpsat = next((f for f in figures if f.side.name == CPSAT and f.seconds), None)
    hand = [f for f in figures if f.side.name.partition(":")[0] in search.SOLVERS and f.seconds]
    if cpsat is None or not hand:
        return ""
    best = min(hand, key=lambda f: statistics.median(f.seconds))
    return f"{statistics.median(best.seconds) / statistics.median(cpsat.seconds):.2f}x ({best.side.name})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kinds", nargs="*", help="variant names (default: every kind drawn, and "
                        f"{', '.join(GLOBAL_KINDS)})")
    parser.add_argument("--count", type=positive(int), default=20, help="puzzles of each kind (default 20)")
    parser.add_argument("--seed", type=int, default=2026, help="the generator's seed (default 2026)")
    parser.add_argument("--dir", default="catalogue-puzzles", help="where the puzzles are kept (default "
                        "catalogue-puzzles)")
    parser.add_argument("--solver", action="append", help=f"a method; given again, another (default: "
                        f"{', '.join(SOLVERS)})")
    parser.add_argument("--timeout", type=positive(float), default=10.0, help="seconds a side a puzzle (default 10)")
    parser.add_argument("--iss", metavar="DIR", default=os.environ.get(ISS_ENV) or None,
                        help="a checkout of the Interactive Sudoku Solver, to run beside the methods")
    args = parser.parse_args(argv)
    kinds = args.kinds or [*drawn_kinds(), *GLOBAL_KINDS]
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    node = node_program()
    iss = Iss(Path(args.iss), node, args.timeout) if args.iss and node else None
    print(kernels.BUILD.line())
    rows: list[Row] = []
    try:
        sides = methods(args.solver or SOLVERS, args.timeout)
        for kind in kinds:
            path = puzzle_file(kind, args.count, args.seed, folder)
            with_iss = [*sides, Side("ISS", iss.run, peer=True)] if iss is not None and iss_takes(iss, path) else sides
            count, figures = compare_file(path, with_iss, args.count, 1)
            print("\n".join(report(kind, count, figures, args.timeout)), flush=True)
            rows.append(Row(kind, count, figures))
    except UsageError as exc:
        parser.error(str(exc))
    except PuzzleFileError as exc:
        print(f"catalogue: {exc}", file=sys.stderr)
        return 2
    except IssError as exc:
        print(f"catalogue: ISS ({args.iss}): {exc}", file=sys.stderr)
        return 2
    finally:
        if iss is not None:
            iss.close()
    print()
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
