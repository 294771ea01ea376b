"""A palindrome (f-puzzles' `palindrome`): the line reads the same both ways, its i-th cell from one end holding
the value of its i-th from the other (lines.py). Stated as links between each such pair of cells: a value in one
forbids every other value in the other."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .lines import Line, around


@dataclass(frozen=True)
class Palindrome(Line):
    """A line whose values read the same from either end."""

    KIND = FIELD = "palindrome"
    WORD = "pal="
    TITLE = "palindrome"

    def pairs(self, side: int) -> list[tuple[int, int, tuple[int, ...]]]:
        full, k = (1 << side) - 1, len(self.cells)
        others = (0, *(full & ~(1 << (v - 1)) for v in range(1, side + 1)))
        return [(self.cells[i], self.cells[k - 1 - i], others) for i in range(k // 2)]

    def says(self, a: int, b: int) -> str:
        return "a palindrome's cells the same distance from either end hold the same value"

    @classmethod
    def grown(cls, start: int, values: Sequence[int], side: int, rng: random.Random, taken: set[int],
              length: int) -> Palindrome | None:
        """A palindrome grown from its middle both ways: the middle `start` alone, or `start` and a touching cell
        of the same value; then each step a pair of untaken cells touching the two ends, of one value."""
        free = [c for c in around(start, side) if c not in taken]
        twins = [c for c in free if values[c] == values[start]]
        left, right = [start], [start]
        if twins and rng.random() < 0.5:
            right = [rng.choice(twins)]
        while len(left) + len(right) - (right[0] == left[0]) < length:
            used = set(left) | set(right)
            steps = [(a, b) for a in around(left[-1], side) for b in around(right[-1], side)
                     if a != b and values[a] == values[b] and not {a, b} & (used | taken)]
            if not steps:
                break
            a, b = rng.choice(steps)
            left.append(a)
            right.append(b)
        cells = [*reversed(left), *(right[1:] if right[0] == left[0] else right)]
        return cls(tuple(cells)) if len(cells) >= 3 else None
