"""A solver of the Sudoku family as a program of its own (Python's standard library alone), speaking the solver
protocol with f-puzzles input (docs/reference/protocol.md, docs/guides/own-solver.md):

    python compare.py jigsaws.jsonl --solver mine --solver cpsat \
        --command "mine:input=fpuzzles=python3 examples/python/fpuzzles_solver.py"

Each line on standard input is one puzzle as f-puzzles JSON: `size`, `grid` (rows of cells with `value`,
`given`, `region`), the houses `diagonal+`, `diagonal-`, `extraregion`, `disjointgroups`, and Killer cages,
`killercage` (`cells`, and `value`, the total as a string, absent for a cage without one). Each answer is one
line: the solution's symbols row by row (1-9, then A-P), or `unsat`, or `unknown` (a puzzle it cannot read),
then its counters: nodes (values placed), guesses (placed while the cell had another value left) and
backtracks (placements undone). Its time is measured from outside, by compare.py.

The search: of the empty cells, the first (row by row) with one value left or none, else the first with the
fewest; its values ascending. A cell's values are those no house or cage of it holds yet and that leave each
of its cages with a total a sum it can still reach: the values left to its other empty cells, all different,
can make up what the total still wants.
"""
import json
import re
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)


def box_shape(size):
    """f-puzzles' default boxes: the tallest shape no taller than wide (6x6: 2 rows by 3 columns); None when
    the side has none (a prime side: its regions must be given)."""
    height = max(h for h in range(1, size + 1) if size % h == 0 and h * h <= size)
    return None if height == 1 else (height, size // height)


def houses_of(puzzle):
    """The puzzle's givens (row-major, 0 for a blank) and its houses (lists of cells): rows, columns, regions,
    then the diagonals, extra regions and disjoint groups it has."""
    n = puzzle["size"]
    rows = puzzle["grid"]
    givens = [cell.get("value", 0) if cell.get("given") else 0 for row in rows for cell in row]
    shape = box_shape(n)
    regions = {}
    for i, cell in enumerate(c for row in rows for c in row):
        if "region" in cell:
            region = cell["region"]
        elif shape is not None:
            r, c = divmod(i, n)
            region = (r // shape[0]) * (n // shape[1]) + c // shape[1]
        else:
            raise ValueError(f"a {n}x{n} grid has no boxes: every cell needs its region")
        regions.setdefault(region, []).append(i)
    houses = [[r * n + c for c in range(n)] for r in range(n)]
    houses += [[r * n + c for r in range(n)] for c in range(n)]
    houses += list(regions.values())
    if puzzle.get("diagonal+"):
        houses.append([(n - 1 - k) * n + k for k in range(n)])
    if puzzle.get("diagonal-"):
        houses.append([k * n + k for k in range(n)])
    for extra in puzzle.get("extraregion") or []:
        houses.append([(int(r) - 1) * n + int(c) - 1 for r, c in (CELL.fullmatch(name).groups()
                                                                  for name in extra["cells"])])
    cages = []  # (cells, total or None): a cage's cells hold different values, which sum to its total
    for cage in puzzle.get("killercage") or []:
        cells = [(int(r) - 1) * n + int(c) - 1 for r, c in (CELL.fullmatch(name).groups() for name in cage["cells"])]
        value = str(cage.get("value", "")).strip()
        cages.append((cells, int(value) if value else None))
    if puzzle.get("disjointgroups"):
        if shape is None:
            raise ValueError("disjoint groups need boxes")
        height, width = shape
        groups = {}
        for i in range(n * n):
            r, c = divmod(i, n)
            groups.setdefault((r % height, c % width), []).append(i)
        houses += list(groups.values())
    return n, givens, houses, cages


class Search:
    def __init__(self, n, givens, houses, cages=()):
        self.n, self.values = n, list(givens)
        # a cage holds no value twice, as a house: its cells are one more set of cells to keep apart
        houses = [*houses, *(cells for cells, _ in cages)]
        self.houses_of = [[] for _ in range(n * n)]
        for h, cells in enumerate(houses):
            for cell in cells:
                self.houses_of[cell].append(h)
        self.used = [0] * len(houses)  # bit v-1: value v is in the house
        self.sums = [(cells, total) for cells, total in cages if total is not None]
        self.sums_of = [[] for _ in range(n * n)]  # the cages with a total each cell is in
        for cells, total in self.sums:
            for cell in cells:
                self.sums_of[cell].append((cells, total))
        self.nodes = self.guesses = self.backtracks = 0
        self.consistent = all(self.place(cell, v) for cell, v in enumerate(givens) if v) and all(
            self.reachable(cells, total) for cells, total in self.sums)

    def place(self, cell, value):
        bit = 1 << (value - 1)
        if any(self.used[h] & bit for h in self.houses_of[cell]):
            return False
        for h in self.houses_of[cell]:
            self.used[h] |= bit
        self.values[cell] = value
        return True

    def undo(self, cell, value):
        for h in self.houses_of[cell]:
            self.used[h] &= ~(1 << (value - 1))
        self.values[cell] = 0

    def free(self, cell):
        taken = 0
        for h in self.houses_of[cell]:
            taken |= self.used[h]
        free = ~taken & ((1 << self.n) - 1)
        for cells, total in self.sums_of[cell]:  # a Killer's: the values that leave the cage's total reachable
            free &= self.fitting(cells, total, free)
        return free

    def fitting(self, cells, total, values):
        """Of the values (a mask), those that, placed in one empty cell of the cage, leave its total a sum the
        values left can still make: as many different ones as it has empty cells after, none it holds."""
        held = [self.values[c] for c in cells if self.values[c]]
        left = len(cells) - len(held) - 1  # the empty cells after this one
        fits = 0
        for v in range(1, self.n + 1):
            if values >> (v - 1) & 1:
                others = [u for u in range(1, self.n + 1) if u != v and u not in held]
                want = total - sum(held) - v
                if left <= len(others) and sum(others[:left]) <= want <= sum(others[len(others) - left:]):
                    fits |= 1 << (v - 1)
        return fits

    def reachable(self, cells, total):
        """Whether the cage's values so far leave its total reachable (a full cage: whether they sum to it)."""
        held = [self.values[c] for c in cells if self.values[c]]
        if len(held) == len(cells):
            return sum(held) == total
        return self.fitting(cells, total, (1 << self.n) - 1) != 0

    def solve(self):
        """Depth first, on a stack of its own (a 25x25 grid is hundreds of choices deep)."""
        stack = []  # (cell, the values left to try)
        while True:
            best, best_free = -1, 0
            for cell, v in enumerate(self.values):
                if not v:
                    free = self.free(cell)
                    if best < 0 or free.bit_count() < best_free.bit_count():
                        best, best_free = cell, free
                        if free.bit_count() <= 1:  # none better: one value left (forced), or none (a dead end)
                            break
            if best < 0:
                return True
            stack.append((best, best_free))
            while stack:
                cell, left = stack.pop()
                if self.values[cell]:  # back here: its value led nowhere
                    self.undo(cell, self.values[cell])
                    self.backtracks += 1
                if left:
                    low = left & -left
                    self.nodes += 1
                    self.guesses += left != low
                    self.place(cell, low.bit_length())
                    stack.append((cell, left & ~low))
                    break
            else:
                return False


def answer(line):
    try:
        n, givens, houses, cages = houses_of(json.loads(line))
    except (ValueError, KeyError, TypeError, AttributeError):  # not a puzzle this program reads
        return "unknown"
    search = Search(n, givens, houses, cages)
    solved = search.consistent and search.solve()
    found = "".join(SYMBOLS[v - 1] for v in search.values) if solved else "unsat"
    return f"{found} nodes={search.nodes} guesses={search.guesses} backtracks={search.backtracks}"


def main():
    for line in sys.stdin:
        if line.strip():
            print(answer(line), flush=True)  # the answer must leave now: compare.py is waiting for it


if __name__ == "__main__":
    main()
