"""Layouts: which cells form the houses of a grid, for classic Sudoku and the Sudoku family; their names, and
their words in the project's one-line form.

A variant is classic Sudoku's rows and columns with other regions or extra houses. Each kind of extra house is a
kind of constraint (puzzles/constraints/: diagonal.py, extra_region.py, disjoint.py) that reads and writes its own
words, f-puzzles fields and part of a variant's name; a layout holds them first among its constraints (`rules`), so
the extra houses always come in one order: `diagonal +`, `diagonal -`, the extra regions, the disjoint groups.
`family` builds the layout of any combination of houses given as arguments.

The line form (docs/reference/puzzle-files.md): a puzzle's n*n symbols, then, for a variant, `;` and its
houses as words joined by `;`:

    r=<n*n symbols>   the regions, each cell's region as a symbol (1..9, A..P); absent: the side's boxes
    x                 both diagonals; `d+` or `d-` one alone (f-puzzles' `diagonal+`: bottom left to top right)
    e=<n*n symbols>   extra regions: each cell's extra region as a symbol, `.` outside any (one word per set
                      of extra regions that do not overlap)
    dg                disjoint groups (the cells at the same place in each box)
    k=<n*n symbols>:<totals>
                      Killer cages: each cell's cage as a letter (a..z, A..Z), `.` outside any, then after `:`
                      each letter's total in the letters' order, `-` for a cage without one (one word per set
                      of cages that do not overlap, 52 at most)

A Killer cage is not a house: it holds each value at most once and its values sum to its total. A cage is a kind
of constraint (puzzles/constraints/killer.py), held with the others in `Layout.constraints`; every layer asks it
what it needs (its cells, its fillings, its clues) as it asks any constraint. A method that does not know cages
refuses the puzzle (the contract's `not run`, puzzles/options.py) rather than solve another.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from . import constraints as registry  # the kinds of constraint, by name
from .box_shapes import BOX_SHAPE as BOX_SHAPE
from .box_shapes import box_regions as box_regions
from .constraints import Constraint, Named
from .constraints import House as House
from .constraints.base import cell_map
from .constraints.killer import reachable as reachable
from .words import SYMBOLS as SYMBOLS
from .words import quoted

SIDE_OF_LENGTH = {n * n: n for n in BOX_SHAPE}
MIN_SIDE, MAX_SIDE = 4, 25


class PuzzleError(ValueError):
    """A text or matrix that is not a puzzle; the message says why."""


# the kinds of extra house (`House.kind`): their kinds' own names for them (puzzles/constraints/)
DIAGONAL, EXTRA_REGION, DISJOINT_GROUP = (kind.HOUSE for kind in registry.CONSTRAINT_KINDS.values() if kind.HOUSE)


@dataclass(frozen=True, eq=False)
class Layout:
    """Which cells form the houses of a grid of side n: its rows and columns, its n regions (each cell in one),
    and any extra houses (diagonals, extra regions, disjoint groups: kinds of constraint that add houses); and
    its rules beyond the houses. Classic Sudoku's regions are its square boxes and it has no extra houses.

    Made only by `layout()` (or `boxes`, `classic`, `family`), which keeps one object per distinct layout:
    equality is identity, so comparing and hashing grids costs nothing more than it did.
    """

    side: int
    regions: tuple[int, ...]  # each cell's region, 0..n-1, row-major
    box_height: int  # the regions are boxes this many rows tall and ...
    box_width: int  # ... this many columns wide; both 0 when they are not boxes (Jigsaw)
    rules: tuple[Constraint, ...]  # every constraint it holds (puzzles/constraints/), kinds in order, houses first
    constraints: tuple[Constraint, ...]  # a view: the rules beyond houses (those that add none), in order
    extras: tuple[House, ...]  # a view: the houses its rules add (diagonals, extra regions, disjoint groups)

    def __reduce__(self) -> tuple[Callable[..., Layout], tuple[int, tuple[int, ...], tuple[House, ...],
                                                               tuple[Constraint, ...]]]:
        # through layout(): one object each
        return layout, (self.side, self.regions, (), self.rules)

    @property
    def box(self) -> int:
        """The side of its square boxes; 0 when the regions are not square boxes."""
        return self.box_height if self.box_height == self.box_width else 0

    def extras_of(self, kind: str) -> tuple[House, ...]:
        """The extra houses of this kind (House.kind), in the layout's order."""
        return tuple(h for h in self.extras if h.kind == kind)

    @property
    def is_classic(self) -> bool:
        return self.box > 0 and not self.extras and not self.constraints

    @property
    def houses(self) -> Layout:
        """The same houses without the constraints beyond them (itself when it has none)."""
        if not self.constraints:
            return self
        return layout(self.side, self.regions, (), [c for c in self.rules if c.KIND in registry.HOUSED])

    @property
    def variant(self) -> str:
        """Its name in the Sudoku family, as the generator, the report and the docs call it: `classic`,
        `jigsaw`, `x`, `windoku`, `killer`, or several joined by `+` (`killer+jigsaw`): each kind's parts (a kind
        that leads first), `jigsaw` after those that lead."""
        kinds = [(registry.CONSTRAINT_KINDS[kind], held) for kind, held in registry.by_kind(self.rules).items()]
        names = [part for kind, held in kinds if kind.LEADS for part in kind.parts(held, self.side)]
        if not self.box_height:
            names.append("jigsaw")
        names += [part for kind, held in kinds if not kind.LEADS for part in kind.parts(held, self.side)]
        return "+".join(names) or "classic"


_LAYOUTS: dict[tuple[int, tuple[int, ...], tuple[Constraint, ...]], Layout] = {}


def layout(side: int, regions: Sequence[int], extras: Sequence[House] = (),
           constraints: Sequence[Constraint] = ()) -> Layout:
    """The layout with these regions (each cell's region, row-major), extra houses (each made a constraint of its
    kind) and constraints (Killer cages among them), checked: n regions of n cells (connected or not: the format
    allows a region in pieces, as f-puzzles' readers do; the generator's own are connected), constraints that can
    stand on the grid (extra houses of n distinct cells inside it, none twice; cages that some different values can
    fill).
    PuzzleError says what is wrong, naming the region, house, cage or constraint."""
    key = (side, tuple(regions), registry.canonical([*registry.of_houses(extras, side), *constraints]))
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    if not MIN_SIDE <= side <= MAX_SIDE:
        raise PuzzleError(f"side {side} is not supported ({MIN_SIDE} to {MAX_SIDE})")
    cells = side * side
    if len(key[1]) != cells:
        raise PuzzleError(f"a region map of a {side}x{side} grid has {cells} entries, not {len(key[1])}")
    members: list[list[int]] = [[] for _ in range(side)]
    for cell, region in enumerate(key[1]):
        if not 0 <= region < side:
            raise PuzzleError(f"R{cell // side + 1}C{cell % side + 1} is in region {region + 1}: "
                              f"a {side}x{side} grid has regions 1 to {side}")
        members[region].append(cell)
    for region, held in enumerate(members):
        if len(held) != side:
            raise PuzzleError(f"region {region + 1} has {len(held)} cells, not {side}")
    height, width = _box_shape(side, key[1])
    try:
        # disjoint groups: the boxes' own; a box indexer, a region-sum line: the regions'
        fitted = tuple(rule.fitted(height, width).in_regions(key[1]) for rule in key[2])
    except ValueError as exc:
        raise PuzzleError(str(exc)) from None
    if fitted != key[2]:
        made = layout(side, key[1], (), fitted)
    else:
        wrong = registry.problems(key[2], side)
        if wrong:
            raise PuzzleError(wrong[0])
        made = Layout(side, key[1], height, width, key[2], registry.beyond(key[2]), registry.houses(key[2], side))
    _LAYOUTS[key] = made
    return made


def cell_names(cells: Iterable[int], side: int) -> str:
    """Cells as f-puzzles names them, 1-based: `R1C1 R1C2`."""
    return " ".join(f"R{c // side + 1}C{c % side + 1}" for c in cells)


def _box_shape(side: int, regions: tuple[int, ...]) -> tuple[int, int]:
    """The boxes' height and width when these regions are boxes of some shape, else (0, 0)."""
    for height in range(1, side + 1):
        if side % height == 0 and regions == box_regions(side, height, side // height):
            return height, side // height
    return 0, 0


@cache
def boxes(side: int) -> Layout:
    """The layout of a side whose regions are its boxes, shaped as f-puzzles draws them (`BOX_SHAPE`)."""
    shape = BOX_SHAPE.get(side)
    if shape is None:
        raise PuzzleError(f"a {side}x{side} grid has no boxes: its regions must be given (sides with boxes: "
                          f"{', '.join(map(str, BOX_SHAPE))})")
    return layout(side, box_regions(side, *shape))


def classic(box: int) -> Layout:
    """Classic Sudoku's layout: square boxes of side `box` (2 to 5), no extra houses."""
    if box not in (2, 3, 4, 5):
        raise PuzzleError(f"box size {box} is not supported (2 to 5: 4x4 to 25x25)")
    return boxes(box * box)


VARIANTS = ("classic", "jigsaw", "x", "windoku", "jigsaw+x", "x+windoku", "disjoint")  # the generator's names


def family(side: int, regions: Sequence[int] | None = None, diagonals: str = "",
           extra_regions: Sequence[Sequence[int]] = (), disjoint: bool = False,
           constraints: Sequence[Constraint] = ()) -> Layout:
    """The layout of a puzzle of the Sudoku family: its regions (the side's boxes when None), the diagonals
    named in `diagonals` ('+', '-' or both), extra regions (cell lists), with `disjoint` disjoint groups, and
    constraints (puzzles/constraints/: Killer cages, thermometers, ...), each house made a constraint of its kind."""
    base = boxes(side) if regions is None else layout(side, regions)
    houses = registry.houses_of(side, diagonals, extra_regions, disjoint)
    return layout(side, base.regions, (), [*houses, *constraints]) if houses or constraints else base


def named(variant: str, side: int, regions: Sequence[int] | None = None,
          constraints: Sequence[Constraint] = ()) -> Layout:
    """The layout a variant's name means (`VARIANTS`, or parts joined by `+`, each a kind's: `x`, `windoku`,
    `antiknight`); a Jigsaw needs its regions, a variant with constraints of some cells (a Killer's cages,
    thermometers) those constraints."""
    parts = set(re.findall(r"diagonal[+-]|[^+]+", variant)) - {"classic"}  # "diagonal+" is one name
    stated: list[Constraint] = []  # what the parts state alone: houses, rules of the whole grid
    known = {"jigsaw"} | (set(registry.CONSTRAINT_KINDS) - registry.HOUSED)
    wrong: list[str] = []
    for part in sorted(parts):
        try:
            found = registry.of_part(part, side)
        except ValueError as exc:  # a kind's part, but not at this side (windoku off 9x9): said once it is known
            found, wrong = [], [*wrong, str(exc)]
        if found is not None:
            stated += found
            known.add(part)
    unknown = parts - known
    if unknown:
        listed = [name for name in registry.CONSTRAINT_KINDS if name not in registry.HOUSED]
        raise PuzzleError(f"unknown variant {sorted(unknown)[0]!r} (known: {', '.join(VARIANTS)}, "
                          f"{', '.join(listed)}, joined by +)")
    if ("jigsaw" in parts) != (regions is not None):
        raise PuzzleError("a jigsaw's regions are its own" if regions is None else f"{variant} has box regions")
    if wrong:
        raise PuzzleError(wrong[0])
    own = parts & set(registry.CONSTRAINT_KINDS) - {rule.KIND for rule in stated}  # kinds of some cells
    given = {c.KIND: c for c in constraints}
    missing, extra_kinds = sorted(own - set(given), key=_leading), sorted(set(given) - own, key=_leading)
    if missing:
        noun = registry.CONSTRAINT_KINDS[missing[0]].NOUN or "cells"
        raise PuzzleError(f"a {missing[0]}'s {noun} are its own")
    if extra_kinds:
        raise PuzzleError(f"{variant} has no {given[extra_kinds[0]].NOUN or extra_kinds[0]}")
    base = boxes(side) if regions is None else layout(side, regions)
    return layout(side, base.regions, (), [*stated, *constraints]) if stated or constraints else base


def _leading(kind: str) -> tuple[bool, str]:
    """A kind's place in a message that names one of several: a kind that leads a variant's name first."""
    return not registry.CONSTRAINT_KINDS[kind].LEADS, kind


def words_of_layout(lay: Layout) -> str:
    """A variant's houses, cages and other constraints as the line form's words (empty for the boxes of its side):
    its regions (`r=`), then each kind's words in the layout's order."""
    n = lay.side
    own = n not in BOX_SHAPE or lay.regions != boxes(n).regions  # rectangles on a side without boxes are its own
    words = ["r=" + "".join(SYMBOLS[r] for r in lay.regions)] if own else []
    return ";".join(words + registry.words_of(lay.rules, n))


def layout_of_words(text: str, length: int) -> Layout:
    """The layout a line's words describe, for a puzzle of `length` symbols; PuzzleError naming the word."""
    side = round(length ** 0.5)
    if side * side != length:
        raise PuzzleError(f"{length} symbols is not a square grid")
    if not MIN_SIDE <= side <= MAX_SIDE:
        raise PuzzleError(f"{length} symbols: a {side}x{side} grid; the project reads sides {MIN_SIDE} to {MAX_SIDE}")
    regions: list[int] | None = None
    constraints: list[Constraint] = []
    said: set[str] = set()
    for word in (w.strip() for w in text.split(";")):
        key, eq, value = word.partition("=")
        _refuse_repeated(word, said)
        if key == "r" and eq:
            regions = _map(value, side, "r=")
            if -1 in regions:
                raise PuzzleError("`r=` gives every cell a region: no `.`")
        elif word:
            constraints += _constraints_of_word(word, side)
    if regions is None and side not in BOX_SHAPE:
        raise PuzzleError(f"a {side}x{side} grid has no boxes: give its regions (`r=`)")
    return family(side, regions, constraints=constraints)


def _constraints_of_word(word: str, side: int) -> list[Constraint]:
    """The constraints a word states (puzzles/constraints/); PuzzleError when it states none, or wrongly."""
    try:
        found = registry.of_word(word, side)
    except Named as exc:  # its message names the word (`k=` maps ...)
        raise PuzzleError(str(exc)) from None
    except ValueError as exc:
        raise PuzzleError(f"{quoted(word)}: {exc}") from None
    if found is None:
        raise PuzzleError(f"unknown word {quoted(word)} after the puzzle (known: r=, {', '.join(registry.WORDS)})")
    return found


def _refuse_repeated(word: str, said: set[str]) -> None:
    """PuzzleError if a line's word says again what an earlier one said: the same word twice, a second `r=`
    (the last would silently win), or what a kind's words overlap in said twice (`Constraint.word_says`: a diagonal
    named twice, `x` naming both). `said` holds what was said.

    A `k=` word may come again: it adds its cages again, none dropped, as the line form writes a layout that holds
    a cage twice (an overlapping cage may be another's twin; the 45 rule leaves such cages out)."""
    if not word or registry.repeatable(word):
        return
    says, noun = (frozenset({"r="}), "") if word.startswith("r=") else registry.word_says(word)
    if "r=" in says & said:
        raise PuzzleError("a second `r=` after the puzzle: each word is given once")
    if f"word {word}" in said:
        raise PuzzleError(f"the word {quoted(word)} again after the puzzle: each word is given once")
    if says & said:
        raise PuzzleError(f"`{word}` names a {noun} an earlier word named: each word is given once")
    said |= says | {f"word {word}"}


def _map(value: str, side: int, word: str) -> list[int]:
    """A cell map's symbols as indices (-1 for '.')."""
    try:
        return cell_map(value, side, word)
    except Named as exc:
        raise PuzzleError(str(exc)) from None
