"""What the rules drawn between two orthogonal neighbours share (Kropki dots, kropki.py; XV, xv.py): a pair of
cells and a value, the pair's values related by the kind's rule (`related`), stated as links both ways (when one
cell holds v, the other may not hold a value unrelated to v).

Their line-form words list a kind's pairs in one word: `kw=R1C1-R1C2,R4C4-R5C4:3` (a pair's value after `:`, left
out where it is the kind's default); their f-puzzles entries are `{"cells": ["R1C1", "R1C2"], "value": ...}`. A
`negative` rule (negative.py) reads every dot of a family (`FAMILY`): the pairs without one are no such pair."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..words import quoted
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
class Dot(Constraint):
    """`cells`: two orthogonal neighbours (kept in increasing order: a dot has no direction); `value`: the kind's
    number (a difference, a ratio, a sum)."""

    cells: tuple[int, ...]
    value: int

    RELABELS = False
    DEFAULT: ClassVar[int] = 0  # the value when the entry gives none
    NEGATED: ClassVar[tuple[int, ...]] = ()  # what a negative rule of the kind forbids beside its dots' values
    FAMILY: ClassVar[str] = ""  # the dots a negative rule of this family exempts together (white and black)
    TITLE: ClassVar[str] = ""  # what messages call one: `white dot`
    SHAPE: ClassVar[str] = ""  # how the page draws it (Shape.kind): `ring`, `dot`, `letter`

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))

    @classmethod
    def related(cls, v: int, w: int, value: int) -> bool:
        """Whether values v and w in its two cells keep the rule of this value."""
        raise NotImplementedError

    @classmethod
    def value_word(cls, value: int) -> str:
        """Its value as the line form and f-puzzles write it: a number."""
        return str(value)

    @classmethod
    def value_of(cls, text: Any) -> int:
        """The value a word or an entry gives; ValueError saying why it is none."""
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        if isinstance(text, str) and text.strip().isascii() and text.strip().isdigit():
            return int(text.strip())
        raise ValueError(f"its value {quoted(text)} is not a whole number")

    def relation(self, side: int) -> tuple[int, ...]:
        """Per value v (index v, 0 unused), the values the other cell may not hold."""
        full = (1 << side) - 1
        return (0, *(full & ~sum(1 << (w - 1) for w in range(1, side + 1) if self.related(v, w, self.value))
                     for v in range(1, side + 1)))

    def links(self, side: int) -> tuple[Link, ...]:
        a, b = self.cells
        forbids = self.relation(side)  # every kind's rule is symmetric
        return Link(a, b, forbids), Link(b, a, forbids)

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        found: list[Constraint] = []
        for pair in value.split(","):
            names, colon, number = pair.partition(":")
            first, dash, second = names.partition("-")
            if not dash:
                raise ValueError(f"{pair.strip()[:40]!r} is not a pair of cells like R1C1-R1C2")
            if not colon and not cls.DEFAULT:
                raise ValueError(f"{pair.strip()[:40]!r} gives no value after `:`")
            dot = cls((cell_of_name(first, side), cell_of_name(second, side)),
                      cls.value_of(number) if colon else cls.DEFAULT)
            problem = dot.problem(side)
            if problem is not None:
                raise ValueError(f"{dot.name(0, side)} {problem}")
            found.append(dot)
        return found

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        """One word for the kind's dots, in order."""
        return [cls.WORD + ",".join(c.pair_word(side) for c in constraints if isinstance(c, Dot))]

    def pair_word(self, side: int) -> str:
        a, b = self.cells
        own = f":{self.value_word(self.value)}" if self.value != self.DEFAULT else ""
        return f"{cell_name(a, side)}-{cell_name(b, side)}{own}"

    def word(self, side: int) -> str:
        return self.WORD + self.pair_word(side)

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of entries `{"cells": [two cell names], "value": ...}` (no value: the default)."""
        a_list(value, "entries")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            try:
                cells = entry_cells(entry, side, f"entry {k}")
            except Named as exc:
                raise ValueError(str(exc)) from None
            refuse_unread(entry, ("cells", "value"), f"entry {k}")
            if len(cells) != 2:
                raise ValueError(f"entry {k} has {len(cells)} cells: a {cls.TITLE} is between two")
            given = entry.get("value")
            if (given is None or given == "") and not cls.DEFAULT:
                raise ValueError(f"entry {k} has no `value`")
            try:
                dot = cls(tuple(cells), cls.DEFAULT if given is None or given == "" else cls.value_of(given))
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None
            problem = dot.problem(side)
            if problem is not None:
                raise ValueError(f"entry {k}: {dot.name(0, side)} {problem}")
            found.append(dot)
        return found

    def field_entry(self, side: int) -> Any:
        entry: dict[str, Any] = {"cells": [cell_name(c, side) for c in self.cells]}
        if self.value != self.DEFAULT:
            entry["value"] = self.value_word(self.value)
        return entry

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random dots the full grid `values` keeps: of the pairs of neighbours whose values keep the rule of a
        value the kind negates (a white dot's 1, a black dot's 2, an X's 10 or a V's 5), a third to two thirds."""
        fitting = [cls((a, b), value) for a in range(side * side) for b in adjacent(side)[a] if a < b
                   for value in cls.NEGATED if cls.related(values[a], values[b], value)]
        if not fitting:
            return []
        chosen = rng.sample(fitting, rng.randint(max(1, len(fitting) // 3), max(1, 2 * len(fitting) // 3)))
        return sorted(chosen, key=lambda dot: dot.cells if isinstance(dot, Dot) else ())

    def moved(self, move: Move) -> Constraint:
        return type(self)(tuple(move(c) for c in self.cells), self.value)

    def name(self, index: int, side: int) -> str:
        a, b = self.cells
        own = f" ({self.value_word(self.value)})" if self.value != self.DEFAULT else ""
        return f"{self.TITLE} {cell_name(a, side)}-{cell_name(b, side)}{own}"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return f"{cell_name(a, side)} and {cell_name(b, side)} hold {va} and {vb}: {self.says()}"

    def says(self) -> str:
        """What the rule asks of its two values, in words."""
        raise NotImplementedError

    def problem(self, side: int) -> str | None:
        if not all(0 <= c < side * side for c in self.cells):
            return f"names a cell outside the {side}x{side} grid"
        a, b = self.cells
        if b not in adjacent(side)[a]:
            return "is not between two orthogonal neighbours"
        if not any(self.related(v, w, self.value) for v in range(1, side + 1) for w in range(1, side + 1) if v != w):
            return f"has no two different values 1 to {side} that keep it"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        own = self.value_word(self.value) if self.value != self.DEFAULT or self.SHAPE == "letter" else ""
        return (Shape(self.SHAPE, self.cells, self.TITLE, own),)
