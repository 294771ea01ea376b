"""Sudoku as a 0-1 integer program, solved through OR-Tools' pywraplp.

x[c, v] = 1 when cell c holds value v. One equality per cell (one value),
per row-value, column-value and box-value (each value once per unit); a
given fixes its variable's lower bound to 1; no objective (a feasibility
problem). SCIP by default, HiGHS or CBC as options.

Beside the MIP, the LP relaxation (the same model with 0 <= x <= 1) is solved
once with GLOP to show whether the root relaxation is already integral: for
many Sudokus the constraints alone force a 0-1 vertex.
"""
from __future__ import annotations

import time
from typing import Any

from ortools.linear_solver import pywraplp

from puzzles.grid import Grid
from puzzles.options import Option, OptionError, contract, describe, switch
from puzzles.outcome import Budget, GaveUp, Method, Outcome, Status, error

from ._outcomes import MAX_COUNT, MAX_SECONDS, finished, gave_up, remaining

BACKENDS = {"scip": "SCIP", "highs": "HIGHS", "cbc": "CBC"}
# Node limits in the backend's own parameter language: only SCIP takes one
# reliably through pywraplp (HiGHS refuses the parameter string, CBC has none).
_NODE_LIMIT = {"scip": "limits/nodes = {}"}

OPTIONS = {
    "backend": Option("scip", "the MIP solver behind pywraplp (SCIP reports nodes and LP iterations; "
                      "HiGHS and CBC report little through it)", tuple(BACKENDS)),
    "root_lp": switch(True, "also solve the LP relaxation (GLOP) and report whether it is integral"),
    "presolve": switch(True, "the backend's presolve, which settles most 9x9 puzzles before any LP"),
}
COUNTERS = ("nodes", "iterations")
_EPS = 1e-6


class SudokuMip:
    """The 0-1 model of one puzzle inside a pywraplp solver (MIP or, relaxed, LP)."""

    def __init__(self, grid: Grid, solver: pywraplp.Solver, relaxed: bool = False) -> None:
        self.grid, self.solver = grid, solver
        geo, n = grid.geometry, grid.side
        new_var = solver.NumVar if relaxed else solver.IntVar
        # Variables: x[c][v-1] in {0, 1} (or [0, 1] relaxed); a given's is fixed to 1.
        self.x = [
            [new_var(1 if grid.values[c] == v else 0, 1, f"x_{c // n + 1}_{c % n + 1}_{v}")
             for v in range(1, n + 1)]
            for c in range(geo.cells)
        ]
        # Constraints: one value per cell, each value once per row, column, box.
        for c in range(geo.cells):
            self._exactly_one(self.x[c], f"cell_{c // n + 1}_{c % n + 1}")
        for name, unit in zip(geo.unit_names, geo.units, strict=True):
            for v in range(n):
                self._exactly_one([self.x[c][v] for c in unit], f"{name.replace(' ', '_')}_value_{v + 1}")
        # No objective: any feasible point is a solution.

    def _exactly_one(self, xs: list[pywraplp.Variable], name: str) -> None:
        # sum(xs) == 1, built coefficient by coefficient: much faster than
        # summing pywraplp expressions in Python, and the same row.
        row = self.solver.Constraint(1, 1, name)
        for x in xs:
            row.SetCoefficient(x, 1)

    def read(self) -> Grid:
        n = self.grid.side
        return self.grid.with_values(
            [max(range(n), key=lambda v: row[v].solution_value()) + 1 for row in self.x]
        )

    def integral(self) -> bool:
        return all(min(x.solution_value(), 1 - x.solution_value()) < _EPS for row in self.x for x in row)

    def exclude(self, solution: Grid) -> None:
        """A no-good cut: at least one blank cell must leave the found value."""
        blanks = self.grid.empty_cells()
        self.solver.Add(sum(self.x[c][solution.values[c] - 1] for c in blanks) <= len(blanks) - 1, "no_good")


def make_solver(backend: str) -> pywraplp.Solver:
    solver = pywraplp.Solver.CreateSolver(BACKENDS[backend])
    if solver is None:
        raise RuntimeError(f"the MIP backend {backend} is not available in this OR-Tools build")
    return solver


def root_lp(grid: Grid, seconds: float = float("inf")) -> dict[str, object]:
    """Solve the LP relaxation once and say whether its optimum vertex is 0-1."""
    t = time.perf_counter()
    lp = pywraplp.Solver.CreateSolver("GLOP")
    relaxed = SudokuMip(grid, lp, relaxed=True)
    if seconds != float("inf"):
        lp.SetTimeLimit(max(1, int(min(seconds, MAX_SECONDS) * 1000)))
    status = lp.Solve()
    facts: dict[str, object] = {"root_lp_iterations": int(lp.iterations())}
    if status == pywraplp.Solver.OPTIMAL:
        facts["root_lp_integral"] = relaxed.integral()
        facts["root_lp_fractional_vars"] = sum(
            1 for row in relaxed.x for x in row if min(x.solution_value(), 1 - x.solution_value()) >= _EPS)
    elif status == pywraplp.Solver.INFEASIBLE:
        facts["root_lp_integral"] = None
        facts["root_lp_infeasible"] = True
    facts["root_lp_seconds"] = time.perf_counter() - t
    return facts


def honours(opts: dict[str, Any], budget: Budget) -> None:
    """OptionError for a backend that cannot do what is asked: refused before any solve."""
    backend = str(opts["backend"])
    if budget.nodes is not None and backend not in _NODE_LIMIT:
        raise OptionError(f"the {backend} backend takes no node limit through pywraplp; use scip with a node budget")
    if backend == "cbc" and not opts["presolve"]:  # CBC refuses the presolve switch altogether
        raise OptionError("the cbc backend takes no presolve switch through pywraplp; "
                          "use scip or highs with presolve=off")


@contract("mip", OPTIONS, honours)
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The 0-1 program on a pywraplp backend; with solutions=2, again with a no-good cut."""
    backend = str(opts["backend"])
    try:
        solver = make_solver(backend)
    except RuntimeError as exc:
        return error(f"mip: {exc}", started)
    solver.SetNumThreads(1)
    if backend == "highs":  # HiGHS prints a banner on stdout unless told not to
        solver.SetSolverSpecificParametersAsString("output_flag = false")
    model = SudokuMip(grid, solver)
    info: dict[str, object] = {
        "backend": backend,
        "variables": solver.NumVariables(),
        "constraints": solver.NumConstraints(),
        "build_seconds": time.perf_counter() - started,
    }
    params = pywraplp.MPSolverParameters()
    if not opts["presolve"]:  # left untouched when on: CBC refuses the switch (see honours)
        params.SetIntegerParam(params.PRESOLVE, params.PRESOLVE_OFF)
    info["presolve"] = opts["presolve"]
    deadline = budget.deadline(started)
    if opts["root_lp"] and remaining(deadline) > 0:
        info.update(root_lp(grid, remaining(deadline)))
    effort = {"nodes": 0, "iterations": 0}
    solver_seconds = 0.0
    found: Grid | None = None

    for attempt in range(solutions):
        left = remaining(deadline)
        nodes_left = None if budget.nodes is None else budget.nodes - effort["nodes"]
        if left <= 0:
            return gave_up(GaveUp.TIME, started, effort, info, found)
        if nodes_left is not None and nodes_left <= 0 and attempt:
            return gave_up(GaveUp.NODES, started, effort, info, found)
        if left != float("inf"):
            solver.SetTimeLimit(max(1, int(min(left, MAX_SECONDS) * 1000)))
        if nodes_left is not None:
            solver.SetSolverSpecificParametersAsString(_NODE_LIMIT[backend].format(min(max(nodes_left, 0), MAX_COUNT)))
        t = time.perf_counter()
        status = solver.Solve(params)
        solver_seconds += time.perf_counter() - t
        effort["nodes"] += int(solver.nodes())
        effort["iterations"] += int(solver.iterations())
        info["solver_seconds"] = solver_seconds
        info["solves"] = attempt + 1

        if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            if found is not None:  # a second solution, different by the no-good cut
                return finished(started, effort, info, found, unique=False)
            found = model.read()
            if solutions == 2:
                if not grid.empty_cells():  # a full grid: nothing else can differ
                    return finished(started, effort, info, found, unique=True)
                model.exclude(found)
            continue
        if status == pywraplp.Solver.INFEASIBLE:  # no solution, or none other than `found`
            return finished(started, effort, info, found, unique=True)
        # NOT_SOLVED / ABNORMAL: a limit stopped it (or the backend failed).
        hit_nodes = budget.nodes is not None and effort["nodes"] >= budget.nodes
        if not hit_nodes and remaining(deadline) > 0 and status == pywraplp.Solver.ABNORMAL:
            return Outcome(Status.ERROR, found, effort, time.perf_counter() - started, None,
                           f"mip: {backend} stopped abnormally", info)
        return gave_up(GaveUp.NODES if hit_nodes else GaveUp.TIME, started, effort, info, found)

    return finished(started, effort, info, found)


METHOD = Method(solve, "0-1 integer program (x[cell,value], equalities per cell and unit-value) "
                "via OR-Tools pywraplp", describe(OPTIONS), COUNTERS,
                guess_measure=("nodes", 1))  # SCIP counts the root as node 1: no branching
