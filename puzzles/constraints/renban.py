"""A renban line: its cells hold different values that form a run of consecutive values, in any order (f-puzzles'
`renban`, one entry with one or more lines; each line is one Renban here).

Its values differ (a set of pairs), but being a run is no set of pairs: the kind is not LINKED. It keeps a *room*,
as a Killer cage does (`ROOMS`): the values its empty cells may still take are a function of the values placed in
it, the values of the runs of its length that hold every placed value, less those placed. Its filter (`narrow`) is
the cage's: a candidate stays if some run, filled one value a cell, gives it (puzzles.bits `supports`, the runs as
the combinations).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..bits import popcount, supports
from .base import Constraint, Link, Move, Removal, Shape, a_list, cell_name, cell_of_name, cells_problem, span
from .lines import king_walk, line_entries

DRAWING = ("outlineC", "fontC")  # an f-puzzles entry's colours: the drawing's, no rule


@dataclass(frozen=True)
class Renban(Constraint):
    """`cells`: the line's cells in order (its drawing's); one or more, none twice."""

    cells: tuple[int, ...]

    KIND = FIELD = "renban"
    WORD = "rb="
    RELABELS = False  # relabelling the values breaks runs
    LINKED = False
    ROOMS = True

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key != "rb" or not eq:
            return None
        return [cls(tuple(cell_of_name(name, side) for name in value.split(",")))]

    def word(self, side: int) -> str:
        return "rb=" + ",".join(cell_name(c, side) for c in self.cells)

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `renban`: a list of entries, each `{"lines": [[cell names], ...]}`, a line a renban."""
        a_list(value, "renban lines")
        found: list[Constraint] = []
        for k, line in line_entries(value, side, DRAWING):
            rule = cls(tuple(line))
            problem = rule.problem(side)
            if problem is not None:
                raise ValueError(f"entry {k}: its line from {cell_name(line[0], side)} {problem}")
            found.append(rule)
        return found

    def field_entry(self, side: int) -> Any:
        return {"lines": [[cell_name(c, side) for c in self.cells]]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random renban lines the full grid `values` keeps, none sharing a cell: walks between king-adjacent cells
        of 2 to n/2 + 1 cells whose values are a run; n/3 to n/2 + 1 of them, fewer where the tries find none."""
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        for _ in range(40 * wanted):
            if len(found) == wanted:
                break
            line = king_walk(side, taken, rng, rng.randint(2, side // 2 + 1), rng.randrange(side * side))
            held = [values[c] for c in line]
            if len(line) >= 2 and len(set(held)) == len(held) and max(held) - min(held) == len(held) - 1:
                taken.update(line)
                found.append(cls(tuple(line)))
        return found

    # -- the rule ------------------------------------------------------------------------------------------------

    def links(self, side: int) -> tuple[Link, ...]:
        return ()  # kept by its room (puzzles/candidates.py's `Rooms`) and its filter

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def runs(self, side: int) -> tuple[int, ...]:
        """The value sets it may hold: each run of as many consecutive values as it has cells, as a mask."""
        return runs(len(self.cells), side)

    def fillings(self, side: int) -> tuple[int, ...] | None:
        """Its runs (a room's value sets, as a Killer cage's combinations)."""
        return self.runs(side)

    def room(self, used: int, side: int) -> int:
        """The values of the runs that hold every value of `used`, less those; 0 when no run holds them all or no
        cell is empty."""
        if popcount(used) >= len(self.cells):
            return 0
        room = 0
        for run in self.runs(side):
            if not used & ~run:
                room |= run
        return room & ~used

    def narrows(self, side: int) -> bool:
        return True

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell that no run, one value a cell from their candidates, gives it, with the values its
        other cells lost as the reason (no run at all: every cell loses every value)."""
        full = (1 << side) - 1
        domains = [masks[c] for c in self.cells]
        kept = supports(domains, self.runs(side))
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]
        return [Removal(cell, domain & ~keep, by, tuple(c for c in lost if c[0] != cell))
                for cell, domain, keep in zip(self.cells, domains, kept, strict=True) if domain & ~keep]

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """A value twice on it, or its values further apart than its length allows (full: not a run)."""
        held = [values[c] for c in self.cells if values[c]]
        name = self.name(index, side)
        twice = sorted({v for v in held if held.count(v) > 1})
        if twice:
            return [f"two {twice[0]}s on {name}"]
        if held and max(held) - min(held) >= len(self.cells):
            return [f"{name} holds {min(held)} and {max(held)}: {len(self.cells)} consecutive values span "
                    f"{len(self.cells) - 1} at most"]
        return []

    def moved(self, move: Move) -> Constraint:
        return Renban(tuple(move(c) for c in self.cells))

    def name(self, index: int, side: int) -> str:
        return f"renban {index + 1} ({cell_name(self.cells[0], side)})"

    def problem(self, side: int) -> str | None:
        if (problem := cells_problem(self.cells, side)) is not None:
            return problem
        if len(self.cells) > side:
            return f"has {len(self.cells)} cells: its values differ, so it holds {side} or fewer"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape("line", self.cells, self.KIND),)


@cache
def runs(count: int, side: int) -> tuple[int, ...]:
    """The runs of `count` consecutive values 1..side, as masks, ascending."""
    return tuple(span(low, low + count - 1, side) for low in range(1, side - count + 2))
