"""An arrow: the values along its line sum to the number in its circle (f-puzzles' `arrow`, one entry a circle with
one or more lines, each line starting at a cell of the circle; each line is one Arrow here). A circle of several
cells (a pill) reads its values as the digits of a number, first cell first: on a 9x9 grid, 1 and 4 in a pill are
14. Values may repeat along a line (the houses aside).

A weighted sum (sums.py): the line's cells weigh 1, the pill's cells -10^k (k: the digits after it), the total 0.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..words import quoted
from .base import DRAWING, Constraint, Move, Shape, a_list, cell_name, cell_of_name, cells_problem
from .lines import line_entries
from .sums import WeightedSum


@dataclass(frozen=True)
class Arrow(WeightedSum):
    """`pill`: the circle's cells, the number's first digit first; `line`: the line's cells after the circle, in
    order from it."""

    pill: tuple[int, ...]
    line: tuple[int, ...]

    KIND = FIELD = "arrow"
    WORD = "ar="

    def terms(self, side: int) -> tuple[tuple[int, int], ...]:
        digits = len(self.pill)
        return (*((c, -10 ** (digits - 1 - i)) for i, c in enumerate(self.pill)), *((c, 1) for c in self.line))

    def total(self, side: int) -> int:
        return 0

    def scope(self) -> tuple[int, ...]:
        return self.pill + self.line

    # -- reading and writing ---------------------------------------------------------------------------------

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """`ar=<the circle's cells>:<the line's cells>`, each a comma-separated list of cell names."""
        key, eq, value = word.partition("=")
        if key != "ar" or not eq:
            return None
        pill, colon, line = value.partition(":")
        if not colon or not pill or not line:
            raise ValueError(f"`ar=` gives its circle's cells, `:`, then its line's cells, not {quoted(value[:40])}")
        return [cls(tuple(cell_of_name(name, side) for name in pill.split(",")),
                    tuple(cell_of_name(name, side) for name in line.split(",")))]

    def word(self, side: int) -> str:
        return (f"ar={','.join(cell_name(c, side) for c in self.pill)}:"
                f"{','.join(cell_name(c, side) for c in self.line)}")

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `arrow`: a list of entries `{"cells": [the circle's cells], "lines": [[a cell of the circle,
        then the line], ...]}`, a line an arrow."""
        a_list(value, "arrows")
        found: list[Constraint] = []
        for k, line in line_entries(value, side, DRAWING, ("cells",)):
            names = value[k - 1].get("cells")
            if not isinstance(names, list) or not names or not all(isinstance(name, str) for name in names):
                raise ValueError(f"entry {k} has no `cells` (its circle's cell names)")
            try:
                pill = tuple(cell_of_name(name, side) for name in names)
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None
            if line[0] not in pill:
                raise ValueError(f"entry {k}: its line starts at {cell_name(line[0], side)}, not in its circle")
            rule = cls(pill, tuple(line[1:]))
            problem = rule.problem(side)
            if problem is not None:
                raise ValueError(f"entry {k}: its arrow from {cell_name(pill[0], side)} {problem}")
            found.append(rule)
        return found

    def start(self, side: int) -> int:
        """The cell of the circle its line leaves from: the nearest to the line's first cell (in king's moves)."""
        (r, c) = divmod(self.line[0], side)
        return min(self.pill, key=lambda cell: max(abs(cell // side - r), abs(cell % side - c)))

    def field_entry(self, side: int) -> Any:
        return {"lines": [[cell_name(c, side) for c in (self.start(side), *self.line)]],
                "cells": [cell_name(c, side) for c in self.pill]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random arrows the full grid `values` keeps, none sharing a cell: a one-cell circle, its line a walk
        between king-adjacent cells, each step to a cell whose value the sum still has room for, ending where it
        reaches the circle's value (2 cells at least where it can); n/3 to n/2 + 1 of them, fewer where the tries
        find none."""
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        for _ in range(40 * wanted):
            if len(found) == wanted:
                break
            circle = rng.randrange(side * side)
            if circle in taken or values[circle] < 3:
                continue
            line, left = [circle], values[circle]
            while left:
                r, c = divmod(line[-1], side)
                fits = [nr * side + nc for nr in (r - 1, r, r + 1) for nc in (c - 1, c, c + 1)
                        if 0 <= nr < side and 0 <= nc < side and nr * side + nc not in taken
                        and nr * side + nc not in line and values[nr * side + nc] <= left
                        and (len(line) > 1 or values[nr * side + nc] < left)]
                if not fits:
                    break
                line.append(rng.choice(fits))
                left -= values[line[-1]]
            if not left:
                taken.update(line)
                found.append(cls((circle,), tuple(line[1:])))
        return found

    # -- the rule ------------------------------------------------------------------------------------------------

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Full, a line whose sum is not the circle's number; partly filled, values that leave it no filling."""
        name = self.name(index, side)
        if all(values[c] for c in self.scope()):
            number = int("".join(str(values[c]) for c in self.pill))
            total = sum(values[c] for c in self.line)
            return [] if number == total else [f"{name}: its line sums to {total}, its circle holds {number}"]
        return [f"{name}: the values on it leave its blank cells no values to fill it with"] \
            if self.unfillable(values, side) else []

    def moved(self, move: Move) -> Constraint:
        return Arrow(tuple(move(c) for c in self.pill), tuple(move(c) for c in self.line))

    def name(self, index: int, side: int) -> str:
        return f"arrow {index + 1} ({cell_name(self.pill[0], side)})"

    def problem(self, side: int) -> str | None:
        cells = self.scope()
        if not self.pill or not self.line:
            return "has no circle or no line"
        if (problem := cells_problem(cells, side)) is not None:
            return problem
        if len(self.pill) > 1 and side > 9:
            return f"has a circle of {len(self.pill)} cells: on a {side}x{side} grid a value is no digit"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A circle on each cell of its circle, its line from the circle."""
        return (*(Shape("circle", (c,), self.KIND) for c in self.pill),
                Shape("line", (self.start(side), *self.line), self.KIND))

