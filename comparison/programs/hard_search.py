"""Puzzles made hard (or easy) for a method, to order: a local search in the manner of tdoku's generator.

A pool holds the best puzzles found so far, all unique and minimal. A move takes one of them (the best more
often), drops d of its clues, re-completes the rest to a unique puzzle (with the clues of another solution when
the drop let one in, so that the search wanders between solution grids) and minimises it again.

A puzzle's score is the geometric mean effort of the method over random isomorphs, by the method's own counter
(guesses, nodes, conflicts or branches, the first it reports): effort is not invariant under isomorphs, and
their mean is what a benchmark sees. A candidate is scored on K isomorphs. The best of thousands of candidates
scored so is mostly the luckiest (the winner's curse), so a pool member picked as a parent is scored again on K
fresh isomorphs, up to RESCORED times, and from then on only those count: isomorphs drawn after it was chosen,
which its luck in being chosen does not bias. Its score then tends to what any fresh isomorphs give. With an
easy method too, the score is the ratio of the two means: puzzles that split them.

The moves are made on --jobs processes of their own (SAT certifies each clue dropped), and the candidates of a
round scored together through compare.py's own machinery (comparison/run/batch.py): any method spec compare.py
takes, --command programs included, on --jobs workers with its budgets and kills.
"""
from __future__ import annotations

import dataclasses
import math
import random
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from making.kinds import minimal_puzzle
from making.moves import move
from making.variants import Variant
from puzzles import Grid, Method, Status
from puzzles.signals import signals_held

from ..core.settings import Settings
from ..execution.pool import KeptPool
from ..execution.processes import die_with_parent
from ..judging.judge import Judged
from ..run.batch import run_batch
from ..run.comparison import usable_cores

COUNTERS = ("guesses", "nodes", "conflicts", "branches")  # a method's own measure of search, in this preference
RESCORED = 4  # a pool member is scored again on K isomorphs up to this many times


@dataclass
class Scored:
    """A puzzle, its solution, and the log(1 + effort) of each method's runs on its isomorphs so far."""

    puzzle: Grid
    solution: Grid
    logs: list[list[float]]  # one list a method: the hard one, then the easy one
    origin: str = ""  # where a puzzle of --start was read (FILE:LINE); "" for one the search made
    rescored: int = 0  # times scored again as a pool member

    @property
    def hard(self) -> float:
        """The geometric mean effort of the hard method."""
        return geometric_mean(self.logs[0])

    @property
    def easy(self) -> float | None:
        return geometric_mean(self.logs[1]) if len(self.logs) > 1 else None

    @property
    def score(self) -> float:
        easy = self.easy
        return self.hard if easy is None else (self.hard + 1) / (easy + 1)

    @property
    def isomorphs(self) -> int:
        return len(self.logs[0])


def geometric_mean(logs: Sequence[float]) -> float:
    """The geometric mean of (1 + effort), less 1, from the log(1 + effort) of each run."""
    return math.exp(sum(logs) / len(logs)) - 1


@dataclass(frozen=True)
class MoveOrder:
    """What a move-making process is asked for: a fresh minimal puzzle of the variant (no parent; a Jigsaw's
    regions drawn for it) or a move from a parent (on the parent's layout)."""

    variant: Variant
    seed: int
    drop: int
    parent: Scored | None = None


def made_for(order: MoveOrder) -> Scored:
    """The candidate an order asks for, not scored yet (run in a move-making process)."""
    rng = random.Random(order.seed)
    if order.parent is None:
        made = minimal_puzzle(order.variant.layout(rng), rng)
        return Scored(made.puzzle, made.solution, [])
    return Scored(*move(order.parent.puzzle, order.parent.solution, rng, order.drop), [])


MoveWorkers = Callable[[Sequence[MoveOrder]], list[Scored]]  # the candidates of a round's orders, in order


@dataclass
class Search:
    """The search's state: the pool (best first) and what it has done so far."""

    settings: Settings  # the methods (solver[0] hard, solver[1] easy), commands, registry, budget, jobs
    variant: Variant  # what its puzzles are made of
    isomorphs: int
    rng: random.Random
    pool_size: int = 12
    drop: int = 3  # clues dropped by a move (at least 1, at most this)
    methods: dict[str, Method] | None = None
    workers: MoveWorkers | None = None  # None: moves made in this process
    runs: KeptPool | None = None  # the scoring runs' workers, kept from round to round (run_search closes them)
    start: list[Scored] = field(default_factory=list)  # puzzles read (--start), scored in the first rounds
    pool: list[Scored] = field(default_factory=list)
    tried: int = 0
    errors: int = 0  # candidates a method answered with an error: not scored
    counter: str = ""  # the hard method's counter, once seen

    @property
    def labels(self) -> list[str]:
        return list(self.settings.methods or [])

    def round(self, size: int) -> list[Scored]:
        """One round: `size` candidates (the puzzles read first, then fresh ones while the pool fills, then moves),
        scored with the parents due more isomorphs, pooled."""
        parents: list[Scored] = []
        if self.start:
            fresh, self.start = self.start[:size], self.start[size:]
        elif len(self.pool) < self.pool_size:
            fresh = self.moves([MoveOrder(self.variant, self.rng.randrange(1 << 62), self.drop) for _ in range(size)])
        else:
            parents = [self.pool[min(int(self.rng.expovariate(3 / self.pool_size)), len(self.pool) - 1)]
                       for _ in range(size)]  # the best more often
            fresh = self.moves([MoveOrder(self.variant, self.rng.randrange(1 << 62), self.drop, p) for p in parents])
        rescored = [p for p in {id(p): p for p in parents}.values() if p.rescored < RESCORED]
        scored = self.score(fresh, rescored)
        self.tried += len(fresh)
        seen = {c.puzzle.values for c in self.pool}
        for candidate in scored:
            if candidate.puzzle.values not in seen:
                self.pool.append(candidate)
                seen.add(candidate.puzzle.values)
        self.pool = [c for c in self.pool if c.logs]  # a member whose rescoring met an error leaves the pool
        self.pool.sort(key=lambda c: c.score, reverse=True)
        del self.pool[self.pool_size:]
        return scored

    def moves(self, orders: Sequence[MoveOrder]) -> list[Scored]:
        return self.workers(orders) if self.workers is not None else [made_for(order) for order in orders]

    def score(self, fresh: Sequence[Scored], rescored: Sequence[Scored]) -> list[Scored]:
        """The fresh candidates scored on K isomorphs (those a method failed on left out: counted in `errors`),
        and K more isomorphs added to each rescored pool member's (its logs emptied on an error): each round's
        isomorphs drawn anew."""
        settings = dataclasses.replace(self.settings, seed=self.rng.randrange(1 << 30))
        batches = run_batch([c.puzzle for c in [*fresh, *rescored]], settings, self.methods,
                            isomorphs=self.isomorphs, certify=False, workers=self.runs)
        for candidate, judged in zip([*fresh, *rescored], batches, strict=True):
            logs = [self.efforts(judged, label) for label in self.labels]
            if not all(logs):  # a method's error: a fresh candidate goes unscored, a pool member leaves
                candidate.logs = []
            elif candidate.rescored:
                candidate.logs = [old + new for old, new in zip(candidate.logs, logs, strict=True)]
            else:  # a fresh candidate, or a member's first rescoring: the isomorphs it entered on no longer count
                candidate.logs = logs
        for member in rescored:
            member.rescored += 1
        scored = [c for c in fresh if c.logs]
        self.errors += len(fresh) - len(scored)
        return scored

    def efforts(self, isomorphs: list[Judged], label: str) -> list[float]:
        """log(1 + the method's counter) of each of its runs; [] when one of them was an error."""
        runs = [run for judged in isomorphs if (run := judged.of(label)) is not None]
        if not runs or any(run.status is Status.ERROR for run in runs):
            return []
        logs = []
        for run in runs:
            name, value = counter_of(run.effort)
            if label == self.labels[0] and name:
                self.counter = name
            logs.append(math.log1p(value))
        return logs


def counter_of(counters: Mapping[str, Any]) -> tuple[str, float]:
    """A run's search effort by the method's own counter: (its name, its value); ('', 0) if it has none."""
    for name in COUNTERS:
        value = counters.get(name)
        if value is not None:
            return name, float(value)
    return "", 0.0


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent()


@contextmanager
def move_workers(jobs: int) -> Iterator[MoveWorkers | None]:
    """`jobs` processes that make the moves (None for one job: they are made in this process), killed on exit,
    however the search ends: a move in hand is of no use once the search stops."""
    if jobs <= 1:
        yield None
        return
    pool = get_context("spawn").Pool(jobs, initializer=_worker_start)  # spawned: no lock of this process copied
    try:
        yield lambda orders: pool.map(made_for, orders)
    finally:
        pool.terminate()
        pool.join()


def run_search(search: Search, minutes: float, on_round: Callable[[Search], None] | None = None) -> None:
    """Rounds until `minutes` are spent (KeyboardInterrupt goes through; the pool so far stays in `search`)."""
    jobs = search.settings.jobs or usable_cores()
    size = 8 * jobs  # a round: few enough to stay greedy, enough to keep each round's start-up small
    deadline = time.monotonic() + minutes * 60
    with move_workers(jobs) as workers:
        search.workers, search.runs = workers, KeptPool()
        try:
            while time.monotonic() < deadline:
                search.round(size)
                if on_round is not None:
                    on_round(search)
        finally:
            with signals_held():
                search.runs.close()
            search.workers = search.runs = None
