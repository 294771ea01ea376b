"""Grids of the Sudoku family for the tests of the rules, the searches and the formulations on variants, and a
brute force that knows nothing of the project's engines.

The houses are read from the layout's own fields (each row, column and region, and the extra houses as listed),
not from the project's geometry, and the brute force is plain depth-first search over them: what it finds is
what "valid in the puzzle's houses" means, whatever the code under test does.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from typing import NamedTuple

from puzzles import Grid
from puzzles.layouts import SYMBOLS, Layout, boxes, layout, named


def regions_of(text: str) -> tuple[int, ...]:
    """A region map written one symbol a cell, as the line form's `r=` (1 is region 0)."""
    return tuple(SYMBOLS.index(ch) for ch in text)


# A 6x6 Jigsaw (puzzles/family.txt's), a 9x9 one, one whose regions admit no solution at all, and two 4x4 whose
# regions are rows or columns: a region that is also a line (a house twice), the SAT encodings' corner case.
JIGSAW_6 = regions_of("111222113322143332444536455566455666")
JIGSAW_9 = regions_of("111112333112222333112225333442555666445555666744445666778848889777888999777899999")
JIGSAW_9_UNSAT = regions_of("111133333122113333112222226444555266444556666474555566774899999778888999777788889")
COLUMNS_4 = tuple(c for _ in range(4) for c in range(4))
TWO_ROWS_4 = regions_of("1111222233443344")  # rows 1 and 2 are regions; then two squares

LAYOUTS: dict[str, Layout] = {
    "x-4": named("x", 4),
    "boxes-6": boxes(6),
    "jigsaw-6": layout(6, JIGSAW_6),
    "x-6": named("x", 6),
    "disjoint-6": named("disjoint", 6),
    "columns-4": layout(4, COLUMNS_4),
    "two-rows-4": layout(4, TWO_ROWS_4),
    "boxes-8": boxes(8),
    "x-9": named("x", 9),
    "windoku-9": named("windoku", 9),
    "disjoint-9": named("disjoint", 9),
    "jigsaw-9": layout(9, JIGSAW_9),
    "jigsaw+x-9": named("jigsaw+x", 9, JIGSAW_9),
    "x+windoku-9": named("x+windoku", 9),
    "diagonal--6": named("diagonal-", 6),
}
SMALL = [name for name, lay in LAYOUTS.items() if lay.side <= 6]  # small enough to enumerate every solution


class Family(NamedTuple):
    """Puzzles of the layout of the same name, their symbols: one with one solution (each given needed), that
    solution, the same less a given (several solutions), and one given changed to clash with no other (no
    solution), where such a change exists. Made by the brute force below (`unique_puzzle`; the 9x9 ones through
    CP-SAT, then checked by the brute force), which the slow test of test_variants_solve.py runs again. Jigsaw+X's
    and X+Windoku's are, of six such minimal puzzles each drawn (givens taken away in random order while CP-SAT
    still finds one solution), the ones the searches and the MIP settle soonest: every test on them asks the same
    of every method, and the hardest of the six cost the suite half a minute more."""

    unique: str
    solution: str
    several: str
    unsat: str | None


def grid(name: str, symbols: str) -> Grid:
    """A puzzle of the layout `name` (in LAYOUTS) from its symbols."""
    return Grid(LAYOUTS[name], Grid.parse(symbols).values)


PUZZLES: dict[str, Family] = {
    "x-4": Family("........2...1..3",
        "4132324123141423",
        "............1..3",
        None),
    "boxes-6": Family("..5.2...2....1.2.....1.34...6...1...",
        "135624642315314256256143423561561432",
        "....2...2....1.2.....1.34...6...1...",
        "..3.2...2....1.2.....1.34...6...1..."),
    "jigsaw-6": Family(".3..2.6.2..............5.5..1....3..",
        "135624642153264531321465453216516342",
        "....2.6.2..............5.5..1....3..",
        ".3..5.6.2..............5.5..1....3.."),
    "x-6": Family("............4............6.45.2....3",
        "135624642315426531513246361452254163",
        ".........................6.45.2....3",
        "............3............6.45.2....3"),
    "disjoint-6": Family("...6.....3.5..1..24....35......6....",
        "135624642315351462426153513246264531",
        ".........3.5..1..24....35......6....",
        "...6.....2.5..1..24....35......6...."),
    "columns-4": Family("......143....2.3",
        "4132231434211243",
        ".......43....2.3",
        "......141....2.3"),
    "two-rows-4": Family("......14.....2.3",
        "4132231434211243",
        ".......4.....2.3",
        None),
    "boxes-8": Family(".1.6.5..3.7..26...5...4....71...6..18.2..8...1...........7.....2",
        "2146357835784261165328474287165364318725782561345312748687645312",
        "...6.5..3.7..26...5...4....71...6..18.2..8...1...........7.....2",
        ".1.8.5..3.7..26...5...4....71...6..18.2..8...1...........7.....2"),
    "x-9": Family("....329...7....4....9....2...4........62..7..1.............3...8....7..49......1.",
        "415632987273895461689741523724358196356219748198476235542163879831927654967584312",
        ".....29...7....4....9....2...4........62..7..1.............3...8....7..49......1.",
        "....129...7....4....9....2...4........62..7..1.............3...8....7..49......1."),
    "windoku-9": Family("5..2.64........7.6......8.....7.1...8.3........9...1.2..86..2......87............",
        "587296413194853726236174859452731968813962574679548132348615297921387645765429381",
        "...2.64........7.6......8.....7.1...8.3........9...1.2..86..2......87............",
        "1..2.64........7.6......8.....7.1...8.3........9...1.2..86..2......87............"),
    "disjoint-9": Family("...1.2....62.5............53.47............8.9...8.14......5..6...9....47........",
        "538192467162457398479368215384721659621549783957683142843215976215976834796834521",
        ".....2....62.5............53.47............8.9...8.14......5..6...9....47........",
        "...6.2....62.5............53.47............8.9...8.14......5..6...9....47........"),
    "jigsaw-9": Family("....63..2..5..98..5....7.9.82........................9..3.........8.1..3.6...54..",
        "489163572275419836536287194827934615691528347714356289143672958952841763368795421",
        ".....3..2..5..98..5....7.9.82........................9..3.........8.1..3.6...54..",
        "....93..2..5..98..5....7.9.82........................9..3.........8.1..3.6...54.."),
    "jigsaw+x-9": Family("........6.......2........5....7...........1....5............2........3.7..64...8.",
        "853924716641537829719268453928741635432659178165873942587316294294185367376492581",
        "................2........5....7...........1....5............2........3.7..64...8.",
        "........3.......2........5....7...........1....5............2........3.7..64...8."),
    "x+windoku-9": Family(".....51.....2....9.........7..........9......5...9.8.6.......53..7...............",
        "942835167871264539356917284784326915619758342523491876268179453497583621135642798",
        "......1.....2....9.........7..........9......5...9.8.6.......53..7...............",
        ".....31.....2....9.........7..........9......5...9.8.6.......53..7..............."),
    "diagonal--6": Family(".3..2.......5....3.......6.4..4.....",
        "135624642351516243324516261435453162",
        "....2.......5....3.......6.4..4.....",
        ".3..4.......5....3.......6.4..4....."),
}


def houses(lay: Layout) -> list[tuple[int, ...]]:
    """Every house of a layout from its fields: rows, columns, regions, then the extra houses."""
    n = lay.side
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    columns = [tuple(r * n + c for r in range(n)) for c in range(n)]
    regions = [tuple(cell for cell in range(n * n) if lay.regions[cell] == k) for k in range(n)]
    return rows + columns + regions + [h.cells for h in lay.extras]


def peers(lay: Layout) -> list[set[int]]:
    seen: list[set[int]] = [set() for _ in range(lay.side ** 2)]
    for house in houses(lay):
        for cell in house:
            seen[cell].update(house)
    for cell, cells in enumerate(seen):
        cells.discard(cell)
    return seen


@cache
def _near(lay: Layout) -> tuple[tuple[int, ...], ...]:
    """`peers` once a layout, as tuples: the brute force asks a cell's peers at every placement."""
    return tuple(tuple(cells) for cells in peers(lay))


@cache
def _values(mask: int, side: int) -> tuple[int, ...]:
    """The values in a mask (value v as bit v-1), rising: once a mask, as the brute force asks at each cell."""
    return tuple(v for v in range(1, side + 1) if mask >> (v - 1) & 1)


def valid_solution(lay: Layout, values: Sequence[int]) -> bool:
    """Every cell filled, every house holding every value once: checked cell by cell, house by house."""
    n = lay.side
    return all(1 <= v <= n for v in values) and all(sorted(values[c] for c in h) == list(range(1, n + 1))
                                                    for h in houses(lay))


def completions(lay: Layout, masks: Sequence[int], limit: int = 10**6,
                rng: random.Random | None = None) -> Iterator[list[int]]:
    """Every filling of the cells (a mask per cell: the values it may take, value v as bit v-1) that puts
    different values in the cells of each house; up to `limit`. With `rng`, the values are tried in a random
    order (a random solution first). Depth first, the cell with fewest values left next."""
    near = _near(lay)
    values = [0] * len(masks)
    left = list(masks)  # the values each cell may still take; none once it is filled (no placement touches it)
    # how many values each cell has left (`left[c].bit_count()`), kept alongside `left` as bytes: the first cell
    # with fewest is then a `find` for 0, else 1 ... (a C scan, where `min` over the cells was most of the
    # time); a filled cell counts as more than any cell started with
    size = bytearray(mask.bit_count() for mask in masks)
    filled = max(size, default=0) + 1
    found = 0

    def fill() -> Iterator[list[int]]:
        nonlocal found
        for fewest in range(filled + 1):  # the first open cell with fewest values left: 0, else 1 ...
            cell = size.find(fewest)
            if cell >= 0:
                break
        if fewest == filled:  # every cell filled
            found += 1
            yield list(values)
            return
        mask = left[cell]
        choices = list(_values(mask, lay.side))
        if rng is not None:
            rng.shuffle(choices)
        for v in choices:
            bit = 1 << (v - 1)
            touched = [p for p in near[cell] if left[p] & bit]
            if bit in [left[p] for p in touched]:  # a peer with this value only would have none left
                continue
            values[cell], left[cell], size[cell] = v, 0, filled
            for p in touched:
                left[p] &= ~bit
                size[p] -= 1
            yield from fill()
            for p in touched:
                left[p] |= bit
                size[p] += 1
            values[cell], left[cell], size[cell] = 0, mask, fewest
            if found >= limit:
                return

    yield from fill()


def solutions(grid: Grid, limit: int = 10**6) -> list[list[int]]:
    """Every solution of a puzzle (up to `limit`), by the brute force."""
    full = (1 << grid.side) - 1
    near = _near(grid.layout)
    if any(v and grid.values[p] == v for c, v in enumerate(grid.values) for p in near[c]):
        return []
    return list(completions(grid.layout, [1 << (v - 1) if v else full for v in grid.values], limit))


def random_solution(lay: Layout, rng: random.Random) -> Grid:
    """A solution of the empty grid, drawn by the brute force with the values in random order."""
    full = (1 << lay.side) - 1
    found = next(completions(lay, [full] * lay.side ** 2, 1, rng))
    return Grid(lay, bytes(found))


def support(grid: Grid, masks: Sequence[int], limit: int = 10**6) -> tuple[list[int], int]:
    """Per empty cell of `grid`, the values some solution within the masks (a mask per empty cell: the values
    it may take) gives it (0 for a given), and how many such solutions there are (up to `limit`: then the
    support may be short)."""
    cells = grid.empty_cells()
    used = [0] * len(masks)
    count = 0
    within = [m if not v else 1 << (v - 1) for m, v in zip(masks, grid.values, strict=True)]
    for filling in completions(grid.layout, within, limit):
        count += 1
        for c in cells:
            used[c] |= 1 << (filling[c] - 1)
    return used, count


def puzzle(lay: Layout, seed: int, blank: float) -> tuple[Grid, Grid]:
    """A random solution of the layout with a share `blank` of its cells emptied, and the solution."""
    rng = random.Random(seed)
    solution = random_solution(lay, rng)
    return solution.with_values([0 if rng.random() < blank else v for v in solution.values]), solution


def unique_puzzle(lay: Layout, seed: int) -> tuple[Grid, Grid]:
    """A puzzle with one solution: givens taken away from a random solution, in random order, while the brute
    force still finds one solution only (so each given left is needed)."""
    rng = random.Random(seed)
    solution = random_solution(lay, rng)
    values = list(solution.values)
    order = list(range(len(values)))
    rng.shuffle(order)
    for cell in order:
        kept, values[cell] = values[cell], 0
        if len(solutions(solution.with_values(values), 2)) > 1:
            values[cell] = kept
    return solution.with_values(values), solution
