"""What the lines of the catalogue share (palindrome.py, whispers.py, slow_thermometer.py, ...): cells in order
along a line drawn through king-adjacent cells, a rule stated as links between some pairs of its cells.

Their line-form words are one line a word: `pal=R1C1,R1C2,R2C3` (a kind with a value adds it after `:`, left out
where it is the kind's default); their f-puzzles entries are `{"lines": [[cell names], ...], "value": ...}`, each
line of an entry one constraint here. A line is drawn on the page as a grey line through its cells' centres, named
by its kind, its place among the puzzle's lines of the kind and its first cell (`palindrome 2 (R4C1)`).

The kinds drawn as lines that are not pairs (renban.py, arrow.py) read f-puzzles' `lines` entries by
`line_entries` and draw a random line by `king_walk`. The lines whose rule is no set of pairs but that read and write
as the pairwise ones do (zipper.py, double_arrow.py, between.py, lockout.py) are `ScopedLine`s: kept by their filter
(`SCOPED`), each kind stating which values of its cells some filling keeps (`supports`) and what breaks it full
(`broken`)."""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from ..words import quoted
from .base import (
    Constraint,
    Link,
    Move,
    Removal,
    Scoped,
    Shape,
    a_list,
    cell_name,
    cell_of_name,
    cells_problem,
    refuse_unread,
)


def king_adjacent(a: int, b: int, side: int) -> bool:
    """Whether two different cells touch, by an edge or a corner (a line's step)."""
    return a != b and abs(a // side - b // side) <= 1 and abs(a % side - b % side) <= 1


@dataclass(frozen=True)
class Line(Constraint):
    """`cells`: the line's cells in order, two or more, none twice, each touching the next."""

    cells: tuple[int, ...]

    RELABELS = False
    TITLE: ClassVar[str] = ""  # how messages name one: `palindrome`
    VALUED: ClassVar[bool] = False  # whether its word and entry carry a value (`:3`, `"value": "3"`)

    def value_of_line(self) -> int:
        """Its value, for a kind that has one (VALUED); 0 else."""
        return 0

    @classmethod
    def default(cls, side: int) -> int:
        """The value a line of a VALUED kind has when its word or entry gives none."""
        return 0

    @classmethod
    def made(cls, cells: tuple[int, ...], value: int) -> Line:
        """A line of the kind over these cells, with this value (for a VALUED kind)."""
        return cls(cells)

    def with_cells(self, cells: tuple[int, ...]) -> Line:
        return self.made(cells, self.value_of_line())

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(a, b, forbids): when a holds v, b may not hold forbids[v]; each pair of cells once (links are made both
        ways from it: `forbids_back`)."""
        raise NotImplementedError

    def links(self, side: int) -> tuple[Link, ...]:
        found = []
        for a, b, forbids in self.pairs(side):
            back = (0, *(sum(1 << (v - 1) for v in range(1, side + 1) if forbids[v] >> (w - 1) & 1)
                         for w in range(1, side + 1)))
            found += [Link(a, b, forbids), Link(b, a, back)]
        return tuple(found)

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        names, colon, number = value.partition(":")
        if colon and not cls.VALUED:
            raise ValueError(f"a {cls.TITLE} has no value after `:`")
        line = cls.made(tuple(cell_of_name(name, side) for name in names.split(",")),
                        cls.number(number) if colon else cls.default(side))
        problem = line.problem(side)
        if problem is not None:
            raise ValueError(f"{line.name(0, side)} {problem}")
        return [line]

    @classmethod
    def number(cls, text: Any) -> int:
        """A value a word or an entry gives; ValueError saying why it is none."""
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        if isinstance(text, str) and text.strip().isascii() and text.strip().isdigit():
            return int(text.strip())
        raise ValueError(f"its value {quoted(text)} is not a whole number")

    def word(self, side: int) -> str:
        own = f":{self.value_of_line()}" if self.VALUED and self.value_of_line() != self.default(side) else ""
        return self.WORD + ",".join(cell_name(c, side) for c in self.cells) + own

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of entries, each `{"lines": [[cell names in order], ...]}` (and `value` for a
        kind that has one), each line a constraint."""
        a_list(value, "entries")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            lines = entry.get("lines") if isinstance(entry, dict) else None
            if not isinstance(lines, list) or not lines or not all(isinstance(line, list) and line for line in lines):
                raise ValueError(f"entry {k} has no `lines` (lists of cell names)")
            known = ("lines", "value") if cls.VALUED else ("lines",)
            refuse_unread(entry, known, f"entry {k}")
            given = entry.get("value")
            for line in lines:
                if not all(isinstance(name, str) for name in line):
                    raise ValueError(f"entry {k}: a line holds something other than cell names")
                try:
                    made = cls.made(tuple(cell_of_name(name, side) for name in line),
                                    cls.default(side) if given is None or given == "" else cls.number(given))
                except ValueError as exc:
                    raise ValueError(f"entry {k}: {exc}") from None
                problem = made.problem(side)
                if problem is not None:
                    raise ValueError(f"entry {k}: its line from {line[0].strip()} {problem}")
                found.append(made)
        return found

    def field_entry(self, side: int) -> Any:
        entry: dict[str, Any] = {"lines": [[cell_name(c, side) for c in self.cells]]}
        if self.VALUED and self.value_of_line() != self.default(side):
            entry["value"] = str(self.value_of_line())
        return entry

    def moved(self, move: Move) -> Constraint:
        return self.with_cells(tuple(move(c) for c in self.cells))

    def name(self, index: int, side: int) -> str:
        return f"{self.TITLE} {index + 1} ({cell_name(self.cells[0], side)})"

    def describe(self, a: int, b: int, va: int, vb: int, side: int) -> str:
        return (f"{cell_name(a, side)} and {cell_name(b, side)} hold {va} and {vb} on the {self.TITLE} from "
                f"{cell_name(self.cells[0], side)}: {self.says(a, b)}")

    def says(self, a: int, b: int) -> str:
        """What the rule asks of the two cells' values, in words."""
        raise NotImplementedError

    def problem(self, side: int) -> str | None:
        if len(self.cells) < 2:
            return "has one cell: a line has two or more"
        if (problem := cells_problem(self.cells, side)) is not None:
            return problem
        for a, b in pairwise(self.cells):
            if not king_adjacent(a, b, side):
                return f"steps from {cell_name(a, side)} to {cell_name(b, side)}, which do not touch"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape("line", self.cells, self.TITLE),)

    # drawing lines over a solution

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random lines of the kind the full grid `values` keeps, none sharing a cell, each a walk through
        king-adjacent cells (`grown`) 3 to 2n/3 cells long where the walk allows (2 at least); n/3 to n/2 + 1 of
        them, fewer where no start left gives a line."""
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        for start in rng.sample(range(side * side), side * side):
            if len(found) == wanted:
                break
            if start in taken:
                continue
            line = cls.grown(start, values, side, rng, taken, rng.randint(3, max(3, 2 * side // 3)))
            if line is not None and len(line.cells) >= 2:
                taken.update(line.cells)
                found.append(line)
        return found

    @classmethod
    def grown(cls, start: int, values: Sequence[int], side: int, rng: random.Random, taken: set[int],
              length: int) -> Line | None:
        """A line from `start` the grid keeps, avoiding `taken`, up to `length` cells: each step to a random
        untaken neighbour that keeps the rule with the cells so far; None where none does."""
        cells = [start]
        while len(cells) < length:
            last = cells[-1]
            steps = [c for c in around(last, side) if c not in taken and c not in cells
                     and not cls.made((*cells, c), cls.default(side)).violations(values, side)]
            if not steps:
                break
            cells.append(rng.choice(steps))
        return cls.made(tuple(cells), cls.default(side)) if len(cells) >= 2 else None


@dataclass(frozen=True)
class ScopedLine(Scoped, Line):
    """A line whose rule is no set of pairs (its cells' values tied together through its ends, its middle or a sum
    along it): kept by its filter (`SCOPED`), as an arrow is. A kind states `supports` (which values of each cell's
    candidates some filling of the whole line keeps: the filter, exact) and `broken` (why a full line breaks it)."""

    LEAST: ClassVar[int] = 3  # the fewest cells a line of the kind has

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def supports(self, domains: Sequence[int], side: int) -> list[int]:
        """Per cell of the line, in order, the values of its candidates (`domains`, masks) that some filling keeping
        the rule puts there, a value of each cell's candidates (repeats allowed: the houses keep theirs); all 0 when
        no filling keeps it."""
        raise NotImplementedError

    def broken(self, held: Sequence[int], side: int) -> str | None:
        """Why the line's values (`held`, every cell filled, in order) break the rule, in words; None when they
        keep it."""
        raise NotImplementedError

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value no filling of the line keeps, with the values the other cells lost as the reason."""
        full = (1 << side) - 1
        domains = [masks[c] for c in self.cells]
        kept = self.supports(domains, side)
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]
        return [Removal(cell, domain & ~keep, by, tuple(c for c in lost if c[0] != cell))
                for cell, domain, keep in zip(self.cells, domains, kept, strict=True) if domain & ~keep]

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Full, why its values break it; partly filled, values that leave its blank cells no filling."""
        held = [values[c] for c in self.cells]
        if all(held):
            why = self.broken(held, side)
            return [] if why is None else [f"{self.name(index, side)}: {why}"]
        return [f"{self.name(index, side)}: the values on it leave its blank cells no values to fill it with"] \
            if self.unfillable(values, side) else []

    def problem(self, side: int) -> str | None:
        if len(self.cells) < self.LEAST:
            return f"has {len(self.cells)} cells: a {self.TITLE} has {self.LEAST} or more"
        return super().problem(side)

    @classmethod
    def grown(cls, start: int, values: Sequence[int], side: int, rng: random.Random, taken: set[int],
              length: int) -> Line | None:
        """The longest line the grid keeps among the first cells of a few random walks from `start` (avoiding
        `taken`, up to `length` cells, `LEAST` at least); None where none does."""
        best: Line | None = None
        for _ in range(6):
            walk = king_walk(side, taken, rng, length, start)
            for k in range(len(walk), cls.LEAST - 1, -1):
                if best is not None and k <= len(best.cells):
                    break
                line = cls.made(tuple(walk[:k]), cls.default(side))
                if isinstance(line, ScopedLine) and line.broken([values[c] for c in line.cells], side) is None:
                    best = line
                    break
        return best


def around(cell: int, side: int) -> list[int]:
    """The cells touching `cell`, by an edge or a corner."""
    r, c = divmod(cell, side)
    return [nr * side + nc for nr in (r - 1, r, r + 1) for nc in (c - 1, c, c + 1)
            if 0 <= nr < side and 0 <= nc < side and (nr, nc) != (r, c)]


def line_entries(value: Sequence[Any], side: int, drawing: Sequence[str],
                 extra: Sequence[str] = ()) -> Iterator[tuple[int, list[int]]]:
    """Each line of f-puzzles' entries `{"lines": [[cell names], ...]}`, with its entry's number from 1, its cells
    inside the grid; ValueError naming the entry. `drawing`: the entry's fields that only colour it; `extra`: the
    fields the kind reads itself."""
    for k, entry in enumerate(value, 1):
        lines = entry.get("lines") if isinstance(entry, dict) else None
        if not isinstance(lines, list) or not lines or not all(isinstance(line, list) and line for line in lines):
            raise ValueError(f"entry {k} has no `lines` (lists of cell names)")
        refuse_unread(entry, ("lines", *extra), f"entry {k}", drawing)
        for line in lines:
            if not all(isinstance(name, str) for name in line):
                raise ValueError(f"entry {k}: a line holds something other than cell names")
            try:
                yield k, [cell_of_name(name, side) for name in line]
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None


def king_walk(side: int, taken: set[int], rng: random.Random, length: int, start: int) -> list[int]:
    """A random walk of up to `length` cells from `start`, each king-adjacent to the one before, none in `taken`
    or twice; empty when `start` is taken."""
    if start in taken:
        return []
    line = [start]
    while len(line) < length:
        r, c = divmod(line[-1], side)
        free = [nr * side + nc for nr in (r - 1, r, r + 1) for nc in (c - 1, c, c + 1)
                if 0 <= nr < side and 0 <= nc < side and nr * side + nc not in taken and nr * side + nc not in line]
        if not free:
            break
        line.append(rng.choice(free))
    return line
