"""Shared test fixtures: the public puzzle collections, where this machine has them."""
from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from puzzles import data

# The suite starts hundreds of Python processes (compare.py and the generator run as programs, the suite's own
# workers): where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE, set on some machines),
# each would compile the project's modules again, and pytest rewrite the test modules' asserts again in every
# worker. The suite's processes keep their bytecode in __pycache__ as Python does by default.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# The cycle collector runs after every 20,000 new objects, not 700: a worker holds the searches' frontiers, traces and
# the tests' tables, and each collection walks them. Measured on four files in one process (test_variants_solve,
# test_learning, test_rules, test_trace: about 90 CPU-s), time in collections 9.4 to 10.8 CPU-s at the default, 4.1
# to 4.8 so (gc.callbacks).
gc.set_threshold(20_000, 10, 10)

# CI (CI=true, as .ci/run sets it) draws the property tests' examples from a fixed seed: the same examples, the same
# time, in every run; elsewhere each run draws new ones, and Hypothesis keeps the failures it finds to try first.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


@pytest.fixture
def collection() -> Callable[[str], Path]:
    """The file of a public collection by its name, found as everywhere else (puzzles/data.py: $SUDOKU_DATA,
    ../shared/data, the per-user cache); where it is not here the test skips, naming the command that fetches it."""

    def find(name: str) -> Path:
        try:
            return data.locate(name)
        except data.MissingCollection as exc:
            pytest.skip(str(exc))

    return find


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tests first on every worker: the long ones start early and the short ones fill in around them,
    rather than one long test left running alone at the end. No test depends on the order.

    `--dist worksteal` (pytest-xdist) hands each worker a stretch of this list at the start, as even as the
    count allows, and a worker that runs out takes the second half of the longest queue left: so each stretch
    starts with its share of the slow tests (every Nth of them, neighbours in a file on different workers), and
    ends with short ones to be taken. Sorted slow first alone, the first worker would get every slow test."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    fast = [item for item in items if item.get_closest_marker("slow") is None]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    order: list[pytest.Item] = []
    left = len(items)
    for k in range(workers):
        size = left // (workers - k)  # as worksteal's first hand-out counts
        mine = slow[k::workers]
        taken = max(size - len(mine), 0) if k < workers - 1 else len(fast)
        order += mine + fast[:taken]
        del fast[:taken]
        left -= size
    items[:] = order


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. Part of the suite waits on what it started (a budget running
    out, a signal's effect, a scheduler with no worker) rather than computing: the extra worker fills those waits
    (measured on 2 cores: 3 workers 4 min 12 s, 2 workers 4 min 33 s, 4 workers no faster than 3)."""
    return len(os.sched_getaffinity(0)) + 1
