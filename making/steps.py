"""A logic solver's steps checked one by one against a puzzle's true candidates (making/candidates.py).

A logic solver writes each deduction it makes, one a line, then its final grid (docs/reference/steps.md):

    remove R3C4=1,2 R3C6=1 pointing
    place R3C4=7 naked single
    ...
    the final grid's line: the givens and the placements, `.` where it stopped; or `unsat`

Every step is a deduction, so it must hold in every solution of the puzzle: a removal of value v from a cell is
sound when no solution puts v there (v is not a true candidate of the cell), a placement of v when every solution
puts v there (v is the cell's one true candidate). A guess is no deduction: on a puzzle with several solutions, a
placement of a value that only some of them put there is unsound. While every step is sound, the placements made
hold in every solution, so the true candidates of the puzzle itself judge every step: one SAT computation a puzzle.
On a puzzle with no solution every deduction holds (none is refuted by a solution), and `unsat` is its answer.

The replay stops at the first line that is not sound: an unsound step (named: its number, its line, its technique,
the cell and value, and why), a malformed line (a protocol error naming it), or, when the true candidates gave up
before settling the value a step speaks of, the first step that cannot be judged. The final grid must be the
givens with the placements made, and `unsat` is sound only on a puzzle that has no solution.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from puzzles.constraints.base import cell_name, cell_of_name
from puzzles.grid import Grid
from puzzles.words import SYMBOLS, plural

from .candidates import TrueCandidates

VERBS = ("place", "remove")
MARKED = re.compile(r"R[0-9]+C[0-9]+=", re.IGNORECASE | re.ASCII)  # a word that starts a cell's values, not a technique
MARK = re.compile(r"(?P<cell>R[0-9]{1,9}C[0-9]{1,9})=(?P<values>[0-9]{1,9}(?:,[0-9]{1,9})*)", re.IGNORECASE | re.ASCII)
BLANKS = ".0_"
UNSAT = "unsat"
QUOTE = 80  # the characters of a bad line a message quotes


class Verdict(enum.Enum):
    SOUND = "sound"
    UNSOUND = "unsound"
    MALFORMED = "protocol error"  # a line that is no step, no final grid where one is due, or none at all
    UNDECIDED = "undecided"  # the true candidates gave up before settling what a step speaks of
    TIME = "out of time"  # the program did not end within its time (sudoku-check --steps: comparison/programs/steps.py)


@dataclass(frozen=True)
class Deduction:
    """One step as the logic solver wrote it (a deduction: a placement or removals): its number among the steps, its
    line of the output (1-based), the line itself, its verb, the values it places or removes, cell by cell, and the
    technique it names ('' when none)."""

    number: int
    line: int
    text: str
    verb: str
    marks: tuple[tuple[int, tuple[int, ...]], ...]
    technique: str


@dataclass(frozen=True)
class StepsCheck:
    """What the replay found: the verdict, the steps read up to it, and for anything but SOUND the step (None for a
    problem of the final line or of the output's end), the cell and value it is about, the output line and why."""

    verdict: Verdict
    steps: int
    why: str = ""
    step: Deduction | None = None
    line: int = 0  # the output line the finding is on (the step's, or the final line's), 0 for the output's end
    cell: int | None = None
    value: int | None = None
    open_cells: int = 0  # SOUND: the cells the final grid leaves blank (0: solved)
    unsat: bool = False  # SOUND: the answer was `unsat`

    @property
    def sound(self) -> bool:
        return self.verdict is Verdict.SOUND

    def describe(self) -> str:
        """One line: `sound (37 steps, solved)`, or the first step that is not sound and why."""
        if self.verdict is Verdict.SOUND:
            end = "no solution" if self.unsat else "solved" if not self.open_cells else \
                f"{plural(self.open_cells, 'cell')} left open"
            return f"sound ({plural(self.steps, 'step')}, {end})"
        if self.step is None:
            return f"{self.verdict.value}{f' at line {self.line}' if self.line else ''}: {self.why}"
        technique = f"{self.step.technique}: " if self.step.technique else ""
        return (f"{self.verdict.value} at step {self.step.number} (line {self.step.line}: "
                f"{self.step.text[:QUOTE]}): {technique}{self.why}")


class Malformed(Exception):
    """A line that is not a step: the message says why."""


def parse_step(text: str, number: int, line: int, side: int) -> Deduction:
    """A step's line, `place R3C4=7 naked single` or `remove R3C4=1,2 R5C4=1 pointing pair`; Malformed says why
    it is not one."""
    words = text.split()
    verb = words[0]
    if verb not in VERBS:
        raise Malformed(f"{verb[:20]!r} is not a step (place or remove) nor a final grid of {side}x{side} symbols")
    marks: list[tuple[int, tuple[int, ...]]] = []
    rest = words[1:]
    while rest and MARKED.match(rest[0]):
        found = MARK.fullmatch(rest[0])
        if found is None:
            raise Malformed(f"{rest[0][:40]!r} is not a cell and its values, like R3C4=7 or R3C4=1,2")
        try:
            cell = cell_of_name(found["cell"], side)
        except ValueError as exc:
            raise Malformed(str(exc)) from None
        values = tuple(int(v) for v in found["values"].split(","))
        outside = [v for v in values if not 1 <= v <= side]
        if outside:
            raise Malformed(f"{rest[0]}: {outside[0]} is not a value of a {side}x{side} grid (1-{side})")
        if verb == "place" and len(values) > 1:
            raise Malformed(f"{rest[0]}: a placement puts one value in a cell")
        marks.append((cell, values))
        rest = rest[1:]
    if not marks:
        raise Malformed(f"{verb} names no cell: `{verb} R3C4=7 technique`")
    return Deduction(number, line, text, verb, tuple(marks), " ".join(rest))


def final_values(text: str, side: int) -> bytes | None:
    """The values of a final grid's line (0 for a blank), or None when the line is not side*side symbols."""
    if len(text) != side * side:
        return None
    values = bytearray()
    for ch in text:
        v = 0 if ch in BLANKS else SYMBOLS.find(ch.upper()) + 1
        if not (ch in BLANKS or 1 <= v <= side):
            return None
        values.append(v)
    return bytes(values)


def check_steps(grid: Grid, output: str, truth: TrueCandidates) -> StepsCheck:
    """Replay a logic solver's output on `grid` against the puzzle's true candidates `truth`: the first step
    (or line) that is not sound, or SOUND with the steps counted (the module's docstring says what is sound)."""
    side, masks, undecided = grid.side, truth.masks, truth.undecided
    lines = output.splitlines()
    placed = bytearray(grid.values)
    steps = 0
    # a problem settles only once the replay reaches it, in the output's order
    for index, raw in enumerate(lines):
        line, text = index + 1, raw.strip()
        if not text:
            continue
        final = text if text == UNSAT else None
        values = final_values(text, side) if final is None else None
        if final is not None or values is not None:
            after = next((i + 1 for i in range(index + 1, len(lines)) if lines[i].strip()), None)
            if after is not None:
                return StepsCheck(Verdict.MALFORMED, steps, f"a line after the final {'`unsat`' if final else 'grid'}"
                                  f" of line {line}: {lines[after - 1].strip()[:QUOTE]!r} (the final line comes last)",
                                  line=after)
            if values is None:  # unsat
                if truth.solvable:
                    return StepsCheck(Verdict.UNSOUND, steps, "says the puzzle has no solution, but it has one",
                                      line=line)
                if truth.solvable is None:
                    return StepsCheck(Verdict.UNDECIDED, steps, "says the puzzle has no solution; whether it has one "
                                      f"is undecided ({truth.gave_up})", line=line)
                return StepsCheck(Verdict.SOUND, steps, unsat=True)
            return final_grid(values, placed, grid, steps, line)
        steps += 1
        try:
            step = parse_step(text, steps, line, side)
        except Malformed as exc:
            return StepsCheck(Verdict.MALFORMED, steps - 1, str(exc), line=line)
        for cell, values_of in step.marks:
            for value in values_of:
                bit = 1 << (value - 1)
                name = cell_name(cell, side)
                if step.verb == "remove":
                    if masks[cell] & bit:
                        return StepsCheck(Verdict.UNSOUND, steps, f"removes {value} from {name}, which "
                                          f"{solution_word(truth)} puts there", step, line, cell, value)
                    if undecided[cell] & bit:
                        return StepsCheck(Verdict.UNDECIDED, steps, f"removes {value} from {name}; whether a solution "
                                          f"puts it there is undecided ({truth.gave_up})", step, line, cell, value)
                else:
                    other = masks[cell] & ~bit
                    if other:
                        shown = ", ".join(str(v) for v in truth.values(cell) if v != value)
                        return StepsCheck(Verdict.UNSOUND, steps, f"places {value} in {name}, where "
                                          f"{solution_word(truth)} has {shown}", step, line, cell, value)
                    if undecided[cell] & ~bit:
                        return StepsCheck(Verdict.UNDECIDED, steps, f"places {value} in {name}; whether a solution "
                                          f"has another value there is undecided ({truth.gave_up})", step, line,
                                          cell, value)
                    placed[cell] = value
    return StepsCheck(Verdict.MALFORMED, steps, "the output ends without its final grid (or `unsat`)")


def solution_word(truth: TrueCandidates) -> str:
    """`the solution` of a unique puzzle, else `a solution`."""
    return "the solution" if truth.unique else "a solution"


def final_grid(values: bytes, placed: bytearray, grid: Grid, steps: int, line: int) -> StepsCheck:
    """The final grid held to the givens and the placements made: any difference is a protocol error, naming the
    first cell that differs; else the replay is sound."""
    side = grid.side
    for cell, (got, want) in enumerate(zip(values, placed, strict=True)):
        if got != want:
            name = cell_name(cell, side)
            what = (f"leaves {name} blank" if not got else f"has {got} in {name}")
            given = grid.values[cell]
            said = (f"the puzzle gives {given} there" if given else f"the steps placed {want} there" if want
                    else "no step placed a value there")
            return StepsCheck(Verdict.MALFORMED, steps, f"the final grid {what}; {said}", line=line, cell=cell,
                              value=got or None)
    return StepsCheck(Verdict.SOUND, steps, open_cells=values.count(0))
