"""The check of one run: call a method on a puzzle, and hold what it returns to the solver contract.

Whatever the method does (raise, return something that is not an Outcome, counters that are no whole
numbers, an info JSON cannot hold, a solution that breaks the rules) comes back as a RunResult that says
so: nothing escapes to the worker that runs it (pool.py).
"""
from __future__ import annotations

import json
import math
import numbers
import operator
import time
from typing import Any, NamedTuple

from puzzles import Budget, Count, Grid, Status
from puzzles.grid import Layout
from puzzles.kept import fresh

from ..core.selected import Selected
from .result import RunResult

COUNTER_RANGE = range(-(2**63), 2**63)  # what a record, numpy or a CSV reader takes as a whole number
INFO_CHARACTERS = 4096  # a record's info as JSON text at most: the facts beyond are dropped (counted)
INFO_ITEMS, INFO_DEPTH = 64, 2  # a list or dict in the info is a small one: so many entries, so deeply nested
DROPPED = "dropped_facts"  # the info's key that counts the facts left out of the records


class Item(NamedTuple):
    """One run to do: a method on a puzzle's cells (a tuple, so cheap to send)."""

    puzzle: int  # the puzzle's id in the run
    method: int  # the method's index among the runners
    layout: Layout
    values: bytes


def run_one(item: Item, selected: Selected, budget: Budget) -> RunResult:
    """Call one method on one puzzle and check its answer; nothing it does escapes as an exception.

    The method gets a grid of its own, so that one which changes it (frozen or not) cannot change
    what the next method sees, nor what its own answer is checked against.
    """
    pid, index, lay, values = item
    fresh()  # a puzzle drawn for itself: the method's time includes its model, whatever ran before
    started = time.perf_counter()
    try:
        outcome = selected.method(Grid(lay, values), budget, **selected.options)
    except (Exception, SystemExit) as exc:  # the contract says errors are Outcomes; hold methods to it
        return RunResult(pid, index, Status.ERROR, f"raised {type(exc).__name__}: {exc}",
                         seconds=time.perf_counter() - started)
    seconds = time.perf_counter() - started
    try:
        status = Status(getattr(outcome, "status", None))
    except ValueError:
        return RunResult(pid, index, Status.ERROR, f"returned {outcome!r:.80}, not an Outcome", seconds=seconds)
    try:
        effort = counters(getattr(outcome, "effort", None) or {})
    except (TypeError, ValueError) as exc:
        return RunResult(pid, index, Status.ERROR, f"bad effort counters: {exc}", seconds=seconds)
    unique = getattr(outcome, "unique", None)
    detail = str(getattr(outcome, "detail", "") or "")
    count = getattr(outcome, "count", None)
    if count is not None and not isinstance(count, Count):
        return RunResult(pid, index, Status.ERROR, f"returned a count {count!r:.40}, not a puzzles.Count",
                         seconds=seconds)
    result = RunResult(pid, index, status, detail, None, None if unique is None else bool(unique), seconds, effort,
                       info=facts(getattr(outcome, "info", None)), count=count)
    if status is Status.SOLVED:
        solution = getattr(outcome, "solution", None)
        if not isinstance(solution, Grid):
            result.problems = [f"solved, but returned {type(solution).__name__}, not a Grid"]
        else:
            result.solution = solution.line()
            result.problems = Grid(lay, values).solution_problems(solution)
    return result


def counters(effort: Any) -> dict[str, int]:
    """A method's effort as named whole numbers; ValueError/TypeError naming the first that is not one."""
    checked: dict[str, int] = {}
    for name, value in dict(effort).items():
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            number = operator.index(value)  # ints and numpy integers, not floats, strings or None
        except TypeError:
            raise ValueError(f"{name}={value!r:.40} is not a whole number") from None
        if number not in COUNTER_RANGE:
            raise ValueError(f"{name}={number:.3g} is beyond 64 bits")
        checked[str(name)] = number
    return checked


def facts(info: Any) -> dict[str, Any]:
    """The JSON-able part of a method's info, for the records: numbers, strings, booleans, None, and small
    lists and dicts of those, in INFO_CHARACTERS at most. Any other fact is left out, and so are those beyond
    the size, their count under DROPPED; nothing an info holds fails the run."""
    try:
        items = list(dict(info or {}).items())
    except Exception:  # not a mapping at all: the record goes without
        return {DROPPED: 1}
    kept: dict[str, Any] = {}
    size, dropped = 2, 0  # the braces of the JSON object
    for name, value in items:
        try:
            if not isinstance(name, str):
                raise TypeError("a fact is named by a string")
            name, value = str.__str__(name), plain(value, 0)
            length = len(json.dumps(name)) + len(json.dumps(value, allow_nan=False)) + 4  # ": " and ", "
        except Exception:  # a value JSON cannot hold, or one whose own methods fail
            dropped += 1
            continue
        if size + length > INFO_CHARACTERS:
            dropped += 1
            continue
        kept[name], size = value, size + length
    if dropped:
        kept[DROPPED] = dropped
    return kept


def plain(value: Any, depth: int) -> Any:
    """The value as plain JSON-able Python (numpy numbers as Python's); TypeError/ValueError if it is not one."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a subclass of str as a plain one
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError("not a finite number")
        return number
    if depth < INFO_DEPTH and isinstance(value, list | tuple) and len(value) <= INFO_ITEMS:
        return [plain(v, depth + 1) for v in value]
    if depth < INFO_DEPTH and isinstance(value, dict) and len(value) <= INFO_ITEMS:
        if not all(isinstance(k, str) for k in value):
            raise TypeError("a fact is named by a string")
        return {str.__str__(k): plain(v, depth + 1) for k, v in value.items()}
    raise TypeError(f"{type(value).__name__} is no JSON value")
