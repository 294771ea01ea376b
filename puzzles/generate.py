"""Unique-solution puzzles of any size, made without a search.

A full grid is drawn as a random isomorph of a pattern solution; then givens
are taken away, in random order, as long as naked and hidden singles alone
still fill the grid. A puzzle that singles solve has exactly one solution
(every placement was forced), so uniqueness needs no solution count. Such
puzzles are easy for propagation; they are the project's own sizes-and-formats
material, not its hard benchmark (that is the public collections, docs/reference/data.md). With rule "naked",
naked singles alone must suffice: MRV then never backtracks.

    python -m puzzles.generate --box 4 --count 3 --seed 1 [--rule naked]

With --minimal, puzzles are minimal instead; with --hard-for, made hard for a method (comparison/made.py).
"""
from __future__ import annotations

import argparse
import importlib
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
    parser = argparse.ArgumentParser(
        prog="python -m puzzles.generate", description=__doc__.split("\n")[0],
        epilog="Exit status: 0 done; 2 a usage error; 130 or 143 interrupted by Ctrl-C or SIGTERM (what was made "
        "so far is written).")
    parser.add_argument("--box", type=int, default=3, choices=(2, 3, 4, 5), help="box size (3 = 9x9)")
    parser.add_argument("--count", type=int, default=None, help="how many puzzles (default 1; with --hard-for, "
                        "the whole pool)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed makes the same puzzles")
    parser.add_argument("--keep", type=int, default=0, help="keep at least this many givens")
    parser.add_argument("--rule", choices=sorted(RULES), default="singles",
                        help="what must solve the puzzle alone: naked and hidden singles, or naked singles only")
    parser.add_argument("--minimal", action="store_true",
                        help="unique and minimal puzzles (removing any clue leaves more than one solution), "
                        "certified by SAT")
    parser.add_argument("--output", metavar="FILE", help="write the puzzles to FILE (CSV with clue count and effort "
                        "columns when it ends in .csv; else the line format); default standard output")
    made = parser.add_argument_group("puzzles made hard for a method (comparison/hard_search.py)")
    made.add_argument("--hard-for", metavar="SPEC", help="a compare.py method spec: puzzles that take it the most "
                      "effort, by its own counter (guesses, nodes, conflicts, branches)")
    made.add_argument("--easy-for", metavar="SPEC", help="with --hard-for: the score is the ratio of the two "
                      "methods' efforts (puzzles that split them)")
    made.add_argument("--minutes", type=float, default=1.0, help="how long the search runs (default 1)")
    made.add_argument("--isomorphs", type=int, default=8, metavar="K",
                      help="a puzzle's effort is the geometric mean over K random isomorphs (default 8)")
    made.add_argument("--solutions", type=int, choices=(1, 2), default=1,
                      help="2: score the effort to prove each isomorph's solution unique (the whole search tree), "
                      "which depends less on the luck of the value order than the effort to the first solution; "
                      "for complete searches")
    made.add_argument("--pool", type=int, default=12, help="the pool of best puzzles kept (default 12)")
    made.add_argument("--start", action="append", metavar="FILE", help="score the unique puzzles of FILE first, "
                      "and let the best of them into the pool (tdoku's generator loads its pool so); in the "
                      "output such a puzzle is named where it was read")
    made.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: the cores)")
    made.add_argument("--timeout", type=float, default=10.0, help="budget per run, seconds (default 10)")
    made.add_argument("--command", action="append", metavar="NAME=PROGRAM",
                      help="a method NAME that runs a program speaking the solver protocol, as compare.py's")
    made.add_argument("--registry", action="append", metavar="MODULE", help="also the methods of MODULE.SOLVERS")
    args = parser.parse_args(argv)
    if args.hard_for or args.minimal:
        # These need SAT (formulations) and compare.py's machinery (comparison), which sit above this package:
        # handed over by name at run time, so that puzzles itself imports neither (tests/test_layout.py).
        return int(importlib.import_module("comparison.made").made_to_order(args))
    if args.easy_for:
        parser.error("--easy-for needs --hard-for")
    rng = random.Random(args.seed)
    lines = []
    for i in range(args.count or 1):
        puzzle, _ = generate(args.box, rng, args.keep, args.rule)
        lines.append(format_line(puzzle, f"generated-{puzzle.side}x{puzzle.side}-seed{args.seed}-{i + 1}"))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
