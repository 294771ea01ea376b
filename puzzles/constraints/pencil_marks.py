"""Given pencil marks (f-puzzles' `givenPencilMarks`, a field of a cell's object in `grid`: `[1, 5, 9]`): the only
values the cell may hold. A rule of one cell, kept by its filter as an odd or even cell is (parity.py): the values
not among its marks leave the cell, resting on nothing; the formulations state it on the cell itself (a domain,
unit clauses). The line form writes `pm=R1C1:159,R4C4:26` (each cell's values as symbols)."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..words import SYMBOLS, quoted
from .base import Constraint, Move, Named, Shape, cell_name, cell_of_name
from .parity import Parity


@dataclass(frozen=True)
class PencilMarks(Parity):
    """`cell`: the cell; `marks`: the values it may hold, a mask (bit v - 1 for value v)."""

    marks: int = 0

    KIND = "pencilmarks"
    FIELD = "givenPencilMarks"
    WORD = "pm="
    CELL_FIELD = True
    PLURAL = "given pencil marks"

    @classmethod
    def held(cls, constraints: Sequence[Constraint]) -> list[Constraint]:
        """In reading order of their cells, as f-puzzles' grid holds them: their order is no rule."""
        return sorted(constraints, key=lambda c: c.cell if isinstance(c, PencilMarks) else 0)

    def wrong(self, side: int) -> int:
        return ((1 << side) - 1) & ~self.marks

    def values(self, side: int) -> list[int]:
        return [v for v in range(1, side + 1) if self.marks >> (v - 1) & 1]

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        found: list[Constraint] = []
        for entry in value.split(","):
            name, colon, symbols = entry.partition(":")
            if not colon or not symbols:
                raise ValueError(f"{entry.strip()[:40]!r} gives no values after `:` (R1C1:159)")
            values = [SYMBOLS.find(ch.upper()) + 1 if ch.isascii() else 0 for ch in symbols]
            if not all(1 <= v <= side for v in values):
                raise ValueError(f"{entry.strip()[:40]!r}: a value is not 1 to {SYMBOLS[side - 1]}")
            found.append(cls(cell_of_name(name, side), sum(1 << (v - 1) for v in set(values))))
        return found

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """One word for the kind's cells, in order."""
        return [cls.WORD + ",".join(c.cell_word(side) for c in constraints if isinstance(c, PencilMarks))]

    def cell_word(self, side: int) -> str:
        return f"{cell_name(self.cell, side)}:{''.join(SYMBOLS[v - 1] for v in self.values(side))}"

    def word(self, side: int) -> str:
        return self.WORD + self.cell_word(side)

    @classmethod
    def of_object(cls, puzzle: Mapping[str, Any], side: int) -> list[Constraint]:
        """The marks of the cells of f-puzzles' `grid` (its shape is the reader's to check: a grid that is no list of
        rows of objects holds none here)."""
        rows = puzzle.get("grid")
        found: list[Constraint] = []
        if not isinstance(rows, list):
            return found
        for r, row in enumerate(rows[:side]):
            for c, entry in enumerate(row[:side] if isinstance(row, list) else []):
                marks = entry.get(cls.FIELD) if isinstance(entry, dict) else None
                if marks is None or marks == []:
                    continue
                where = cell_name(r * side + c, side)
                if not isinstance(marks, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                          and 1 <= v <= side for v in marks):
                    raise Named(f"cell {where}: `{cls.FIELD}` {quoted(marks)} is not a list of values 1 to {side}")
                found.append(cls(r * side + c, sum(1 << (v - 1) for v in set(marks))))
        return found

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        return {}  # written in the cells (`cell_fields`)

    @classmethod
    def cell_fields(cls, constraints: Sequence[Constraint], side: int) -> dict[int, dict[str, Any]]:
        return {c.cell: {cls.FIELD: c.values(side)} for c in constraints if isinstance(c, PencilMarks)}

    def field_entry(self, side: int) -> Any:
        return self.values(side)

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random cells of the full grid `values`, a sixth to a third of them, each marked with its value and one
        or two others."""
        chosen = rng.sample(range(side * side), rng.randint(max(1, side * side // 6), max(1, side * side // 3)))
        found: list[Constraint] = []
        for cell in sorted(chosen):
            others = rng.sample([v for v in range(1, side + 1) if v != values[cell]], rng.randint(1, 2))
            found.append(cls(cell, sum(1 << (v - 1) for v in (values[cell], *others))))
        return found

    def moved(self, move: Move) -> Constraint:
        return PencilMarks(move(self.cell), self.marks)

    def name(self, index: int, side: int) -> str:
        return f"pencil marks {cell_name(self.cell, side)} ({''.join(SYMBOLS[v - 1] for v in self.values(side))})"

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        v = values[self.cell]
        if v and self.wrong(side) >> (v - 1) & 1:
            return [f"{cell_name(self.cell, side)} holds {v}, not among its given pencil marks "
                    f"{''.join(SYMBOLS[w - 1] for w in self.values(side))}"]
        return []

    def problem(self, side: int) -> str | None:
        if not 0 <= self.cell < side * side:
            return f"names a cell outside the {side}x{side} grid"
        return None if self.marks & ((1 << side) - 1) else "gives no value"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape("letter", (self.cell,), "pencil-marked cell",
                      "".join(SYMBOLS[v - 1] for v in self.values(side))),)
