"""A move of the hard search (tdoku's generator's): from a unique minimal puzzle to a nearby one."""
from __future__ import annotations

import random

from puzzles.grid import Grid

from .certify import SolutionCertifier
from .minimal import completed, givens_of, minimise, puzzle_of


def move(puzzle: Grid, solution: Grid, rng: random.Random, drop: int = 3) -> tuple[Grid, Grid]:
    """Drop 1..`drop` clues, re-complete to a unique puzzle (of another solution, when one appeared), minimise:
    the new puzzle and its solution."""
    cells = givens_of(puzzle)
    dropped = set(rng.sample(cells, min(len(cells), rng.randint(1, drop))))
    kept = [c for c in cells if c not in dropped]
    with SolutionCertifier(solution) as certifier:
        other = certifier.other(kept)
    target = other if other is not None else solution
    with SolutionCertifier(target) as certifier:
        whole = completed(kept, target, certifier.unique, rng)
        cells = minimise(whole, certifier.unique, rng)
    return puzzle_of(target, cells), target
