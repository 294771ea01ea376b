"""Sudoku as a CSP for python-constraint2 (imported as `constraint`).

One variable per cell, domain 1..n (a given's domain is its value), one
AllDifferentConstraint per house (row, column, region, extra house), solved by backtracking with
forward checking. A puzzle's constraints (puzzles/constraints/) are constraint objects of the package, by
their kinds' encoders (formulations/constraints/csp.py): one a rule over its cells, and a Killer cage's
AllDifferentConstraint and ExactSumConstraint. Without constraints the problem is the classic one.

The package keeps no statistics and cannot be stopped from outside, so a
counting constraint over every variable is added first: the solvers call a
variable's constraints, in the order they were added, right after placing a
value in it, so the counter sees every tentative placement before anything
can reject it. It is also where the time and node budgets are checked; when
one is spent it raises, and the search unwinds.

It goes through formulations.driver as far as the package allows: it takes no
exclusion constraint, so for solutions=2 the driver's "exclude and solve again"
is the package's own solution iterator going on past the first solution; and
it cannot be interrupted, so a time budget is read at each placement only (a
long stretch of forward checking between two placements runs on).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

import constraint

from puzzles.grid import Grid
from puzzles.options import Option, contract, describe
from puzzles.outcome import Budget, GaveUp, Method, Outcome, Status

from .constraints import options_of
from .constraints.csp import ENCODERS, encode
from .driver import FOUND, NONE, Allowance, Answer, Model, drive

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

OPTIONS = {"solver": Option(DEFAULT_SOLVER, "the python-constraint solver class", tuple(SOLVER_CLASSES)),
           **options_of(ENCODERS)}  # the kinds' own (none yet)
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


def build(grid: Grid, counter: constraint.Constraint | None,
          solver_name: str) -> tuple[constraint.Problem, int, dict[str, object]]:
    """The CSP: one variable per cell (named by its index), AllDifferent per unit; the constraints' objects. Returns
    it, how many objects state the constraints, and the facts their encoders tell."""
    n = grid.side
    problem = constraint.Problem(SOLVER_CLASSES[solver_name]())
    for cell, value in enumerate(grid.values):
        problem.addVariable(cell, [value] if value else list(range(1, n + 1)))
    if counter is not None:  # first, so it sees each placement before any check can fail
        problem.addConstraint(counter, list(range(grid.geometry.cells)))
    for unit in grid.geometry.units:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(unit))
    stated, facts = encode(grid.layout.constraints, problem, n) if grid.layout.constraints else (0, {})
    return problem, stated, facts


class CspFormulation(Model):
    """The CSP of one puzzle and the package's iterator over its solutions, advanced one solution a time.

    What the package cannot do, the driver does without: it takes no exclusion constraint
    (the iterator simply goes on past the solutions found, so `exclude` has nothing to add),
    and it cannot be interrupted, so the budget is checked at each placement, not in between.
    """

    def __init__(self, grid: Grid, opts: dict[str, Any]) -> None:
        self.grid = grid
        self.counter = PlacementCounter(frozenset(grid.empty_cells()), float("inf"), float("inf"))
        problem, stated, facts = build(grid, self.counter, str(opts["solver"]))
        self.solutions = problem.getSolutionIter()
        self.assignment: dict[int, int] = {}
        self.info: dict[str, object] = {
            "solver": opts["solver"],
            "variables": grid.geometry.cells,
            # the houses' AllDifferent constraints and the objects stating the puzzle's constraints (the counter aside)
            "constraints": len(grid.geometry.units) + stated,
            **facts,
        }

    def solve_once(self, allowance: Allowance) -> Answer:
        self.counter.deadline = time.perf_counter() + allowance.seconds
        self.counter.node_limit = self.counter.nodes + allowance.nodes
        # The recursive solver nests one generator frame per placed variable.
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 4 * self.grid.geometry.cells + 1000))
        try:
            self.assignment = next(self.solutions)
            return FOUND
        except StopIteration:
            return NONE
        except _Spent as spent:
            return Answer(Status.GAVE_UP, str(spent.args[0]))
        finally:
            sys.setrecursionlimit(old_limit)
            self.info["given_placements"] = self.counter.given_placements

    def read(self) -> Grid:
        return self.grid.with_values([self.assignment[c] for c in range(self.grid.geometry.cells)])

    def exclude(self, solution: Grid) -> None:
        return None  # the iterator's next solution is another one

    def effort(self) -> dict[str, int]:
        return {"nodes": self.counter.nodes}


@contract("python-constraint", OPTIONS, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The CSP on a python-constraint solver, counting the values it tries."""
    return drive(lambda: CspFormulation(grid, opts), grid, budget, solutions, started)


METHOD = Method(solve, "python-constraint2 CSP: AllDifferent per unit (a Killer cage: AllDifferent and ExactSum), "
                "backtracking with forward checking",
                describe(OPTIONS), COUNTERS)
