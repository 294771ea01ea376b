"""Equivalent puzzles: relabel values, permute bands, stacks, rows and columns, transpose.

That is classic Sudoku's group (rectangular boxes keep it without transposition: bands are their boxes' rows,
stacks their columns). A puzzle of the Sudoku family keeps its own: relabelling always, and of the
grid's eight rotations and reflections those that map its houses onto its houses (Sudoku-X keeps all eight,
Windoku too; an irregular Jigsaw usually none but the identity). A Killer puzzle's sums are not kept by
relabelling, and a rotation or reflection must map each cage onto a cage of the same total: most have
no move but the identity. `group_of` names the group drawn from.

Each move maps solutions to solutions, so an isomorph has the same solution
count as its original. Search effort is not invariant (tie-breaks follow the
orientation), which is why fair effort figures average over random isomorphs.
An `Isomorph` is the drawn moves themselves, so the same moves can be applied
to a puzzle and to its solution.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from .constraints import KILLER
from .grid import Grid, Layout, PuzzleError, geometry
from .kept import kept
from .layouts import layout


def _line_order(bands: int, width: int, rng: random.Random) -> list[int]:
    """A random order of the lines (rows or columns), `bands` bands of `width` lines: bands shuffled, then lines
    within each band."""
    order_of_bands = list(range(bands))
    rng.shuffle(order_of_bands)
    order: list[int] = []
    for band in order_of_bands:
        inside = list(range(width))
        rng.shuffle(inside)
        order.extend(band * width + i for i in inside)
    return order


@dataclass(frozen=True)
class Isomorph:
    """One equivalence move of a layout: new cell (r, c) takes the relabelled old cell (rows[r], cols[c]),
    read transposed when `transpose` is set."""

    layout: Layout
    relabel: tuple[int, ...]  # relabel[v] is the new value of v; relabel[0] = 0 keeps blanks blank
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    transpose: bool

    @classmethod
    def draw(cls, lay: Layout, rng: random.Random) -> Isomorph:
        n = lay.side
        labels = list(range(1, n + 1))
        if relabels(lay):
            rng.shuffle(labels)
        if not swaps_lines(lay):
            rows, cols, transpose = rng.choice(symmetries(lay))
            return cls(lay, (0, *labels), rows, cols, transpose)
        rows, cols, transpose = _lines_moved(lay, rng)
        return cls(lay, (0, *labels), rows, cols, transpose)

    def apply(self, grid: Grid) -> Grid:
        if grid.layout is not self.layout:
            raise ValueError(f"an isomorph of a {self.layout.variant} {self.layout.side}x{self.layout.side} grid "
                             f"applied to a {grid.layout.variant} {grid.side}x{grid.side} grid")
        n, old, relabel, move = grid.side, grid.values, self.relabel, (self.rows, self.cols, self.transpose)
        return Grid(self.layout, bytes(relabel[old[_source(move, cell, n)]] for cell in range(n * n)))


Move = tuple[tuple[int, ...], tuple[int, ...], bool]  # rows, columns, transposed: one rotation or reflection


@kept()
def symmetries(lay: Layout) -> list[Move]:
    """Of the grid's eight rotations and reflections, those that map every house of `lay` onto a house."""
    n = lay.side
    ahead, back = tuple(range(n)), tuple(range(n - 1, -1, -1))
    houses = {frozenset(unit) for unit in geometry(lay).units}
    rules = set(lay.constraints)
    kept: list[Move] = []
    for transpose in (False, True):
        for rows in (ahead, back):
            for cols in (ahead, back):
                move = (rows, cols, transpose)
                if all(frozenset(_moved(move, c, n) for c in house) in houses for house in houses) and \
                        all(rule.moved(functools.partial(_moved, move, n=n)) in rules for rule in rules):
                    kept.append(move)
    return kept


def relabels(lay: Layout) -> bool:
    """Whether relabelling the values keeps the puzzle's rules: not with cages (their sums), nor with a constraint
    whose kind it breaks (a thermometer's rise)."""
    return all(rule.RELABELS for rule in lay.constraints)


def _lines_moved(lay: Layout, rng: random.Random) -> Move:
    """A random move of a layout on boxes: bands of boxes' rows and stacks of their columns shuffled, the lines
    within each, and (square boxes) transposed half the time."""
    n, height, width = lay.side, lay.box_height, lay.box_width
    rows, cols = _line_order(n // height, height, rng), _line_order(n // width, width, rng)
    return tuple(rows), tuple(cols), height == width and rng.random() < 0.5


def _source(move: Move, cell: int, n: int) -> int:
    """The cell whose given (and region) a move puts in `cell`: new (r, c) reads old (rows[r], cols[c]), transposed
    when the move is."""
    rows, cols, transpose = move
    r, c = divmod(cell, n)
    r, c = rows[r], cols[c]
    return c * n + r if transpose else r * n + c


def _moved(move: Move, cell: int, n: int) -> int:
    """Where a move takes a cell (the inverse of `_source`)."""
    rows, cols, transpose = move
    r, c = divmod(cell, n)
    if transpose:
        r, c = c, r
    return rows.index(r) * n + cols.index(c)


def swaps_lines(lay: Layout) -> bool:
    """Whether the layout's isomorphs swap bands, stacks, and rows and columns within them (boxes, no more): any
    other house or rule is kept by the grid's rotations and reflections alone, those that keep it."""
    return bool(lay.box_height) and not lay.extras and not lay.constraints


def group_of(lay: Layout) -> str:
    """The group isomorphs of this layout are drawn from, in words."""
    if swaps_lines(lay):
        return "relabelling, band, stack, row and column swaps" + (", transposition" if lay.box else "")
    count = len(symmetries(lay))
    # the first constraint that relabelling breaks (a Killer's cages come first) says why, in its kind's words
    fixed = next((rule for rule in lay.constraints if not rule.RELABELS), None)
    if fixed is not None:
        return f"none ({fixed.FIXES_VALUES} rule out relabelling)" if count == 1 else \
            f"{count - 1} of the grid's rotations and reflections that keep every {fixed.ONE} (no relabelling)"
    if count == 1:
        return "relabelling only"
    return f"relabelling, and {count} of the grid's 8 rotations and reflections"


def random_isomorph(grid: Grid, rng: random.Random) -> Grid:
    """A random puzzle equivalent to `grid`, drawn with `rng` from its layout's group."""
    return Isomorph.draw(grid.layout, rng).apply(grid)


def transposed(grid: Grid) -> Grid:
    """The puzzle reflected in its main diagonal, its regions (renumbered as met, row by row) and rules with it: cell
    (r, c) holds what (c, r) held. Its solutions are the puzzle's, reflected, on a layout of its own unless the
    puzzle's is kept by the reflection (square boxes are; a Killer's cages or a Jigsaw's regions seldom): what the
    ISS benchmark warms up on. PuzzleError for a rule whose kind cannot be reflected so (an indexer's)."""
    fixed = next((rule for rule in grid.layout.rules if not rule.REFLECTS), None)
    if fixed is not None:
        raise PuzzleError(f"{fixed.name(0, grid.side)}: a rule of its kind has no reflected image")
    ahead = tuple(range(grid.side))
    return relaid(grid, (ahead, ahead, True))


def relaid(grid: Grid, move: Move) -> Grid:
    """The puzzle with its cells moved by `move` (as `Isomorph.apply` reads it, no relabelling), its regions
    (renumbered as met, row by row) and rules moved with them, on a layout of its own: the same puzzle, drawn
    elsewhere. The caller sees that each rule's image is a rule of the same meaning."""
    lay, n = grid.layout, grid.side
    where = functools.partial(_moved, move, n=n)
    regions = [lay.regions[_source(move, cell, n)] for cell in range(n * n)]
    number = {region: k for k, region in enumerate(dict.fromkeys(regions))}  # renumbered as met: boxes kept boxes
    moved = layout(n, [number[region] for region in regions], (), [rule.moved(where) for rule in lay.rules])
    return Grid(moved, bytes(grid.values[_source(move, cell, n)] for cell in range(n * n)))


def moved_killer(grid: Grid, rng: random.Random) -> Grid:
    """A Killer drawn elsewhere at random: its bands and stacks shuffled, the rows and columns within each, and
    (square boxes) transposed half the time, its cages moved with their cells. Not an isomorph of the same layout
    (the cages move): an equivalent puzzle, to vary a search's tie-breaks over more than a few puzzles. PuzzleError
    for a grid with houses beyond its boxes or rules beyond Killer cages (a diagonal, a knight's move: not kept)."""
    lay = grid.layout
    if not lay.box_height or lay.extras or any(rule.KIND != KILLER for rule in lay.rules):
        raise PuzzleError("only a Killer on boxes with no other rule is kept when its lines are moved")
    return relaid(grid, _lines_moved(lay, rng))
