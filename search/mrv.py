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

With singles (ties rowmajor or swap) the search runs on the per-value
bitboards of the candidate engine (`Bitboards`), the project's fast path; the
counters are those of the same search on `Candidates` (a test compares them).
The tie rule is not a detail: on top1465 (solutions=2, one isomorph each)
MRV without propagation makes about 2.5 times as many guesses with row-major
ties as with tdoku's drifting list.
"""
from __future__ import annotations

from typing import Any

from puzzles.candidates import Bitboards, Snapshot
from puzzles.grid import Grid
from puzzles.options import Option, contract
from puzzles.outcome import Budget, Outcome

from .depth_first import OnBoard, search

OPTIONS = {
    "propagate": Option("none", "inference after each placement: none (the seeds) or singles "
                        "(naked and hidden singles to a fixpoint: Norvig's method)", ("none", "singles")),
    "tie": Option("rowmajor", "which of the fewest-candidates cells: the first in row-major order "
                  "(seed 000), tdoku's drifting to-do list (swap), or seed 001's open list, where a cell "
                  "stepped back over rejoins at the end (requeue)", ("rowmajor", "swap", "requeue")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "forced")


class Fewest(OnBoard):
    """MRV on the candidate engine: any tie rule, with or without singles."""

    def __init__(self, grid: Grid, tie: str, singles: bool) -> None:
        super().__init__(grid)
        self.swap = tie == "swap"
        self.requeue = tie == "requeue"
        self.stepped_back: list[int] = []  # requeue: cells undone since the last choice
        self.infers = singles

    def start(self) -> bool:
        return self.propagate()

    def propagate(self) -> bool:
        if not self.infers:
            return True
        before = len(self.trail)
        if not self.board.singles(self.trail):
            return False
        self.forced += len(self.trail) - before
        return True

    def choose(self, depth: int) -> tuple[int, int]:
        todo = self.todo
        if self.swap:
            # tdoku: scan from the head of the remaining list, stop at <= 1 candidate
            i, mask = self.board.fewest_from(todo, depth, 1)
            if i < 0:
                return -1, 0
            todo[depth], todo[i] = todo[i], todo[depth]
            return todo[depth], mask
        if self.requeue:
            # seed 001: the cells stepped back over rejoin the open list at its end
            todo.extend(self.stepped_back)
            self.stepped_back.clear()
            i, mask = self.board.fewest_from(todo)
            if i < 0:
                return -1, 0
            return (todo.pop(i), mask) if mask else (todo[i], 0)  # "Coord.pop(MinIndex)"
        i, mask = self.board.fewest_from(todo)  # first fewest, row-major
        return (todo[i], mask) if i >= 0 else (-1, 0)

    def place(self, cell: int, value: int) -> bool:
        if self.stepped_back and self.stepped_back[-1] == cell:
            self.stepped_back.pop()  # its next value: the cell stays off the open list
        super().place(cell, value)
        return self.propagate()

    def undo(self, cell: int, mark: int) -> None:
        super().undo(cell, mark)
        if self.requeue:
            self.stepped_back.append(cell)


class FewestBits:
    """MRV with singles on the per-value bitboards: the fast path.

    The same search as `Fewest(tie, singles=True)`, counter for counter (a test
    holds them equal); only the engine's storage differs. After singles no empty
    cell has fewer than two candidates, so tdoku's scan (stop at <= 1, else the
    first fewest in list order) is the first cell of the list among the fewest.
    """

    infers = True

    def __init__(self, grid: Grid, tie: str = "rowmajor") -> None:
        self.board = Bitboards(grid)
        self.todo = grid.empty_cells() if tie == "swap" else None
        self.forced = 0
        self.since: list[int] | None = None  # the boards of the fixpoint the next placement leaves

    def start(self) -> bool:
        ok = self.propagate()
        self.root = self.board.snapshot()
        return ok

    def propagate(self) -> bool:
        placed = self.board.singles(self.since)
        if placed < 0:
            return False
        self.forced += placed
        return True

    def choose(self, depth: int) -> tuple[int, int]:
        todo = self.todo
        if todo is None:
            return self.board.fewest()
        count, cells = self.board.fewest_cells()
        if count < 0:
            return -1, 0
        for i in range(depth, len(todo)):
            if cells >> todo[i] & 1:
                todo[depth], todo[i] = todo[i], todo[depth]
                return todo[depth], self.board.candidates(todo[depth])
        raise AssertionError("the fewest cells are on the to-do list")  # pragma: no cover

    def mark(self) -> Snapshot:
        snap = self.board.snapshot()
        self.since = snap[0]
        return snap

    def place(self, cell: int, value: int) -> bool:
        self.board.place(cell, value)
        return self.propagate()

    def undo(self, cell: int, mark: Snapshot) -> None:
        self.board.restore(mark)
        self.since = mark[0]

    def reset(self) -> None:  # pragma: no cover - mrv never restarts
        self.board.restore(self.root)
        self.since = self.root[0]

    def solution(self) -> bytes:
        return self.board.values()


def strategy(grid: Grid, propagate: str, tie: str, engine: str = "auto") -> Fewest | FewestBits:
    """The strategy for these options; `engine` forces one storage (tests compare them)."""
    if propagate == "singles" and tie != "requeue" and engine != "candidates":
        return FewestBits(grid, tie)
    return Fewest(grid, tie, propagate == "singles")


@contract("mrv", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """MRV depth-first search (seeds 000, 001), optionally with singles (Norvig)."""
    chosen = strategy(grid, options["propagate"], options["tie"])
    if isinstance(chosen, FewestBits):  # the same call twice, for the type checker: marks are snapshots
        return search(chosen, grid, budget, solutions, started)
    return search(chosen, grid, budget, solutions, started)  # marks are trail lengths
