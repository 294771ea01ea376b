"""Minimal puzzles: unique, and every clue needed (removing any one leaves more than one solution).

Clues are taken away from a full grid in random order, each kept only when the rest no longer pins the grid
down. One pass is enough: a clue kept at some point is needed then, and stays needed as clues go (fewer clues,
more solutions). Whether the grid is pinned down is the caller's `unique`, a SAT certificate in practice
(making/certify.py): this module only decides which clues to try.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from puzzles.grid import Grid

Unique = Callable[[list[int]], bool]  # whether the solution's values at these cells leave it the only solution


def minimise(cells: Iterable[int], unique: Unique, rng: random.Random) -> list[int]:
    """The cells (givens of a unique puzzle) with clues taken away in random order while `unique` holds."""
    kept = sorted(cells)
    order = kept[:]
    rng.shuffle(order)
    for cell in order:
        fewer = [c for c in kept if c != cell]
        if unique(fewer):
            kept = fewer
    return kept


def completed(cells: Iterable[int], solution: Grid, unique: Unique, rng: random.Random) -> list[int]:
    """The cells with random clues of `solution` added until `unique` holds (the puzzle has one solution)."""
    kept = set(cells)
    missing = [c for c in range(len(solution.values)) if c not in kept]
    rng.shuffle(missing)
    while not unique(sorted(kept)):
        kept.add(missing.pop())
    return sorted(kept)


def puzzle_of(solution: Grid, cells: Iterable[int]) -> Grid:
    """The puzzle whose givens are `solution`'s values at `cells`."""
    values = bytearray(len(solution.values))
    for c in cells:
        values[c] = solution.values[c]
    return solution.with_values(values)


def givens_of(puzzle: Grid) -> list[int]:
    return [c for c, v in enumerate(puzzle.values) if v]


def is_minimal(puzzle: Grid, solutions: Callable[[Grid], int]) -> bool:
    """Whether `puzzle` has one solution and each clue removed leaves more (`solutions` counts up to 2): the
    slow obvious check, for tests and for certifying what was made."""
    if solutions(puzzle) != 1:
        return False
    for cell in givens_of(puzzle):
        values = bytearray(puzzle.values)
        values[cell] = 0
        if solutions(puzzle.with_values(values)) < 2:
            return False
    return True
