"""A Killer Sudoku solver of your own, written with OR-Tools' CP-SAT the way its samples are (variables,
constraints, solve, read the answer back), as a program that speaks the solver protocol with f-puzzles input
(docs/reference/protocol.md, docs/guides/killer-lesson.md):

    python compare.py killers.txt --solver mine --solver cpsat \
        --command "mine:input=fpuzzles=python3 examples/python/killer_cpsat.py"

Each line on standard input is one puzzle as f-puzzles JSON: `size`, `grid` (rows of cells, a given one
`{"value": 5, "given": true}`) and `killercage` (`{"cells": ["R1C1", "R1C2"], "value": "3"}` each, `value` absent
for a cage without a total). Each answer is one line: the solution's symbols row by row, or `unsat`, or `unknown`
(a puzzle it does not read: Jigsaw regions, diagonals and other houses; it would solve another puzzle), then
CP-SAT's counters `branches=` and `conflicts=`.

`--bug boxes` and `--bug cages` plant the two bugs Killer models have shipped with: AllDifferent posted on only
4 of the 9 boxes (a `range(2)` where `range(3)` was meant: the boxes of rows 1-6 and columns 1-6), and no
AllDifferent inside the cages (sums alone). Each still gives the right answer on many puzzles: those whose cages
leave it no other (the lesson's page says which).
"""
import argparse
import json
import re
import sys

from ortools.sat.python import cp_model

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)
NOT_READ = ("diagonal+", "diagonal-", "extraregion", "disjointgroups")  # houses this solver has no rule for


def box_shape(size):
    """f-puzzles' default boxes: the tallest shape no taller than wide (9x9: 3 by 3; 6x6: 2 rows by 3 columns)."""
    height = max(h for h in range(1, size + 1) if size % h == 0 and h * h <= size)
    return height, size // height


def solve(puzzle, bug=None):
    """The puzzle's solution as a list of rows of values, None when it has none, "unknown" when CP-SAT stopped
    without an answer; and the solver (its counters)."""
    n = puzzle["size"]
    height, width = box_shape(n)
    model = cp_model.CpModel()

    # Variables: one integer 1..n a cell.
    x = [[model.new_int_var(1, n, f"R{r + 1}C{c + 1}") for c in range(n)] for r in range(n)]

    # The givens.
    for r, row in enumerate(puzzle["grid"]):
        for c, cell in enumerate(row):
            if cell.get("given"):
                model.add(x[r][c] == cell["value"])

    # Every row and every column holds different values.
    for i in range(n):
        model.add_all_different(x[i])
        model.add_all_different([x[r][i] for r in range(n)])

    # Every box holds different values. The planted bug: range(2) where range(3) was meant, so on a 9x9 grid only
    # the boxes of the first two bands and stacks (4 of the 9) get the constraint.
    bands = range(2) if bug == "boxes" else range(n // height)
    stacks = range(2) if bug == "boxes" else range(n // width)
    for band in bands:
        for stack in stacks:
            model.add_all_different([x[band * height + r][stack * width + c]
                                     for r in range(height) for c in range(width)])

    # Every cage holds different values that sum to its total. The planted bug: the sums alone.
    for cage in puzzle.get("killercage", []):
        cells = [x[int(r) - 1][int(c) - 1] for r, c in (CELL.fullmatch(name).groups() for name in cage["cells"])]
        if cage.get("value") not in (None, ""):
            model.add(sum(cells) == int(cage["value"]))
        if bug != "cages":
            model.add_all_different(cells)

    # Solve: one search thread, so each answer is the same from run to run (and compare.py's workers, each with a
    # program of its own, do not fight over the cores).
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)

    # Read the answer back.
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [[solver.value(x[r][c]) for c in range(n)] for r in range(n)], solver
    if status == cp_model.INFEASIBLE:
        return None, solver
    return "unknown", solver


def answer(line, bug=None):
    """One puzzle's answer line, as the protocol has it."""
    try:
        puzzle = json.loads(line)
        if any(puzzle.get(house) for house in NOT_READ) or any("region" in cell for row in puzzle["grid"]
                                                                  for cell in row):
            return "unknown"
        found, solver = solve(puzzle, bug)
    except (ValueError, KeyError, TypeError, AttributeError):  # not a puzzle this program reads
        return "unknown"
    if found == "unknown":
        return "unknown"
    text = "unsat" if found is None else "".join(SYMBOLS[v - 1] for row in found for v in row)
    return f"{text} branches={solver.num_branches} conflicts={solver.num_conflicts}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bug", choices=("boxes", "cages"), help="plant a historical bug in the model")
    bug = parser.parse_args().bug
    for line in sys.stdin:
        if line.strip():
            print(answer(line, bug), flush=True)  # the answer must leave now: compare.py is waiting for it


if __name__ == "__main__":
    main()
