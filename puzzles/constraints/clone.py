"""A clone (f-puzzles' `clone`): two groups of cells of one shape, each cell of the first holding the value of its
counterpart in the second (`cells` and `cloneCells`, in order). Stated as links between each two counterparts: a
value in one forbids every other value in the other (a cell that is its own counterpart ties nothing, as
SudokuVariantSolverJS reads it). The page outlines both groups; the line form writes
`cl=R1C1,R1C2=R5C5,R5C6` (the first group, `=`, the second)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    Constraint,
    Link,
    Move,
    Named,
    Shape,
    a_list,
    adjacent,
    cell_name,
    cell_of_name,
    entry_cells,
    refuse_unread,
)


@dataclass(frozen=True)
class Clone(Constraint):
    """`cells` and `clones`: the two groups, as long, the i-th cell of each a counterpart of the other's."""

    cells: tuple[int, ...]
    clones: tuple[int, ...]

    KIND = FIELD = "clone"
    WORD = "cl="
    RELABELS = False

    def pairs(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in zip(self.cells, self.clones, strict=False) if a != b]

    def links(self, side: int) -> tuple[Link, ...]:
        full = (1 << side) - 1
        others = (0, *(full & ~(1 << (v - 1)) for v in range(1, side + 1)))
        return tuple(link for a, b in self.pairs() for link in (Link(a, b, others), Link(b, a, others)))

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        first, again, second = value.partition("=")
        if not again:
            raise ValueError("gives one group of cells: a clone is two, joined by `=`")
        clone = cls(tuple(cell_of_name(name, side) for name in first.split(",")),
                    tuple(cell_of_name(name, side) for name in second.split(",")))
        problem = clone.problem(side)
        if problem is not None:
            raise ValueError(f"{clone.name(0, side)} {problem}")
        return [clone]

    def word(self, side: int) -> str:
        return (self.WORD + ",".join(cell_name(c, side) for c in self.cells) + "="
                + ",".join(cell_name(c, side) for c in self.clones))

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of entries `{"cells": [cell names], "cloneCells": [as many cell names]}`."""
        a_list(value, "entries")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            try:
                cells = entry_cells(entry, side, f"entry {k}")
                named = entry.get("cloneCells")
                if not isinstance(named, list) or not named:
                    raise Named(f"entry {k} has no `cloneCells` list")
                clones = entry_cells({"cells": named}, side, f"entry {k}")
            except Named as exc:
                raise ValueError(str(exc)) from None
            refuse_unread(entry, ("cells", "cloneCells"), f"entry {k}")
            clone = cls(tuple(cells), tuple(clones))
            problem = clone.problem(side)
            if problem is not None:
                raise ValueError(f"entry {k}: {clone.name(0, side)} {problem}")
            found.append(clone)
        return found

    def field_entry(self, side: int) -> Any:
        return {"cells": [cell_name(c, side) for c in self.cells],
                "cloneCells": [cell_name(c, side) for c in self.clones]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random clones the full grid `values` keeps, none sharing a cell: each a group grown from a random cell by
        orthogonal neighbours whose counterparts a random shift away hold the same values, 2 to n/2 + 1 cells where
        the grid allows (the largest of a few tries); 1 to n/3 of them."""
        wanted, taken = rng.randint(1, max(1, side // 3)), set[int]()
        twins = [(a, b) for a in range(side * side) for b in range(side * side) if a != b and values[a] == values[b]]
        found: list[Constraint] = []
        for _ in range(wanted):
            best: tuple[list[int], list[int]] = ([], [])
            for a, b in rng.sample(twins, min(len(twins), 4 * side)):
                dr, dc = b // side - a // side, b % side - a % side
                group = grown(a, dr, dc, values, side, rng, taken, rng.randint(2, side // 2 + 1))
                if len(group[0]) > len(best[0]):
                    best = group
            if not best[0]:
                break
            taken.update(best[0] + best[1])
            found.append(cls(tuple(best[0]), tuple(best[1])))
        return found

    def moved(self, move: Move) -> Constraint:
        return Clone(tuple(move(c) for c in self.cells), tuple(move(c) for c in self.clones))

    def name(self, index: int, side: int) -> str:
        return f"clone {index + 1} ({cell_name(self.cells[0], side)}, {cell_name(self.clones[0], side)})"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return (f"{cell_name(a, side)} and {cell_name(b, side)} hold {va} and {vb}: a clone's counterparts hold one "
                f"value")

    def problem(self, side: int) -> str | None:
        if len(self.cells) != len(self.clones):
            return f"has {len(self.cells)} cells and {len(self.clones)} clone cells: each cell has one counterpart"
        if len(set(self.cells)) != len(self.cells) or len(set(self.clones)) != len(self.clones):
            return "names a cell twice in one group"
        if not all(0 <= c < side * side for c in self.cells + self.clones):
            return f"names a cell outside the {side}x{side} grid"
        if not self.pairs():
            return "clones its cells onto themselves"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return Shape("outline", self.cells, "clone"), Shape("outline", self.clones, "clone")


def grown(start: int, dr: int, dc: int, values: Sequence[int], side: int, rng: random.Random, taken: set[int],
          size: int) -> tuple[list[int], list[int]]:
    """A group from `start` and its counterparts (dr rows, dc columns away) of the same values, neither among `taken`
    nor overlapping, grown by orthogonal neighbours up to `size` cells; empty where `start` has none."""
    def partner(cell: int) -> int | None:
        r, c = divmod(cell, side)
        if not (0 <= r + dr < side and 0 <= c + dc < side):
            return None
        other = (r + dr) * side + c + dc
        return other if values[other] == values[cell] and other not in taken else None

    first = partner(start)
    if (dr, dc) == (0, 0) or start in taken or first is None:
        return [], []
    cells, clones = [start], [first]
    while len(cells) < size:
        steps = []
        for n in {n for c in cells for n in adjacent(side)[c]} - taken - set(cells) - set(clones):
            other = partner(n)
            if other is not None and other not in cells and other not in clones and other != n:
                steps.append((n, other))
        if not steps:
            break
        cell, other = rng.choice(sorted(steps))
        cells.append(cell)
        clones.append(other)
    return cells, clones
