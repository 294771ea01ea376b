"""Non-consecutive: two orthogonally neighbouring cells never hold values that differ by 1 (f-puzzles'
`nonconsecutive`). Relabelling breaks it, but for the reversal v -> n+1-v."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .base import Constraint, Link, Move, bit, cell_name, pairs_apart

STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True)
class NonConsecutive(Constraint):
    """Orthogonal neighbours never differ by 1."""

    KIND = "nonconsecutive"
    FIELD = "nonconsecutive"
    WORD = "nonconsecutive"
    GLOBAL = True
    RELABELS = False

    def links(self, side: int) -> tuple[Link, ...]:
        return _links(side)

    def word(self, side: int) -> str:
        return "nonconsecutive"

    def field_entry(self, side: int) -> Any:
        return True

    def moved(self, move: Move) -> Constraint:
        return self

    def name(self, index: int, side: int) -> str:
        return "non-consecutive"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)}, neighbours, hold {va} and {vb} (non-consecutive)"


@cache
def _links(side: int) -> tuple[Link, ...]:
    return pairs_apart(side, STEPS, lambda v: bit(v - 1, side) | bit(v + 1, side))
