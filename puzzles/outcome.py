"""The contract every solver returns: Status, Outcome and Budget.

Every solver, hand-written or not, is a function

    solve(grid: Grid, budget: Budget = Budget(), **options) -> Outcome
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .grid import Grid


class Status(str, Enum):
    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"  # proved: the search was complete
    GAVE_UP = "gave_up"  # budget spent, or a method that cannot prove anything
    ERROR = "error"  # a clear message in Outcome.detail, never a traceback

    def __str__(self) -> str:
        return self.value


class GaveUp(str, Enum):
    """Why a solver gave up: the detail of a GAVE_UP Outcome (or of a SOLVED one whose uniqueness proof ran out)."""

    TIME = "time"
    NODES = "nodes"
    INCOMPLETE = "incomplete"  # the method cannot prove what was asked (no solution, or no other)
    MAX_RESTARTS = "max_restarts"  # its cap of restarts reached (restart's option), on a solvable puzzle or not
    KILLED = "time (killed)"  # it ignored its time budget and was stopped from outside (compare.py)

    def __str__(self) -> str:
        return self.value


GAVE_UP_REASONS = tuple(reason.value for reason in GaveUp)

# The start of a GAVE_UP run's detail when the method did not run at all, for it cannot take the puzzle (a method
# that does not know Killer cages, an external program that reads classic grids, given a Jigsaw): no attempt, so
# no failure either. The reason follows: "not run: input=line carries classic Sudoku (square boxes) only, ...".
NOT_RUN = "not run"


def not_run(reason: str) -> str:
    """The detail of a run the method could not make, for this reason."""
    return f"{NOT_RUN}: {reason}"


def not_run_reason(status: str, detail: str | None) -> str | None:
    """Why a run was not made (a Killer cage, a constraint or an input form the method cannot take), read from its
    status and detail as an Outcome or a record holds them; None for a run that was made. The one reader of
    `not_run`'s words."""
    prefix = f"{NOT_RUN}: "
    if status != Status.GAVE_UP or not detail or not str(detail).startswith(prefix):
        return None
    return str(detail)[len(prefix):]


@dataclass(frozen=True)
class Budget:
    """How much a solver may spend: wall seconds and search nodes (None = no limit)."""

    seconds: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and self.seconds < 0:
            raise ValueError("a time budget cannot be negative")
        if self.nodes is not None and self.nodes < 0:
            raise ValueError("a node budget cannot be negative")

    def deadline(self, start: float) -> float:
        """The perf_counter() time at which the budget is spent (inf when unlimited)."""
        return float("inf") if self.seconds is None else start + self.seconds

    @property
    def node_limit(self) -> float:
        return float("inf") if self.nodes is None else self.nodes


@dataclass(frozen=True)
class Count:
    """How many solutions a counting solve (solutions=N, N > 2) found: `found` distinct solutions, and whether that
    is all the puzzle has (`exact`: the search was complete and stopped before N) or a floor (it stopped at N, or
    ran out of budget, or cannot prove there are no more). Written "7" (exact) or "10+" (at least 10)."""

    found: int
    exact: bool

    def __post_init__(self) -> None:
        if self.found < 0:
            raise ValueError("a count of solutions cannot be negative")

    def __str__(self) -> str:
        return f"{self.found}" if self.exact else f"{self.found}+"

    @classmethod
    def parse(cls, text: str) -> Count:
        """`7` or `10+` back as a Count; ValueError for anything else."""
        text = str(text).strip()
        floor = text.endswith("+")
        digits = text[:-1] if floor else text
        if not digits.isdigit():
            raise ValueError(f"{text!r} is not a count of solutions (7, or 10+ for at least 10)")
        return cls(int(digits), not floor)

    def agrees(self, other: Count) -> bool:
        """Whether both can be right: two exact counts are equal; an exact count is at least the other's floor."""
        if self.exact and other.exact:
            return self.found == other.found
        if self.exact:
            return self.found >= other.found
        if other.exact:
            return other.found >= self.found
        return True


@dataclass
class Outcome:
    """What a solver found, and how much search it took.

    effort:  named integer counters, with the meanings of docs/concepts/effort.md
    seconds: wall time of the whole solve call (model building included)
    unique:  with solutions=2 (or more), whether the solution found is the only one
    count:   with solutions=N for N > 2, how many solutions the solve found (a Count: exact, or at least)
    detail:  why it gave up ("time", "nodes", "incomplete", "max_restarts") or the error message
    info:    other facts a solver reports (model size, solver's own wall time, ...)
    """

    status: Status
    solution: Grid | None = None
    effort: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    unique: bool | None = None
    detail: str = ""
    info: dict[str, object] = field(default_factory=dict)
    count: Count | None = None

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED


def error(message: str, started: float | None = None) -> Outcome:
    """An error Outcome with a clear message."""
    seconds = time.perf_counter() - started if started is not None else 0.0
    return Outcome(Status.ERROR, detail=message, seconds=seconds)


@dataclass(frozen=True)
class Method:
    """A registered solver: its solve function and what `compare.py --list` tells of it.

    Registries (`search.SOLVERS`, `formulations.SOLVERS`) map a short name to a
    Method; calling the Method calls its solve. Options are keyword arguments
    (`solutions` and the method's own); `options` maps each own option to a
    one-line description that names its choices and default.
    """

    solve: Callable[..., Outcome]
    summary: str
    options: dict[str, str] = field(default_factory=dict)
    counters: tuple[str, ...] = ()
    # (counter, n): a solved run whose counter is at most n made no guess (tdoku's "no guess"), by the
    # method's own count; by default `guesses` at 0 for a method that counts them, else not known
    guess_measure: tuple[str, int] | None = None

    @property
    def no_guess(self) -> tuple[str, int] | None:
        """How to tell a run that needed no guess: (counter, at most), or None when the method cannot say."""
        if self.guess_measure is not None:
            return self.guess_measure
        return ("guesses", 0) if "guesses" in self.counters else None

    def __call__(self, grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
        return self.solve(grid, budget, **options)

    def check(self, budget: Budget | None = None, **options: Any) -> str | None:
        """Why these options (with this budget) would be refused, or None: a caller refuses them before any solve.

        A solve made by `puzzles.options.contract` knows its options; any other is trusted here
        and reports a bad option as an ERROR Outcome when called.
        """
        check_options = getattr(self.solve, "check_options", None)
        if check_options is None:
            return None
        try:
            check_options(options, budget)
        except ValueError as exc:
            return str(exc)
        return None
