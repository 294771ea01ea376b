"""Anti-knight: two cells a chess knight's move apart never hold the same value (f-puzzles' `antiknight`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .base import Constraint, Link, Move, bit, cell_name, pairs_apart

STEPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


@dataclass(frozen=True)
class AntiKnight(Constraint):
    """A knight's move apart, two cells differ."""

    KIND = "antiknight"
    FIELD = "antiknight"
    WORD = "antiknight"
    GLOBAL = True

    def links(self, side: int) -> tuple[Link, ...]:
        return _links(side)

    def word(self, side: int) -> str:
        return "antiknight"

    def field_entry(self, side: int) -> Any:
        return True

    def moved(self, move: Move) -> Constraint:
        return self

    def name(self, index: int, side: int) -> str:
        return "anti-knight"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, a knight's move apart, both hold {va} (anti-knight)"


@cache
def _links(side: int) -> tuple[Link, ...]:
    return pairs_apart(side, STEPS, lambda v: bit(v, side))
