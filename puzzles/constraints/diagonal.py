"""A diagonal that is a house (Sudoku-X: both): its n cells hold every value once. f-puzzles' `diagonal+` (bottom
left to top right) and `diagonal-` (top left to bottom right), each a flag; the line form's `x` (both), `d+` or
`d-`; a variant's `x`, `diagonal+` or `diagonal-`. One constraint a diagonal, held `+` first."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..words import json_type, quoted
from .base import Constraint, House, Link, Move, Shape

SIGNS = "+-"  # the order a layout holds them, writes them and names them in


@dataclass(frozen=True)
class Diagonal(Constraint):
    """`sign`: `+` (bottom left to top right) or `-` (top left to bottom right), on a grid of `side`."""

    sign: str
    side: int

    KIND = "diagonals"
    FIELD = "diagonal+"
    FIELDS = ("diagonal+", "diagonal-")
    WORD = "x, d+, d-"  # as messages list the line form's words
    HOUSE = "diagonal"
    LINKED = False  # a house: the engines keep it as a unit, not by links

    @property
    def cells(self) -> tuple[int, ...]:
        n = self.side
        return tuple(r * n + (r if self.sign == "-" else n - 1 - r) for r in range(n))

    def houses(self, index: int, side: int) -> tuple[House, ...]:
        return (House(f"{self.HOUSE} {self.sign}", self.cells),)

    @classmethod
    def of_houses(cls, houses: Sequence[House], side: int) -> list[Constraint]:
        return [cls(house.name[-1], side) for house in houses]

    @classmethod
    def held(cls, constraints: Sequence[Constraint]) -> list[Constraint]:
        return sorted(constraints, key=lambda c: SIGNS.index(c.sign) if isinstance(c, Diagonal) else 0)

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        if word == "x":
            return [cls(sign, side) for sign in SIGNS]
        return [cls(word[1], side)] if word in ("d+", "d-") else None

    @classmethod
    def word_says(cls, word: str) -> frozenset[str]:
        """`x` says both diagonals' words, `d+` and `d-` their own."""
        return frozenset(f"d{sign}" for sign in SIGNS) if word == "x" else frozenset((word,)) \
            if word in ("d+", "d-") else frozenset()

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        signs = _signs(constraints)
        return ["x"] if signs == SIGNS else [f"d{sign}" for sign in signs]

    def word(self, side: int) -> str:
        return f"d{self.sign}"

    @classmethod
    def parts(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        signs = _signs(constraints)
        return ["x"] if signs == SIGNS else [f"diagonal{sign}" for sign in signs]

    @classmethod
    def of_part(cls, part: str, side: int) -> list[Constraint] | None:
        if part == "x":
            return [cls(sign, side) for sign in SIGNS]
        return [cls(part[-1], side)] if part in cls.FIELDS else None

    @classmethod
    def of_object(cls, puzzle: Mapping[str, Any], side: int) -> list[Constraint]:
        """Each diagonal whose flag is true; ValueError naming a flag that is no flag (`1` is none)."""
        found: list[Constraint] = []
        for sign in SIGNS:
            value = puzzle.get(f"diagonal{sign}")
            if value is not None and not isinstance(value, bool):
                raise ValueError(f"`diagonal{sign}` must be true or false, not {json_type(value)} {quoted(value)}")
            if value:
                found.append(cls(sign, side))
        return found

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        return {f"diagonal{sign}": True for sign in _signs(constraints)}

    def field_entry(self, side: int) -> Any:
        return True

    def links(self, side: int) -> tuple[Link, ...]:
        return ()

    def moved(self, move: Move) -> Constraint:
        corner = move(0)  # a rotation or reflection keeps the diagonals' cells when it keeps their corners
        return self if corner in (0, self.side * self.side - 1) else Diagonal("-" if self.sign == "+" else "+",
                                                                               self.side)

    def name(self, index: int, side: int) -> str:
        return f"{self.HOUSE} {self.sign}"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A line along it, from corner to corner (the page: `dp` on its cells for `+`, `dm` for `-`)."""
        return (Shape("diagonal", self.cells, self.HOUSE, self.sign),)


def _signs(constraints: Sequence[Constraint]) -> str:
    held = {c.sign for c in constraints if isinstance(c, Diagonal)}
    return "".join(sign for sign in SIGNS if sign in held)
