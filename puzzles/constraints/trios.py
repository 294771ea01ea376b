"""Modular and entropic lines (f-puzzles' `modularline` and `entropicline`): every three cells in a row along the
line hold values of three different classes. A modular line's classes are the values' remainders by 3 (1 4 7, 2 5
8, 3 6 9); an entropic line's, low, middle and high values (1-3, 4-6, 7-9 on a 9x9; on other sides as
SudokuVariantSolverJS splits them: 1-2, 3-4, 5-6 on a 6x6, 1, 2-3, 4 on a 4x4).

Stated as links between each two cells one or two apart along the line (lines.py), the pairs of the rule's threes:
a value forbids the values of its class. (The classes then repeat every third cell, which a search infers; stated as
links too, a grid half filled would break the rule where no three cells in a row do.)"""
from __future__ import annotations

from dataclasses import dataclass

from .lines import Line


@dataclass(frozen=True)
class Trio(Line):
    """A line whose every three cells in a row hold one value of each class (`classes`)."""

    @classmethod
    def classes(cls, side: int) -> list[int]:
        """Each value's class 0, 1 or 2 (index v - 1)."""
        raise NotImplementedError

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        of = self.classes(side)
        same = (0, *(sum(1 << (w - 1) for w in range(1, side + 1) if of[w - 1] == of[v - 1])
                     for v in range(1, side + 1)))
        return [(a, b, same) for i, a in enumerate(self.cells) for b in self.cells[i + 1:i + 3]]

    def says(self, a: int, b: int) -> str:
        return f"three cells in a row along it hold values of three classes ({self.CLASSES})"

    CLASSES = ""  # the classes, in words


@dataclass(frozen=True)
class ModularLine(Trio):
    """Three cells in a row hold values of three remainders by 3."""

    KIND = FIELD = "modularline"
    WORD = "mod="
    TITLE = "modular line"
    CLASSES = "remainders by 3"

    @classmethod
    def classes(cls, side: int) -> list[int]:
        return [v % 3 for v in range(1, side + 1)]


@dataclass(frozen=True)
class EntropicLine(Trio):
    """Three cells in a row hold a low, a middle and a high value."""

    KIND = FIELD = "entropicline"
    WORD = "ent="
    TITLE = "entropic line"
    CLASSES = "low, middle, high"

    @classmethod
    def classes(cls, side: int) -> list[int]:
        third, most = side // 3, -(-side // 3)
        low = third if 2 * third + most == side else most  # the low and high classes as large, the middle the rest
        middle = side - 2 * low
        return [0 if v <= low else 1 if v <= low + middle else 2 for v in range(1, side + 1)]
