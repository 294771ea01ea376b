"""The Dask executor: chunks of items become tasks on a Dask distributed cluster, with the local pool's isolation.

Dask cannot interrupt a task that runs (a cancelled one runs on), so a task does not call the methods
itself: it runs its chunk through a Pool of one worker process forked from the Dask worker (pool.py),
which kills a run that overruns and survives a method that crashes, exactly as on one machine. The
methods travel pickled with each task, by reference: a Dask worker imports their modules once, at its
first task, and the forked process inherits them.

The parent keeps a bounded number of chunks in flight (two per worker thread), takes results as tasks
complete (as_completed), and writes records as they arrive. A Dask worker that dies has its task run
again elsewhere; a chunk that has killed workers again and again (the scheduler's `allowed-failures`,
KilledWorker) becomes error records for its runs, as does a task that fails for any other reason.
"""
from __future__ import annotations

import gc
import logging
import math
import multiprocessing
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from puzzles import Budget, Status

from ..core.errors import UsageError
from ..core.selected import Selected
from ..core.settings import check_cluster
from .check import Item
from .pool import Feed, Pool
from .processes import die_with_parent
from .result import RunResult

CHUNK_SECONDS = 1.0  # a task's work: its overhead (a round trip to the scheduler, two forks) is a few ms
MAX_CHUNK = 4096
TASKS_PER_THREAD = 2  # one running and one waiting on each worker thread, so none idles
THREADS_CHECKED_EVERY = 2.0  # seconds: workers may join or leave a cluster in mid-run
CONNECT_SECONDS = 10
LEAN = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "500ms",
        "distributed.admin.system-monitor.interval": "2s"}
DAEMON_FIX = "DASK_DISTRIBUTED__WORKER__DAEMON=False"


@dataclass(frozen=True)
class Job:
    """What every task of a run needs beside its chunk: the methods, their budget and the time to kill at."""

    runners: Sequence[Selected]
    budget: Budget
    limit: float


@dataclass(frozen=True)
class Chunk:
    """A task's items: a record, not a bare list, which Dask would walk item by item looking for tasks in it."""

    items: list[Item]


@dataclass(frozen=True)
class Done:
    """A task's results: a record, not a bare list, which Dask would serialise item by item, a header each."""

    results: list[RunResult]


def run_chunk(job: Job, chunk: Chunk) -> Done:
    """A Dask task: its chunk's runs in a child process of this Dask worker, killed on overrun (pool.py).
    The results come back from it at the end of the chunk: nobody reads them before."""
    pool = Pool(1, job.runners, job.budget, job.limit, batch_seconds=math.inf)
    try:
        return Done(pool.run(chunk.items))
    finally:
        pool.close()


def worker_problem(job: Job) -> str:
    """On each Dask worker before the run: why it cannot run the tasks ('' if it can). Unpickling the job
    has imported the methods' modules here already (an import that fails raises, and is reported)."""
    if multiprocessing.current_process().daemon:
        return f"its tasks may not start processes (a daemonic worker): start it with {DAEMON_FIX}"
    return ""


def local_worker_plugin() -> Any:
    """A worker plugin for the local cluster's workers (restarted ones too): they die with compare.py, and
    what they inherited from it (forked) is out of their collector's sight, as the local pool's workers do
    (0.3 s of CPU a run on the whole 17-clue). Workers of a scheduler of one's own are left as they are."""
    from distributed import WorkerPlugin

    class LocalWorker(WorkerPlugin):  # type: ignore[misc]  # Dask's classes are read as Any
        name = "sudoku-search-local-worker"

        def setup(self, worker: Any) -> None:
            die_with_parent()
            gc.freeze()

    return LocalWorker()


class Cluster(Feed):
    """Chunks of items as Dask tasks: the Pool's interface (dispatch, collect, finished, close) for the run."""

    def __init__(self, address: str, runners: Sequence[Selected], budget: Budget, limit: float) -> None:
        super().__init__(CHUNK_SECONDS, MAX_CHUNK)
        import dask
        from distributed import Client, LocalCluster, as_completed

        self.address = address
        self.job = Job(list(runners), budget, limit)
        self.token = uuid.uuid4().hex[:8]
        self.count = 0
        self.local: Any = None
        self.frozen = False  # whether the parent's objects are out of the collector's sight (gc.freeze)
        self.inflight: dict[Any, list[Item]] = {}  # future -> its chunk
        self.threads, self.checked = 1, -THREADS_CHECKED_EVERY
        workers = check_cluster(address)
        self.expected = workers or 1  # a local cluster's every worker, else one at least
        # The tasks fork the isolating process: a daemonic (multiprocessing's sense) worker may not. And Dask's
        # own upkeep is cut down (its sampling profiler, the event loops' watchdog, the system monitor): at
        # their defaults they take 2-3% of a core in each process, idle or not (measured on a local cluster).
        dask.config.set({"distributed.worker.daemon": False, **LEAN})
        try:
            if workers is not None:
                # Its workers (restarted ones too) are forked from compare.py, which has the methods imported
                # already: two start in 0.3 s, where spawned ones take 0.8 s and a second of CPU importing Dask
                # and the methods again. No memory limit, as in the local pool: Dask's monitor wakes every 100 ms.
                dask.config.set({"distributed.worker.multiprocessing-method": "fork"})
                self.local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                          dashboard_address=":0",  # any free port
                                          silence_logs=logging.ERROR, memory_limit=0)
                self.client = Client(self.local)
                self.client.register_plugin(local_worker_plugin())
            else:
                self.client = Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise UsageError(f"--cluster {address}: cannot reach the scheduler ({exc})") from None
        except BaseException:
            self.close()
            raise
        self.pending = as_completed()
        try:
            self.check_workers()
        except BaseException:
            self.close()
            raise
        # The scheduler's and the client's state lives for the run: out of the collector's sight, the parent's
        # full collections no longer walk it again and again (0.35 s of the parent's CPU on the whole 17-clue).
        gc.freeze()
        self.frozen = True

    def check_workers(self) -> None:
        try:  # a scheduler with no worker would take the tasks and never run them: the run would wait forever
            # a local cluster's workers all: on a loaded machine the run would otherwise start on the first alone
            self.client.wait_for_workers(self.expected, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise UsageError(f"--cluster {self.address}: the scheduler has no worker (none joined within "
                             f"{CONNECT_SECONDS} s); start one with `dask worker {self.address}`") from None
        try:
            problems = self.client.run(worker_problem, self.job)
        except Exception as exc:  # a module that does not import there, or a worker that fails
            raise UsageError(f"--cluster {self.address}: a worker cannot run the methods "
                             f"({type(exc).__name__}: {exc})") from None
        for worker, problem in problems.items():
            if problem:
                raise UsageError(f"--cluster {self.address}: worker {worker}: {problem}")

    @property
    def jobs(self) -> int:
        """The worker threads of the cluster, looked up at most every few seconds."""
        now = time.monotonic()
        if now - self.checked >= THREADS_CHECKED_EVERY:
            self.threads = max(1, sum(self.client.nthreads().values()))
            self.checked = now
        return self.threads

    def dispatch(self, source: Iterator[Item]) -> None:
        """Submit chunks while fewer than two a worker thread are in flight, and there is work."""
        while len(self.inflight) < TASKS_PER_THREAD * self.jobs:
            chunk = self._take(self.chunk_size(), source)
            if not chunk:
                return
            self.count += 1
            future = self.client.submit(run_chunk, self.job, Chunk(chunk), pure=False,
                                        key=f"chunk-{self.token}-{self.count}")
            self.inflight[future] = chunk
            self.pending.add(future)

    def finished(self) -> bool:
        return self.source_done and not self.queue and not self.inflight

    def collect(self) -> list[RunResult]:
        """The results of the tasks that complete next (waiting for one at least)."""
        results: list[RunResult] = []
        for future in self.pending.next_batch(block=True):
            chunk = self.inflight.pop(future)
            batch = future.result().results if future.status == "finished" else failed(chunk, future.exception())
            for result in batch:
                self.timed(result)
            results.extend(batch)
        return results

    def terminate(self) -> None:
        """Tasks waiting go; running ones finish their chunk on the worker (Dask cannot stop them), unheard."""
        if self.inflight:
            self.client.cancel(list(self.inflight))
            self.inflight.clear()

    def close(self) -> None:
        self.terminate()
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.local is not None:
            self.local.close()
        if self.frozen:  # what the run left is the collector's again
            gc.unfreeze()
            self.frozen = False


def failed(chunk: list[Item], exc: BaseException | None) -> list[RunResult]:
    """A chunk whose task failed: an error record for each of its runs."""
    if type(exc).__name__ == "KilledWorker":
        why = "its Dask worker died again and again (KilledWorker): the task was given up"
    else:
        why = f"its Dask task failed ({type(exc).__name__}: {exc})"
    return [RunResult(item.puzzle, item.method, Status.ERROR, why) for item in chunk]
