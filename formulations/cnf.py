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

A puzzle's constraints beyond houses and cages (puzzles/constraints/) are clauses beside the houses',
each kind's from its encoder (formulations/constraints/sat.py), with no variable of their own.

A Killer's cages are clauses beside the houses' (`cage_clauses`): no repeat in a cage, and its total in the
encoding `sums` names: its combinations (the default) or a pseudo-Boolean encoding of pysat.pb; `redundant=45`
adds the 45 rule's sums. Their auxiliary variables come after the cell-values and triads; the answer is read
from the cell-values alone.

The clauses a layout shares are built once per process, for the last few layouts (`layout_clauses`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from puzzles.cages import cage_combinations, combinations_of, derived_sums
from puzzles.constraints import uncaged
from puzzles.grid import Grid, Layout, crossings, geometry

from .constraints.sat import Cnf
from .constraints.sat import encode as encode_constraints

ENCODINGS = ("minimal", "natural", "complete", "augmented")
# A Killer cage's sum as clauses (`cage_clauses`): the project's own, then PySAT's pseudo-Boolean encodings
PB_SUMS = ("bdd", "seqcounter", "sortnetwrk", "adder", "binmerge", "totalizer", "mixedradix", "watchdog")
SUMS = ("combinations", *PB_SUMS)
DEFAULT_SUMS = "combinations"
REDUNDANT = ("none", "45")


# -- the model: variables and clauses ------------------------------------------------------------

def variables(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS, redundant: str = "none") -> int:
    """How many variables an encoding has: n^3 cell-values, and for `augmented` a triad a segment and value after
    them (2*n^2*box in classic Sudoku); for a Killer, its cages' auxiliary variables after those (read off its
    clauses: the pseudo-Boolean encoders number their own)."""
    n = lay.side
    houses = n**3 + (len(segments(lay.houses)[0]) * n if encoding == "augmented" else 0)
    if not lay.cages:
        return houses
    return max(houses, top(layout_clauses(lay, encoding, sums, redundant)))


def top(clauses: Iterable[Sequence[int]]) -> int:
    """The highest variable the clauses name."""
    return max((abs(lit) for clause in clauses for lit in clause), default=0)


def var(cell: int, value: int, n: int) -> int:
    """The variable "cell holds value" of a grid of side n: cell * n + value (1-based, as DIMACS wants)."""
    return cell * n + value


def exactly_one(lits: Sequence[int]) -> list[list[int]]:
    return [list(lits), *at_most_one(lits)]


def at_most_one(lits: Sequence[int]) -> list[list[int]]:
    return [[-a, -b] for a, b in combinations(lits, 2)]


# Layouts whose clauses (and kept solvers) a process keeps: classic Sudoku's four sizes, each in its four
# encodings, all stay; a file of Jigsaws, each puzzle a layout of its own, does not keep every puzzle's (a
# 16x16's complete encoding is 124,000 clauses, a 25x25's 750,000).
LAYOUTS_KEPT = 4


def layout_clauses(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS,
          redundant: str = "none") -> tuple[list[int], ...]:
    """The clauses every puzzle of a layout shares, built once per process (for the last few layouts:
    `kept_layout_clauses`): its houses in `encoding`, then, for a Killer, its cages in `sums` (and the 45 rule's
    sums when `redundant` is 45). A layout without cages has one entry whatever `sums` and `redundant` say, however the
    call is written."""
    if not lay.cages:
        sums, redundant = DEFAULT_SUMS, "none"
    return kept_layout_clauses(lay, encoding, sums, redundant)


@lru_cache(maxsize=LAYOUTS_KEPT * len(ENCODINGS))
def kept_layout_clauses(lay: Layout, encoding: str, sums: str, redundant: str) -> tuple[list[int], ...]:
    """`build_layout_clauses`, kept for the last few layouts (a layout drawn for one puzzle, a Jigsaw or a Killer,
    is built afresh by making/ rather than kept: making.solutions.clauses_of)."""
    return build_layout_clauses(lay, encoding, sums, redundant)


def build_layout_clauses(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS,
                redundant: str = "none") -> tuple[list[int], ...]:
    """A layout's clauses: its houses in `encoding`, its constraints (`constraint_clauses`), then, for a Killer,
    its cages in `sums` (and the 45 rule's sums when `redundant` is 45), their auxiliary variables numbered after
    the houses' (`cage_clauses`)."""
    if lay.cages:
        return (*house_clauses(lay.houses, encoding), *constraint_clauses(lay),
                *cage_clauses(lay, variables(lay.houses, encoding), sums, redundant))
    if uncaged(lay.constraints):
        return (*house_clauses(lay.houses, encoding), *constraint_clauses(lay))
    return tuple(house_clauses(lay, encoding))


def constraint_clauses(lay: Layout) -> list[list[int]]:
    """The clauses of a layout's constraints, each by its kind's encoder (formulations/constraints/sat.py)."""
    others = uncaged(lay.constraints)  # (the cages: `cage_clauses`)
    if not others:
        return []
    return encode_constraints(others, Cnf(lay.side, var, geometry(lay.houses).peers))


def beyond_houses(lay: Layout) -> bool:
    """Whether a layout's rules go beyond its houses (cages, constraints): then they may hold unit clauses, the
    solver's facts (`layout_facts`), and may contradict the houses (a puzzle with no solution, which a solve
    says)."""
    return bool(lay.constraints)


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


@lru_cache(maxsize=LAYOUTS_KEPT)
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


# -- Killer cages: their sums as clauses ----------------------------------------------------------

def cage_clauses(lay: Layout, first: int, sums: str = DEFAULT_SUMS, redundant: str = "none") -> list[list[int]]:
    """A Killer's cages as clauses, their auxiliary variables numbered after `first` (the houses' last variable).

    Each cage's values differ: at most one cell of the cage holds each value, pairwise, for the pairs of its
    cells that share no house (a house's clauses already keep those apart). Its total, when it has one, in
    the encoding `sums` names:

    - combinations (the project's own): the cage's value set is one of its combinations (the sets of as many
      different values with that sum, puzzles.cages): no cage cell holds a value in no combination; with one
      combination, each of its values is in some cage cell; with several, a selector variable s per
      combination, at least one true, and s true means each of its values is in some cage cell (not s, or
      the first cell holds v, or the second, ...) and no cage cell holds one of the other combinations' values
      (not s, or not x). Two selectors cannot both hold (one needs a value the other rules out), which unit
      propagation sees, so none is an extra clause. Unit propagation then does what a solver by hand does
      with a cage's combinations: a value no combination left open allows leaves the cage, a combination
      missing a value dies, and a value every live combination needs lands in the cage's one cell left for it.
    - a pseudo-Boolean encoding (bdd, seqcounter, sortnetwrk, adder, binmerge, totalizer, mixedradix,
      watchdog): the sum over the cage's cells c and values v of v * x(c, v) equals the total, encoded by
      PySAT's pysat.pb (Pindakaas) in that encoding, its auxiliary variables from `first` + 1 on.

    `redundant=45` adds the 45 rule's derived sums (puzzles.cages.derived_sums) whose cells hold different values
    (any two share a house), each as a cage of its own in the `sums` encoding: implied by the houses and the
    cages, they let unit propagation see a sum across cages. A derived sum whose cells may repeat a value (the
    innies of two rows) is left out: its sum over n values a cell, weights 1..n, is a pseudo-Boolean equality
    without the no-repeat that keeps a cage's small, and those of one 9x9 Killer (84 of its 127 derived sums)
    took 130,000 (adder) to 1.8 million (sortnetwrk) clauses, 430,000 with Pindakaas's own choice.
    """
    n = lay.side
    peers = geometry(lay.houses).peers
    clauses: list[list[int]] = []
    last = first
    for cage in lay.cages:
        clauses.extend(_no_repeats(cage.cells, n, peers))
        if cage.total is None:
            continue
        if sums == "combinations":
            made, last = _combinations(cage.cells, cage_combinations(n, cage), n, last)
        else:
            made, last = _pb_equal(cage.cells, cage.total, n, last, sums)
        clauses.extend(made)
    if redundant == "45":
        for derived in derived_sums(lay):
            if not all(b in peers[a] for a, b in combinations(derived.cells, 2)):
                continue  # its values may repeat: left out (the docstring says what it would cost)
            if sums == "combinations":
                made, last = _combinations(derived.cells, combinations_of(n, len(derived.cells), derived.total), n,
                                           last)
            else:
                made, last = _pb_equal(derived.cells, derived.total, n, last, sums)
            clauses.extend(made)
    return clauses


def _no_repeats(cells: Sequence[int], n: int, peers: Sequence[Sequence[int]]) -> list[list[int]]:
    """At most one of a cage's cells holds each value: pairwise, for its cells that share no house."""
    apart = [(a, b) for a, b in combinations(cells, 2) if b not in peers[a]]
    return [[-var(a, v, n), -var(b, v, n)] for v in range(1, n + 1) for a, b in apart]


def _combinations(cells: Sequence[int], masks: Sequence[int], n: int, last: int) -> tuple[list[list[int]], int]:
    """A cage's value set is one of `masks` (its combinations): the clauses, and the last variable used (the
    selectors', one a combination when there are several, numbered after `last`)."""
    union = 0
    for mask in masks:
        union |= mask
    values = range(1, n + 1)
    clauses = [[-var(c, v, n)] for v in values if not union >> (v - 1) & 1 for c in cells]
    if not masks:  # a derived sum no values reach: the cells hold none (the puzzle has no solution)
        return clauses, last
    if len(masks) == 1:
        return clauses + [[var(c, v, n) for c in cells] for v in values if masks[0] >> (v - 1) & 1], last
    selectors = list(range(last + 1, last + len(masks) + 1))
    clauses.append(selectors)
    for s, mask in zip(selectors, masks, strict=True):
        clauses.extend([-s, *(var(c, v, n) for c in cells)] for v in values if mask >> (v - 1) & 1)
        clauses.extend([-s, -var(c, v, n)] for v in values if (union & ~mask) >> (v - 1) & 1 for c in cells)
    return clauses, selectors[-1]


def _pb_equal(cells: Sequence[int], total: int, n: int, last: int, sums: str) -> tuple[list[list[int]], int]:
    """The sum over `cells` and values v of v * x(c, v) equals `total`, in PySAT's pseudo-Boolean encoding
    `sums`: the clauses, and the last variable they use (the encoder's, numbered after `last`)."""
    try:
        from pysat.pb import EncType, PBEnc  # Pindakaas: imported only for a pseudo-Boolean encoding
    except (ImportError, AssertionError) as exc:  # pysat.pb asserts its back end is there
        raise ValueError(f"sums={sums} needs PySAT's pseudo-Boolean encoders: pip install 'python-sat[pb]'") \
            from exc
    lits = [var(c, v, n) for c in cells for v in range(1, n + 1)]
    weights = [v for _ in cells for v in range(1, n + 1)]
    encoded = PBEnc.equals(lits=lits, weights=weights, bound=total, top_id=last, encoding=getattr(EncType, sums))
    clauses = [list(clause) for clause in encoded.clauses]
    return clauses, max(last, encoded.nv, top(clauses))


def givens(grid: Grid) -> list[int]:
    """The puzzle's facts: one true literal var(c, v) per given."""
    return [var(c, v, grid.side) for c, v in enumerate(grid.values) if v]


def encode(grid: Grid, encoding: str = "complete", sums: str = DEFAULT_SUMS,
           redundant: str = "none") -> tuple[int, list[list[int]]]:
    """The CNF of a puzzle: (number of variables, clauses): the rules of its layout (a Killer's cages in `sums`),
    then its givens."""
    sums, redundant = cage_form(grid.layout, {"sums": sums, "redundant": redundant})
    return (variables(grid.layout, encoding, sums, redundant),
            [*layout_clauses(grid.layout, encoding, sums, redundant), *([lit] for lit in givens(grid))])


def decode(grid: Grid, model: Iterable[int]) -> Grid:
    """The grid of a model's (or a partial assignment's) true cell-values; triads are ignored."""
    n = grid.side
    values = [0] * grid.geometry.cells
    for lit in model:
        if 0 < lit <= n * grid.geometry.cells:
            cell, value = divmod(lit - 1, n)
            values[cell] = value + 1
    return grid.with_values(values)


def cage_sizes(lay: Layout, encoding: str, sums: str, redundant: str) -> dict[str, object]:
    """A Killer model's own size, for Outcome.info: the sum encoding, and the clauses and variables the cages add
    to the houses' (auxiliary variables: a combination's selector, a pseudo-Boolean encoder's own)."""
    houses = lay.houses
    return {"sums": sums, "redundant": redundant,
            "cage_clauses": len(layout_clauses(lay, encoding, sums, redundant)) - len(layout_clauses(houses, encoding))
            - len(constraint_clauses(lay)),
            "cage_variables": variables(lay, encoding, sums, redundant) - variables(houses, encoding)}


def layout_facts(lay: Layout, encoding: str, sums: str, redundant: str) -> list[int]:
    """A Killer's unit clauses (a value in none of a cage's combinations, a one-cell cage's value) and a
    constraint's (a value no value of a linked cell allows), which the formulation's solver takes as facts beside
    the givens rather than as clauses: a solver sets a unit clause's literal before any decision, where propagate()
    does not report it, so the `search=off` grid and probing's settled cell-values would miss it (and probing would
    find it "failed" again each round)."""
    if not beyond_houses(lay):
        return []
    return [clause[0] for clause in layout_clauses(lay, encoding, sums, redundant) if len(clause) == 1]


def cage_form(lay: Layout, opts: dict[str, Any]) -> tuple[str, str]:
    """The options `sums` and `redundant` as a layout's rules read them: the defaults for a layout without cages
    (its clauses are the same whatever they say, so it keeps one cache entry and one kept solver)."""
    return (str(opts["sums"]), str(opts["redundant"])) if lay.cages else (DEFAULT_SUMS, "none")

