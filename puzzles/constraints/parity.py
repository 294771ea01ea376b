"""Odd and even cells (f-puzzles' `odd` and `even`, entries `{"cell": "R1C1"}`; on the page a circle and a square):
the cell holds an odd value, or an even one.

A rule of one cell is no pair of cells, but the socket states rules as pairs: it is stated as links between the
cell and every other cell of the grid, true in every solution. Whatever the other cell holds, the cell may not hold
a value of the wrong parity; and a value of the wrong parity in the cell leaves the other cell nothing. The engines
then drop the wrong values as soon as any cell is filled (a puzzle's givens: at the start; and a wrong placement
empties every other cell), the filter (`narrow`) and cdcl drop them at the start, and the check (`violations`)
reads the cell alone. The formulations state it on the cell itself (a domain, unit clauses)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from .base import Constraint, Link, Move, OneCell, Shape, cell_name


@dataclass(frozen=True)
class Parity(OneCell):
    """`cell`: the cell whose value's parity is the kind's (`REMAINDER`: 1 odd, 0 even)."""

    RELABELS = False
    REMAINDER: ClassVar[int] = 1
    SHAPE: ClassVar[str] = ""  # how the page draws it (Shape.kind)

    def wrong(self, side: int) -> int:
        """The values the cell may not hold (a mask)."""
        return sum(1 << (v - 1) for v in range(1, side + 1) if v % 2 != self.REMAINDER)

    def links(self, side: int) -> tuple[Link, ...]:
        return _links(self, side)

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random cells of the kind's parity in the full grid `values`: a sixth to a third of them."""
        fitting = [c for c, v in enumerate(values) if v % 2 == cls.REMAINDER]
        chosen = rng.sample(fitting, rng.randint(max(1, len(fitting) // 6), max(1, len(fitting) // 3)))
        return [cls(c) for c in sorted(chosen)]

    def moved(self, move: Move) -> Constraint:
        return type(self)(move(self.cell))

    def name(self, index: int, side: int) -> str:
        return f"{self.KIND} cell {cell_name(self.cell, side)}"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        raise NotImplementedError  # its check reads the cell alone (`violations`)

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        v = values[self.cell]
        if v and self.wrong(side) >> (v - 1) & 1:
            return [f"{cell_name(self.cell, side)} holds {v}, on an {self.KIND} cell"]
        return []

    def problem(self, side: int) -> str | None:
        return None if 0 <= self.cell < side * side else f"names a cell outside the {side}x{side} grid"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape(self.SHAPE, (self.cell,), f"{self.KIND} cell"),)


@cache
def _links(rule: Parity, side: int) -> tuple[Link, ...]:
    full, wrong = (1 << side) - 1, rule.wrong(side)
    cell = rule.cell
    # whatever the other cell holds, the cell holds none of `wrong`; a wrong value in the cell leaves it nothing
    into = (0, *(wrong for _ in range(side)))
    out = (0, *(full if wrong >> (v - 1) & 1 else 0 for v in range(1, side + 1)))
    return tuple(link for other in range(side * side) if other != cell
                 for link in (Link(other, cell, into), Link(cell, other, out)))


@dataclass(frozen=True)
class Odd(Parity):
    """An odd cell (a circle)."""

    KIND = FIELD = "odd"
    WORD = "odd="
    REMAINDER = 1
    SHAPE = "circle"


@dataclass(frozen=True)
class Even(Parity):
    """An even cell (a square)."""

    KIND = FIELD = "even"
    WORD = "even="
    REMAINDER = 0
    SHAPE = "square"
