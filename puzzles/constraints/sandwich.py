"""A sandwich: a clue outside the grid at the end of a row or column; the values strictly between that line's 1 and
its n (9 on a 9x9 grid), whichever comes first, sum to the clue (f-puzzles' `sandwichsum`, `{"cell": "R0C3", "value":
"12"}`; 0 when they are neighbours).

Its automaton (outside.py) reads the line from the clue: outside the sandwich until a 1 or an n, then inside it,
summing, until the other one, then outside again; a second 1 or n, or a sum past the clue, is no way on.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .outside import Sighted, State

BEFORE, AFTER = ("before",), ("after",)


@dataclass(frozen=True)
class Sandwich(Sighted):
    """`cells`: the row's or column's cells from the clue on; `value`: the sum between its 1 and its n."""

    KIND = "sandwich"
    FIELD = "sandwichsum"
    WORD = "sw="
    TITLE = "sandwich"
    SAYS = "the values between its 1 and its {side} sum to {shown}"

    def start(self, side: int) -> State:
        return BEFORE

    def step(self, state: State, v: int, side: int) -> State | None:
        crust = v in (1, side)
        if state == BEFORE:  # no crust yet: a crust opens the sandwich (which one, so the other closes it)
            return ("in", v, 0) if crust else BEFORE
        if state == AFTER:
            return None if crust else AFTER
        _, opened, held = state
        if crust:
            return AFTER if v != opened and held == self.value else None
        return ("in", opened, held + v) if held + v <= self.value else None

    def final(self, state: State, side: int) -> bool:
        return state == AFTER

    def measure(self, values: Sequence[int], side: int) -> int:
        ends = sorted(i for i, v in enumerate(values) if v in (1, side))
        return sum(values[ends[0] + 1:ends[-1]]) if len(ends) == 2 else -1
