"""Randomised restarts (seed 002), and a complete variant with a Luby cutoff.

Seed 002: "work out every empty cell's candidates; among the cells with the
fewest, pick one at random and write in its first candidate; when the grid
cannot be filled on, clear it and start again from the original puzzle. The
random choice makes it finish quickly." There is no backtracking: a dead end
means a restart. (The seed's MATLAB skips cells left without a candidate and
only restarts once no cell can take a value; restarting at the first cell
without a candidate, as here and in DESIGN.md, saves placements that could not
lead anywhere and changes nothing else.) The method cannot prove that a puzzle
has no solution, nor that a solution is the only one: it gives up ("incomplete")
after `max_restarts` restarts, or when the budget is spent. With solutions=2 it
restarts after its first solution to look for a different one: unique=False if
it finds one, else the first solution with uniqueness not proved.

cutoff=luby goes beyond the seed: the same random choice of cell, but depth-
first with backtracking, and a restart whenever a run has made its allowance
of backtracks: `unit` times the Luby sequence 1 1 2 1 1 2 4 1 1 2 ... Because
the allowances grow without bound, some run finishes its whole tree, so the
method is complete (it proves unsatisfiability and uniqueness), as industrial
solvers' restarts are.

The random choices come from random.Random(seed): the same seed gives the same
run and the same counters.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from puzzles.grid import Grid
from puzzles.options import Option, contract, optional_whole, whole
from puzzles.outcome import Budget, Outcome

from .depth_first import OnBoard, Restarts, search

OPTIONS = {
    "seed": Option(0, "seed of random.Random for the choice among the fewest-candidates cells",
                   convert=whole(0)),
    "cutoff": Option("none", "none: the seed's method (no backtracking, restart at the first dead end, "
                     "incomplete); luby: backtrack, restart after unit*luby(i) backtracks (complete)",
                     ("none", "luby")),
    "unit": Option(100, "cutoff=luby: backtracks allowed per unit of the Luby sequence", convert=whole(1)),
    "max_restarts": Option("auto", "give up (incomplete) after this many restarts; none = no limit; "
                           "auto = 10000 with cutoff=none (it could loop for ever), none with luby",
                           convert=optional_whole(0, "auto")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "restarts")
DEFAULT_MAX_RESTARTS = 10_000


def luby(i: int) -> int:
    """The i-th term (i >= 1) of the Luby sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


def luby_allowances(unit: int) -> Iterator[int]:
    return (unit * luby(i) for i in itertools.count(1))


class RandomFewest(OnBoard):
    """Choose a cell at random among those with the fewest candidates; values ascending."""

    def __init__(self, grid: Grid, rng: random.Random) -> None:
        super().__init__(grid)
        self.rng = rng

    def choose(self, depth: int) -> tuple[int, int]:
        count, ties = self.board.fewest_all(self.todo)
        if count < 0:
            return -1, 0
        if count == 0:
            return ties[0], 0  # a dead end, whichever cell shows it
        cell = ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        return cell, self.board.candidates(cell)


@contract("restart", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Random choice among the fewest-candidates cells, restarting (seed 002)."""
    limit = options["max_restarts"]
    if options["cutoff"] == "none":
        if limit == "auto":
            limit = DEFAULT_MAX_RESTARTS
        plan = Restarts(itertools.repeat(0), complete=False, max_restarts=limit)
    else:
        if limit == "auto":
            limit = None
        plan = Restarts(luby_allowances(options["unit"]), complete=True, max_restarts=limit)
    chosen = RandomFewest(grid, random.Random(options["seed"]))
    return search(chosen, grid, budget, solutions, started, restarts=plan)
