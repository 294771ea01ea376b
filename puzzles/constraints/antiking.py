"""Anti-king: two cells a chess king's move apart never hold the same value (f-puzzles' `antiking`). The king's
orthogonal moves stay in a row or a column, whose cells differ already; the rule adds the diagonal ones."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .base import Constraint, Link, Move, bit, cell_name, pairs_apart

STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class AntiKing(Constraint):
    """Diagonally touching, two cells differ."""

    KIND = "antiking"
    FIELD = "antiking"
    WORD = "antiking"
    GLOBAL = True

    def links(self, side: int) -> tuple[Link, ...]:
        return _links(side)

    def word(self, side: int) -> str:
        return "antiking"

    def field_entry(self, side: int) -> Any:
        return True

    def moved(self, move: Move) -> Constraint:
        return self

    def name(self, index: int, side: int) -> str:
        return "anti-king"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, a king's move apart, both hold {va} (anti-king)"


@cache
def _links(side: int) -> tuple[Link, ...]:
    return pairs_apart(side, STEPS, lambda v: bit(v, side))
