#!/usr/bin/env python3
"""Run every method on puzzle files, check that they agree, and report each one's search effort.

    python compare.py [FILE ...] [--solver NAME[:key=value,...]]... [--timeout S] [--nodes N]
        [--solutions 2] [--limit K] [--sample K] [--seed S] [--isomorphs K] [--jobs N]
        [--format csv|jsonl] [--output FILE] [--plot FILE.png] [--reference METHOD] [--registry MODULE]
        [--list]

How it runs. The puzzle files are streamed: each puzzle becomes one work item per
method, (puzzle id, method index, cell values), and items go to worker processes
in chunks sized to take about 50 ms, at most two chunks in flight per worker, so
memory stays flat whatever the file's length. Workers are forked from this
process: the registries (and ortools, when a chosen method needs it) are imported
once, here, and methods that tests register are found too. A worker counts the
runs it starts and stamps the start time of each in shared memory, and sends
results in batches every 20 ms and at the end of each chunk. The parent kills a
worker whose run in hand overruns the timeout plus a grace (10% + 1 s), records
that run as gave_up (time), puts the worker's other unreported items back in the
queue and forks a new worker; a worker that dies turns its run in hand into an
error record the same way. When a puzzle's runs are all in, its answers are
judged: each was already checked against the rules and the givens in the worker;
valid answers that differ mean more than one solution, certified by CP-SAT with
solutions=2 (itself a work item); unsatisfiable against a valid answer, or a
uniqueness claim against the evidence, is a disagreement.
"""
from __future__ import annotations

import argparse
import csv
import gc
import importlib
import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time
from array import array
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from puzzles import (BadEntry, Budget, Entry, Grid, Method, Outcome, PuzzleFileError, Status,
                     Isomorph, random_isomorph, read_puzzles)

HERE = Path(__file__).resolve().parent
DEFAULT_FILE = HERE / "puzzles" / "seeds.txt"
REGISTRY_PACKAGES = ("search", "formulations")  # registries are merged in this order
CERTIFIER = "cpsat"  # certifies multi-solution puzzles with solutions=2
COMMON_COUNTERS = ("nodes", "guesses", "backtracks")
PLOT_COUNTERS = ("nodes", "guesses", "decisions", "branches", "conflicts")  # y axis of the effort plot, first found
STATUSES = ("solved", "unsatisfiable", "gave_up", "error")
GAVE_UP_REASONS = ("time", "nodes", "incomplete")  # Outcome.detail of gave_up, as the contract has them
GRACE_SECONDS, GRACE_FRACTION = 1.0, 0.1  # a run is killed at timeout * 1.1 + 1 s
CHUNK_SECONDS = 0.05  # target duration of a chunk: few messages, yet balanced work
MAX_CHUNK = 32
CHUNKS_IN_FLIGHT = 2  # per worker: one running and one waiting, so a worker never idles
BATCH_SECONDS = 0.02  # a worker sends the results of a chunk at least this often
LISTED = 10  # lines of each list on screen before "N more"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

Item = tuple[int, int, int, bytes]  # (puzzle id, method index, box size, cell values): cheap to send


class UsageError(Exception):
    """A bad command line or an unreadable file: one clear line on stderr, exit status 2."""


# -- choosing methods ---------------------------------------------------------------------
@dataclass(frozen=True)
class Selected:
    """A method as chosen on the command line: its label, e.g. `mrv:propagate=singles`."""

    label: str
    method: Method | LazyMethod
    options: dict[str, Any]  # keyword arguments of every call, `solutions` included

    @property
    def asks_two(self) -> bool:
        return str(self.options.get("solutions")) == "2"


def load_registry(wanted: Iterable[str] | None = None) -> dict[str, Method]:
    """search.SOLVERS then formulations.SOLVERS; a package that fails to import is skipped with a warning.

    With `wanted` names, the packages after the first that registers them all are not imported:
    `--solver mrv` starts without ortools.
    """
    registry: dict[str, Method] = {}
    for package in REGISTRY_PACKAGES:
        if wanted is not None and registry and all(name in registry for name in wanted):
            break
        try:
            module = importlib.import_module(package)
        except Exception as exc:  # a broken package must not hide the others
            warn(f"{package} cannot be imported ({type(exc).__name__}: {exc}); its methods are left out")
            continue
        registry.update(getattr(module, "SOLVERS", {}))
    return registry


def extra_methods(modules: Sequence[str]) -> dict[str, Method]:
    """The SOLVERS of each --registry module: a solver of your own, compared with the project's."""
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # a module beside the user, as `python -m` would find it
    found: dict[str, Method] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except Exception as exc:
            raise UsageError(f"--registry {name}: cannot import it ({type(exc).__name__}: {exc})") from None
        solvers = getattr(module, "SOLVERS", None)
        if not isinstance(solvers, dict):
            raise UsageError(f"--registry {name}: it has no SOLVERS dict (name -> puzzles.Method)")
        found.update(solvers)
    return found


class LazyMethod:
    """A registered method imported on its first call, in the worker: the certifier when ortools was not loaded."""

    def __init__(self, package: str, name: str) -> None:
        self.package, self.name = package, name
        self.method: Method | None = None

    def __call__(self, grid: Grid, budget: Budget, **options: Any) -> Outcome:
        if self.method is None:
            try:
                self.method = importlib.import_module(self.package).SOLVERS[self.name]
            except Exception as exc:
                return Outcome(Status.ERROR, detail=f"{self.package}.SOLVERS[{self.name!r}]: {exc}")
        return self.method(grid, budget, **options)


def certifier(registry: dict[str, Method], injected: bool) -> Method | LazyMethod | None:
    """The method that certifies uniqueness, if there is one."""
    if CERTIFIER in registry:
        return registry[CERTIFIER]
    return None if injected else LazyMethod("formulations", CERTIFIER)


def parse_solver(spec: str, registry: dict[str, Method], solutions: int) -> Selected:
    """`NAME[:key=value,...]` -> Selected; option names are checked here, values by the method's own check."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in registry:
        raise UsageError(f"unknown method {name!r} in --solver {spec}; registered: {', '.join(registry) or 'none'}")
    method = registry[name]
    allowed = list(dict.fromkeys([*method.options, "solutions"]))
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = (s.strip() for s in part.partition("="))
        if not eq or not key:
            raise UsageError(f"--solver {spec}: options are key=value pairs separated by commas")
        if key not in allowed:
            raise UsageError(f"--solver {spec}: {name} has no option {key!r}; its options: {', '.join(allowed)}")
        options[key] = value
    problem = method.check(**{"solutions": solutions, **options}) if isinstance(method, Method) else None
    if problem:  # a bad value would make every run an error: refuse it before any work
        raise UsageError(f"--solver {spec}: {name}: {problem}")
    label = name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    return Selected(label, method, {"solutions": solutions, **options})


def select_methods(specs: Sequence[str] | None, registry: dict[str, Method], solutions: int) -> list[Selected]:
    if not registry:
        raise UsageError("no method is registered (search.SOLVERS and formulations.SOLVERS are empty)")
    chosen = [parse_solver(s, registry, solutions) for s in specs or registry]
    unique = {s.label: s for s in chosen}  # the same label twice runs once
    return list(unique.values())


# -- the puzzle stream ---------------------------------------------------------------------
@dataclass(slots=True)
class Puzzle:
    """One puzzle to run: where it came from, which isomorph it is, its line form."""

    id: int
    file: str
    line: int
    name: str
    isomorph: int  # 0 = the file's own puzzle; 1..K = random isomorphs
    grid: Grid
    solution: str | None  # the file's solution, when it gives one


def open_inputs(paths: Sequence[str]) -> list[Iterator[Entry | BadEntry]]:
    """Open every file first, so that an unreadable one stops the run before any work."""
    return [read_puzzles(path) for path in paths]


def good_entries(inputs: Iterable[Iterator[Entry | BadEntry]],
                 on_bad: Callable[[BadEntry], None]) -> Iterator[tuple[int, Entry]]:
    """The good entries of every input with their position in the whole stream; bad ones go to on_bad."""
    position = 0
    for record in itertools.chain.from_iterable(inputs):
        if isinstance(record, BadEntry):
            on_bad(record)
            continue
        yield position, record
        position += 1


def reservoir(stream: Iterable[tuple[int, Entry]], k: int, rng: random.Random) -> Iterator[tuple[int, Entry]]:
    """A uniform random sample of k entries, holding only k in memory, in file order."""
    kept: list[tuple[int, Entry]] = []
    for i, item in enumerate(stream):
        if i < k:
            kept.append(item)
        else:
            j = rng.randrange(i + 1)
            if j < k:
                kept[j] = item
    yield from sorted(kept, key=lambda item: item[0])


def puzzles_of(entries: Iterable[tuple[int, Entry]], isomorphs: int | None, seed: int) -> Iterator[Puzzle]:
    """Each entry as a Puzzle, or as `isomorphs` random isomorphs of it."""
    ids = itertools.count()
    for position, entry in entries:
        solution = entry.solution.line() if entry.solution is not None else None
        if not isomorphs:
            yield Puzzle(next(ids), entry.file, entry.line, entry.name, 0, entry.grid, solution)
            continue
        # Seeded by the puzzle's position: the same isomorphs whatever --jobs, --limit or --sample.
        rng = random.Random(f"{seed}:{position}")
        for k in range(1, isomorphs + 1):
            moves = Isomorph.draw(entry.grid.box, rng)  # the same moves map the file's solution alike
            iso_solution = moves.apply(entry.solution).line() if entry.solution is not None else None
            yield Puzzle(next(ids), entry.file, entry.line, entry.name, k, moves.apply(entry.grid), iso_solution)


# -- workers ------------------------------------------------------------------------------
# A run's result as sent back by a worker: status, detail, solution line, unique, seconds,
# effort, problems (why the solution is not valid; empty when it is).
RunResult = tuple[str, str, "str | None", "bool | None", float, dict, list]


def run_one(grid: Grid, selected: Selected, budget: Budget) -> RunResult:
    """Call one method on one puzzle and check its answer; nothing it does escapes as an exception."""
    started = time.perf_counter()
    try:
        outcome = selected.method(grid, budget, **selected.options)
    except (Exception, SystemExit) as exc:  # the contract says errors are Outcomes; hold methods to it
        return ("error", f"raised {type(exc).__name__}: {exc}", None, None, time.perf_counter() - started, {}, [])
    seconds = time.perf_counter() - started
    status = str(getattr(outcome, "status", ""))
    if status not in STATUSES:
        return ("error", f"returned {outcome!r:.80}, not an Outcome", None, None, seconds, {}, [])
    try:
        effort = {str(k): int(v) for k, v in (outcome.effort or {}).items()}
    except (TypeError, ValueError):
        return ("error", f"effort is not a dict of whole numbers: {outcome.effort!r:.80}", None, None, seconds, {}, [])
    unique = None if outcome.unique is None else bool(outcome.unique)
    if status != "solved":
        return (status, str(outcome.detail or ""), None, unique, seconds, effort, [])
    solution = outcome.solution
    if not isinstance(solution, Grid):
        return (status, str(outcome.detail or ""), None, unique, seconds, effort, ["solved, but returned no grid"])
    problems = grid.solution_problems(solution)
    return (status, str(outcome.detail or ""), solution.line(), unique, seconds, effort, problems)


def worker_main(conn: Connection, clock: Any, started: Any, runners: Sequence[Selected], budget: Budget) -> None:
    """A worker: run the items of each chunk it receives, sending their results in small batches."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    gc.freeze()  # the inherited heap is never collected here: no scans of it, no copy-on-write of its pages
    cells, grid = b"", None
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        if chunk is None:
            return
        batch: list[tuple] = []
        sent = time.monotonic()
        for pid, index, box, values in chunk:
            clock.value = time.monotonic()
            started.value += 1  # after the clock: the parent reads which run is in hand, then since when
            if values != cells:  # the items of one puzzle come together: build its Grid once
                cells, grid = values, Grid(box, values)
            batch.append((pid, index, *run_one(grid, runners[index], budget)))
            now = time.monotonic()
            if now - sent >= BATCH_SECONDS:  # one message per batch, not per run: fewer wake-ups
                clock.value = now  # the parent must not charge the time of this send to the next run
                conn.send(batch)
                batch, sent = [], now
        clock.value = time.monotonic()
        conn.send(batch)  # at the end of a chunk, so that the parent refills the worker at once


@dataclass
class Worker:
    process: Any
    conn: Connection
    clock: Any  # shared double: monotonic time at which the run in hand started
    started: Any  # shared count of the runs this worker has started
    reported: int = 0  # how many of them the parent has received
    inflight: deque = field(default_factory=deque)  # items sent, not yet reported, in order
    chunks: deque = field(default_factory=deque)  # how many items of each chunk in flight are unreported

    def in_hand(self) -> int | None:
        """The position in `inflight` of the run in hand; those before it are done but not yet reported."""
        ahead = self.started.value - self.reported
        return ahead - 1 if 0 < ahead <= len(self.inflight) else None


class Pool:
    """Worker processes fed with chunks of items; runs that overrun are killed, crashes survived."""

    def __init__(self, jobs: int, runners: Sequence[Selected], budget: Budget, limit: float) -> None:
        self.context = multiprocessing.get_context("fork")  # workers inherit the methods, tests' ones too
        self.runners, self.budget, self.limit = runners, budget, limit
        self.queue: deque[Item] = deque()  # items to send before new ones: certifications, a dead worker's rest
        self.source_done = False
        self.item_seconds: float | None = None  # running average, sizes the chunks
        self.busy_seconds = 0.0  # the time of every run reported: how busy the workers were
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self) -> Worker:
        sys.stdout.flush()  # a forked child must not inherit (and later write out) buffered output
        sys.stderr.flush()
        parent_end, child_end = self.context.Pipe()
        clock, started = self.context.RawValue("d", 0.0), self.context.RawValue("q", 0)
        process = self.context.Process(target=worker_main, daemon=True,
                                       args=(child_end, clock, started, self.runners, self.budget))
        process.start()
        child_end.close()  # so that the parent reads EOF when the worker dies
        return Worker(process, parent_end, clock, started)

    def chunk_size(self) -> int:
        if self.item_seconds is None:
            return 1
        return max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(self.item_seconds, 1e-6))))

    def _take(self, count: int, source: Iterator[Item]) -> list[Item]:
        chunk: list[Item] = []
        while len(chunk) < count and self.queue:
            chunk.append(self.queue.popleft())
        while len(chunk) < count and not self.source_done:
            item = next(source, None)
            if item is None:
                self.source_done = True
            else:
                chunk.append(item)
        return chunk

    def dispatch(self, source: Iterator[Item]) -> None:
        """Give every worker with room another chunk, while there is work."""
        for worker in self.workers:
            while len(worker.chunks) < CHUNKS_IN_FLIGHT:
                chunk = self._take(self.chunk_size(), source)
                if not chunk:
                    return
                worker.inflight.extend(chunk)
                worker.chunks.append(len(chunk))
                try:
                    worker.conn.send(chunk)
                except OSError:  # it died: collect() will see that and put the chunk back in the queue
                    break

    def finished(self) -> bool:
        return self.source_done and not self.queue and not any(w.inflight for w in self.workers)

    def collect(self) -> list[tuple]:
        """Results that arrive before the next deadline, and the records of runs stopped or lost."""
        busy = [w for w in self.workers if w.inflight]
        now = time.monotonic()
        deadlines = [w.clock.value + self.limit for w in busy if w.in_hand() is not None]
        waitables = {}
        for w in busy:
            waitables[w.conn] = waitables[w.process.sentinel] = w
        ready = wait(list(waitables), timeout=min(0.5, max(0.0, min(deadlines, default=now + 0.5) - now)))
        results: list[tuple] = []
        for worker in {id(waitables[r]): waitables[r] for r in ready}.values():
            results.extend(self._drain(worker))
        now = time.monotonic()
        for worker in self.workers:
            if worker.in_hand() is not None and now - worker.clock.value > self.limit:
                results.extend(self._lose(worker, killed=True))
        return results

    def _drain(self, worker: Worker) -> list[tuple]:
        results = []
        try:
            while worker.inflight and worker.conn.poll():
                results.extend(self._received(worker, worker.conn.recv()))
        except (EOFError, OSError):
            pass  # the worker died; the check below records it
        if worker.inflight and not worker.process.is_alive():
            results.extend(self._lose(worker, killed=False))
        return results

    def _received(self, worker: Worker, batch: list[tuple]) -> list[tuple]:
        for message in batch:
            worker.inflight.popleft()
            worker.reported += 1
            worker.chunks[0] -= 1
            if not worker.chunks[0]:
                worker.chunks.popleft()
            seconds = message[6]
            self.busy_seconds += seconds
            self.item_seconds = seconds if self.item_seconds is None else 0.9 * self.item_seconds + 0.1 * seconds
        return batch

    def _lose(self, worker: Worker, killed: bool) -> list[tuple]:
        """The run in hand ends as gave_up (killed) or error (crashed); the worker's other items go back.

        Runs it finished but had not reported yet are lost with it, and run again.
        """
        items = list(worker.inflight)
        pid, index, _, _ = items.pop(worker.in_hand() or 0)  # a worker dead between runs: blame the next one
        seconds = time.monotonic() - worker.clock.value
        self.queue.extendleft(reversed(items))
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        slot = next(i for i, w in enumerate(self.workers) if w is worker)
        self.workers[slot] = self._start()
        if killed:
            return [(pid, index, "gave_up", "time", None, None, seconds, {}, [])]
        return [(pid, index, "error", f"the worker died ({exit_reason(worker.process.exitcode)})", None, None,
                 seconds, {}, [])]

    def close(self) -> None:
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in self.workers:
            worker.process.join(timeout=1)
            self.kill(worker)

    def terminate(self) -> None:
        for worker in self.workers:
            self.kill(worker)

    @staticmethod
    def kill(worker: Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


# -- judging a puzzle ------------------------------------------------------------------------
@dataclass(slots=True)
class Result:
    status: str
    detail: str
    solution: str | None
    unique: bool | None
    seconds: float
    effort: dict[str, int]
    problems: list[str]

    @property
    def valid(self) -> bool | None:
        """True for a valid solution, False for an invalid one, None when nothing was solved."""
        return None if self.status != "solved" else not self.problems


@dataclass(frozen=True)
class Verdict:
    kind: str  # agree | multiple_solutions | disagreement | invalid | unsatisfiable | unsolved | interrupted
    note: str = ""
    disagree: frozenset[int] = frozenset()  # indices of the methods that disagree


def judge(puzzle: Puzzle, results: Sequence[Result], labels: Sequence[str], cert: Result | None,
          can_certify: bool) -> Verdict | None:
    """The verdict on one puzzle's answers; None when CP-SAT should certify first."""
    valid = {i: r.solution for i, r in enumerate(results) if r.valid}
    invalid = [i for i, r in enumerate(results) if r.valid is False]
    answers = set(valid.values())
    notes: list[str] = []
    file_wrong = False
    if puzzle.solution is not None:  # the file's solution counts as one more answer, when it is valid
        problems = puzzle.grid.solution_problems(Grid.parse(puzzle.solution))
        if problems:  # the file and the methods cannot both be right: worth a failing exit
            notes.append(f"the file's solution is not valid ({problems[0]})")
            file_wrong = True
        else:
            answers.add(puzzle.solution)
    claims = {i: results[i].unique for i in valid if results[i].unique is not None}
    if (len(answers) > 1 or False in claims.values()) and cert is None and can_certify:
        return None
    truth = cert.unique if cert is not None and cert.valid else None  # CP-SAT's word on uniqueness
    disagree: set[int] = set()
    if answers:
        disagree.update(i for i, r in enumerate(results) if r.status == "unsatisfiable")
    if truth is True:
        disagree.update(i for i, s in valid.items() if s != cert.solution)
        disagree.update(i for i, u in claims.items() if u is False)
        if len(answers | {cert.solution}) > 1:
            notes.append(f"{CERTIFIER} says the solution is unique, yet valid answers differ")
    elif len(answers) > 1 or truth is False:
        disagree.update(i for i, u in claims.items() if u is True)
    elif False in claims.values() and True in claims.values():
        disagree.update(claims)  # they contradict each other and nothing settles it
    multi = truth is False or (truth is None and (len(answers) > 1 or False in claims.values()))
    if invalid:
        notes[:0] = [f"{labels[i]}: {'; '.join(results[i].problems)}" for i in invalid]
        kind = "invalid"
    elif disagree or file_wrong:
        kind = "disagreement"
        if disagree:
            notes.insert(0, describe(results, labels, disagree))
    elif multi:
        kind = "multiple_solutions"
        notes.insert(0, f"certified by {CERTIFIER} (solutions=2)" if truth is False
                     else "valid answers differ" if len(answers) > 1 else "a method found a second solution")
    elif answers:
        kind = "agree"
    elif any(r.status == "unsatisfiable" for r in results):
        kind = "unsatisfiable"
    else:
        kind = "unsolved"
    return Verdict(kind, "; ".join(notes), frozenset(disagree))


def describe(results: Sequence[Result], labels: Sequence[str], disagree: set[int]) -> str:
    def said(r: Result) -> str:
        return "unique" if r.unique else "not unique" if r.unique is False else r.status
    return ", ".join(f"{labels[i]} said {said(results[i])}" for i in sorted(disagree))


# -- statistics --------------------------------------------------------------------------
class MethodStats:
    """What one method did, per puzzle, in flat arrays (no records kept)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.counts: Counter[str] = Counter()
        self.seconds = array("d")
        self.solved = bytearray()  # 1 where the answer was a valid solution
        self.effort: dict[str, array] = {}  # counter -> values aligned with seconds, NaN where not reported

    def add(self, result: Result, disagrees: bool) -> None:
        n = len(self.seconds)
        self.counts[result.status] += 1
        if result.status == "gave_up":
            self.counts[f"gave_up_{result.detail if result.detail in GAVE_UP_REASONS else 'other'}"] += 1
        self.counts["invalid"] += result.valid is False
        self.counts["disagreements"] += disagrees
        self.seconds.append(result.seconds)
        self.solved.append(result.valid is True)
        for name, value in result.effort.items():
            if name not in self.effort:
                self.effort[name] = array("d", [math.nan]) * n
            self.effort[name].append(value)
        for column in self.effort.values():
            if len(column) == n:
                column.append(math.nan)


def present(values: Iterable[float]) -> list[float]:
    return [v for v in values if not math.isnan(v)]


@dataclass
class Summary:
    """Everything the screen report needs, bounded in size."""

    stats: list[MethodStats]
    puzzles: int = 0
    verdicts: Counter = field(default_factory=Counter)
    notable: dict[str, list[str]] = field(default_factory=dict)  # kind -> first LISTED lines
    notable_count: Counter = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)
    bad_count: int = 0

    def note(self, kind: str, line: str) -> None:
        self.notable_count[kind] += 1
        lines = self.notable.setdefault(kind, [])
        if len(lines) < LISTED:
            lines.append(line)

    def add_bad(self, entry: BadEntry) -> None:
        self.bad_count += 1
        if len(self.bad) < LISTED:
            self.bad.append(str(entry))

    @property
    def failed(self) -> bool:
        return bool(self.verdicts["invalid"] or self.verdicts["disagreement"])


# -- records --------------------------------------------------------------------------------
RECORD_FIELDS = ("file", "line", "name", "isomorph", "method", "status", "detail", "solution", "unique",
                 "seconds", "valid", "problems", "verdict", "note", "disagrees")


def counter_columns(selected: Sequence[Selected]) -> list[str]:
    """The union of the methods' declared counters, the common ones first."""
    declared = [c for s in selected for c in s.method.counters]
    return list(dict.fromkeys([c for c in COMMON_COUNTERS if c in declared] + declared))


class RecordWriter:
    """One record per (puzzle, method), as CSV or JSON lines, flushed as puzzles finish."""

    def __init__(self, path: str, fmt: str, counters: Sequence[str]) -> None:
        self.fmt, self.counters = fmt, list(counters)
        self.fields = [*RECORD_FIELDS, *self.counters, "extra"]
        self.handle: IO[str] = open(path, "w", newline="", encoding="utf-8")
        self.csv = csv.DictWriter(self.handle, self.fields) if fmt == "csv" else None
        if self.csv:
            self.csv.writeheader()

    def write(self, record: dict[str, Any]) -> None:
        if self.csv:
            self.csv.writerow({k: csv_value(v) for k, v in record.items()})
        else:
            self.handle.write(json.dumps(record) + "\n")

    def run_record(self, puzzle: Puzzle, selected: Selected, result: Result, verdict: Verdict,
                   disagrees: bool) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=puzzle.file, line=puzzle.line, name=puzzle.name, isomorph=puzzle.isomorph,
                      method=selected.label, status=result.status, detail=result.detail,
                      solution=result.solution, unique=result.unique if selected.asks_two else None,
                      seconds=round(result.seconds, 6), valid=result.valid, problems="; ".join(result.problems),
                      verdict=verdict.kind, note=verdict.note, disagrees=disagrees)
        extra = {k: v for k, v in result.effort.items() if k not in self.counters}
        record.update((k, v) for k, v in result.effort.items() if k in self.counters)
        record["extra"] = extra or None
        return record

    def bad_record(self, entry: BadEntry) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=entry.file, line=entry.line, status="bad_entry", detail=entry.reason)
        return record

    def flush(self) -> None:
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value)
    return value


# -- following puzzles through the run ---------------------------------------------------------
@dataclass(slots=True)
class PuzzleRun:
    puzzle: Puzzle
    results: dict[int, Result] = field(default_factory=dict)
    cert: Result | None = None
    cert_asked: bool = False


class Tracker:
    """Hands out the items of each puzzle, gathers their results, judges and records finished puzzles."""

    def __init__(self, selected: Sequence[Selected], certify: bool, pool_queue: deque,
                 summary: Summary, writer: RecordWriter | None, progress: "ProgressBar") -> None:
        self.selected, self.labels = selected, [s.label for s in selected]
        self.cert_index = len(selected) if certify else None
        self.queue, self.summary, self.writer, self.progress = pool_queue, summary, writer, progress
        self.open: dict[int, PuzzleRun] = {}

    def items(self, puzzles: Iterable[Puzzle]) -> Iterator[Item]:
        for puzzle in puzzles:
            self.open[puzzle.id] = PuzzleRun(puzzle)
            for index in range(len(self.selected)):
                yield puzzle.id, index, puzzle.grid.box, puzzle.grid.values

    def bad_entry(self, entry: BadEntry) -> None:
        self.summary.add_bad(entry)
        if self.writer:
            self.writer.write(self.writer.bad_record(entry))

    def add(self, message: tuple) -> None:
        pid, index, *rest = message
        run = self.open[pid]
        result = Result(*rest)
        if index == self.cert_index:
            run.cert = result
        else:
            run.results[index] = result
        if len(run.results) < len(self.selected) or (run.cert_asked and run.cert is None):
            return
        results = [run.results[i] for i in range(len(self.selected))]
        verdict = judge(run.puzzle, results, self.labels, run.cert, self.cert_index is not None)
        if verdict is None:
            run.cert_asked = True
            self.queue.appendleft((pid, self.cert_index, run.puzzle.grid.box, run.puzzle.grid.values))
            return
        self.finish(run, results, verdict)

    def finish(self, run: PuzzleRun, results: list[Result], verdict: Verdict) -> None:
        del self.open[run.puzzle.id]
        summary, puzzle = self.summary, run.puzzle
        summary.puzzles += 1
        summary.verdicts[verdict.kind] += 1
        where = f"{puzzle.file}:{puzzle.line}" + (f" {puzzle.name}" if puzzle.name else "")
        where += f" (isomorph {puzzle.isomorph})" if puzzle.isomorph else ""
        if verdict.kind in ("invalid", "disagreement", "multiple_solutions"):
            summary.note(verdict.kind, f"{escape(where)}: {escape(verdict.note)}")
        failed: dict[str, list[str]] = {}  # error / gave_up -> "method (why)", one line per puzzle
        for i, result in enumerate(results):
            summary.stats[i].add(result, i in verdict.disagree)
            if result.status in ("error", "gave_up"):
                failed.setdefault(result.status, []).append(
                    f"{self.labels[i]} ({result.detail})" if result.detail else self.labels[i])
        for status, methods in failed.items():
            summary.note(status, f"{escape(where)}: {escape(', '.join(methods))}")
        self.write(run, verdict)
        self.progress.advance()

    def write(self, run: PuzzleRun, verdict: Verdict) -> None:
        if not self.writer:
            return
        for i, result in sorted(run.results.items()):
            self.writer.write(self.writer.run_record(run.puzzle, self.selected[i], result, verdict,
                                                     i in verdict.disagree))
        self.writer.flush()

    def write_unfinished(self) -> None:
        """After Ctrl-C: the runs that did finish, of puzzles that did not, are records too."""
        for run in list(self.open.values()):
            self.write(run, Verdict("interrupted"))


# -- progress ------------------------------------------------------------------------------
class ProgressBar:
    """Puzzles done, rate and time left on stderr when it is a terminal; silent otherwise."""

    def __init__(self, total: int | None, enabled: bool) -> None:
        self.bar: Any = None
        self.last = 0.0
        if not enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        # No refresh thread: workers are forked from this process, and forking while a thread runs is unsafe.
        self.bar = Progress(TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True, auto_refresh=False,
                            redirect_stdout=False, redirect_stderr=False)
        self.task = self.bar.add_task("puzzles", total=total, rate="")
        self.started = time.perf_counter()
        self.bar.start()

    def advance(self) -> None:
        if self.bar is None:
            return
        self.bar.advance(self.task)
        now = time.perf_counter()
        if now - self.last > 0.1:
            done = self.bar.tasks[0].completed
            self.bar.update(self.task, rate=f"{done / max(now - self.started, 1e-9):.1f}/s")
            self.bar.refresh()
            self.last = now

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# -- the screen report ------------------------------------------------------------------------
def fmt_seconds(values: Sequence[float], how: Callable[[Sequence[float]], float]) -> str:
    return f"{how(values):.3g}" if values else "-"


def fmt_count(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.1f}"


def fmt_counter(values: Sequence[float]) -> str:
    """'mean / median' of a counter's reported values."""
    values = present(values)
    if not values:
        return "-"
    return f"{fmt_count(statistics.fmean(values))} / {fmt_count(statistics.median(values))}"


def method_table(summary: Summary) -> Table:
    table = Table(title="Methods: outcomes and time per puzzle", title_justify="left")
    for name in ("method", "solved", "unsat", "gave up (why)", "errors", "invalid", "disagree",
                 "median s", "mean s", "max s", "puzzles/s"):
        table.add_column(name, justify="left" if name == "method" else "right")
    for s in summary.stats:
        c = s.counts
        why = ", ".join(f"{c['gave_up_' + r]:,} {r}" for r in (*GAVE_UP_REASONS, "other") if c["gave_up_" + r])
        gave_up = f"{c['gave_up']:,} ({why})" if c["gave_up"] else "0"
        total = sum(s.seconds)
        table.add_row(
            escape(s.label), f"{c['solved']:,}", f"{c['unsatisfiable']:,}", gave_up,
            red_if(c["error"]), red_if(c["invalid"]), red_if(c["disagreements"]),
            fmt_seconds(s.seconds, statistics.median), fmt_seconds(s.seconds, statistics.fmean),
            fmt_seconds(s.seconds, max), f"{len(s.seconds) / total:,.1f}" if total > 0 else "-")
    return table


def red_if(count: int) -> str:
    return f"[bold red]{count:,}[/]" if count else "0"


def effort_table(summary: Summary) -> Table:
    table = Table(title="Search effort per puzzle (mean / median)", title_justify="left")
    table.add_column("method")
    for name in COMMON_COUNTERS:
        table.add_column(name, justify="right")
    table.add_column("other counters")
    for s in summary.stats:
        others = [f"{name} {fmt_counter(values)}" for name, values in s.effort.items() if name not in COMMON_COUNTERS]
        table.add_row(escape(s.label), *(fmt_counter(s.effort.get(name, ())) for name in COMMON_COUNTERS),
                      "\n".join(others) or "-")
    return table


NOTABLE = (  # kind, heading, style; the loudest first
    ("invalid", "INVALID answers (a bug in the method)", "bold red"),
    ("disagreement", "Disagreements", "bold red"),
    ("error", "Puzzles with errors", "red"),
    ("gave_up", "Puzzles where methods gave up", "yellow"),
    ("multiple_solutions", "More than one solution (not a disagreement)", "cyan"),
)


def print_report(console: Console, summary: Summary, header: str, interrupted: bool = False) -> None:
    console.print(header)
    if summary.stats:
        console.print(method_table(summary))
        console.print(effort_table(summary))
    room = LISTED  # lines for all the lists together, the loudest first; each list shows at least two
    for kind, heading, style in NOTABLE:
        count = summary.notable_count[kind]
        if not count:
            continue
        lines = summary.notable.get(kind, [])[:max(2, room)]
        room -= len(lines)
        console.print(f"[{style}]{heading}: {count:,}[/]")
        for line in lines:
            console.print(f"  [{style}]{line}[/]" if kind == "invalid" else f"  {line}", highlight=False)
        if count > len(lines):
            console.print(f"  ... {count - len(lines):,} more")
    if summary.bad_count:
        console.print(f"[yellow]Bad entries (skipped): {summary.bad_count}[/]")
        for line in summary.bad:
            console.print(f"  {escape(line)}", highlight=False)
        if summary.bad_count > len(summary.bad):
            console.print(f"  ... {summary.bad_count - len(summary.bad)} more")
    verdicts = ", ".join(f"{n:,} {k.replace('_', ' ')}" for k, n in sorted(summary.verdicts.items()))
    console.print(f"Puzzles: {summary.puzzles:,}" + (f" ({verdicts})" if verdicts else ""))
    if summary.failed:
        console.print("[bold red]FAILED: invalid answers or disagreements[/]")
    elif interrupted:
        console.print("[yellow]Interrupted: so far every answer is valid and the methods agree[/]")
    else:
        console.print("[green]OK: every answer valid, the methods agree[/]")


def print_methods(console: Console, registry: dict[str, Method]) -> None:
    table = Table(title="Registered methods (--solver NAME[:key=value,...])", title_justify="left")
    for name in ("method", "summary", "options", "counters"):
        table.add_column(name)
    for name, method in registry.items():
        # `solutions` is every method's: said once below the table, not in every row
        options = [f"[bold]{k}[/]: {escape(v)}" for k, v in method.options.items() if k != "solutions"]
        table.add_row(name, escape(method.summary), "\n".join(options) or "-", ", ".join(method.counters) or "-")
    console.print(table)
    console.print("Every method also takes [bold]solutions[/]=1 (stop at the first, the default) or 2 "
                  "(go on to prove there is no other solution); --solutions 2 sets it for all.")


# -- the plot -----------------------------------------------------------------------------------
def plot(summary: Summary, reference: int | None, path: str) -> None:
    """Cactus plot (puzzles solved against time) and effort against the reference's time, in one PNG.

    The reference, unless chosen, is the method that solved most puzzles (the first of those): its
    time per puzzle is the closest thing to each puzzle's difficulty that the run measured.
    """
    if reference is None:
        reference = max(range(len(summary.stats)), key=lambda i: (sum(summary.stats[i].solved), -i))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cactus, effort) = plt.subplots(1, 2, figsize=(14, 6))
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = [cycle[i % len(cycle)] for i in range(len(summary.stats))]  # one colour a method, both panels
    for s, colour in zip(summary.stats, colours):
        times = sorted(t for t, ok in zip(s.seconds, s.solved) if ok)
        if times:
            cactus.step(times, range(1, len(times) + 1), where="post", label=s.label, color=colour)
    cactus.set(xscale="log", xlabel="time per puzzle (s, log)", ylabel="puzzles solved within that time",
               title="Cactus plot: further up and left is better")
    ref = summary.stats[reference]
    for s, colour in zip(summary.stats, colours):
        counter = next((c for c in PLOT_COUNTERS if c in s.effort), next(iter(s.effort), None))
        if counter is None:
            continue
        points = [(x, y + 1, ok) for x, y, ok in zip(ref.seconds, s.effort[counter], s.solved)
                  if x > 0 and not math.isnan(y)]
        solved = [(x, y) for x, y, ok in points if ok]
        unsolved = [(x, y) for x, y, ok in points if not ok]
        if solved:
            effort.scatter(*zip(*solved), s=8, alpha=0.5, color=colour, label=f"{s.label}: {counter}")
        if unsolved:  # gave up, unsatisfiable or failed: its effort is what it spent
            effort.scatter(*zip(*unsolved), s=14, alpha=0.7, color=colour, marker="x")
    effort.set(xscale="log", yscale="log", xlabel=f"{ref.label}: time per puzzle (s, log)",
               ylabel="effort per puzzle + 1 (log; x = not solved)",
               title=f"Effort against the difficulty for {ref.label}")
    for ax in (cactus, effort):
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- the command line ---------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="compare.py", description="Run every method on puzzle files, check that they agree, "
        "and report each one's search effort.",
        epilog="Exit status: 0 every answer valid and the methods agree; 1 an invalid answer or a "
        "disagreement; 2 a usage error or an unreadable file; 130 interrupted.")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="puzzle files (line, grid or CSV format; '-' = stdin); default puzzles/seeds.txt")
    parser.add_argument("--solver", action="append", metavar="NAME[:key=value,...]",
                        help="a method and its options (repeatable); default every registered method")
    parser.add_argument("--list", action="store_true", help="list the registered methods, options and counters")
    parser.add_argument("--registry", action="append", metavar="MODULE",
                        help="also the methods of MODULE.SOLVERS (name -> puzzles.Method), e.g. your own solver")
    parser.add_argument("--timeout", type=positive(float), default=10.0, metavar="SECONDS",
                        help="time budget per method per puzzle (default 10)")
    parser.add_argument("--nodes", type=positive(int), metavar="N", help="node budget per method per puzzle")
    parser.add_argument("--solutions", type=int, choices=(1, 2), default=1,
                        help="2: every method also proves the solution unique")
    parser.add_argument("--limit", type=positive(int), metavar="K", help="only the first K puzzles")
    parser.add_argument("--sample", type=positive(int), metavar="K", help="a random sample of K puzzles")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample and --isomorphs (default 0)")
    parser.add_argument("--isomorphs", type=positive(int), metavar="K",
                        help="replace each puzzle by K random isomorphs")
    parser.add_argument("--jobs", type=positive(int), default=usable_cores(), metavar="N",
                        help="worker processes (default: the number of cores this process may use)")
    parser.add_argument("--format", choices=("csv", "jsonl"), help="record format (default: from --output)")
    parser.add_argument("--output", metavar="FILE", help="write one record per (puzzle, method) to FILE")
    parser.add_argument("--plot", metavar="FILE.png", help="cactus and effort plots (needs matplotlib)")
    parser.add_argument("--reference", metavar="METHOD",
                        help="the method whose time per puzzle is the effort plot's x axis "
                        "(default: the one that solves most)")
    return parser


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # honours taskset and container CPU sets
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {kind.__name__}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be greater than 0")
        return value
    return parse


def output_format(args: argparse.Namespace) -> str | None:
    if args.output is None:
        if args.format:
            raise UsageError("--format needs --output FILE")
        return None
    if args.format:
        return args.format
    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix in ("csv", "jsonl"):
        return suffix
    raise UsageError(f"--output {args.output}: say --format csv or jsonl (or name the file .csv or .jsonl)")


def reference_index(args: argparse.Namespace, selected: Sequence[Selected]) -> int | None:
    """The --reference method's index; None: the one that solves most, chosen after the run."""
    if args.reference is None:
        return None
    labels = [s.label for s in selected]
    if args.reference not in labels:
        raise UsageError(f"--reference {args.reference}: not among the methods run ({', '.join(labels)})")
    return labels.index(args.reference)


def warn(message: str) -> None:
    print(f"compare.py: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None, methods: dict[str, Method] | None = None) -> int:
    """Run the command; `methods` replaces the registries (tests register their own methods this way)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the error
        return int(exc.code or 0)
    wanted = None if args.list or not args.solver else [spec.partition(":")[0].strip() for spec in args.solver]
    try:
        extra = extra_methods(args.registry or [])
    except UsageError as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if wanted is not None:
        wanted = [name for name in wanted if name not in extra]
    registry = {**(load_registry(wanted) if methods is None else methods), **extra}
    console = Console(width=None if sys.stdout.isatty() else 160)
    if args.list:
        print_methods(console, registry)
        return EXIT_OK
    try:
        selected = select_methods(args.solver, registry, args.solutions)
        fmt = output_format(args)
        reference = reference_index(args, selected)
        if args.plot and importlib.util.find_spec("matplotlib") is None:
            raise UsageError("--plot needs matplotlib: pip install 'sudoku-search[plot]'")
        files = args.files or [os.path.relpath(DEFAULT_FILE)]
        inputs = open_inputs(files)
        writer = RecordWriter(args.output, fmt, counter_columns(selected)) if fmt else None
    except (UsageError, PuzzleFileError) as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"compare.py: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return run(args, selected, certifier(registry, methods is not None), inputs, writer, reference, files, console)


def expected_puzzles(args: argparse.Namespace, files: Sequence[str]) -> int | None:
    """How many puzzles the run will judge, for the progress bar's time left.

    Counting reads the files once more (about 30 us a puzzle), so it is done only when the bar is shown.
    """
    count = None
    if "-" not in files:  # standard input can be read only once
        try:
            count = sum(isinstance(r, Entry) for r in itertools.chain.from_iterable(open_inputs(files)))
        except PuzzleFileError:
            count = None
    bounds = [n for n in (count, args.limit, args.sample) if n is not None]
    return min(bounds) * (args.isomorphs or 1) if bounds else None


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def run_header(args: argparse.Namespace, files: Sequence[str], summary: Summary, wall: float, busy: float,
               interrupted: bool) -> str:
    """The report's first line: what ran, on what, how long it took and with which settings."""
    names = ", ".join("<stdin>" if f == "-" else f for f in files)
    settings = [f"{plural(args.jobs, 'worker')} ({busy:.0%} busy)", f"timeout {args.timeout:g} s"]
    settings += [f"nodes {args.nodes}"] if args.nodes else []
    settings += ["solutions=2"] if args.solutions == 2 else []
    settings += [f"first {args.limit}"] if args.limit else []
    settings += [f"sample of {args.sample} (seed {args.seed})"] if args.sample else []
    settings += [f"{plural(args.isomorphs, 'isomorph')} each (seed {args.seed})"] if args.isomorphs else []
    line = (f"{escape(names)}: {plural(summary.puzzles, 'puzzle')} x {plural(len(summary.stats), 'method')} "
            f"in {wall:.2f} s wall, "
            + ", ".join(settings))
    return line + ("  [yellow](interrupted)[/]" if interrupted else "")


def run(args: argparse.Namespace, selected: list[Selected], certify_with: Method | LazyMethod | None,
        inputs: list[Iterator[Entry | BadEntry]], writer: RecordWriter | None, reference: int | None,
        files: Sequence[str], console: Console) -> int:
    budget = Budget(seconds=args.timeout, nodes=args.nodes)
    runners = list(selected)
    certify = certify_with is not None
    if certify_with is not None:
        runners.append(Selected(f"{CERTIFIER}:solutions=2", certify_with, {"solutions": 2}))
    summary = Summary([MethodStats(s.label) for s in selected])
    show_progress = sys.stderr.isatty()
    total = expected_puzzles(args, files) if show_progress else None
    progress = ProgressBar(total, show_progress)
    pool = Pool(args.jobs, runners, budget, args.timeout * (1 + GRACE_FRACTION) + GRACE_SECONDS)
    tracker = Tracker(selected, certify, pool.queue, summary, writer, progress)
    entries: Iterable[tuple[int, Entry]] = good_entries(inputs, tracker.bad_entry)
    if args.limit:
        entries = itertools.islice(entries, args.limit)
    if args.sample:
        entries = reservoir(entries, args.sample, random.Random(args.seed))
    items = tracker.items(puzzles_of(entries, args.isomorphs, args.seed))
    status, started = None, time.perf_counter()
    try:
        while True:
            pool.dispatch(items)
            if pool.finished():
                break
            for message in pool.collect():
                tracker.add(message)
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
        pool.terminate()
        tracker.write_unfinished()
    except PuzzleFileError as exc:  # a file that fails in the middle of reading
        status = EXIT_USAGE
        pool.terminate()
        print(f"compare.py: error: {exc}", file=sys.stderr)
    finally:
        pool.close()
        progress.close()
        if writer:
            writer.close()
    wall = time.perf_counter() - started
    busy = pool.busy_seconds / (args.jobs * wall) if wall > 0 else 0.0
    header = run_header(args, files, summary, wall, busy, interrupted=status == EXIT_INTERRUPTED)
    print_report(console, summary, header, interrupted=status == EXIT_INTERRUPTED)
    if args.plot and summary.puzzles:
        plot(summary, reference, args.plot)
        console.print(f"Plot written to {escape(args.plot)}")
    if status is not None:
        return status
    return EXIT_FAILED if summary.failed else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
