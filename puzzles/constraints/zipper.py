"""A zipper line (f-puzzles' `zipperline`, as SudokuVariantSolverJS reads it): the two cells the same distance from
the line's middle sum to one total, the same for every such pair; on a line of odd length that total is the value
of its middle cell. Values may repeat (the houses aside).

No set of pairs (every pair shares the total, or the middle cell), so it is kept by its filter (lines.py's
`ScopedLine`): given the total, the pairs are apart, so a value stays when some total lets every pair sum to it
with this value among them (generalised arc consistency of the whole line)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .lines import Line, ScopedLine, around


@dataclass(frozen=True)
class ZipperLine(ScopedLine):
    """A line whose pairs around its middle share one sum (its middle cell's value, on an odd line)."""

    KIND = FIELD = "zipperline"
    WORD = "zip="
    TITLE = "zipper line"

    def pairs_of(self) -> list[tuple[int, int]]:
        """Its pairs of cells (positions along the line) the same distance from its middle, the outermost first."""
        k = len(self.cells)
        return [(i, k - 1 - i) for i in range(k // 2)]

    def middle(self) -> int | None:
        """Its middle cell's position, on a line of odd length; None on an even one."""
        return len(self.cells) // 2 if len(self.cells) % 2 else None

    def supports(self, domains: Sequence[int], side: int) -> list[int]:
        kept = [0] * len(self.cells)
        mid = self.middle()
        for total in range(2, 2 * side + 1):
            if mid is not None and not domains[mid] >> (total - 1) & 1:
                continue  # (a total above the side is no value: the mask has no such bit)
            found = []
            for i, j in self.pairs_of():
                here = sum(1 << (v - 1) for v in range(max(1, total - side), min(side, total - 1) + 1)
                           if domains[i] >> (v - 1) & 1 and domains[j] >> (total - v - 1) & 1)
                if not here:
                    break
                there = sum(1 << (total - v - 1) for v in range(1, side + 1) if here >> (v - 1) & 1)
                found.append((i, here, j, there))
            else:
                for i, here, j, there in found:
                    kept[i] |= here
                    kept[j] |= there
                if mid is not None:
                    kept[mid] |= 1 << (total - 1)
        return kept

    def broken(self, held: Sequence[int], side: int) -> str | None:
        sums = [held[i] + held[j] for i, j in self.pairs_of()]
        mid = self.middle()
        if mid is not None and any(s != held[mid] for s in sums):
            return f"its pairs around its middle sum to {', '.join(map(str, sums))}, its middle holds {held[mid]}"
        if mid is None and len(set(sums)) > 1:
            return f"its pairs around its middle sum to {', '.join(map(str, sums))}, not one total"
        return None

    @classmethod
    def grown(cls, start: int, values: Sequence[int], side: int, rng: random.Random, taken: set[int],
              length: int) -> Line | None:
        """A zipper grown from its middle both ways: the middle `start` alone (the total its value), or `start` and
        a touching cell (the total their sum); then each step a pair of untaken cells touching the two ends, summing
        to the total."""
        free = [c for c in around(start, side) if c not in taken]
        left, right = [start], [start]
        total = values[start]
        if free and rng.random() < 0.5:
            right = [rng.choice(free)]
            total += values[right[0]]
        while len(left) + len(right) - (right[0] == left[0]) < length:
            used = set(left) | set(right)
            steps = [(a, b) for a in around(left[-1], side) for b in around(right[-1], side)
                     if a != b and values[a] + values[b] == total and not {a, b} & (used | taken)]
            if not steps:
                break
            a, b = rng.choice(steps)
            left.append(a)
            right.append(b)
        cells = [*reversed(left), *(right[1:] if right[0] == left[0] else right)]
        return cls(tuple(cells)) if len(cells) >= cls.LEAST else None
