"""Unique-solution puzzles of any size, made without a search.

A full grid is drawn as a random isomorph of a pattern solution; then givens
are taken away, in random order, as long as naked and hidden singles alone
still fill the grid. A puzzle that singles solve has exactly one solution
(every placement was forced), so uniqueness needs no solution count. Such
puzzles are easy for propagation; they are the project's own sizes-and-formats
material, not its hard benchmark (that is the public collections, docs/reference/data.md). With rule "naked",
naked singles alone must suffice: MRV then never backtracks.

    python -m puzzles.generate --box 4 --count 3 --seed 1 [--rule naked]
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


def naked_solve(grid: Grid) -> bool:
    """Whether naked singles alone (a cell with one candidate) fill the whole grid.

    Such a puzzle is solved by MRV without a single backtrack, propagation or not.
    """
    board = Candidates(grid)
    empties = board.empty_cells()
    while empties:
        cell, mask = board.fewest(empties)
        if mask.bit_count() != 1:
            return False
        board.place(cell, mask.bit_length())
        empties.remove(cell)
    return True


RULES = {"singles": singles_solve, "naked": naked_solve}


def generate(box: int, rng: random.Random, keep: int = 0, rule: str = "singles") -> tuple[Grid, Grid]:
    """A (puzzle, solution) pair that `rule` solves alone; at least `keep` givens stay.

    rule "singles": naked and hidden singles; "naked": naked singles only (easier).
    """
    solvable = RULES[rule]
    solution = random_isomorph(pattern_solution(box), rng)
    values = bytearray(solution.values)
    cells = list(range(len(values)))
    rng.shuffle(cells)
    givens = len(values)
    for cell in cells:
        if givens <= keep:
            break
        value, values[cell] = values[cell], 0
        if solvable(Grid(box, bytes(values))):
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
    parser.add_argument("--rule", choices=sorted(RULES), default="singles",
                        help="what must solve the puzzle alone: naked and hidden singles, or naked singles only")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for i in range(args.count):
        puzzle, _ = generate(args.box, rng, args.keep, args.rule)
        print(format_line(puzzle, f"generated-{puzzle.side}x{puzzle.side}-seed{args.seed}-{i + 1}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
