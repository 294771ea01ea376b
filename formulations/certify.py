"""Uniqueness certified by SAT, for the generator and the fuzzer: many puzzles checked on one solver.

A puzzle whose solution S is known has another solution exactly when the rules, its givens and "not S" (a
clause: some cell differs from S) are satisfiable. So one solver holds the rules of the size and that clause,
and each puzzle of S (each subset of S's cells) is one solve with its givens as assumptions: UNSAT proves it
unique, a model is the second solution. Learnt clauses stay valid across puzzles, so dropping clues one at a
time (making a minimal puzzle) costs one short incremental solve a clue. The clauses are formulations.sat's
complete encoding; a model is read back by its decode.

`solutions(grid, limit)` counts up to `limit` solutions of any puzzle (a solver of its own, each solution
found excluded by a clause): what the fuzzer uses to tell unique, several-solution and unsatisfiable puzzles.
"""
from __future__ import annotations

import random

from pysat.solvers import Solver

from puzzles.candidates import Candidates
from puzzles.grid import Grid

from .sat import DEFAULT_SOLVER, decode, givens, load, rules

CERTIFYING_SOLVER = "cadical195"  # on near-minimal 16x16 and 25x25 puzzles, faster per check than MiniSat


class SolutionCertifier:
    """Whether puzzles made of a full grid's cells have that grid as their only solution."""

    def __init__(self, solution: Grid) -> None:
        if 0 in solution.values:
            raise ValueError("a certifier needs a full grid")
        self.solution = solution
        self.sat = Solver(name=CERTIFYING_SOLVER)
        load(self.sat, CERTIFYING_SOLVER, rules(solution.box))
        self.sat.add_clause([-lit for lit in givens(solution)])  # some cell differs from the solution
        self.checks = 0  # SAT solves
        self.forced = 0  # puzzles that naked and hidden singles filled alone: unique without a solve

    def unique(self, cells: list[int]) -> bool:
        """Whether the solution's values at `cells` (the puzzle's givens) leave it the only solution.

        A puzzle that naked and hidden singles fill is unique (every placement was forced): no solve needed.
        """
        n = self.solution.side
        values = bytearray(n * n)
        for c in cells:
            values[c] = self.solution.values[c]
        board = Candidates(Grid(self.solution.box, bytes(values)))
        if board.singles([]) and all(board.values):
            self.forced += 1
            return True
        return self.other(cells) is None

    def other(self, cells: list[int]) -> Grid | None:
        """A second solution of the puzzle of `cells`, or None when the solution is its only one."""
        self.checks += 1
        n = self.solution.side
        if not self.sat.solve(assumptions=[c * n + self.solution.values[c] for c in cells]):
            return None
        return decode(self.solution, self.sat.get_model() or [])

    def close(self) -> None:
        self.sat.delete()

    def __enter__(self) -> SolutionCertifier:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def solutions(grid: Grid, limit: int = 2) -> list[Grid]:
    """Up to `limit` solutions of `grid` (none: it has no solution; one: it is unique, when limit >= 2)."""
    found: list[Grid] = []
    with Solver(name=DEFAULT_SOLVER, bootstrap_with=rules(grid.box)) as sat:
        for lit in givens(grid):
            sat.add_clause([lit])
        while len(found) < limit and sat.solve():
            solution = decode(grid, sat.get_model() or [])
            found.append(solution)
            sat.add_clause([-lit for lit in givens(solution)])
    return found


def random_solution(box: int, rng: random.Random) -> Grid:
    """A full grid drawn at random: a random first row and a few random cells, completed by SAT (phases drawn
    at random too), retried in the rare case they admit no completion."""
    n = box * box
    empty = Grid(box, bytes(n * n))
    while True:
        values = bytearray(n * n)
        values[:n] = bytes(rng.sample(range(1, n + 1), n))
        with Solver(name=DEFAULT_SOLVER, bootstrap_with=rules(box)) as sat:
            sat.set_phases([(v if rng.random() < 1 / n else -v) for v in range(1, n**3 + 1)])
            assumptions = [c * n + values[c] for c in range(n)]
            for cell in rng.sample(range(n, n * n), n):  # a few more, where they fit
                candidate = cell * n + rng.randint(1, n)
                if sat.solve(assumptions=[*assumptions, candidate]):
                    assumptions.append(candidate)
            if sat.solve(assumptions=assumptions):
                return decode(empty, sat.get_model() or [])
