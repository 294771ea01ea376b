"""Puzzles made in memory, run through compare.py's own machinery: the generator's scores and the fuzzer's tests.

Each batch is one Comparison on the grids as they are (no file): so the methods are those compare.py would
select, run in its workers with its budgets, kills and crash handling, and judged by its judge (the certifier
included). What comes back is typed: each puzzle's runs as judged (judging/judge.py's `Judged`), grouped by the
grid they came from, in the order given.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from puzzles import Grid, Method

from ..core.settings import Settings
from ..execution.pool import KeptPool
from ..judging.judge import Judged
from .comparison import Comparison


def run_batch(grids: Sequence[Grid], settings: Settings, methods: dict[str, Method] | None = None,
              isomorphs: int | None = None, certify: bool = True, deadline: float | None = None,
              workers: KeptPool | None = None) -> list[list[Judged]]:
    """Each grid's judged runs: one, or with `isomorphs` one for each of its K random isomorphs (the grid itself,
    isomorph 0, left out). At `deadline` (time.monotonic's) the runs in flight are stopped: a grid not judged by
    then has none. `workers`: the workers kept for the next batch of the same runs (the caller closes it)."""
    if not grids:
        return []
    if certify and settings.certify:
        # A program runs batch after batch, each with workers of its own: the certifier's solver (ortools) is
        # loaded here, once, and forked with every worker, rather than in each worker of each batch again.
        import formulations.methods  # noqa: F401
    run = Comparison(dataclasses.replace(settings, files=[], isomorphs=isomorphs, certify=certify, limit=None,
                                         sample=None, input_format=None), methods, puzzles=grids)
    found: list[list[Judged]] = [[] for _ in grids]
    run.on_judged = lambda judged: found[judged.puzzle.line - 1].append(judged)
    for _ in run.batches(deadline=deadline, workers=workers):
        pass
    return found
