"""Small puzzles with a chosen number of solutions (0, 1, 2, 7, more than 10), for the tests of counting: made and
counted by tests/constraint_grids.py's brute force, which knows nothing of the project's links, engines or
formulations. Each puzzle has its count: what "how many solutions" means, whatever the code under test does.

Making them takes the brute force thousands of enumerations (seconds), so the puzzles made are kept in
tests/counted_puzzles.txt and each run counts them again (one enumeration each): a puzzle whose count is not its
target fails the tests that use it.

    python tests/counted_grids.py     make the puzzles again and write them there
"""
from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

from constraint_grids import solutions

from puzzles import Grid

MANY = 10  # a puzzle of the `many` target has more than this many solutions
TARGETS = (0, 1, 2, 7, MANY + 1)  # 11: more than MANY (the count is "at least 11" then, and the real one is known)

# Empty grids of each sort that counts: houses alone (4x4 and 6x6 boxes), a Killer (6x6, three cages: a 4x4 Killer's
# counts came in multiples of 2 and 3, never 7), and constraint kinds (thermometers; Kropki dots, white and black).
EMPTY = {
    "boxes-4": "." * 16,
    "boxes-6": "." * 36,
    "killer-6": "." * 36 + ";k=aa......b.....bb............c......c:3,15,7",
    "thermometer-6": "." * 36 + ";th=R1C1,R1C2,R2C3,R3C3;th=R6C6,R5C6,R4C5",
    "kropki-6": "." * 36 + ";kw=R1C1-R1C2,R3C3-R3C4,R5C2-R6C2:3;kb=R2C5-R2C6,R4C4-R5C4:3",
}


def count(grid: Grid, limit: int) -> int:
    """The puzzle's solutions by the brute force, up to `limit`."""
    return sum(1 for _ in solutions(grid, limit))


ENUMERATED = 500  # a puzzle is narrowed down to its target among its solutions once it has this many or fewer


KEPT = Path(__file__).with_name("counted_puzzles.txt")


@cache
def kept() -> dict[tuple[str, int], str]:
    """The puzzles made, by (empty grid's name, target): each line of KEPT `NAME TARGET PUZZLE`."""
    found = {}
    for line in KEPT.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, target, puzzle = line.split(maxsplit=2)
            found[name, int(target)] = puzzle
    return found


@cache
def counted(name: str, target: int) -> tuple[Grid, int]:
    """The kept puzzle of the empty grid `name` made for `target` solutions, and its count by the brute force (up to
    ENUMERATED + 1)."""
    grid = Grid.parse(kept()[name, target])
    return grid, count(grid, ENUMERATED + 1)


def made(name: str, target: int) -> Grid:
    """A puzzle of the empty grid `name` with `target` solutions (MANY + 1: more than MANY, at most 3 * MANY): givens
    of a random solution added in random order until the brute force finds ENUMERATED solutions or fewer, then
    givens chosen among those solutions' values (a given keeps the solutions with that value there) until the
    target, from seed 1 on until one gets there; for 0, a unique puzzle with a blank cell given a value that breaks
    no rule between givens (its one solution has another there)."""
    empty = Grid.parse(EMPTY[name])
    low, high = (MANY + 1, 3 * MANY) if target == MANY + 1 else (max(target, 1), max(target, 1))
    for seed in range(1, 100):
        rng = random.Random(seed * 1000 + target)
        values, found = start(name, seed)
        values = list(values)
        givens = narrowed(found, low, high, rng)
        if givens is None:
            continue
        for cell, value in givens:
            values[cell] = value
        grid = empty.with_values(values)
        if target == 0:
            grid = broken(grid, next(solutions(grid, 1)), rng)
            if grid is None:
                continue
        return grid
    raise AssertionError(f"no puzzle of {name} with {target} solutions")


@cache
def start(name: str, seed: int) -> tuple[tuple[int, ...], list[list[int]]]:
    """Givens of a random solution of the empty grid `name`, added in random order until the brute force finds
    ENUMERATED solutions or fewer: the givens, and those solutions."""
    empty = Grid.parse(EMPTY[name])
    rng = random.Random(seed)
    solution = next(solutions(empty, 1, rng))
    values = list(empty.values)
    order = [c for c, v in enumerate(values) if not v]
    rng.shuffle(order)
    found = list(solutions(empty, ENUMERATED + 1))
    for cell in order:
        if len(found) <= ENUMERATED:
            break
        values[cell] = solution[cell]
        found = list(solutions(empty.with_values(values), ENUMERATED + 1))
    return tuple(values), found


def narrowed(found: list[list[int]], low: int, high: int, rng: random.Random) -> list[tuple[int, int]] | None:
    """Givens (cell, value) that keep between `low` and `high` of the solutions `found`; None if none do: a depth-first
    search over the sets of solutions givens keep, each set seen once, in random order."""
    seen: set[frozenset[int]] = set()

    def search(kept: list[int]) -> list[tuple[int, int]] | None:
        if low <= len(kept) <= high:
            return []
        if len(kept) < low or len(seen) > 20_000:
            return None
        keeps: dict[tuple[int, int], list[int]] = {}
        for i in kept:
            for cell, value in enumerate(found[i]):
                keeps.setdefault((cell, value), []).append(i)
        choices = [(given, rest) for given, rest in keeps.items() if low <= len(rest) < len(kept)]
        rng.shuffle(choices)
        for given, rest in choices:
            key = frozenset(rest)
            if key in seen:
                continue
            seen.add(key)
            more = search(rest)
            if more is not None:
                return [given, *more]
        return None

    return search(list(range(len(found))))


def broken(grid: Grid, solution: list[int], rng: random.Random) -> Grid | None:
    """`grid` (unique) with one blank given another value than its solution's, with no two givens in conflict: a
    puzzle with no solution; None when no blank takes one."""
    values = list(grid.values)
    blanks = [c for c, v in enumerate(values) if not v]
    rng.shuffle(blanks)
    for cell in blanks:
        for value in range(1, grid.side + 1):
            if value == solution[cell]:
                continue
            values[cell] = value
            trial = grid.with_values(values)
            if not trial.conflicts():
                return trial
            values[cell] = 0
    return None


if __name__ == "__main__":
    lines = ["# tests/counted_grids.py's puzzles: NAME TARGET PUZZLE (made by `python tests/counted_grids.py`)"]
    lines += [f"{name} {target} {made(name, target).text()}" for name in EMPTY for target in TARGETS]
    KEPT.write_text("\n".join(lines) + "\n")
    print(f"{len(lines) - 1} puzzles written to {KEPT}", file=sys.stderr)
