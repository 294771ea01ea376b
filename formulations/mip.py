"""Sudoku as a 0-1 integer program, solved through OR-Tools' pywraplp.

x[c, v] = 1 when cell c holds value v. One equality per cell (one value),
per house and value (each value once in each row, column, region and extra house); a
given fixes its variable's lower bound to 1; no objective (a feasibility
problem). SCIP by default, HiGHS or CBC as options.

A puzzle's constraints (puzzles/constraints/), Killer cages among them, are rows by their kinds' encoders
(formulations/constraints/mip.py): x[a, v] + x[b, w] <= 1 for each pair of values a rule forbids, for values that
rise along a line sum(v * x[a, v]) + 1 <= sum(v * x[b, v]), a cage's sum as one equality and at most one of its
cells each value (and, with its option `redundant=45`, which this method takes, the 45 rule's sums). Without
constraints the program is the classic one, row for row.

Beside the MIP, the LP relaxation (the same model with 0 <= x <= 1) is solved
once with GLOP to show whether the root relaxation is already integral: for
many Sudokus the constraints alone force a 0-1 vertex.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ortools.linear_solver import pywraplp

from puzzles.grid import Grid, geometry
from puzzles.options import Option, OptionError, contract, describe, switch
from puzzles.outcome import Budget, Method, Outcome, Status, error

from .constraints import options_of
from .constraints.mip import ENCODERS, MipCells, encode
from .driver import FOUND, MAX_SECONDS, NONE, STOPPED, Allowance, Answer, Model, drive

BACKENDS = {"scip": "SCIP", "highs": "HIGHS", "cbc": "CBC"}
# Node limits in the backend's own parameter language: only SCIP takes one
# reliably through pywraplp (HiGHS refuses the parameter string, CBC has none).
_NODE_LIMIT = {"scip": "limits/nodes = {}"}

OPTIONS = {
    "backend": Option("scip", "the MIP solver behind pywraplp (SCIP reports nodes and LP iterations; "
                      "HiGHS and CBC report little through it)", tuple(BACKENDS)),
    "root_lp": switch(True, "also solve the LP relaxation (GLOP) and report whether it is integral"),
    "presolve": switch(True, "the backend's presolve, which settles most 9x9 puzzles before any LP"),
    **options_of(ENCODERS),  # the kinds' own (a Killer cage's redundant)
}
COUNTERS = ("nodes", "iterations")
_EPS = 1e-6


class SudokuMip:
    """The 0-1 model of one puzzle inside a pywraplp solver (MIP or, relaxed, LP)."""

    def __init__(self, grid: Grid, solver: pywraplp.Solver, relaxed: bool = False,
                 options: Mapping[str, Any] | None = None) -> None:
        """`options`: the method's, of which the constraints' encoders read theirs (their defaults when absent)."""
        self.grid, self.solver = grid, solver
        geo, n = grid.geometry, grid.side
        new_var = solver.NumVar if relaxed else solver.IntVar
        # Variables: x[c][v-1] in {0, 1} (or [0, 1] relaxed); a given's is fixed to 1.
        self.x = [
            [new_var(1 if grid.values[c] == v else 0, 1, f"x_{c // n + 1}_{c % n + 1}_{v}")
             for v in range(1, n + 1)]
            for c in range(geo.cells)
        ]
        # Constraints: one value per cell, each value once per house.
        for c in range(geo.cells):
            self._exactly_one(self.x[c], f"cell_{c // n + 1}_{c % n + 1}")
        for name, unit in zip(geo.unit_names, geo.units, strict=True):
            for v in range(n):
                self._exactly_one([self.x[c][v] for c in unit], f"{name.replace(' ', '_')}_value_{v + 1}")
        self.facts: dict[str, object] = {}  # what the constraints' encoders tell, for info
        if grid.layout.constraints:
            self.facts = encode(grid.layout.constraints,
                                MipCells(solver, self.x, n, geometry(grid.layout.houses).peers, grid.layout), options)
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


class Unavailable(RuntimeError):
    """The backend is missing from this OR-Tools build."""


def make_solver(backend: str) -> pywraplp.Solver:
    solver = pywraplp.Solver.CreateSolver(BACKENDS[backend])
    if solver is None:
        raise Unavailable(f"the MIP backend {backend} is not available in this OR-Tools build")
    return solver


def root_lp(grid: Grid, seconds: float = float("inf"), options: Mapping[str, Any] | None = None) -> dict[str, object]:
    """Solve the LP relaxation once (of the same rows, with the constraints' `options`: a Killer's redundant=45,
    the derived sums too) and say whether its optimum vertex is 0-1."""
    t = time.perf_counter()
    lp = pywraplp.Solver.CreateSolver("GLOP")
    relaxed = SudokuMip(grid, lp, relaxed=True, options=options)
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


class MipFormulation(Model):
    """The 0-1 program of one puzzle on a pywraplp backend, solved once at a time (and its root LP first)."""

    def __init__(self, grid: Grid, opts: dict[str, Any]) -> None:
        self.grid, self.backend, self.opts = grid, str(opts["backend"]), opts
        self.solver = solver = make_solver(self.backend)
        solver.SetNumThreads(1)
        if self.backend == "highs":  # HiGHS prints a banner on stdout unless told not to
            solver.SetSolverSpecificParametersAsString("output_flag = false")
        self.model = SudokuMip(grid, solver, options=opts)
        self.params = pywraplp.MPSolverParameters()
        if not opts["presolve"]:  # left untouched when on: CBC refuses the switch (see honours)
            self.params.SetIntegerParam(self.params.PRESOLVE, self.params.PRESOLVE_OFF)
        self.info: dict[str, object] = {"backend": self.backend, "variables": solver.NumVariables(),
                                        "constraints": solver.NumConstraints(), "presolve": opts["presolve"]}
        self.info.update(self.model.facts)
        self.counts = {"nodes": 0, "iterations": 0}

    def prepare(self, allowance: Allowance) -> Answer | None:
        if self.opts["root_lp"]:
            self.info.update(root_lp(self.grid, allowance.seconds, self.opts))
        return None

    def solve_once(self, allowance: Allowance) -> Answer:
        solver = self.solver
        if allowance.timed:
            solver.SetTimeLimit(max(1, int(allowance.backend_seconds() * 1000)))
        if allowance.counted:
            solver.SetSolverSpecificParametersAsString(_NODE_LIMIT[self.backend].format(allowance.backend_count()))
        t = time.perf_counter()
        status = solver.Solve(self.params)
        nodes = int(solver.nodes())
        self.counts["nodes"] += nodes
        self.counts["iterations"] += int(solver.iterations())
        if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return FOUND
        if status == pywraplp.Solver.INFEASIBLE:  # no solution, or none other than those cut off
            return NONE
        # NOT_SOLVED / ABNORMAL: a limit stopped it, or the backend failed with budget left.
        within = nodes < allowance.nodes and time.perf_counter() - t < allowance.seconds
        if within and status == pywraplp.Solver.ABNORMAL:
            return Answer(Status.ERROR, f"mip: {self.backend} stopped abnormally")
        return STOPPED

    def read(self) -> Grid:
        return self.model.read()

    def exclude(self, solution: Grid) -> None:
        self.model.exclude(solution)

    def effort(self) -> dict[str, int]:
        return dict(self.counts)


@contract("mip", OPTIONS, honours, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The 0-1 program on a pywraplp backend; with solutions=2, again with a no-good cut."""
    try:
        return drive(lambda: MipFormulation(grid, opts), grid, budget, solutions, started)
    except Unavailable as exc:
        return error(f"mip: {exc}", started)


METHOD = Method(solve, "0-1 integer program (x[cell,value], equalities per cell and unit-value; a Killer "
                "cage's sum and at most one cell each value) via OR-Tools pywraplp", describe(OPTIONS), COUNTERS,
                guess_measure=("nodes", 1))  # SCIP counts the root as node 1: no branching
