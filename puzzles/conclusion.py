"""How a solve ends: from the solutions found and why it stopped, the Outcome.

Every solver ends the same way, hand-written searches and formulations alike
(formulations.driver), so the rules are written once:
- with solutions=2, a second solution means not unique; one solution after a
  search that ran to its end means unique; anything else is not known;
- with solutions=N for N > 2 (counting), the count: exact when the search ran
  to its end before N (0 for a puzzle proved unsatisfiable), at least N when
  it stopped at N, at least what it found when the budget ran out; every
  solution counted is checked against the puzzle, and counted once;
- a budget spent after a solution was found still returns that solution,
  with the detail saying the uniqueness proof was cut short.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from .grid import Grid
from .outcome import Count, Outcome, Status, error

UNPROVED = "uniqueness not proved: "  # the detail of a solution whose uniqueness proof ran out, then why
COUNTING = 3  # from this many solutions asked for, a solve counts them (Outcome.count)


def conclude(grid: Grid, found: Sequence[bytes], solutions: int, status: Status, detail: str,
             effort: dict[str, int], started: float, info: dict[str, object] | None = None) -> Outcome:
    """The Outcome of a solve of `grid` that found `found` (solution values) and stopped with `status`, `detail`."""
    unique = None
    if found and solutions > 1:
        if len(found) > 1:
            unique = False
        elif status is Status.SOLVED and not detail:
            unique = True  # the whole tree was searched
    count = None
    if solutions >= COUNTING:
        wrong = miscounted(grid, found)
        if wrong:  # a count is worth only the solutions it counts
            return error(f"counted solutions that are not: {wrong}", started)
        if status is Status.UNSATISFIABLE:
            count = Count(0, exact=True)
        elif found:
            count = Count(len(found), exact=status is Status.SOLVED and not detail and len(found) < solutions)
    if found and status is Status.GAVE_UP:
        status, detail = Status.SOLVED, f"{UNPROVED}{detail}"
    solution = grid.with_values(found[0]) if found else None
    return Outcome(status, solution, effort, time.perf_counter() - started, unique, detail, info or {}, count)


def miscounted(grid: Grid, found: Sequence[bytes]) -> str:
    """Why `found` is not a list of distinct solutions of `grid` ('' when it is)."""
    if len(set(found)) < len(found):
        return "the same solution twice"
    for k, values in enumerate(found, 1):
        problems = grid.solution_problems(grid.with_values(values))
        if problems:
            return f"solution {k}: {problems[0]}"
    return ""
