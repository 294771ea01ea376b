"""Sudoku as a CP-SAT model (OR-Tools), in two formulations.

- integer: one integer variable per cell, domain 1..n (a given's domain is its
  value), AllDifferent per row, column and box.
- boolean: one Boolean per (cell, value); exactly one value per cell and each
  value exactly once per unit (the exact-cover view); givens fixed to 1.

Budgets: the time limit maps to max_time_in_seconds. CP-SAT has no branch
limit, so the node budget maps to max_number_of_conflicts, the closest search
limit it has (a conflict closes a branch of the search tree).
"""
from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from puzzles.grid import Grid
from puzzles.options import Option, contract, describe, switch, whole
from puzzles.outcome import Budget, GaveUp, Method, Outcome, Status

from ._outcomes import MAX_COUNT, MAX_SECONDS, finished, gave_up, remaining

MODELS = ("integer", "boolean")
DEFAULT_SEED = 1

OPTIONS = {
    "model": Option("integer", "integer: AllDifferent over int vars; boolean: exactly-one over 0-1 vars", MODELS),
    "presolve": switch(True, "CP-SAT presolve, which settles most 9x9 puzzles alone"),
    "workers": Option(1, "1 (deterministic) to 64: more is a parallel portfolio, not reproducible",
                      convert=whole(1, 64)),
    "seed": Option(DEFAULT_SEED, "CP-SAT's random seed, 0..2^31-1", convert=whole(0, 2**31 - 1)),
}
COUNTERS = ("branches", "conflicts", "propagations", "integer_propagations")


class SudokuModel:
    """A CP-SAT model of one puzzle and how to read a grid back from a solution."""

    def __init__(self, grid: Grid, kind: str = "integer") -> None:
        self.grid, self.kind = grid, kind
        self.model = cp_model.CpModel()
        geo, n = grid.geometry, grid.side
        m = self.model
        if kind == "integer":
            # Variables: a given's domain is its value, so it needs no constraint.
            self.cell = [
                m.new_int_var(v or 1, v or n, f"cell_{c // n + 1}_{c % n + 1}")
                for c, v in enumerate(grid.values)
            ]
            # Constraints: each row, column and box holds n different values.
            for unit in geo.units:
                m.add_all_different(self.cell[c] for c in unit)
        elif kind == "boolean":
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
            raise ValueError(f"unknown CP-SAT model {kind!r}")

    @property
    def size(self) -> dict[str, int]:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}

    def read(self, solver: cp_model.CpSolver) -> Grid:
        n = self.grid.side
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


def _effort_of(solver: cp_model.CpSolver) -> dict[str, int]:
    response = solver.response_proto
    return {
        "branches": int(solver.num_branches),
        "conflicts": int(solver.num_conflicts),
        "propagations": int(response.num_binary_propagations),
        "integer_propagations": int(response.num_integer_propagations),
    }


@contract("cpsat", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """CP-SAT on the integer or the Boolean model; with solutions=2, again with the first excluded."""
    sudoku = SudokuModel(grid, str(opts["model"]))
    info: dict[str, object] = {"model": opts["model"], "presolve": opts["presolve"], **sudoku.size}
    info["build_seconds"] = time.perf_counter() - started
    deadline = budget.deadline(started)
    effort = {k: 0 for k in COUNTERS}
    solver_seconds = deterministic_time = 0.0
    found: Grid | None = None

    for attempt in range(solutions):
        left = remaining(deadline)
        conflicts_left = None if budget.nodes is None else budget.nodes - effort["conflicts"]
        if left <= 0 or (conflicts_left is not None and conflicts_left <= 0 and attempt):
            return gave_up(GaveUp.TIME if left <= 0 else GaveUp.NODES, started, effort, info, found)
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = int(opts["workers"])
        p.random_seed = int(opts["seed"])
        p.cp_model_presolve = bool(opts["presolve"])
        if left != float("inf"):
            p.max_time_in_seconds = min(left, MAX_SECONDS)
        if conflicts_left is not None:
            p.max_number_of_conflicts = min(conflicts_left, MAX_COUNT)
        status = solver.solve(sudoku.model)
        solver_seconds += solver.wall_time
        # Deterministic time: CP-SAT's own work measure, steady on a noisy machine.
        deterministic_time += solver.response_proto.deterministic_time
        info["deterministic_time"] = deterministic_time
        for k, v in _effort_of(solver).items():
            effort[k] += v
        info["solver_seconds"] = solver_seconds
        info["solves"] = attempt + 1

        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if found is not None:  # a second, different solution
                return finished(started, effort, info, found, unique=False)
            found = sudoku.read(solver)
            if solutions == 2:
                sudoku.exclude(found)
            continue
        if status == cp_model.INFEASIBLE:  # no solution, or none other than `found`
            return finished(started, effort, info, found, unique=True)
        if status == cp_model.MODEL_INVALID:
            return Outcome(Status.ERROR, found, effort, time.perf_counter() - started, None,
                           f"CP-SAT: invalid model: {sudoku.model.validate()}", info)
        # UNKNOWN: a limit was reached before an answer.
        hit_nodes = budget.nodes is not None and effort["conflicts"] >= budget.nodes
        return gave_up(GaveUp.NODES if hit_nodes else GaveUp.TIME, started, effort, info, found)

    return finished(started, effort, info, found)


METHOD = Method(solve, "OR-Tools CP-SAT: AllDifferent (integer) or exactly-one (boolean) model",
                describe(OPTIONS), COUNTERS,
                guess_measure=("branches", 0))
