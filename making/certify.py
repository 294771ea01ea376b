"""Uniqueness certified by SAT, for the generator and the fuzzer: many puzzles checked on one solver.

A puzzle whose solution S is known has another solution exactly when the rules, its givens and "not S" (a
clause: some cell differs from S) are satisfiable. So one solver holds the rules of the size, kept for the
process (formulations.pysat_solvers's `kept`), and each solution's "not S" is switched on by a selector while that
solution is certified and retired after; each puzzle of S (each subset of S's cells) is one solve with the
selector and its givens as assumptions: UNSAT proves it unique, a model is the second solution. Learnt clauses
stay valid across puzzles and solutions, so dropping clues one at a time (making a minimal puzzle) costs one
short incremental solve a clue, and a new solution costs one clause, not a solver. Whether a puzzle is
unique never depends on that history; which second solution `other` returns may (what the solver learnt
before steers its search). The clauses are formulations.cnf's complete encoding; a model is read back by
its decode. The rules are every rule of the layout: its houses, its constraints (by formulations.cnf's
encoders) and its cages; a certifier that left one out would certify another puzzle. A Jigsaw's layout, a
Killer's (its cages, in formulations.cnf's default sum encoding), or one with constraints of some cells, is drawn
for one puzzle: its certifier has a solver of its own, closed with it.

`solutions(grid, limit)` counts up to `limit` solutions of any puzzle (a solver of its own, each solution
found excluded by a clause): what the fuzzer uses to tell unique, several-solution and unsatisfiable puzzles.

Making a Killer (puzzles/constraints/killer_maker.py) changes cages, not givens: `CageCertifier` holds one solver
for a full grid, its houses' rules and each cage it is asked about switched on by a selector of its own (the cage's
clauses from formulations.cnf's `constraint_clauses`, each with "not selector" added), so a cage merged, split or
stripped of its total is another set of assumptions, not another solver. `repeating_other` answers for a Killer
without its cages' no-repeat rule (their sums and the layout's constraints kept): formulations.cnf's sums keep
values apart (combinations) or need Pindakaas (pysat.pb), so that relaxed puzzle is a CP-SAT model of its own, used
only to certify a puzzle that needs the rule.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from pysat.solvers import Solver

from formulations.cnf import (
    beyond_houses,
    constraint_clauses,
    decode,
    givens,
    layout_facts,
    top,
    var,
    variables,
)
from formulations.pysat_solvers import DEFAULT_SOLVER, KeptSolver, deleted, kept, load, opened
from puzzles.constraints import Constraint, unmade
from puzzles.constraints.killer_maker import Undecided, cages_of
from puzzles.grid import Grid, Layout, geometry
from puzzles.layouts import layout

from .minimal import puzzle_of
from .singles import singles_solve
from .solutions import clauses_of, kept_for_process

CERTIFYING_SOLVER = "cadical195"  # on near-minimal 16x16 and 25x25 puzzles, faster per check than MiniSat
OTHER_CONFLICTS = 20_000  # a Killer's second solution sought this long before its cages are made smaller
CAGE_CONFLICTS = 5_000  # a cage-minimal check undecided past this many conflicts keeps the cage (rare at 9x9)


class SolutionCertifier:
    """Whether puzzles made of a full grid's cells have that grid as their only solution."""

    def __init__(self, solution: Grid) -> None:
        if 0 in solution.values:
            raise ValueError("a certifier needs a full grid")
        self.solution = solution
        self.own = not kept_for_process(solution.layout)  # a drawn Jigsaw's or Killer's solver is its own
        self.kept = fresh(solution.layout) if self.own else kept(CERTIFYING_SOLVER, "complete", solution.layout)
        # a kept solver holds the layout's unit clauses as facts, assumed with each puzzle (a fresh one holds them)
        self.facts = [] if self.own else layout_facts(solution.layout, "complete")
        self.differs = self.kept.switchable([-lit for lit in givens(solution)])  # some cell differs from it
        self.checks = 0  # SAT solves
        self.forced = 0  # puzzles that naked and hidden singles filled alone: unique without a solve

    def unique(self, cells: list[int]) -> bool:
        """Whether the solution's values at `cells` (the puzzle's givens) leave it the only solution.

        A puzzle that naked and hidden singles fill is unique (every placement was forced): no solve needed.
        """
        if singles_solve(puzzle_of(self.solution, cells)):
            self.forced += 1
            return True
        return not self.solve(cells)

    def other(self, cells: list[int]) -> Grid | None:
        """A second solution of the puzzle of `cells`, or None when the solution is its only one."""
        if not self.solve(cells):
            return None
        return decode(self.solution, self.kept.sat.get_model() or [])

    def solve(self, cells: list[int]) -> bool:
        """Whether the puzzle of `cells` has a solution other than the certifier's (one SAT solve)."""
        self.checks += 1
        n, values = self.solution.side, self.solution.values
        return bool(self.kept.sat.solve(assumptions=[self.differs, *self.facts,
                                                     *(var(c, values[c], n) for c in cells)]))

    def close(self) -> None:
        if self.own:
            deleted(self.kept.sat)
        else:
            self.kept.retire([self.differs])

    def __enter__(self) -> SolutionCertifier:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def fresh(lay: Layout, name: str = CERTIFYING_SOLVER) -> KeptSolver:
    """A solver holding a layout's rules, as formulations.pysat_solvers keeps one, for one certifier."""
    sat = Solver(name=name)
    clauses = clauses_of(lay)
    load(sat, name, clauses, caged=beyond_houses(lay))
    sat.set_phases(range(1, lay.side**3 + 1))
    return KeptSolver(sat, max(variables(lay.houses), top(clauses)))  # a Killer's auxiliaries come after the houses'


@contextlib.contextmanager
def puzzle_solver(grid: Grid, name: str = DEFAULT_SOLVER) -> Iterator[Solver]:
    """A solver of its own holding a puzzle's rules (every rule of its layout) and its givens, deleted after."""
    with opened(name) as sat:
        load(sat, name, clauses_of(grid.layout), caged=beyond_houses(grid.layout))
        for lit in givens(grid):
            sat.add_clause([lit])
        yield sat


def solutions(grid: Grid, limit: int = 2) -> list[Grid]:
    """Up to `limit` solutions of `grid` (none: it has no solution; one: it is unique, when limit >= 2)."""
    found: list[Grid] = []
    with puzzle_solver(grid) as sat:
        while len(found) < limit and sat.solve():
            solution = decode(grid, sat.get_model() or [])
            found.append(solution)
            sat.add_clause([-lit for lit in givens(solution)])
    return found


class CageCertifier:
    """Whether cages (and givens) over a full grid leave it the only solution: one solver, its houses' and
    constraints' rules, and each cage asked about switched on by its own selector (the module's docstring says
    why)."""

    def __init__(self, solution: Grid) -> None:
        if 0 in solution.values:
            raise ValueError("a certifier needs a full grid")
        self.solution = solution
        lay = solution.layout
        self.houses = lay.houses
        # every rule but the cages
        self.kept = fresh(layout(lay.side, lay.regions, lay.extras, unmade(lay.constraints)))
        self.differs = self.kept.switchable([-lit for lit in givens(solution)])  # some cell differs from it
        self.selectors: dict[Constraint, int] = {}
        self.checks = 0  # SAT solves
        self.undecided = 0  # checks of `unique` left undecided by the conflict budget

    def selector(self, cage: Constraint) -> int:
        """The variable that switches a cage's clauses on, its clauses added the first time it is asked for."""
        found = self.selectors.get(cage)
        if found is not None:
            return found
        lay = self.houses
        clauses = constraint_clauses(layout(lay.side, lay.regions, lay.extras, [cage]), self.kept.last)
        self.kept.last = max(self.kept.last, top(clauses))  # the cage's auxiliaries, numbered after the last
        self.kept.last += 1
        chosen = self.selectors[cage] = self.kept.last
        self.kept.sat.append_formula([[-chosen, *clause] for clause in clauses])
        return chosen

    def other(self, cages: Sequence[Constraint], cells: Sequence[int] = ()) -> Grid | None:
        """A second solution of the cages and the solution's values at `cells`, or None when it is the only one
        (one SAT solve); puzzles.constraints.killer_maker.Undecided when SAT has not settled it within
        OTHER_CONFLICTS conflicts."""
        self.checks += 1
        self.kept.sat.conf_budget(OTHER_CONFLICTS)
        answer = self.kept.sat.solve_limited(assumptions=self.assumptions(cages, cells))
        if answer is None:
            raise Undecided(f"no answer in {OTHER_CONFLICTS} conflicts")
        if not answer:
            return None
        return decode(self.solution, self.kept.sat.get_model() or [])

    def assumptions(self, cages: Sequence[Constraint], cells: Sequence[int]) -> list[int]:
        """The solve's assumptions: some cell differs, these cages on and every other cage asked about off (else
        the solver may switch an old cage on and search in vain), the givens."""
        n, values = self.solution.side, self.solution.values
        on = {self.selector(cage) for cage in cages}
        off = [-s for s in self.selectors.values() if s not in on]
        return [self.differs, *sorted(on), *off, *(var(c, values[c], n) for c in cells)]

    def unique(self, cages: Sequence[Constraint], cells: Sequence[int] = ()) -> bool:
        """Whether the cages and the solution's values at `cells` leave it the only solution, as far as SAT decides
        within CAGE_CONFLICTS conflicts: False when undecided (counted in `undecided`), so that a cage-minimal
        pass keeps what it could not prove it may take away."""
        self.checks += 1
        self.kept.sat.conf_budget(CAGE_CONFLICTS)
        answer = self.kept.sat.solve_limited(assumptions=self.assumptions(cages, cells))
        if answer is None:
            self.undecided += 1
        return answer is False

    def close(self) -> None:
        deleted(self.kept.sat)

    def __enter__(self) -> CageCertifier:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def repeating_other(puzzle: Grid, solution: Grid, seconds: float = 60.0) -> Grid | None:
    """A solution other than `solution` of the Killer `puzzle` with its cages' no-repeat rule dropped (each cage's
    total and every constraint of the layout kept, a cage's values free to repeat where no house keeps them
    apart), by CP-SAT; None when there is none.
    TimeoutError when CP-SAT has not decided within `seconds`."""
    from ortools.sat.python import cp_model  # loaded only to certify a puzzle that needs the rule

    from formulations.constraints.cpsat import CpCells, encode
    from formulations.cpsat import cp_solver

    n, lay = puzzle.side, puzzle.layout
    model = cp_model.CpModel()
    cells = [model.new_int_var(1, n, f"x{c}") for c in range(n * n)]
    houses = geometry(lay.houses)
    for unit in houses.units:
        model.add_all_different(cells[c] for c in unit)
    encode(unmade(lay.constraints), CpCells(model, n, cells, None, houses.peers))
    for cage in cages_of(lay):
        if cage.total is not None:
            model.add(sum(cells[c] for c in cage.cells) == cage.total)
    for c, v in enumerate(puzzle.values):
        if v:
            model.add(cells[c] == v)
    same = [model.new_bool_var(f"same{c}") for c in range(n * n)]
    for c, flag in enumerate(same):
        model.add(cells[c] == solution.values[c]).only_enforce_if(flag)
        model.add(cells[c] != solution.values[c]).only_enforce_if(~flag)
    model.add_bool_or([~flag for flag in same])  # some cell differs from the solution
    solver = cp_solver()  # a Ctrl-C is the caller's: not an UNKNOWN taken for a time-out (in the fuzzer's process)
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise TimeoutError(f"CP-SAT did not decide the puzzle without its cages' no-repeat rule in {seconds} s")
    return puzzle.with_values(bytes(solver.value(x) for x in cells))
