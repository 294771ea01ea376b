"""Randomised restarts (seed 002), and a complete variant with a Luby cutoff.

Seed 002: "work out every empty cell's candidates; among the cells with the
fewest, pick one at random and write in its first candidate; when the grid
cannot be filled on, clear it and start again from the original puzzle. The
random choice makes it finish quickly." There is no backtracking: a dead end
means a restart. (The seed's MATLAB skips cells left without a candidate and
only restarts once no cell can take a value; restarting at the first cell
without a candidate, as here and in docs/methods/searches.md, saves placements that could not
lead anywhere and changes nothing else.) The method cannot prove that a puzzle
has no solution, nor that a solution is the only one: it gives up after
`max_restarts` restarts (the detail "max_restarts": the cap reached, on a
solvable puzzle as on one with no solution), or when the budget is spent. With solutions=2 it
restarts after its first solution to look for a different one: unique=False if
it finds one, else the first solution with uniqueness not proved.

cutoff=luby goes beyond the seed: the same random choice of cell, but depth-
first with backtracking, and a restart whenever a run has made its allowance
of backtracks: `unit` times the Luby sequence 1 1 2 1 1 2 4 1 1 2 ... Because
the allowances grow without bound, some run finishes its whole tree, so the
method is complete (it proves unsatisfiability and uniqueness), as industrial
solvers' restarts are.

Each run is one descent of the shared depth-first search (depth_first.py);
the loop over runs, and when to start again, is this module's: the seed's
method is a descent allowed no backtrack, started again from the original
puzzle whatever it ends with; the Luby method resumes a descent after a
solution and starts again only when one spends its allowance.

choose=domwdeg replaces the random choice by dom/wdeg (search/weighted.py):
the fewest candidates per failure weight of a cell's units, the weights kept
from one run to the next, so each restart starts from what the failures
taught; no random draw then (the seed is not read).

The random choices come from random.Random(seed): the same seed gives the same
run and the same counters.
"""
from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from typing import Any, Generic

from puzzles.bits import popcount
from puzzles.cellmasks import CellMasks
from puzzles.conclusion import conclude
from puzzles.constraints import SEARCHED
from puzzles.grid import Grid
from puzzles.options import Option, contract, optional_whole, whole
from puzzles.outcome import Budget, GaveUp, Outcome, Status

from .depth_first import (
    BUDGET_SPENT,
    Descent,
    Limits,
    SeedPlugs,
    Stop,
    Strategy,
    begin,
    record,
    report,
    watching,
)
from .engine import Engine, Mark, on_engine, tied
from .inference import MAKE_RUNG, Inference, make_rung
from .weighted import FailureWeights

OPTIONS = {
    "seed": Option(0, "seed of random.Random for the choice among the fewest-candidates cells",
                   convert=whole(0)),
    "cutoff": Option("none", "none: the seed's method (no backtracking, restart at the first dead end, "
                     "incomplete); luby: backtrack, restart after unit*luby(i) backtracks (complete)",
                     ("none", "luby")),
    "unit": Option(100, "cutoff=luby: backtracks allowed per unit of the Luby sequence", convert=whole(1)),
    "propagate": Option("none", "inference after each placement, a rung of the ladder (search/inference.py): "
                        "none (the seed), naked, singles, locked, subsets, alldiff, pairs, probe; for Killer "
                        "cages: cages, innies, killer (docs/concepts/killer.md)", tuple(MAKE_RUNG)),
    "choose": Option("random", "which cell next: random = at random among the fewest candidates (the seed); "
                     "domwdeg = the fewest candidates per failure weight of its units (dom/wdeg, "
                     "search/weighted.py; deterministic), the weights kept across restarts",
                     ("random", "domwdeg")),
    "max_restarts": Option("auto", "give up (max_restarts) after this many restarts; none = no limit; "
                           "auto = 10000 with cutoff=none (it could loop for ever), none with luby",
                           convert=optional_whole(0, "auto")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "restarts", "forced", "eliminated")
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
    # a generator function, not a generator expression: mypyc makes a list of the latter, and this one never ends
    for i in itertools.count(1):
        yield unit * luby(i)


class RandomFewest(SeedPlugs, Generic[Mark]):
    """Choose a cell at random among those with the fewest candidates; values ascending; the
    inference of a rung of the ladder, or none (the seed)."""

    def __init__(self, engine: Engine[Mark], seed: int, inference: Inference | None = None) -> None:
        self.engine = engine
        self.inference = inference
        self.todo = [cell for cell, v in enumerate(engine.state()) if not v]
        self.seed = seed
        self.rng = random.Random(seed)

    def describe_choice(self, cell: int, mask: int) -> dict[str, Any]:
        """The fewest candidates, at random among them; and how many cells had as few."""
        return {"by": "fewest candidates", "tie": f"random (seed {self.seed})",
                "tied": tied(self.engine, popcount(mask))}

    def choose(self, depth: int) -> tuple[int, int]:
        count, ties = self.engine.fewest_all(self.todo)
        if count < 0:
            return -1, 0
        if count == 0:
            return ties[0], 0  # a dead end, whichever cell shows it
        cell = ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        return cell, self.engine.candidates(cell)


class Runs(Generic[Mark]):
    """What the runs of one solve share: the original puzzle to go back to, the solutions found,
    the counters, the budget."""

    def __init__(self, strategy: Strategy[Mark], grid: Grid, budget: Budget, solutions: int, started: float,
                 max_restarts: int | None) -> None:
        self.strategy, self.grid, self.solutions, self.started = strategy, grid, solutions, started
        self.limits = Limits.of(budget, started)
        self.max_restarts = max_restarts
        self.effort, self.root = begin(strategy, self.limits)  # the rung's inference on the puzzle itself, once
        self.effort.restarts = 0
        self.found: list[bytes] = []
        self.original = strategy.engine.mark()

    def descent(self, allowance: int) -> Descent[Mark]:
        return Descent(self.strategy, self.effort, self.limits, allowance)

    def enough(self) -> bool:
        """Keep the solution the engine holds; whether that makes enough."""
        record(self.found, self.strategy.engine.state())
        return len(self.found) >= self.solutions

    def restart(self) -> GaveUp | None:
        """Clear the board back to the original puzzle; or why not (no restart left, no time left)."""
        restarts = self.effort.restarts or 0
        if self.max_restarts is not None and restarts >= self.max_restarts:
            return GaveUp.MAX_RESTARTS
        if time.perf_counter() > self.limits.deadline:
            return GaveUp.TIME
        self.strategy.engine.restore(self.original)
        self.effort.restarts = restarts + 1
        if (watch := watching.get()) is not None:
            watch.restarted()
        return None

    def end(self, status: Status, detail: str = "") -> Outcome:
        counters, info = report(self.strategy, self.effort)
        return conclude(self.grid, self.found, self.solutions, status, detail, counters, self.started, info)


def restart_at_dead_ends(runs: Runs[Mark]) -> Outcome:
    """Seed 002's method: fill in, never step back; at a dead end clear the board and start again.
    A run that finds a solution when another is wanted starts again too. Incomplete: it proves
    nothing, so it gives up after its restarts."""
    while True:
        stop = runs.descent(allowance=0).run()
        if stop is Stop.SOLUTION:
            if runs.enough():
                return runs.end(Status.SOLVED)
        elif stop in BUDGET_SPENT:
            return runs.end(Status.GAVE_UP, BUDGET_SPENT[stop])
        # a dead end (an exhausted run too: it proves nothing), or a solution already known
        if (reason := runs.restart()) is not None:
            return runs.end(Status.GAVE_UP, reason)


def restart_on_schedule(runs: Runs[Mark], allowances: Iterator[int]) -> Outcome:
    """The Luby method: backtrack as the shared search does, and start again when a run has made
    its allowance of backtracks. Complete: a run that exhausts its tree proves what it found."""
    for allowance in allowances:
        descent = runs.descent(allowance)
        while (stop := descent.run()) is Stop.SOLUTION:
            if runs.enough():
                return runs.end(Status.SOLVED)
        if stop is Stop.EXHAUSTED:  # every branch was searched
            return runs.end(Status.SOLVED if runs.found else Status.UNSATISFIABLE)
        if stop in BUDGET_SPENT:
            return runs.end(Status.GAVE_UP, BUDGET_SPENT[stop])
        if (reason := runs.restart()) is not None:  # the run spent its allowance
            return runs.end(Status.GAVE_UP, reason)
    raise AssertionError("the Luby schedule never ends")  # pragma: no cover


@contract("restart", OPTIONS, knows=SEARCHED)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Random choice among the fewest-candidates cells, restarting (seed 002)."""
    inference = make_rung(options["propagate"])
    if options["choose"] == "domwdeg":  # the failures a run learns from weigh on in the next
        return restarting(FailureWeights(CellMasks(grid), inference), grid, budget, solutions, options, started)

    def run(engine: Engine[Mark]) -> Outcome:
        return restarting(RandomFewest(engine, options["seed"], inference), grid, budget, solutions, options, started)
    return on_engine(grid, inference is not None, run)


def restarting(chosen: Strategy[Mark], grid: Grid, budget: Budget, solutions: int, options: dict[str, Any],
               started: float) -> Outcome:
    """The runs of `chosen`, restarted as `cutoff` says, until enough solutions or no restart left."""
    limit = options["max_restarts"]
    seeds_way = options["cutoff"] == "none"
    if limit == "auto":
        limit = DEFAULT_MAX_RESTARTS if seeds_way else None
    runs = Runs(chosen, grid, budget, solutions, started, limit)
    if runs.root is Stop.EXHAUSTED:  # the rung refutes the puzzle itself: a proof, whatever the cutoff
        return runs.end(Status.UNSATISFIABLE)
    if runs.root is Stop.TIME:
        return runs.end(Status.GAVE_UP, GaveUp.TIME)
    return restart_at_dead_ends(runs) if seeds_way else restart_on_schedule(runs, luby_allowances(options["unit"]))
