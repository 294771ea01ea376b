"""Which cell next, weighted by failures (dom/wdeg): the choice CP solvers pair with restarts.

MRV looks at the candidates alone. dom/wdeg (Boussemart, Hemery, Lecoutre and
Sais, 2004) also remembers where the search has failed: each unit (a row, a
column, a region, an extra house: one AllDifferent constraint) carries a weight,
one at first, bumped each time a placement in it is refuted, and the search fills
the empty cell with the smallest ratio of candidates to the summed weights of its
units (three in classic Sudoku; an X's centre has five). Cells in the units where
the puzzle is hard come first, even with a candidate or two more than elsewhere. The weights outlive a backtrack and a
restart (that is the point: a restart keeps what the failures taught), so the
choice drifts as the search learns; it is deterministic (ties go to the first
cell in row-major order, no random draw).

The failures come from the search's hook (`Strategy.failed`): the cell whose
placement the inference refuted, or an empty cell the grid left with no
candidate. Its units are those bumped.
"""
from __future__ import annotations

from typing import Any

from puzzles.cellmasks import CellMasks
from puzzles.grid import geometry

from .depth_first import SeedPlugs
from .inference import Inference


class FailureWeights(SeedPlugs):
    """dom/wdeg on the per-cell masks: the empty cell with the fewest candidates per unit weight; values
    ascending; the inference of a rung of the ladder, or none."""

    def __init__(self, engine: CellMasks, inference: Inference | None) -> None:
        self.engine = engine
        self.inference = inference
        geo = geometry(engine.layout)
        self.units = geo.units
        self.units_of = [geo.units_of(cell) for cell in range(geo.cells)]
        self.unit_weight = [1] * len(geo.units)
        self.cell_weight = [len(units) for units in self.units_of]  # the summed weights of each cell's units
        self.heaviest = max(self.cell_weight)  # the largest cell weight: bounds how far the scan must go
        self.failures = 0

    def failed(self, cell: int) -> None:
        """A placement in `cell` was refuted, or `cell` was left with no candidate: its units weigh more."""
        self.failures += 1
        unit_weight, cell_weight, units = self.unit_weight, self.cell_weight, self.units
        for u in self.units_of[cell]:
            unit_weight[u] += 1
            for peer in units[u]:
                cell_weight[peer] += 1
        self.heaviest = max(self.heaviest, max(cell_weight[peer] for u in self.units_of[cell] for peer in units[u]))

    def describe_choice(self, cell: int, mask: int) -> dict[str, Any]:
        return {"by": "fewest candidates per failure weight (dom/wdeg)", "tie": "rowmajor"}

    def choose(self, depth: int) -> tuple[int, int]:
        """The empty cell with the smallest candidates / weight (the first in row-major order on a
        tie) and its candidates; a cell with no candidate at once (a dead end); (-1, 0) when full."""
        engine = self.engine
        by_count = engine.cells_by_count()
        if not by_count:
            return -1, 0
        cell_weight, heaviest = self.cell_weight, self.heaviest
        best, best_count, best_weight = -1, 1, 0
        for count, cells in by_count:
            if count == 0:
                return cells[0], 0
            if best >= 0 and best_count * heaviest < count * best_weight:
                break  # no cell with this many candidates can weigh enough to do better
            for cell in cells:
                weight = cell_weight[cell]
                # count / weight < best_count / best_weight, in integers; row-major first on a tie
                if best < 0 or count * best_weight < best_count * weight or (
                        count * best_weight == best_count * weight and cell < best):
                    best, best_count, best_weight = cell, count, weight
        return best, engine.candidates(best)
