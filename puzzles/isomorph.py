"""Equivalent puzzles: relabel values, permute bands, stacks, rows and columns, transpose.

Each move maps solutions to solutions, so an isomorph has the same solution
count as its original. Search effort is not invariant (tie-breaks follow the
orientation), which is why fair effort figures average over random isomorphs.
"""
from __future__ import annotations

import random

from .grid import Grid


def _line_order(box: int, rng: random.Random) -> list[int]:
    """A random order of the lines (rows or columns): bands shuffled, then lines within each band."""
    bands = list(range(box))
    rng.shuffle(bands)
    order = []
    for band in bands:
        inside = list(range(box))
        rng.shuffle(inside)
        order.extend(band * box + i for i in inside)
    return order


def random_isomorph(grid: Grid, rng: random.Random) -> Grid:
    """A random puzzle equivalent to `grid`, drawn with `rng` (any box size)."""
    box, n = grid.box, grid.side
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    relabel = [0] + labels  # 0 (blank) stays blank
    rows = _line_order(box, rng)
    cols = _line_order(box, rng)
    transpose = rng.random() < 0.5
    old = grid.values
    new = bytearray(n * n)
    for r in range(n):
        for c in range(n):
            src_r, src_c = rows[r], cols[c]
            if transpose:
                src_r, src_c = src_c, src_r
            new[r * n + c] = relabel[old[src_r * n + src_c]]
    return Grid(box, bytes(new))
