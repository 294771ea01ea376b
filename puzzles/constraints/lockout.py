"""A lockout line (f-puzzles' `lockout`): a line with a diamond at each end, the ends' values differing by at least
the line's value (half the side, rounded down, when the entry gives none: 4 on a 9x9, as SudokuVariantSolverJS
reads f-puzzles' lines, which give none), and no cell between them holding a value from the lower end's to the upper
end's, both included. Values may repeat (the houses aside).

Kept by its filter as a between line is (between.py), the values the ends leave a cell between them the outside of
their range rather than its inside."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import Shape, span
from .between import BetweenLine
from .lines import Line


@dataclass(frozen=True)
class Lockout(BetweenLine):
    """`value`: the least difference between its ends."""

    value: int = 0

    KIND = FIELD = "lockout"
    WORD = "lo="
    TITLE = "lockout line"
    VALUED = True

    def value_of_line(self) -> int:
        return self.value

    @classmethod
    def default(cls, side: int) -> int:
        return side // 2

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int) -> Line:
        return cls(cells, value)

    def inside(self, low: int, high: int, side: int) -> int:
        return ((1 << side) - 1) & ~span(low, high, side)

    def ends_apart(self, v: int, w: int) -> bool:
        return abs(v - w) >= self.value

    def broken(self, held: Sequence[int], side: int) -> str | None:
        v, w = held[0], held[-1]
        if not self.ends_apart(v, w):
            return f"its ends hold {v} and {w}, less than {self.value} apart"
        return super().broken(held, side)

    def problem(self, side: int) -> str | None:
        if not 1 <= self.value <= side - 1:
            return f"asks its ends to differ by {self.value}: two values 1 to {side} differ by 1 to {side - 1}"
        return super().problem(side)

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A diamond on each end, the line between."""
        return (Shape("diamond", (self.cells[0],), self.TITLE), Shape("diamond", (self.cells[-1],), self.TITLE),
                Shape("line", self.cells, self.TITLE))
