"""The inference rungs: what a search deduces after each placement (the `propagate` option).

A rung is a function of the engine that places values by inference and returns
how many it placed, or -1 when it finds a contradiction (the placement is then
a dead end). The search counts what a rung places as `forced`. The ladder of
DESIGN.md grows here, each rung adding to the one below:
none < naked < singles < locked < subsets < alldiff < probe.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine import Engine

Inference = Callable[[Engine[Any]], int]


def singles(engine: Engine[Any]) -> int:
    """Naked singles (a cell with one candidate) and hidden singles (a value with one place left
    in a unit), to a fixpoint: Norvig's propagation."""
    return engine.force_singles()


# `none` is no function at all: the seeds deduce nothing, and the search reports no `forced`
RUNGS: dict[str, Inference | None] = {"none": None, "singles": singles}
