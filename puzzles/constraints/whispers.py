"""German whispers (f-puzzles' `whispers`): two cells next to each other along the line differ by at least the
line's value, 5 on a 9x9 (f-puzzles' `value` gives another: Dutch whispers, 4). Without a value a line asks half
the side, rounded up (3 on a 6x6, 2 on a 4x4), as SudokuVariantSolverJS reads f-puzzles' lines. Stated as links
between each two neighbours along the line (lines.py): a value v in one forbids v-d+1 .. v+d-1 in the other."""
from __future__ import annotations

from dataclasses import dataclass

from .base import span
from .lines import Line


@dataclass(frozen=True)
class Whispers(Line):
    """`value`: the least difference between two neighbours along the line."""

    value: int = 0

    KIND = FIELD = "whispers"
    WORD = "gw="
    TITLE = "whispers line"
    VALUED = True

    def value_of_line(self) -> int:
        return self.value

    @classmethod
    def default(cls, side: int) -> int:
        return (side + 1) // 2

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int) -> Line:
        return cls(cells, value)

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        near = (0, *(span(v - self.value + 1, v + self.value - 1, side) for v in range(1, side + 1)))
        return [(a, b, near) for a, b in zip(self.cells, self.cells[1:], strict=False)]

    def says(self, a: int, b: int) -> str:
        return f"neighbours along it differ by {self.value} or more"

    def problem(self, side: int) -> str | None:
        if self.value < 1:
            return f"asks a difference of {self.value}: a whispers line asks 1 or more"
        if self.value > side - 1:
            return f"asks a difference of {self.value}: no two values 1 to {side} differ by so much"
        return super().problem(side)
