"""How a search ends: from the solutions it found and why it stopped, the Outcome.

Both searches (the depth-first one and A*) end the same way, so the rules are
written once:
- with solutions=2, a second solution means not unique; one solution after a
  search that ran to its end means unique; anything else is not known;
- a budget spent after a solution was found still returns that solution,
  with the detail saying the uniqueness proof was cut short.
"""
from __future__ import annotations

import time

from puzzles.grid import Grid
from puzzles.outcome import Outcome, Status


def conclude(grid: Grid, found: list[bytes], solutions: int, status: Status, detail: str,
             effort: dict[str, int], started: float, info: dict[str, object] | None = None) -> Outcome:
    unique = None
    if found and solutions > 1:
        if len(found) > 1:
            unique = False
        elif status is Status.SOLVED and not detail:
            unique = True  # the whole tree was searched
    if found and status is Status.GAVE_UP:
        status, detail = Status.SOLVED, f"uniqueness not proved: {detail}"
    solution = Grid(grid.box, found[0]) if found else None
    return Outcome(status, solution, effort, time.perf_counter() - started, unique, detail, info or {})
