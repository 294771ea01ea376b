"""Solvers with planted bugs, for the fuzzer's tests (`--registry planted`): each right except under a condition
on the givens that the fuzzer must find, and shrink to the few clues that make it.

    corrupt  its answer corrupted (two cells of the last row swapped) when a 2 is given in the first row and a
             3 in the last row: an invalid answer, 1-minimal with exactly those two clues
    liar     claims "no solution" when the first and the last cells are both given: a false unsat, 1-minimal
             with exactly those two clues
    crasher  its worker dies on a 9x9 puzzle, whatever the clues: an error, 1-minimal as the empty 9x9 grid
    blind-regions   SAT on every house but the first two regions (one alone would never show: the rows and the
             other regions leave it all n values): an invalid answer where the clues leave those two regions room
             to clash, on any layout (on Jigsaw puzzles for the tests)
    blind-diagonal  SAT on every house but the diagonal `-`: an invalid answer, on Sudoku-X puzzles only
    blind-constraints  SAT on every house, the constraints beyond them dropped (anti-knight, thermometers, ...): an
             invalid answer where the houses alone leave room to break them (a rule-minimal puzzle, which needs them)
    quitter  gives up on every 9x9 puzzle (no failure: what the fuzzer cuts back)
    killer-boxes    CP-SAT on a Killer with AllDifferent on the boxes of the first two bands and stacks alone (the
             `range(2)` of OR-Tools' Killer example, docs/guides/killer-lesson.md): harmless on 9x9 (rows and
             columns force the other five boxes), an invalid answer on 8x8 and 16x16 Killers whose cages leave
             room
    killer-cages    CP-SAT on a Killer without AllDifferent inside the cages (their sums alone): an invalid answer
             where a cage crosses houses and its sum leaves room for a repeat
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model
from pysat.solvers import Solver

from formulations.cnf import exactly_one, var
from puzzles import Budget, Grid, Method, Outcome, Status
from puzzles.constraints.killer import cages_in
from puzzles.grid import Geometry
from search import SOLVERS as SEARCH

COUNTERS = SEARCH["mrv"].counters


def right(grid: Grid, budget: Budget, **options: Any) -> Outcome:
    return SEARCH["mrv"](grid, budget, **{**options, "propagate": "singles"})


def corrupt(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    outcome = right(grid, budget, **options)
    n = grid.side
    if outcome.solution is not None and 2 in grid.values[:n] and 3 in grid.values[n * (n - 1):]:
        values = bytearray(outcome.solution.values)
        last = n * (n - 1)
        values[last], values[last + 1] = values[last + 1], values[last]
        outcome.solution = grid.with_values(bytes(values))
    return outcome


def liar(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    if grid.values[0] and grid.values[-1]:
        return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})
    return right(grid, budget, **options)


def crasher(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    if grid.box == 3:
        os._exit(3)
    return right(grid, budget, **options)


def quitter(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    if grid.side == 9:
        return Outcome(Status.GAVE_UP, effort={"nodes": 0}, detail="nodes")
    return right(grid, budget, **options)


def blind(ignored: Callable[[Geometry], set[int]]) -> Callable[..., Outcome]:
    """A SAT solver of every house of a puzzle but those `ignored` names (unit indices of its geometry)."""
    def solve(grid: Grid, budget: Budget = Budget(), solutions: int = 1, **options: Any) -> Outcome:
        geo, n = grid.geometry, grid.side
        skipped = ignored(geo)
        with Solver(name="minisat22") as sat:
            for cell in range(geo.cells):
                sat.append_formula(exactly_one([var(cell, v, n) for v in range(1, n + 1)]))
            for i, unit in enumerate(geo.units):
                if i not in skipped:
                    for v in range(1, n + 1):
                        sat.append_formula(exactly_one([var(c, v, n) for c in unit]))
            givens = [var(c, v, n) for c, v in enumerate(grid.values) if v]
            if not sat.solve(assumptions=givens):
                return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})
            model = sat.get_model() or []
            values = [0] * geo.cells
            for lit in model:
                if 0 < lit <= n * geo.cells:
                    cell, value = divmod(lit - 1, n)
                    values[cell] = value + 1
            found = grid.with_values(bytes(values))
            unique = None
            if solutions >= 2:
                sat.add_clause([-var(c, v, n) for c, v in enumerate(values)])
                unique = not sat.solve(assumptions=givens)
            return Outcome(Status.SOLVED, found, effort={"nodes": 1}, unique=unique)
    return solve


def first_two_regions(geo: Geometry) -> set[int]:
    return {2 * geo.side, 2 * geo.side + 1}  # the units are the rows, the columns, then the regions


def diagonal_minus(geo: Geometry) -> set[int]:
    return {i for i, name in enumerate(geo.unit_names) if name == "diagonal -"}


def careless_killer(dropped: Callable[[Grid], set[int]], cage_distinct: bool) -> Callable[..., Outcome]:
    """A CP-SAT solver of a Killer (or any puzzle) that leaves out the houses `dropped` names (unit indices of its
    geometry) and, unless `cage_distinct`, the no-repeat rule inside cages: their sums alone."""
    def solve(grid: Grid, budget: Budget = Budget(), solutions: int = 1, **options: Any) -> Outcome:
        geo, n = grid.geometry, grid.side
        model = cp_model.CpModel()
        x = [model.new_int_var(1, n, f"c{cell}") for cell in range(geo.cells)]
        skipped = dropped(grid)
        for i, unit in enumerate(geo.units):
            if i not in skipped:
                model.add_all_different([x[c] for c in unit])
        for cage in cages_in(grid.layout.constraints):
            if cage.total is not None:
                model.add(sum(x[c] for c in cage.cells) == cage.total)
            if cage_distinct:
                model.add_all_different([x[c] for c in cage.cells])
        for cell, value in enumerate(grid.values):
            if value:
                model.add(x[cell] == value)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # the same answer every run
        if budget.seconds is not None:
            solver.parameters.max_time_in_seconds = budget.seconds
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(Status.GAVE_UP, effort={"nodes": 1}, detail="time")
        return Outcome(Status.SOLVED, grid.with_values(bytes(solver.value(v) for v in x)), effort={"nodes": 1})
    return solve


def beyond_two_bands_and_stacks(grid: Grid) -> set[int]:
    """The boxes outside the first two bands and the first two stacks (the `range(2)` loops), as unit indices."""
    lay, n = grid.layout, grid.side
    if not lay.box_height:
        return set()
    across = n // lay.box_width  # boxes in a band; the regions are numbered row-major
    return {2 * n + k for k in range(n) if k // across >= 2 or k % across >= 2}


SOLVERS = {
    "corrupt": Method(corrupt, "MRV, its answer corrupted under a condition on the givens", {}, COUNTERS),
    "liar": Method(liar, "MRV, that claims no solution under a condition on the givens", {}, COUNTERS),
    "crasher": Method(crasher, "MRV, that crashes on 9x9 puzzles", {}, COUNTERS),
    "blind-regions": Method(blind(first_two_regions), "SAT on every house but the first two regions", {},
                            COUNTERS),
    "quitter": Method(quitter, "MRV, that gives up on 9x9 puzzles", {}, COUNTERS),
    "blind-diagonal": Method(blind(diagonal_minus), "SAT on every house but the diagonal -", {}, COUNTERS),
    "blind-constraints": Method(blind(lambda geo: set()), "SAT on every house, the constraints beyond them dropped",
                                {}, COUNTERS),
    "killer-boxes": Method(careless_killer(beyond_two_bands_and_stacks, True),
                           "CP-SAT on the boxes of the first two bands and stacks alone", {}, COUNTERS),
    "killer-cages": Method(careless_killer(lambda grid: set(), False), "CP-SAT without AllDifferent inside cages",
                           {}, COUNTERS),
}
