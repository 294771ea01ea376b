"""Odd and even cells (f-puzzles' `odd` and `even`, entries `{"cell": "R1C1"}`; on the page a circle and a square):
the cell holds an odd value, or an even one.

A rule of one cell, kept by its filter (`SCOPED`, its scope the cell alone): the filter (`narrow`) takes the values
of the wrong parity from the cell, resting on nothing, so the engines leave the cell the right values from the start
(`allowed`), the rungs and cdcl drop the others at the root, and the check (`violations`) reads the cell alone. The
formulations state it on the cell itself (a domain, unit clauses)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import Constraint, Move, OneCell, Removal, Scoped, Shape, cell_name


@dataclass(frozen=True)
class Parity(Scoped, OneCell):
    """`cell`: the cell whose value's parity is the kind's (`REMAINDER`: 1 odd, 0 even)."""

    RELABELS = False
    REMAINDER: ClassVar[int] = 1
    SHAPE: ClassVar[str] = ""  # how the page draws it (Shape.kind)

    def wrong(self, side: int) -> int:
        """The values the cell may not hold (a mask)."""
        return sum(1 << (v - 1) for v in range(1, side + 1) if v % 2 != self.REMAINDER)

    def scope(self) -> tuple[int, ...]:
        return (self.cell,)

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """The cell's values of the wrong kind, resting on nothing."""
        lost = masks[self.cell] & self.wrong(side)
        return [Removal(self.cell, lost, by, ())] if lost else []

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
