"""A method as a run holds it: chosen (its label and options), or the certifier imported where it runs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzles import Budget, Grid, Method, Outcome, Status
from puzzles.conclusion import COUNTING
from puzzles.options import how_many

CERTIFIER = "cpsat"  # certifies multi-solution puzzles with solutions=2 (and counts them with solutions=N)


@dataclass(frozen=True)
class Selected:
    """A method as chosen on the command line: its label, e.g. `mrv:propagate=singles`."""

    label: str
    method: Method | LazyMethod
    options: dict[str, Any]  # keyword arguments of every call, `solutions` included

    @property
    def asks_two(self) -> bool:
        return str(self.options.get("solutions")) == "2"

    @property
    def asks_more(self) -> bool:
        """Whether it is asked to go past the first solution: to prove it unique (2), or to count (more)."""
        return self.asks_two or self.counting

    @property
    def counting(self) -> bool:
        """Whether it is asked to count solutions (solutions=N, N > 2)."""
        try:
            return how_many(self.options.get("solutions", 1)) >= COUNTING
        except ValueError:
            return False


class LazyMethod:
    """A method of formulations.SOLVERS imported on its first call, in the worker: the certifier when ortools was
    not loaded."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.method: Method | None = None
        self.counters: tuple[str, ...] = ()  # not known before the import

    def __call__(self, grid: Grid, budget: Budget, **options: Any) -> Outcome:
        if self.method is None:
            try:
                import formulations

                self.method = formulations.SOLVERS[self.name]
            except Exception as exc:
                return Outcome(Status.ERROR, detail=f"formulations.SOLVERS[{self.name!r}]: {exc}")
        return self.method(grid, budget, **options)


def certifier(registry: dict[str, Method], injected: bool) -> Method | LazyMethod | None:
    """The method that certifies uniqueness, if there is one."""
    if CERTIFIER in registry:
        return registry[CERTIFIER]
    return None if injected else LazyMethod(CERTIFIER)
