"""Sudoku as CNF, solved with PySAT (package python-sat).

Variable var(c, v) = c*n + v is true when cell c holds value v. Clauses:
at least one and at most one value per cell, each value at least once and at
most once per row, column and box (pairwise at-most-one), and a unit clause
per given. The same CNF is written as DIMACS by formulations.export.

Budgets: the node budget maps to a conflict budget (a conflict closes a branch).
The time budget interrupts the solver from a timer thread where the solver
supports it; PySAT's CaDiCaL bindings do not, so for CaDiCaL the search runs in
slices of conflicts with the clock read between slices (the learnt clauses are
kept, so a slice goes on from where the last stopped, after a restart).
"""
from __future__ import annotations

import threading
import time
from functools import cache
from itertools import combinations
from typing import Any

from pysat.solvers import Solver

from puzzles.grid import Grid, geometry
from puzzles.options import Option, OptionError, contract, describe
from puzzles.outcome import Budget, GaveUp, Method, Outcome

from ._outcomes import MAX_COUNT, MAX_SECONDS, finished, gave_up, remaining

SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose3", "minisat22", "maplechrono", "lingeling")
DEFAULT_SOLVER = "cadical195"
_NO_INTERRUPT = ("cadical195", "cadical153")  # pysat raises NotImplementedError on interrupt()
_NO_CONFLICT_BUDGET = ("glucose4", "glucose3")  # they take conf_budget, and run on past it
_NO_LIMITS = ("lingeling",)  # pysat has no limited solve for it: no budget can stop it
SLICE_CONFLICTS = 2000

OPTIONS = {"solver": Option(DEFAULT_SOLVER, "the PySAT solver", SOLVERS)}
COUNTERS = ("decisions", "conflicts", "propagations", "restarts")


def encode(grid: Grid) -> tuple[int, list[list[int]]]:
    """The CNF of a puzzle: (number of variables, clauses): the rules of its size, then its givens."""
    n = grid.side
    givens = [[cell * n + v] for cell, v in enumerate(grid.values) if v]
    return grid.geometry.cells * n, [*rules(grid.box), *givens]


@cache
def rules(box: int) -> tuple[list[int], ...]:
    """The clauses every puzzle of a box size shares, written once per process (var(c, v) = c*n + v)."""
    geo = geometry(box)
    n = geo.side

    def var(cell: int, value: int) -> int:
        return cell * n + value

    clauses: list[list[int]] = []
    # Each cell holds at least one and at most one value.
    for c in range(geo.cells):
        clauses.append([var(c, v) for v in range(1, n + 1)])
        clauses.extend([-var(c, a), -var(c, b)] for a, b in combinations(range(1, n + 1), 2))
    # Each value appears at least once and at most once in each unit.
    for unit in geo.units:
        for v in range(1, n + 1):
            clauses.append([var(c, v) for c in unit])
            clauses.extend([-var(a, v), -var(b, v)] for a, b in combinations(unit, 2))
    return tuple(clauses)


def decode(grid: Grid, model: list[int]) -> Grid:
    n = grid.side
    values = [0] * grid.geometry.cells
    for lit in model:
        if lit > 0:
            cell, value = divmod(lit - 1, n)
            values[cell] = value + 1
    return grid.with_values(values)


def _search(sat: Solver, name: str, deadline: float, conflict_limit: float) -> tuple[bool | None, str]:
    """One satisfiability call within the budget: (answer, why it stopped if None)."""
    if deadline == float("inf") and conflict_limit == float("inf"):
        return sat.solve(), ""
    while True:
        left = remaining(deadline)
        used = sat.accum_stats().get("conflicts", 0)
        conflicts_left = conflict_limit - used
        if left <= 0:
            return None, GaveUp.TIME
        if conflicts_left <= 0:
            return None, GaveUp.NODES
        timed = left != float("inf")
        slice_ = min(conflicts_left, MAX_COUNT)
        if timed and name in _NO_INTERRUPT:
            slice_ = min(slice_, SLICE_CONFLICTS)
        if slice_ != float("inf"):
            sat.conf_budget(int(slice_))
        else:
            sat.conf_budget(-1)  # no conflict limit on this call
        timer = None
        if timed and name not in _NO_INTERRUPT:
            timer = threading.Timer(min(left, MAX_SECONDS), sat.interrupt)
            timer.start()
        try:
            answer = sat.solve_limited(expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                sat.clear_interrupt()
        if answer is not None:
            return answer, ""
        if timer is not None:  # interrupted by the clock, or the conflict budget ran out
            return None, GaveUp.TIME if remaining(deadline) <= 0 else GaveUp.NODES


def honours(opts: dict[str, Any], budget: Budget) -> None:
    """OptionError when the chosen solver cannot keep to the budget: refused before any solve."""
    name = str(opts["solver"])
    if name in _NO_LIMITS and (budget.deadline(0.0) != float("inf") or budget.node_limit != float("inf")):
        raise OptionError(f"solver={name} cannot be stopped by a budget (PySAT has no limited solve for it)")
    if name in _NO_CONFLICT_BUDGET and budget.nodes is not None:
        raise OptionError(f"solver={name} does not keep to a conflict budget, so a node budget cannot bind it")


@contract("sat", OPTIONS, honours)
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The CNF on a PySAT solver; with solutions=2, again with a blocking clause."""
    name = str(opts["solver"])
    nvars, clauses = encode(grid)
    info: dict[str, object] = {"solver": name, "variables": nvars, "clauses": len(clauses)}
    deadline = budget.deadline(started)
    found: Grid | None = None
    solver_seconds = 0.0
    with Solver(name=name, bootstrap_with=clauses) as sat:
        info["build_seconds"] = time.perf_counter() - started

        def effort() -> dict[str, int]:
            stats = sat.accum_stats()
            return {k: int(stats.get(k, 0)) for k in COUNTERS}

        for attempt in range(solutions):
            t = time.perf_counter()
            answer, reason = _search(sat, name, deadline, budget.node_limit)
            solver_seconds += time.perf_counter() - t
            info["solver_seconds"] = solver_seconds
            info["solves"] = attempt + 1
            if answer is None:
                return gave_up(reason, started, effort(), info, found)
            if not answer:  # no solution, or none other than `found`
                return finished(started, effort(), info, found, unique=True)
            if found is not None:  # a second solution, different by the blocking clause
                return finished(started, effort(), info, found, unique=False)
            found = decode(grid, sat.get_model())
            if solutions == 2:
                blanks = grid.empty_cells()
                if not blanks:  # a full grid: nothing else can differ
                    return finished(started, effort(), info, found, unique=True)
                # Blocking clause: some blank cell must take another value.
                n = grid.side
                sat.add_clause([-(c * n + found.values[c]) for c in blanks])
        return finished(started, effort(), info, found)


METHOD = Method(solve, "CNF (one Boolean per cell-value, pairwise at-most-one) solved by PySAT, "
                "CaDiCaL by default", describe(OPTIONS), COUNTERS,
                guess_measure=("decisions", 0))
