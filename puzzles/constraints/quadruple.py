"""A quadruple: a circle where four cells meet, listing values that must appear among those four cells (f-puzzles'
`quadruple`, `{"cells": [4 cells], "values": [...]}`); a value listed twice appears at least twice.

No set of pairs and no room (which values its empty cells may take depends on which cells still have room for the
values missing), so it is kept by its filter (`SCOPED`): a candidate stays if, with it placed, the values still
missing can go one a cell into the other cells' candidates (a matching of at most four values into three cells).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from ..words import SYMBOLS, json_type, quoted
from .base import (
    Constraint,
    Move,
    Removal,
    Scoped,
    Shape,
    a_list,
    cell_name,
    cell_of_name,
    entry_cells,
    refuse_unread,
)


@dataclass(frozen=True)
class Quadruple(Scoped):
    """`cells`: the four cells around its corner, in reading order; `values`: the values listed, ascending (a value
    twice: at least twice)."""

    cells: tuple[int, ...]
    values: tuple[int, ...]

    KIND = FIELD = "quadruple"
    WORD = "qd="
    RELABELS = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))
        object.__setattr__(self, "values", tuple(sorted(self.values)))

    # -- reading and writing ---------------------------------------------------------------------------------

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """`qd=<the top left cell of the four>:<values>`, the values as symbols: `qd=R3C3:1,1,5`."""
        key, eq, value = word.partition("=")
        if key != "qd" or not eq:
            return None
        corner, colon, listed = value.partition(":")
        if not colon or not listed:
            raise ValueError(f"`qd=` gives the top left of its four cells, `:`, then its values, not {quoted(value)}")
        top = cell_of_name(corner, side)
        if top % side == side - 1 or top // side == side - 1:
            raise ValueError(f"`qd=`: {corner.strip()} is the top left of no four cells of the {side}x{side} grid")
        values = []
        for text in listed.split(","):
            v = SYMBOLS.find(text.strip().upper()) + 1 if len(text.strip()) == 1 else 0
            if not 1 <= v <= side:
                raise ValueError(f"`qd=`: {quoted(text)} is not a value 1 to {SYMBOLS[side - 1]}")
            values.append(v)
        return [cls((top, top + 1, top + side, top + side + 1), tuple(values))]

    def word(self, side: int) -> str:
        return f"qd={cell_name(self.cells[0], side)}:{','.join(SYMBOLS[v - 1] for v in self.values)}"

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `quadruple`: a list of `{"cells": [four cells around a corner], "values": [numbers]}`."""
        a_list(value, "quadruples")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            cells = entry_cells(entry, side, f"`quadruple` entry {k}")
            refuse_unread(entry, ("cells", "values"), f"entry {k}")
            listed = entry.get("values")
            if not isinstance(listed, list) or not listed or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in listed):
                raise ValueError(f"entry {k}: `values` must be a list of whole numbers, not {json_type(listed)} "
                                 f"{quoted(listed)}")
            rule = cls(tuple(cells), tuple(listed))
            problem = rule.problem(side)
            if problem is not None:
                raise ValueError(f"entry {k}: {problem}")
            found.append(rule)
        return found

    def field_entry(self, side: int) -> Any:
        return {"cells": [cell_name(c, side) for c in self.cells], "values": list(self.values)}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random quadruples the full grid `values` keeps, none sharing a cell: four cells around a random corner,
        two to four of their values; n/3 to n/2 + 1 of them, fewer where the tries find none."""
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        for _ in range(40 * wanted):
            if len(found) == wanted:
                break
            r, c = rng.randrange(side - 1), rng.randrange(side - 1)
            cells = (r * side + c, r * side + c + 1, (r + 1) * side + c, (r + 1) * side + c + 1)
            if taken & set(cells):
                continue
            taken.update(cells)
            found.append(cls(cells, tuple(rng.sample([values[cell] for cell in cells], rng.randint(2, 4)))))
        return found

    # -- the rule ------------------------------------------------------------------------------------------------

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell with which the values still missing cannot go one a cell into the other cells'
        candidates, with the values the other cells lost as the reason."""
        full = (1 << side) - 1
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]
        found = []
        for i, cell in enumerate(self.cells):
            others = [masks[c] for j, c in enumerate(self.cells) if j != i]
            gone, rest = 0, masks[cell]
            while rest:
                bit = rest & -rest
                rest ^= bit
                missing = list(self.values)
                if bit.bit_length() in missing:
                    missing.remove(bit.bit_length())
                if not _placeable(missing, others):
                    gone |= bit
            if gone:
                found.append(Removal(cell, gone, by, tuple(c for c in lost if c[0] != cell)))
        return found

    def kept_by(self, held: Sequence[int]) -> bool:
        """Whether its four cells holding `held` (full) hold every listed value, as often as listed."""
        return all(list(held).count(v) >= self.values.count(v) for v in set(self.values))

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Its listed values not all among its cells (full), or left no room among its blank cells."""
        held = [values[c] for c in self.cells if values[c]]
        missing = list(self.values)
        for v in held:
            if v in missing:
                missing.remove(v)
        if len(missing) > len(self.cells) - len(held) or (missing and self.unfillable(values, side)):
            return [f"{self.name(index, side)}: its cells hold {', '.join(map(str, held)) or 'nothing'}, leaving "
                    f"no room for {', '.join(map(str, missing))}"]
        return []

    def moved(self, move: Move) -> Constraint:
        return Quadruple(tuple(move(c) for c in self.cells), self.values)

    def name(self, index: int, side: int) -> str:
        return f"quadruple {index + 1} ({cell_name(self.cells[0], side)}: {''.join(map(str, self.values))})"

    def problem(self, side: int) -> str | None:
        r, c = divmod(self.cells[0], side) if self.cells else (0, 0)
        if self.cells != (r * side + c, r * side + c + 1, (r + 1) * side + c, (r + 1) * side + c + 1) \
                or c == side - 1 or not 0 <= self.cells[-1] < side * side:
            return "names no four cells around a corner of the grid"
        if not 1 <= len(self.values) <= 4:
            return f"lists {len(self.values)} values: its four cells hold 1 to 4"
        if not all(1 <= v <= side for v in self.values):
            return f"lists a value outside 1 to {side}"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Its four cells outlined, its values written small in the first."""
        return (Shape("outline", self.cells, self.KIND, "".join(SYMBOLS[v - 1] for v in self.values)),)


def _placeable(missing: Sequence[int], cells: Sequence[int]) -> bool:
    """Whether the values `missing` can go one a cell into distinct cells whose candidates (`cells`) hold them."""
    if len(missing) > len(cells):
        return False
    return any(all(cells[i] >> (v - 1) & 1 for v, i in zip(missing, chosen, strict=True))
               for chosen in permutations(range(len(cells)), len(missing)))
