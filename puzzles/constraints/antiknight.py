"""Anti-knight: two cells a chess knight's move apart never hold the same value (f-puzzles' `antiknight`)."""
from __future__ import annotations

from dataclasses import dataclass

from .base import WholeGrid, bit, cell_name


@dataclass(frozen=True)
class AntiKnight(WholeGrid):
    """A knight's move apart, two cells differ."""

    KIND = FIELD = WORD = "antiknight"
    PAD = ("antiknight",)
    TITLE = "anti-knight"
    STEPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))

    @classmethod
    def forbidden(cls, v: int, side: int) -> int:
        return bit(v, side)

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, a knight's move apart, both hold {va} (anti-knight)"
