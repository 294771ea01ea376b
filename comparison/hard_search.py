"""Puzzles made hard (or easy) for a method, to order: a local search in the manner of tdoku's generator.

A pool holds the best puzzles found so far, all unique and minimal. A move takes one of them, drops d of its
clues, re-completes the rest to a unique puzzle (with the clues of another solution when the drop let one in,
so that the search wanders between solution grids) and minimises it again. A puzzle's score is the geometric
mean effort of the method over K random isomorphs, by the method's own counter (guesses, nodes, conflicts or
branches, the first it reports): effort is not invariant under isomorphs, and their mean is what a benchmark
sees. With an easy method too, the score is the ratio of the two means: puzzles that split the methods.

The candidates of a round are scored together through compare.py's own machinery (comparison/batch.py): any
method spec compare.py takes, --command programs included, on --jobs workers with its budgets and kills.
"""
from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from formulations.certify import SolutionCertifier, random_solution
from puzzles import Grid, Method
from puzzles.minimal import completed, givens_of, minimise, puzzle_of

from .batch import run_batch
from .settings import Settings

COUNTERS = ("guesses", "nodes", "conflicts", "branches")  # a method's own measure of search, in this preference


@dataclass(frozen=True)
class Candidate:
    puzzle: Grid
    solution: Grid
    score: float
    hard: float  # the geometric mean effort of the hard method
    easy: float | None = None  # and of the easy one, when there is one


@dataclass
class Search:
    """The search's state: the pool (best first) and what it has done so far."""

    settings: Settings  # the methods (solver[0] hard, solver[1] easy), commands, registry, budget, jobs
    box: int
    isomorphs: int
    rng: random.Random
    pool_size: int = 12
    drop: int = 3  # clues dropped by a move (at least 1, at most this)
    methods: dict[str, Method] | None = None
    pool: list[Candidate] = field(default_factory=list)
    tried: int = 0
    errors: int = 0  # candidates a method answered with an error: not scored
    counter: str = ""  # the hard method's counter, once seen

    @property
    def labels(self) -> list[str]:
        return list(self.settings.solver or [])

    def start(self, count: int) -> list[tuple[Grid, Grid]]:
        """`count` fresh minimal puzzles (with their solutions) to fill the pool from."""
        made = []
        for _ in range(count):
            solution = random_solution(self.box, self.rng)
            with SolutionCertifier(solution) as certifier:
                cells = minimise(range(len(solution.values)), certifier.unique, self.rng)
            made.append((puzzle_of(solution, cells), solution))
        return made

    def move(self, puzzle: Grid, solution: Grid) -> tuple[Grid, Grid]:
        return move(puzzle, solution, self.rng, self.drop)

    def round(self, size: int) -> list[Candidate]:
        """One round: `size` candidates (fresh puzzles while the pool fills, then moves), scored, pooled."""
        if len(self.pool) < self.pool_size:
            pairs = self.start(size)
        else:
            parents = [self.pool[min(int(self.rng.expovariate(3 / self.pool_size)), len(self.pool) - 1)]
                       for _ in range(size)]  # the best more often
            pairs = [self.move(p.puzzle, p.solution) for p in parents]
        scored = self.score(pairs)
        self.tried += len(pairs)
        seen = {c.puzzle.values for c in self.pool}
        for candidate in scored:
            if candidate.puzzle.values not in seen:
                self.pool.append(candidate)
                seen.add(candidate.puzzle.values)
        self.pool.sort(key=lambda c: c.score, reverse=True)
        del self.pool[self.pool_size:]
        return scored

    def score(self, pairs: Sequence[tuple[Grid, Grid]]) -> list[Candidate]:
        """Each puzzle's score over K fresh isomorphs (the seed of each round's isomorphs drawn anew)."""
        settings = dataclasses.replace(self.settings, seed=self.rng.randrange(1 << 30))
        batches = run_batch([p for p, _ in pairs], settings, self.methods, isomorphs=self.isomorphs, certify=False)
        scored = []
        for (puzzle, solution), records in zip(pairs, batches, strict=True):
            means = [self.mean_effort(records, label) for label in self.labels]
            if any(m is None for m in means):
                self.errors += 1
                continue
            hard, easy = means[0], (means[1] if len(means) > 1 else None)
            assert hard is not None
            score = hard if easy is None else (hard + 1) / (easy + 1)
            scored.append(Candidate(puzzle, solution, score, hard, easy))
        return scored

    def mean_effort(self, records: list[dict[str, Any]], label: str) -> float | None:
        """The geometric mean of (1 + the method's counter) over the isomorphs, less 1; None on an error."""
        runs = [r for r in records if r["method"] == label]
        if not runs or any(r["status"] == "error" for r in runs):
            return None
        values = []
        for record in runs:
            name, value = counter_of(record)
            if label == self.labels[0] and name:
                self.counter = name
            values.append(value)
        return math.exp(sum(math.log1p(v) for v in values) / len(values)) - 1


def move(puzzle: Grid, solution: Grid, rng: random.Random, drop: int = 3) -> tuple[Grid, Grid]:
    """Drop 1..`drop` clues, re-complete to a unique puzzle (of another solution, when one appeared), minimise:
    the new puzzle and its solution."""
    cells = givens_of(puzzle)
    dropped = set(rng.sample(cells, min(len(cells), rng.randint(1, drop))))
    kept = [c for c in cells if c not in dropped]
    with SolutionCertifier(solution) as certifier:
        other = certifier.other(kept)
    target = other if other is not None else solution
    with SolutionCertifier(target) as certifier:
        whole = completed(kept, target, certifier.unique, rng)
        cells = minimise(whole, certifier.unique, rng)
    return puzzle_of(target, cells), target


def counter_of(record: dict[str, Any]) -> tuple[str, float]:
    """The record's search effort by the method's own counter: (its name, its value); ('', 0) if it has none."""
    extra = record.get("extra") or {}
    for name in COUNTERS:
        value = record.get(name, extra.get(name))
        if value is not None:
            return name, float(value)
    return "", 0.0


def run_search(search: Search, minutes: float, on_round: Callable[[Search], None] | None = None) -> None:
    """Rounds until `minutes` are spent (KeyboardInterrupt goes through; the pool so far stays in `search`)."""
    size = max(2, 2 * (search.settings.jobs or 1))
    deadline = time.monotonic() + minutes * 60
    while time.monotonic() < deadline:
        search.round(size)
        if on_round is not None:
            on_round(search)
