"""Plain backtracking, as seeds 001 (C++) and 003 (MATLAB, recursive) do it.

Seed 001: "search the empty cells left to right, top to bottom; give the cell
the next value that breaks no rule and move on; when no value is left, clear
the cell and go back to the previous one." Seed 003 is the same search written
recursively, values 1..9 ascending, stopping at the first solution.

The rule check is the candidate engine's O(1) read (seed 003 found that
scanning the row, column and box per try was what made it slow); the search
itself is the shared depth-first search, so a placement is counted exactly as
the seeds count one: each time a value is written into a cell.
"""
from __future__ import annotations

from typing import Any

from puzzles.candidates import Candidates
from puzzles.constraints import SEARCHED
from puzzles.grid import Grid
from puzzles.options import Option, contract
from puzzles.outcome import Budget, Outcome

from .depth_first import SeedPlugs, search

OPTIONS: dict[str, Option] = {}
COUNTERS = ("nodes", "guesses", "backtracks")


class RowMajor(SeedPlugs):
    """Fill the empty cells in row-major order: the cell at depth d is the d-th empty cell
    (seed 001's InitiFun lists the blanks so); values ascending; no inference."""

    inference = None

    def __init__(self, grid: Grid) -> None:
        self.engine = Candidates(grid)
        self.todo = grid.empty_cells()

    def choose(self, depth: int) -> tuple[int, int]:
        if depth == len(self.todo):
            return -1, 0  # every blank is filled
        cell = self.todo[depth]
        return cell, self.engine.candidates(cell)  # the values that break no rule

    def describe_choice(self, cell: int, mask: int) -> dict[str, Any]:
        return {"by": "next blank in row-major order", "tie": "none"}


@contract("backtracking", OPTIONS, knows=SEARCHED)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Row-major backtracking, values ascending (seeds 001 and 003)."""
    return search(RowMajor(grid), grid, budget, solutions, started)
