"""Full grids: the pattern one every classic size has, and one drawn at random on any layout (completed by SAT)."""
from __future__ import annotations

import random
from collections.abc import Sequence

from puzzles.constraints import unmade
from puzzles.grid import Grid, Layout, classic

VARIANT_SOLVER = "cadical195"  # on 16x16 Jigsaw grids, faster and steadier than MiniSat
PROBE_CONFLICTS = 100  # a variant's random cell tried this long at most


def pattern_solution(box: int) -> Grid:
    """A valid full grid: row r is the base row shifted by box*(r % box) + r // box."""
    n = box * box
    return Grid(classic(box), bytes((box * (r % box) + r // box + c) % n + 1 for r in range(n) for c in range(n)))


def clauses_of(lay: Layout) -> Sequence[list[int]]:
    """formulations.cnf's complete encoding of a layout (its constraints, and a Killer's cages in its default sum
    encoding, combinations). A Jigsaw's regions, a Killer's cages and a constraint of some cells are drawn for a
    puzzle or two, so their clauses are built afresh rather than kept for the process as the fixed layouts' are (a
    long run draws thousands of them)."""
    from formulations.cnf import (  # SAT (and ortools with formulations) loaded only when needed
        build_layout_clauses,
        layout_clauses,
    )

    return layout_clauses(lay) if kept_for_process(lay) else build_layout_clauses(lay)


def kept_for_process(lay: Layout) -> bool:
    """Whether a layout's clauses and solver are kept for the process: one of the few fixed layouts (boxes,
    extra houses, rules of the whole grid), not a layout drawn for one puzzle (a Jigsaw's regions, a Killer's
    cages, constraints of some cells)."""
    return bool(lay.box_height) and all(rule.GLOBAL for rule in lay.constraints)


def solvable(lay: Layout) -> bool:
    """Whether the layout's empty grid has a solution (its houses do not contradict each other)."""
    from formulations.cnf import beyond_houses
    from formulations.pysat_solvers import load, opened

    with opened(VARIANT_SOLVER) as sat:
        load(sat, VARIANT_SOLVER, clauses_of(lay), caged=beyond_houses(lay))
        return bool(sat.solve())


def random_solution(lay: Layout, rng: random.Random) -> Grid:
    """A full grid of the layout drawn at random: a random first row and a few random cells, completed by SAT
    (phases drawn at random too). Any first row fits a layout that has a solution and whose rules relabelling
    keeps (relabelling one gives it); on a layout with a rule relabelling breaks, the first row is drawn as the
    other cells are, each kept where it fits. ValueError for a layout without solution.

    On a variant's layout a random cell is tried for PROBE_CONFLICTS conflicts at most and left out when that
    does not settle it (refuting a wrong value in a 16x16 Jigsaw can take seconds), and the grid is the model
    of the last solve that fitted; classic grids are drawn as they always were (the seeds' grids stay)."""
    if lay.is_classic:
        return _classic_solution(lay, rng)
    from formulations.cnf import beyond_houses, decode, var
    from formulations.pysat_solvers import load, opened

    n = lay.side
    relabels = all(rule.RELABELS for rule in unmade(lay.constraints))  # (a Killer's grid: drawn as ever)
    with opened(VARIANT_SOLVER) as sat:
        load(sat, VARIANT_SOLVER, clauses_of(lay), caged=beyond_houses(lay))
        sat.set_phases([(v if rng.random() < 1 / n else -v) for v in range(1, n**3 + 1)])
        first_row = rng.sample(range(1, n + 1), n)
        assumptions = [var(c, v, n) for c, v in enumerate(first_row)] if relabels else []
        if not sat.solve(assumptions=assumptions):
            raise ValueError(f"this {lay.variant} {n}x{n} layout has no solution")
        model = sat.get_model() or []
        drawn = [*(var(c, v, n) for c, v in enumerate(first_row) if not relabels),
                 *(var(cell, rng.randint(1, n), n) for cell in rng.sample(range(n, n * n), n))]
        for candidate in drawn:  # a few more, where they fit
            sat.conf_budget(PROBE_CONFLICTS)
            if sat.solve_limited(assumptions=[*assumptions, candidate]):
                assumptions.append(candidate)
                model = sat.get_model() or []
    return decode(Grid(lay, bytes(n * n)), model)


def _classic_solution(lay: Layout, rng: random.Random) -> Grid:
    """random_solution on a classic layout, retried in the rare case the cells drawn admit no completion."""
    from formulations.cnf import decode, layout_clauses, var
    from formulations.pysat_solvers import DEFAULT_SOLVER, load, opened

    n = lay.side
    empty = Grid(lay, bytes(n * n))
    while True:
        values = bytearray(n * n)
        values[:n] = bytes(rng.sample(range(1, n + 1), n))
        with opened(DEFAULT_SOLVER) as sat:
            load(sat, DEFAULT_SOLVER, layout_clauses(lay))
            sat.set_phases([(v if rng.random() < 1 / n else -v) for v in range(1, n**3 + 1)])
            assumptions = [var(c, values[c], n) for c in range(n)]
            for cell in rng.sample(range(n, n * n), n):  # a few more, where they fit
                candidate = var(cell, rng.randint(1, n), n)
                if sat.solve(assumptions=[*assumptions, candidate]):
                    assumptions.append(candidate)
            if sat.solve(assumptions=assumptions):
                return decode(empty, sat.get_model() or [])
