"""Sudoku as a CP-SAT model (OR-Tools), in two formulations.

- integer: one integer variable per cell, domain 1..n (a given's domain is its
  value), AllDifferent per house (row, column, region, and a variant's
  diagonals, extra regions, disjoint groups).
- boolean: one Boolean per (cell, value); exactly one value per cell and each
  value exactly once per unit (the exact-cover view); givens fixed to 1.

Killer cages, on either model (a cell's value is its integer variable, or the
linear expression sum(v * x[c][v]) over its Booleans):

- sums=linear: the cage's sum as a linear equality and its cells all different
  (AllDifferent; at most one cell a value in the boolean model);
- sums=table: the cage's allowed tuples (every ordering of each combination of
  values that reaches its total), one AddAllowedAssignments, as Gecode's Kakuro
  example states a sum; a cage whose tuples would pass TABLE_ROWS, and a cage
  without a total, is stated as with sums=linear (its AllDifferent alone);
- redundant=45: the 45 rule's innie and outie sums (puzzles.cages.derived_sums)
  added as linear equalities the solver could do without.

A puzzle's constraints beyond houses and cages (puzzles/constraints/) are stated by their kinds' encoders
(formulations/constraints/cpsat.py): `!=` or `<` between integer cells, clauses over the Booleans. Without
cages and constraints the model is the classic one, constraint for constraint.

Every CP-SAT solver of the project is made by `cp_solver`, which leaves SIGINT to Python: by default CP-SAT
catches it (its catch_sigint_signal parameter) and returns UNKNOWN, so a Ctrl-C that lands in a solve run in
compare.py's own process (making a Killer for the fuzzer: making/certify.py) would be taken for a time-out.

Budgets: the time limit maps to max_time_in_seconds. CP-SAT has no branch
limit, so the node budget maps to max_number_of_conflicts, the closest search
limit it has (a conflict closes a branch of the search tree).
"""
from __future__ import annotations

from itertools import permutations
from math import factorial
from typing import Any

from ortools.sat.python import cp_model

from puzzles.cages import cage_combinations, derived_sums
from puzzles.constraints import uncaged
from puzzles.grid import Grid, geometry, values_of
from puzzles.layouts import Cage
from puzzles.options import Option, contract, describe, switch, whole
from puzzles.outcome import Budget, Method, Outcome, Status

from .constraints.cpsat import ENCODERS, CpCells, encode
from .driver import FOUND, NONE, STOPPED, Allowance, Answer, Model, drive

MODELS = ("integer", "boolean")
SUMS = ("linear", "table")
REDUNDANT = ("none", "45")
DEFAULT_SEED = 1
# A cage's table holds k! rows for each combination of its k values: a 9-cell cage of a 9x9 (45, one
# combination) would hold 362,880. Beyond this many rows the cage is stated linear, which says the same.
TABLE_ROWS = 50_000

OPTIONS = {
    "model": Option("integer", "integer: AllDifferent over int vars; boolean: exactly-one over 0-1 vars", MODELS),
    "sums": Option("linear", "a Killer cage as linear: sum == total and AllDifferent; table: its allowed "
                   "tuples (every ordering of each combination)", SUMS),
    "redundant": Option("none", "45: also the 45 rule's innie and outie sums of a Killer, as redundant linear "
                        "constraints", REDUNDANT),
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
        opts = opts or {name: option.default for name, option in OPTIONS.items()}
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
        if uncaged(grid.layout.constraints):  # (the cages: below, `_cages`)
            ints, bools = (self.cell, None) if self.kind == "integer" else (None, self.x)
            encode(uncaged(grid.layout.constraints), CpCells(m, n, ints, bools, geometry(grid.layout.houses).peers))
        cage_facts = self._cages(str(opts["sums"]), str(opts["redundant"])) if grid.layout.cages else {}
        proto = self.model.proto
        self.info: dict[str, object] = {"model": kind, "presolve": opts["presolve"],
                                        "variables": len(proto.variables), "constraints": len(proto.constraints)}
        self.info.update(cage_facts)
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.deterministic_time = 0.0
        self.solver = cp_solver()

    # Killer cages: only on a layout that has some, so a classic model is built as it always was.
    def value(self, c: int) -> cp_model.LinearExprT:
        """Cell c's value: its integer variable, or in the boolean model the sum of v * x[c][v]."""
        if self.kind == "integer":
            return self.cell[c]
        return cp_model.LinearExpr.weighted_sum(self.x[c], range(1, self.grid.side + 1))

    def _cages(self, sums: str, redundant: str) -> dict[str, object]:
        """State every cage (`sums`: linear or table) and, with redundant=45, the derived sums; the facts for
        info: how many cages, how many stated as tables and their rows, how many derived sums."""
        n, m = self.grid.side, self.model
        tables = rows = 0
        for cage in self.grid.layout.cages:
            size = table_rows(n, cage)
            if sums == "table" and cage.total is not None and size <= TABLE_ROWS:
                m.add_allowed_assignments([self.value(c) for c in cage.cells], allowed_tuples(n, cage))
                tables, rows = tables + 1, rows + size
                continue
            if cage.total is not None:
                m.add(sum(self.value(c) for c in cage.cells) == cage.total)
            self._all_different(cage.cells)
        facts: dict[str, object] = {"sums": sums, "redundant": redundant, "cages": len(self.grid.layout.cages)}
        if sums == "table":
            facts.update(table_cages=tables, table_rows=rows)
        if redundant == "45":
            derived = derived_sums(self.grid.layout)
            for fact in derived:
                m.add(sum(self.value(c) for c in fact.cells) == fact.total)
            facts["derived_sums"] = len(derived)
        return facts

    def _all_different(self, cells: tuple[int, ...]) -> None:
        """No value twice among `cells`: AllDifferent, or at most one cell a value in the boolean model."""
        if len(cells) < 2:
            return
        if self.kind == "integer":
            self.model.add_all_different(self.cell[c] for c in cells)
        else:
            for v in range(self.grid.side):
                self.model.add_at_most_one(self.x[c][v] for c in cells)

    # Solve: a fresh CpSolver per call, with what is left of the budget.
    def solve_once(self, allowance: Allowance) -> Answer:
        self.solver = solver = cp_solver()
        p = solver.parameters
        p.num_workers = int(self.opts["workers"])
        p.random_seed = int(self.opts["seed"])
        p.cp_model_presolve = bool(self.opts["presolve"])
        if allowance.timed:
            p.max_time_in_seconds = allowance.backend_seconds()
        if allowance.counted:
            p.max_number_of_conflicts = allowance.backend_count()
        status = solver.solve(self.model)
        response = solver.response_proto
        self.counts["branches"] += int(solver.num_branches)
        self.counts["conflicts"] += int(solver.num_conflicts)
        self.counts["propagations"] += int(response.num_binary_propagations)
        self.counts["integer_propagations"] += int(response.num_integer_propagations)
        # Deterministic time: CP-SAT's own work measure, steady on a noisy machine.
        self.deterministic_time += response.deterministic_time
        self.info["deterministic_time"] = self.deterministic_time
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return FOUND
        if status == cp_model.INFEASIBLE:
            return NONE
        if status == cp_model.MODEL_INVALID:
            return Answer(Status.ERROR, f"CP-SAT: invalid model: {self.model.validate()}")
        return STOPPED  # UNKNOWN: a limit was reached before an answer

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

    def effort(self) -> dict[str, int]:
        return dict(self.counts)


def cp_solver() -> cp_model.CpSolver:
    """A CP-SAT solver that leaves SIGINT to Python (the module's docstring says why): a Ctrl-C raises
    KeyboardInterrupt once the solve returns, not an UNKNOWN that looks like a time-out."""
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


def table_rows(side: int, cage: Cage) -> int:
    """How many rows a cage's table holds: k! orderings of each combination of its k values."""
    return len(cage_combinations(side, cage)) * factorial(len(cage.cells))


def allowed_tuples(side: int, cage: Cage) -> list[tuple[int, ...]]:
    """A cage's allowed tuples, in its cells' order: every ordering of each combination (puzzles.cages)."""
    return [order for mask in cage_combinations(side, cage) for order in permutations(values_of(mask))]


@contract("cpsat", OPTIONS, cages=True, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """CP-SAT on the integer or the Boolean model (Killer cages as sums or tables); with solutions=2, again with
    the first excluded."""
    return drive(lambda: SudokuModel(grid, str(opts["model"]), opts), grid, budget, solutions, started)


METHOD = Method(solve, "OR-Tools CP-SAT: AllDifferent (integer) or exactly-one (boolean) model; Killer cages as "
                "sums or tables",
                describe(OPTIONS), COUNTERS,
                guess_measure=("branches", 0))
