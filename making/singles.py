"""Unique-solution puzzles made without a search: givens taken away while singles alone still fill the grid.

A full grid is drawn (a random isomorph of the pattern solution in classic Sudoku, completed by SAT on any other
layout); then givens are taken away, in random order,
as long as naked and hidden singles alone still fill the grid. A puzzle that singles solve has exactly one
solution (every placement was forced), so uniqueness needs no solution count. Such puzzles are easy for
propagation: they are the project's own sizes-and-formats material, not its hard benchmark (that is the public
collections, docs/reference/data.md). With rule "naked", naked singles alone must suffice: MRV then never
backtracks.
"""
from __future__ import annotations

import random

from puzzles.cellmasks import CellMasks
from puzzles.grid import Grid, Layout, classic
from puzzles.isomorph import random_isomorph

from .solutions import pattern_solution, random_solution


def singles_solve(grid: Grid) -> bool:
    """Whether naked and hidden singles alone fill the whole grid."""
    return CellMasks(grid).solved_by_singles()


def naked_solve(grid: Grid) -> bool:
    """Whether naked singles alone (a cell with one candidate) fill the whole grid: MRV then never backtracks,
    propagation or not."""
    return CellMasks(grid).solved_by_singles(hidden=False)


SOLVES_BY_SINGLES = {"singles": singles_solve, "naked": naked_solve}


def generate(of: Layout | int, rng: random.Random, keep: int = 0, rule: str = "singles") -> tuple[Grid, Grid]:
    """A (puzzle, solution) pair of a layout (or of classic Sudoku with this box size) that `rule` solves alone;
    at least `keep` givens stay.

    rule "singles": naked and hidden singles; "naked": naked singles only (easier).
    """
    solvable = SOLVES_BY_SINGLES[rule]
    lay = classic(of) if isinstance(of, int) else of
    solution = random_isomorph(pattern_solution(lay.box), rng) if lay.is_classic else random_solution(lay, rng)
    values = bytearray(solution.values)
    cells = list(range(len(values)))
    rng.shuffle(cells)
    givens = len(values)
    for cell in cells:
        if givens <= keep:
            break
        value, values[cell] = values[cell], 0
        if solvable(Grid(lay, bytes(values))):
            givens -= 1
        else:
            values[cell] = value
    return Grid(lay, bytes(values)), solution
