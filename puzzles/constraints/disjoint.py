"""Disjoint groups: the cells at the same place in each box form a house (n groups of n cells, each value once in
each). f-puzzles' `disjointgroups` (a flag), the line form's `dg`, a variant's `disjoint`. One constraint holding the
n groups, as the layout's boxes give them (`fitted`): read from a word or a flag, it has none until the layout's
boxes are known, and a layout whose regions are not boxes cannot have them."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Constraint, House, Link, Move, Shape


@dataclass(frozen=True)
class Disjoint(Constraint):
    """`groups`: each group's cells in reading order, group k the cells at place k of their box (none: the layout's
    boxes' groups, still to be placed)."""

    groups: tuple[tuple[int, ...], ...] = ()

    KIND = FIELD = "disjointgroups"
    PAD = ("disjoint",)
    WORD = "dg"
    HOUSE = "disjoint group"
    LINKED = False  # houses: the engines keep them as units, not by links

    def houses(self, index: int, side: int) -> tuple[House, ...]:
        return tuple(House(f"{self.HOUSE} {k + 1}", group) for k, group in enumerate(self.groups))

    @classmethod
    def of_houses(cls, houses: Sequence[House], side: int) -> list[Constraint]:
        return [cls(tuple(house.cells for house in houses))]

    def fitted(self, height: int, width: int) -> Constraint:
        if self.groups:
            return self
        if not height:
            raise ValueError("disjoint groups need box regions (the same place in each box)")
        n = height * width  # the side: a box's cells
        groups: list[list[int]] = [[] for _ in range(n)]
        for cell in range(n * n):
            r, c = divmod(cell, n)
            groups[(r % height) * width + c % width].append(cell)
        return Disjoint(tuple(map(tuple, groups)))

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        return [cls()] if word == cls.WORD else None

    def word(self, side: int) -> str:
        return self.WORD

    @classmethod
    def parts(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        return ["disjoint"]

    @classmethod
    def of_part(cls, part: str, side: int) -> list[Constraint] | None:
        return [cls()] if part == "disjoint" else None

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        return {cls.FIELD: True} if constraints else {}

    def field_entry(self, side: int) -> Any:
        return True

    def links(self, side: int) -> tuple[Link, ...]:
        return ()

    def moved(self, move: Move) -> Constraint:
        # each group in reading order, the groups by their first cells: the order `fitted` gives its places in
        return Disjoint(tuple(sorted(tuple(sorted(move(c) for c in group)) for group in self.groups)))

    def name(self, index: int, side: int) -> str:
        return f"disjoint groups 1-{side} (the cells at the same place in each box)"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Each group's cells shaded, a light colour each group (the page: `dg`)."""
        return tuple(Shape("shade", group, self.HOUSE, "dg") for group in self.groups)
