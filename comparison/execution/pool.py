"""The worker processes: forked once, fed chunks of items, runs that overrun killed, crashes survived."""
from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from puzzles import Budget, GaveUp, Status
from puzzles.signals import signals_held

from ..core.selected import Selected
from .check import Item, run_one
from .external import External
from .processes import (
    Lifeline,
    become_subreaper,
    bind_worker,
    exit_reason,
    kill_group,
    kill_orphans,
    lead_group,
    mark_run,
)
from .result import RunResult

GRACE_SECONDS, GRACE_FRACTION = 1.0, 0.1  # a run is killed at timeout * 1.1 + 1 s
CHUNK_SECONDS = 0.05  # target duration of a chunk: few messages, yet balanced work
MAX_CHUNK = 32
CHUNKS_IN_FLIGHT = 2  # per worker: one running and one waiting, so a worker never idles
BATCH_SECONDS = 0.02  # a worker sends the results of a chunk at least this often
SETTLE = "settle"  # the pool's word to a worker it has nothing more for: end your programs, say what they wrote


@dataclass(frozen=True)
class Settled:
    """A worker's answer to SETTLE: for each method whose program's last answer was provisional, '' if it holds,
    else the error of the puzzle it answered (the program wrote more before it ended)."""

    notes: dict[int, str]


def worker_main(conn: Connection, clock: Any, started: Any, runners: Sequence[Selected], budget: Budget,
                lifeline: Lifeline, slots: Any, batch_seconds: float) -> None:
    """A worker: run the items of each chunk it receives, sending their results in batches of `batch_seconds`
    at least, and at the end of each chunk."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and so is SIGTERM: compare.py's handler is inherited
    bind_worker(lifeline, slots)
    gc.freeze()  # the inherited heap is never collected here: no scans of it, no copy-on-write of its pages
    silence_stdout()
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            chunk = None
        if chunk is None:  # its programs go, and whatever they started, before it does
            for runner in runners:
                solve = getattr(runner.method, "solve", None)
                if isinstance(solve, External):
                    solve.stop()
            kill_orphans()
            return
        if chunk == SETTLE:
            conn.send(Settled(settle_programs(runners)))
            continue
        batch: list[RunResult] = []
        sent = time.monotonic()
        for item in chunk:
            clock.value = time.monotonic()
            started.value += 1  # after the clock: the parent reads which run is in hand, then since when
            batch.append(settling(run_one(item, runners[item.method], budget), runners[item.method]))
            now = time.monotonic()
            if now - sent >= batch_seconds:  # one message per batch, not per run: fewer wake-ups
                clock.value = now  # the parent must not charge the time of this send to the next run
                conn.send(batch)
                batch, sent = [], now
        clock.value = time.monotonic()
        conn.send(batch)  # at the end of a chunk, so that the parent refills the worker at once


def settling(result: RunResult, runner: Selected) -> RunResult:
    """A streaming program's result says whether its answer is provisional and what became of the one before."""
    solve = getattr(runner.method, "solve", None)
    if isinstance(solve, External):
        result.provisional, result.settles = solve.owed, solve.settlement
    return result


def settle_programs(runners: Sequence[Selected]) -> dict[int, str]:
    """Each streaming program's end: what it wrote after its last answer (external.py's settle)."""
    notes = {}
    for index, runner in enumerate(runners):
        solve = getattr(runner.method, "solve", None)
        if isinstance(solve, External) and (note := solve.settle()) is not None:
            notes[index] = note
    return notes


def settled(result: RunResult, note: str) -> RunResult:
    """A provisional result as its settlement leaves it: itself, or the error its program's later output made it."""
    if not note:
        return result
    return RunResult(result.puzzle, result.method, Status.ERROR, note, seconds=result.seconds)


def silence_stdout() -> None:
    """A method that prints must not garble the report: the worker's standard output goes to /dev/null.

    File descriptor 1 itself is replaced, so that prints from C code and from children go too.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


@dataclass
class Worker:
    process: Any
    conn: Connection
    clock: Any  # shared double: monotonic time at which the run in hand started
    started: Any  # shared count of the runs this worker has started
    slots: Any  # shared process group ids of the external programs it runs (processes.py)
    reported: int = 0  # how many of them the parent has received
    inflight: deque[Item] = field(default_factory=deque)  # items sent, not yet reported, in order
    chunks: deque[int] = field(default_factory=deque)  # how many items of each chunk in flight are unreported
    # by method: a streaming program's reported answer, held until its next exchange or its end says it holds
    held: dict[int, RunResult] = field(default_factory=dict)
    settling: bool = False  # SETTLE sent, Settled not yet received

    def in_hand(self) -> int | None:
        """The position in `inflight` of the run in hand; those before it are done but not yet reported."""
        ahead = self.started.value - self.reported
        return ahead - 1 if 0 < ahead <= len(self.inflight) else None


class Feed:
    """What an executor sends next: items put back first (certifications, a lost worker's rest), then the
    source's; in chunks sized from the running average time of a run. The local Pool and the Dask cluster
    (cluster.py) are both fed this way."""

    def __init__(self, chunk_seconds: float = CHUNK_SECONDS, max_chunk: int = MAX_CHUNK) -> None:
        self.chunk_seconds, self.max_chunk = chunk_seconds, max_chunk
        self.queue: deque[Item] = deque()  # items to send before new ones: certifications, a dead worker's rest
        self.source_done = False
        self.item_seconds: float | None = None  # running average, sizes the chunks
        self.fixed = 0  # a chunk size that overrides the average's (0: none)
        self.busy_seconds = 0.0  # the time of every run reported: how busy the workers were

    def chunk_size(self) -> int:
        if self.fixed:
            return self.fixed
        if self.item_seconds is None:
            return 1
        return max(1, min(self.max_chunk, int(self.chunk_seconds / max(self.item_seconds, 1e-6))))

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

    def timed(self, result: RunResult) -> None:
        """A run reported: its time counts as busy, and in the average that sizes the chunks."""
        seconds = result.seconds
        self.busy_seconds += seconds
        self.item_seconds = seconds if self.item_seconds is None else 0.9 * self.item_seconds + 0.1 * seconds

    def unsettled(self) -> list[RunResult]:
        """After the run was stopped: the results still held, as they are."""
        return []


class Pool(Feed):
    """Worker processes fed with chunks of items; runs that overrun are killed, crashes survived."""

    def __init__(self, jobs: int, runners: Sequence[Selected], budget: Budget, limit: float,
                 batch_seconds: float = BATCH_SECONDS) -> None:
        super().__init__()
        self.context = multiprocessing.get_context("fork")  # workers inherit the methods, tests' ones too
        self.runners, self.budget, self.limit = runners, budget, limit
        self.batch_seconds = batch_seconds
        self.lifeline = Lifeline()  # see processes.py: no worker outlives this process
        mark_run()  # and what a program leaves behind comes back here, if its worker is gone
        self.workers: list[Worker] = []
        try:
            for _ in range(jobs):
                self.workers.append(self._start())
        except BaseException:  # a failed start (or Ctrl-C): the workers started so far go
            self.terminate()
            self.lifeline.close()
            raise

    def _start(self) -> Worker:
        sys.stdout.flush()  # a forked child must not inherit (and later write out) buffered output
        sys.stderr.flush()
        parent_end, child_end = self.context.Pipe()
        clock, started = self.context.RawValue("d", 0.0), self.context.RawValue("q", 0)
        slots = self.context.RawArray("q", len(self.runners))  # a method holds one program at a time
        process = self.context.Process(target=worker_main, daemon=True, args=(
            child_end, clock, started, self.runners, self.budget, self.lifeline, slots, self.batch_seconds))
        with signals_held():  # a signal's exception raised in the fork's callbacks (logging's) would be ignored
            process.start()
        lead_group(process)
        child_end.close()  # so that the parent reads EOF when the worker dies
        return Worker(process, parent_end, clock, started, slots)

    def dispatch(self, source: Iterator[Item]) -> None:
        """Give every worker with room another chunk, while there is work."""
        for worker in self.workers:
            while len(worker.chunks) < CHUNKS_IN_FLIGHT:
                chunk = self._take(self.chunk_size(), source)
                if not chunk:
                    break
                worker.inflight.extend(chunk)
                worker.chunks.append(len(chunk))
                try:
                    worker.conn.send(chunk)
                except OSError:  # it died: collect() will see that and put the chunk back in the queue
                    break
            if not worker.inflight and worker.held and not worker.settling:  # nothing more for it, for now
                worker.settling = True
                with contextlib.suppress(OSError):  # dead: collect() sees it
                    worker.conn.send(SETTLE)

    def finished(self) -> bool:
        return self.source_done and not self.queue and not any(w.inflight or w.held for w in self.workers)

    def next_batch(self) -> None:
        """Ready for another batch of the same runs: a new source, nothing yet counted busy (the chunks keep the
        running average's size)."""
        self.source_done, self.fixed, self.busy_seconds = False, 0, 0.0

    def run(self, items: Sequence[Item]) -> list[RunResult]:
        """Every item's result, runs that overrun killed, crashes survived: the work of one Dask task (cluster.py).

        The items go to the worker as one chunk (those put back after a lost worker, in chunks as usual):
        nobody reads a result before they are all done, so more messages would be upkeep alone.
        """
        source = iter(items)
        self.source_done = False
        self.fixed = len(items)
        results: list[RunResult] = []
        while True:
            self.dispatch(source)
            if self.finished():
                return results
            results.extend(self.collect())

    def collect(self) -> list[RunResult]:
        """Results that arrive before the next deadline, and the records of runs stopped or lost."""
        busy = [w for w in self.workers if w.inflight or w.held]
        now = time.monotonic()
        deadlines = [w.clock.value + self.limit for w in busy if w.in_hand() is not None]
        waitables = {}
        for w in busy:
            waitables[w.conn] = waitables[w.process.sentinel] = w
        ready = wait(list(waitables), timeout=min(0.5, max(0.0, min(deadlines, default=now + 0.5) - now)))
        results: list[RunResult] = []
        for worker in {id(waitables[r]): waitables[r] for r in ready}.values():
            results.extend(self._drain(worker))
        now = time.monotonic()
        for worker in self.workers:
            if worker.in_hand() is not None and now - worker.clock.value > self.limit:
                results.extend(self._lose(worker, killed=True))
        return results

    def _drain(self, worker: Worker) -> list[RunResult]:
        results = []
        try:
            while (worker.inflight or worker.settling) and worker.conn.poll():
                results.extend(self._received(worker, worker.conn.recv()))
        except (EOFError, OSError):
            pass  # the worker died; the check below records it
        if (worker.inflight or worker.held) and not worker.process.is_alive():
            results.extend(self._lose(worker, killed=False))
        return results

    def _received(self, worker: Worker, batch: list[RunResult] | Settled) -> list[RunResult]:
        if isinstance(batch, Settled):
            worker.settling = False
            ended = [settled(result, batch.notes.get(method, "")) for method, result in worker.held.items()]
            worker.held.clear()
            return ended
        results = []
        for result in batch:
            worker.inflight.popleft()
            worker.reported += 1
            worker.chunks[0] -= 1
            if not worker.chunks[0]:
                worker.chunks.popleft()
            self.timed(result)
            if result.settles is not None and result.method in worker.held:  # its program's next exchange
                results.append(settled(worker.held.pop(result.method), result.settles))
            if result.provisional:
                if result.method in worker.held:  # never settled (cannot be): final as it is
                    results.append(worker.held.pop(result.method))
                worker.held[result.method] = result
            else:
                results.append(result)
        return results

    def _lose(self, worker: Worker, killed: bool) -> list[RunResult]:
        """The run in hand ends as gave_up (killed) or error (crashed); the worker's other items go back.

        Runs it finished but had not reported yet are lost with it, and run again; the results held for it are
        final as they are (its programs are gone with it).
        """
        released = list(worker.held.values())
        worker.held.clear()
        items = list(worker.inflight)
        lost = items.pop(worker.in_hand() or 0) if items else None  # a worker dead between runs: blame the next one
        self.fixed = 0  # what is put back goes in chunks sized as usual
        seconds = time.monotonic() - worker.clock.value
        self.queue.extendleft(reversed(items))
        self.kill(worker)
        worker.conn.close()
        slot = next(i for i, w in enumerate(self.workers) if w is worker)
        self.workers[slot] = self._start()
        if lost is None:
            return released
        if killed:
            return [*released, RunResult(lost.puzzle, lost.method, Status.GAVE_UP, GaveUp.KILLED.value,
                                         seconds=seconds)]
        why = f"the worker died ({exit_reason(worker.process.exitcode)})"
        return [*released, RunResult(lost.puzzle, lost.method, Status.ERROR, why, seconds=seconds)]

    def close(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(OSError):  # a worker already gone
                worker.conn.send(None)
        for worker in self.workers:
            worker.process.join(timeout=1)
            self.kill(worker)  # even when it has ended: its watchdog, and what its methods left running
            worker.conn.close()
        self.lifeline.close()
        become_subreaper(False)

    def terminate(self) -> None:
        for worker in self.workers:
            self.kill(worker)

    def unsettled(self) -> list[RunResult]:
        released = [result for worker in self.workers for result in worker.held.values()]
        for worker in self.workers:
            worker.held.clear()
        return released

    @staticmethod
    def kill(worker: Worker) -> None:
        """The worker goes, with every process of its group and of its programs' groups, and what they left."""
        kill_group(worker.process, worker.slots)
        kill_orphans()


class KeptPool:
    """A pool kept from one batch to the next while the batches run the same methods with the same workers and
    budget (the fuzzer's shrink runs one method and the trusted one, batch after batch; the hard search scores
    each round with the same methods): forking workers, and finding what their programs left when they go, is
    then paid once, not once a batch. Another batch's methods close it and start their own; a batch cut short (a
    deadline, Ctrl-C) leaves none kept."""

    def __init__(self) -> None:
        self.pool: Pool | None = None
        self.key: tuple[Any, ...] = ()

    def take(self, jobs: int, runners: Sequence[Selected], budget: Budget, limit: float) -> Pool:
        key = (jobs, tuple(r.label for r in runners), budget, limit)
        if self.pool is not None and key == self.key:
            self.pool.next_batch()
            return self.pool
        self.close()
        self.pool, self.key = Pool(jobs, runners, budget, limit), key
        return self.pool

    def close(self) -> None:
        """The kept pool's workers go (if any is kept)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()
