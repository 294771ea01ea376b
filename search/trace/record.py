"""A search you can watch: the steps of one solve, as events, from the search itself.

Every seed post draws its method as a flowchart and walks through it by hand;
this module does the walking. `trace(grid, "mrv:propagate=singles")` runs the
method's own solve with a `Recorder` set as its watch (search/watch.py): the
searches, the rungs and cdcl tell it each step where they make it (a strategy
describes its own choice of cell, a rung each rule's removals and each round of
singles), so what it records is what the search did, not a second
implementation of it. Nothing is patched: without a watch the search is
unchanged, and it is the same compiled or interpreted.

The events, in order (`Event.step` counts from 0):

    choose     the search picks `cell` to branch on at `depth`; detail: its
               candidate count, its candidates, why (`by`, `tie`: the rule that
               broke ties among equally good cells, `tied`: how many there were)
    try        the search places `value` in `cell` at `depth` (a node);
               detail["guess"]: the cell had another untried value
    place      inference placed `value` in `cell` (`rule`: naked single,
               hidden single, ...) after the last try (or at the root)
    remove     a rule (`rule`: locked candidates, naked subsets, hidden
               subsets, alldiff, probe, or a constraint's filter, named as
               the puzzle names the constraint: `thermometer 2 (R4C1)`)
               removed candidate `value` from `cell`
    dead_end   the search can go no deeper: `cell` has no candidate left (or
               no value fits, for backtracking), or the inference refuted the
               last try (`rule` is then the rung)
    backtrack  the search steps back: the state is again the one before the try
               at `depth`; detail["counted"]: false when the step back leaves a
               solution's path (not a backtrack in the counters)
    solution   the grid is full
    restart    the search goes back to the original puzzle (restart, A*)

How a player replays them (tests/test_trace.py does exactly this):
- start from `Trace.candidates` (per cell, row-major, the candidates the engine
  starts from, before any inference; [] for a given);
- a `try` or a `place` of v in a cell fills the cell with v, and v leaves the
  candidates of that cell's peers; each cell a constraint (anti-knight, a
  thermometer, ...: puzzles/constraints/) links to it loses the values v
  forbids there (`Geometry.links`); on a Killer, each cage of the cell then leaves
  its other empty cells only the values it still has room for (those of some set
  of different values, none placed in the cage, that fills its empty cells to
  its total: `puzzles.candidates.Rooms`, as the engines keep them); the
  events do not list those removals;
- a `remove` takes one more candidate away (only eliminations beyond the above;
  cdcl, which tells its own steps, may tell on a Killer one that a placement's
  rooms took away already);
- keep a snapshot of the state just before each `try`, by its depth; on
  `backtrack` to depth d, go back to the snapshot taken before the try at d;
- on `restart`, go back to the start candidates; the events that follow it
  (detail["path"]: true) lead again to the state the search starts over from:
  for restart.py, what the root's inference did;
A* (`astar`) jumps between states of its frontier: each state it takes off is
shown as a `restart` followed by the `try`s and `place`s that lead to it from
the root (detail["path"]: true), then its expansion (a choose, and each child
as a try, its inference, and a backtrack to the state it came from).

`Event.counters` are the search's own counters at that moment (nodes, guesses,
backtracks, restarts, forced, eliminated, as docs/concepts/effort.md defines them; the A*
ones for astar). Inference is reported once it returns: its place and remove
events carry the counters after it, in the order the rung made its steps; the
engine places a round of singles at once, and the trace tells the round's
values one at a time, each a single in the state before it.

`sudoku-trace PUZZLE_OR_FILE[:LINE] --solver SPEC` prints it (search/trace/view.py).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from puzzles.candidates import Candidates, Rooms, Scopes
from puzzles.formats import BadEntry, PuzzleFileError, checked, read_puzzles
from puzzles.grid import Geometry, Grid, PuzzleError, values_of
from puzzles.options import MethodSpec, OptionError
from puzzles.outcome import Budget, Method, Outcome, Status

from .. import SOLVERS
from ..watch import Counters, DescribeChoice, watching

EVENT_KINDS = ("choose", "try", "place", "remove", "dead_end", "backtrack", "solution", "restart")


@dataclass(frozen=True)
class Event:
    """One step of a search; see the module's docstring for what each kind means."""

    step: int
    kind: str
    depth: int
    cell: list[int] | None  # [row, column], 0-based
    value: int | None  # 1-based digit
    rule: str | None
    detail: dict[str, Any]
    counters: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Trace:
    """The events of one solve, and what they start from and end with."""

    method: str  # the spec, e.g. mrv:propagate=singles
    puzzle: str  # the puzzle's line form
    size: int  # cells per side
    givens: list[int]  # per cell, row-major: its given value, 0 for a blank
    candidates: list[list[int]]  # per cell, row-major: the start candidates ([] for a given)
    events: list[Event] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)  # the solve's final counters
    status: str = ""  # the Outcome's status, or "truncated"
    truncated: bool = False  # stopped after max_steps events
    solution: str | None = None  # the solution's line form, when one was found
    detail: str = ""  # the Outcome's detail (why it gave up, an error)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "events": [event.as_dict() for event in self.events]}


class Enough(BaseException):
    """Raised by the recorder after `max_steps` events to stop the search where it is. A
    BaseException, as KeyboardInterrupt is: a stop asked from outside, not a failure of the
    method, so the solver contract (which turns failures into ERROR outcomes) lets it through."""


def rc(cell: int, side: int) -> list[int]:
    return [cell // side, cell % side]


PathStep = tuple[str, int | None, int | None, str | None]  # a try, place or remove: kind, cell, value, rule


class Recorder:
    """A `Watch` (search/watch.py) that turns each step of the search into `Event`s."""

    def __init__(self, geo: Geometry, max_steps: int | None, on_event: Callable[[Event], None] | None = None) -> None:
        self.geo, self.max_steps, self.on_event = geo, max_steps, on_event
        self.events: list[Event] = []
        self.counters: Counters = lambda: {}
        self.describe: DescribeChoice = lambda cell, mask: {}
        self.start: list[int] | None = None
        self.depth = 0
        self.frontier = False  # A*: its states come off a frontier
        # the propagation under way: its rung, the masks it started from, its steps so far (singles
        # placed {cell: value}, or a rule and the candidates it removed)
        self.rung: str | None = None
        self.masks: list[int] = []
        self.values: list[int] = []  # the cell values it started from, and the singles told since
        rooms = Rooms(geo.layout)  # the rules with a room (a Killer's cages), as the engines keep them
        self.rooms = rooms if rooms.rules else None
        scopes = Scopes(geo.layout)  # the rules kept by their filter (an arrow's), as the engines keep them
        self.scopes = scopes if scopes.rules else None
        self.steps: list[tuple[str, dict[int, int]]] = []
        self.refuted = False  # the last placement's inference refuted it
        # the events that lead from the start to each state of A*'s frontier, and to the state the
        # board holds; the events of the root's inference (or of the child being made, for A*)
        self.paths: dict[int, list[PathStep]] = {}
        self.path: list[PathStep] = []
        self.recording: list[PathStep] | None = None

    # -- the events -------------------------------------------------------------------------------
    def emit(self, kind: str, depth: int, cell: int | None = None, value: int | None = None,
             rule: str | None = None, **detail: Any) -> None:
        if self.max_steps is not None and len(self.events) >= self.max_steps:
            raise Enough
        where = None if cell is None else rc(cell, self.geo.side)
        if self.recording is not None and kind in ("try", "place", "remove"):
            self.recording.append((kind, cell, value, rule))
        event = Event(len(self.events), kind, depth, where, value, rule, detail, self.counters())
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    # -- the search ---------------------------------------------------------------------------------
    def started(self, masks: list[int], describe: DescribeChoice, counters: Counters) -> None:
        self.start, self.describe, self.counters = masks, describe, counters
        self.recording = []  # what the root's inference does: a restart shows it again

    def started_frontier(self, masks: list[int], describe: DescribeChoice, counters: Counters) -> None:
        """A*: its frontier's states are shown as paths from the start (see `popped`)."""
        self.started(masks, describe, counters)
        self.frontier = True

    def narrated(self, grid: Grid, counters: Counters) -> None:
        """cdcl (search/learning.py) tells its own steps, in this vocabulary: here are the start
        candidates, and its counters to read at each event."""
        self.counters = counters
        self.start = Candidates(grid).masks()

    # -- cdcl's narration -------------------------------------------------------------------------
    def narrated_placement(self, depth: int, cell: int, value: int, rule: str, path: bool) -> None:
        self.emit("place", depth, cell, value, rule, **again(path))

    def narrated_removal(self, depth: int, cell: int, value: int, rule: str, path: bool) -> None:
        self.emit("remove", depth, cell, value, rule, **again(path))

    def narrated_choice(self, depth: int, cell: int, values: list[int], by: str) -> None:
        self.emit("choose", depth, cell, candidates=len(values), values=values, by=by)

    def narrated_decision(self, depth: int, cell: int, value: int) -> None:
        self.emit("try", depth, cell, value, guess=True)

    def narrated_dead_end(self, depth: int, rule: str | None, reason: str) -> None:
        self.emit("dead_end", depth, rule=rule, reason=reason)

    def narrated_backjump(self, depth: int, learned: int) -> None:
        self.emit("backtrack", depth, counted=True, learned=learned)

    def narrated_solution(self, depth: int) -> None:
        self.emit("solution", depth)

    def narrated_block(self) -> None:
        self.emit("backtrack", 0, counted=False)

    def narrated_restart(self) -> None:
        self.emit("restart", 0)

    def rooted(self) -> None:
        """The search leaves the root: what its inference did is the path back to it."""
        if self.recording is not None and not self.frontier:
            self.path, self.recording = self.recording, None

    def looked(self, depth: int, cell: int, mask: int) -> None:
        self.rooted()
        depth = self.depth if depth < 0 else depth
        if cell < 0:
            self.emit("solution", depth)
        elif not mask:
            self.emit("dead_end", depth, cell, reason="no candidate left")
        else:
            self.emit("choose", depth, cell, candidates=mask.bit_count(), values=values_of(mask),
                      **self.describe(cell, mask))

    def tried(self, depth: int, cell: int, value: int, guess: bool) -> None:
        if depth < 0:  # A*: a child of the state taken off the frontier
            depth, self.recording = self.depth, []
        self.emit("try", depth, cell, value, guess=guess)
        self.depth = depth
        self.refuted = False

    def inferred(self, placed: int) -> None:
        self.refuted = placed < 0
        if placed < 0:
            self.emit("dead_end", self.depth, rule=self.rung, reason="the inference found a contradiction")
        else:
            self.explain()
        self.steps.clear()

    def stepped_back(self, depth: int, backtrack: bool) -> None:
        self.emit("backtrack", self.depth if depth < 0 else depth, counted=backtrack)

    def restarted(self) -> None:
        self.rooted()
        self.emit("restart", 0)
        self.follow(self.path)

    # -- A*'s frontier ----------------------------------------------------------------------------
    def pushed(self, number: int) -> None:
        self.paths[number] = self.path + (self.recording or [])
        self.recording = None

    def popped(self, number: int, g: int) -> None:
        """Show the path to the state taken off the frontier: back to the start, then its steps
        again (not for the start itself, which the board holds already)."""
        path = self.path = self.paths.pop(number)  # its children's paths start from it
        self.depth = 0
        if number:
            self.emit("restart", 0, g=g, state=number)
            self.follow(path)

    def follow(self, path: list[PathStep]) -> None:
        """The steps from the start to a state again, after a restart (detail path=true)."""
        self.depth = 0
        for kind, cell, value, rule in path:
            if kind == "try":
                self.emit(kind, self.depth, cell, value, path=True)
                self.depth += 1
            else:
                self.emit(kind, max(self.depth - 1, 0), cell, value, rule, path=True)

    def child(self, total: int, number: int | None) -> None:
        if total < 0 and not self.refuted:
            self.emit("dead_end", self.depth, reason="a cell has no candidate left")
        if number is not None:
            self.pushed(number)
        self.recording = None

    # -- the inference, step by step ----------------------------------------------------------------
    def propagating(self, rung: str, masks: list[int], values: bytes) -> None:
        self.rung, self.masks, self.values = rung, masks, list(values)
        self.steps.clear()

    def placed_singles(self, placed: Mapping[int, int]) -> None:
        self.steps.append(("singles", dict(placed)))

    def removed(self, rule: str, removals: Mapping[int, int]) -> None:
        self.steps.append((rule, dict(removals)))

    def explain(self) -> None:
        """The place and remove events of the inference that just returned, step by step as the rung
        told them: a rule's removals in its order, and a round of singles one value at a time, each
        a single in the state before it (the engine places a round at once: see `next_single`)."""
        masks, peers = self.masks, self.geo.peers
        for rule, step in self.steps:
            if rule != "singles":
                for cell, lost in step.items():
                    for bit in bits(lost & masks[cell]):
                        self.emit("remove", self.depth, cell, bit.bit_length(), rule)
                        masks[cell] &= ~bit
                continue
            while step:
                cell, value, why, house = next_single(step, masks, self.geo)
                # a variant's hidden single names its house, as the puzzle names it (`diagonal -`, `region 4`):
                # there the house is what a reader cannot see at a glance (classic traces stay as they were)
                named = {"house": self.geo.unit_names[house]} if house >= 0 and not self.geo.layout.is_classic \
                    else {}
                self.emit("place", self.depth, cell, value, why, **named)
                placed(cell, value, masks, self.values, peers[cell], self.rooms, self.geo.links[cell], self.scopes)
                del step[cell]


def placed(cell: int, value: int, masks: list[int], values: list[int], peers: Sequence[int],
           rooms: Rooms | None, links: Sequence[tuple[int, Sequence[int]]] = (), scopes: Scopes | None = None) -> None:
    """A value placed, as a player replays it (the module's docstring): the value leaves its peers' candidates,
    each cell a constraint links to it loses what the value forbids there (`Geometry.links`), each Killer
    cage of the cell leaves its other empty cells only the values it still has room for, and each rule kept by its
    filter (`Scopes`) its empty cells only what its filter allows given the values placed in its cells."""
    bit = 1 << (value - 1)
    masks[cell], values[cell] = 0, value
    for p in peers:
        masks[p] &= ~bit
    for other, forbids in links:
        masks[other] &= ~forbids[value]
    if rooms is not None:
        for k in rooms.rooms_of[cell]:
            room = rooms.room(k, rooms.used(k, values))
            for mate in rooms.cells[k]:
                masks[mate] &= room
    if scopes is not None:
        for k, _ in scopes.of_cell[cell]:
            for mate, allowed in zip(scopes.cells[k], scopes.allowed(k, values), strict=True):
                if not values[mate]:
                    masks[mate] &= allowed


def again(path: bool) -> dict[str, bool]:
    """The detail of a step told again on the way back after a restart (path=true), none otherwise."""
    return {"path": True} if path else {}


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def next_single(placed: dict[int, int], masks: list[int], geo: Geometry) -> tuple[int, int, str, int]:
    """Which of a round of singles to tell next, and why: of the values the round placed, one that
    is a single in `masks` (the state the events have reached), a naked single first (its cell has
    that candidate alone), else a hidden single (the only place of its value in a unit: its index
    is the last item, -1 for a naked single); each first in row-major order, a hidden single's unit
    the first of the cell's (rows, columns, regions, then the other houses). The round's values are
    the engine's; this only orders and names them."""
    for cell, value in sorted(placed.items()):
        if masks[cell] == 1 << (value - 1):
            return cell, value, "naked single", -1
    units = geo.units
    for cell, value in sorted(placed.items()):
        bit = 1 << (value - 1)
        if masks[cell] & bit:
            for u in geo.units_of(cell):
                if sum(1 for c in units[u] if masks[c] & bit) == 1:
                    return cell, value, "hidden single", u
    raise AssertionError(f"a round of singles with no single left to tell: {sorted(placed.items())}")


# -- the trace of one solve -----------------------------------------------------------------------

def selected(spec: str) -> tuple[str, Method, dict[str, Any]]:
    """The hand-written method of a spec (`NAME[:key=value,...]`, as compare.py's --solver takes
    it) and its options; ValueError (an OptionError) if it is not one or an option is wrong."""
    try:
        parsed = MethodSpec.parse(spec)
    except OptionError as exc:
        raise OptionError(f"--solver {spec}: {exc}") from None
    name, options = parsed.name, dict(parsed.options)
    if name not in SOLVERS:
        raise OptionError(f"unknown method {name!r} in --solver {spec}; the hand-written ones: {', '.join(SOLVERS)}")
    method = SOLVERS[name]
    unknown = parsed.unknown_option([*method.options, "solutions"])
    if unknown:
        raise OptionError(f"--solver {spec}: {unknown}")
    problem = method.check(Budget(), **options)
    if problem:
        raise OptionError(f"--solver {spec}: {name}: {problem}")
    return name, method, dict(options)


def trace(grid: Grid, spec: str, max_steps: int | None = None, budget: Budget | None = None,
          on_event: Callable[[Event], None] | None = None) -> Trace:
    """The events of the solve of `grid` by the method of `spec`, up to `max_steps` of them;
    `on_event` hears each as it happens (the command line prints them so)."""
    _, method, options = selected(spec)
    geo = grid.geometry
    recorder = Recorder(geo, max_steps, on_event)
    start = Trace(spec, grid.text(), geo.side, list(grid.values), [])
    token = watching.set(recorder)
    outcome: Outcome | None = None
    try:
        outcome = method(grid, budget or Budget(), **options)
    except Enough:
        start.truncated = True
    finally:
        watching.reset(token)
    start.candidates = [values_of(m) for m in recorder.start] if recorder.start is not None else []
    start.events = recorder.events
    if outcome is None:
        start.status = "truncated"
        start.counters = dict(recorder.events[-1].counters) if recorder.events else {}
    else:
        start.status, start.detail = outcome.status.value, outcome.detail
        start.counters = dict(outcome.effort)
        if outcome.status is Status.ERROR:
            raise ValueError(outcome.detail)
        if outcome.solution is not None:
            start.solution = outcome.solution.line()
    return start


def read_puzzle(where: str) -> Grid:
    """A puzzle from the command line: its text, a file (its first puzzle), or FILE:LINE (the
    puzzle on that line of the file, 1-based, as compare.py names them). PuzzleError if not."""
    path, colon, line = where.rpartition(":")
    if colon and line.isdigit() and os.path.exists(path):
        return from_file(path, int(line))
    if os.path.exists(where):
        return from_file(where, None)
    try:
        return checked(where.strip())
    except PuzzleError as exc:
        raise PuzzleError(f"{where}: no such file, and not a puzzle ({exc})") from None


def from_file(path: str, line: int | None) -> Grid:
    lines = []
    try:
        for record in read_puzzles(path):
            if line is None or record.line == line:
                if isinstance(record, BadEntry):
                    raise PuzzleError(str(record))
                return record.grid
            lines.append(record.line)
    except PuzzleFileError as exc:
        raise PuzzleError(str(exc)) from None
    if line is None:
        raise PuzzleError(f"{path}: no puzzle in the file")
    shown = ", ".join(map(str, lines[:12])) + (", ..." if len(lines) > 12 else "")
    raise PuzzleError(f"{path}:{line}: no puzzle on that line (puzzles are on lines {shown})")

