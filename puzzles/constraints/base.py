"""What every kind of constraint states, in one place: the socket each layer asks.

A *constraint* is a rule of a puzzle beyond its houses: a Killer cage, anti-knight, a thermometer, ... Each kind is
one module of this package, a frozen dataclass saying

- its data, and its words where puzzles are written: the line form's word (`word`, read back by the kind's
  `of_word`) and its f-puzzles field (`FIELD`, the kind's `of_field` and `field_entry`);
- its *relation*: the pairs of cells it ties and, for each pair (a, b) and value v, the values b may not hold when a
  holds v (`links`). Every rule of the four kinds beyond cages is such a set of pairs (a Killer cage's sum is not:
  it states its own `narrow` and `violations`): a knight's move apart, two cells
  may not share a value; two orthogonal neighbours, under non-consecutive, may not differ by 1; along a thermometer,
  a cell d steps after another holds at least d more. The one relation serves every layer: the solution check
  (`violations`), the engines' placements, the filter on candidate masks (`narrow`), the explanation of each removal
  (`Removal.because`), and the encoders of formulations/constraints/;
- how the grid's rotations and reflections move it (`moved`), and whether relabelling the values keeps it
  (`RELABELS`);
- its drawing: the shapes the page draws (`drawing`).

Layers never name a kind: they ask these methods. A layer that cannot ask one (a formulation with no encoder for
the kind) refuses the puzzle (`puzzles.options.contract`'s *not run*), never solves another.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from ..bits import popcount
from ..words import SYMBOLS, json_type, quoted

Move = Callable[[int], int]  # where a rotation or reflection of the grid takes a cell


@dataclass(frozen=True)
class Link:
    """Half of a constraint's relation: when cell `a` holds value v, cell `b` may not hold a value of `forbids[v]`
    (a mask, bit v-1 for value v; `forbids[0]` is 0)."""

    a: int
    b: int
    forbids: tuple[int, ...]


@dataclass(frozen=True)
class Removal:
    """A filter's deduction: `cell` loses the values of `mask`, because of the constraint `by` and the values
    other cells can no longer take (`because`: (cell, mask) pairs, each the values that cell lost before; together
    with the removal, the clause a learning search records)."""

    cell: int
    mask: int
    by: str
    because: tuple[tuple[int, int], ...]


class Named(ValueError):
    """A refusal whose message already says what it is about (`cage 3: ...`, `` `k=` maps ... ``): a reader passes
    it on as it is, naming neither the word nor the field again."""


@dataclass(frozen=True)
class House:
    """A house beyond the rows, columns and regions: cells that hold every value once, named as the puzzle
    names it (`diagonal -`, `extra region 2`, `disjoint group 5`)."""

    name: str
    cells: tuple[int, ...]

    def __reduce__(self) -> tuple[type[House], tuple[str, tuple[int, ...]]]:
        return House, (self.name, self.cells)  # compiled: built from its arguments, as Grid is

    @property
    def kind(self) -> str:
        """What sort of house it is (its name without its sign or number): a kind's `HOUSE`."""
        return self.name.rsplit(" ", 1)[0]


@dataclass(frozen=True)
class Shape:
    """What the page draws for a constraint: `kind` (`line`, `bulb`, `note`, `outline`: a dashed outline along its
    cells' boundary; `ring` or `dot`: a white or black circle on the edge of its two cells, `letter`: its label
    there; `circle` or `square`: a grey one in its cell; `outside`: its label written outside the grid, at `at`,
    beside the row, column or diagonal of its cells, as a clue outside the grid is; for a house, `diagonal`: a line
    from corner to corner, or `shade`: its cells in a light colour of its own), its cells, a caption (what the legend
    calls it) and a label (a number written small in its first cell: a cage's total; a diagonal's sign; the shading's
    class on the page, `xr`; a dot's value, XV's letter; an outside clue's number). The page refuses a kind it does
    not draw, naming the constraint."""

    kind: str
    cells: tuple[int, ...]
    caption: str = ""
    label: str = ""
    # where an `outside` shape's label is written: the row and column (0-based) of a place just outside the grid, one
    # of them -1 or the side (f-puzzles' clue cell: R0C3 is (-1, 2))
    at: tuple[int, int] | None = None


class Constraint:
    """A rule beyond houses (the class each kind's dataclass derives from). A subclass sets `KIND` (its
    name, as a variant names it), `FIELD` (its f-puzzles field), `WORD` (its line-form word), `RELABELS`, and
    writes `links`, `word`, `moved`, `name` and `describe`; `violations` and `narrow` follow from `links`."""

    KIND: ClassVar[str] = ""
    FIELD: ClassVar[str] = ""
    WORD: ClassVar[str] = ""  # its word in the line form (the name, or what comes before `=`), as messages list it
    RELABELS: ClassVar[bool] = True  # whether relabelling the values 1..n keeps the rule (isomorphs)
    # whether `moved` gives the rule's image under any rotation or reflection, not only under those a layout keeps
    # (a puzzle reflected whole: puzzles.isomorph.transposed)
    REFLECTS: ClassVar[bool] = True
    GLOBAL: ClassVar[bool] = False  # a rule of the whole grid (a flag in f-puzzles), not of some cells
    # whether its links state it whole: an engine that keeps every link keeps the rule (the hand-written searches
    # then know the kind with nothing more)
    LINKED: ClassVar[bool] = True
    REPEATS: ClassVar[bool] = False  # whether the same rule twice is two rules (a cage twice: two cages)
    LEADS: ClassVar[bool] = False  # whether its name comes first in a variant's (`killer+jigsaw`), not last
    READS_DRAWN: ClassVar[bool] = False  # whether its `drawn_beside` reads the other kinds' rules: drawn after them
    # whether it keeps a *room* (`scope`, `room`): a rule of some cells that its links do not state whole, which the
    # engines keep as they keep a house, by the values its empty cells may still take (puzzles/candidates.py `Rooms`)
    ROOMS: ClassVar[bool] = False
    # whether it keeps a *scope* by its filter: a rule of some cells that is neither pairs nor a room (an arrow's sum,
    # a quadruple's values), which the engines keep by what its filter leaves each empty cell of its scope given the
    # values placed in it (`allowed`: puzzles/candidates.py `Scopes`), the rungs and cdcl by its filter (`narrow`)
    SCOPED: ClassVar[bool] = False
    NOUN: ClassVar[str] = ""  # what a message calls its data (`cages`: "a killer's cages are its own"); none: cells
    PLURAL: ClassVar[str] = ""  # how a method's refusal names it (`Killer cages`); none: `<its kind> constraints`
    # what a message calls one of them, and what of them rules out relabelling (a kind that does not `RELABELS`):
    # the isomorphs' group says "rotations and reflections that keep every cage", "a Killer's sums rule out ..."
    ONE: ClassVar[str] = "constraint"
    FIXES_VALUES: ClassVar[str] = "its constraints"
    # whether a variant naming it (`killer+x`) makes each puzzle of constraints of this kind over its houses, drawn
    # over the puzzle's solution and made unique by the kind's own maker (killer_maker.py), with its own kinds of
    # puzzle (making/kinds.py's KILLER_KINDS), not by `drawn` and givens
    MAKES: ClassVar[bool] = False
    # SudokuPad's names for it (puzzles/sudokupad.py): a rule of its `global` list, or a cage's `type` or `style`
    # that makes the cage one of it
    PAD: ClassVar[tuple[str, ...]] = ()
    # what one of its own clues is called (`clues`: a cage's `total`), as a shrinker's note counts them
    CLUE: ClassVar[str] = ""
    # what its houses are called (`House.kind`), for a kind that adds houses (`houses`): `diagonal`
    HOUSE: ClassVar[str] = ""
    # its f-puzzles fields, for a kind that reads several (the diagonals: one flag a sign); none: FIELD alone
    FIELDS: ClassVar[tuple[str, ...]] = ()
    # whether its f-puzzles field is a cell's, in the objects of `grid` (given pencil marks), not the puzzle's: read
    # by `of_object` from the cells, written into them by `cell_fields`
    CELL_FIELD: ClassVar[bool] = False

    def houses(self, index: int, side: int) -> tuple[House, ...]:
        """The houses it adds (cells holding every value once), which the geometry makes units after the regions;
        `index` as `name`'s. None for a rule that is no house."""
        return ()

    @classmethod
    def of_houses(cls, houses: Sequence[House], side: int) -> list[Constraint]:
        """The constraints of these houses of its `HOUSE` (as a caller of `layout` gives them)."""
        raise NotImplementedError

    def fitted(self, height: int, width: int) -> Constraint:
        """The rule on a layout whose regions are boxes `height` rows tall and `width` wide (0, 0: not boxes):
        itself, unless its cells follow from the boxes (disjoint groups); ValueError when it cannot stand there."""
        return self

    def in_regions(self, regions: Sequence[int]) -> Constraint:
        """The rule on a layout with these regions (each cell's region, row-major): itself, unless its meaning reads
        them (a box indexer's places, a region-sum line's segments)."""
        return self

    def settled(self, every: Sequence[Constraint]) -> Constraint:
        """The rule as the puzzle's other rules make it (`every`: all of them, itself among them): itself, unless
        its meaning reads theirs (a negative constraint: the pairs of neighbours without a dot)."""
        return self

    @classmethod
    def held(cls, constraints: Sequence[Constraint]) -> list[Constraint]:
        """Its constraints in the order a layout holds them: as given, unless the kind has an order of its own."""
        return list(constraints)

    @classmethod
    def parts(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """Its part of a variant's name (`thermometer`; the diagonals: `x` or `diagonal+`)."""
        return [cls.KIND]

    @classmethod
    def of_part(cls, part: str, side: int) -> list[Constraint] | None:
        """The constraints a part of a variant's name states, None when the part is not this kind's (a kind of
        some cells has its own, which the part cannot state); ValueError when it is, but not at this side."""
        return [cls()] if cls.GLOBAL and part == cls.KIND else None

    @classmethod
    def of_object(cls, puzzle: Mapping[str, Any], side: int) -> list[Constraint]:
        """The constraints its field states in an f-puzzles object (null and absent: none); ValueError naming the
        field and why (Named as it is)."""
        value = puzzle.get(cls.FIELD)
        if value is None:
            return []
        try:
            return cls.of_field(value, side)
        except Named:
            raise
        except ValueError as exc:
            raise ValueError(f"`{cls.FIELD}` {exc}") from None

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        """The f-puzzles fields that state these constraints of the kind: a flag, or a list of entries."""
        if cls.GLOBAL:
            return {cls.FIELD: constraints[0].field_entry(side)} if constraints else {}
        return {cls.FIELD: [c.field_entry(side) for c in constraints]} if constraints else {}

    @classmethod
    def cell_fields(cls, constraints: Sequence[Constraint], side: int) -> dict[int, dict[str, Any]]:
        """A kind whose field is a cell's (`CELL_FIELD`): the fields these constraints add to the cells' objects of
        f-puzzles' `grid`, by cell."""
        return {}

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """The constraints a line-form word states, None when the word is not this kind's; ValueError saying why
        when it is, but wrong. A rule of the whole grid is its kind's name."""
        return [cls()] if cls.GLOBAL and word == cls.KIND else None

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """The constraints of f-puzzles' field (`FIELD`) holding `value` (not null); ValueError saying why it is
        none. A rule of the whole grid is a flag: true or false, nothing else (`1` is no flag)."""
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, not {json_type(value)} {quoted(value)}")
        return [cls()] if value else []

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random constraints of this kind that the full grid `values` keeps: what a maker draws over a solution
        (making/variants.py). A rule of the whole grid is itself when the grid keeps it, else none."""
        if not cls.GLOBAL:
            raise NotImplementedError(f"{cls.KIND} constraints are not drawn")
        rule = cls()
        return [] if rule.violations(values, side) else [rule]

    @classmethod
    def drawn_beside(cls, drawn: Sequence[Constraint], values: Sequence[int], side: int,
                     rng: random.Random) -> list[Constraint]:
        """Random constraints of this kind that the full grid `values` keeps, drawn after `drawn`, the rules of the
        puzzle's other kinds drawn over the same grid: its `drawn`, unless its meaning reads theirs (a negative
        constraint: it adds every dot of their kinds that the grid keeps)."""
        return cls.drawn(values, side, rng)


    def links(self, side: int) -> tuple[Link, ...]:
        raise NotImplementedError

    def scope(self) -> tuple[int, ...]:
        """The cells a rule with a room (`ROOMS`) binds."""
        raise NotImplementedError

    def room(self, used: int, side: int) -> int:
        """A rule with a room (`ROOMS`): the values its empty cells may still take when the values of `used` (a
        mask) are placed in its cells, a pure function of `used`; 0 when none can (or no cell is empty)."""
        raise NotImplementedError

    def allowed(self, held: Sequence[int], side: int) -> tuple[int, ...]:
        """A rule kept by its filter (`SCOPED`): per cell of its `scope`, in order, the values it may hold when the
        values `held` (in the scope's order, 0 for an empty cell) are placed there and every other cell may hold any
        value: its filter (`narrow`) on those masks, a pure function of `held`. A placed value the filter removes
        (the placed values break the rule) leaves its cell 0, as does an empty cell no filling reaches."""
        full = (1 << side) - 1
        cells = self.scope()
        masks = [0] * (side * side)
        for cell, v in zip(cells, held, strict=True):
            masks[cell] = 1 << (v - 1) if v else full
        for removal in self.narrow(masks, side):
            masks[removal.cell] &= ~removal.mask
        return tuple(masks[cell] for cell in cells)

    def unfillable(self, values: Sequence[int], side: int) -> bool:
        """A rule kept by its filter (`SCOPED`): whether the values placed in its scope (`values`: the grid's, 0 for
        a blank) leave it no filling, whatever its empty cells hold: its check on a partly filled grid."""
        held = [values[c] for c in self.scope()]
        return any(not mask or (v and not mask >> (v - 1) & 1)
                   for v, mask in zip(held, self.allowed(held, side), strict=True))
    def fillings(self, side: int) -> tuple[int, ...] | None:
        """A rule with a room (`ROOMS`): the sets of values its cells may hold together, as masks (bit v-1 = value
        v), ascending; None when any set of different values may (its room is then every value not placed). What
        cdcl's room propagator filters by and the page's player replays a room from."""
        raise NotImplementedError

    def clues(self) -> int:
        """How many clues of its own it gives beside its cells (a cage's total: 1), which a shrinker may take away
        one by one (`unclued`), leaving the rest of the rule; 0 for a rule with none."""
        return 0

    def unclued(self) -> Constraint:
        """The rule without its own clues (a cage without its total: its no-repeat rule alone); itself when it
        gives none."""
        return self

    @classmethod
    def word_says(cls, word: str) -> frozenset[str]:
        """What a line-form word of this kind says that another of its words may say again, for a kind whose words
        overlap (`x` says `d+` and `d-`): a line saying one twice is refused. Empty for a kind whose words do not."""
        return frozenset()

    def word(self, side: int) -> str:
        """Its word in the line form."""
        raise NotImplementedError

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """The line form's words of these constraints of the kind, in order: one each, unless a kind writes
        several in one word (Killer cages: a map of them)."""
        return [c.word(side) for c in constraints]

    def field_entry(self, side: int) -> Any:
        """Its entry in f-puzzles' field (`True` for a flag; a list entry for a rule of some cells)."""
        raise NotImplementedError

    def moved(self, move: Move) -> Constraint:
        """The same rule after a rotation or reflection of the grid (itself for a rule of the whole grid)."""
        raise NotImplementedError

    def name(self, index: int, side: int) -> str:
        """How messages, the trace and the page name it (`index`: its place among the puzzle's constraints)."""
        raise NotImplementedError

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        """Why values va at a and vb at b break it, in words."""
        raise NotImplementedError

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """What the page draws for it: `line` shapes (its cells in order along the line, the caption the kind's
        name), `bulb` (a disc on each of its cells), `note` (a rule the legend names, nothing on the cells),
        `outline` (a dashed outline along its cells' boundary, its label written in its first cell). A rule
        of the whole grid is a note, its name."""
        return (Shape("note", (), self.name(0, side)),) if self.GLOBAL else ()

    def problem(self, side: int) -> str | None:
        """Why it cannot stand on a grid of this side (a cell outside it, a line too long), None when it can."""
        return None

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Each pair of filled cells that breaks the rule, in words (each unordered pair once); `index` as `name`'s,
        for a kind whose messages name the constraint."""
        found, seen = [], set()
        for link in self.links(side):
            va, vb = values[link.a], values[link.b]
            if va and vb and link.forbids[va] >> (vb - 1) & 1 and (link.b, link.a) not in seen:
                seen.add((link.a, link.b))
                found.append(self.describe(link.a, link.b, va, vb, side))
        return found

    def narrows(self, side: int) -> bool:
        """Whether its filter (`narrow`) can remove a value that no placement removes: one that two values or more
        of a linked cell forbid. (A value that one value forbids goes only when the linked cell has that value
        alone: placed, its links remove it already.) A search may skip the filter of a constraint that does not."""
        return any(popcount(mask) > 1 for link in self.links(side) for mask in forbidding_values(link, side))

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """The filter on candidate masks (pure): each value of a cell that no candidate of a linked cell allows,
        with the values that cell lost as its reason. `masks[c]` is cell c's candidates, a filled cell's its value's
        bit. One pass over the links; the caller repeats to a fixpoint."""
        full = (1 << side) - 1
        found = []
        for link in self.links(side):
            support, forbidding = masks[link.a], forbidding_values(link, side)
            lost = 0
            rest = masks[link.b]
            while rest:
                bit = rest & -rest
                rest ^= bit
                if not support & ~forbidding[bit.bit_length() - 1]:  # every value a can take forbids w at b
                    lost |= bit
            if lost:
                found.append(Removal(link.b, lost, by, ((link.a, full & ~support),)))
        return found


class Scoped(Constraint):
    """A rule kept by its filter (`SCOPED`): no links; its filter (`narrow`, which the kind gives, with `scope`) is
    what keeps it, so every engine asks it."""

    LINKED = False
    SCOPED = True

    def links(self, side: int) -> tuple[Link, ...]:
        return ()

    def narrows(self, side: int) -> bool:
        return True


@dataclass(frozen=True)
class OneCell(Constraint):
    """A rule of one cell (`cell`), with nothing more to say of it (odd, even, minimum, maximum cells): one line-form
    word lists the kind's cells (`odd=R1C1,R2C5`), f-puzzles' entries are `{"cell": "R1C1"}`."""

    cell: int

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        return [cls(cell_of_name(name, side)) for name in value.split(",")]

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """One word for the kind's cells, in order."""
        return [cls.WORD + ",".join(cell_name(c.cell, side) for c in constraints if isinstance(c, cls))]

    def word(self, side: int) -> str:
        return self.WORD + cell_name(self.cell, side)

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of entries `{"cell": "R1C1"}` (colours aside)."""
        a_list(value, "entries")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            name = entry.get("cell") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                raise ValueError(f"entry {k} has no `cell` (a cell name like R1C1)")
            refuse_unread(entry, ("cell",), f"entry {k}")
            try:
                found.append(cls(cell_of_name(name, side)))
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None
        return found

    def field_entry(self, side: int) -> Any:
        return {"cell": cell_name(self.cell, side)}


class WholeGrid(Constraint):
    """A rule of the whole grid over pairs of cells a fixed step apart (a knight's move, a diagonal touch, an edge):
    each cell and each cell a step of `STEPS` away are linked, value v there forbidding `forbidden(v, side)`. Its
    word is its kind's name, its f-puzzles field a flag, its name `TITLE`; a rotation or reflection keeps it."""

    GLOBAL = True
    STEPS: ClassVar[tuple[tuple[int, int], ...]] = ()  # (row, column) offsets, both signs given
    TITLE: ClassVar[str] = ""  # how messages name it: `anti-knight`

    @classmethod
    def forbidden(cls, v: int, side: int) -> int:
        """The values a cell a step away may not hold when this one holds v."""
        raise NotImplementedError

    def links(self, side: int) -> tuple[Link, ...]:
        return _steps_apart(self, side)

    def word(self, side: int) -> str:
        return self.KIND

    def field_entry(self, side: int) -> Any:
        return True

    def moved(self, move: Move) -> Constraint:
        return self

    def name(self, index: int, side: int) -> str:
        return self.TITLE


@cache
def _steps_apart(rule: WholeGrid, side: int) -> tuple[Link, ...]:
    return pairs_apart(side, rule.STEPS, lambda v: rule.forbidden(v, side))


@cache
def forbidding_values(link: Link, side: int) -> tuple[int, ...]:
    """Per value w - 1 at `link.b`, the values at `link.a` that forbid w there (a mask)."""
    return tuple(sum(1 << (v - 1) for v in range(1, side + 1) if link.forbids[v] >> (w - 1) & 1)
                 for w in range(1, side + 1))



def bit(v: int, side: int) -> int:
    """Value v's bit, 0 outside 1..side."""
    return 1 << (v - 1) if 1 <= v <= side else 0


def span(low: int, high: int, side: int) -> int:
    """The mask of the values low..high within 1..side."""
    low, high = max(low, 1), min(high, side)
    return ((1 << high) - 1) ^ ((1 << (low - 1)) - 1) if low <= high else 0


def cells_problem(cells: Sequence[int], side: int) -> str | None:
    """Why a rule's cells cannot stand on a grid of this side: a cell twice, or outside it; None when they can."""
    if len(set(cells)) != len(cells):
        return "names a cell twice"
    if not all(0 <= c < side * side for c in cells):
        return f"names a cell outside the {side}x{side} grid"
    return None


def cell_name(cell: int, side: int) -> str:
    """A cell as f-puzzles names it, 1-based: `R1C2`."""
    return f"R{cell // side + 1}C{cell % side + 1}"


CELL = re.compile(r"R(?P<row>[0-9]{1,9})C(?P<column>[0-9]{1,9})", re.IGNORECASE | re.ASCII)  # never 5,000 digits


def cell_of_name(name: str, side: int) -> int:
    """The cell an `R3C4` name means; ValueError saying why when it means none of this grid's."""
    found = CELL.fullmatch(name.strip())
    if found is None:
        raise ValueError(f"{name.strip()[:40]!r} is not a cell name like R1C1")
    r, c = int(found["row"]), int(found["column"])
    if not (1 <= r <= side and 1 <= c <= side):
        raise ValueError(f"{name.strip()} is outside the {side}x{side} grid")
    return (r - 1) * side + c - 1


def entry_cells(entry: Any, side: int, what: str) -> list[int]:
    """The cells of an f-puzzles entry (`{"cells": ["R1C1", ...]}`) that `what` names (`cage 3`), checked to lie in
    the grid; Named saying why not."""
    named = entry.get("cells") if isinstance(entry, dict) else None
    if not isinstance(named, list) or not named:
        raise Named(f"{what} has no `cells` list")
    cells = []
    for name in named:
        found = CELL.fullmatch(name) if isinstance(name, str) else None
        if found is None:
            raise Named(f"{what}: {quoted(name)} is not a cell name like R1C1")
        r, c = int(found["row"]), int(found["column"])
        if not (1 <= r <= side and 1 <= c <= side):
            raise Named(f"{what}: {name} is outside the {side}x{side} grid")
        cells.append((r - 1) * side + c - 1)
    return cells


@cache
def adjacent(side: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's neighbours, sharing an edge with it."""
    def of(cell: int) -> tuple[int, ...]:
        r, c = divmod(cell, side)
        return tuple(rr * side + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                     if 0 <= rr < side and 0 <= cc < side)
    return tuple(of(cell) for cell in range(side * side))


def connected(cells: set[int], around: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the cells are one piece, neighbours by `around` (`adjacent`'s)."""
    left = set(cells)  # those not yet reached from the first
    todo = [left.pop()]
    while todo:
        for n in around[todo.pop()]:
            if n in left:
                left.remove(n)
                todo.append(n)
    return not left


def pairs_apart(side: int, steps: Iterable[tuple[int, int]], forbids: Callable[[int], int]) -> tuple[Link, ...]:
    """The links of a rule over the whole grid: every cell and each cell a step of `steps` away (row, column
    offsets, both signs given), with value v forbidding `forbids(v)`."""
    table = (0, *(forbids(v) for v in range(1, side + 1)))
    return tuple(Link(r * side + c, (r + dr) * side + c + dc, table)
                 for r in range(side) for c in range(side) for dr, dc in steps
                 if 0 <= r + dr < side and 0 <= c + dc < side)


DRAWING = ("baseC", "outlineC", "fontC")  # an f-puzzles entry's colours: the drawing's, no rule


def refuse_unread(entry: Mapping[str, Any], read: Iterable[str], what: str, drawing: Iterable[str] = DRAWING) -> None:
    """ValueError when an f-puzzles entry (`what` names it: `entry 3`) holds a field the kind does not read (`read`)
    and that does not only colour it (`drawing`): a field nothing reads may hold a rule, and is refused rather than
    dropped unsaid."""
    known = {*read, *drawing}
    unknown = [key for key, field in entry.items() if key not in known and field is not None and field != ""]
    if unknown:
        raise ValueError(f"{what}: field {quoted(unknown[0])} is not read by this project")


def a_list(value: Any, of: str = "") -> list[Any]:
    """An f-puzzles field's list (`of`: what it lists, as its message says), or ValueError: `0` or `false` is no list,
    and a reader that let it pass would drop the rule."""
    if not isinstance(value, list):
        raise ValueError(f"must be a list{' of ' + of if of else ''}, not {json_type(value)} {quoted(value)}")
    return value


def cell_map(value: str, side: int, word: str) -> list[int]:
    """A line-form word's map of the cells (`r=`, `e=`): each cell's symbol as an index 0..n-1, -1 for `.`; Named
    saying what is wrong, naming the word."""
    if len(value) != side * side:
        raise Named(f"`{word}` maps {side * side} cells of a {side}x{side} grid, not {len(value)}")
    out = []
    for i, ch in enumerate(value):
        k = SYMBOLS.find(ch.upper()) if ch.isascii() else -1  # a dotless i upper-cased is "I": a symbol is ASCII
        if ch != "." and not 0 <= k < side:
            raise Named(f"`{word}`: {ch!r} at {cell_name(i, side)} is not 1 to {SYMBOLS[side - 1]} or '.'")
        out.append(k if ch != "." else -1)
    return out


def house_problem(cells: Sequence[int], side: int) -> str | None:
    """Why cells cannot be a house of this grid (what `problem` says after the house's name), None when they can."""
    if len(cells) != side or len(set(cells)) != side:
        return f"has {len(set(cells))} distinct cells: a house has {side}"
    if not all(0 <= c < side * side for c in cells):
        return f"names a cell outside the {side}x{side} grid"
    return None
