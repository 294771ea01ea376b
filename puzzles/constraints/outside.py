"""What the clues outside the grid share: the clue's cell (f-puzzles names it as a cell one row or column past the
grid's edge: `R0C3` above column 3, `R7C2` below column 2 of a 6x6, `R4C0` left of row 4, `R4C7` right of it), the
cells it looks along from there, and its drawing (its clue written outside the grid at its clue's cell). A little
killer looks along a diagonal; a sandwich, an X-sum and a skyscraper along a row or a column.

A clue along a row or a column (`Sighted`) is a rule of the sequence of values it sees, first cell first, which a
small automaton reads (a kind gives its `start`, `step` and `final`): a sandwich's, whether it is between the 1 and
the n and what it has summed since; an X-sum's, how many cells and how much of the sum are left; a skyscraper's, the
tallest seen so far and how many were seen. The one automaton serves every layer: the filter (`narrow`: a value stays
where some run of the automaton over the cells' candidates takes it and ends accepted, which is arc consistency on
the sequence), the check, and the formulations (CP-SAT's AddAutomaton, the layered states as clauses for SAT and as a
flow for the MIP, formulations/constraints/). Values may repeat along the sequence as far as the automaton goes (the
houses forbid what repeats they forbid), so the filter is the rule's alone.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..kept import kept_drawn
from ..words import json_type, quoted
from .base import CELL, Constraint, Move, Removal, Scoped, Shape, a_list, refuse_unread
from .killer import total_problem

State = tuple[Any, ...]  # a state of a kind's automaton, as the kind says it: `("in", 9, 12)`


def outside_cell(clue: str, side: int) -> tuple[int, int]:
    """The row and column (0-based, -1 or `side` on the edge's far side) of a clue's cell just outside the grid;
    ValueError saying why `clue` names none."""
    found = CELL.fullmatch(clue.strip())
    if found is None:
        raise ValueError(f"{quoted(clue)} is not a cell name like R0C3")
    r, c = int(found["row"]) - 1, int(found["column"]) - 1
    if (0 <= r < side and 0 <= c < side) or not (-1 <= r <= side and -1 <= c <= side):
        raise ValueError(f"its clue {clue.strip()} is not just outside the {side}x{side} grid")
    return r, c


def clue_drawing(cells: tuple[int, ...], caption: str, clue: object, at: tuple[int, int]) -> Shape:
    """A clue outside the grid: its number written at its clue's place `at` (row and column, one of them -1 or the
    side), beside the cells it looks along (whose tooltips name it)."""
    return Shape("outside", cells, caption, str(clue), at)


@dataclass(frozen=True)
class Automaton:
    """A kind's automaton over the values 1..n (its states numbered from 0, the start): `delta[s][v - 1]` the state
    after reading v in state s, -1 when v is no way on; `final`, the states that accept."""

    delta: tuple[tuple[int, ...], ...]
    final: frozenset[int]

    def layers(self, masks: Sequence[int]) -> list[frozenset[int]]:
        """Per position 0..len(masks), the states some run over those candidates (masks[i]: position i's) reaches
        there and from which some run reaches a final state at the end."""
        forward: list[set[int]] = [{0}]
        for mask in masks:
            forward.append({t for s in forward[-1] for v, t in enumerate(self.delta[s]) if t >= 0 and mask >> v & 1})
        alive = [frozenset(forward[-1] & self.final)]
        for i in range(len(masks) - 1, -1, -1):
            mask, after = masks[i], alive[0]
            alive.insert(0, frozenset(s for s in forward[i] if any(
                t in after and mask >> v & 1 for v, t in enumerate(self.delta[s]))))
        return alive

    def supports(self, masks: Sequence[int]) -> list[int]:
        """Per position, the values some accepted run over the candidates reads there (all 0 when none is)."""
        alive = self.layers(masks)
        return [sum(1 << v for v in range(len(self.delta[0])) if mask >> v & 1 and any(
            self.delta[s][v] in alive[i + 1] for s in alive[i])) for i, mask in enumerate(masks)]

    def unrolled(self, length: int) -> list[list[tuple[int, int, int]]]:
        """Per position 0..length-1, the steps (state, value, state after) of some accepted run of that length over
        any values: the automaton unrolled into layers, as a formulation states it (empty lists when none is)."""
        full = (1 << len(self.delta[0])) - 1
        alive = self.layers([full] * length)
        return [[(s, v + 1, t) for s in sorted(alive[i]) for v, t in enumerate(self.delta[s]) if t in alive[i + 1]]
                for i in range(length)]

    def accepts(self, values: Sequence[int]) -> bool:
        state = 0
        for v in values:
            state = self.delta[state][v - 1]
            if state < 0:
                return False
        return state in self.final


@dataclass(frozen=True)
class Sighted(Scoped):
    """A clue outside the grid looking along a row or a column: `cells`, the row's or column's cells from the clue
    on; `value`, the clue. A subclass gives its automaton (`start`, `step`, `final`) and what a full line shows
    (`measure`), the line form's `WORD` (`sw=`), the f-puzzles `FIELD` and its `TITLE`."""

    cells: tuple[int, ...]
    value: int

    RELABELS = False  # relabelling the values changes what the clue counts
    TITLE: ClassVar[str] = ""  # how messages name it: `sandwich`
    SAYS: ClassVar[str] = ""  # what a full line's `measure` is, for a message: `its 1 and 9 hold 12 between them`

    # -- the rule, as an automaton -----------------------------------------------------------------------------------

    def start(self, side: int) -> State:
        raise NotImplementedError

    def step(self, state: State, v: int, side: int) -> State | None:
        """The state after reading v in `state`, None when no line going so keeps the rule."""
        raise NotImplementedError

    def final(self, state: State, side: int) -> bool:
        raise NotImplementedError

    def measure(self, values: Sequence[int], side: int) -> int:
        """What a full line of these values shows from the clue (the clue that line would give)."""
        raise NotImplementedError

    def automaton(self, side: int) -> Automaton:
        """Its automaton, the states numbered in the order they are met from the start."""
        return _automaton(type(self)((), self.value), side)

    # -- the socket ------------------------------------------------------------------------------------------------

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell that no accepted run over the others' candidates reads there, with the values the
        other cells lost as the reason; no accepted run at all: every cell loses every value."""
        full = (1 << side) - 1
        domains = [masks[c] for c in self.cells]
        kept = self.automaton(side).supports(domains)
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]
        return [Removal(cell, domain & ~keep, by, tuple(c for c in lost if c[0] != cell))
                for cell, domain, keep in zip(self.cells, domains, kept, strict=True) if domain & ~keep]

    def allowed(self, held: Sequence[int], side: int) -> tuple[int, ...]:
        return _allowed(self, tuple(held), side)

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Full, a line that does not show the clue; partly filled, values that leave it no filling."""
        name = self.name(index, side)
        line = [values[c] for c in self.cells]
        if all(line):
            shown = self.measure(line, side)
            return [] if shown == self.value else [f"{name}: {self.SAYS.format(shown=shown, side=side)}"]
        return [f"{name}: the values along its line leave its blank cells no values to keep it with"] \
            if self.unfillable(values, side) else []

    # -- reading and writing -------------------------------------------------------------------------------------------

    @classmethod
    def along(cls, clue: str, side: int) -> tuple[int, ...]:
        """The cells of the row or column a clue's cell (`R0C3`) looks along, from it; ValueError saying why it looks
        along none (a corner)."""
        r, c = outside_cell(clue, side)
        if r in (-1, side) and c in (-1, side):
            raise ValueError(f"its clue {clue.strip()} is at a corner: it looks along no row or column")
        if r in (-1, side):
            rows = range(side) if r < 0 else range(side - 1, -1, -1)
            return tuple(row * side + c for row in rows)
        columns = range(side) if c < 0 else range(side - 1, -1, -1)
        return tuple(r * side + column for column in columns)

    def clue(self, side: int) -> str:
        """Its clue's cell, outside the grid: one step back from its first cell."""
        (r, c), (r2, c2) = divmod(self.cells[0], side), divmod(self.cells[1], side)
        return f"R{r - (r2 - r) + 1}C{c - (c2 - c) + 1}"

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """`<word>=<the clue's cell>:<the clue>`: `sw=R0C3:12`."""
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        clue, colon, number = value.partition(":")
        if not colon:
            raise ValueError(f"`{cls.WORD}` gives its clue's cell, `:`, then its clue, not {quoted(value[:40])}")
        problem = total_problem(number)
        if problem is not None:
            raise ValueError(f"`{cls.WORD}`: its clue {problem}")
        return [cls(cls.along(clue, side), int(number))]

    def word(self, side: int) -> str:
        return f"{self.WORD}{self.clue(side)}:{self.value}"

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' field: a list of `{"cell": the clue's cell, "value": the clue}`; an entry without a value
        holds no rule."""
        a_list(value, "clues")
        found: list[Constraint] = []
        for k, entry in enumerate(value, 1):
            if not isinstance(entry, dict):
                raise ValueError(f"entry {k} is {json_type(entry)}, not an object")
            refuse_unread(entry, ("cell", "value"), f"entry {k}")
            number = entry.get("value")
            if number is None or number == "":
                continue
            text = str(number) if isinstance(number, int) and not isinstance(number, bool) else number
            problem = total_problem(text) if isinstance(text, str) else f"{quoted(number)} is not a whole number"
            if problem is not None:
                raise ValueError(f"entry {k}: its clue {problem}")
            clue = entry.get("cell")
            if not isinstance(clue, str):
                raise ValueError(f"entry {k} has no `cell` (its clue's cell, outside the grid)")
            try:
                found.append(cls(cls.along(clue, side), int(text)))
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None
        return found

    def field_entry(self, side: int) -> Any:
        return {"cell": self.clue(side), "value": str(self.value)}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random clues the full grid `values` keeps: n/3 to n/2 + 1 of them, each at a random end of a random row or
        column, the clue what its line shows; none twice."""
        found: list[Constraint] = []
        for _ in range(rng.randint(max(1, side // 3), side // 2 + 1)):
            k, edge = rng.randrange(side), rng.choice((0, side + 1))
            clue = f"R{edge}C{k + 1}" if rng.random() < 0.5 else f"R{k + 1}C{edge}"
            cells = cls.along(clue, side)
            rule = cls(cells, cls(cells, 0).measure([values[c] for c in cells], side))
            if rule not in found:
                found.append(rule)
        return found

    def moved(self, move: Move) -> Constraint:
        return type(self)(tuple(move(c) for c in self.cells), self.value)

    def name(self, index: int, side: int) -> str:
        return f"{self.TITLE} {index + 1} ({self.value} at {self.clue(side)})"

    def problem(self, side: int) -> str | None:
        """Unless its cells are a whole row or column, from an end."""
        if len(self.cells) < 2 or not all(0 <= c < side * side for c in self.cells):
            return f"names a cell outside the {side}x{side} grid"
        try:
            whole = self.along(self.clue(side), side)
        except ValueError:
            whole = ()
        return None if whole == self.cells else "is not a whole row or column of the grid, from an end"

    def drawing(self, side: int) -> tuple[Shape, ...]:
        """Its clue written outside the grid, beside its row or column, as f-puzzles and SudokuPad write it."""
        return (clue_drawing(self.cells, self.TITLE, self.value, outside_cell(self.clue(side), side)),)


@kept_drawn()
def _automaton(rule: Sighted, side: int) -> Automaton:
    """A rule's automaton, built from its `start` by the states each value leads to (asked of the rule without its
    cells: the clue alone matters, so one automaton serves every line of the same clue)."""
    numbers: dict[State, int] = {rule.start(side): 0}
    order = list(numbers)
    delta: list[tuple[int, ...]] = []
    while len(delta) < len(order):
        state = order[len(delta)]
        row = []
        for v in range(1, side + 1):
            after = rule.step(state, v, side)
            if after is None:
                row.append(-1)
                continue
            if after not in numbers:
                numbers[after] = len(order)
                order.append(after)
            row.append(numbers[after])
        delta.append(tuple(row))
    return Automaton(tuple(delta), frozenset(k for k, state in enumerate(order) if rule.final(state, side)))


@kept_drawn(1 << 16)
def _allowed(rule: Sighted, held: tuple[int, ...], side: int) -> tuple[int, ...]:
    """The base's `allowed` (the filter on the values placed), kept: the engines ask it at every placement."""
    return Constraint.allowed(rule, held, side)
