"""How many values a candidate mask holds: the one way every compiled module counts a mask's bits.

`popcount` looks the mask up in a table of 13-bit counts, twice (masks have at most 25 bits: a 25x25
puzzle's values). Compiled by mypyc, int.bit_count() has no primitive: it is a method call through the
boxed int, where the table is two looks in a C array and `popcount` a native call from the other compiled
modules. Measured on a shared 2-core machine (load average 4 to 5), compiled:

- benchmarks/popcount.py (1,000 random masks of 9, 16 and 25 bits, medians of 15 to 21 timings, three
  runs): int.bit_count() 68 to 140 ns a mask, `popcount` 10 to 20 ns, the two looks written out 7 to
  13 ns, the loop alone 4 to 8 ns; about the same at every width.
- Solves, puzzle by puzzle against the build that called bit_count (alternating which went first; the
  counters equal): top95 with `mrv` 14.8 s -> 8.5 s in all (1.75x; median 1.64x a puzzle),
  `mrv:propagate=singles` 0.135 -> 0.095 s (1.42x), `mrv:propagate=locked` 1.03x, `astar` (its first
  30) 59.9 -> 52.3 s (1.14x; median 1.29x a puzzle); `cdcl` the same (it counted with this table before).
  `python compare.py top95 --solver mrv --solver cdcl --jobs 1`: 14.6 s -> 8.4 s wall (medians of three
  runs each, alternating).

Interpreted (SUDOKU_SEARCH_COMPILED=0: the trace, a profiler) the table is the slower way, a Python call
where bit_count is one C method: 240 to 420 ns a mask against 70 to 150 ns, and `mrv` on top95's first 30
puzzles 23.5 s -> 29.8 s. The compiled build is the one runs use, so the table is the one way.
"""
from __future__ import annotations

from typing import Final

BITS_IN: Final = bytes(bin(m).count("1") for m in range(1 << 13))  # how many bits each 13-bit mask holds


def popcount(mask: int) -> int:
    """How many bits a mask of at most 26 bits holds."""
    return BITS_IN[mask & 0x1FFF] + BITS_IN[mask >> 13]
