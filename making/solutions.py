"""Full grids: the pattern one every size has, and one drawn at random (completed by SAT)."""
from __future__ import annotations

import random

from puzzles.grid import Grid, classic


def pattern_solution(box: int) -> Grid:
    """A valid full grid: row r is the base row shifted by box*(r % box) + r // box."""
    n = box * box
    return Grid(classic(box), bytes((box * (r % box) + r // box + c) % n + 1 for r in range(n) for c in range(n)))


def random_solution(box: int, rng: random.Random) -> Grid:
    """A full grid drawn at random: a random first row and a few random cells, completed by SAT (phases drawn
    at random too), retried in the rare case they admit no completion."""
    from pysat.solvers import Solver  # SAT (and ortools with formulations) loaded only when a grid is drawn

    from formulations.sat import DEFAULT_SOLVER, decode, load, rules, var

    n = box * box
    empty = Grid(classic(box), bytes(n * n))
    while True:
        values = bytearray(n * n)
        values[:n] = bytes(rng.sample(range(1, n + 1), n))
        with Solver(name=DEFAULT_SOLVER) as sat:
            load(sat, DEFAULT_SOLVER, rules(classic(box)))
            sat.set_phases([(v if rng.random() < 1 / n else -v) for v in range(1, n**3 + 1)])
            assumptions = [var(c, values[c], n) for c in range(n)]
            for cell in rng.sample(range(n, n * n), n):  # a few more, where they fit
                candidate = var(cell, rng.randint(1, n), n)
                if sat.solve(assumptions=[*assumptions, candidate]):
                    assumptions.append(candidate)
            if sat.solve(assumptions=assumptions):
                return decode(empty, sat.get_model() or [])
