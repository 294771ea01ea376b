"""Sudoku as CNF: the clauses formulations.sat solves with PySAT, formulations.export writes as DIMACS, and
making/ certifies puzzles with.

Variable var(c, v, n) = c*n + v is true when cell c holds value v. Four encodings
(Lynce and Ouaknine's names in brackets), each a rung of the inference ladder:

- minimal:   at least one value per cell, at most one of each value per unit;
- natural:   ["efficient"] minimal, plus at most one value per cell;
- complete:  ["extended"] exactly one value per cell, and each value exactly
             once per house: row, column, region, extra house (the default);
- augmented: exactly one value per cell; the houses written over triads, the
             segments where two houses cross (box-line segments in classic
             Sudoku): t(s, v), numbered after the cell-values, is the OR of
             segment s's cells for v, and each house-value has exactly one
             true triad among the pieces a house is cut into (`segments`:
             each line's box segments, each box's row segments and again its
             column segments in classic Sudoku).

A unit is a house throughout. At-most-one is pairwise, and each given is a unit
clause. Unit propagation alone then places naked singles (minimal, natural), also
hidden singles (complete), also locked candidates in every crossing of two houses
(augmented), on any layout.

A puzzle's constraints beyond houses (puzzles/constraints/) are clauses beside the houses', each kind's from its
encoder (formulations/constraints/sat.py), with the options its encoder reads (a Killer cage's `sums` and
`redundant`: `options` here, the sat method's options, of which each kind reads its own). A kind's auxiliary
variables (a cage's) come after the cell-values and triads; the answer is read from the cell-values alone.

The clauses a layout shares are built once per process, for the last few layouts (`layout_clauses`), and its
houses' apart, for the last few houses (`kept_house_clauses`: every Killer of a file has the same).
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import wraps
from itertools import combinations
from typing import Any, ParamSpec, TypeVar

from puzzles.grid import Grid, Layout, crossings, geometry
from puzzles.kept import kept

from .constraints import chosen
from .constraints.sat import ENCODERS, Cnf, CnfEncoder, encode_kinds
from .constraints.sat import top as top  # the highest variable clauses name, for making/ too

ENCODINGS = ("minimal", "natural", "complete", "augmented")
# The options a layout's kinds read, as chosen (formulations.constraints.chosen): a part of its clauses' key
Form = tuple[tuple[str, Any], ...]


# -- the model: variables and clauses ------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def collector_paused(build: Callable[P, R]) -> Callable[P, R]:
    """`build` run with Python's cycle collector held off: clauses are hundreds of thousands of small lists that
    hold no cycles, and each collection on the way would walk every one made so far (a 25x25's complete encoding
    took 0.74 s with it, 0.19 s without)."""
    @wraps(build)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        was_on = gc.isenabled()
        gc.disable()
        try:
            return build(*args, **kwargs)
        finally:
            if was_on:  # a caller that had it off (a nested build) keeps it off
                gc.enable()
    return paused


def variables(lay: Layout, encoding: str = "complete", options: Mapping[str, Any] | None = None) -> int:
    """How many variables an encoding has: n^3 cell-values, and for `augmented` a triad a segment and value after
    them (2*n^2*box in classic Sudoku); for a layout with constraints, their auxiliary variables after those (read
    off its clauses: a Killer cage's, the pseudo-Boolean encoders number their own)."""
    n = lay.side
    houses = n**3 + (len(segments(lay.houses)[0]) * n if encoding == "augmented" else 0)
    if not lay.constraints:
        return houses
    return max(houses, top(layout_clauses(lay, encoding, options)))


def form(lay: Layout, options: Mapping[str, Any] | None) -> Form:
    """The options the layout's kinds read (each kind's encoder says which), as `options` chooses them."""
    return chosen(ENCODERS, lay.constraints, options or {})


def var(cell: int, value: int, n: int) -> int:
    """The variable "cell holds value" of a grid of side n: cell * n + value (1-based, as DIMACS wants)."""
    return cell * n + value


def exactly_one(lits: Sequence[int]) -> list[list[int]]:
    return [list(lits), *at_most_one(lits)]


def at_most_one(lits: Sequence[int]) -> list[list[int]]:
    # pairs of the negated literals, listed by map (a 25x25's complete encoding makes 750,000 of them)
    return list(map(list, combinations([-lit for lit in lits], 2)))


# Layouts whose clauses (and kept solvers) a process keeps: classic Sudoku's four sizes, each in its four
# encodings, all stay; a file of Jigsaws, each puzzle a layout of its own, does not keep every puzzle's (a
# 16x16's complete encoding is 124,000 clauses, a 25x25's 750,000).
LAYOUTS_KEPT = 4


def layout_clauses(lay: Layout, encoding: str = "complete",
                   options: Mapping[str, Any] | None = None) -> tuple[list[int], ...]:
    """The clauses every puzzle of a layout shares, built once per process (for the last few layouts:
    `kept_layout_clauses`): its houses in `encoding`, then its constraints, with the options their kinds read
    (a Killer's cages in `sums`, and the 45 rule's sums when `redundant` is 45). A layout has one entry whatever
    the options its kinds do not read say."""
    return kept_layout_clauses(lay, encoding, form(lay, options))


@kept(LAYOUTS_KEPT * len(ENCODINGS))
def kept_layout_clauses(lay: Layout, encoding: str, chosen: Form) -> tuple[list[int], ...]:
    """A layout's clauses, kept for the last few layouts (a layout drawn for one puzzle, a Jigsaw or a Killer, is
    built afresh by making/ rather than kept: making.solutions.clauses_of)."""
    return _joined(lay, encoding, kept_kind_clauses(lay, encoding, chosen))


@kept(LAYOUTS_KEPT * len(ENCODINGS))
def kept_kind_clauses(lay: Layout, encoding: str, chosen: Form) -> tuple[tuple[CnfEncoder, list[list[int]], int], ...]:
    """`kind_clauses`, kept with the layout's clauses (the sat method's info counts them: `sizes`)."""
    return kind_clauses(lay, encoding, chosen)


def build_layout_clauses(lay: Layout, encoding: str = "complete",
                         options: Mapping[str, Any] | None = None) -> tuple[list[int], ...]:
    """A layout's clauses: its houses in `encoding`, then its constraints' (`kind_clauses`), their auxiliary
    variables numbered after the houses'. Built afresh, for a layout drawn for one puzzle: its houses' clauses are
    kept only when they are boxes (a Killer's, drawn over fixed houses; not a Jigsaw's regions)."""
    return _joined(lay, encoding, kind_clauses(lay, encoding, form(lay, options)), keep=bool(lay.houses.box_height))


def _joined(lay: Layout, encoding: str, kinds: Sequence[tuple[CnfEncoder, list[list[int]], int]],
            keep: bool = True) -> tuple[list[int], ...]:
    """The houses' clauses (kept for the last few houses, unless `keep` is false), then the constraints'."""
    houses = kept_house_clauses(lay.houses, encoding) if keep else tuple(house_clauses(lay.houses, encoding))
    if not lay.constraints:
        return houses
    return (*houses, *(clause for _, clauses, _ in kinds for clause in clauses))


@kept(LAYOUTS_KEPT * len(ENCODINGS))
def kept_house_clauses(houses: Layout, encoding: str) -> tuple[list[int], ...]:
    """`house_clauses`, kept for the last few houses apart from their layouts': every Killer of a file, each
    puzzle's cages a layout of its own, has the same houses, built once."""
    return tuple(house_clauses(houses, encoding))


@collector_paused
def kind_clauses(lay: Layout, encoding: str, chosen: Form) -> tuple[tuple[CnfEncoder, list[list[int]], int], ...]:
    """The clauses of a layout's constraints, kind by kind in the registry's order (formulations/constraints/
    sat.py), each kind's with its encoder and the last variable before its auxiliaries; the first auxiliaries
    come after the houses' variables in `encoding`."""
    if not lay.constraints:
        return ()
    return tuple(encode_kinds(lay.constraints, Cnf(lay.side, var, geometry(lay.houses).peers,
                                                   variables(lay.houses, encoding), lay), dict(chosen)))


@collector_paused
def constraint_clauses(lay: Layout, first: int, options: Mapping[str, Any] | None = None) -> list[list[int]]:
    """The clauses of a layout's constraints alone, with the options their kinds read, their auxiliary variables
    numbered after `first` (a certifier's kept solver numbers them after its last)."""
    cnf = Cnf(lay.side, var, geometry(lay.houses).peers, first, lay)
    return [clause for _, clauses, _ in encode_kinds(lay.constraints, cnf, dict(form(lay, options)))
            for clause in clauses]


def beyond_houses(lay: Layout) -> bool:
    """Whether a layout's rules go beyond its houses (cages, constraints): then they may hold unit clauses, the
    solver's facts (`layout_facts`), and may contradict the houses (a puzzle with no solution, which a solve
    says)."""
    return bool(lay.constraints)


@collector_paused
def house_clauses(lay: Layout, encoding: str) -> list[list[int]]:
    """The clauses of a layout's houses (and its cells' values) in one of the four encodings."""
    geo = geometry(lay)
    n = geo.side
    values = range(1, n + 1)
    cells = [[var(c, v, n) for v in values] for c in range(geo.cells)]
    clauses: list[list[int]] = []
    # Each cell holds a value; at most one, except in the minimal encoding.
    for lits in cells:
        clauses.extend(exactly_one(lits) if encoding != "minimal" else [lits])
    if encoding == "augmented":
        clauses.extend(_triad_clauses(lay))
        return clauses
    # Each value at most once in each house; the complete encoding adds at least once.
    for unit in geo.units:
        for v in values:
            lits = [var(c, v, n) for c in unit]
            clauses.extend(exactly_one(lits) if encoding == "complete" else at_most_one(lits))
    return clauses


def _triad_clauses(lay: Layout) -> list[list[int]]:
    """The houses over triads: each triad the OR of its cells, exactly one triad (or lone cell) per group."""
    n = lay.side
    cells_of, groups = segments(lay)

    def triad(segment: int, v: int) -> int:
        return n**3 + segment * n + v  # numbered after the cell-values

    def holds(piece: int, v: int) -> int:  # a piece of a group: a segment's triad, or one cell's value
        return triad(piece, v) if piece >= 0 else var(-piece - 1, v, n)

    clauses: list[list[int]] = []
    for v in range(1, n + 1):
        for s, cells in enumerate(cells_of):
            t, lits = triad(s, v), [var(c, v, n) for c in cells]
            clauses.extend([-x, t] for x in lits)  # a cell holding v makes its triad true
            clauses.append([-t, *lits])  # a true triad has a cell holding v
        for group in groups:
            clauses.extend(exactly_one([holds(piece, v) for piece in group]))
    return clauses


@kept(LAYOUTS_KEPT)
def segments(lay: Layout) -> tuple[list[list[int]], list[list[int]]]:
    """The segments (where two houses cross in two cells or more: the cells of each), and the groups of
    pieces that hold a value exactly once, each group a house cut into pieces. A piece is a segment's index,
    or -(cell + 1) for a piece of one cell.

    Unit propagation on these clauses deduces what naked and hidden singles and locked candidates do (the
    `locked` rung), no more and no less, when three things hold, and the groups are made so that they do:
    - every house has a group (then, a cell holding one value each, each house holds every value once);
    - every crossing of two houses is a piece of a group of each house (a value whose places in one house
      lie in the crossing makes its triad true, which empties the other house outside it);
    - any two cells of a house lie in different pieces of some group (a value placed leaves the other).
    First each house cut by the rows, the columns or the regions (a line by the regions; a region by the
    rows, then the columns; an extra house by all three), when one piece at least is a segment. Then, for a
    crossing no such cut made a piece of one of its houses (a diagonal and a box, a row and an extra region),
    a group of that house: the crossing and each other cell alone. Last, for a house whose groups leave
    two of its cells together (or that has none), its cells one by one.

    In classic Sudoku the segments are the box-line triads: segment r*box + j is row r's cells in box column
    j; segment n*box + c*box + i is column c's cells in box row i. Groups: each row's segments, each
    column's, then each box's row segments and its column segments; the cuts make every group.
    """
    geo = geometry(lay)
    n = geo.side
    families = {"rows": range(n), "columns": range(n, 2 * n), "regions": range(2 * n, 3 * n)}
    cut_by = [("regions",)] * (2 * n) + [("rows", "columns")] * n + [("rows", "columns", "regions")] * len(lay.extras)
    index: dict[tuple[int, ...], int] = {}
    cells_of: list[list[int]] = []
    groups: list[list[int]] = []
    pieces_of: list[set[tuple[int, ...]]] = [set() for _ in geo.units]  # per house, the pieces of its groups

    def add(house: int, pieces: list[tuple[int, ...]]) -> None:
        group = []
        for piece in pieces:
            if len(piece) == 1:
                group.append(-piece[0] - 1)
                continue
            if piece not in index:
                index[piece] = len(cells_of)
                cells_of.append(list(piece))
            group.append(index[piece])
        groups.append(group)
        pieces_of[house].update(tuple(sorted(piece)) for piece in pieces)

    for u, (house, cuts) in enumerate(zip(geo.units, cut_by, strict=True)):
        held = set(house)
        for family in cuts:
            pieces = [tuple(c for c in geo.units[f] if c in held) for f in families[family]]
            pieces = [p for p in pieces if p and len(p) < n]
            if all(len(p) == 1 for p in pieces):
                continue  # the house's own cells: no segment
            add(u, pieces)
    met = crossings(geo)
    for a, b, crossing in zip(met.first, met.second, met.cells, strict=True):
        for u in (a, b):
            if crossing not in pieces_of[u]:
                add(u, [crossing, *((c,) for c in geo.units[u] if c not in crossing)])
    apart = _apart(cells_of, groups, geo.cells)
    for u, house in enumerate(geo.units):
        whole = _mask(house)
        if not pieces_of[u] or any((whole & ~apart[c]) != 1 << c for c in house):
            add(u, [(c,) for c in house])
    return cells_of, groups


def _apart(cells_of: list[list[int]], groups: list[list[int]], cells: int) -> list[int]:
    """Per cell, the cells some group puts in another piece than its own (as bits: 1 << cell)."""
    apart = [0] * cells
    for group in groups:
        pieces = [cells_of[p] if p >= 0 else [-p - 1] for p in group]
        every = _mask(c for piece in pieces for c in piece)
        for piece in pieces:
            others = every & ~_mask(piece)
            for c in piece:
                apart[c] |= others
    return apart


def _mask(cells: Iterable[int]) -> int:
    """Cells as the bits of one int (a cell's bit: 1 << cell)."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def givens(grid: Grid) -> list[int]:
    """The puzzle's facts: one true literal var(c, v) per given."""
    return [var(c, v, grid.side) for c, v in enumerate(grid.values) if v]


def encode(grid: Grid, encoding: str = "complete",
           options: Mapping[str, Any] | None = None) -> tuple[int, list[list[int]]]:
    """The CNF of a puzzle: (number of variables, clauses): the rules of its layout (its constraints with the
    options their kinds read: a Killer's cages in `sums`), then its givens."""
    return (variables(grid.layout, encoding, options),
            [*layout_clauses(grid.layout, encoding, options), *([lit] for lit in givens(grid))])


def decode(grid: Grid, model: Iterable[int]) -> Grid:
    """The grid of a model's (or a partial assignment's) true cell-values; triads are ignored."""
    n = grid.side
    values = [0] * grid.geometry.cells
    for lit in model:
        if 0 < lit <= n * grid.geometry.cells:
            cell, value = divmod(lit - 1, n)
            values[cell] = value + 1
    return grid.with_values(values)


def sizes(lay: Layout, encoding: str, options: Mapping[str, Any] | None = None) -> dict[str, object]:
    """What a layout's constraints add to the houses' model, for Outcome.info: for a kind counted apart (its
    encoder's `sized`, a Killer's `cage`), the options it read, its clauses and its auxiliary variables; then the
    clauses of the others together (`constraint_clauses`)."""
    chosen = form(lay, options)
    facts: dict[str, object] = {}
    pooled: int | None = None
    for encoder, clauses, first in kept_kind_clauses(lay, encoding, chosen):
        if not encoder.sized:
            pooled = (pooled or 0) + len(clauses)
            continue
        facts.update((name, value) for name, value in chosen if name in encoder.options)
        facts[f"{encoder.sized}_clauses"] = len(clauses)
        facts[f"{encoder.sized}_variables"] = max(first, top(clauses)) - first
    if pooled is not None:
        facts["constraint_clauses"] = pooled
    return facts


def layout_facts(lay: Layout, encoding: str = "complete", options: Mapping[str, Any] | None = None) -> list[int]:
    """A Killer's unit clauses (a value in none of a cage's combinations, a one-cell cage's value) and a
    constraint's (a value no value of a linked cell allows), which the formulation's solver takes as facts beside
    the givens rather than as clauses: a solver sets a unit clause's literal before any decision, where propagate()
    does not report it, so the `search=off` grid and probing's settled cell-values would miss it (and probing would
    find it "failed" again each round)."""
    if not beyond_houses(lay):
        return []
    return [clause[0] for clause in layout_clauses(lay, encoding, options) if len(clause) == 1]
