"""A slow thermometer: values never decrease from its bulb along its line (a value may repeat where no house
forbids it). f-puzzles has no field for it; this project reads and writes `slowthermometer` entries shaped as
`thermometer`'s (`{"lines": [[cell names, the bulb first]]}`). Stated as links between every two cells of the line
(lines.py), as a thermometer's: a later cell holds at least an earlier one's value."""
from __future__ import annotations

from dataclasses import dataclass

from .base import Shape, span
from .lines import Line


@dataclass(frozen=True)
class SlowThermometer(Line):
    """`cells`: the bulb first, then the line in order."""

    KIND = FIELD = "slowthermometer"
    WORD = "sth="
    TITLE = "slow thermometer"

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        below = (0, *(span(1, v - 1, side) for v in range(1, side + 1)))  # v at an earlier cell: none less later
        return [(a, b, below) for i, a in enumerate(self.cells) for b in self.cells[i + 1:]]

    def says(self, a: int, b: int) -> str:
        return "its values never fall from the bulb"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return Shape("bulb", self.cells[:1]), Shape("line", self.cells, self.TITLE)
