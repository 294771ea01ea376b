"""Solvers with planted bugs, for the fuzzer's tests (`--registry planted`): each right except under a condition
on the givens that the fuzzer must find, and shrink to the few clues that make it.

    corrupt  its answer corrupted (two cells of the last row swapped) when a 2 is given in the first row and a
             3 in the last row: an invalid answer, 1-minimal with exactly those two clues
    liar     claims "no solution" when the first and the last cells are both given: a false unsat, 1-minimal
             with exactly those two clues
    crasher  its worker dies on a 16x16 puzzle, whatever the clues: an error, 1-minimal as the empty 16x16 grid
"""
from __future__ import annotations

import os
from typing import Any

from puzzles import Budget, Grid, Method, Outcome, Status
from search import SOLVERS as SEARCH

COUNTERS = SEARCH["mrv"].counters


def right(grid: Grid, budget: Budget, **options: Any) -> Outcome:
    return SEARCH["mrv"](grid, budget, **{**options, "propagate": "singles"})


def corrupt(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    outcome = right(grid, budget, **options)
    n = grid.side
    if outcome.solution is not None and 2 in grid.values[:n] and 3 in grid.values[n * (n - 1):]:
        values = bytearray(outcome.solution.values)
        last = n * (n - 1)
        values[last], values[last + 1] = values[last + 1], values[last]
        outcome.solution = grid.with_values(bytes(values))
    return outcome


def liar(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    if grid.values[0] and grid.values[-1]:
        return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})
    return right(grid, budget, **options)


def crasher(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    if grid.box == 4:
        os._exit(3)
    return right(grid, budget, **options)


SOLVERS = {
    "corrupt": Method(corrupt, "MRV, its answer corrupted under a condition on the givens", {}, COUNTERS),
    "liar": Method(liar, "MRV, that claims no solution under a condition on the givens", {}, COUNTERS),
    "crasher": Method(crasher, "MRV, that crashes on 16x16 puzzles", {}, COUNTERS),
}
