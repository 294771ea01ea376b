"""Equivalent puzzles: relabel values, permute bands, stacks, rows and columns, transpose.

Each move maps solutions to solutions, so an isomorph has the same solution
count as its original. Search effort is not invariant (tie-breaks follow the
orientation), which is why fair effort figures average over random isomorphs.
An `Isomorph` is the drawn moves themselves, so the same moves can be applied
to a puzzle and to its solution.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .grid import Grid


def _line_order(box: int, rng: random.Random) -> list[int]:
    """A random order of the lines (rows or columns): bands shuffled, then lines within each band."""
    bands = list(range(box))
    rng.shuffle(bands)
    order: list[int] = []
    for band in bands:
        inside = list(range(box))
        rng.shuffle(inside)
        order.extend(band * box + i for i in inside)
    return order


@dataclass(frozen=True)
class Isomorph:
    """One equivalence move of a box size: new cell (r, c) takes the relabelled old cell (rows[r], cols[c]),
    read transposed when `transpose` is set."""

    box: int
    relabel: tuple[int, ...]  # relabel[v] is the new value of v; relabel[0] = 0 keeps blanks blank
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    transpose: bool

    @classmethod
    def draw(cls, box: int, rng: random.Random) -> Isomorph:
        labels = list(range(1, box * box + 1))
        rng.shuffle(labels)
        rows = _line_order(box, rng)
        cols = _line_order(box, rng)
        return cls(box, (0, *labels), tuple(rows), tuple(cols), rng.random() < 0.5)

    def apply(self, grid: Grid) -> Grid:
        if grid.box != self.box:
            raise ValueError(f"an isomorph of box size {self.box} applied to a {grid.side}x{grid.side} grid")
        n, old, relabel = grid.side, grid.values, self.relabel
        new = bytearray(n * n)
        for r in range(n):
            for c in range(n):
                src_r, src_c = self.rows[r], self.cols[c]
                if self.transpose:
                    src_r, src_c = src_c, src_r
                new[r * n + c] = relabel[old[src_r * n + src_c]]
        return Grid(self.box, bytes(new))


def random_isomorph(grid: Grid, rng: random.Random) -> Grid:
    """A random puzzle equivalent to `grid`, drawn with `rng` (any box size)."""
    return Isomorph.draw(grid.box, rng).apply(grid)
