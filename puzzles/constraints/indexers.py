"""Row, column and box indexers (f-puzzles' `rowindexer`, `columnindexer`, `boxindexer`, entries `{"cells": [...]}`):
an indexer cell's value names a cell of its column, row or region, and that cell holds the indexer's own place. A
column-indexer cell in column c holding v: the cell of its row in column v holds c. A row-indexer cell in row r
holding v: the cell of its column in row v holds r. A box-indexer cell at place p of its region (its cells in
reading order, from 1) holding v: the region's cell at place v holds p. Only the indexer cells say it: the cell named
need not be an indexer, and an indexer that names itself says nothing more.

Stated as links, as SudokuVariantSolverJS states them: the indexer cell and each cell it may name, v in the indexer
forbidding every value but its place in the cell v names, and back, a value other than its place in that cell
forbidding v in the indexer. One constraint a cell, `ci=R1C1,R2C1` one word for a kind's cells. A box indexer reads
the layout's regions (`in_regions`): read from a word or a field it has none until the layout is made.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..box_shapes import side_boxes
from .base import Constraint, Link, Move, Named, OneCell, Shape, a_list, cell_name, entry_cells, refuse_unread


@dataclass(frozen=True)
class Indexer(OneCell):
    """`cell`: the indexer cell; `turned`: the rule moved by a rotation or reflection other than the identity, which
    changes what its values mean (they would need relabelling, or a column indexer turns into a row one): never the
    same rule as an indexer read from a puzzle, so the isomorphs keep no such move."""

    turned: bool = False

    RELABELS = False  # its values are places
    REFLECTS = False  # moved, it is `turned`: a mark that keeps it from the isomorphs, not its image
    TITLE: ClassVar[str] = ""  # `column indexer`
    ALONG: ClassVar[str] = ""  # what it indexes, as messages say: `row`

    def named(self, side: int) -> tuple[int, ...]:
        """The cells its values name, in order (value v names the v-th): its row's, column's or region's."""
        raise NotImplementedError

    def place(self, side: int) -> int:
        """Its own place in what it indexes (from 1): the value the cell it names holds."""
        raise NotImplementedError

    def target(self, v: int, side: int) -> tuple[int, int]:
        """The cell value v names, and the value that cell must then hold (the indexer's place)."""
        return self.named(side)[v - 1], self.place(side)

    def links(self, side: int) -> tuple[Link, ...]:
        full, found = (1 << side) - 1, []
        for v in range(1, side + 1):
            named, place = self.target(v, side)
            if named == self.cell:  # it names itself: its value is its place
                continue
            out = [0] * (side + 1)
            out[v] = full & ~(1 << (place - 1))
            back = [0] * (side + 1)
            for w in range(1, side + 1):
                if w != place:
                    back[w] = 1 << (v - 1)
            found += [Link(self.cell, named, tuple(out)), Link(named, self.cell, tuple(back))]
        return tuple(found)

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of entries `{"cells": [cell names]}` (colours aside), each cell an indexer."""
        a_list(value, "entries")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            try:
                cells = entry_cells(entry, side, f"entry {k}")
            except Named as exc:
                raise ValueError(str(exc)) from None
            refuse_unread(entry, ("cells",), f"entry {k}")
            found += [cls(c) for c in cells]
        return found

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        """One entry listing the kind's cells."""
        cells = [cell_name(c.cell, side) for c in constraints if isinstance(c, cls)]
        return {cls.FIELD: [{"cells": cells}]} if cells else {}

    def field_entry(self, side: int) -> Any:
        return {"cells": [cell_name(self.cell, side)]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random cells of the full grid `values` (on the side's boxes) that keep the kind's rule: a sixth to a
        third of them, and one at least."""
        fitting = [c for c in range(side * side) if cls.on_boxes(c, side).kept_by(values, side)]
        chosen = rng.sample(fitting, rng.randint(max(1, len(fitting) // 6), max(1, len(fitting) // 3)))
        return [cls(c) for c in sorted(chosen)]

    def kept_by(self, values: Sequence[int], side: int) -> bool:
        """Whether the full grid `values` keeps it."""
        named, place = self.target(values[self.cell], side)
        return values[named] == place

    @classmethod
    def on_boxes(cls, cell: int, side: int) -> Indexer:
        """An indexer of this cell on the side's boxes (what `drawn` draws on)."""
        return cls(cell)

    def moved(self, move: Move) -> Constraint:
        if move(0) == 0 and move(1) == 1:  # the identity (a transposition takes the second cell of row 1 down)
            return self
        return type(self)(move(self.cell), turned=True)

    def name(self, index: int, side: int) -> str:
        return f"{self.TITLE} {cell_name(self.cell, side)}"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        mine, other = (va, vb) if a == self.cell else (vb, va)
        named, place = self.target(mine, side)
        return (f"{cell_name(self.cell, side)} holds {mine}, a {self.TITLE}: the {self.ALONG}'s cell {mine}, "
                f"{cell_name(named, side)}, should hold {place}, not {other}")

    def problem(self, side: int) -> str | None:
        return None if 0 <= self.cell < side * side else f"names a cell outside the {side}x{side} grid"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """A dashed outline around the cell, as f-puzzles draws an indexer's cells."""
        return (Shape("outline", (self.cell,), self.TITLE),)


@dataclass(frozen=True)
class ColumnIndexer(Indexer):
    """A column indexer: its value names a column; that column's cell in its row holds its own column."""

    KIND = FIELD = "columnindexer"
    WORD = "ci="
    TITLE = "column indexer"
    ALONG = "row"

    def named(self, side: int) -> tuple[int, ...]:
        r = self.cell // side
        return tuple(range(r * side, (r + 1) * side))

    def place(self, side: int) -> int:
        return self.cell % side + 1


@dataclass(frozen=True)
class RowIndexer(Indexer):
    """A row indexer: its value names a row; that row's cell in its column holds its own row."""

    KIND = FIELD = "rowindexer"
    WORD = "ri="
    TITLE = "row indexer"
    ALONG = "column"

    def named(self, side: int) -> tuple[int, ...]:
        return tuple(range(self.cell % side, side * side, side))

    def place(self, side: int) -> int:
        return self.cell // side + 1


@dataclass(frozen=True)
class BoxIndexer(Indexer):
    """A box indexer: its value names a place of its region (the region's cells in reading order); the region's
    cell there holds its own place. `regions`: each cell's region, the layout's (none until a layout is made)."""

    regions: tuple[int, ...] = ()

    KIND = FIELD = "boxindexer"
    WORD = "bi="
    TITLE = "box indexer"
    ALONG = "region"

    def in_regions(self, regions: Sequence[int]) -> Constraint:
        return self if self.regions == tuple(regions) else BoxIndexer(self.cell, self.turned, tuple(regions))

    def named(self, side: int) -> tuple[int, ...]:
        if len(self.regions) != side * side:
            raise ValueError(f"{self.name(0, side)} has no regions: a layout gives them")
        return tuple(c for c, region in enumerate(self.regions) if region == self.regions[self.cell])

    def place(self, side: int) -> int:
        return self.named(side).index(self.cell) + 1

    @classmethod
    def on_boxes(cls, cell: int, side: int) -> Indexer:
        return cls(cell, regions=side_boxes(side))

    def moved(self, move: Move) -> Constraint:
        if move(0) == 0 and move(1) == 1:
            return self
        return BoxIndexer(move(self.cell), True, self.regions)

    def problem(self, side: int) -> str | None:
        if len(self.regions) != side * side:
            return "has no regions to index"
        return super().problem(side)
