"""The one depth-first search every hand-written method shares.

The seeds all search the same way (seed 000 says it plainly: fill an empty
cell with a candidate, expand, and step back when some cell has no candidate
left); they differ only in which cell they fill next, and in whether they
deduce anything after a placement. So this module holds the search and its
effort counters, and a method only plugs in a `Strategy`: how to choose the
next cell, how to place a value (with or without inference), how to step back.
Every method is then measured by the same code (the idea of aima-python's
csp.backtracking_search, written as an explicit stack of open nodes, as seed
000 keeps its `poplist`).

Counters (DESIGN.md):
- nodes:      values tentatively placed by the search, re-placements after a
              backtrack included. Values placed by inference (singles) are not
              nodes; the strategy counts those as `forced`.
- guesses:    placements made while the cell still had another untried
              candidate (tdoku). The last alternative of a cell is forced.
- backtracks: placements undone because they led nowhere. When the search goes
              on after a solution (solutions=2), undoing the placements on the
              path to that solution is not a backtrack: they led somewhere.
- restarts:   returns to the original puzzle (the restart method only).
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Protocol, TypeVar

from puzzles.candidates import Candidates
from puzzles.grid import Grid
from puzzles.outcome import Budget, GaveUp, Outcome, Status

from .conclusion import conclude

TIME_CHECK = 255  # read the clock when nodes & TIME_CHECK == 0: every 256 placements

Mark = TypeVar("Mark")  # a strategy's own token for "the state before a placement"


class Strategy(Protocol[Mark]):
    """What a method plugs into the search.

    Generic over the type of its marks: the search only hands back to `undo` what
    `mark` gave it (a trail length for `OnBoard`, a snapshot for the bitboards).
    """

    infers: bool  # whether it places values by inference (then it reports `forced`)
    forced: int  # values placed by inference so far

    def start(self) -> bool:
        """Prepare the original puzzle (inference at the root, if any); False if it fails."""

    def choose(self, depth: int) -> tuple[int, int]:
        """The next cell to fill and its candidate mask; cell -1 when the grid is full.
        A mask of 0 is a dead end. `depth` is the number of cells on the stack."""

    def mark(self) -> Mark:
        """A token that `undo` takes back to: the state before this cell's placement."""

    def place(self, cell: int, value: int) -> bool:
        """Place a value, with the strategy's inference; False when that finds a contradiction."""

    def undo(self, cell: int, mark: Mark) -> None:
        """Take back the placement at `cell` (and what inference placed after it)."""

    def reset(self) -> None:
        """Back to the original puzzle after `start` (restarts)."""

    def solution(self) -> bytes:
        """The current (full) grid's values."""


class OnBoard:
    """What every strategy on the candidate engine shares: placements kept on a trail, so that
    stepping back from a node (or restarting) removes exactly what was placed since.

    A subclass says how to `choose` the next cell; one that infers overrides `place` too.
    """

    infers = False  # no values placed by inference

    def __init__(self, grid: Grid) -> None:
        self.board = Candidates(grid)
        self.todo = self.board.empty_cells()  # the blanks, row-major
        self.trail: list[int] = []  # every placement, searched or inferred, in order
        self.forced = 0

    def start(self) -> bool:
        return True

    def mark(self) -> int:
        return len(self.trail)

    def place(self, cell: int, value: int) -> bool:
        self.board.place(cell, value)
        self.trail.append(cell)
        return True  # no inference: nothing can go wrong yet

    def undo(self, cell: int, mark: int) -> None:
        self.board.undo(self.trail, mark)

    def reset(self) -> None:
        self.board.undo(self.trail, 0)  # back to the original puzzle

    def solution(self) -> bytes:
        return bytes(self.board.values)


class Restarts:
    """When to give up on a run and restart: a backtrack allowance per run, from a schedule."""

    def __init__(self, allowances: Iterator[int], complete: bool, max_restarts: int | None) -> None:
        self.allowances = allowances
        self.complete = complete  # False: an exhausted run proves nothing (the seed's method)
        self.max_restarts = max_restarts


def search(
    strategy: Strategy[Mark],
    grid: Grid,
    budget: Budget,
    solutions: int,
    started: float,
    restarts: Restarts | None = None,
) -> Outcome:
    """Depth-first search with `strategy`; the Outcome with the counters of DESIGN.md."""
    nodes = guesses = backtracks = restart_count = 0
    node_limit = budget.node_limit
    deadline = budget.deadline(started)
    clock = time.perf_counter
    found: list[bytes] = []
    choose, mark, place, undo = strategy.choose, strategy.mark, strategy.place, strategy.undo

    def outcome(status: Status, detail: str = "") -> Outcome:
        effort = {"nodes": nodes, "guesses": guesses, "backtracks": backtracks}
        if restarts is not None:
            effort["restarts"] = restart_count
        if strategy.infers:
            effort["forced"] = strategy.forced
        return conclude(grid, found, solutions, status, detail, effort, started)

    if not strategy.start():
        if restarts is None or restarts.complete:
            return outcome(Status.UNSATISFIABLE)
        return outcome(Status.GAVE_UP, GaveUp.INCOMPLETE)
    allowance = next(restarts.allowances) if restarts else -1
    run_backtracks = 0
    stack: list[list[Any]] = []  # open nodes: [cell, untried candidates, mark, holds a placement]
    clean = 0  # stack[:clean] hold placements on the path to a found solution
    restart_now = False

    while True:
        # Look at the grid the last placement left: full, a dead end, or a cell to branch on.
        cell, mask = choose(len(stack))
        if cell < 0:
            values = strategy.solution()
            if values not in found:  # a restart may find the same solution again
                found.append(values)
            if len(found) >= solutions:
                return outcome(Status.SOLVED)
            clean = len(stack)
            # the seed's method never steps back: it looks for another solution from scratch
            restart_now = restarts is not None and not restarts.complete
        elif mask:
            stack.append([cell, mask, mark(), False])

        # Try the next value of the deepest open node; step back from nodes with none left.
        while True:
            if stack:
                frame = stack[-1]
                # undoing this node's placement would be a backtrack (it led nowhere)
                dead_end = frame[3] and len(stack) > clean
                restart = restart_now or (dead_end and restarts is not None and run_backtracks >= allowance)
            elif restarts is None or restarts.complete:
                # every branch was searched
                return outcome(Status.SOLVED) if found else outcome(Status.UNSATISFIABLE)
            else:
                restart = True  # the seed's method proves nothing: it just starts again
            if restart:
                # this run's backtrack allowance is spent: back to the original puzzle
                assert restarts is not None  # only a search with restarts restarts
                if restarts.max_restarts is not None and restart_count >= restarts.max_restarts:
                    return outcome(Status.GAVE_UP, GaveUp.INCOMPLETE)
                if clock() > deadline:
                    return outcome(Status.GAVE_UP, GaveUp.TIME)
                strategy.reset()
                stack.clear()
                clean = 0
                restart_count += 1
                run_backtracks = 0
                allowance = next(restarts.allowances)
                restart_now = False
                break
            if frame[3]:
                undo(frame[0], frame[2])
                frame[3] = False
                if dead_end:
                    backtracks += 1
                    run_backtracks += 1
                else:
                    clean = len(stack) - 1  # it led to a solution: not a dead end
            untried = frame[1]
            if not untried:
                stack.pop()
                continue
            if nodes >= node_limit:
                return outcome(Status.GAVE_UP, GaveUp.NODES)
            if not nodes & TIME_CHECK and clock() > deadline:
                return outcome(Status.GAVE_UP, GaveUp.TIME)
            bit = untried & -untried  # values ascending
            untried ^= bit
            frame[1] = untried
            nodes += 1
            if untried:
                guesses += 1
            frame[3] = True
            if place(frame[0], bit.bit_length()):
                break
