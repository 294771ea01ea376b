#!/usr/bin/env python3
"""Counting a mask's bits two ways, compiled by mypyc as the searches are: int.bit_count() against two looks
in a table of 13-bit counts (puzzles/bits.py's `popcount`). Measured, not asserted.

    python benchmarks/popcount.py [--rounds R] [--repeats N]

It writes two small modules to a temporary folder and compiles them together with mypyc (one group, as
pip install -e . compiles the searches): the table and its function in one, loops in the other that count
the bits of 1,000 random masks of 9, 16 and 25 bits (the sides of 9x9, 16x16 and 25x25 puzzles) each way:
`bit_count` (the method), `table, called` (the function of the other module, as the searches call it),
`table, inline` (the two looks written out) and `loop alone` (the loop and the sum, nothing counted). It
prints the median nanoseconds a mask of each, over N timings of R passes each, the ways taken in turn;
then the same loops interpreted, for scale. Needs a C compiler, as the compiled build does.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

BITS = '''
from typing import Final

BITS_IN: Final = bytes(bin(m).count("1") for m in range(1 << 13))


def popcount(mask: int) -> int:
    return BITS_IN[mask & 0x1FFF] + BITS_IN[mask >> 13]
'''

LOOPS = '''
from popbits import BITS_IN, popcount


def bit_count(masks: list[int], rounds: int) -> int:
    total = 0
    for _ in range(rounds):
        for m in masks:
            total += m.bit_count()
    return total


def table_called(masks: list[int], rounds: int) -> int:
    total = 0
    for _ in range(rounds):
        for m in masks:
            total += popcount(m)
    return total


def table_inline(masks: list[int], rounds: int) -> int:
    total = 0
    for _ in range(rounds):
        for m in masks:
            total += BITS_IN[m & 0x1FFF] + BITS_IN[m >> 13]
    return total


def loop_alone(masks: list[int], rounds: int) -> int:
    total = 0
    for _ in range(rounds):
        for m in masks:
            total += m & 1
    return total
'''

WAYS = {"bit_count": "bit_count", "table, called": "table_called", "table, inline": "table_inline",
        "loop alone": "loop_alone"}
WIDTHS = (9, 16, 25)
MASKS = 1000

Loop = Callable[[list[int], int], int]


def modules(folder: Path, compiled: bool) -> ModuleType:
    """The loops module, compiled by mypyc in `folder` or read from its sources there."""
    (folder / "popbits.py").write_text(textwrap.dedent(BITS).lstrip())
    (folder / "popbench.py").write_text(textwrap.dedent(LOOPS).lstrip())
    if compiled:
        built = subprocess.run([sys.executable, "-m", "mypyc", "popbits.py", "popbench.py"], cwd=folder,
                               capture_output=True, text=True)
        if built.returncode:
            sys.exit(f"popcount: mypyc could not compile the loops:\n{built.stdout}{built.stderr}")
    sys.path.insert(0, str(folder))
    try:
        for name in ("popbits", "popbench"):
            sys.modules.pop(name, None)
        loops = importlib.import_module("popbench")
    finally:
        sys.path.remove(str(folder))
    suffix = Path(loops.__file__ or "").suffix
    if (suffix != ".py") != compiled:
        sys.exit(f"popcount: expected the {'compiled' if compiled else 'interpreted'} loops, got {loops.__file__}")
    return loops


def medians(loops: ModuleType, rounds: int, repeats: int) -> dict[int, dict[str, float]]:
    """Per mask width, per way: the median nanoseconds a mask."""
    rng = random.Random(1)
    found: dict[int, dict[str, float]] = {}
    for width in WIDTHS:
        masks = [rng.getrandbits(width) for _ in range(MASKS)]
        expected = sum(m.bit_count() for m in masks) * rounds
        timings: dict[str, list[float]] = {way: [] for way in WAYS}
        for repeat in range(repeats):
            order = list(WAYS) if repeat % 2 == 0 else list(reversed(WAYS))  # neither way always first
            for way in order:
                loop: Loop = getattr(loops, WAYS[way])
                started = time.perf_counter()
                total = loop(masks, rounds)
                took = time.perf_counter() - started
                assert way == "loop alone" or total == expected, way
                timings[way].append(took / (rounds * MASKS) * 1e9)
        found[width] = {way: statistics.median(ns) for way, ns in timings.items()}
    return found


def show(title: str, found: dict[int, dict[str, float]]) -> None:
    print(title)
    print(f"  {'bits':>4}  " + "  ".join(f"{way:>13}" for way in WAYS))
    for width, ns in found.items():
        print(f"  {width:>4}  " + "  ".join(f"{ns[way]:>10.1f} ns" for way in WAYS))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=2000, help="passes over the masks a timing (default 2000)")
    parser.add_argument("--repeats", type=int, default=15, help="timings of each way (default 15)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as compiled_in, tempfile.TemporaryDirectory() as read_in:
        show(f"compiled (mypyc), median ns a mask, {args.repeats} x {args.rounds} x {MASKS} masks",
             medians(modules(Path(compiled_in), compiled=True), args.rounds, args.repeats))
        rounds = max(args.rounds // 20, 1)
        show(f"interpreted, median ns a mask, {args.repeats} x {rounds} x {MASKS} masks",
             medians(modules(Path(read_in), compiled=False), rounds, args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
