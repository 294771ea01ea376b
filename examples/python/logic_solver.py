"""A logic solver that writes its every step, as a human-style solver would (Python's standard library alone):
the program `sudoku-check --steps` replays and checks (docs/reference/steps.md, docs/guides/check-logic.md).

    sudoku-check puzzles/seeds.txt --steps 'python3 examples/python/logic_solver.py'

It reads one classic puzzle (4x4, 9x9, 16x16 or 25x25 in square boxes) as one line on standard input, `.` for a
blank, and writes its deductions, one a line, then its final grid (blanks where it got stuck), or `unsat` when a
cell or a house has no place left for a value. Its techniques, the first that applies each time:

- naked single: a cell with one candidate left;
- hidden single: a value with one cell left in a house;
- locked candidates: a value that, in a box, lies on one row or column only is removed from the rest of that
  line (pointing); one that, in a line, lies in one box only is removed from the rest of that box (claiming);
- naked pair: two cells of a house with the same two candidates, which leave the house's other cells.

A placement's consequences by the rules alone (its value taken from the cell's row, column and box) are made
without a line. `--bug pair` plants the bug of a naked pair whose test is the two cells' common candidates (two
cells that share two candidates, whatever else they hold) instead of their candidates together: it removes
candidates that are true on puzzles where such two cells exist.
"""
import argparse
import math
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


class Unsolvable(Exception):
    """A cell, or a value in a house, has no place left: the puzzle has no solution."""


class Solver:
    def __init__(self, line, bug=None):
        self.n = n = math.isqrt(len(line))
        box = math.isqrt(n)
        if n * n != len(line) or box * box != n:
            raise ValueError(f"{len(line)} symbols: a classic puzzle has 16, 81, 256 or 625")
        self.bug = bug
        rows = [[r * n + c for c in range(n)] for r in range(n)]
        columns = [[r * n + c for r in range(n)] for c in range(n)]
        boxes = [[(br + i) * n + bc + j for i in range(box) for j in range(box)]
                 for br in range(0, n, box) for bc in range(0, n, box)]
        self.lines, self.boxes = rows + columns, boxes
        self.houses = rows + columns + boxes
        self.peers = [set() for _ in range(n * n)]
        for house in self.houses:
            for cell in house:
                self.peers[cell].update(c for c in house if c != cell)
        self.values = [0] * (n * n)
        self.candidates = [set(range(1, n + 1)) for _ in range(n * n)]
        self.steps = []
        for cell, ch in enumerate(line):
            if ch not in ".0_":
                value = SYMBOLS.index(ch.upper()) + 1
                if value > n or value not in self.candidates[cell]:
                    raise Unsolvable
                self.set(cell, value)

    def name(self, cell):
        return f"R{cell // self.n + 1}C{cell % self.n + 1}"

    def set(self, cell, value):
        """The value in the cell, and taken from its peers (the rules alone: no step of its own)."""
        self.values[cell] = value
        self.candidates[cell] = {value}
        for peer in self.peers[cell]:
            self.candidates[peer].discard(value)
            if not self.values[peer] and not self.candidates[peer]:
                raise Unsolvable

    def place(self, cell, value, technique):
        self.steps.append(f"place {self.name(cell)}={value} {technique}")
        self.set(cell, value)
        return True

    def remove(self, removals, technique):
        """removals: {cell: values}; one step for them all."""
        marks = " ".join(f"{self.name(c)}={','.join(map(str, sorted(vs)))}" for c, vs in sorted(removals.items()))
        self.steps.append(f"remove {marks} {technique}")
        for cell, values in removals.items():
            self.candidates[cell] -= values
            if not self.candidates[cell]:
                raise Unsolvable
        return True

    def naked_single(self):
        for cell, values in enumerate(self.candidates):
            if not self.values[cell] and len(values) == 1:
                return self.place(cell, next(iter(values)), "naked single")
        return False

    def hidden_single(self):
        for house in self.houses:
            for value in range(1, self.n + 1):
                places = [c for c in house if value in self.candidates[c]]
                if not places:
                    raise Unsolvable
                if len(places) == 1 and not self.values[places[0]]:
                    return self.place(places[0], value, "hidden single")
        return False

    def locked_candidates(self):
        for inside, across, technique in ((self.boxes, self.lines, "pointing"), (self.lines, self.boxes, "claiming")):
            for house in inside:
                for value in range(1, self.n + 1):
                    places = {c for c in house if not self.values[c] and value in self.candidates[c]}
                    if len(places) < 2:
                        continue
                    for other in across:
                        if places <= set(other):
                            removals = {c: {value} for c in other if c not in house and not self.values[c]
                                        and value in self.candidates[c]}
                            if removals:
                                return self.remove(removals, technique)
        return False

    def naked_pair(self):
        for house in self.houses:
            open_cells = [c for c in house if not self.values[c]]
            for i, a in enumerate(open_cells):
                for b in open_cells[i + 1:]:
                    if self.bug == "pair":  # the bug: the two cells' common candidates, not their candidates together
                        pair = self.candidates[a] & self.candidates[b]
                    else:
                        pair = self.candidates[a] | self.candidates[b]
                    if len(pair) != 2:
                        continue
                    removals = {c: self.candidates[c] & pair for c in open_cells
                                if c not in (a, b) and self.candidates[c] & pair}
                    if removals:
                        return self.remove(removals, "naked pair")
        return False

    def solve(self):
        """Deduce until no technique applies; the final grid's line."""
        techniques = (self.naked_single, self.hidden_single, self.locked_candidates, self.naked_pair)
        while any(technique() for technique in techniques):
            pass
        return "".join(SYMBOLS[v - 1] if v else "." for v in self.values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bug", choices=("pair",), help="plant the naked pair's bug")
    args = parser.parse_args()
    line = sys.stdin.readline().strip()
    if ";" in line:
        print(f"logic_solver.py: error: a puzzle of the Sudoku family ({line.partition(';')[2][:40]}): this solver "
              "knows classic Sudoku only", file=sys.stderr)
        return 2
    solver = None
    try:
        solver = Solver(line, args.bug)
        final = solver.solve()
    except Unsolvable:
        final = "unsat"
    except ValueError as exc:
        print(f"logic_solver.py: error: {exc}", file=sys.stderr)
        return 2
    for step in solver.steps if solver is not None else []:
        print(step)
    print(final)
    return 0


if __name__ == "__main__":
    sys.exit(main())
