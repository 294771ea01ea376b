"""The one depth-first search every hand-written method shares, and its effort counters.

The seeds all search the same way (seed 000 says it plainly: fill an empty
cell with a candidate, expand, and step back when some cell has no candidate
left); they differ only in which cell they fill next and in what they deduce
after a placement. So this module holds the search and counts its effort, and a
method plugs in a `Strategy`, the three plugs of aima-python's
backtracking_search: which cell next (`choose`), which value of it first
(`order`), what inference after a placement (`inference`). Every method is then
measured by the same code. Two hooks tell the strategy what the search did:
`release` (it stepped back over a cell) and `failed` (a placement was refuted,
or a cell was left with no candidate: what dom/wdeg learns from).

As in MiniSat, the search is split in two. A `Descent` is one depth-first run
from the engine's present state, kept on an explicit stack of open nodes (as
seed 000 keeps its `poplist`), with an allowance of backtracks; it stops and
says why (`Stop`): at a solution (and may then be resumed), when its tree is
exhausted, when its allowance is spent, when the budget is. What to do next is
the caller's: `search` below runs one descent to its end (every complete method
but restart's), restart.py runs its own loop of descents.

Effort (docs/concepts/effort.md), counted in `Effort` by the descent, for every method:
- nodes:      values tentatively placed by the search, re-placements after a
              backtrack included. Values placed by inference are not nodes.
- guesses:    placements made while the cell still had another untried
              candidate (tdoku). The last alternative of a cell is forced.
- backtracks: placements undone because they led nowhere. When the search goes
              on after a solution (solutions=2), undoing the placements on the
              path to that solution is not a backtrack: they led somewhere.
- restarts:   returns to the original puzzle (restart.py's loop counts them).
- forced:     values placed by inference, by propagations that succeed (one
              that ends in a contradiction is undone whole, and how far it got
              depends on the order it looked in; the fixpoint of one that
              succeeds does not). Reported only by a search that infers.
- eliminated: candidates removed by the rules above singles (locked candidates,
              subsets, AllDifferent, probing), by propagations that succeed.
              Reported only by a rung that removes candidates; what each rule
              placed or removed is in the Outcome's info["rules"].

A `Watch` (search/watch.py; search/trace/ records one) is told each step as it
happens: plug one in with `watching.set(watch)` around a solve, and every
descent, restart and root inference of that solve reports to it. Absent (the
default), it costs one test per step and changes nothing else.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, Protocol

from puzzles.conclusion import conclude
from puzzles.grid import Grid
from puzzles.outcome import Budget, GaveUp, Outcome, Status

from .engine import Engine, Mark
from .inference import Inference, OutOfTime
from .watch import DescentWatch
from .watch import Watch as Watch
from .watch import watching as watching

TIME_CHECK = 255  # read the clock when nodes & TIME_CHECK == 0: every 256 placements


class Strategy(Protocol[Mark]):
    """What a method plugs into the search (aima's three plugs), and the engine it runs on."""

    @property
    def engine(self) -> Engine[Mark]:
        """The storage it reads and changes."""

    @property
    def inference(self) -> Inference | None:
        """What to deduce after a placement; None: nothing (and no `forced` counter)."""

    def choose(self, depth: int) -> tuple[int, int]:
        """The next cell to fill and its candidate mask; cell -1 when the grid is full.
        A mask of 0 is a dead end. `depth` is the number of open nodes."""

    def order(self, untried: int) -> int:
        """Which of a cell's untried values to place next (its bit)."""

    def release(self, cell: int) -> None:
        """The search stepped back over `cell`: its node is closed, the cell is open again."""

    def failed(self, cell: int) -> None:
        """A failure at `cell`: its placement was refuted by the inference, or it was left with
        no candidate (what a choice weighted by failures learns from: search/weighted.py)."""

    def describe_choice(self, cell: int, mask: int) -> dict[str, Any]:
        """Why `choose` gave `cell` (whose candidates are `mask`), for a watch: `by` (the rule),
        `tie` (how it breaks ties), and what else the rule can say (`tied`: how many cells had
        as few candidates)."""


class SeedPlugs:
    """The plugs the seeds share: values ascending, nothing to do when a cell is stepped back over."""

    def order(self, untried: int) -> int:
        """The value order of every seed: the lowest untried value (its bit)."""
        return untried & -untried

    def release(self, cell: int) -> None:
        pass  # the cell order does not depend on what the search stepped back over

    def failed(self, cell: int) -> None:
        pass  # nor on where it failed


class Stop(Enum):
    """Why a descent stopped."""

    SOLUTION = "solution"  # the grid is full: read it, then resume the descent or not
    EXHAUSTED = "exhausted"  # every branch below its start was searched
    ALLOWANCE = "allowance"  # one more backtrack than it was allowed was due
    NODES = GaveUp.NODES.value  # the budget's nodes are spent
    TIME = GaveUp.TIME.value  # the budget's time is spent


BUDGET_SPENT = {Stop.NODES: GaveUp.NODES, Stop.TIME: GaveUp.TIME}


@dataclass
class Effort:
    """The counters of a whole search, across its runs; None: the counter does not apply."""

    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    restarts: int | None = None
    forced: int | None = None

    def counters(self) -> dict[str, int]:
        named = {"nodes": self.nodes, "guesses": self.guesses, "backtracks": self.backtracks,
                 "restarts": self.restarts, "forced": self.forced}
        return {name: count for name, count in named.items() if count is not None}


@dataclass(frozen=True)
class Limits:
    """The budget as the descent reads it: a node count and a clock deadline."""

    nodes: float
    deadline: float

    @classmethod
    def of(cls, budget: Budget, started: float) -> Limits:
        return cls(budget.node_limit, budget.deadline(started))


class Node(Generic[Mark]):
    """An open node of the search: a cell, its values not tried yet, and the state before them."""

    __slots__ = ("cell", "mark", "placed", "solved", "untried")

    def __init__(self, cell: int, untried: int, mark: Mark) -> None:
        self.cell = cell
        self.untried = untried  # a candidate mask
        self.mark = mark  # the engine's state before this cell's placement
        self.placed = False  # the cell holds one of its values now
        self.solved = False  # ... and that value lies on the path to a solution found


class Descent(Generic[Mark]):
    """One depth-first run from the engine's present state (MiniSat's `search`).

    `run()` goes on until it has something to say (a `Stop`). After a solution,
    `run()` again steps back from it and goes on looking; the engine holds the
    solution until then. `allowance`: how many backtracks this run may make
    (None: as many as the tree takes).
    """

    # A plain class, not a generic dataclass: mypyc compiles a Generic class, not a Generic dataclass.
    def __init__(self, strategy: Strategy[Mark], effort: Effort, limits: Limits, allowance: int | None = None) -> None:
        self.strategy = strategy
        self.effort = effort
        self.limits = limits
        self.allowance = allowance
        self.backtracks = 0  # this run's, against its allowance
        self.stack: list[Node[Mark]] = []
        self.at_solution = False
        self.watch: DescentWatch | None = watching.get()

    def tell(self, nodes: int, guesses: int, backtracks: int, forced: int) -> DescentWatch:
        """The watch, with the counters brought up to date for it to read."""
        effort = self.effort
        effort.nodes, effort.guesses, effort.backtracks = nodes, guesses, backtracks
        if effort.forced is not None:
            effort.forced = forced
        assert self.watch is not None
        return self.watch

    def run(self) -> Stop:
        strategy, effort, limits = self.strategy, self.effort, self.limits
        engine = strategy.engine
        choose, order, release, inference = strategy.choose, strategy.order, strategy.release, strategy.inference
        failed = strategy.failed
        mark, assign, restore = engine.mark, engine.assign, engine.restore
        stack = self.stack
        nodes, guesses, backtracks, forced = effort.nodes, effort.guesses, effort.backtracks, effort.forced or 0
        run_backtracks = self.backtracks
        watch = self.watch
        allowance = float("inf") if self.allowance is None else self.allowance
        node_limit, deadline, clock = limits.nodes, limits.deadline, time.perf_counter
        look, self.at_solution = not self.at_solution, False
        try:
            while True:
                if look:
                    # Look at the grid the last placement left: full, a dead end, or a cell to branch on.
                    cell, mask = choose(len(stack))
                    if watch is not None:
                        self.tell(nodes, guesses, backtracks, forced).looked(len(stack), cell, mask)
                    if cell < 0:
                        for node in stack:
                            node.solved = True
                        self.at_solution = True
                        return Stop.SOLUTION
                    if mask:
                        stack.append(Node(cell, mask, mark()))
                    else:
                        failed(cell)
                look = True

                # Try the next value of the deepest open node; step back from nodes with none left.
                while True:
                    if not stack:
                        return Stop.EXHAUSTED
                    node = stack[-1]
                    if node.placed:
                        if not node.solved:  # it led nowhere: undoing it is a backtrack
                            if run_backtracks >= allowance:
                                return Stop.ALLOWANCE
                            backtracks += 1
                            run_backtracks += 1
                        restore(node.mark)
                        if watch is not None:
                            self.tell(nodes, guesses, backtracks, forced).stepped_back(len(stack) - 1, not node.solved)
                        node.placed = node.solved = False
                    untried = node.untried
                    if not untried:
                        stack.pop()
                        release(node.cell)
                        continue
                    if nodes >= node_limit:
                        return Stop.NODES
                    if not nodes & TIME_CHECK and clock() > deadline:
                        return Stop.TIME
                    bit = order(untried)
                    untried ^= bit
                    node.untried = untried
                    nodes += 1
                    if untried:
                        guesses += 1
                    node.placed = True
                    assign(node.cell, bit.bit_length())
                    if watch is not None:
                        self.tell(nodes, guesses, backtracks, forced).tried(
                            len(stack) - 1, node.cell, bit.bit_length(), untried != 0)
                    if inference is None:
                        break
                    try:
                        placed = inference(engine)
                    except OutOfTime:
                        return Stop.TIME
                    if placed >= 0:
                        forced += placed
                        if watch is not None:
                            self.tell(nodes, guesses, backtracks, forced).inferred(placed)
                        break
                    if watch is not None:
                        self.tell(nodes, guesses, backtracks, forced).inferred(placed)
                    failed(node.cell)
        finally:
            effort.nodes, effort.guesses, effort.backtracks = nodes, guesses, backtracks
            if effort.forced is not None:
                effort.forced = forced
            self.backtracks = run_backtracks


# -- what every search does at its start and its end --------------------------------------------

def begin(strategy: Strategy[Mark], limits: Limits) -> tuple[Effort, Stop | None]:
    """The effort counters for this strategy, and the inference at the root: None when it went
    through, Stop.EXHAUSTED when it refutes the puzzle itself, Stop.TIME when the budget ran out
    inside it. Long propagations read the budget's deadline from here on."""
    inference = strategy.inference
    effort = Effort() if inference is None else Effort(forced=0)
    if (watch := watching.get()) is not None:
        watch.started(strategy.engine.masks(), strategy.describe_choice, lambda: report(strategy, effort)[0])
    if inference is None:
        return effort, None
    inference.deadline = limits.deadline
    try:
        placed = inference(strategy.engine)
    except OutOfTime:
        return effort, Stop.TIME
    effort.forced = max(placed, 0)
    if watch is not None:
        watch.inferred(placed)
    return effort, None if placed >= 0 else Stop.EXHAUSTED


def report(strategy: Strategy[Mark], effort: Effort) -> tuple[dict[str, int], dict[str, object]]:
    """The counters of a search and the Outcome's info: the descent's effort, the candidates the
    rung removed (`eliminated`, for a rung that removes any), and its work per rule."""
    counters, info = effort.counters(), dict[str, object]()
    inference = strategy.inference
    if inference is not None:
        if inference.removes:
            counters["eliminated"] = inference.eliminated
        info["rules"] = dict(inference.by_rule)
    return counters, info


def record(found: list[bytes], values: bytes) -> None:
    """Keep a solution, once (a method that restarts may find the same one again)."""
    if values not in found:
        found.append(values)


# -- the complete search ------------------------------------------------------------------------

def search(strategy: Strategy[Mark], grid: Grid, budget: Budget, solutions: int, started: float) -> Outcome:
    """Depth-first search with `strategy`, one descent to its end; the Outcome with the counters
    of docs/concepts/effort.md."""
    limits = Limits.of(budget, started)
    effort, root = begin(strategy, limits)
    found: list[bytes] = []

    def end(status: Status, detail: str = "") -> Outcome:
        counters, info = report(strategy, effort)
        return conclude(grid, found, solutions, status, detail, counters, started, info)

    if root is Stop.EXHAUSTED:  # the rung refutes the puzzle itself
        return end(Status.UNSATISFIABLE)
    if root is Stop.TIME:
        return end(Status.GAVE_UP, GaveUp.TIME)
    descent = Descent(strategy, effort, limits)
    while (stop := descent.run()) is Stop.SOLUTION:
        record(found, strategy.engine.state())
        if len(found) >= solutions:
            return end(Status.SOLVED)
    if stop is Stop.EXHAUSTED:  # every branch was searched
        return end(Status.SOLVED if found else Status.UNSATISFIABLE)
    return end(Status.GAVE_UP, BUDGET_SPENT[stop])
