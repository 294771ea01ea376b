"""A double arrow (f-puzzles' `doublearrow`, as SudokuVariantSolverJS reads it): a line with a circle at each end,
the two end cells' values summing to the sum of the values of the cells between them. Values may repeat (the houses
aside).

A weighted sum (sums.py), drawn and read as a line (lines.py's `ScopedLine`): the ends weigh -1, the cells between
1, the total 0; its filter is the sum's (generalised arc consistency)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import Shape
from .lines import ScopedLine
from .sums import WeightedSum, sum_supports


@dataclass(frozen=True)
class DoubleArrow(ScopedLine, WeightedSum):
    """A line whose two ends sum to the sum of the cells between them."""

    KIND = FIELD = "doublearrow"
    WORD = "da="
    TITLE = "double arrow"

    def terms(self, side: int) -> tuple[tuple[int, int], ...]:
        last = len(self.cells) - 1
        return tuple((c, -1 if i in (0, last) else 1) for i, c in enumerate(self.cells))

    def total(self, side: int) -> int:
        return 0

    def supports(self, domains: Sequence[int], side: int) -> list[int]:
        return sum_supports(domains, [w for _, w in self.terms(side)], 0)

    def broken(self, held: Sequence[int], side: int) -> str | None:
        ends, between = held[0] + held[-1], sum(held[1:-1])
        return None if ends == between else f"its ends sum to {ends}, the cells between them to {between}"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A circle on each end, the line between."""
        return (Shape("circle", (self.cells[0],), self.TITLE), Shape("circle", (self.cells[-1],), self.TITLE),
                Shape("line", self.cells, self.TITLE))
