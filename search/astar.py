"""A* over partial grids (seed 004).

Seed 004: a state is a partly filled grid; to keep the search a tree, each
state branches on one cell only, "the cell with the fewest candidates", with
one child per candidate. The cost of a step is the work it opens: from a state
whose chosen cell has k candidates, every child has g = g(parent) + k. The
estimate of the work left is h = (sum of the candidate counts of the empty
cells) / 4, the seed's own formula, given without proof. The frontier is a
priority queue on f = g + h, lowest first, and the goal is a full grid,
recognised when it is taken off the frontier (as the seed's loop does).

As the seed's `fill` does ("returns 0: no solution"), a child in which some
empty cell has no candidate left is not pushed. Ties in f go to the state
pushed first (an insertion counter), so runs are repeatable. States are kept
as the engine's `save()` (bytes: the cell values, and with a rung the
candidates it removed too), not as copies of the engine; the engine `load`s a
state when it is taken off the frontier, and a child is the engine's
placement, undone to its `mark` once the child is pushed. (A* keeps its own
loop: a frontier ordered by f is not a depth-first stack, and its counters are
its own. It runs on the engine search/engine.py's `on_engine` chooses, as the
depth-first methods do.)

Options: heuristic=seed|zero (zero: uniform-cost search, h = 0), and weight,
a multiplier on h (weight > 1 trades optimality of g for speed). propagate: a
rung of the ladder (search/inference.py) applied to every child before it is
pushed, a child it refutes being dropped as a dead one is.

Counters: nodes = states taken off the frontier (docs/concepts/effort.md), expanded = those
that were not goals and were branched on, generated = states pushed (the start
state included), frontier_peak = the most states the frontier held at once.
The node budget bounds both the states taken off the frontier and the states
held in it: the search gives up ("nodes") when either would pass it.
"""
from __future__ import annotations

import heapq
import time
from typing import Any

from puzzles.bits import popcount
from puzzles.conclusion import conclude
from puzzles.constraints import SEARCHED
from puzzles.grid import Grid
from puzzles.options import Option, contract, real
from puzzles.outcome import Budget, GaveUp, Outcome, Status

from .engine import Engine, Mark, on_engine, tied
from .inference import MAKE_RUNG, Inference, OutOfTime, make_rung
from .watch import DescribeChoice, FrontierWatch, watching

OPTIONS = {
    "heuristic": Option("seed", "h: seed = sum of the empty cells' candidate counts / 4; "
                        "zero = uniform-cost search", ("seed", "zero")),
    "weight": Option(1.0, "multiplier on h (f = g + weight*h)", convert=real(0)),
    "propagate": Option("none", "inference on every child, a rung of the ladder: none (the seed), naked, "
                        "singles, locked, subsets, alldiff, pairs, probe; for Killer cages: cages, innies, killer "
                        "(docs/concepts/killer.md)", tuple(MAKE_RUNG)),
}
COUNTERS = ("nodes", "expanded", "generated", "frontier_peak", "forced", "eliminated")
TIME_CHECK = 63  # read the clock every 64 states taken off the frontier


def describe_choice(board: Engine[Mark]) -> DescribeChoice:
    """How A* picks the cell a state branches on, for a watch: the fewest candidates, the first in
    row-major order (its cells' order) on a tie, and how many cells had as few."""
    def described(cell: int, mask: int) -> dict[str, Any]:
        return {"by": "fewest candidates", "tie": "rowmajor", "tied": tied(board, popcount(mask))}
    return described


def frontier_search(board: Engine[Mark], grid: Grid, inference: Inference | None, scale: float, budget: Budget,
                    solutions: int, started: float) -> Outcome:
    """A* from the board's state, f = g + scale * (the candidates left)."""
    node_limit, deadline, clock = budget.node_limit, budget.deadline(started), time.perf_counter
    nodes = expanded = generated = peak = forced = 0
    found: list[bytes] = []

    def counters() -> dict[str, int]:
        effort = {"nodes": nodes, "expanded": expanded, "generated": generated, "frontier_peak": peak}
        if inference is not None:
            effort["forced"] = forced
            if inference.removes:
                effort["eliminated"] = inference.eliminated
        return effort

    def outcome(status: Status, detail: str = "") -> Outcome:
        info: dict[str, object] = {"rules": dict(inference.by_rule)} if inference is not None else {}
        return conclude(grid, found, solutions, status, detail, counters(), started, info)

    watch: FrontierWatch | None = watching.get()
    if watch is not None:  # search/trace/: told each step (search/watch.py)
        watch.started_frontier(board.masks(), describe_choice(board), counters)
    if inference is not None:
        inference.deadline = deadline
        try:
            placed = inference(board)
        except OutOfTime:
            return outcome(Status.GAVE_UP, GaveUp.TIME)
        if placed >= 0:
            forced += placed
        if watch is not None:
            watch.inferred(placed)
        if placed < 0:  # the rung refutes the puzzle itself
            return outcome(Status.UNSATISFIABLE)
    # the frontier holds (f, insertion number, g, state)
    frontier = [(scale * max(board.live_total(), 0), 0, 0, board.save())]
    generated = peak = 1
    if watch is not None:
        watch.pushed(0)
    while frontier:
        if nodes >= node_limit:
            return outcome(Status.GAVE_UP, GaveUp.NODES)
        if not nodes & TIME_CHECK and clock() > deadline:
            return outcome(Status.GAVE_UP, GaveUp.TIME)
        _, number, g, state = heapq.heappop(frontier)
        nodes += 1
        board.load(state)
        cell, mask = board.fewest()
        if watch is not None:
            watch.popped(number, g)
            watch.looked(-1, cell, mask)
        if cell < 0:  # a full grid: the goal
            found.append(board.state())
            if len(found) >= solutions:
                return outcome(Status.SOLVED)
            continue
        expanded += 1
        k = popcount(mask)
        parent = board.mark()
        while mask:
            bit = mask & -mask
            mask ^= bit
            board.assign(cell, bit.bit_length())
            if watch is not None:
                watch.tried(-1, cell, bit.bit_length(), mask != 0)
            try:
                placed = inference(board) if inference is not None else 0
            except OutOfTime:
                return outcome(Status.GAVE_UP, GaveUp.TIME)
            total = board.live_total() if placed >= 0 else -1
            if total >= 0:  # the seed's fill(): a child with a dead cell (or refuted) is not kept
                heapq.heappush(frontier, (g + k + scale * total, generated, g + k, board.save()))
                generated += 1
                forced += placed
            if watch is not None:
                if inference is not None:
                    watch.inferred(placed)
                watch.child(total, generated - 1 if total >= 0 else None)
            board.restore(parent)
            if watch is not None:
                watch.stepped_back(-1, False)
        if len(frontier) > peak:
            peak = len(frontier)
            if peak > node_limit:
                return outcome(Status.GAVE_UP, GaveUp.NODES)
    return outcome(Status.SOLVED if found else Status.UNSATISFIABLE)


@contract("astar", OPTIONS, knows=SEARCHED)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """A* on partial grids, branching on the fewest-candidates cell (seed 004)."""
    inference = make_rung(options["propagate"])
    scale = 0.0 if options["heuristic"] == "zero" else float(options["weight"]) / 4

    def run(board: Engine[Mark]) -> Outcome:
        return frontier_search(board, grid, inference, scale, budget, solutions, started)
    return on_engine(grid, inference is not None, run)
