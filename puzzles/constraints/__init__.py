"""The constraints a puzzle may hold beyond its houses: one module a kind (base.py says what each states),
registered here. Every layer reads a puzzle's constraints through this package and its kinds' methods; none names
a kind.

| kind | module | line form | f-puzzles |
| --- | --- | --- | --- |
| diagonal (a house) | diagonal.py | `x` (both), `d+`, `d-` | `"diagonal+": true`, `"diagonal-": true` |
| extra region (a house) | extra_region.py | `e=<n*n symbols>` | `"extraregion": [{"cells": [...]}]` |
| disjoint groups (houses) | disjoint.py | `dg` | `"disjointgroups": true` |
| Killer cage | killer.py | `k=<cage letters>:<totals>` | `"killercage": [{"cells": [...], "value": "17"}]` |
| anti-knight | antiknight.py | `antiknight` | `"antiknight": true` |
| anti-king | antiking.py | `antiking` | `"antiking": true` |
| non-consecutive | nonconsecutive.py | `nonconsecutive` | `"nonconsecutive": true` |
| thermometer | thermometer.py | `th=R1C1,R1C2,...` (bulb first) | `"thermometer": [{"lines": [["R1C1", ...]]}]` |
| white Kropki dot | kropki.py | `kw=R1C1-R1C2,R3C3-R3C4:2` (`:2`: not 1) | `"difference": [{"cells": [...]}]` |
| black Kropki dot | kropki.py | `kb=R1C1-R1C2,R3C3-R3C4:3` (`:3`: not 2) | `"ratio": [{"cells": [...], "value": "3"}]`|
| XV | xv.py | `xv=R1C1-R1C2:X,R3C3-R3C4:V` | `"xv": [{"cells": [...], "value": "X"}]` |
| negative (every dot given) | negative.py | `negative=difference,ratio,xv` | `"negative": ["difference", "xv"]` |
| odd cell | parity.py | `odd=R1C1,R2C5` | `"odd": [{"cell": "R1C1"}]` |
| even cell | parity.py | `even=R1C1,R2C5` | `"even": [{"cell": "R1C1"}]` |
| palindrome | palindrome.py | `pal=R1C1,R1C2,...` | `"palindrome": [{"lines": [["R1C1", ...]]}]` |
| slow thermometer | slow_thermometer.py | `sth=R1C1,R1C2,...` (bulb 1st) | `"slowthermometer": [{"lines": [[...]]}]` |
| clone | clone.py | `cl=R1C1,R1C2=R5C5,R5C6` | `"clone": [{"cells": [...], "cloneCells": [...]}]` |
| minimum, maximum cell | extremum.py | `min=R1C1,R2C5`, `max=...` | `"minimum": [{"cell": "R1C1"}]`, `"maximum"` |
| modular line | trios.py | `mod=R1C1,R1C2,...` | `"modularline": [{"lines": [[...]]}]` |
| entropic line | trios.py | `ent=R1C1,R1C2,...` | `"entropicline": [{"lines": [[...]]}]` |
| given pencil marks | pencil_marks.py | `pm=R1C1:159,R4C4:26` | a cell's `"givenPencilMarks": [1, 5, 9]` |
| German whispers | whispers.py | `gw=R1C1,R1C2:4` (`:4`: not half the side) | `"whispers": [{"lines": [...]}]` |
| renban | renban.py | `rb=R1C1,R1C2,...` | `"renban": [{"lines": [["R1C1", ...]]}]` |
| quadruple | quadruple.py | `qd=R3C3:1,1,5` (top left cell) | `"quadruple": [{"cells": [...], "values": [1, 1, 5]}]` |
| little killer | little_killer.py | `lk=R0C3:DL:11` | `"littlekillersum": [{"cell": "R0C3", "direction": "DL", ...}]` |
| arrow | arrow.py | `ar=R1C1:R1C2,R1C3` (circle, `:`, line) | `"arrow": [{"cells": [...], "lines": [[...]]}]` |
| nabner line | nabner.py | `nb=R1C1,R1C2,...` | `"nabner": [{"lines": [[...]]}]` |
| zipper line | zipper.py | `zip=R1C1,R1C2,...` | `"zipperline": [{"lines": [[...]]}]` |
| double arrow | double_arrow.py | `da=R1C1,R1C2,...` (an end first) | `"doublearrow": [{"lines": [[...]]}]` |
| between line | between.py | `btw=R1C1,R1C2,...` (an end first) | `"betweenline": [{"lines": [[...]]}]` |
| lockout line | lockout.py | `lo=R1C1,R1C2,...:3` (`:3`: not half the side) | `"lockout": [{"lines": [[...]]}]` |
| row indexer | indexers.py | `ri=R1C1,R1C2` | `"rowindexer": [{"cells": ["R1C1", ...]}]` |
| column indexer | indexers.py | `ci=R1C1,R2C1` | `"columnindexer": [{"cells": ["R1C1", ...]}]` |
| box indexer | indexers.py | `bi=R1C1,R2C2` | `"boxindexer": [{"cells": ["R1C1", ...]}]` |
| region-sum line | region_sum.py | `rsl=R1C1,R1C2,...` | `"regionsumline": [{"lines": [["R1C1", ...]]}]` |
| sandwich | sandwich.py | `sw=R0C3:12` (clue's cell, sum) | `"sandwichsum": [{"cell": "R0C3", "value": "12"}]` |
| X-sum | xsum.py | `xs=R0C3:15` (clue's cell, sum) | `"xsum": [{"cell": "R0C3", "value": "15"}]` |
| skyscraper | skyscraper.py | `sky=R0C3:3` (clue's cell, count) | `"skyscraper": [{"cell": "R0C3", "value": "3"}]` |
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .antiking import AntiKing
from .antiknight import AntiKnight
from .arrow import Arrow
from .base import Constraint, House, Link, Move, Named, Removal, Shape
from .between import BetweenLine
from .clone import Clone
from .diagonal import Diagonal
from .disjoint import Disjoint
from .double_arrow import DoubleArrow
from .extra_region import ExtraRegion
from .extremum import Maximum, Minimum
from .indexers import BoxIndexer, ColumnIndexer, RowIndexer
from .killer import Cage
from .kropki import Difference, Ratio
from .little_killer import LittleKiller
from .lockout import Lockout
from .nabner import Nabner
from .negative import Negative
from .nonconsecutive import NonConsecutive
from .palindrome import Palindrome
from .parity import Even, Odd
from .pencil_marks import PencilMarks
from .quadruple import Quadruple
from .region_sum import RegionSumLine
from .renban import Renban
from .sandwich import Sandwich
from .skyscraper import Skyscraper
from .slow_thermometer import SlowThermometer
from .thermometer import Thermometer
from .trios import EntropicLine, ModularLine
from .whispers import Whispers
from .xsum import XSum
from .xv import XV
from .zipper import ZipperLine

__all__ = [
    "CONSTRAINT_KINDS",
    "HOUSED",
    "HOUSE_FLAGS",
    "KILLER",
    "LINKED",
    "MAKING",
    "ROOMED",
    "SCOPED",
    "SEARCHED",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "BetweenLine",
    "BoxIndexer",
    "Cage",
    "Clone",
    "ColumnIndexer",
    "Constraint",
    "Diagonal",
    "Difference",
    "Disjoint",
    "DoubleArrow",
    "EntropicLine",
    "Even",
    "ExtraRegion",
    "House",
    "Link",
    "Links",
    "LittleKiller",
    "Lockout",
    "Maximum",
    "Minimum",
    "ModularLine",
    "Move",
    "Nabner",
    "Named",
    "Negative",
    "NonConsecutive",
    "Odd",
    "Palindrome",
    "PencilMarks",
    "Quadruple",
    "Ratio",
    "RegionSumLine",
    "Removal",
    "Renban",
    "RowIndexer",
    "Sandwich",
    "Shape",
    "Skyscraper",
    "SlowThermometer",
    "Thermometer",
    "Whispers",
    "XSum",
    "ZipperLine",
    "beyond",
    "by_kind",
    "canonical",
    "cell_fields_of",
    "fields_of",
    "houses",
    "houses_of",
    "kind_order",
    "links_by_cell",
    "made",
    "named",
    "names",
    "of_fields",
    "of_houses",
    "of_part",
    "of_word",
    "problems",
    "refusal",
    "repeatable",
    "unmade",
    "violations",
    "word_says",
    "words_of",
]

# the houses first: a layout holds its constraints in this order, and writes and names them in it (`x;e=...;dg;k=...`)
CONSTRAINT_KINDS: dict[str, type[Constraint]] = {
    kind.KIND: kind for kind in (Diagonal, ExtraRegion, Disjoint, Cage, AntiKnight, AntiKing, NonConsecutive,
                                 Thermometer, Difference, Ratio, XV, Negative, Odd, Even, Palindrome, Whispers,
                                 SlowThermometer, Clone, Minimum, Maximum, ModularLine, EntropicLine,
                                 PencilMarks, Renban, Arrow, Quadruple, LittleKiller,
                                 RowIndexer, ColumnIndexer, BoxIndexer, RegionSumLine,
                                 Nabner, ZipperLine, DoubleArrow, BetweenLine, Lockout, Sandwich, XSum, Skyscraper)}
# the kinds that add houses (`Constraint.houses`): known wherever houses are, by every method
HOUSED = frozenset(name for name, kind in CONSTRAINT_KINDS.items() if kind.houses is not Constraint.houses)
# the fields of those kinds that are flags, read as the grid's own rules before its cells (f-puzzles' `diagonal+`)
HOUSE_FLAGS = (*Diagonal.FIELDS, Disjoint.FIELD)
# the kinds the engines' links keep whole
LINKED = frozenset(name for name, kind in CONSTRAINT_KINDS.items() if kind.LINKED)
# the kinds kept by a room (`Constraint.ROOMS`: Killer cages, renban) and those kept by their filter (`SCOPED`)
ROOMED = frozenset(name for name, kind in CONSTRAINT_KINDS.items() if kind.ROOMS)
SCOPED = frozenset(name for name, kind in CONSTRAINT_KINDS.items() if kind.SCOPED)
# the kinds the hand-written searches and cdcl know: the linked ones, the houses, those with a room (each engine keeps
# a rule's room, puzzles/candidates.py's `Rooms`; the cage rungs run its filter) and those kept by their filter (the
# engines' `Scopes`; the rungs from `locked` up and cdcl run the filter)
SEARCHED = LINKED | HOUSED | ROOMED | SCOPED
# the kinds whose constraints make a variant's puzzles (`Constraint.MAKES`: Killer cages)
MAKING = tuple(name for name, kind in CONSTRAINT_KINDS.items() if kind.MAKES)
KILLER = Cage.KIND  # a Killer cage's kind, as a variant's name says it (`killer+jigsaw`)
# the f-puzzles fields the kinds read
FIELDS = tuple(field for kind in CONSTRAINT_KINDS.values() for field in kind.FIELDS or (kind.FIELD,))
WORDS = tuple(kind.WORD for kind in CONSTRAINT_KINDS.values())  # the line form's words, for a message's list
# the f-puzzles fields of a grid's cells that kinds read (`Constraint.CELL_FIELD`: given pencil marks)
CELL_FIELDS = tuple(kind.FIELD for kind in CONSTRAINT_KINDS.values() if kind.CELL_FIELD)


def kind_order(constraint: Constraint) -> int:
    """Its kind's place in CONSTRAINT_KINDS: a layout holds its constraints in this order (then as given)."""
    return list(CONSTRAINT_KINDS).index(constraint.KIND)


def canonical(constraints: Iterable[Constraint]) -> tuple[Constraint, ...]:
    """The constraints in the order a layout holds them: by kind (CONSTRAINT_KINDS' order), then as the kind holds
    them (`held`: as given, the diagonals `+` first); a rule of the whole grid, or the same rule of the same cells,
    once (unless its kind `REPEATS`: a cage twice is two; or it is a house: a house twice is `problems`' to refuse);
    each as the others make it (`settled`: a negative constraint exempts the pairs that carry a dot)."""
    every = list(constraints)
    seen: list[Constraint] = []
    for c in (rule.settled(every) for rule in every):
        if c.REPEATS or c.HOUSE or c not in seen:  # a rule twice is the rule once
            seen.append(c)
    return tuple(held for kind, group in sorted(by_kind(seen).items(), key=lambda item: list(CONSTRAINT_KINDS).index(
        item[0])) for held in CONSTRAINT_KINDS[kind].held(group))


def of_part(part: str, side: int) -> list[Constraint] | None:
    """The constraints a part of a variant's name states (`antiknight`, `x`, `windoku`), None for a part no kind
    states alone (a kind of some cells, `thermometer`, or no kind's); ValueError when a kind's, but not at this
    side."""
    for kind in CONSTRAINT_KINDS.values():
        found = kind.of_part(part, side)
        if found is not None:
            return found
    return None


def houses(constraints: Sequence[Constraint], side: int) -> tuple[House, ...]:
    """The houses the constraints add, in order: `Layout.extras`, the view the geometry makes units of."""
    return tuple(house for c, index in zip(constraints, _indices(constraints), strict=True)
                 for house in c.houses(index, side))


def of_houses(given: Sequence[House], side: int) -> list[Constraint]:
    """The constraints of houses a caller gives (`layout(..., extras)`), each by the kind its houses are of; a house
    of no kind's (`region 2`) an extra region under its own name."""
    found: list[Constraint] = []
    for kind in CONSTRAINT_KINDS.values():
        own = [house for house in given if kind.HOUSE and house.kind == kind.HOUSE]
        if own:
            found += kind.of_houses(own, side)
    others = [house for house in given if not any(house.kind == kind.HOUSE for kind in CONSTRAINT_KINDS.values())]
    return found + (ExtraRegion.of_houses(others, side) if others else [])


def houses_of(side: int, diagonals: str = "", regions: Sequence[Sequence[int]] = (),
              disjoint: bool = False) -> list[Constraint]:
    """The houses of the Sudoku family as constraints: the diagonals a string names (`+`, `-` or both), extra
    regions (cell lists) and, with `disjoint`, the disjoint groups (of the layout's boxes, once it has them)."""
    return [*(Diagonal(sign, side) for sign in "+-" if sign in diagonals),
            *(ExtraRegion(tuple(cells)) for cells in regions), *([Disjoint()] if disjoint else [])]


def beyond(constraints: Iterable[Constraint]) -> tuple[Constraint, ...]:
    """The constraints that add no houses: the rules beyond the houses (`Layout.constraints`)."""
    return tuple(c for c in constraints if c.KIND not in HOUSED)


def unmade(constraints: Iterable[Constraint]) -> tuple[Constraint, ...]:
    """The constraints no maker of their kind draws (every kind but those that `MAKES` a variant's puzzles, a
    Killer's cages): what a puzzle's solution is drawn under, and what the generator and the shrinker keep or drop
    as given, while the maker's own are drawn, split and stripped by it (killer_maker.py)."""
    return tuple(c for c in constraints if not c.MAKES)


def by_kind(constraints: Iterable[Constraint]) -> dict[str, list[Constraint]]:
    found: dict[str, list[Constraint]] = {}
    for c in constraints:
        found.setdefault(c.KIND, []).append(c)
    return found


def of_word(word: str, side: int) -> list[Constraint] | None:
    """The constraints a line-form word states, None when it is no kind's word; ValueError saying why when it is
    one's but wrong (Named when the message names the word itself)."""
    for kind in CONSTRAINT_KINDS.values():
        found = kind.of_word(word, side)
        if found is not None:
            return found
    return None


def of_fields(puzzle: Mapping[str, Any], side: int) -> list[Constraint]:
    """The constraints of an f-puzzles object's fields (null and absent fields hold none); ValueError naming the
    field and why."""
    return [c for kind in CONSTRAINT_KINDS.values() for c in kind.of_object(puzzle, side)]


def fields_of(constraints: Iterable[Constraint], side: int) -> dict[str, Any]:
    """The f-puzzles fields that state these constraints, kind by kind in the layout's order."""
    fields: dict[str, Any] = {}
    for kind, group in by_kind(constraints).items():
        fields |= CONSTRAINT_KINDS[kind].fields(group, side)
    return fields


def cell_fields_of(constraints: Iterable[Constraint], side: int) -> dict[int, dict[str, Any]]:
    """The fields the constraints add to f-puzzles' cells (`Constraint.cell_fields`), by cell."""
    found: dict[int, dict[str, Any]] = {}
    for kind, group in by_kind(constraints).items():
        for cell, fields in CONSTRAINT_KINDS[kind].cell_fields(group, side).items():
            found.setdefault(cell, {}).update(fields)
    return found


def word_says(word: str) -> tuple[frozenset[str], str]:
    """What a line-form word says that another word may say again (`Constraint.word_says`: `x` says `d+` and `d-`), and
    what the kind calls what it says (`diagonal`); empty for a word whose kind's words do not overlap."""
    for kind in CONSTRAINT_KINDS.values():
        said = kind.word_says(word)
        if said:
            return said, kind.HOUSE or kind.ONE
    return frozenset(), ""


def made(constraints: Iterable[Constraint]) -> tuple[Constraint, ...]:
    """The constraints a maker of their kind draws (`MAKES`: a Killer's cages), in order: `unmade`'s others."""
    return tuple(c for c in constraints if c.MAKES)


def repeatable(word: str) -> bool:
    """Whether a line-form word may come again: a word of a kind whose rule twice is two rules (a `k=` word adds
    its cages again, none dropped)."""
    return any(kind.REPEATS and kind.WORD.endswith("=") and word.startswith(kind.WORD)
               for kind in CONSTRAINT_KINDS.values())


def words_of(constraints: Sequence[Constraint], side: int) -> list[str]:
    """The line form's words of the constraints, kind by kind in the layout's order (each kind's `words`)."""
    return [word for kind, group in by_kind(constraints).items() for word in CONSTRAINT_KINDS[kind].words(group, side)]


def refusal(kinds: Collection[str]) -> str | None:
    """How a method's refusal names the first of these kinds (a kind that `LEADS` first, then by name): `Killer
    cages`, `thermometer constraints`; None when there is none."""
    if not kinds:
        return None
    first = min(kinds, key=lambda k: (not CONSTRAINT_KINDS[k].LEADS, k))
    return CONSTRAINT_KINDS[first].PLURAL or f"{first} constraints"


def _indices(constraints: Sequence[Constraint]) -> list[int]:
    """Each constraint's place among those of its kind."""
    counts: dict[str, int] = {}
    found = []
    for c in constraints:
        found.append(counts.get(c.KIND, 0))
        counts[c.KIND] = found[-1] + 1
    return found


def names(constraints: Sequence[Constraint], side: int) -> list[str]:
    """Each constraint's name, numbered within its kind (`thermometer 2 (R4C1)`)."""
    return [c.name(index, side) for c, index in zip(constraints, _indices(constraints), strict=True)]


def problems(constraints: Sequence[Constraint], side: int) -> list[str]:
    """Why some constraints cannot stand on this grid, each naming its constraint; and a house that is an earlier
    house of its kind again (the same cells), which the line form could not write (the same word twice)."""
    found = []
    seen: dict[tuple[str, tuple[int, ...]], str] = {}
    for c, index in zip(constraints, _indices(constraints), strict=True):
        problem = c.problem(side)
        if problem is not None:
            found.append(f"{c.name(index, side)} {problem}")
            continue
        for house in c.houses(index, side):
            twin = seen.setdefault((house.kind, tuple(sorted(house.cells))), house.name)
            if twin != house.name:
                found.append(f"{house.name} is {twin} again (the same cells)")
    return found


def violations(constraints: Sequence[Constraint], values: Sequence[int], side: int) -> list[str]:
    """Every way the filled cells break a constraint, in words (a kind's messages may name it, numbered within its
    kind)."""
    counts: dict[str, int] = {}
    found = []
    for c in constraints:
        index = counts.get(c.KIND, 0)
        counts[c.KIND] = index + 1
        found += c.violations(values, side, index)
    return found


Links = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]  # per cell: (a linked cell, masks by value), ...


def links_by_cell(constraints: Sequence[Constraint], side: int) -> tuple[Links, Links]:
    """Each cell's links as the engines read them, from it and to it: per cell, (the other cell, the masks a value
    forbids, indexed by the value). From cell a: when a holds v, the other cell may not hold `masks[v]`. To cell b:
    when the other cell holds v, b may not hold `masks[v]`. Several links between two cells are joined into one."""
    joined: dict[tuple[int, int], list[int]] = {}
    for c in constraints:
        for link in c.links(side):
            table = joined.setdefault((link.a, link.b), [0] * (side + 1))
            for v in range(1, side + 1):
                table[v] |= link.forbids[v]
    out: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(side * side)]
    into: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(side * side)]
    for (a, b), table in sorted(joined.items()):
        out[a].append((b, tuple(table)))
        into[b].append((a, tuple(table)))
    return tuple(map(tuple, out)), tuple(map(tuple, into))
