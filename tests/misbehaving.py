"""A registry of misbehaving solvers, for the fault-injection tests of compare.py.

Each breaks the contract in one way a real solver might: it ignores its budget,
forks children of its own, exits, raises, returns garbage or impossible
counters, prints to standard output, changes the grid it was handed, or claims
more than it knows. `good` is a correct solver to run beside them.

Use it as compare.py's `--registry misbehaving` with this folder on PYTHONPATH,
or pass `SOLVERS` to `compare.main(argv, methods=SOLVERS)`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from puzzles import Budget, Grid, Method, Outcome, Status
from search import SOLVERS as SEARCH

SLEEP = 600.0  # far beyond any test's timeout: compare.py must stop it
DAWDLE = 0.1


def good(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """A correct solver: MRV with singles."""
    return SEARCH["mrv"](grid, budget, propagate="singles", **options)


def dawdler(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Correct and within its budget, only slow: a tenth of a second a puzzle (runs long enough to interrupt)."""
    time.sleep(min(DAWDLE, budget.seconds or DAWDLE))
    return good(grid, budget, **options)


def sleeper(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Ignores its budget."""
    time.sleep(SLEEP)
    return Outcome(Status.GAVE_UP, detail="time")


def forker(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Starts a child of its own (a grandchild of the worker), then ignores its budget.

    The child's pid is written to $MISBEHAVING_PIDS, when set, so a test can look for it.
    """
    child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({SLEEP})"])
    record = os.environ.get("MISBEHAVING_PIDS")
    if record:
        with open(record, "a") as handle:
            handle.write(f"{child.pid}\n")
    time.sleep(SLEEP)
    return Outcome(Status.GAVE_UP, detail="time")


def exiter(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Ends the process it runs in."""
    os._exit(3)


def raiser(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Raises instead of returning an ERROR Outcome."""
    raise RuntimeError("boom")


def garbage(grid: Grid, budget: Budget = Budget(), **options: Any) -> Any:
    """Returns something that is not an Outcome."""
    return "solved!"


def huge_counter(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, but reports a counter no 64-bit integer holds."""
    outcome = good(grid, budget, **options)
    outcome.effort = {"nodes": 10**30}
    return outcome


def nan_counter(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, but reports a counter that is not a number."""
    outcome = good(grid, budget, **options)
    outcome.effort = {"nodes": float("nan")}  # type: ignore[dict-item]
    return outcome


def fraction_counter(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, but reports a counter that is not whole."""
    outcome = good(grid, budget, **options)
    outcome.effort = {"nodes": 2.5}  # type: ignore[dict-item]
    return outcome


def text_solution(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, but returns the solution as text instead of a Grid."""
    outcome = good(grid, budget, **options)
    return Outcome(Status.SOLVED, outcome.solution.line() if outcome.solution else "?", {})  # type: ignore[arg-type]


def printer(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, chattering on standard output (and below Python, on file descriptor 1)."""
    print("solving... " * 20)
    os.write(1, b"progress: 50%\n")
    return good(grid, budget, **options)


def mutator(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Blanks the grid it was handed (a frozen dataclass, forced), then solves what is left."""
    object.__setattr__(grid, "values", bytes(len(grid.values)))
    return good(grid, budget, **options)


def false_unsat(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Claims there is no solution, whatever the puzzle."""
    return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})


def false_unique(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Finds a solution and claims it is the only one, without looking for another."""
    outcome = good(grid, budget)
    if outcome.solved:
        outcome.unique = True
    return outcome


def odd_info(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Solves, with an info that JSON cannot hold whole: a Grid, a NaN, a huge text, a list of a million."""
    outcome = good(grid, budget, **options)
    outcome.info = {"fine": 1, "grid": grid, "nan": float("nan"), "huge": "x" * 10**6, "long": list(range(10**6)),
                    "also fine": {"nested": [1, "two", None]}}
    return outcome


def _method(solve: Any, summary: str) -> Method:
    return Method(solve, summary, {}, ("nodes",))


SOLVERS: dict[str, Method] = {
    "good": Method(good, "MRV with singles (correct)", {}, ("nodes", "guesses", "backtracks")),
    "dawdler": Method(dawdler, "MRV with singles, a tenth of a second late", {}, ("nodes", "guesses", "backtracks")),
    "sleeper": _method(sleeper, "ignores its budget"),
    "forker": _method(forker, "forks a child, then ignores its budget"),
    "exiter": _method(exiter, "exits its process"),
    "raiser": _method(raiser, "raises"),
    "garbage": _method(garbage, "returns a string"),
    "huge_counter": _method(huge_counter, "a counter of 10**30"),
    "nan_counter": _method(nan_counter, "a NaN counter"),
    "fraction_counter": _method(fraction_counter, "a counter of 2.5"),
    "text_solution": _method(text_solution, "the solution as text"),
    "printer": _method(printer, "prints to standard output"),
    "mutator": _method(mutator, "blanks the grid it was handed"),
    "false_unsat": _method(false_unsat, "claims unsatisfiable"),
    "false_unique": _method(false_unique, "claims unique without looking"),
    "odd_info": _method(odd_info, "an info JSON cannot hold whole"),
}
