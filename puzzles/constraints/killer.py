"""A Killer cage: cells whose values differ and, when it has a total, sum to it (f-puzzles' `killercage`; a cage
without a total only forbids repeats). Cells need not touch, and cages may overlap; a cage is not a house (it need
not hold every value). docs/concepts/killer.md says how each method reads cages.

Its all-different part is a set of pairs (two cells of a cage never share a value), its sum is not: the kind is not
LINKED, and its one filter (`narrow`) keeps what some filling of the whole cage allows, generalised arc consistency
of the sum and all-different together. A cage's *combinations* are the sets of values it may hold: k different
values 1..n summing to its total (17 in two cells of a 9x9: {8, 9} alone).

The line form writes cages by the map: `k=<n*n symbols>:<totals>`, each cell's cage as a letter (a..z, A..Z), `.`
outside any, then each letter's total in the letters' order, `-` for a cage without one; one word per run of cages
that do not overlap, 52 at most (`words`), so that reading the words back gives the cages in the same order. A cage
twice is two cages (`REPEATS`): the line form writes it twice.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from ..bits import popcount, supports
from ..words import SYMBOLS, quoted
from .base import Constraint, Link, Move, Named, Removal, Shape, a_list, cell_name, entry_cells

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a cage's letter in a `k=` word
DRAWING = ("outlineC", "fontC")  # an f-puzzles entry's colours: the drawing's, no rule
MAX_SIDE = 25  # the largest grid a cage stands on (puzzles.layouts.MAX_SIDE)
TOTAL_DIGITS = 6  # a written total longer than this (leading zeros aside) is larger than any cage's


@dataclass(frozen=True)
class Cage(Constraint):
    """`cells` (kept in reading order: the first is where its total is drawn) and `total` (None: no sum)."""

    cells: tuple[int, ...]
    total: int | None = None

    KIND = "killer"
    FIELD = "killercage"
    WORD = "k="
    RELABELS = False  # relabelling the values changes the sums
    LINKED = False  # its sum is no set of pairs (the engines keep a cage by its room, puzzles/candidates.py)
    ROOMS = True
    REPEATS = True
    LEADS = True
    NOUN = "cages"
    PLURAL = "Killer cages"
    ONE = "cage"
    FIXES_VALUES = "a Killer's sums"
    MAKES = True
    CLUE = "total"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))

    # -- reading and writing ---------------------------------------------------------------------------------

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """The cages of a `k=` word, in their letters' order; Named saying what is wrong."""
        key, eq, value = word.partition("=")
        if key != "k" or not eq:
            return None
        cell_map, colon, totals_text = value.partition(":")
        if not colon:
            raise Named("`k=` gives each cell's cage, then `:` and the cages' totals")
        if len(cell_map) != side * side:
            raise Named(f"`k=` maps {side * side} cells of a {side}x{side} grid, not {len(cell_map)}")
        cells: dict[int, list[int]] = {}
        for i, ch in enumerate(cell_map):
            if ch == ".":
                continue
            k = LETTERS.find(ch)
            if k < 0:
                raise Named(f"`k=`: {ch!r} at {cell_name(i, side)} is not a cage's letter (a..z, A..Z) or '.'")
            cells.setdefault(k, []).append(i)
        totals = totals_text.split(",") if totals_text else []
        if sorted(cells) != list(range(len(totals))):
            raise Named(f"`k=` gives {len(totals)} totals for cages lettered "
                        f"{''.join(LETTERS[k] for k in sorted(cells)) or 'none'}: one a letter, from a, in order")
        cages: list[Constraint] = []
        for k, text in enumerate(totals):
            problem = None if text.strip() == "-" else total_problem(text)
            if problem is not None and problem.endswith("not a whole number"):
                raise Named(f"`k=`: cage {LETTERS[k]}'s total {problem} or '-'")
            if problem is not None:
                raise Named(f"`k=`: cage {LETTERS[k]}'s total {problem}")
            cages.append(cls(tuple(cells[k]), None if text.strip() == "-" else int(text)))
        return cages

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """Cages as `k=` words: in the puzzle's order, each word taking the next cages that overlap none it holds
        (52 at most)."""
        words, todo = [], [c for c in constraints if isinstance(c, Cage)]
        while todo:
            taken: list[Cage] = []
            held: set[int] = set()
            for cage in todo:
                if len(taken) == len(LETTERS) or held & set(cage.cells):
                    break
                taken.append(cage)
                held |= set(cage.cells)
            cell_map = ["."] * (side * side)
            for letter, cage in zip(LETTERS, taken, strict=False):
                for c in cage.cells:
                    cell_map[c] = letter
            totals = ",".join("-" if cage.total is None else str(cage.total) for cage in taken)
            words.append(f"k={''.join(cell_map)}:{totals}")
            todo = todo[len(taken):]
        return words

    def word(self, side: int) -> str:
        return self.words([self], side)[0]

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `killercage`: a list of `{"cells": [...], "value": "17"}`, the total a whole number as a
        string or a number (absent or empty for a cage without one); Named naming the cage."""
        a_list(value)
        return [cls.of_entry(entry, side, index) for index, entry in enumerate(value)]

    @classmethod
    def of_entry(cls, entry: Any, side: int, index: int) -> Cage:
        """One `killercage` entry as a cage (`index`: its place in the list, from 0). The layout checks that
        values can fill it."""
        cells = entry_cells(entry, side, f"cage {index + 1}")
        unknown = [k for k in entry if k not in ("cells", "value", *DRAWING)
                   and not (entry[k] is None or (isinstance(entry[k], (str, list)) and not entry[k]))]
        if unknown:
            raise Named(f"cage {index + 1}: field {quoted(unknown[0])} is not read by this project")
        total = entry.get("value")
        if total is None or total == "":
            return cls(tuple(cells))
        if isinstance(total, int) and not isinstance(total, bool):
            text = str(total) if 0 <= total < 10 ** 9 else "-" if total < 0 else "1" * 10  # never 5,000 digits
        else:
            text = total if isinstance(total, str) else ""
        problem = total_problem(text)
        if problem is not None and problem.endswith("not a whole number"):
            raise Named(f"cage {index + 1}: its total {quoted(total)} is not a whole number")
        if problem is not None:
            raise Named(f"cage {index + 1}: its total {problem}")
        return cls(tuple(cells), int(text))

    def field_entry(self, side: int) -> Any:
        return {"cells": [cell_name(c, side) for c in self.cells]} | \
            ({} if self.total is None else {"value": str(self.total)})

    # -- the rule ------------------------------------------------------------------------------------------------

    def links(self, side: int) -> tuple[Link, ...]:
        """None: the engines keep a cage whole by its room (puzzles/candidates.py's `Rooms`: the values that can
        still fill it, which leaves out the values placed in it), and its filter is `narrow`."""
        return ()

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def room(self, used: int, side: int) -> int:
        """The union of the sets of different values, none in `used`, one for each empty cell, that bring the cage
        to its total (every value not in `used`, for a cage without a total)."""
        if self.total is None:
            return ((1 << side) - 1) & ~used
        rest, bits, room = self.total, used, 0
        while bits:
            bit = bits & -bits
            bits ^= bit
            rest -= bit.bit_length()
        for combination in combinations_of(side, len(self.cells) - popcount(used), rest):
            if not combination & used:
                room |= combination
        return room

    def fillings(self, side: int) -> tuple[int, ...] | None:
        """Its combinations; None without a total (any different values)."""
        return None if self.total is None else self.combinations(side)

    def clues(self) -> int:
        return 0 if self.total is None else 1

    def unclued(self) -> Constraint:
        return Cage(self.cells)

    def name(self, index: int, side: int) -> str:
        """`cage 7 (17)`, numbered from 1 in the puzzle's order; `cage 7` when it has no total."""
        return f"cage {index + 1}" if self.total is None else f"cage {index + 1} ({self.total})"

    def problem(self, side: int) -> str | None:
        """Unless different values 1..side can fill it: cells inside the grid, none twice, no more than the side,
        a total that as many different values can reach (the caller puts the cage's name first)."""
        count = len(self.cells)
        if not count:
            return "has no cells"
        if not all(0 <= c < side * side for c in self.cells):
            return f"names a cell outside the {side}x{side} grid"
        if len(set(self.cells)) != count:
            twice = next(c for c in self.cells if self.cells.count(c) > 1)
            return f"names {cell_name(twice, side)} twice"
        if count > side:
            return f"has {count} cells: its values differ, so it holds at most {side}"
        low, high = reachable(side, count)
        if self.total is not None and not low <= self.total <= high:
            return (f"({' '.join(cell_name(c, side) for c in self.cells)}): no {count} different values 1 to "
                    f"{side} sum to {self.total} (they sum to {low} to {high})")
        return None

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """A value twice in it; full, a sum that is not its total; its values leaving its blanks no different
        values to reach the total with (the least or greatest that the values not yet in it give)."""
        name = self.name(index, side)
        held = [values[c] for c in self.cells if values[c]]
        twice = sorted({v for v in held if held.count(v) > 1})
        blanks = len(self.cells) - len(held)
        free = [v for v in range(1, side + 1) if v not in held]
        if twice:
            return [f"two {SYMBOLS[twice[0] - 1]}s in {name}"]
        if self.total is None:
            return []
        if not blanks and sum(held) != self.total:
            return [f"{name} sums to {sum(held)}"]
        if blanks and not sum(held) + sum(free[:blanks]) <= self.total <= sum(held) + sum(free[-blanks:]):
            cells = "blank cell" if blanks == 1 else f"{blanks} blank cells"
            return [f"{name}: {'+'.join(map(str, held))} leaves its {cells} no different values to reach "
                    f"{self.total} with"]
        return []

    def combinations(self, side: int) -> tuple[int, ...]:
        """The value sets it may hold, as masks (bit v-1 = value v), ascending."""
        return combinations_of(side, len(self.cells), self.total)

    def values(self, side: int) -> int:
        """The mask of the values some combination holds: any other value never enters its cells."""
        union = 0
        for mask in self.combinations(side):
            union |= mask
        return union

    def narrows(self, side: int) -> bool:
        return True

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell that no filling of the cage gives it (different values, one from each cell's
        candidates, summing to its total), with the values its other cells lost as the reason. With no filling
        at all, every cell loses every value. `masks` as `Constraint.narrow` reads them (a filled cell: its
        value's bit)."""
        full = (1 << side) - 1
        domains = [masks[c] for c in self.cells]
        kept = supports(domains, None if self.total is None else self.combinations(side))
        found = []
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]  # what each cell lost
        for cell, domain, keep in zip(self.cells, domains, kept, strict=True):
            if domain & ~keep:
                found.append(Removal(cell, domain & ~keep, by, tuple(c for c in lost if c[0] != cell)))
        return found

    # -- the grid's symmetries, the page --------------------------------------------------------------------

    def moved(self, move: Move) -> Constraint:
        return Cage(tuple(move(c) for c in self.cells), self.total)

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Its outline along its cells' boundary, its total (if any) written in its first cell."""
        return (Shape("outline", self.cells, "cage", "" if self.total is None else str(self.total)),)


def cages_in(constraints: Iterable[Constraint]) -> tuple[Cage, ...]:
    """The cages among these constraints, in their order."""
    return tuple(c for c in constraints if isinstance(c, Cage))


@cache
def combinations_of(side: int, count: int, total: int | None) -> tuple[int, ...]:
    """The sets of `count` different values 1..side that sum to `total` (any sum when None), as masks (bit v-1 =
    value v), ascending. Up to TABLED_SIDE, read from the side's table of every value set (`value_sets`); past it,
    found by a walk that tries only values that can still make the total."""
    if total is None:
        return tuple(sorted(sum(1 << (v - 1) for v in chosen) for chosen in combinations(range(1, side + 1), count)))
    if side <= TABLED_SIDE:
        return value_sets(side).get((count, total), ())
    found: list[int] = []

    def extend(mask: int, least: int, left: int, rest: int) -> None:
        """Every way to add `left` values from `least` up to `mask` summing to `rest`: each value v tried only while
        the left smallest from v fit in the rest, and only if v with the left - 1 largest reaches it (a 16x16 cage of
        8 cells has 12,870 value sets and a few hundred with its total)."""
        if left == 0:
            if rest == 0:
                found.append(mask)
            return
        for v in range(least, side + 1):
            if left * v + left * (left - 1) // 2 > rest:
                break  # v and the values just above it already exceed the rest, and larger v more so
            if v + (left - 1) * side - (left - 1) * (left - 2) // 2 >= rest:
                extend(mask | 1 << (v - 1), v + 1, left - 1, rest - v)

    extend(0, 1, count, total)
    return tuple(sorted(found))


# Up to this side the value sets are tabled at once (2 ** 16 sets: some 10 ms, where finding each count and total in
# turn took 20 times as long in all, and a 16x16 Killer's model asks for dozens of them: docs/results/killer.md)
TABLED_SIDE = 16


@cache
def value_sets(side: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every set of different values 1..side, as masks ascending, by its count and its total: the sets of 1..v-1
    each with v added, for v from 1 up."""
    sets: dict[tuple[int, int], list[int]] = {(0, 0): [0]}
    for v in range(1, side + 1):
        bit = 1 << (v - 1)
        grown = [((count + 1, total + v), [mask | bit for mask in masks]) for (count, total), masks in sets.items()]
        for key, masks in grown:
            sets.setdefault(key, []).extend(masks)
    return {key: tuple(sorted(masks)) for key, masks in sets.items()}


def reachable(side: int, count: int) -> tuple[int, int]:
    """The least and greatest sums of `count` different values 1..side."""
    return count * (count + 1) // 2, count * (2 * side - count + 1) // 2


def total_problem(text: str) -> str | None:
    """Why a cage's total as a reader finds it written is not one (None when it is): ASCII digits only, since
    `str.isdigit` also takes `²` and other digits int() refuses, and not so long that int() refuses it (4,300
    digits) or a message would quote it whole. The caller names the cage; `int(text)` then reads it."""
    found = text.strip()
    if not (found.isascii() and found.isdigit()):
        return f"{quoted(text)} is not a whole number"
    if len(found.lstrip("0")) > TOTAL_DIGITS:
        return (f"of {len(found):,} digits is larger than any cage's (a cage of a {MAX_SIDE}x{MAX_SIDE} grid sums "
                f"to at most {reachable(MAX_SIDE, MAX_SIDE)[1]})")
    return None
