"""A little killer: a clue outside the grid whose arrow points along a diagonal; the values of the diagonal's cells
sum to the clue (f-puzzles' `littlekillersum`, `{"cell": "R0C3", "direction": "DL", "cells": [...], "value": "11"}`:
the clue's cell, R0 or C0 or one past the last row or column, and the direction it points, UL, UR, DL or DR). Values
may repeat along the diagonal (the houses aside). A clue without a value holds no rule.

A weighted sum (sums.py): each cell weighs 1. It is held as its diagonal's cells in order from the clue, so that a
rotation or reflection moves it as it moves cells; its clue and direction follow from them.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..words import json_type, quoted
from .base import Constraint, Move, Shape, a_list, cell_name, refuse_unread
from .killer import total_problem
from .outside import clue_drawing, outside_cell
from .sums import WeightedSum

DIRECTIONS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}


@dataclass(frozen=True)
class LittleKiller(WeightedSum):
    """`cells`: the diagonal's cells, from the clue on; `sum`: the clue."""

    cells: tuple[int, ...]
    sum: int

    KIND = "littlekiller"
    FIELD = "littlekillersum"
    WORD = "lk="

    def terms(self, side: int) -> tuple[tuple[int, int], ...]:
        return tuple((c, 1) for c in self.cells)

    def total(self, side: int) -> int:
        return self.sum

    def scope(self) -> tuple[int, ...]:
        return self.cells

    # -- reading and writing ---------------------------------------------------------------------------------

    @classmethod
    def of_clue(cls, clue: str, direction: str, total: int, side: int) -> LittleKiller:
        """The little killer of a clue's cell (outside the grid: `R0C3`) pointing `direction` (UL, UR, DL, DR);
        ValueError saying why it points along no diagonal."""
        r, c = outside_cell(clue, side)
        step = DIRECTIONS.get(direction.strip().upper())
        if step is None:
            raise ValueError(f"its direction {quoted(direction)} is not UL, UR, DL or DR")
        cells = []
        r, c = r + step[0], c + step[1]
        while 0 <= r < side and 0 <= c < side:
            cells.append(r * side + c)
            r, c = r + step[0], c + step[1]
        if not cells:
            raise ValueError(f"its clue {clue.strip()} points {direction.strip().upper()} at no cell of the grid")
        return cls(tuple(cells), total)

    def clue(self, side: int) -> tuple[str, str]:
        """Its clue's cell (outside the grid) and direction."""
        r, c = divmod(self.cells[0], side)
        if len(self.cells) > 1:
            dr, dc = self.cells[1] // side - r, self.cells[1] % side - c
        else:  # a corner: its one-cell diagonal, pointed at from the row above or below it
            dr, dc = (1 if r == 0 else -1), (-1 if c == 0 else 1)
        name = next(name for name, step in DIRECTIONS.items() if step == (dr, dc))
        return f"R{r - dr + 1}C{c - dc + 1}", name

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """`lk=<the clue's cell>:<direction>:<sum>`: `lk=R0C3:DL:11`."""
        key, eq, value = word.partition("=")
        if key != "lk" or not eq:
            return None
        parts = value.split(":")
        if len(parts) != 3:
            raise ValueError(f"`lk=` gives its clue's cell, its direction and its sum, `:` between, not "
                             f"{quoted(value[:40])}")
        problem = total_problem(parts[2])
        if problem is not None:
            raise ValueError(f"`lk=`: its sum {problem}")
        return [cls.of_clue(parts[0], parts[1], int(parts[2]), side)]

    def word(self, side: int) -> str:
        clue, direction = self.clue(side)
        return f"lk={clue}:{direction}:{self.sum}"

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `littlekillersum`: a list of `{"cell": the clue, "direction": UL/UR/DL/DR, "value": the sum,
        "cells": the diagonal's cells}`; an entry without a value holds no rule."""
        a_list(value, "little killer clues")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            if not isinstance(entry, dict):
                raise ValueError(f"entry {k} is {json_type(entry)}, not an object")
            refuse_unread(entry, ("cell", "cells", "direction", "value"), f"entry {k}")
            total = entry.get("value")
            if total is None or total == "":
                continue
            text = str(total) if isinstance(total, int) and not isinstance(total, bool) else total
            problem = total_problem(text) if isinstance(text, str) else f"{quoted(total)} is not a whole number"
            if problem is not None:
                raise ValueError(f"entry {k}: its sum {problem}")
            clue, direction = entry.get("cell"), entry.get("direction")
            if not isinstance(clue, str) or not isinstance(direction, str):
                raise ValueError(f"entry {k} has no `cell` and `direction` (its clue, and where it points)")
            try:
                rule = cls.of_clue(clue, direction, int(text), side)
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None
            named = entry.get("cells")
            if named is not None and named != [cell_name(c, side) for c in rule.cells]:
                raise ValueError(f"entry {k}: its `cells` are not the diagonal from {clue.strip()} "
                                 f"{direction.strip().upper()}")
            found.append(rule)
        return found

    def field_entry(self, side: int) -> Any:
        clue, direction = self.clue(side)
        return {"cell": clue, "direction": direction, "value": str(self.sum),
                "cells": [cell_name(c, side) for c in self.cells]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random little killers the full grid `values` keeps: clues on random diagonals of 2 cells or more, each
        the diagonal's sum; n/3 to n/2 + 1 of them, none twice."""
        found: list[Constraint] = []
        for _ in range(rng.randint(max(1, side // 3), side // 2 + 1)):
            r, c = rng.randrange(side), rng.randrange(side)
            dr, dc = rng.choice(list(DIRECTIONS.values()))
            while 0 <= r - dr < side and 0 <= c - dc < side:  # back to where the diagonal enters the grid
                r, c = r - dr, c - dc
            cells = []
            while 0 <= r < side and 0 <= c < side:
                cells.append(r * side + c)
                r, c = r + dr, c + dc
            rule = cls(tuple(cells), sum(values[cell] for cell in cells))
            if len(cells) > 1 and rule not in found:
                found.append(rule)
        return found

    # -- the rule ------------------------------------------------------------------------------------------------

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Full, a diagonal whose sum is not its clue; partly filled, values that leave it no filling."""
        name = self.name(index, side)
        if all(values[c] for c in self.cells):
            total = sum(values[c] for c in self.cells)
            return [] if total == self.sum else [f"{name}: its diagonal sums to {total}"]
        return [f"{name}: the values on its diagonal leave its blank cells no values to reach {self.sum} with"] \
            if self.unfillable(values, side) else []

    def moved(self, move: Move) -> Constraint:
        return LittleKiller(tuple(move(c) for c in self.cells), self.sum)

    def name(self, index: int, side: int) -> str:
        clue, direction = self.clue(side)
        return f"little killer {index + 1} ({self.sum} at {clue} {direction})"

    def problem(self, side: int) -> str | None:
        """Unless its cells are a whole diagonal of the grid, from edge to edge."""
        if not self.cells or not all(0 <= c < side * side for c in self.cells):
            return f"names a cell outside the {side}x{side} grid"
        clue, direction = self.clue(side)
        try:
            whole = self.of_clue(clue, direction, self.sum, side).cells
        except ValueError:
            whole = ()
        return None if whole == self.cells else "is not a whole diagonal of the grid"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Its diagonal as a line, and its sum written outside the grid at its clue's cell, where the line starts."""
        clue, _ = self.clue(side)
        return (Shape("line", self.cells, "little killer"),
                clue_drawing(self.cells, "little killer", self.sum, outside_cell(clue, side)))

