"""What every formulation shares: option parsing, puzzle checks, the error net.

Options may come from the command line as strings ("off", "2"), so every
option is converted here, and a bad name or value becomes an ERROR Outcome
with a message rather than an exception.
"""
from __future__ import annotations

import functools
import time
from typing import Callable

from puzzles.grid import Grid
from puzzles.outcome import Budget, Outcome, Status, error

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


class OptionError(ValueError):
    """A bad option name or value; the message says which and what is allowed."""


def as_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(f"option {name}={value!r}: expected on or off")


def as_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool):
        raise OptionError(f"option {name}={value!r}: expected a whole number")
    try:
        number = int(str(value).strip()) if not isinstance(value, int) else value
    except ValueError:
        raise OptionError(f"option {name}={value!r}: expected a whole number") from None
    if number < low or (high is not None and number > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise OptionError(f"option {name}={value!r}: expected {allowed}")
    return number


def as_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in choices:
        raise OptionError(f"option {name}={value!r}: expected one of {', '.join(choices)}")
    return text


def read_options(options: dict[str, object], parsers: dict[str, Callable[[object], object]],
                 defaults: dict[str, object], method: str) -> dict[str, object]:
    """The method's options with defaults filled in; unknown names are refused."""
    unknown = sorted(set(options) - set(parsers))
    if unknown:
        known = ", ".join(sorted(parsers)) or "none"
        raise OptionError(f"{method}: unknown option {', '.join(unknown)} (its options: {known})")
    chosen = dict(defaults)
    for name, value in options.items():
        chosen[name] = parsers[name](value)
    return chosen


def check_puzzle(grid: object) -> None:
    if not isinstance(grid, Grid):
        raise OptionError(f"expected a Grid, not {type(grid).__name__}")
    problems = grid.conflicts()
    if problems:
        raise OptionError("invalid puzzle: " + "; ".join(problems))


def contract(method: str) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Wrap a solve so that options are checked first and nothing escapes as a traceback.

    The wrapped function receives (grid, budget, solutions, started, **options)
    with `solutions` already an int (1 or 2) and `budget` a Budget.
    """

    def wrap(solve: Callable[..., Outcome]) -> Callable[..., Outcome]:
        @functools.wraps(solve)
        def checked(grid: Grid, budget: Budget | None = None, *, solutions: object = 1,
                    **options: object) -> Outcome:
            started = time.perf_counter()
            try:
                count = as_int("solutions", solutions, 1, 2)
                check_puzzle(grid)
                if budget is None:
                    budget = Budget()
                elif not isinstance(budget, Budget):
                    raise OptionError(f"expected a Budget, not {type(budget).__name__}")
                return solve(grid, budget, count, started, **options)
            except OptionError as exc:
                return error(str(exc), started)
            except Exception as exc:  # the contract: a clear message, never a traceback
                return error(f"{method} failed: {type(exc).__name__}: {exc}", started)

        return checked

    return wrap


def gave_up(reason: str, started: float, effort: dict[str, int], info: dict[str, object],
            solution: Grid | None = None) -> Outcome:
    """A budget ran out. With a solution, it was the uniqueness proof that ran out."""
    seconds = time.perf_counter() - started
    if solution is not None:
        return Outcome(Status.SOLVED, solution, effort, seconds, None, reason, info)
    return Outcome(Status.GAVE_UP, None, effort, seconds, None, reason, info)


def remaining(deadline: float) -> float:
    return deadline - time.perf_counter()
