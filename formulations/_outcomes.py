"""How a formulation's solve ends: the Outcomes every model builds the same way.

The option checks and the error net are the contract's own (puzzles.options);
what is left here is formulation-specific: a solver is called once per
solution sought (twice with solutions=2, the second time with the first
solution excluded), and its answer, or the limit it hit, becomes an Outcome.
"""
from __future__ import annotations

import time

from puzzles.grid import Grid
from puzzles.outcome import Outcome, Status

# A budget is mapped into the backends' ranges: beyond these it is as good as none, and
# within them every backend takes it (threading.Timer's TIMEOUT_MAX, int64 milliseconds
# in pywraplp, 64-bit conflict counts in CP-SAT and PySAT).
MAX_SECONDS = 1e7  # about 116 days
MAX_COUNT = 2**62


def finished(started: float, effort: dict[str, int], info: dict[str, object], found: Grid | None,
             unique: bool | None = None) -> Outcome:
    """The solver answered: solved with `found` (`unique` as known), or unsatisfiable without it."""
    seconds = time.perf_counter() - started
    if found is None:
        return Outcome(Status.UNSATISFIABLE, None, effort, seconds, None, "", info)
    return Outcome(Status.SOLVED, found, effort, seconds, unique, "", info)


def gave_up(reason: str, started: float, effort: dict[str, int], info: dict[str, object],
            solution: Grid | None = None) -> Outcome:
    """A budget ran out. With a solution, it was the uniqueness proof that ran out."""
    seconds = time.perf_counter() - started
    if solution is not None:
        return Outcome(Status.SOLVED, solution, effort, seconds, None, reason, info)
    return Outcome(Status.GAVE_UP, None, effort, seconds, None, reason, info)


def remaining(deadline: float) -> float:
    return deadline - time.perf_counter()
