"""Sudoku as CNF, solved with PySAT (package python-sat).

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
(augmented), on any layout. `search=off` stops
there; `probe=on` adds failed-literal probing. `incremental=on` keeps one
solver per process with the givens as assumptions, as tdoku's benchmark does.
`guesses` counts the decisions that were real choices (FREE_DECISIONS). The
same CNF is written as DIMACS by formulations.export.

A puzzle's constraints beyond houses and cages (puzzles/constraints/) are clauses beside the houses',
each kind's from its encoder (formulations/constraints/sat.py), with no variable of their own.

A Killer's cages are clauses beside the houses' (`cage_clauses`): no repeat in a cage, and its total in the
encoding `sums` names: its combinations (the default) or a pseudo-Boolean encoding of pysat.pb; `redundant=45`
adds the 45 rule's sums. Their auxiliary variables come after the cell-values and triads; the answer is read
from the cell-values alone.

The clauses a layout shares are built once per process; a fresh solver per
puzzle (the default, so that runs stay independent) takes them through its own
C function in one loop (`load`), 0.6 of the set-up of PySAT's bootstrap_with on
a 16x16 (benchmarks/sat_setup.py). formulations.driver runs the solve.

Budgets: the node budget maps to a conflict budget (a conflict closes a branch).
The time budget interrupts the solver from a timer thread where the solver
supports it; PySAT's CaDiCaL bindings do not, so for CaDiCaL the search runs in
slices of conflicts with the clock read between slices (the learnt clauses are
kept, so a slice goes on from where the last stopped, after a restart).
"""
from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, repeat
from typing import Any

import pysat._utils as _pysat_utils
from pysat.solvers import Solver

try:  # PySAT's C module, not its documented API: load() says why it is used, and falls back to append_formula
    import pysolvers
except ImportError:  # a PySAT built otherwise: every solver takes its clauses through the public API
    pysolvers = None

from puzzles.cages import cage_combinations, combinations_of, derived_sums
from puzzles.grid import Grid, Layout, geometry
from puzzles.options import Option, OptionError, contract, describe, switch
from puzzles.outcome import Budget, GaveUp, Method, Outcome, Status
from puzzles.signals import signals_held

from .constraints.sat import ENCODERS, Cnf
from .constraints.sat import encode as encode_constraints
from .driver import FOUND, MAX_COUNT, MAX_SECONDS, NONE, Allowance, Answer, Model, drive

# Ctrl-C is Python's to handle, not PySAT's. In the main thread PySAT's C code takes a SIGINT that lands during a
# solve itself: it jumps out of the solver (left so, a solver can hang when deleted) and raises an error of its
# own, which neither a run's handler (comparison/execution/interrupts.py) nor a worker's SIG_IGN sees; and when
# the kernel hands the signal to another thread, the jump crashes the process. Told that no thread is the main
# one, PySAT leaves SIGINT alone, and the handler acts as soon as the solve returns.
_pysat_utils.MainThread.check = staticmethod(lambda: False)

ENCODINGS = ("minimal", "natural", "complete", "augmented")
# A Killer cage's sum as clauses (`cage_clauses`): the project's own, then PySAT's pseudo-Boolean encodings
PB_SUMS = ("bdd", "seqcounter", "sortnetwrk", "adder", "binmerge", "totalizer", "mixedradix", "watchdog")
SUMS = ("combinations", *PB_SUMS)
DEFAULT_SUMS = "combinations"
REDUNDANT = ("none", "45")
# PySAT's solvers, the `solver` option's values (formulations.SOLVERS is the registry of methods)
BACKENDS = ("minisat22", "cadical195", "cadical153", "glucose4", "glucose3", "maplechrono", "lingeling")
DEFAULT_SOLVER = "minisat22"
_NO_INTERRUPT = ("cadical195", "cadical153")  # pysat raises NotImplementedError on interrupt()
_NO_CONFLICT_BUDGET = ("glucose4", "glucose3")  # they take conf_budget, and run on past it
_NO_LIMITS = ("lingeling",)  # pysat has no limited solve for it: no budget can stop it
_NO_PROPAGATE = ("lingeling",)  # pysat raises NotImplementedError on propagate()
_ASSUMPTIONS_DECIDED = ("lingeling",)  # it counts each assumption as a decision (25 givens: 25 decisions)
SLICE_CONFLICTS = 2000

# Decisions a solver counts that are no choice, per solve that ends with a model. Measured through
# PySAT 1.9 on [[1]], and on the unbiased-1000 puzzles that unit propagation settles (complete
# encoding): the MiniSat family counts 2 there, one on variable 0 (PySAT makes MiniSat's variables
# 0..max, and DIMACS never names 0, so it is free) and one that finds nothing left to decide and
# returns the model; tdoku, on MiniSat without the spare variable, subtracts 1. CaDiCaL and Lingeling
# count 0 there. Guesses (tdoku's sense) = decisions - this per model found; tests/test_sat_encodings.py
# checks it per solver. Where search is needed, a backjump past the spare variable makes MiniSat decide
# it again, counted as a guess (an overcount, rare); CaDiCaL settles some such puzzles with no decision
# counted (its lucky-phase and probing passes), so its guesses are a lower bound.
FREE_DECISIONS = {"minisat22": 2, "glucose4": 2, "glucose3": 2, "maplechrono": 2,
                  "cadical195": 0, "cadical153": 0, "lingeling": 0}

OPTIONS = {
    "solver": Option(DEFAULT_SOLVER, "the PySAT solver", BACKENDS),
    "encoding": Option("complete", "the CNF: minimal, natural (+ at most one value per cell), complete "
                       "(exactly one per cell and per unit-value), augmented (units over box-line triads)",
                       ENCODINGS),
    "search": switch(True, "off: unit propagation only, no decision: solved, refuted, or stuck"),
    "probe": switch(False, "failed-literal probing of every open cell-value, to a fixpoint, before search"),
    "incremental": switch(False, "one solver per process and encoding, kept across puzzles, the givens as "
                          "assumptions (learnt clauses carry over, as in tdoku's benchmark)"),
    "sums": Option(DEFAULT_SUMS, "a Killer cage's total as clauses: combinations (a selector per set of values "
                   "it may hold) or a pseudo-Boolean encoding of PySAT's pysat.pb", SUMS),
    "redundant": Option("none", "45: a Killer's innie and outie sums (the 45 rule) over cells that hold different "
                        "values, each as a cage in the sums encoding, beside the cages", REDUNDANT),
}
COUNTERS = ("guesses", "decisions", "conflicts", "propagations", "restarts")
_STATS = COUNTERS[1:]


# -- the model: variables and clauses ------------------------------------------------------------

def variables(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS, redundant: str = "none") -> int:
    """How many variables an encoding has: n^3 cell-values, and for `augmented` a triad a segment and value after
    them (2*n^2*box in classic Sudoku); for a Killer, its cages' auxiliary variables after those (read off its
    clauses: the pseudo-Boolean encoders number their own)."""
    n = lay.side
    houses = n**3 + (len(segments(lay.houses)[0]) * n if encoding == "augmented" else 0)
    if not lay.cages:
        return houses
    return max(houses, top(rules(lay, encoding, sums, redundant)))


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


def rules(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS,
          redundant: str = "none") -> tuple[list[int], ...]:
    """The clauses every puzzle of a layout shares, built once per process (for the last few layouts:
    `kept_rules`): its houses in `encoding`, then, for a Killer, its cages in `sums` (and the 45 rule's sums when
    `redundant` is 45). A layout without cages has one entry whatever `sums` and `redundant` say, however the
    call is written."""
    if not lay.cages:
        sums, redundant = DEFAULT_SUMS, "none"
    return kept_rules(lay, encoding, sums, redundant)


@lru_cache(maxsize=LAYOUTS_KEPT * len(ENCODINGS))
def kept_rules(lay: Layout, encoding: str, sums: str, redundant: str) -> tuple[list[int], ...]:
    """`build_rules`, kept for the last few layouts (a layout drawn for one puzzle, a Jigsaw or a Killer, is
    built afresh by making/ rather than kept: making.solutions.rules_of)."""
    return build_rules(lay, encoding, sums, redundant)


def build_rules(lay: Layout, encoding: str = "complete", sums: str = DEFAULT_SUMS,
                redundant: str = "none") -> tuple[list[int], ...]:
    """A layout's clauses: its houses in `encoding`, its constraints (`constraint_clauses`), then, for a Killer,
    its cages in `sums` (and the 45 rule's sums when `redundant` is 45), their auxiliary variables numbered after
    the houses' (`cage_clauses`)."""
    if lay.cages:
        return (*house_clauses(lay.houses, encoding), *constraint_clauses(lay),
                *cage_clauses(lay, variables(lay.houses, encoding), sums, redundant))
    if lay.constraints:
        return (*house_clauses(lay.houses, encoding), *constraint_clauses(lay))
    return tuple(house_clauses(lay, encoding))


def constraint_clauses(lay: Layout) -> list[list[int]]:
    """The clauses of a layout's constraints, each by its kind's encoder (formulations/constraints/sat.py)."""
    if not lay.constraints:
        return []
    return encode_constraints(lay.constraints, Cnf(lay.side, var, geometry(lay.houses).peers))


def beyond_houses(lay: Layout) -> bool:
    """Whether a layout's rules go beyond its houses (cages, constraints): then they may hold unit clauses, the
    solver's facts (`layout_facts`), and may contradict the houses (a puzzle with no solution, which a solve
    says)."""
    return bool(lay.cages or lay.constraints)


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
    for a, b, crossing in _crossings(geo.units):
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


def _crossings(units: Sequence[Sequence[int]]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every two houses that share two cells or more but not all (unit indices, and their common cells)."""
    found = []
    for a in range(len(units)):
        held = set(units[a])
        for b in range(a + 1, len(units)):
            common = tuple(sorted(c for c in units[b] if c in held))
            if 2 <= len(common) < len(units[a]):
                found.append((a, b, common))
    return found


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
            [*rules(grid.layout, encoding, sums, redundant), *([lit] for lit in givens(grid))])


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
            "cage_clauses": len(rules(lay, encoding, sums, redundant)) - len(rules(houses, encoding))
            - len(constraint_clauses(lay)),
            "cage_variables": variables(lay, encoding, sums, redundant) - variables(houses, encoding)}


# -- the solver: a fresh one per puzzle, or one kept across puzzles ------------------------------

@dataclass
class KeptSolver:
    """A solver kept across puzzles (one per process, solver and encoding, layout), and its last variable.

    A clause meant for one puzzle only is switched on by a selector variable (assumed while that puzzle is
    solved) and retired afterwards, so the solver is left as it was, learnt clauses aside, for the next one.
    """

    sat: Solver
    last: int

    def switchable(self, clause: list[int]) -> int:
        """A new selector s and the clause (not s, or `clause`): `clause` holds while s is assumed."""
        self.last += 1
        self.sat.add_clause([-self.last, *clause])
        return self.last

    def retire(self, selectors: Sequence[int]) -> None:
        self.sat.append_formula([[-s] for s in selectors])


_KEPT: dict[tuple[str, str, Layout, bool, str, str], KeptSolver] = {}


# Each solver's own clause-adding function in PySAT's C module, and where its wrapper keeps the
# solver's handle: handing the rules to it in one C-level loop skips the two Python calls per clause
# of PySAT's append_formula and bootstrap_with (which end in the same function), the larger part of
# a fresh solver's set-up (benchmarks/sat_setup.py). A solver missing here, or a PySAT without these
# names, takes the clauses through append_formula: the same clauses in the same order either way.
_ADD_CLAUSE = {"minisat22": ("minisat22_add_cl", "minisat"), "glucose4": ("glucose41_add_cl", "glucose"),
               "glucose3": ("glucose3_add_cl", "glucose"), "maplechrono": ("maplechrono_add_cl", "maplesat"),
               "cadical153": ("cadical153_add_cl", "cadical"), "cadical195": ("cadical195_add_cl", "cadical")}


def load(sat: Solver, name: str, clauses: Sequence[list[int]], direct: bool = True, caged: bool = False) -> None:
    """Add `clauses` to a solver without a contradiction among them (the rules of a size are satisfiable).

    A Killer's cages may contradict its houses (`caged`: a puzzle with no solution, which a solve then says):
    the solver, inconsistent once a clause makes it so, needs none of the clauses after that one."""
    function, handle = _ADD_CLAUSE.get(name, ("", ""))
    add: Callable[..., bool] | None = getattr(pysolvers, function, None)
    solver = getattr(sat.solver, handle, None)
    if not direct or add is None or solver is None:
        sat.append_formula(clauses)
    elif not all(map(add, repeat(solver), clauses)) and not caged:  # each call: is the formula still consistent
        raise ValueError("the rules contradict themselves")


def deleted(sat: Solver) -> None:
    """PySAT's delete with SIGINT and SIGTERM held: a handler that raised (Ctrl-C, compare.py's and the generator's
    SIGTERM) between the C solver's deletion and PySAT's note of it would leave the solver to be deleted again when
    collected, a crash on the way out."""
    with signals_held():
        sat.delete()


@contextlib.contextmanager
def opened(name: str, **kwargs: Any) -> Iterator[Solver]:
    """`with Solver(name) as sat`, deleted as `deleted` does."""
    sat = Solver(name=name, **kwargs)
    try:
        yield sat
    finally:
        deleted(sat)


def _new_solver(name: str, encoding: str, lay: Layout, sums: str = DEFAULT_SUMS, redundant: str = "none") -> Solver:
    """A solver holding the rules (a Killer's unit clauses aside: `layout_facts`). Decisions place values first
    (phase true on cell-values, and only on them: triads and a cage's auxiliaries are left to the solver), as
    tdoku's MiniSat literals do."""
    sat = Solver(name=name)
    clauses = rules(lay, encoding, sums, redundant)
    if beyond_houses(lay):
        load(sat, name, [clause for clause in clauses if len(clause) > 1], caged=True)
    else:
        load(sat, name, clauses)
    sat.set_phases(range(1, lay.side**3 + 1))
    return sat


def kept(name: str, encoding: str, lay: Layout, search: bool = True, sums: str = DEFAULT_SUMS,
         redundant: str = "none") -> KeptSolver:
    # Propagation alone (search off) gets a solver that never searches: one that had learnt clauses
    # from other puzzles' searches would propagate more than the encoding's clauses do.
    key = (name, encoding, lay, search, sums, redundant)
    if key not in _KEPT:
        layouts = list(dict.fromkeys(k[2] for k in _KEPT))  # in the order they were first kept
        if lay not in layouts and len(layouts) >= LAYOUTS_KEPT:  # the oldest layout's solvers go
            for old in [k for k in _KEPT if k[2] is layouts[0]]:
                deleted(_KEPT.pop(old).sat)
        _KEPT[key] = KeptSolver(_new_solver(name, encoding, lay, sums, redundant),
                          variables(lay, encoding, sums, redundant))
    return _KEPT[key]


def layout_facts(lay: Layout, encoding: str, sums: str, redundant: str) -> list[int]:
    """A Killer's unit clauses (a value in none of a cage's combinations, a one-cell cage's value) and a
    constraint's (a value no value of a linked cell allows), which the formulation's solver takes as facts beside
    the givens rather than as clauses: a solver sets a unit clause's literal before any decision, where propagate()
    does not report it, so the `search=off` grid and probing's settled cell-values would miss it (and probing would
    find it "failed" again each round)."""
    if not beyond_houses(lay):
        return []
    return [clause[0] for clause in rules(lay, encoding, sums, redundant) if len(clause) == 1]


def cage_form(lay: Layout, opts: dict[str, Any]) -> tuple[str, str]:
    """The options `sums` and `redundant` as a layout's rules read them: the defaults for a layout without cages
    (its clauses are the same whatever they say, so it keeps one cache entry and one kept solver)."""
    return (str(opts["sums"]), str(opts["redundant"])) if lay.cages else (DEFAULT_SUMS, "none")


class SatFormulation(Model):
    """One puzzle on a solver: its facts (givens, and cell-values ruled out by probing), its counters.

    On a fresh solver the facts become unit clauses before search; on a kept one they stay
    assumptions, and a blocking clause is switched on by a selector variable that is retired
    afterwards, so that the solver is left as it was, learnt clauses aside, for the next puzzle.
    """

    node_counter = "conflicts"  # a conflict closes a branch

    def __init__(self, grid: Grid, opts: dict[str, Any]) -> None:
        self.grid, self.opts = grid, opts
        self.name, encoding = str(opts["solver"]), str(opts["encoding"])
        lay = grid.layout
        sums, redundant = cage_form(lay, opts)
        self.info: dict[str, object] = {"solver": self.name, "encoding": encoding,
                                        "variables": variables(lay, encoding, sums, redundant),
                                        "clauses": len(rules(lay, encoding, sums, redundant)) + grid.givens}
        if lay.cages:
            self.info.update(cage_sizes(lay, encoding, sums, redundant))
        if lay.constraints:
            self.info["constraint_clauses"] = len(constraint_clauses(lay))
        self.kept = kept(self.name, encoding, lay, bool(opts["search"]), sums, redundant) \
            if opts["incremental"] else None
        self.sat = self.kept.sat if self.kept is not None else _new_solver(self.name, encoding, lay, sums, redundant)
        self.cell_values = grid.geometry.cells * grid.side
        self.facts = [*layout_facts(lay, encoding, sums, redundant), *givens(grid)]
        self.assumptions: list[int] = []
        self.selectors: list[int] = []
        self.base = self._stats()
        self.models = 0
        self.probes = self.failed = 0
        self.searching = False
        self.propagated: Grid | None = None

    def _stats(self) -> dict[str, int]:
        stats = self.sat.accum_stats()
        return {key: int(stats.get(key, 0)) for key in _STATS}

    def effort(self) -> dict[str, int]:
        stats = self._stats()
        counts = {key: stats[key] - self.base[key] for key in _STATS}
        return {"guesses": counts["decisions"] - FREE_DECISIONS[self.name] * self.models, **counts}

    def propagate(self) -> tuple[bool, list[int]]:
        """Unit propagation of the facts alone: (no conflict, every literal it sets)."""
        ok, implied = self.sat.propagate(assumptions=self.facts)
        return bool(ok), list(implied)

    def prepare(self, allowance: Allowance) -> Answer | None:
        """With probe=on, failed-literal probing before search: it may refute the puzzle, or run out of time."""
        if not self.opts["probe"]:
            return None
        stop = self.probe(time.perf_counter() + allowance.seconds)
        self.info.update(probes=self.probes, probe_failed=self.failed)
        if stop == "refuted":
            return NONE
        return Answer(Status.GAVE_UP, stop) if stop else None

    def probe(self, deadline: float) -> str:
        """Failed-literal probing to a fixpoint: a cell-value whose placement propagation refutes is
        ruled out (a new fact), until a round over the open ones rules out nothing.
        "" when done, "refuted" when the facts themselves fail, or GaveUp.TIME."""
        while True:
            ok, implied = self.propagate()
            if not ok:
                return "refuted"
            settled = {abs(lit) for lit in implied}
            ruled_out = False
            for x in range(1, self.cell_values + 1):
                if x in settled:
                    continue
                if time.perf_counter() >= deadline:
                    return GaveUp.TIME
                self.probes += 1
                if not self.sat.propagate(assumptions=[*self.facts, x])[0]:
                    self.failed += 1
                    self.facts.append(-x)
                    ruled_out = True
                    ok, implied = self.propagate()
                    if not ok:
                        return "refuted"
                    settled = {abs(lit) for lit in implied}
            if not ruled_out:
                return ""

    def solve_once(self, allowance: Allowance) -> Answer:
        if not self.opts["search"]:
            return self.propagate_only()
        if not self.searching:  # the facts go in once, before the first search
            self.searching = True
            if self.kept is None:
                self.sat.append_formula([[lit] for lit in self.facts])
            else:
                self.assumptions = list(self.facts)
        answer, reason = _search(self.sat, self.name, time.perf_counter() + allowance.seconds, allowance.nodes,
                                 self.assumptions)
        if answer is None:
            return Answer(Status.GAVE_UP, reason)
        self.models += answer
        return FOUND if answer else NONE

    def propagate_only(self) -> Answer:
        """search=off: unit propagation alone: solved (then forced, so unique), refuted, or stuck."""
        ok, implied = self.propagate()
        if not ok:
            return NONE
        self.info["unassigned"] = self.cell_values - sum(1 for lit in implied if abs(lit) <= self.cell_values)
        self.propagated = decode(self.grid, implied)
        if self.propagated.is_full():
            return Answer(Status.SOLVED, forced=True)
        return Answer(Status.GAVE_UP, GaveUp.INCOMPLETE)

    def read(self) -> Grid:
        return self.propagated if self.propagated is not None else decode(self.grid, self.sat.get_model())

    def exclude(self, solution: Grid) -> None:
        """A blocking clause: some blank cell must take another value (for this puzzle only, on a kept solver)."""
        n = self.grid.side
        clause = [-var(c, solution.values[c], n) for c in self.grid.empty_cells()]
        if self.kept is None:
            self.sat.add_clause(clause)
            return
        selector = self.kept.switchable(clause)
        self.selectors.append(selector)
        self.assumptions.append(selector)

    def close(self) -> None:
        if self.kept is None:
            deleted(self.sat)
        else:
            self.kept.retire(self.selectors)  # this puzzle's blocking clauses


def _search(sat: Solver, name: str, deadline: float, conflict_limit: float,
            assumptions: list[int]) -> tuple[bool | None, str]:
    """One satisfiability call within the budget: (answer, why it stopped if None)."""
    if deadline == float("inf") and conflict_limit == float("inf"):
        return sat.solve(assumptions=assumptions), ""
    used_before = sat.accum_stats().get("conflicts", 0)
    while True:
        left = deadline - time.perf_counter()
        conflicts_left = conflict_limit - (sat.accum_stats().get("conflicts", 0) - used_before)
        if left <= 0:
            return None, GaveUp.TIME
        if conflicts_left <= 0:
            return None, GaveUp.NODES
        timed = left != float("inf")
        slice_ = min(conflicts_left, MAX_COUNT)
        if timed and name in _NO_INTERRUPT:
            slice_ = min(slice_, SLICE_CONFLICTS)
        if slice_ != float("inf"):
            sat.conf_budget(int(slice_))
        else:
            sat.conf_budget(-1)  # no conflict limit on this call
        timer = None
        if timed and name not in _NO_INTERRUPT:
            timer = threading.Timer(min(left, MAX_SECONDS), sat.interrupt)
            timer.start()
        try:
            answer = sat.solve_limited(assumptions=assumptions, expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                sat.clear_interrupt()
        if answer is not None:
            return answer, ""
        if timer is not None:  # interrupted by the clock, or the conflict budget ran out
            return None, GaveUp.TIME if time.perf_counter() >= deadline else GaveUp.NODES


def honours(opts: dict[str, Any], budget: Budget) -> None:
    """OptionError when the chosen solver cannot do what the options ask, or keep to the budget."""
    name = str(opts["solver"])
    if name in _NO_PROPAGATE and (not opts["search"] or opts["probe"]):
        raise OptionError(f"solver={name} cannot propagate without search (PySAT has no propagate for it), "
                          "so neither search=off nor probe=on")
    if name in _ASSUMPTIONS_DECIDED and opts["incremental"]:
        raise OptionError(f"solver={name} counts the givens as decisions when they are assumptions, "
                          "so incremental=on could not tell its guesses")
    if name in _NO_LIMITS and (budget.deadline(0.0) != float("inf") or budget.node_limit != float("inf")):
        raise OptionError(f"solver={name} cannot be stopped by a budget (PySAT has no limited solve for it)")
    if name in _NO_CONFLICT_BUDGET and budget.nodes is not None:
        raise OptionError(f"solver={name} does not keep to a conflict budget, so a node budget cannot bind it")


# -- solve: the model on its solver, driven -------------------------------------------------------

@contract("sat", OPTIONS, honours, cages=True, knows=frozenset(ENCODERS))
def solve(grid: Grid, budget: Budget, solutions: int, opts: dict[str, Any], started: float) -> Outcome:
    """The CNF on a PySAT solver; with solutions=2, again with a blocking clause."""
    return drive(lambda: SatFormulation(grid, opts), grid, budget, solutions, started)


METHOD = Method(solve, "CNF (one Boolean per cell-value, pairwise at-most-one; four encodings) solved by PySAT, "
                "MiniSat by default", describe(OPTIONS), COUNTERS, guess_measure=("guesses", 0))
