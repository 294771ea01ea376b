"""Minimum remaining values: fill the cell with the fewest candidates first (seeds 000, 001).

Seed 000: "find the candidates of every empty cell, and expand the empty cell
with the fewest candidates; when some empty cell has none, step back." Its
MATLAB sorts the cells by candidate count, so ties go to the first cell in
row-major order, and it keeps the open nodes on an explicit list (`poplist`),
as the shared depth-first search does.

Options:
- propagate=none: the seeds' method, nothing but the choice of cell.
  propagate=singles: after each placement, place naked singles (a cell with one
  candidate) and hidden singles (a value with one place left in a unit) until
  none is left; a contradiction is a dead end. With MRV this is Norvig's method.
  Values placed by inference are counted as `forced`, not as nodes. `forced`
  counts the placements of propagations that succeed (a propagation that ends
  in a contradiction is undone whole, and how far it got depends on the order
  it looked in; the fixpoint of one that succeeds does not).
- tie=rowmajor: ties go to the first cell in row-major order (seed 000).
  tie=swap: tdoku's basic solver. The empty cells sit in a to-do list; the
  search at depth d scans the list from position d, stops at the first cell with
  at most one candidate, and swaps the chosen cell with the one at position d.
  The order drifts as the search goes.
  tie=requeue: seed 001's Python. The open cells sit in a list, row-major at
  first; the chosen cell leaves it ("Coord.pop(MinIndex)") and a cell the search
  steps back over rejoins at its end ("Coord.append"), so ties go to the first
  cell of a list that drifts another way. It reproduces the seed's count.

- choose=domwdeg: instead of MRV, dom/wdeg (search/weighted.py): each unit
  weighs one plus the failures the search met in its cells (a placement the
  inference refuted, a cell left with no candidate), and the cell with the
  fewest candidates per summed weight of its units goes first; ties to
  the first in row-major order (`tie` does not apply). Deterministic.

The strategy is one class for every option, on either engine (search/engine.py's
`on_engine` chooses: the per-cell masks with a rung of inference, the per-unit
masks without). The counters are the same on both (a test compares them): only
the cost differs.
The tie rule is not a detail: on top1465 (solutions=2, one isomorph each)
MRV without propagation makes about 2.5 times as many guesses with row-major
ties as with tdoku's drifting list.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic

from puzzles.bits import popcount
from puzzles.cellmasks import CellMasks
from puzzles.constraints import SEARCHED
from puzzles.grid import Grid
from puzzles.options import Option, contract
from puzzles.outcome import Budget, Outcome

from .depth_first import SeedPlugs, search
from .engine import Engine, Mark, on_engine, tied
from .inference import MAKE_RUNG, Inference, make_rung
from .weighted import FailureWeights

OPTIONS = {
    "propagate": Option("none", "inference after each placement, a rung of the ladder (search/inference.py): "
                        "none (the seeds), naked, singles (Norvig's method), locked, subsets, alldiff, pairs, probe; "
                        "for Killer cages: cages, innies, killer (docs/concepts/killer.md)",
                        tuple(MAKE_RUNG)),
    "tie": Option("rowmajor", "which of the fewest-candidates cells: the first in row-major order "
                  "(seed 000), tdoku's drifting to-do list (swap), or seed 001's open list, where a cell "
                  "stepped back over rejoins at the end (requeue)", ("rowmajor", "swap", "requeue")),
    "choose": Option("fewest", "which cell next: fewest = the fewest candidates (MRV, ties by `tie`); "
                     "domwdeg = the fewest candidates per failure weight of its units (dom/wdeg, "
                     "search/weighted.py: units where placements were refuted weigh more; ties row-major)",
                     ("fewest", "domwdeg")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "forced", "eliminated")


class Fewest(SeedPlugs, Generic[Mark]):
    """MRV on any engine: the cell with the fewest candidates, ties by `tie`; values ascending."""

    def __init__(self, engine: Engine[Mark], tie: str, inference: Inference | None) -> None:
        self.engine = engine
        self.inference = inference
        # swap and requeue: their list of the blanks, row-major at first (rowmajor needs none)
        self.todo = [] if tie == "rowmajor" else [cell for cell, v in enumerate(engine.state()) if not v]
        self.stepped_back: list[int] = []  # requeue: cells released since the last choice
        rules: dict[str, Callable[[int], tuple[int, int]]] = {
            "rowmajor": self.first, "swap": self.swap, "requeue": self.requeue}
        self.choose = rules[tie]
        self.tie = tie
        self.requeues = tie == "requeue"

    def describe_choice(self, cell: int, mask: int) -> dict[str, Any]:
        """The fewest candidates, ties by `tie`; and how many cells had as few."""
        return {"by": "fewest candidates", "tie": self.tie, "tied": tied(self.engine, popcount(mask))}

    def first(self, depth: int) -> tuple[int, int]:
        """Seed 000: ties go to the first cell in row-major order."""
        return self.engine.fewest()

    def swap(self, depth: int) -> tuple[int, int]:
        """tdoku: scan the to-do list from position `depth`, stop at <= 1 candidate, and swap the
        chosen cell to position `depth`."""
        todo = self.todo
        i, mask = self.engine.fewest_from(todo, depth, 1)
        if i < 0:
            return -1, 0
        todo[depth], todo[i] = todo[i], todo[depth]
        return todo[depth], mask

    def requeue(self, depth: int) -> tuple[int, int]:
        """Seed 001: the chosen cell leaves the open list ("Coord.pop(MinIndex)"); the cells
        stepped back over rejoin it at its end ("Coord.append")."""
        todo = self.todo
        todo.extend(self.stepped_back)
        self.stepped_back.clear()
        i, mask = self.engine.fewest_from(todo)
        if i < 0:
            return -1, 0
        return (todo.pop(i), mask) if mask else (todo[i], 0)

    def release(self, cell: int) -> None:
        if self.requeues:
            self.stepped_back.append(cell)


@contract("mrv", OPTIONS, knows=SEARCHED)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """MRV depth-first search (seeds 000, 001), optionally with singles (Norvig)."""
    inference = make_rung(options["propagate"])
    if options["choose"] == "domwdeg":  # it reads the cells by candidate count: the per-cell masks
        return search(FailureWeights(CellMasks(grid), inference), grid, budget, solutions, started)

    def run(engine: Engine[Mark]) -> Outcome:
        return search(Fewest(engine, options["tie"], inference), grid, budget, solutions, started)
    return on_engine(grid, inference is not None, run)
