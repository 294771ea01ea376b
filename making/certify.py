"""Uniqueness certified by SAT, for the generator and the fuzzer: many puzzles checked on one solver.

A puzzle whose solution S is known has another solution exactly when the rules, its givens and "not S" (a
clause: some cell differs from S) are satisfiable. So one solver holds the rules of the size, kept for the
process (formulations.sat's `kept`), and each solution's "not S" is switched on by a selector while that
solution is certified and retired after; each puzzle of S (each subset of S's cells) is one solve with the
selector and its givens as assumptions: UNSAT proves it unique, a model is the second solution. Learnt clauses
stay valid across puzzles and solutions, so dropping clues one at a time (making a minimal puzzle) costs one
short incremental solve a clue, and a new solution costs one clause, not a solver. Whether a puzzle is
unique never depends on that history; which second solution `other` returns may (what the solver learnt
before steers its search). The clauses are formulations.sat's complete encoding; a model is read back by
its decode. A Jigsaw's layout, or a Killer's (its cages, in formulations.sat's default sum encoding), is drawn
for one puzzle: its certifier has a solver of its own, closed with it.

`solutions(grid, limit)` counts up to `limit` solutions of any puzzle (a solver of its own, each solution
found excluded by a clause): what the fuzzer uses to tell unique, several-solution and unsatisfiable puzzles.
"""
from __future__ import annotations

from pysat.solvers import Solver

from formulations.sat import DEFAULT_SOLVER, Kept, decode, givens, kept, load, top, var, variables
from puzzles.grid import Grid, Layout

from .minimal import puzzle_of
from .singles import singles_solve
from .solutions import kept_for_process, rules_of

CERTIFYING_SOLVER = "cadical195"  # on near-minimal 16x16 and 25x25 puzzles, faster per check than MiniSat


class SolutionCertifier:
    """Whether puzzles made of a full grid's cells have that grid as their only solution."""

    def __init__(self, solution: Grid) -> None:
        if 0 in solution.values:
            raise ValueError("a certifier needs a full grid")
        self.solution = solution
        self.own = not kept_for_process(solution.layout)  # a drawn Jigsaw's or Killer's solver is its own
        self.kept = fresh(solution.layout) if self.own else kept(CERTIFYING_SOLVER, "complete", solution.layout)
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
        return bool(self.kept.sat.solve(assumptions=[self.differs, *(var(c, values[c], n) for c in cells)]))

    def close(self) -> None:
        if self.own:
            self.kept.sat.delete()
        else:
            self.kept.retire([self.differs])

    def __enter__(self) -> SolutionCertifier:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def fresh(lay: Layout) -> Kept:
    """A solver holding a layout's rules, as formulations.sat keeps one, for one certifier."""
    sat = Solver(name=CERTIFYING_SOLVER)
    clauses = rules_of(lay)
    load(sat, CERTIFYING_SOLVER, clauses, caged=bool(lay.cages))
    sat.set_phases(range(1, lay.side**3 + 1))
    return Kept(sat, max(variables(lay.houses), top(clauses)))  # a Killer's auxiliaries come after the houses'


def solutions(grid: Grid, limit: int = 2) -> list[Grid]:
    """Up to `limit` solutions of `grid` (none: it has no solution; one: it is unique, when limit >= 2)."""
    found: list[Grid] = []
    with Solver(name=DEFAULT_SOLVER) as sat:
        load(sat, DEFAULT_SOLVER, rules_of(grid.layout), caged=bool(grid.layout.cages))
        for lit in givens(grid):
            sat.add_clause([lit])
        while len(found) < limit and sat.solve():
            solution = decode(grid, sat.get_model() or [])
            found.append(solution)
            sat.add_clause([-lit for lit in givens(solution)])
    return found
