"""Options as keyword arguments, checked and converted in one place.

Options may arrive as strings from a command line (`seed="7"`, `weight="1.5"`);
each is converted to its type and checked, and anything wrong becomes one clear
message for an ERROR Outcome, never an exception.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from puzzles.outcome import Outcome


@dataclass(frozen=True)
class Option:
    """One option: its default, a one-line help, and either fixed choices or a converter."""

    default: Any
    help: str
    choices: tuple[str, ...] = ()
    convert: Callable[[Any], Any] | None = None  # raises ValueError on a bad value

    def describe(self) -> str:
        if self.choices:
            return f"{'|'.join(self.choices)} (default {self.default}): {self.help}"
        return f"{self.help} (default {self.default})"


class OptionError(ValueError):
    """A bad option name or value; the message says which and why."""


def whole(low: int, high: int | None = None) -> Callable[[Any], int]:
    """A converter to an int in [low, high]."""

    def convert(value: Any) -> int:
        if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
            raise ValueError(f"{value!r} is not a whole number")
        number = int(value)
        if number < low or high is not None and number > high:
            raise ValueError(f"{number} is outside {low}..{'' if high is None else high}")
        return number

    return convert


def positive_float(value: Any) -> float:
    number = float(value)
    if not number >= 0 or number == float("inf"):
        raise ValueError(f"{value!r} is not a finite number >= 0")
    return number


def optional_whole(low: int) -> Callable[[Any], int | None]:
    """A converter to an int >= low, None from None / 'none', or 'auto' (the method decides)."""
    convert = whole(low)

    def maybe(value: Any) -> int | str | None:
        if value is None or isinstance(value, str) and value.lower() == "none":
            return None
        if isinstance(value, str) and value.lower() == "auto":
            return "auto"
        return convert(value)

    return maybe


SOLUTIONS = Option(1, "how many solutions to look for: 1 (stop at the first) or 2 "
                   "(go on to prove there is no other; Outcome.unique says)", convert=whole(1, 2))


def parse(spec: dict[str, Option], given: dict[str, Any]) -> dict[str, Any]:
    """The options of `spec` with defaults filled in and values converted; OptionError if wrong."""
    unknown = sorted(set(given) - set(spec))
    if unknown:
        known = ", ".join(sorted(spec)) or "none"
        raise OptionError(f"unknown option {unknown[0]!r} (options: {known})")
    out = {}
    for name, option in spec.items():
        value = given.get(name, option.default)
        if option.choices:
            text = str(value).lower()
            if text not in option.choices:
                raise OptionError(f"option {name}={value!r}: choose one of {', '.join(option.choices)}")
            out[name] = text
        elif option.convert is not None and name in given:
            try:
                out[name] = option.convert(value)
            except (TypeError, ValueError) as exc:
                raise OptionError(f"option {name}={value!r}: {exc}") from None
        else:
            out[name] = value
    return out


def describe(spec: dict[str, Option]) -> dict[str, str]:
    """The `options` dict of a Method: each option's choices, default and meaning."""
    return {name: option.describe() for name, option in spec.items()}


def checked(spec: dict[str, Option], run: Callable[..., "Outcome"]) -> Callable[..., "Outcome"]:
    """A solve function with the contract's signature around `run(grid, budget, solutions,
    options, started)`: options checked, bad input turned into an ERROR Outcome."""
    from puzzles.grid import Grid, PuzzleError
    from puzzles.outcome import Budget, error

    def solve(grid: Grid, budget: Budget = Budget(), *, solutions: int = 1, **options: Any) -> "Outcome":
        started = time.perf_counter()
        try:
            if not isinstance(grid, Grid):
                raise OptionError(f"a solver takes a Grid, not {type(grid).__name__}")
            if not isinstance(budget, Budget):
                raise OptionError(f"budget must be a Budget, not {type(budget).__name__}")
            count = parse({"solutions": SOLUTIONS}, {"solutions": solutions})["solutions"]
            chosen = parse(spec, options)
            return run(grid, budget, count, chosen, started)
        except (OptionError, PuzzleError) as exc:
            return error(str(exc), started)

    solve.__doc__ = run.__doc__
    return solve
