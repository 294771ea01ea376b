"""The negative constraint (f-puzzles' `negative`, a list naming "difference", "ratio" and/or "xv"): every dot of
that kind is given, so two orthogonal neighbours without one are no such pair. A pair that carries a dot of the
kind's family (a white or a black dot for Kropki; an X or a V) is exempt; the others may not keep the rule of the
kind's own value (a white dot's 1, a black dot's 2, an X's 10 and a V's 5) nor of any value its dots give (a white
dot of 3 given: no undotted pair differs by 3 either).

Its meaning reads the puzzle's dots, so it is `settled` against them whenever a layout is made (`exempt` and
`values`, filled then): a dot added or dropped changes the pairs it ties."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..words import quoted
from .base import Constraint, Link, Move, Shape, a_list, adjacent, cell_name
from .dots import Dot
from .kropki import Difference, Ratio
from .xv import XV

RULES: dict[str, type[Dot]] = {kind.FIELD: kind for kind in (Difference, Ratio, XV)}  # as f-puzzles names them


@dataclass(frozen=True)
class Negative(Constraint):
    """`rule`: the kind whose every dot is given (`difference`, `ratio`, `xv`); `values`: the values it forbids
    beside an undotted pair; `exempt`: the pairs that carry a dot of its family (each in increasing order)."""

    rule: str
    values: tuple[int, ...] = ()
    exempt: frozenset[tuple[int, ...]] = frozenset()

    KIND = FIELD = "negative"
    WORD = "negative="
    RELABELS = False
    READS_DRAWN = True

    def settled(self, every: Sequence[Constraint]) -> Constraint:
        kind = RULES[self.rule]
        dots = [c for c in every if isinstance(c, Dot)]
        values = tuple(sorted({*kind.NEGATED, *(c.value for c in dots if isinstance(c, kind))}))
        return Negative(self.rule, values, frozenset(c.cells for c in dots if c.FAMILY == kind.FAMILY))

    @classmethod
    def held(cls, constraints: Sequence[Constraint]) -> list[Constraint]:
        """In RULES' order: the list names kinds, its order no rule."""
        return sorted(constraints, key=lambda c: list(RULES).index(c.rule) if isinstance(c, Negative) else 0)

    @classmethod
    def of_names(cls, names: Sequence[Any], what: str) -> list[Constraint]:
        found: list[Constraint] = []
        for name in names:
            if not isinstance(name, str) or name not in RULES:
                raise ValueError(f"{what} {quoted(name)}: not read by this project (it reads "
                                 f"{', '.join(RULES)})")
            found.append(cls(name))
        return found

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        return cls.of_names(value.split(","), "names")

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `negative`: a list of the kinds whose every dot is given."""
        a_list(value, "names")
        return cls.of_names(value, "holds")

    @classmethod
    def words(cls, constraints: Sequence[Constraint], side: int) -> list[str]:
        return [cls.WORD + ",".join(c.rule for c in constraints if isinstance(c, Negative))]

    @classmethod
    def fields(cls, constraints: Sequence[Constraint], side: int) -> dict[str, Any]:
        return {cls.FIELD: [c.field_entry(side) for c in constraints]} if constraints else {}

    def word(self, side: int) -> str:
        return self.WORD + self.rule

    def field_entry(self, side: int) -> Any:
        return self.rule

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """A negative rule of one family drawn at random (difference, ratio or XV), with every dot of it the full
        grid `values` keeps: `drawn_beside` with nothing beside it."""
        return cls.drawn_beside((), values, side, rng)

    @classmethod
    def drawn_beside(cls, drawn: Sequence[Constraint], values: Sequence[int], side: int,
                     rng: random.Random) -> list[Constraint]:
        """The negative rule of each kind of dot among `drawn` (none: of one kind drawn at random), and every dot of
        the kind the full grid `values` keeps that `drawn` lacks: each pair of neighbours whose values keep the rule
        of a value the negative rule forbids (the kind's own, a white dot's 1, and those its drawn dots give) carries
        a dot of the family, so that the grid keeps the negative rule too. The dots are rules, not clues: a maker
        cuts the givens, never them."""
        names = [name for name, kind in RULES.items() if any(isinstance(c, kind) for c in drawn)] \
            or [rng.choice(list(RULES))]
        dots = [c for c in drawn if isinstance(c, Dot)]
        found: list[Constraint] = []
        for name in names:
            kind = RULES[name]
            forbidden = sorted({*kind.NEGATED, *(c.value for c in dots if isinstance(c, kind))})
            dotted = {c.cells for c in dots if c.FAMILY == kind.FAMILY}
            for a in range(side * side):
                for b in adjacent(side)[a]:
                    value = next((v for v in forbidden if kind.related(values[a], values[b], v)), None)
                    if a < b and (a, b) not in dotted and value is not None:
                        dot = kind((a, b), value)
                        dots.append(dot)
                        dotted.add((a, b))
                        found.append(dot)
            found.append(cls(name))
        return found

    def links(self, side: int) -> tuple[Link, ...]:
        return _links(self, side)

    def moved(self, move: Move) -> Constraint:
        return Negative(self.rule, self.values, frozenset(tuple(sorted(move(c) for c in pair)) for pair in self.exempt))

    def name(self, index: int, side: int) -> str:
        return f"negative {RULES[self.rule].TITLE}"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        kind = RULES[self.rule]
        kept = next(value for value in self.values if kind.related(va, vb, value))
        return (f"{cell_name(a, side)} and {cell_name(b, side)} hold {va} and {vb}, neighbours without a "
                f"{kind.TITLE}, yet its rule of {kind.value_word(kept)} holds (negative: every {kind.TITLE} is given)")

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape("note", (), f"negative {RULES[self.rule].TITLE}: every one is given"),)


@cache
def _links(rule: Negative, side: int) -> tuple[Link, ...]:
    kind = RULES[rule.rule]
    table = (0, *(sum(1 << (w - 1) for w in range(1, side + 1)
                      if any(kind.related(v, w, value) for value in rule.values)) for v in range(1, side + 1)))
    return tuple(Link(a, b, table) for a in range(side * side) for b in adjacent(side)[a]
                 if (min(a, b), max(a, b)) not in rule.exempt)
