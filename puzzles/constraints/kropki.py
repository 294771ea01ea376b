"""Kropki dots between two orthogonal neighbours (dots.py): a white dot, their values differ by its value (1 when
none is given: consecutive; f-puzzles' `difference`), a black dot, one is its value times the other (2 when none is
given: one is double the other; f-puzzles' `ratio`). With f-puzzles' `negative` (negative.py), the pairs without a
dot of either colour are no such pair."""
from __future__ import annotations

from dataclasses import dataclass

from .dots import Dot


@dataclass(frozen=True)
class Difference(Dot):
    """A white dot: the two values differ by `value`."""

    KIND = FIELD = "difference"
    WORD = "kw="
    DEFAULT = 1
    NEGATED = (1,)
    FAMILY = "kropki"
    TITLE = "white dot"
    SHAPE = "ring"

    @classmethod
    def related(cls, v: int, w: int, value: int) -> bool:
        return abs(v - w) == value

    def says(self) -> str:
        return f"a white dot between them asks a difference of {self.value}"


@dataclass(frozen=True)
class Ratio(Dot):
    """A black dot: one value is `value` times the other."""

    KIND = FIELD = "ratio"
    WORD = "kb="
    DEFAULT = 2
    NEGATED = (2,)
    FAMILY = "kropki"
    TITLE = "black dot"
    SHAPE = "dot"

    @classmethod
    def related(cls, v: int, w: int, value: int) -> bool:
        return v == w * value or w == v * value

    def says(self) -> str:
        return f"a black dot between them asks that one be {self.value} times the other"
