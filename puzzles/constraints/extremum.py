"""Minimum and maximum cells (f-puzzles' `minimum` and `maximum`, entries `{"cell": "R1C1"}`): the cell holds less
(more) than each of its orthogonal neighbours. A neighbour that is itself a cell of the same kind is not compared,
as SudokuVariantSolverJS reads the format (two touching minimum cells could not each be less than the other): the
rule reads the puzzle's other cells of its kind, so it is `settled` against them whenever a layout is made.

Stated as links between the cell and each neighbour compared: v in the cell forbids 1..v (a minimum) or v..n (a
maximum) beside it. The page draws the inequality on each edge it compares, its point at the smaller cell."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import Constraint, Link, Move, OneCell, Shape, adjacent, cell_name, span

# the sign between two cells, its point at the smaller: by (side by side, the smaller first in reading order)
SIGNS = {(True, True): "<", (True, False): ">", (False, True): "\u2227", (False, False): "\u2228"}  # and, or: up, down


@dataclass(frozen=True)
class Extremum(OneCell):
    """`cell`: the cell; `exempt`: the puzzle's other cells of its kind (a neighbour among them is not compared)."""

    exempt: frozenset[int] = frozenset()

    RELABELS = False
    LOWER: ClassVar[bool] = True  # a minimum: less than its neighbours

    def settled(self, every: Sequence[Constraint]) -> Constraint:
        return type(self)(self.cell, frozenset(c.cell for c in every
                                               if isinstance(c, type(self)) and c.cell != self.cell))

    def compared(self, side: int) -> list[int]:
        """The neighbours it is compared with."""
        return [n for n in adjacent(side)[self.cell] if n not in self.exempt]

    def links(self, side: int) -> tuple[Link, ...]:
        if self.LOWER:  # v here: a neighbour holds more; w beside: this holds less
            out = (0, *(span(1, v, side) for v in range(1, side + 1)))
            into = (0, *(span(w, side, side) for w in range(1, side + 1)))
        else:
            out = (0, *(span(v, side, side) for v in range(1, side + 1)))
            into = (0, *(span(1, w, side) for w in range(1, side + 1)))
        return tuple(link for n in self.compared(side) for link in (Link(self.cell, n, out), Link(n, self.cell, into)))

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random cells of the full grid `values` below (above) each neighbour: a third to two thirds of them."""
        fitting = [c for c in range(side * side)
                   if all((values[c] < values[n]) == cls.LOWER for n in adjacent(side)[c])]
        if not fitting:
            return []
        chosen = rng.sample(fitting, rng.randint(max(1, len(fitting) // 3), max(1, 2 * len(fitting) // 3)))
        return [cls(c) for c in sorted(chosen)]

    def moved(self, move: Move) -> Constraint:
        return type(self)(move(self.cell), frozenset(move(c) for c in self.exempt))

    def name(self, index: int, side: int) -> str:
        return f"{self.KIND} cell {cell_name(self.cell, side)}"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        mine, other = (va, vb) if a == self.cell else (vb, va)
        neighbour = b if a == self.cell else a
        return (f"{cell_name(self.cell, side)} holds {mine}, a {self.KIND} cell, beside {cell_name(neighbour, side)}'s "
                f"{other} (it holds {'less' if self.LOWER else 'more'} than each neighbour)")

    def problem(self, side: int) -> str | None:
        return None if 0 <= self.cell < side * side else f"names a cell outside the {side}x{side} grid"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        shapes = []
        for n in self.compared(side):
            small, large = (self.cell, n) if self.LOWER else (n, self.cell)
            across = small // side == large // side  # side by side, else one above the other
            sign = SIGNS[across, small < large]
            shapes.append(Shape("letter", tuple(sorted((self.cell, n))), f"{self.KIND} sign", sign))
        return tuple(shapes)


@dataclass(frozen=True)
class Minimum(Extremum):
    """A minimum cell: less than each neighbour."""

    KIND = FIELD = "minimum"
    WORD = "min="
    LOWER = True


@dataclass(frozen=True)
class Maximum(Extremum):
    """A maximum cell: more than each neighbour."""

    KIND = FIELD = "maximum"
    WORD = "max="
    LOWER = False
