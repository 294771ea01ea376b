"""The `sat` method: Sudoku as CNF (formulations.cnf), solved with PySAT (package python-sat) on a solver of
formulations.pysat_solvers.

The `encoding` is a rung of the inference ladder (formulations.cnf says what unit propagation places in each);
`search=off` stops there; `probe=on` adds failed-literal probing. `incremental=on` keeps one solver per process
with the givens as assumptions, as tdoku's benchmark does; else each puzzle has a fresh solver (the default, so
that runs stay independent). `guesses` counts the decisions that were real choices (FREE_DECISIONS). A puzzle's
constraints are clauses by their kinds' encoders, and the options those read are this method's too: a Killer's
cage sums in the encoding `sums` names, and `redundant=45` adds the 45 rule's. The same CNF is
written as DIMACS by formulations.export. formulations.driver runs the solve.

Budgets: the node budget maps to a conflict budget (a conflict closes a branch).
The time budget interrupts the solver from a timer thread where the solver
supports it; PySAT's CaDiCaL bindings do not, so for CaDiCaL the search runs in
slices of conflicts with the clock read between slices (the learnt clauses are
kept, so a slice goes on from where the last stopped, after a restart).
"""
from __future__ import annotations

import threading
import time
from typing import Any

from pysat.solvers import Solver

from puzzles.grid import Grid
from puzzles.options import Option, OptionError, contract, describe, switch
from puzzles.outcome import Budget, GaveUp, Method, Outcome, Status

from .cnf import ENCODINGS, decode, givens, layout_clauses, layout_facts, sizes, var, variables
from .constraints import options_of
from .constraints.sat import ENCODERS
from .driver import FOUND, MAX_COUNT, MAX_SECONDS, NONE, Allowance, Answer, Model, drive
from .pysat_solvers import (
    ASSUMPTIONS_DECIDED,
    BACKENDS,
    DEFAULT_SOLVER,
    FREE_DECISIONS,
    NO_CONFLICT_BUDGET,
    NO_INTERRUPT,
    NO_LIMITS,
    NO_PROPAGATE,
    deleted,
    kept,
    new_solver,
)

SLICE_CONFLICTS = 2000

OPTIONS = {
    "solver": Option(DEFAULT_SOLVER, "the PySAT solver", BACKENDS),
    "encoding": Option("complete", "the CNF: minimal, natural (+ at most one value per cell), complete "
                       "(exactly one per cell and per unit-value), augmented (units over box-line triads)",
                       ENCODINGS),
    "search": switch(True, "off: unit propagation only, no decision: solved, refuted, or stuck"),
    "probe": switch(False, "failed-literal probing of every open cell-value, to a fixpoint, before search"),
    "incremental": switch(False, "one solver per process and encoding, kept across puzzles, the givens as "
                          "assumptions (learnt clauses carry over, as in tdoku's benchmark)"),
    **options_of(ENCODERS),  # the kinds' own (a Killer cage's sums and redundant)
}
COUNTERS = ("guesses", "decisions", "conflicts", "propagations", "restarts")
_STATS = COUNTERS[1:]


class SatFormulation(Model):
    """One puzzle on a solver: its facts (givens, and cell-values ruled out by probing), its counters.

    On a fresh solver the facts become unit clauses before search; on a kept one they stay
    assumptions, and a blocking clause is switched on by a selector variable that is retired
    afterwards, so that the solver is left as it was, learnt clauses aside, for the next puzzle.
    """

    node_counter = "conflicts"  # a conflict closes a branch

    def __init__(self, grid: Grid, opts: dict[str, Any]) -> None:
        self.grid, self.opts = grid, opts
        self.name, encoding = str(opts["solver"]), str(opts["encoding"])
        lay = grid.layout
        self.info: dict[str, object] = {"solver": self.name, "encoding": encoding,
                                        "variables": variables(lay, encoding, opts),
                                        "clauses": len(layout_clauses(lay, encoding, opts)) + grid.givens}
        self.info.update(sizes(lay, encoding, opts))  # what the constraints add (a Killer's sums and cages)
        self.kept = kept(self.name, encoding, lay, bool(opts["search"]), opts) if opts["incremental"] else None
        self.sat = self.kept.sat if self.kept is not None else new_solver(self.name, encoding, lay, opts)
        self.cell_values = grid.geometry.cells * grid.side
        self.facts = [*layout_facts(lay, encoding, opts), *givens(grid)]
        self.assumptions: list[int] = []
        self.selectors: list[int] = []
        self.base = self._stats()
        self.models = 0
        self.probes = self.failed = 0
        self.searching = False
        self.propagated: Grid | None = None

    def _stats(self) -> dict[str, int]:
        stats = self.sat.accum_stats()
        return {key: int(stats.get(key, 0)) for key in _STATS}

    def effort(self) -> dict[str, int]:
        stats = self._stats()
        counts = {key: stats[key] - self.base[key] for key in _STATS}
        return {"guesses": counts["decisions"] - FREE_DECISIONS[self.name] * self.models, **counts}

    def propagate(self) -> tuple[bool, list[int]]:
        """Unit propagation of the facts alone: (no conflict, every literal it sets)."""
        ok, implied = self.sat.propagate(assumptions=self.facts)
        return bool(ok), list(implied)

    def prepare(self, allowance: Allowance) -> Answer | None:
        """With probe=on, failed-literal probing before search: it may refute the puzzle, or run out of time."""
        if not self.opts["probe"]:
            return None
        stop = self.probe(time.perf_counter() + allowance.seconds)
        self.info.update(probes=self.probes, probe_failed=self.failed)
        if stop == "refuted":
            return NONE
        return Answer(Status.GAVE_UP, stop) if stop else None

    def probe(self, deadline: float) -> str:
        """Failed-literal probing to a fixpoint: a cell-value whose placement propagation refutes is
        ruled out (a new fact), until a round over the open ones rules out nothing.
        "" when done, "refuted" when the facts themselves fail, or GaveUp.TIME."""
        while True:
            ok, implied = self.propagate()
            if not ok:
                return "refuted"
            settled = {abs(lit) for lit in implied}
            ruled_out = False
            for x in range(1, self.cell_values + 1):
                if x in settled:
                    continue
                if time.perf_counter() >= deadline:
                    return GaveUp.TIME
                self.probes += 1
                if not self.sat.propagate(assumptions=[*self.facts, x])[0]:
                    self.failed += 1
                    self.facts.append(-x)
                    ruled_out = True
                    ok, implied = self.propagate()
                    if not ok:
                        return "refuted"
                    settled = {abs(lit) for lit in implied}
            if not ruled_out:
                return ""

    def solve_once(self, allowance: Allowance) -> Answer:
        if not self.opts["search"]:
            return self.propagate_only()
        if not self.searching:  # the facts go in once, before the first search
            self.searching = True
            if self.kept is None:
                self.sat.append_formula([[lit] for lit in self.facts])
            else:
                self.assumptions = list(self.facts)
        answer, reason = _search(self.sat, self.name, time.perf_counter() + allowance.seconds, allowance.nodes,
                                 self.assumptions)
        if answer is None:
            return Answer(Status.GAVE_UP, reason)
        self.models += answer
        return FOUND if answer else NONE

    def propagate_only(self) -> Answer:
        """search=off: unit propagation alone: solved (then forced, so unique), refuted, or stuck."""
        ok, implied = self.propagate()
        if not ok:
            return NONE
        self.info["unassigned"] = self.cell_values - sum(1 for lit in implied if abs(lit) <= self.cell_values)
        self.propagated = decode(self.grid, implied)
        if self.propagated.is_full():
            return Answer(Status.SOLVED, forced=True)
        return Answer(Status.GAVE_UP, GaveUp.INCOMPLETE)

    def read(self) -> Grid:
        return self.propagated if self.propagated is not None else decode(self.grid, self.sat.get_model())

    def exclude(self, solution: Grid) -> None:
        """A blocking clause: some blank cell must take another value (for this puzzle only, on a kept solver)."""
        n = self.grid.side
        clause = [-var(c, solution.values[c], n) for c in self.grid.empty_cells()]
        if self.kept is None:
            self.sat.add_clause(clause)
            return
        selector = self.kept.switchable(clause)
        self.selectors.append(selector)
        self.assumptions.append(selector)

    def close(self) -> None:
        if self.kept is None:
            deleted(self.sat)
        else:
            self.kept.retire(self.selectors)  # this puzzle's blocking clauses


def _search(sat: Solver, name: str, deadline: float, conflict_limit: float,
            assumptions: list[int]) -> tuple[bool | None, str]:
    """One satisfiability call within the budget: (answer, why it stopped if None)."""
    if deadline == float("inf") and conflict_limit == float("inf"):
        return sat.solve(assumptions=assumptions), ""
    used_before = sat.accum_stats().get("conflicts", 0)
    while True:
        left = deadline - time.perf_counter()
        conflicts_left = conflict_limit - (sat.accum_stats().get("conflicts", 0) - used_before)
        if left <= 0:
            return None, GaveUp.TIME
        if conflicts_left <= 0:
            return None, GaveUp.NODES
        timed = left != float("inf")
        slice_ = min(conflicts_left, MAX_COUNT)
        if timed and name in NO_INTERRUPT:
            slice_ = min(slice_, SLICE_CONFLICTS)
        if slice_ != float("inf"):
            sat.conf_budget(int(slice_))
        else:
            sat.conf_budget(-1)  # no conflict limit on this call
        timer = None
        if timed and name not in NO_INTERRUPT:
            timer = threading.Timer(min(left, MAX_SECONDS), sat.interrupt)
            timer.start()
        try:
            answer = sat.solve_limited(assumptions=assumptions, expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                sat.clear_interrupt()
        if answer is not None:
            return answer, ""
        if timer is not None:  # interrupted by the clock, or the conflict budget ran out
            return None, GaveUp.TIME if time.perf_counter() >= deadline else GaveUp.NODES


def honours(opts: dict[str, Any], budget: Budget) -> None:
    """OptionError when the chosen solver cannot do what the options ask, or keep to the budget."""
    name = str(opts["solver"])
    if name in NO_PROPAGATE and (not opts["search"] or opts["probe"]):
        raise OptionError(f"solver={name} cannot propagate without search (PySAT has no propagate for it), "
                          "so neither search=off nor probe=on")
    if name in ASSUMPTIONS_DECIDED and opts["incremental"]:
        raise OptionError(f"solver={name} counts the givens as decisions when they are assumptions, "
                          "so incremental=on could not tell its guesses")
    if name in NO_LIMITS and (budget.deadline(0.0) != float("inf") or budget.node_limit != float("inf")):
        raise OptionError(f"solver={name} cannot be stopped by a budget (PySAT has no limited solve for it)")
    if name in NO_CONFLICT_BUDGET and budget.nodes is not None:
        raise OptionError(f"solver={name} does not keep to a conflict budget, so a node budget cannot bind it")


# -- solve: the model on its solver, driven -------------------------------------------------------

@contract("sat", OPTIONS, honours, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The CNF on a PySAT solver; with solutions=2, again with a blocking clause."""
    return drive(lambda: SatFormulation(grid, opts), grid, budget, solutions, started)


METHOD = Method(solve, "CNF (one Boolean per cell-value, pairwise at-most-one; four encodings) solved by PySAT, "
                "MiniSat by default", describe(OPTIONS), COUNTERS, guess_measure=("guesses", 0))
