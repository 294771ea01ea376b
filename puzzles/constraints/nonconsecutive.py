"""Non-consecutive: two orthogonally neighbouring cells never hold values that differ by 1 (f-puzzles'
`nonconsecutive`). Relabelling breaks it, but for the reversal v -> n+1-v."""
from __future__ import annotations

from dataclasses import dataclass

from .base import WholeGrid, bit, cell_name


@dataclass(frozen=True)
class NonConsecutive(WholeGrid):
    """Orthogonal neighbours never differ by 1."""

    KIND = FIELD = WORD = "nonconsecutive"
    PAD = ("nonconsecutive",)
    TITLE = "non-consecutive"
    RELABELS = False
    STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))

    @classmethod
    def forbidden(cls, v: int, side: int) -> int:
        return bit(v - 1, side) | bit(v + 1, side)

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, neighbours, hold {va} and {vb} (non-consecutive)"
