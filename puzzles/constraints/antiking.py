"""Anti-king: two cells a chess king's move apart never hold the same value (f-puzzles' `antiking`). The king's
orthogonal moves stay in a row or a column, whose cells differ already; the rule adds the diagonal ones."""
from __future__ import annotations

from dataclasses import dataclass

from .base import WholeGrid, bit, cell_name


@dataclass(frozen=True)
class AntiKing(WholeGrid):
    """Diagonally touching, two cells differ."""

    KIND = FIELD = WORD = "antiking"
    PAD = ("antiking",)
    TITLE = "anti-king"
    STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))

    @classmethod
    def forbidden(cls, v: int, side: int) -> int:
        return bit(v, side)

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, a king's move apart, both hold {va} (anti-king)"
