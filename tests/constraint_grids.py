"""Puzzles with constraints beyond houses and cages (puzzles/constraints/), for the tests of every layer, and a
brute force that states each kind's rule from its definition.

The brute force knows nothing of the kinds' links, their filters or the engines: a knight's move is two steps one
way and one the other, a king's diagonal move one each way, neighbours share an edge, and a thermometer's values
rise from its bulb, a Killer cage holds different values summing to its total. It reads the houses as
tests/variant_grids.py does, from the layout's fields. What it finds is
what "a solution of this puzzle" means, whatever the code under test does.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

from variant_grids import peers

from puzzles import Grid
from puzzles.layouts import Layout


def _apart(a: int, b: int, n: int) -> tuple[int, int]:
    return abs(a // n - b // n), abs(a % n - b % n)


def breaks(lay: Layout, values: Sequence[int], cell: int) -> bool:
    """Whether the value in `cell` breaks a constraint of the layout, or a Killer cage of it, with a filled cell
    (blanks are 0). A cage holds no value twice, and its values sum to its total (no more while it has blanks)."""
    n, v = lay.side, values[cell]
    for cage in lay.cages:
        if cell in cage.cells:
            held = [values[c] for c in cage.cells if values[c]]
            full = len(held) == len(cage.cells)
            if held.count(v) > 1 or (cage.total is not None and (sum(held) > cage.total or
                                                                 (full and sum(held) != cage.total))):
                return True
    for rule in lay.constraints:
        if rule.KIND == "killer":  # a cage: above
            continue
        if rule.KIND == "thermometer":
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:  # values rise along the line: one d steps after another holds at least d more
                i = line.index(cell)
                if any(values[other] and (j - i) * (values[other] - v) < (j - i) ** 2
                       for j, other in enumerate(line) if j != i):
                    return True
            continue
        for other in range(n * n):
            w = values[other]
            if not w or other == cell:
                continue
            dr, dc = _apart(cell, other, n)
            if rule.KIND == "antiknight" and {dr, dc} == {1, 2} and v == w:
                return True
            if rule.KIND == "antiking" and dr == dc == 1 and v == w:
                return True
            if rule.KIND == "nonconsecutive" and dr + dc == 1 and abs(v - w) == 1:
                return True
    return False


def solutions(grid: Grid, limit: int = 10**6, rng: random.Random | None = None) -> Iterator[list[int]]:
    """The solutions of a puzzle with constraints, up to `limit`: cells filled in reading order, each value checked
    against its houses and every constraint as defined above. With `rng`, values in a random order."""
    lay, n = grid.layout, grid.side
    near = peers(lay)
    values = list(grid.values)
    if any(v and (any(values[p] == v for p in near[c]) or breaks(lay, values, c)) for c, v in enumerate(values)):
        return
    blanks = [c for c, v in enumerate(values) if not v]
    found = 0

    def fill(k: int) -> Iterator[list[int]]:
        nonlocal found
        if k == len(blanks):
            found += 1
            yield list(values)
            return
        cell = blanks[k]
        choices = list(range(1, n + 1))
        if rng is not None:
            rng.shuffle(choices)
        for v in choices:
            if any(values[p] == v for p in near[cell]):
                continue
            values[cell] = v
            if not breaks(lay, values, cell):
                yield from fill(k + 1)
            values[cell] = 0
            if found >= limit:
                return

    yield from fill(0)


def count(grid: Grid, limit: int = 2) -> int:
    return sum(1 for _ in solutions(grid, limit))


@cache
def unique_puzzle(text: str, seed: int) -> tuple[Grid, Grid]:
    """A puzzle of the empty grid `text` (its words say its layout) with one solution, and that solution: a random
    solution by the brute force, then givens taken away in random order while it still finds one solution only
    (so each given left is needed)."""
    empty = Grid.parse(text)
    rng = random.Random(seed)
    solution = empty.with_values(next(solutions(empty, 1, rng)))
    values = list(solution.values)
    order = list(range(len(values)))
    rng.shuffle(order)
    for cell in order:
        kept, values[cell] = values[cell], 0
        if count(solution.with_values(values)) > 1:
            values[cell] = kept
    return solution.with_values(values), solution


# Empty grids with constraints, small enough to enumerate: each kind alone, on 4x4 and 6x6, and together (a 6x6
# Jigsaw, X or diagonal with anti-knight, anti-king or non-consecutive has no solution, nor a 4x4 with anti-king or
# non-consecutive: the brute force says so).
EMPTY = {
    "antiknight-6": "." * 36 + ";antiknight",
    "antiking-6": "." * 36 + ";antiking",
    "nonconsecutive-6": "." * 36 + ";nonconsecutive",
    "thermometer-4": "." * 16 + ";th=R1C1,R2C2,R3C3;th=R4C1,R3C1",
    "thermometer-6": "." * 36 + ";th=R1C1,R1C2,R2C3,R3C3;th=R6C6,R5C6,R4C5",
    "antiking+thermometer-6": "." * 36 + ";antiking;th=R2C2,R3C2,R4C3",
    "antiknight-4": "." * 16 + ";antiknight",
    "antiknight+thermometer-6": "." * 36 + ";antiknight;th=R1C1,R1C2,R1C3",
    "nonconsecutive+thermometer-6": "." * 36 + ";nonconsecutive;th=R1C1,R2C1,R3C1",
}


def puzzles() -> list[tuple[str, Grid, Grid]]:
    """(name, a unique puzzle, its solution) for every grid of EMPTY (seed 1)."""
    return [(name, *unique_puzzle(text, 1)) for name, text in EMPTY.items()]


def several(name: str) -> Grid:
    """The unique puzzle of `name` with its givens but the first three taken away: several solutions."""
    grid, _ = unique_puzzle(EMPTY[name], 1)
    values = list(grid.values)
    for cell in [c for c, v in enumerate(values) if v][:3]:
        values[cell] = 0
    return grid.with_values(values)
