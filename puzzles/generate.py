"""Unique-solution puzzles of any size, made without a search.

A full grid is drawn as a random isomorph of a pattern solution; then givens
are taken away, in random order, as long as naked and hidden singles alone
still fill the grid. A puzzle that singles solve has exactly one solution
(every placement was forced), so uniqueness needs no solution count. Such
puzzles are easy for propagation; they are the project's own sizes-and-formats
material, not its hard benchmark (that is ../shared/data).

    python -m puzzles.generate --box 4 --count 3 --seed 1
"""
from __future__ import annotations

import argparse
import random

from .candidates import Candidates
from .formats import format_line
from .grid import Grid
from .isomorph import random_isomorph


def pattern_solution(box: int) -> Grid:
    """A valid full grid: row r is the base row shifted by box*(r % box) + r // box."""
    n = box * box
    return Grid(box, bytes((box * (r % box) + r // box + c) % n + 1 for r in range(n) for c in range(n)))


def singles_solve(grid: Grid) -> bool:
    """Whether naked and hidden singles alone fill the whole grid."""
    board = Candidates(grid)
    return board.singles([]) and all(board.values)


def generate(box: int, rng: random.Random, keep: int = 0) -> tuple[Grid, Grid]:
    """A (puzzle, solution) pair; at least `keep` givens stay."""
    solution = random_isomorph(pattern_solution(box), rng)
    values = bytearray(solution.values)
    cells = list(range(len(values)))
    rng.shuffle(cells)
    givens = len(values)
    for cell in cells:
        if givens <= keep:
            break
        value, values[cell] = values[cell], 0
        if singles_solve(Grid(box, bytes(values))):
            givens -= 1
        else:
            values[cell] = value
    return Grid(box, bytes(values)), solution


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.generate", description=__doc__.split("\n")[0])
    parser.add_argument("--box", type=int, default=3, choices=(2, 3, 4, 5), help="box size (3 = 9x9)")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=int, default=0, help="keep at least this many givens")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for i in range(args.count):
        puzzle, _ = generate(args.box, rng, args.keep)
        print(format_line(puzzle, f"generated-{puzzle.side}x{puzzle.side}-seed{args.seed}-{i + 1}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
