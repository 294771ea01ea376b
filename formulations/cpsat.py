"""Sudoku as a CP-SAT model (OR-Tools), in two formulations.

- integer: one integer variable per cell, domain 1..n (a given's domain is its
  value), AllDifferent per house (row, column, region, and a variant's
  diagonals, extra regions, disjoint groups).
- boolean: one Boolean per (cell, value); exactly one value per cell and each
  value exactly once per unit (the exact-cover view); givens fixed to 1.

A puzzle's constraints beyond houses (puzzles/constraints/), Killer cages among them, are stated by their kinds'
encoders (formulations/constraints/cpsat.py), on either model (a cell's value is its integer variable, or the
linear expression sum(v * x[c][v]) over its Booleans): `!=` or `<` between integer cells, clauses over the
Booleans, a cage's sum as linear or as a table (its options `sums` and `redundant`, which this method takes).
Without constraints the model is the classic one, constraint for constraint.

Every CP-SAT solver of the project is made by `cp_solver`, which leaves SIGINT to Python: by default CP-SAT
catches it (its catch_sigint_signal parameter) and returns UNKNOWN, so a Ctrl-C that lands in a solve run in
compare.py's own process (making a Killer for the fuzzer: making/certify.py) would be taken for a time-out.

Budgets: the time limit maps to max_time_in_seconds. CP-SAT has no branch
limit, so the node budget maps to max_number_of_conflicts, the closest search
limit it has (a conflict closes a branch of the search tree).
"""
from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from puzzles.grid import Grid, geometry
from puzzles.options import Option, contract, describe, parse, switch, whole
from puzzles.outcome import Budget, Method, Outcome, Status

from .constraints import options_of
from .constraints.cpsat import ENCODERS, CpCells, encode
from .driver import FOUND, NONE, STOPPED, Allowance, Answer, Model, drive

MODELS = ("integer", "boolean")
DEFAULT_SEED = 1

OPTIONS = {
    "model": Option("integer", "integer: AllDifferent over int vars; boolean: exactly-one over 0-1 vars", MODELS),
    **options_of(ENCODERS),  # the kinds' own (a Killer cage's sums and redundant), listed after the model
    "presolve": switch(True, "CP-SAT presolve, which settles most 9x9 puzzles alone"),
    "workers": Option(1, "1 (deterministic) to 64: more is a parallel portfolio, not reproducible",
                      convert=whole(1, 64)),
    "seed": Option(DEFAULT_SEED, "CP-SAT's random seed, 0..2^31-1", convert=whole(0, 2**31 - 1)),
}
COUNTERS = ("branches", "conflicts", "propagations", "integer_propagations")


class SudokuModel(Model):
    """A CP-SAT model of one puzzle, solved once at a time, and how to read a grid back from a solution."""

    node_counter = "conflicts"  # CP-SAT has no branch limit: a conflict closes a branch

    def __init__(self, grid: Grid, kind: str = "integer", opts: dict[str, Any] | None = None) -> None:
        opts = opts or parse(OPTIONS, {})  # the defaults
        self.grid, self.kind, self.opts = grid, kind, opts
        self.model = cp_model.CpModel()
        geo, n = grid.geometry, grid.side
        m = self.model
        if self.kind == "integer":
            # Variables: a given's domain is its value, so it needs no constraint.
            self.cell = [
                m.new_int_var(v or 1, v or n, f"cell_{c // n + 1}_{c % n + 1}")
                for c, v in enumerate(grid.values)
            ]
            # Constraints: each house holds n different values.
            for unit in geo.units:
                m.add_all_different(self.cell[c] for c in unit)
        elif self.kind == "boolean":
            # Variables: x[c][v-1] is true when cell c holds value v.
            self.x = [
                [m.new_bool_var(f"x_{c // n + 1}_{c % n + 1}_{v}") for v in range(1, n + 1)]
                for c in range(geo.cells)
            ]
            # Constraints: one value per cell, each value once per unit, givens set.
            for c in range(geo.cells):
                m.add_exactly_one(self.x[c])
            for unit in geo.units:
                for v in range(n):
                    m.add_exactly_one(self.x[c][v] for c in unit)
            for c, v in enumerate(grid.values):
                if v:
                    m.add(self.x[c][v - 1] == 1)
        else:
            raise ValueError(f"unknown CP-SAT model {self.kind!r}")
        facts: dict[str, object] = {}
        if grid.layout.constraints:
            ints, bools = (self.cell, None) if self.kind == "integer" else (None, self.x)
            facts = encode(grid.layout.constraints,
                           CpCells(m, n, ints, bools, geometry(grid.layout.houses).peers, grid.layout), opts)
        proto = self.model.proto
        self.info: dict[str, object] = {"model": kind, "presolve": opts["presolve"],
                                        "variables": len(proto.variables), "constraints": len(proto.constraints)}
        self.info.update(facts)
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.deterministic_time = 0.0
        self.solver = cp_solver()

    # Solve: a fresh CpSolver per call, with what is left of the budget.
    def fresh_solver(self, allowance: Allowance) -> cp_model.CpSolver:
        """The solver of the next solve (kept, for `read`): this model's workers, seed and presolve, the allowance
        as CP-SAT's limits."""
        self.solver = solver = cp_solver()
        p = solver.parameters
        p.num_workers = int(self.opts["workers"])
        p.random_seed = int(self.opts["seed"])
        p.cp_model_presolve = bool(self.opts["presolve"])
        if allowance.timed:
            p.max_time_in_seconds = allowance.backend_seconds()
        if allowance.counted:
            p.max_number_of_conflicts = allowance.backend_count()
        return solver

    def solve_once(self, allowance: Allowance) -> Answer:
        solver = self.fresh_solver(allowance)
        status = solver.solve(self.model)
        self.count_effort(solver)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return FOUND
        if status == cp_model.INFEASIBLE:
            return NONE
        if status == cp_model.MODEL_INVALID:
            return Answer(Status.ERROR, f"CP-SAT: invalid model: {self.model.validate()}")
        return STOPPED  # UNKNOWN: a limit was reached before an answer

    def solve_all(self, allowance: Allowance, limit: int) -> tuple[Answer, list[Grid]] | None:
        """CP-SAT's own enumeration (enumerate_all_solutions, which keeps presolve from removing solutions), a
        callback keeping each solution and stopping the search at `limit`. One worker alone enumerates: with more,
        None (the driver solves again with each solution excluded)."""
        if int(self.opts["workers"]) != 1:
            return None
        solver = self.fresh_solver(allowance)  # (one worker: said above)
        solver.parameters.enumerate_all_solutions = True
        listing = Listing(self, limit)
        status = solver.solve(self.model, listing)
        self.count_effort(solver)
        if status == cp_model.MODEL_INVALID:
            return Answer(Status.ERROR, f"CP-SAT: invalid model: {self.model.validate()}"), []
        if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):  # every solution listed (none: infeasible)
            return NONE, listing.found
        return (FOUND if len(listing.found) >= limit else STOPPED), listing.found

    # Read back.
    def read(self) -> Grid:
        n, solver = self.grid.side, self.solver
        if self.kind == "integer":
            values = [solver.value(v) for v in self.cell]
        else:
            values = [next(v + 1 for v in range(n) if solver.boolean_value(row[v])) for row in self.x]
        return self.grid.with_values(values)

    def exclude(self, solution: Grid) -> None:
        """Forbid `solution`: any other solution differs from it in a blank cell."""
        blanks = self.grid.empty_cells()
        m = self.model
        if self.kind == "integer":
            differs = []
            for c in blanks:
                d = m.new_bool_var(f"differs_{c}")
                m.add(self.cell[c] != solution.values[c]).only_enforce_if(d)
                differs.append(d)
            m.add_bool_or(differs)
        else:
            m.add_bool_or([~self.x[c][solution.values[c] - 1] for c in blanks])

    def count_effort(self, solver: cp_model.CpSolver) -> None:
        """The counters and CP-SAT's deterministic time, the last solve's added."""
        response = solver.response_proto
        self.counts["branches"] += int(solver.num_branches)
        self.counts["conflicts"] += int(solver.num_conflicts)
        self.counts["propagations"] += int(response.num_binary_propagations)
        self.counts["integer_propagations"] += int(response.num_integer_propagations)
        # Deterministic time: CP-SAT's own work measure, steady on a noisy machine.
        self.deterministic_time += response.deterministic_time
        self.info["deterministic_time"] = self.deterministic_time

    def effort(self) -> dict[str, int]:
        return dict(self.counts)


class Listing(cp_model.CpSolverSolutionCallback):
    """Each solution CP-SAT enumerates, read back as a grid, the search stopped at `limit` of them."""

    def __init__(self, model: SudokuModel, limit: int) -> None:
        super().__init__()
        self.model, self.limit = model, limit
        self.found: list[Grid] = []

    def on_solution_callback(self) -> None:
        m, n = self.model, self.model.grid.side
        if m.kind == "integer":
            values = [self.value(v) for v in m.cell]
        else:
            values = [next(v + 1 for v in range(n) if self.boolean_value(row[v])) for row in m.x]
        self.found.append(m.grid.with_values(values))
        if len(self.found) >= self.limit:
            self.stop_search()


def cp_solver() -> cp_model.CpSolver:
    """A CP-SAT solver that leaves SIGINT to Python (the module's docstring says why): a Ctrl-C raises
    KeyboardInterrupt once the solve returns, not an UNKNOWN that looks like a time-out."""
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


@contract("cpsat", OPTIONS, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """CP-SAT on the integer or the Boolean model (Killer cages as sums or tables); with solutions=2, again with
    the first excluded."""
    return drive(lambda: SudokuModel(grid, str(opts["model"]), opts), grid, budget, solutions, started)


METHOD = Method(solve, "OR-Tools CP-SAT: AllDifferent (integer) or exactly-one (boolean) model; Killer cages as "
                "sums or tables",
                describe(OPTIONS), COUNTERS,
                guess_measure=("branches", 0))
