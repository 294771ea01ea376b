"""Sudoku as a CSP for python-constraint2 (imported as `constraint`).

One variable per cell, domain 1..n (a given's domain is its value), one
AllDifferentConstraint per row, column and box, solved by backtracking with
forward checking.

The package keeps no statistics and cannot be stopped from outside, so a
counting constraint over every variable is added first: the solvers call a
variable's constraints, in the order they were added, right after placing a
value in it, so the counter sees every tentative placement before anything
can reject it. It is also where the time and node budgets are checked; when
one is spent it raises, and the search unwinds.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from itertools import islice
from typing import Any

import constraint

from puzzles.grid import Grid
from puzzles.options import Option, contract, describe
from puzzles.outcome import Budget, GaveUp, Method, Outcome

from ._outcomes import finished, gave_up

# BacktrackingSolver and RecursiveBacktrackingSolver pick the next variable
# dynamically (most constraints, then smallest current domain, i.e. MRV once
# forward checking has pruned domains). OptimizedBacktrackingSolver, the
# package's default, fixes the order once and is far slower on Sudoku.
SOLVER_CLASSES = {
    "backtracking": constraint.BacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
}
# Measured on top95 (one run, 1 worker): backtracking
# median 98 ms, mean 662 ms; recursive median 140 ms, mean 684 ms, with about
# the same mean nodes (20,869 vs 20,215: they try values in opposite orders).
# optimized gave up after 30 s on top95's first puzzle (recursive: 0.02 s).
# backtracking is iterative too, so 25x25 needs no deep recursion.
DEFAULT_SOLVER = "backtracking"

OPTIONS = {"solver": Option(DEFAULT_SOLVER, "the python-constraint solver class", tuple(SOLVER_CLASSES))}
COUNTERS = ("nodes",)


class _Spent(Exception):
    """A budget ran out inside the search; args[0] says which ("time" or "nodes")."""


class PlacementCounter(constraint.Constraint):  # type: ignore[misc]  # python-constraint is untyped
    """Always satisfied; counts the values tried in blank cells and enforces the budget."""

    def __init__(self, blanks: frozenset[int], deadline: float, node_limit: float) -> None:
        self.blanks, self.deadline, self.node_limit = blanks, deadline, node_limit
        self.nodes = 0  # values tried in cells blank in the puzzle
        self.given_placements = 0  # givens placed (their domain has one value)

    def __call__(
        self, variables: Sequence[int], domains: dict[int, Any], assignments: dict[int, int], forwardcheck: bool = False
    ) -> bool:
        # The variable just placed is the last key: dicts keep insertion order,
        # and both dynamic solvers remove deeper placements before re-placing.
        cell = next(reversed(assignments))
        if cell not in self.blanks:
            self.given_placements += 1
            return True
        if self.nodes >= self.node_limit:
            raise _Spent(GaveUp.NODES)
        if time.perf_counter() > self.deadline:
            raise _Spent(GaveUp.TIME)
        self.nodes += 1
        return True


def build(grid: Grid, counter: constraint.Constraint | None, solver_name: str) -> constraint.Problem:
    """The CSP: one variable per cell (named by its index), AllDifferent per unit."""
    n = grid.side
    problem = constraint.Problem(SOLVER_CLASSES[solver_name]())
    for cell, value in enumerate(grid.values):
        problem.addVariable(cell, [value] if value else list(range(1, n + 1)))
    if counter is not None:  # first, so it sees each placement before any check can fail
        problem.addConstraint(counter, list(range(grid.geometry.cells)))
    for unit in grid.geometry.units:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(unit))
    return problem


@contract("python-constraint", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The CSP on a python-constraint solver, counting the values it tries."""
    counter = PlacementCounter(frozenset(grid.empty_cells()), budget.deadline(started), budget.node_limit)
    problem = build(grid, counter, str(opts["solver"]))
    geo = grid.geometry
    info: dict[str, object] = {
        "solver": opts["solver"],
        "variables": geo.cells,
        "constraints": len(geo.units),  # AllDifferent constraints (the counter aside)
        "build_seconds": time.perf_counter() - started,
    }
    found: list[dict[int, int]] = []
    # The recursive solver nests one generator frame per placed variable.
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * geo.cells + 1000))
    search_started = time.perf_counter()
    reason = ""
    try:
        for assignment in islice(problem.getSolutionIter(), solutions):
            found.append(assignment)
    except _Spent as spent:
        reason = str(spent.args[0])
    finally:
        sys.setrecursionlimit(old_limit)
    info["solver_seconds"] = time.perf_counter() - search_started
    info["given_placements"] = counter.given_placements
    effort = {"nodes": counter.nodes}

    solution = grid.with_values([found[0][c] for c in range(geo.cells)]) if found else None
    if reason:
        return gave_up(reason, started, effort, info, solution)
    return finished(started, effort, info, solution, (len(found) == 1) if solutions == 2 else None)


METHOD = Method(solve, "python-constraint2 CSP: AllDifferent per unit, backtracking with forward checking",
                describe(OPTIONS), COUNTERS)
