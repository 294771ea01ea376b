"""A between line (f-puzzles' `betweenline`): a line with a circle at each end, each cell between the ends holding a
value strictly between the ends' values (either end may be the larger). Values may repeat (the houses aside).

No set of pairs (which way the line runs is shared by all its cells), so it is kept by its filter (lines.py's
`ScopedLine`): given the ends' values the cells between are apart, so a value stays when some pair of end values
lets every cell between hold a value strictly between them (generalised arc consistency of the whole line)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import Shape, span
from .lines import ScopedLine


@dataclass(frozen=True)
class BetweenLine(ScopedLine):
    """A line whose cells between its ends hold values strictly between the ends'."""

    KIND = FIELD = "betweenline"
    WORD = "btw="
    TITLE = "between line"

    def inside(self, low: int, high: int, side: int) -> int:
        """The values a cell between the ends may hold when they hold `low` and `high` (low < high)."""
        return span(low + 1, high - 1, side)

    def ends_apart(self, v: int, w: int) -> bool:
        """Whether ends holding v and w keep the rule between themselves."""
        return abs(v - w) >= 2

    def supports(self, domains: Sequence[int], side: int) -> list[int]:
        kept = [0] * len(self.cells)
        first, last, between = domains[0], domains[-1], domains[1:-1]
        for v in range(1, side + 1):
            for w in range(1, side + 1):
                if not (first >> (v - 1) & 1 and last >> (w - 1) & 1 and self.ends_apart(v, w)):
                    continue
                room = self.inside(min(v, w), max(v, w), side)
                if all(d & room for d in between):
                    kept[0] |= 1 << (v - 1)
                    kept[-1] |= 1 << (w - 1)
                    for i, d in enumerate(between, 1):
                        kept[i] |= d & room
        return kept

    def broken(self, held: Sequence[int], side: int) -> str | None:
        v, w = held[0], held[-1]
        room = self.inside(min(v, w), max(v, w), side) if self.ends_apart(v, w) else 0
        out = [str(x) for x in held[1:-1] if not room >> (x - 1) & 1]
        return None if not out else f"its ends hold {v} and {w}; out of place between them: {', '.join(out)}"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A circle on each end, the line between."""
        return (Shape("circle", (self.cells[0],), self.TITLE), Shape("circle", (self.cells[-1],), self.TITLE),
                Shape("line", self.cells, self.TITLE))
