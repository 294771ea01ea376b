"""An X-sum: a clue outside the grid at the end of a row or column; the first X values of that line seen from the
clue sum to it, X being the first of them (f-puzzles' `xsum`, `{"cell": "R0C3", "value": "15"}`).

Its automaton (outside.py) reads the first value, then counts down the cells and the sum left to it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .outside import Sighted, State

FIRST, DONE = ("first",), ("done",)


@dataclass(frozen=True)
class XSum(Sighted):
    """`cells`: the row's or column's cells from the clue on; `value`: the sum of its first X values."""

    KIND = FIELD = "xsum"
    WORD = "xs="
    TITLE = "X-sum"
    SAYS = "its first values, as many as the first says, sum to {shown}"

    def start(self, side: int) -> State:
        return FIRST

    def step(self, state: State, v: int, side: int) -> State | None:
        if state == DONE:
            return DONE
        cells, left = (v, self.value) if state == FIRST else state
        cells, left = cells - 1, left - v
        if cells == 0:
            return DONE if left == 0 else None
        return (cells, left) if cells <= left else None  # each cell still to come holds 1 at least

    def final(self, state: State, side: int) -> bool:
        return state == DONE

    def measure(self, values: Sequence[int], side: int) -> int:
        return sum(values[:values[0]])
