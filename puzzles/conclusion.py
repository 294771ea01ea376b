"""How a solve ends: from the solutions found and why it stopped, the Outcome.

Every solver ends the same way, hand-written searches and formulations alike
(formulations.driver), so the rules are written once:
- with solutions=2, a second solution means not unique; one solution after a
  search that ran to its end means unique; anything else is not known;
- a budget spent after a solution was found still returns that solution,
  with the detail saying the uniqueness proof was cut short.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from .grid import Grid
from .outcome import Outcome, Status

UNPROVED = "uniqueness not proved: "  # the detail of a solution whose uniqueness proof ran out, then why


def conclude(grid: Grid, found: Sequence[bytes], solutions: int, status: Status, detail: str,
             effort: dict[str, int], started: float, info: dict[str, object] | None = None) -> Outcome:
    """The Outcome of a solve of `grid` that found `found` (solution values) and stopped with `status`, `detail`."""
    unique = None
    if found and solutions > 1:
        if len(found) > 1:
            unique = False
        elif status is Status.SOLVED and not detail:
            unique = True  # the whole tree was searched
    if found and status is Status.GAVE_UP:
        status, detail = Status.SOLVED, f"{UNPROVED}{detail}"
    solution = grid.with_values(found[0]) if found else None
    return Outcome(status, solution, effort, time.perf_counter() - started, unique, detail, info or {})
