"""The contract's options: declared once per method, checked and converted in one place.

Every solver, hand-written or not, takes its options as keyword arguments, and
they may arrive as strings from a command line (`seed="7"`, `presolve="off"`).
A method declares its options as `Option`s; `contract` wraps its search so that

- the grid is a Grid without two equal givens in a unit,
- `solutions` (1, 2, or N > 2 to count) and the method's own options are converted and checked,
- anything wrong, a bad option or an exception inside the solve, becomes an
  ERROR Outcome with a clear message naming the method, never a traceback.

`describe` turns the declarations into `Method.options`, the texts that
`compare.py --list` shows, so what is checked and what is documented agree.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from . import constraints
from .conclusion import COUNTING
from .grid import Grid, PuzzleError
from .outcome import Budget, Outcome, Status, error, not_run

Run = Callable[[Grid, Budget, int, dict[str, Any], float], Outcome]
# A method's rule on what its chosen options can do, and with which budget: OptionError when they cannot.
Rule = Callable[[dict[str, Any], Budget], None]


class Solve(Protocol):
    """A solve function of the contract, carrying the check of its options that `Method.check` reads."""

    check_options: Callable[[dict[str, Any], Budget | None], None]

    def __call__(self, grid: Grid, budget: Budget | None = None, *, solutions: Any = 1, **options: Any) -> Outcome:
        ...


class OptionError(ValueError):
    """A bad option name or value; the message says which and what is allowed."""


@dataclass(frozen=True)
class Option:
    """One option: its default, a one-line help, and either fixed choices or a converter.

    A converter takes the value as given (a string from a command line, or
    already typed) and returns it converted, raising ValueError with the reason
    when it is bad. `shape` names the accepted values in the description when
    they are not `choices` (as "on|off" for a switch). Defaults are used as
    they are: declare them already converted.
    """

    default: Any
    help: str
    choices: tuple[str, ...] = ()
    convert: Callable[[Any], Any] | None = None
    shape: str = ""

    def describe(self) -> str:
        default = self.default
        if isinstance(default, bool):
            default = "on" if default else "off"
        allowed = "|".join(self.choices) or self.shape
        if allowed:
            return f"{allowed} (default {default}): {self.help}"
        return f"{self.help} (default {default})"

    def read(self, name: str, value: Any) -> Any:
        """`value` converted, or OptionError saying what is wrong with it."""
        if self.choices:
            text = str(value).strip().lower()
            if text not in self.choices:
                raise OptionError(f"option {name}={value!r}: choose one of {', '.join(self.choices)}")
            return text
        if self.convert is None:
            return value
        try:
            return self.convert(value)
        except (TypeError, ValueError) as exc:
            raise OptionError(f"option {name}={value!r}: {exc}") from None


# -- converters ---------------------------------------------------------------------------------

_ON = {"on", "true", "yes", "1"}
_OFF = {"off", "false", "no", "0"}


def on_off(value: Any) -> bool:
    """A switch: True or False, or on/off (true/false, yes/no, 1/0) as text."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _ON:
        return True
    if text in _OFF:
        return False
    raise ValueError("expected on or off")


def whole(low: int, high: int | None = None) -> Callable[[Any], int]:
    """A converter to an int in low..high (no upper bound when high is None)."""

    def convert(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError("expected a whole number")
        if isinstance(value, int):
            number = value
        elif isinstance(value, float):
            if not value.is_integer():
                raise ValueError("expected a whole number")
            number = int(value)
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                raise ValueError("expected a whole number") from None
        if number < low or (high is not None and number > high):
            raise ValueError(f"expected {low}..{high}" if high is not None else f"expected a whole number >= {low}")
        return number

    return convert


def whole_or(low: int, *words: str) -> Callable[[Any], int | str]:
    """A converter to an int >= low, or one of `words` (as 'auto')."""
    convert = whole(low)

    def either(value: Any) -> int | str:
        if isinstance(value, str) and value.strip().lower() in words:
            return value.strip().lower()
        return convert(value)

    return either


def optional_whole(low: int, *words: str) -> Callable[[Any], int | str | None]:
    """A converter to an int >= low, None from None or 'none', or one of `words` (as 'auto')."""
    either = whole_or(low, *words)

    def maybe(value: Any) -> int | str | None:
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return None
        return either(value)

    return maybe


def real(low: float = 0.0) -> Callable[[Any], float]:
    """A converter to a finite float >= low."""

    def convert(value: Any) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = float("nan")
        if isinstance(value, bool) or not low <= number < float("inf"):  # nan fails too
            raise ValueError(f"expected a finite number >= {low:g}")
        return number

    return convert


def switch(default: bool, help: str) -> Option:
    """An on/off option."""
    return Option(default, help, convert=on_off, shape="on|off")


ALL = 1000  # `solutions=all`: count up to so many (a count that reaches it reads "1000+", at least so many)


def how_many(value: Any) -> int:
    """`solutions`: a whole number >= 1, or 'all' (ALL, the cap of a count)."""
    if isinstance(value, str) and value.strip().lower() == "all":
        return ALL
    return whole(1)(value)


SOLUTIONS = Option(1, "how many solutions to look for: 1 (stop at the first), 2 (go on to prove there is no "
                   f"other; Outcome.unique says), N > 2 (count them up to N; Outcome.count says) or all "
                   f"(count up to {ALL})", convert=how_many, shape="1|2|N|all")


# -- the spec of a method -----------------------------------------------------------------------

def parse(spec: dict[str, Option], given: dict[str, Any]) -> dict[str, Any]:
    """The options of `spec`, defaults filled in and given values converted; OptionError if wrong."""
    unknown = sorted(set(given) - set(spec))
    if unknown:
        known = ", ".join([*spec, "solutions"])
        names = ", ".join(repr(name) for name in unknown)
        raise OptionError(f"unknown option{'s' if len(unknown) > 1 else ''} {names} (its options: {known})")
    return {name: option.read(name, given[name]) if name in given else option.default
            for name, option in spec.items()}


@dataclass(frozen=True)
class MethodSpec:
    """A method as compare.py's --solver (and the tracer, the fuzzer) names it, `NAME[:key=value,...]`: its
    name and its options as written, in order, read in this one place."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> MethodSpec:
        """OptionError if the options are not key=value pairs."""
        name, _, rest = text.partition(":")
        options: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = (s.strip() for s in part.partition("="))
            if not eq or not key:
                raise OptionError("options are key=value pairs separated by commas")
            options[key] = value
        return cls(name.strip(), tuple(options.items()))

    @staticmethod
    def name_of(text: str) -> str:
        """The NAME of a spec, before its options are read (they may be wrong: the name says whose they are)."""
        return text.partition(":")[0].strip()

    @property
    def label(self) -> str:
        """The spec written back: `NAME` or `NAME:key=value,...`, how a run labels the method."""
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in self.options) if self.options else "")

    def unknown_option(self, allowed: Sequence[str]) -> str | None:
        """Why the spec does not fit a method whose options are `allowed` (one it has not), or None."""
        for key, _ in self.options:
            if key not in allowed:
                return f"{self.name} has no option {key!r}; its options: {', '.join(allowed)}"
        return None

    def replaced(self, key: str, value: str) -> MethodSpec:
        """The same spec with `key` set to `value`, last."""
        return MethodSpec(self.name, (*((k, v) for k, v in self.options if k != key), (key, value)))


def describe(spec: dict[str, Option]) -> dict[str, str]:
    """`Method.options`: `solutions`, then each option of `spec`, with choices, default and meaning."""
    return {"solutions": SOLUTIONS.describe(), **{name: option.describe() for name, option in spec.items()}}


def check_puzzle(grid: object) -> None:
    """OptionError unless `grid` is a Grid with no two equal givens in a unit."""
    if not isinstance(grid, Grid):
        raise OptionError(f"a solver takes a Grid, not {type(grid).__name__}")
    problems = grid.conflicts()
    if problems:
        raise OptionError("invalid puzzle: " + "; ".join(problems))


def contract(name: str, spec: dict[str, Option], rule: Rule | None = None, *,
             knows: Collection[str] = (), counts: bool = True) -> Callable[[Run], Solve]:
    """Make `run(grid, budget, solutions, options, started)` a solve function of the contract.

    The solve function, `solve(grid, budget=Budget(), *, solutions=1, **options)`,
    checks the puzzle, the budget, `solutions` and the options of `spec` (and
    `rule`, when the method has options that exclude each other or a budget it
    cannot honour), then calls `run` with `solutions` an int, `options` a dict
    of every option of `spec` (converted, defaults filled in) and `started` the
    perf_counter() time the call began. Whatever goes wrong comes back as an
    ERROR Outcome whose message starts with `name`. The same checks run before
    any solve through `solve.check_options(options, budget)`.

    A method that does not say it knows a kind of constraint a puzzle holds (`knows`: the kinds of
    puzzles/constraints/ it knows, by name, Killer cages among them: a hand-written search's SEARCHED, a
    formulation's encoder registry), does not run on that puzzle: its Outcome is GAVE_UP, `not run` and why.
    Ignoring a rule it would solve a different puzzle. A kind that adds houses (the diagonals, ...) is known by
    every method: the houses are the geometry's units, which every method keeps.

    A method that cannot count its solutions (`counts=False`) does not run when asked for more than two: its
    Outcome is GAVE_UP, `not run` and why, rather than a count it cannot vouch for.
    """

    known = frozenset(knows) | constraints.HOUSED

    def wrap(run: Run) -> Solve:
        def solve(grid: Grid, budget: Budget | None = None, *, solutions: Any = 1, **options: Any) -> Outcome:
            started = time.perf_counter()
            try:
                check_puzzle(grid)
                refused = constraints.refusal({c.KIND for c in grid.layout.rules} - known)
                if refused is not None:  # `Killer cages`, `thermometer constraints`
                    return Outcome(Status.GAVE_UP, detail=not_run(f"{name} does not know {refused}"),
                                   seconds=time.perf_counter() - started)
                if budget is None:
                    budget = Budget()
                elif not isinstance(budget, Budget):
                    raise OptionError(f"budget must be a Budget, not {type(budget).__name__}")
                count = SOLUTIONS.read("solutions", solutions)
                chosen = parse(spec, options)
                if rule is not None:
                    rule(chosen, budget)
                if count >= COUNTING and not counts:
                    return Outcome(Status.GAVE_UP, detail=not_run(f"{name} cannot count solutions "
                                                                  f"(solutions={count})"),
                                   seconds=time.perf_counter() - started)
                return run(grid, budget, count, chosen, started)
            except (OptionError, PuzzleError) as exc:
                return error(f"{name}: {exc}", started)
            except Exception as exc:  # the contract: a clear message, never a traceback
                return error(f"{name} failed: {type(exc).__name__}: {exc}", started)

        def check_options(options: dict[str, Any], budget: Budget | None = None) -> None:
            """OptionError unless every option (`solutions` included) is good: checked before any solve."""
            given = dict(options)
            SOLUTIONS.read("solutions", given.pop("solutions", 1))
            chosen = parse(spec, given)
            if rule is not None:
                rule(chosen, budget or Budget())

        checked = cast(Solve, solve)  # a Solve once it carries check_options, the next line
        checked.check_options = check_options  # Method.check reads it
        # run's name and doc, but not its signature (no __wrapped__): callers see the contract's
        for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(solve, attribute, getattr(run, attribute))
        return checked

    return wrap
