"""The watch: what a search tells an observer (search/trace/ records one), at the points where it acts.

Each search calls its watch itself, where it does what it reports: the shared
depth-first search (depth_first.py) and restart.py's loop, A*'s loop
(astar.py), the inference rungs (inference.py) as each rule removes candidates,
and cdcl (learning.py), which narrates its own steps. Plug a watch in with
`watching.set(watch)` around a solve; every search, rung and descent made
during the solve reads it once when it is made. Absent (the default), it costs
one test per step and changes nothing else, so the counters are the same
watched or not, compiled or interpreted.

The calls are typed by what a search knows at that point; none of them hands
the watch a search object to read or to change.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, Protocol

from puzzles.grid import Grid

Counters = Callable[[], dict[str, int]]  # the search's counters, read when an event is made
DescribeChoice = Callable[[int, int], dict[str, Any]]  # (cell, its candidate mask) -> why the search chose it


class StepWatch(Protocol):
    """What every search that places values tells, at each step. Depths: the number of open nodes; -1 (A*)
    when the watch knows the path. The counters a watch reads are up to date at each call."""

    def looked(self, depth: int, cell: int, mask: int) -> None:
        """The search looked for a cell: cell -1 (the grid is full), a mask of 0 (a dead end), or a
        cell to branch on and its candidates."""

    def tried(self, depth: int, cell: int, value: int, guess: bool) -> None:
        """The search placed `value` (peers updated, no inference yet); `guess`: other values were left."""

    def inferred(self, placed: int) -> None:
        """The inference after the last placement (or at the root) placed this many, or -1: refuted."""

    def stepped_back(self, depth: int, backtrack: bool) -> None:
        """The state is back to the one before the placement at `depth`; `backtrack`: it led nowhere
        (not a solution's path)."""


class DescentWatch(StepWatch, Protocol):
    """What a depth-first search tells (depth_first.py; restart.py's loop of descents)."""

    def started(self, masks: list[int], describe: DescribeChoice, counters: Counters) -> None:
        """A depth-first search is about to begin (before the inference at the root): every cell's
        candidate mask (0 for a given), how the search describes a choice, its counters."""

    def restarted(self) -> None:
        """The search went back to the original puzzle (restart.py)."""


class FrontierWatch(StepWatch, Protocol):
    """What A* tells (astar.py): its states come off a frontier."""

    def started_frontier(self, masks: list[int], describe: DescribeChoice, counters: Counters) -> None:
        """A* is about to begin, as `started`: its states then come off a frontier (see `popped`)."""

    def pushed(self, number: int) -> None:
        """The state just made (the start, or the last child tried) went on the frontier as `number`."""

    def popped(self, number: int, g: int) -> None:
        """The state `number` was taken off the frontier; the board holds it."""

    def child(self, total: int, number: int | None) -> None:
        """The last child tried, after its inference: it has `total` candidates left (-1: a dead
        cell, or refuted), and went on the frontier as `number` (None: dropped)."""


class RungWatch(Protocol):
    """What an inference rung tells (inference.py), as it makes each step."""

    def propagating(self, rung: str, masks: list[int], values: bytes) -> None:
        """A propagation of `rung` starts from these masks (every cell's, 0 for a filled cell) and these cell
        values (one byte a cell, 0 = blank)."""

    def placed_singles(self, placed: Mapping[int, int]) -> None:
        """Singles to a fixpoint placed these values ({cell: value}), as one round of the engine."""

    def removed(self, rule: str, removals: Mapping[int, int]) -> None:
        """`rule` removed these candidates ({cell: mask of values it loses})."""


class NarratingWatch(Protocol):
    """What a search that narrates itself tells (cdcl, learning.py), one call per kind of step. Depths are
    the trace's: a decision's at the number of decisions below it, a propagation's steps at the last
    decision's (0 at the root)."""

    def narrated(self, grid: Grid, counters: Counters) -> None:
        """The search starts from `grid` and tells its own steps, with these counters, by the calls below."""

    def narrated_placement(self, depth: int, cell: int, value: int, rule: str, path: bool) -> None:
        """Propagation placed `value` in `cell` by `rule` (naked single, ...); `path`: told again after a
        restart, on the way back to the state the search starts over from."""

    def narrated_removal(self, depth: int, cell: int, value: int, rule: str, path: bool) -> None:
        """Propagation removed candidate `value` from `cell` by `rule` (locked candidates, learned
        clause), beyond what a placement removes; `path` as for a placement."""

    def narrated_choice(self, depth: int, cell: int, values: list[int], by: str) -> None:
        """A decision is to fill `cell`, which has `values` left; `by`: the rule that chose it."""

    def narrated_decision(self, depth: int, cell: int, value: int) -> None:
        """The decision placed `value` in `cell` (other values were left)."""

    def narrated_dead_end(self, depth: int, rule: str | None, reason: str) -> None:
        """The search can go no deeper, for `reason` (`rule`: what found it, if anything did)."""

    def narrated_backjump(self, depth: int, learned: int) -> None:
        """After a dead end, back to `depth`, having learned a nogood of `learned` literals."""

    def narrated_solution(self, depth: int) -> None:
        """Every cell is filled."""

    def narrated_block(self) -> None:
        """After a solution, back to the root, leaving the solution's path (not a backtrack)."""

    def narrated_restart(self) -> None:
        """Back to the original puzzle, for the next descent; what the root holds is told again next."""


class Watch(DescentWatch, FrontierWatch, RungWatch, NarratingWatch, Protocol):
    """An observer of every kind of search, told each step as it happens: what a recorder (search/trace/)
    implements. Each search reads it as the one protocol above that it calls."""


watching: ContextVar[Watch | None] = ContextVar("watching", default=None)
