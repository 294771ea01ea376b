"""Every kind of puzzle the project makes, in one registry: `KINDS[name].make(layout, rng)` is a puzzle of that
kind on that layout (classic Sudoku's or a variant's: making/variants.py draws them).

The generator (`sudoku-generate`) and the fuzzer (`compare.py --fuzz`) draw from it; the hard search starts
from its minimal puzzles and moves on with making/moves.py. Each kind says what it is and up to which side it
is made: certifying a 25x25 minimal puzzle takes minutes.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from puzzles.candidates import Candidates
from puzzles.grid import Grid, Layout

from .certify import SolutionCertifier, solutions
from .minimal import completed, givens_of, minimise, puzzle_of
from .moves import move
from .singles import generate
from .solutions import random_solution

MINIMAL_UP_TO = 16  # sides whose minimal (and hard) puzzles are made: 25x25 ones take minutes each


@dataclass(frozen=True)
class MinimalPuzzle:
    """A minimal puzzle made from a random full grid, and what certifying it took."""

    puzzle: Grid
    solution: Grid
    checks: int  # SAT solves
    forced: int  # uniqueness settled by singles alone


def minimal_puzzle(lay: Layout, rng: random.Random) -> MinimalPuzzle:
    """A random full grid with its clues taken away in random order while it stays the only solution: a unique
    and minimal puzzle (making/minimal.py says why one pass suffices)."""
    solution = random_solution(lay, rng)
    with SolutionCertifier(solution) as certifier:
        cells = minimise(range(len(solution.values)), certifier.unique, rng)
    return MinimalPuzzle(puzzle_of(solution, cells), solution, certifier.checks, certifier.forced)


def unique_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A random full grid's clues, a quarter to three quarters of them, completed to a unique puzzle."""
    solution = random_solution(lay, rng)
    cells = list(range(len(solution.values)))
    rng.shuffle(cells)
    kept = cells[:rng.randint(len(cells) // 4, len(cells) * 3 // 4)]
    with SolutionCertifier(solution) as certifier:
        return puzzle_of(solution, completed(kept, solution, certifier.unique, rng))


def base_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A unique puzzle with few clues: minimal where that is quick, else a unique one."""
    return minimal_puzzle(lay, rng).puzzle if lay.side <= MINIMAL_UP_TO else unique_puzzle(lay, rng)


def several_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A unique puzzle less one to three clues, with two solutions or more (certified)."""
    while True:
        puzzle = base_puzzle(lay, rng)
        cells = givens_of(puzzle)
        dropped = set(rng.sample(cells, rng.randint(1, 3)))
        fewer = puzzle.with_values(bytes(0 if c in dropped else v for c, v in enumerate(puzzle.values)))
        if len(solutions(fewer, 2)) == 2:
            return fewer


def unsat_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """One clue of a unique puzzle changed to a value that no given of its units holds, and no solution left."""
    while True:
        puzzle = base_puzzle(lay, rng)
        cells = givens_of(puzzle)
        for cell in rng.sample(cells, len(cells)):
            values = bytearray(puzzle.values)
            values[cell] = 0
            board = Candidates(puzzle.with_values(bytes(values)))
            others = [v for v in range(1, puzzle.side + 1) if v != puzzle.values[cell] and board.allows(cell, v)]
            if not others:
                continue
            values[cell] = rng.choice(others)
            changed = puzzle.with_values(bytes(values))
            if not solutions(changed, 1):
                return changed


def near_empty_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """At most n clues of a random full grid."""
    solution = random_solution(lay, rng)
    n = solution.side
    return puzzle_of(solution, rng.sample(range(n * n), rng.randint(0, n)))


def nearly_full_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A random full grid less 1 to n cells."""
    solution = random_solution(lay, rng)
    n = solution.side
    blanks = set(rng.sample(range(n * n), rng.randint(1, n)))
    return puzzle_of(solution, [c for c in range(n * n) if c not in blanks])


def open_after_singles(puzzle: Grid) -> int:
    """The cells naked and hidden singles leave empty."""
    board = Candidates(puzzle)
    board.singles([])
    return board.values.count(0)


def hard_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """The hard search's moves from a minimal puzzle: of three, the one that naked and hidden singles leave most
    open."""
    made = minimal_puzzle(lay, rng)
    puzzle, solution = made.puzzle, made.solution
    tries = [puzzle]
    for _ in range(2):
        puzzle, solution = move(puzzle, solution, rng)
        tries.append(puzzle)
    return max(tries, key=open_after_singles)


@dataclass(frozen=True)
class Kind:
    """A kind of puzzle: how one is made on a layout, what it is, and up to which side it is made."""

    name: str
    make: Callable[[Layout, random.Random], Grid]
    summary: str
    largest_side: int = 25


KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("singles", lambda lay, rng: generate(lay, rng)[0], "unique: naked and hidden singles fill it alone"),
    Kind("naked", lambda lay, rng: generate(lay, rng, rule="naked")[0],
         "unique: naked singles fill it alone (MRV never backtracks)"),
    Kind("unique", unique_puzzle, "unique: a random grid's clues completed until SAT certifies it unique"),
    Kind("several", several_puzzle, "two solutions or more: a minimal puzzle less one to three clues"),
    Kind("unsat", unsat_puzzle, "no solution: one clue of a minimal puzzle changed (certified)"),
    Kind("near-empty", near_empty_puzzle, "at most n clues of a random full grid"),
    Kind("nearly-full", nearly_full_puzzle, "a random full grid less 1 to n cells"),
    Kind("minimal", lambda lay, rng: minimal_puzzle(lay, rng).puzzle,
         "unique and minimal: every clue needed (certified by SAT)", MINIMAL_UP_TO),
    Kind("hard", hard_puzzle, "the hard search's moves from a minimal puzzle, the one singles leave most open",
         MINIMAL_UP_TO),
)}
