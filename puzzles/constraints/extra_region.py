"""An extra region: n cells that hold every value once, beyond the rows, columns and regions (Windoku's four
boxes one cell in from each corner; f-puzzles' `extraregion`, a list of `{"cells": ["R1C1", ...]}`; the line form's
`e=<n*n symbols>`, each cell's extra region as a symbol, `.` outside any, one word per set of extra regions that do
not overlap; a variant's `windoku`, or `extra-regions` for any others). One constraint a region.

A house some other layer keeps under a name of its own (`region 2`: a region a search drops, kept as a house) is an
extra region by that name (`title`), which the puzzle's words, fields and variant name leave out."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..words import SYMBOLS
from .base import Constraint, House, Link, Move, Named, Shape, a_list, cell_map, cell_name, entry_cells, house_problem

WINDOKU = "windoku"


@dataclass(frozen=True)
class ExtraRegion(Constraint):
    """`cells` (kept in reading order), and `title`: its name when it is not the puzzle's `extra region k`."""

    cells: tuple[int, ...]
    title: str = ""

    KIND = FIELD = "extraregion"
    PAD = ("extraregion", "region")
    WORD = "e="
    HOUSE = "extra region"
    LINKED = False  # a house: the engines keep it as a unit, not by links

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))

    def houses(self, index: int, side: int) -> tuple[House, ...]:
        return (House(self.name(index, side), self.cells),)

    @classmethod
    def of_houses(cls, houses: Sequence[House], side: int) -> list[Constraint]:
        return [cls(house.cells, "" if house.kind == cls.HOUSE else house.name) for house in houses]

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key != "e" or not eq:
            return None
        found = cell_map(value, side, "e=")
        return [cls(tuple(c for c, k in enumerate(found) if k == region)) for region in sorted(set(found) - {-1})]

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """One map a set of regions that do not overlap, each taking, in order, the regions that overlap none it
        holds."""
        words, regions = [], own(constraints)
        while regions:
            taken: list[ExtraRegion] = []
            held: set[int] = set()
            for region in regions:
                if not held & set(region.cells):
                    taken.append(region)
                    held |= set(region.cells)
            symbols = ["."] * (side * side)
            for k, region in enumerate(taken):
                for c in region.cells:
                    symbols[c] = SYMBOLS[k]
            words.append("e=" + "".join(symbols))
            regions = [region for region in regions if region not in taken]
        return words

    def word(self, side: int) -> str:
        return self.words([self], side)[0]

    @classmethod
    def parts(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        regions = tuple(region.cells for region in own(constraints))
        if not regions:
            return []
        return [WINDOKU if regions == windoku_cells(side) else "extra-regions"]

    @classmethod
    def of_part(cls, part: str, side: int) -> list[Constraint] | None:
        if part != WINDOKU:
            return None
        if not windoku_cells(side):
            raise ValueError("windoku's extra regions are defined on 9x9 grids")
        return [cls(cells) for cells in windoku_cells(side)]

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `extraregion`: a list of `{"cells": [...]}`, each of n cells; Named naming the region."""
        a_list(value)
        found: list[Constraint] = []
        for index, entry in enumerate(value):
            cells = entry_cells(entry, side, f"extra region {index + 1}")
            if len(cells) != side:
                raise Named(f"extra region {index + 1} has {len(cells)} cells: the project reads extra regions of "
                            f"{side} (a house, each value once)")
            found.append(cls(tuple(cells)))
        return found

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        regions = own(constraints)
        return {cls.FIELD: [region.field_entry(side) for region in regions]} if regions else {}

    def field_entry(self, side: int) -> Any:
        return {"cells": [cell_name(c, side) for c in self.cells]}

    def links(self, side: int) -> tuple[Link, ...]:
        return ()

    def moved(self, move: Move) -> Constraint:
        return ExtraRegion(tuple(move(c) for c in self.cells), self.title)

    def name(self, index: int, side: int) -> str:
        return self.title or f"{self.HOUSE} {index + 1}"

    def problem(self, side: int) -> str | None:
        return house_problem(self.cells, side)

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Its cells shaded, a light colour each region (the page: `xr`)."""
        return (Shape("shade", self.cells, self.HOUSE, "xr"),) if not self.title else ()


def own(constraints: Sequence[Constraint]) -> list[ExtraRegion]:
    """The puzzle's own extra regions among these (not a house another layer keeps under a name of its own)."""
    return [c for c in constraints if isinstance(c, ExtraRegion) and not c.title]


def windoku_cells(side: int) -> tuple[tuple[int, ...], ...]:
    """Windoku's (Hyper Sudoku's) four extra regions on a 9x9: the boxes one cell in from each corner.
    Other sides have none."""
    if side != 9:
        return ()
    return tuple(tuple((top + r) * 9 + left + c for r in range(3) for c in range(3))
                 for top in (1, 5) for left in (1, 5))
