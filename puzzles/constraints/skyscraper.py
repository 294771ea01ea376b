"""A skyscraper: a clue outside the grid at the end of a row or column; seen from the clue, with each value a
building that tall, that many are in sight: a building is seen when it is taller than every one before it (f-puzzles'
`skyscraper`, `{"cell": "R0C3", "value": "3"}`).

Its automaton (outside.py) keeps the tallest building so far and how many were seen.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .outside import Sighted, State


@dataclass(frozen=True)
class Skyscraper(Sighted):
    """`cells`: the row's or column's cells from the clue on; `value`: how many buildings are seen."""

    KIND = FIELD = "skyscraper"
    WORD = "sky="
    TITLE = "skyscraper"
    SAYS = "the buildings seen from it: {shown}"

    def start(self, side: int) -> State:
        return (0, 0)

    def step(self, state: State, v: int, side: int) -> State | None:
        tallest, seen = state
        if v <= tallest:
            return state
        return (v, seen + 1) if seen < self.value else None

    def final(self, state: State, side: int) -> bool:
        return bool(state[1] == self.value)

    def measure(self, values: Sequence[int], side: int) -> int:
        seen, tallest = 0, 0
        for v in values:
            if v > tallest:
                seen, tallest = seen + 1, v
        return seen
