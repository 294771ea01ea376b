"""A thermometer: values strictly increase from its bulb along its line (f-puzzles' `thermometer`, one entry a
bulb with one or more lines; each line is one Thermometer here). A cell d steps along holds at least d more than
an earlier one, so every pair of its cells is linked, not only neighbours: the filter then narrows the whole line
to its bounds at once."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    Constraint,
    Link,
    Move,
    Shape,
    a_list,
    cell_name,
    cell_of_name,
    cells_problem,
    refuse_unread,
    span,
)


@dataclass(frozen=True)
class Thermometer(Constraint):
    """`cells`: the bulb first, then the line in order; two cells or more, none twice."""

    cells: tuple[int, ...]

    KIND = "thermometer"
    FIELD = "thermometer"
    WORD = "th="
    RELABELS = False

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key != "th" or not eq:
            return None
        return [cls(tuple(cell_of_name(name, side) for name in value.split(",")))]

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `thermometer`: a list of entries, each `{"lines": [[cell names, bulb first], ...]}`, a line a
        thermometer (several lines may share a bulb)."""
        a_list(value, "thermometers")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            lines = entry.get("lines") if isinstance(entry, dict) else None
            if not isinstance(lines, list) or not lines or not all(isinstance(line, list) and line for line in lines):
                raise ValueError(f"entry {k} has no `lines` (lists of cell names, the bulb first)")
            refuse_unread(entry, ("lines",), f"entry {k}")
            for line in lines:
                if not all(isinstance(name, str) for name in line):
                    raise ValueError(f"entry {k}: a line holds something other than cell names")
                try:
                    thermometer = cls(tuple(cell_of_name(name, side) for name in line))
                except ValueError as exc:
                    raise ValueError(f"entry {k}: {exc}") from None
                problem = thermometer.problem(side)
                if problem is not None:
                    raise ValueError(f"entry {k}: its line from {line[0].strip()} {problem}")
                found.append(thermometer)
        return found

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random thermometers the full grid `values` keeps, none sharing a cell, as setters draw them: each a walk
        from a random bulb of the lower half of the values, each step to the lower of two random king-adjacent
        cells of greater values (so that it rises slowly), 3 to 2n/3 cells long where the walk allows (2 at least);
        n/3 to n/2 + 1 of them, fewer where no bulb left gives a line."""
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        low = [c for c in range(side * side) if values[c] <= (side + 1) // 2]
        for bulb in rng.sample(low, len(low)):
            if len(found) == wanted:
                break
            line, length = [bulb], rng.randint(3, max(3, 2 * side // 3))
            while bulb not in taken and len(line) < length:
                r, c = divmod(line[-1], side)
                rising = [nr * side + nc for nr in (r - 1, r, r + 1) for nc in (c - 1, c, c + 1)
                          if 0 <= nr < side and 0 <= nc < side and nr * side + nc not in taken
                          and values[nr * side + nc] > values[line[-1]]]
                if not rising:
                    break
                line.append(min(rng.sample(rising, min(2, len(rising))), key=values.__getitem__))
            if len(line) >= 2:
                taken.update(line)
                found.append(cls(tuple(line)))
        return found

    def links(self, side: int) -> tuple[Link, ...]:
        found = []
        for i, a in enumerate(self.cells):
            for j in range(i + 1, len(self.cells)):
                d, b = j - i, self.cells[j]
                # v at a (earlier) leaves b only v+d and above; w at b (later) leaves a only w-d and below
                found.append(Link(a, b, (0, *(span(1, v + d - 1, side) for v in range(1, side + 1)))))
                found.append(Link(b, a, (0, *(span(w - d + 1, side, side) for w in range(1, side + 1)))))
        return tuple(found)

    def word(self, side: int) -> str:
        return "th=" + ",".join(cell_name(c, side) for c in self.cells)

    def field_entry(self, side: int) -> Any:
        return {"lines": [[cell_name(c, side) for c in self.cells]]}

    def moved(self, move: Move) -> Constraint:
        return Thermometer(tuple(move(c) for c in self.cells))

    def name(self, index: int, side: int) -> str:
        return f"thermometer {index + 1} ({cell_name(self.cells[0], side)})"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        first, then = (a, b) if self.cells.index(a) < self.cells.index(b) else (b, a)
        low, high = (va, vb) if first == a else (vb, va)
        steps = self.cells.index(then) - self.cells.index(first)
        return (f"{cell_name(then, side)} holds {high}, {steps} step{'s' if steps > 1 else ''} after "
                f"{cell_name(first, side)}'s {low} on the thermometer from {cell_name(self.cells[0], side)} "
                f"(its values rise)")

    def problem(self, side: int) -> str | None:
        if (problem := cells_problem(self.cells, side)) is not None:
            return problem
        if len(self.cells) > side:
            return f"has {len(self.cells)} cells: its values rise from 1 to {side} at most, so it holds {side} or fewer"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return Shape("bulb", self.cells[:1]), Shape("line", self.cells, self.KIND)
