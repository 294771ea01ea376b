"""A search you can watch: the steps of one solve, as events, from the search itself.

Every seed post draws its method as a flowchart and walks through it by hand;
this module does the walking. `trace(grid, "mrv:propagate=singles")` runs the
method's own solve with a `Recorder` plugged into the shared skeleton (a
`depth_first.Watch`, set for the solve through `depth_first.watching`; A*'s
loop reports to the same watch), so what it records is what the search did,
not a second implementation of it. Without a watch the search is unchanged.

The events, in order (`Event.step` counts from 0):

    choose     the search picks `cell` to branch on at `depth`; detail: its
               candidate count, its candidates, why (`by`, `tie`: the rule that
               broke ties among equally good cells, `tied`: how many there were)
    try        the search places `value` in `cell` at `depth` (a node);
               detail["guess"]: the cell had another untried value
    place      inference placed `value` in `cell` (`rule`: naked single,
               hidden single, ...) after the last try (or at the root)
    remove     a rule (`rule`: locked candidates, naked subsets, hidden
               subsets, alldiff, probe) removed candidate `value` from `cell`
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
  candidates of that cell's peers (the events do not list those removals);
- a `remove` takes one more candidate away (only eliminations beyond the above);
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
events carry the counters after it, and their order is one in which each
follows from the state before it (the engine places singles in rounds, so the
order is rebuilt from what it placed and removed, rule by rule).

`python -m search.trace PUZZLE_OR_FILE[:LINE] --solver SPEC` prints it (search/trace_view.py).
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from puzzles.candidates import Candidates
from puzzles.formats import BadEntry, PuzzleFileError, checked, read_puzzles
from puzzles.grid import Geometry, Grid, PuzzleError, geometry, values_of
from puzzles.options import OptionError, split_spec
from puzzles.outcome import Budget, Method, Outcome, Status

from . import SOLVERS
from .depth_first import Effort, Strategy, watching

KINDS = ("choose", "try", "place", "remove", "dead_end", "backtrack", "solution", "restart")


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


def masks_of(engine: Any, cells: int) -> list[int]:
    """Every cell's candidate mask (0 for a filled cell), from either storage."""
    if hasattr(engine, "masks"):
        return list(engine.masks())
    state = engine.state()
    return [0 if state[c] else engine.candidates(c) for c in range(cells)]


def rc(cell: int, side: int) -> list[int]:
    return [cell // side, cell % side]


class Recorder:
    """A `depth_first.Watch` (and A*'s) that turns each step of the search into `Event`s."""

    def __init__(self, geo: Geometry, how: dict[str, Any], max_steps: int | None,
                 on_event: Callable[[Event], None] | None = None) -> None:
        self.geo, self.how, self.max_steps, self.on_event = geo, how, max_steps, on_event
        self.events: list[Event] = []
        self.engine: Any = None
        self.inference: Any = None
        self.effort: Effort | None = None
        self.extra: Callable[[], dict[str, int]] | None = None  # A*'s counters
        self.start: list[int] | None = None
        self.before: tuple[list[int], bytes] | None = None  # the state the next inference starts from
        self.depth = 0
        self.log: list[tuple[str, dict[int, int]]] = []  # what each rule above singles removed, in order
        self.fresh = True  # a propagation is about to start (probing: its first settle is its own)
        self.tally: Any = None
        self.settled: list[int] | None = None
        # A*: the events that lead from the start to each state of its frontier, the state the
        # board holds, how many tries deep it is, and the events of the child being made
        self.paths: dict[int, list[tuple[str, int | None, int | None, str | None]]] = {}
        self.path: list[tuple[str, int | None, int | None, str | None]] = []
        self.recording: list[tuple[str, int | None, int | None, str | None]] | None = None

    # -- the events -------------------------------------------------------------------------------
    def counters(self) -> dict[str, int]:
        if self.extra is not None:
            return self.extra()
        counters = self.effort.counters() if self.effort is not None else {}
        if self.inference is not None and self.inference.removes:
            counters["eliminated"] = self.inference.eliminated
        return counters

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

    # -- the Watch --------------------------------------------------------------------------------
    def started(self, strategy: Strategy[Any], effort: Effort) -> None:
        self.effort = effort
        self.attach(strategy.engine, strategy.inference)
        self.recording = []  # what the root's inference does: a restart shows it again

    def rooted(self) -> None:
        """The search leaves the root: what its inference did is the path back to it."""
        if self.recording is not None and self.extra is None:
            self.path, self.recording = self.recording, None

    def attach(self, engine: Any, inference: Any, counters: Callable[[], dict[str, int]] | None = None) -> None:
        """The engine to read and the rung to follow; the start candidates are read now. With
        `counters` (A*'s): its frontier's states are shown as paths from the start (see below)."""
        self.engine, self.inference = engine, inference
        if counters is not None:
            self.extra, self.recording = counters, []
        steps = getattr(inference, "steps", None)
        for step in steps or ():  # a rung above singles: hear what each of its rules removes, in order
            step.rule = self.heard(step.name, step.rule)
        if getattr(inference, "probe", False) and hasattr(inference, "settle"):
            inference.settle = self.settling(inference.settle)
        self.start = masks_of(engine, self.geo.cells)
        self.before = (self.start, engine.state())

    def narrated(self, grid: Grid, counters: Callable[[], dict[str, int]]) -> None:
        """cdcl (search/learning.py) tells its own steps, in this vocabulary: here are the start
        candidates, and its counters to read at each event."""
        self.extra = counters
        self.start = masks_of(Candidates(grid), self.geo.cells)

    def heard(self, name: str, rule: Callable[..., Any]) -> Callable[..., Any]:
        def listened(masks: Sequence[int], geo: Geometry, units: Any) -> Any:
            removals = rule(masks, geo, units)
            if removals:
                self.log.append((name, dict(removals)))
            return removals
        return listened

    def settling(self, settle: Callable[..., int]) -> Callable[..., int]:
        """Probing settles the state after each trial placement (undone after) and after each
        candidate it refutes: only the latter count. The first settle of a propagation gets its
        tally, the trials a fresh one; what a trial's rules removed is forgotten, and what changed
        between two settles of the propagation is the probe's removal."""
        def settled(engine: Any, tally: Any) -> int:
            if self.fresh:  # the propagation's own settle: its tally tells its later settles
                self.fresh, self.tally, self.settled = False, tally, None
            if tally is not self.tally:  # a trial
                kept = len(self.log)
                try:
                    return settle(engine, tally)
                finally:
                    del self.log[kept:]
            if self.settled is not None:
                now = masks_of(engine, self.geo.cells)
                lost = {c: m & ~n for c, (m, n) in enumerate(zip(self.settled, now, strict=True)) if m & ~n}
                if lost:
                    self.log.append(("probe", lost))
            placed = settle(engine, tally)
            self.settled = masks_of(engine, self.geo.cells)
            return placed

        return settled

    def looked(self, depth: int, cell: int, mask: int) -> None:
        self.rooted()
        depth = self.depth if depth < 0 else depth
        if cell < 0:
            self.emit("solution", depth)
        elif not mask:
            self.emit("dead_end", depth, cell, reason="no candidate left")
        else:
            count = mask.bit_count()
            detail = {key: value for key, value in self.how.items() if key != "rung"}
            if detail.get("by") == "fewest candidates":
                masks = masks_of(self.engine, self.geo.cells)
                detail["tied"] = sum(1 for m in masks if m and m.bit_count() == count)
            self.emit("choose", depth, cell, candidates=count, values=values_of(mask), **detail)

    def tried(self, depth: int, cell: int, value: int, guess: bool) -> None:
        if depth < 0:  # A*: a child of the state taken off the frontier
            depth, self.recording = self.depth, []
        self.emit("try", depth, cell, value, guess=guess)
        self.depth = depth
        if self.inference is not None:
            self.before = (masks_of(self.engine, self.geo.cells), self.engine.state())
            self.log.clear()
            self.fresh = True

    def inferred(self, placed: int) -> None:
        if placed < 0:
            self.emit("dead_end", self.depth, rule=self.how.get("rung"), reason="the inference found a contradiction")
        else:
            self.explain()
        self.log.clear()

    def stepped_back(self, depth: int, backtrack: bool) -> None:
        self.emit("backtrack", self.depth if depth < 0 else depth, counted=backtrack)

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

    def follow(self, path: list[tuple[str, int | None, int | None, str | None]]) -> None:
        """The steps from the start to a state again, after a restart (detail path=true)."""
        self.depth = 0
        for kind, cell, value, rule in path:
            if kind == "try":
                self.emit(kind, self.depth, cell, value, path=True)
                self.depth += 1
            else:
                self.emit(kind, max(self.depth - 1, 0), cell, value, rule, path=True)

    def child(self, placed: int, total: int, number: int | None) -> None:
        if self.inference is not None:
            self.inferred(placed)
        if placed >= 0 and total < 0:
            self.emit("dead_end", self.depth, reason="a cell has no candidate left")
        if number is not None:
            self.pushed(number)
        self.recording = None

    def restarted(self) -> None:
        self.rooted()
        self.emit("restart", 0)
        self.follow(self.path)

    # -- what an inference did, rule by rule ------------------------------------------------------
    def explain(self) -> None:
        """The place and remove events of the inference that just returned, in an order where each
        follows from the state before it: singles as soon as one holds, otherwise the next removals
        a rule reported; what nothing explains (probing's removals) last, under the rung's name."""
        assert self.before is not None
        masks, state = self.before
        after, now = masks_of(self.engine, self.geo.cells), self.engine.state()
        peers, units = self.geo.peers, self.geo.units
        pending = {c: now[c] for c in range(self.geo.cells) if now[c] and not state[c]}
        implied = {(p, 1 << (v - 1)) for c, v in pending.items() for p in peers[c]}
        gone = {(c, bit) for c in range(self.geo.cells) if not now[c]
                for bit in bits(masks[c] & ~after[c])} - implied
        sim = list(masks)
        log = deque(self.log)
        leftover = self.how.get("rung")

        def place(cell: int, value: int, rule: str) -> None:
            self.emit("place", self.depth, cell, value, rule)
            bit = 1 << (value - 1)
            sim[cell] = 0
            for p in peers[cell]:
                sim[p] &= ~bit
            del pending[cell]

        def remove(cell: int, mask: int, rule: str | None) -> None:
            for bit in bits(mask & sim[cell]):
                self.emit("remove", self.depth, cell, bit.bit_length(), rule)
                sim[cell] &= ~bit

        while pending:
            single = next_single(pending, sim, units, self.geo)
            if single is not None:
                place(*single)
                continue
            if log:
                name, removals = log.popleft()
                for cell, mask in removals.items():
                    remove(cell, mask, name)
                continue
            stray = [(c, b) for c, b in sorted(gone) if sim[c] & b]
            if stray:
                for c, b in stray:
                    remove(c, b, leftover)
                continue
            for cell, value in sorted(pending.items()):  # not expected: placed with no reason seen
                place(cell, value, "singles")
        for name, removals in log:
            for cell, mask in removals.items():
                remove(cell, mask, name)
        for c, b in sorted(gone):
            if sim[c] & b:
                remove(c, b, leftover)


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def next_single(pending: dict[int, int], sim: list[int], units: Sequence[Sequence[int]],
                geo: Geometry) -> tuple[int, int, str] | None:
    """Among the values the inference placed, one that is a single in `sim`: a naked single first
    (its cell has that candidate alone), else a hidden single (the only place of its value in a unit)."""
    for cell, value in sorted(pending.items()):
        if sim[cell] == 1 << (value - 1):
            return cell, value, "naked single"
    for cell, value in sorted(pending.items()):
        bit = 1 << (value - 1)
        if sim[cell] & bit and any(sum(1 for c in units[u] if sim[c] & bit) == 1 for u in geo.units_of(cell)):
            return cell, value, "hidden single"
    return None


# -- the trace of one solve -----------------------------------------------------------------------

def choosing(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """How the method picks its cell (the choose events' detail), and its rung. (cdcl tells its
    own choices, with their detail: search/learning.py.)"""
    how: dict[str, Any] = {"rung": options.get("propagate", "none")}
    if name == "backtracking":
        how.update(by="next blank in row-major order", tie="none")
    elif options.get("choose") == "domwdeg":  # a weighted choice (search/weighted.py, where it is present)
        how.update(by="fewest candidates per failure weight (dom/wdeg)", tie="rowmajor")
    elif name == "restart":
        how.update(by="fewest candidates", tie=f"random (seed {options.get('seed', 0)})")
    else:
        how.update(by="fewest candidates", tie=options.get("tie", "rowmajor"))
    return how


def selected(spec: str) -> tuple[str, Method, dict[str, Any]]:
    """The hand-written method of a spec (`NAME[:key=value,...]`, as compare.py's --solver takes
    it) and its options; ValueError (an OptionError) if it is not one or an option is wrong."""
    try:
        name, options = split_spec(spec)
    except OptionError as exc:
        raise OptionError(f"--solver {spec}: {exc}") from None
    if name not in SOLVERS:
        raise OptionError(f"unknown method {name!r} in --solver {spec}; the hand-written ones: {', '.join(SOLVERS)}")
    method = SOLVERS[name]
    allowed = [*method.options, "solutions"]
    for key in options:
        if key not in allowed:
            raise OptionError(f"--solver {spec}: {name} has no option {key!r}; its options: {', '.join(allowed)}")
    problem = method.check(Budget(), **options)
    if problem:
        raise OptionError(f"--solver {spec}: {name}: {problem}")
    return name, method, dict(options)


def trace(grid: Grid, spec: str, max_steps: int | None = None, budget: Budget | None = None,
          on_event: Callable[[Event], None] | None = None) -> Trace:
    """The events of the solve of `grid` by the method of `spec`, up to `max_steps` of them;
    `on_event` hears each as it happens (the command line prints them so)."""
    name, method, options = selected(spec)
    geo = geometry(grid.box)
    recorder = Recorder(geo, choosing(name, options), max_steps, on_event)
    start = Trace(spec, grid.line(), geo.side, list(grid.values), [])
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


if __name__ == "__main__":  # python -m search.trace: the command line is trace_view's
    from search.trace_view import main

    raise SystemExit(main())
