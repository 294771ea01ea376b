"""A nabner line (f-puzzles' `nabner`, as SudokuVariantSolverJS reads it; the Interactive Sudoku Solver states it
as a pairwise rule over the line): no two cells of the line hold the same value or two consecutive ones, wherever
they are along it. Stated as links between every two of its cells (lines.py): a value v forbids v-1, v and v+1.
A line longer than half the side (rounded up) has no filling: the rule then leaves the puzzle no solution."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .base import span
from .lines import Line


@dataclass(frozen=True)
class Nabner(Line):
    """A line whose every two cells differ by 2 or more."""

    KIND = FIELD = "nabner"
    WORD = "nb="
    TITLE = "nabner line"

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        near = (0, *(span(v - 1, v + 1, side) for v in range(1, side + 1)))
        return [(a, b, near) for a, b in combinations(self.cells, 2)]

    def says(self, a: int, b: int) -> str:
        return "any two of its cells differ by 2 or more"
