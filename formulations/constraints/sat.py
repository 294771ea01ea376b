"""The constraints as CNF clauses over formulations.cnf's cell-value variables (x(c, v): cell c holds v).

Each encoder returns the clauses of one constraint. A rule that forbids pairs of values (anti-knight, anti-king,
non-consecutive) is stated by its forbidden pairs, as binary clauses (not x(a, v), or not x(b, w)): that is the
natural statement in the direct encoding, what the constraint's links say, and unit propagation on it does what
the engines' links do. A thermometer is stated along its line by support clauses: a cell holding v needs its next
cell above v (not x(a, v), or x(b, v+1), ..., x(b, n)), and its next cell holding w needs it below w. Unit
propagation on these keeps every neighbour pair arc consistent, so the bounds travel the whole line (a bulb of a
line of k cells holds at most n-k+1 before any decision). A cell with no support gets a unit clause (a bulb is
never n): a layout with constraints may hold unit clauses, as a Killer's does, and may contradict its houses.
The option `thermometer=order` states them in the order encoding instead (`thermometers`).

Kropki dots, XV and the negative rule are pairs of neighbours, each pair of values they forbid a binary clause (a
white dot on values 1..9: the 81 - 16 pairs that do not differ by 1). An odd or even cell is a unit clause for each
value of the other parity. A palindrome's two cells the same distance from its ends, and a clone's two counterparts,
hold one value: x(a, v) and x(b, v) imply each other (two binary clauses a value, not the n(n-1) forbidden pairs).
German whispers forbid each pair of values too close along the line, a binary clause each; a slow thermometer each
pair of values that falls along it; a modular or entropic line each pair of values of one class, for each two cells
one or two apart along it; a nabner line each pair of values less than 2 apart, for each two of its cells. A renban
is binary clauses too: no value twice, and no two of its values as far
apart as it is long. An arrow and a little killer are pseudo-Boolean equalities (`weighted`), PySAT's BDD encoding of
each, with its auxiliary variables. A quadruple is clauses: a value listed m times is in one of every 4 - m + 1 of
its cells.

A double arrow is a pseudo-Boolean equality as an arrow is. A between or lockout line is ternary clauses: its ends
holding v and w, no cell between them holds a value the rule forbids it then (not x(a, v), or not x(b, w), or not
x(c, u)), beside the binary clauses that keep the ends apart; a zipper line is clauses over its pairs' sums: a pair
holding v and w implies its total v + w (the middle cell's value, or on an even line a new variable a total, at
most one of them true), and the total and one cell's value imply the other's.

A region-sum line is pseudo-Boolean equalities (`equal_sums`), each segment's sum less the first's equal to 0,
PySAT's BDD encoding of each. A row, column or box indexer is binary clauses: its cell holding v implies the cell v
names holds its place.
A sandwich, an X-sum and a skyscraper (a clue outside the grid) are each the automaton that reads its line from the
clue, unrolled into layers of state variables (`along`): unit propagation on its clauses follows the runs both ways.

A Killer's cages are clauses too (`cages`): no repeat in a cage, and its total in the encoding its option `sums`
names: its combinations (the default) or a pseudo-Boolean encoding of pysat.pb; its option `redundant=45` adds the
45 rule's sums. Their auxiliary variables come after the cell-values and triads (`Cnf.first`); the answer is read
from the cell-values alone. The kinds are stated in the registry's order, the cages last, so that the clauses and
the auxiliaries' numbers stay where the DIMACS export and the records have them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from typing import Any, cast

from puzzles.constraints import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    BoxIndexer,
    Cage,
    Clone,
    ColumnIndexer,
    Constraint,
    Difference,
    DoubleArrow,
    EntropicLine,
    Even,
    LittleKiller,
    Lockout,
    Maximum,
    Minimum,
    ModularLine,
    Nabner,
    Negative,
    NonConsecutive,
    Odd,
    Palindrome,
    PencilMarks,
    Quadruple,
    Ratio,
    RegionSumLine,
    Renban,
    RowIndexer,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whispers,
    XSum,
    ZipperLine,
)
from puzzles.constraints.indexers import Indexer
from puzzles.constraints.innies import derived_sums
from puzzles.constraints.killer import combinations_of
from puzzles.constraints.outside import Sighted
from puzzles.constraints.parity import Parity
from puzzles.constraints.sums import WeightedSum
from puzzles.layouts import Layout
from puzzles.options import Option

from . import Encoder, cell_pairs, forbidden_pairs, walk

# A Killer cage's sum as clauses (`cages`): the project's own, then PySAT's pseudo-Boolean encodings
PB_SUMS = ("bdd", "seqcounter", "sortnetwrk", "adder", "binmerge", "totalizer", "mixedradix", "watchdog")
SUMS = ("combinations", *PB_SUMS)
DEFAULT_SUMS = "combinations"
REDUNDANT = ("none", "45")


@dataclass(frozen=True)
class Cnf:
    """What an encoder needs of the CNF: the grid's side, the variable of a cell-value, each cell's peers (the
    cells that share a house with it, whose values the houses' clauses keep apart already), the last variable
    numbered so far (auxiliary variables come after it) and the puzzle's layout (the 45 rule reads it whole)."""

    side: int
    var: Callable[[int, int, int], int]  # formulations.cnf's var(cell, value, side)
    peers: Sequence[Sequence[int]]
    first: int = 0
    layout: Layout | None = None

    def x(self, cell: int, value: int) -> int:
        return self.var(cell, value, self.side)


# a kind's constraints as clauses, with the options chosen
State = Callable[[Sequence[Constraint], Cnf, Mapping[str, Any]], list[list[int]]]


@dataclass(frozen=True)
class CnfEncoder(Encoder[State]):
    """A kind's clauses; `sized`, the name its own size goes by in the sat method's info (`cage`: the options it
    read, `cage_clauses`, `cage_variables`), or "" for a kind counted with the others (`constraint_clauses`);
    `comment`, its own line in the DIMACS export (given its constraints, the options it read and the variable its
    auxiliaries come after), or None for a kind named with the others."""

    sized: str = ""
    comment: Callable[[Sequence[Constraint], Mapping[str, Any], int], str] | None = None


def each(state: Callable[[Constraint, Cnf], list[list[int]]]) -> CnfEncoder:
    """An encoder that states each constraint alone and reads no option."""

    def every(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
        return [clause for rule in rules for clause in state(rule, cnf)]

    return CnfEncoder(every)


def not_both(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """A binary clause for each pair of values the rule's links forbid (`forbidden_pairs`)."""
    return [[-cnf.x(a, v), -cnf.x(b, w)] for a, v, b, w in forbidden_pairs(rule, cnf.side, cnf.peers)]


def thermometer(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """Support clauses along the line: for each two neighbours a, b (a first), a holding v needs b above v, and b
    holding w needs a below w."""
    n, cells = cnf.side, cast(Thermometer, rule).cells
    clauses: list[list[int]] = []
    for a, b in pairwise(cells):
        for v in range(1, n + 1):
            clauses.append([-cnf.x(a, v), *(cnf.x(b, w) for w in range(v + 1, n + 1))])
        for w in range(1, n + 1):
            clauses.append([-cnf.x(b, w), *(cnf.x(a, v) for v in range(1, w))])
    return clauses


THERMOMETERS = ("support", "order")


def thermometers(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """Thermometers, as the option `thermometer` says: support, each line's support clauses (`thermometer`, no
    auxiliary variable); order, the order encoding beside the direct one: for each cell on a line, y(c, v) says it
    holds v or more (v = 2..n, numbered after `cnf.first`, one set a cell however many lines it is on), tied to the
    cell-values (y(c, v+1) implies y(c, v); x(c, v) is y(c, v) and not y(c, v+1)), and each two neighbours a < b
    one binary clause a value: y(a, v) implies y(b, v+1). Unit propagation on either keeps the bounds travelling
    along the line; the order encoding says it in 2n clauses a pair instead of support clauses of up to n literals."""
    if str(opts["thermometer"]) == "support":
        return [clause for rule in rules for clause in thermometer(rule, cnf)]
    n, x = cnf.side, cnf.x
    on_lines = sorted({c for rule in rules for c in cast(Thermometer, rule).cells})
    first = {cell: cnf.first + k * (n - 1) for k, cell in enumerate(on_lines)}

    def at_least(cell: int, v: int) -> int | None:
        """y(c, v), or None where it is a constant (v <= 1: true; v > n: false)."""
        return None if v <= 1 or v > n else first[cell] + v - 1

    clauses: list[list[int]] = []
    for cell in on_lines:
        for v in range(1, n + 1):
            low, high = at_least(cell, v), at_least(cell, v + 1)
            if low is not None and high is not None:
                clauses.append([-high, low])
            # x(c, v) if and only if y(c, v) and not y(c, v + 1)
            if low is not None:
                clauses.append([-x(cell, v), low])
            if high is not None:
                clauses.append([-x(cell, v), -high])
            clauses.append([x(cell, v), *([-low] if low is not None else []), *([high] if high is not None else [])])
    for rule in rules:
        for a, b in pairwise(cast(Thermometer, rule).cells):
            for v in range(1, n + 1):  # a >= v implies b >= v + 1
                low, high = at_least(a, v), at_least(b, v + 1)
                clauses.append([*([-low] if low is not None else []), *([high] if high is not None else [])])
    return clauses


def same(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """Each pair of the rule holds one value (a palindrome's): x(a, v) and x(b, v) imply each other, two binary
    clauses a value (unit propagation then copies a placement, as the n(n-1) forbidden pairs would)."""
    return [clause for link in cell_pairs(rule, cnf.side) for v in range(1, cnf.side + 1)
            for clause in ([-cnf.x(link.a, v), cnf.x(link.b, v)], [-cnf.x(link.b, v), cnf.x(link.a, v)])]


def parity(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """A unit clause for each value of the wrong parity: the cell does not hold it."""
    cell, wrong = cast(Parity, rule).cell, cast(Parity, rule).wrong(cnf.side)
    return [[-cnf.x(cell, v)] for v in range(1, cnf.side + 1) if wrong >> (v - 1) & 1]


def run(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """A renban of k cells: no value twice (pairwise, for its cells that share no house) and no two of its cells
    holding values k or more apart (not x(a, v), or not x(b, w)): k different values no further apart than k - 1
    are a run."""
    n, line = cnf.side, cast(Renban, rule).cells
    far = [(v, w) for v in range(1, n + 1) for w in range(1, n + 1) if abs(v - w) >= len(line)]
    return [*_no_repeats(line, cnf.x, n, cnf.peers),
            *([-cnf.x(a, v), -cnf.x(b, w)] for a, b in combinations(line, 2) for v, w in far)]


def weighted(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """Weighted sums (an arrow: its line's values less its circle's number, 0), each the pseudo-Boolean equality
    sum over its cells c and values v of weight(c) * v * x(c, v) == total, by PySAT's pysat.pb as a BDD (unit
    propagation on it keeps each sum arc consistent), its auxiliary variables numbered after `cnf.first`."""
    clauses: list[list[int]] = []
    last = cnf.first
    for rule in cast(Sequence[WeightedSum], rules):
        terms = rule.terms(cnf.side)
        made, last = _pb(terms, rule.total(cnf.side), cnf.x, cnf.side, last, "bdd")
        clauses.extend(made)
    return clauses


def equal_sums(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """Region-sum lines: each segment after the first less the first, sum over their cells c and values v of
    weight(c) * v * x(c, v) == 0, by PySAT's pysat.pb as a BDD, its auxiliary variables numbered after
    `cnf.first`."""
    clauses: list[list[int]] = []
    last = cnf.first
    for rule in cast(Sequence[RegionSumLine], rules):
        for terms in rule.differences():
            made, last = _pb(terms, 0, cnf.x, cnf.side, last, "bdd")
            clauses.extend(made)
    return clauses


def along(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """Clues outside the grid (a sandwich, an X-sum, a skyscraper), each its automaton (puzzles/constraints/
    outside.py) unrolled along its line: a variable q(i, s) a state s some accepted run is in before the line's i-th
    cell (numbered after `cnf.first`), the start true; q(i, s) and the cell holding v imply q(i + 1, s') for the step
    (s, v, s'), or are not both true where v is no step of an accepted run; and, for unit propagation to reach back,
    q(i, s) needs one of its steps' values in the cell, the cell's value one of the states it steps from, and
    q(i + 1, s') one of the states that step to it. Only the last position's accepting states exist, so a line is
    accepted exactly when its one run is."""
    clauses: list[list[int]] = []
    last = cnf.first
    for rule in cast(Sequence[Sighted], rules):
        line = rule.cells
        layers = rule.automaton(cnf.side).unrolled(len(line))
        if not layers[0]:  # no line shows the clue: its first cell holds no value (no solution)
            clauses.extend([-cnf.x(line[0], v)] for v in range(1, cnf.side + 1))
            continue
        q: list[dict[int, int]] = []
        for i in range(len(line) + 1):
            states = sorted({s for s, _, _ in layers[i]}) if i < len(line) else sorted({t for _, _, t in layers[-1]})
            q.append({s: last + 1 + k for k, s in enumerate(states)})
            last += len(states)
        clauses.append([q[0][0]])
        for i, (c, steps) in enumerate(zip(line, layers, strict=True)):
            into: dict[int, list[int]] = {}
            by_value: dict[int, list[int]] = {}
            for s, qs in q[i].items():
                ways = {v: t for s2, v, t in steps if s2 == s}
                clauses.append([-qs, *(cnf.x(c, v) for v in sorted(ways))])
                for v in range(1, cnf.side + 1):
                    if v in ways:
                        clauses.append([-qs, -cnf.x(c, v), q[i + 1][ways[v]]])
                        by_value.setdefault(v, []).append(qs)
                        into.setdefault(ways[v], []).append(qs)
                    else:
                        clauses.append([-qs, -cnf.x(c, v)])
            clauses.extend([-cnf.x(c, v), *by_value.get(v, [])] for v in range(1, cnf.side + 1))
            clauses.extend([-qt, *sorted(set(into.get(t, [])))] for t, qt in q[i + 1].items())
    return clauses


def listed(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """A quadruple: each value v listed m times is held by at least m of its four cells, one clause for each
    4 - m + 1 of them (one of these holds v), no auxiliary variable."""
    quad = cast(Quadruple, rule)
    return [[cnf.x(c, v) for c in chosen] for v in sorted(set(quad.values))
            for chosen in combinations(quad.cells, len(quad.cells) - quad.values.count(v) + 1)]


def ordered(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """A between or lockout line: the pairs of end values that break it alone as binary clauses, and for each pair
    that keeps it, each value a cell between them may then not hold as a ternary clause."""
    line, n, x = cast(BetweenLine, rule), cnf.side, cnf.x
    first, last = line.cells[0], line.cells[-1]
    clauses: list[list[int]] = []
    for v in range(1, n + 1):
        for w in range(1, n + 1):
            if not line.ends_apart(v, w):
                clauses.append([-x(first, v), -x(last, w)])
                continue
            room = line.inside(min(v, w), max(v, w), n)
            clauses.extend([-x(first, v), -x(last, w), -x(c, u)] for c in line.cells[1:-1]
                           for u in range(1, n + 1) if not room >> (u - 1) & 1)
    return clauses


def zippers(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """Zipper lines: over each pair (a, b) around the middle, a holding v and b holding w imply the total v + w, and
    the total and a's value imply b's (and b's a's); the total is the middle cell's value on an odd line, a new
    variable a total on an even one (at most one true), numbered after `cnf.first`."""
    n, x = cnf.side, cnf.x
    clauses: list[list[int]] = []
    last = cnf.first
    for line in cast(Sequence[ZipperLine], rules):
        mid = line.middle()
        if mid is not None:
            totals = {t: x(line.cells[mid], t) for t in range(1, n + 1)}
        else:
            totals = {t: last + t - 1 for t in range(2, 2 * n + 1)}
            last += 2 * n - 1
            clauses.extend([-totals[s], -totals[t]] for s in totals for t in totals if s < t)
        for i, j in line.pairs_of():
            a, b = line.cells[i], line.cells[j]
            for v in range(1, n + 1):
                for w in range(1, n + 1):
                    made = totals.get(v + w)
                    clauses.append([-x(a, v), -x(b, w), *([made] if made else [])])
            for t, lit in totals.items():
                for one, other in ((a, b), (b, a)):
                    for v in range(1, n + 1):
                        clauses.append([-lit, -x(one, v), *([x(other, t - v)] if 1 <= t - v <= n else [])])
    return clauses
def indexed(rule: Constraint, cnf: Cnf) -> list[list[int]]:
    """An indexer: for each value v, not x(its cell, v), or x(the cell v names, its place)."""
    indexer, n = cast(Indexer, rule), cnf.side
    place = indexer.place(n)
    return [[-cnf.x(indexer.cell, v), cnf.x(c, place)] for v, c in enumerate(indexer.named(n), 1)
            if c != indexer.cell]


def cages(rules: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any]) -> list[list[int]]:
    """A Killer's cages as clauses, their auxiliary variables numbered after `cnf.first` (the houses' last variable).

    Each cage's values differ: at most one cell of the cage holds each value, pairwise, for the pairs of its
    cells that share no house (a house's clauses already keep those apart). Its total, when it has one, in
    the encoding `sums` names:

    - combinations (the project's own): the cage's value set is one of its combinations (the sets of as many
      different values with that sum, the kind's): no cage cell holds a value in no combination; with one
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

    `redundant=45` adds the 45 rule's derived sums (puzzles/constraints/innies.py) whose cells hold different values
    (any two share a house), each as a cage of its own in the `sums` encoding: implied by the houses and the
    cages, they let unit propagation see a sum across cages. A derived sum whose cells may repeat a value (the
    innies of two rows) is left out: its sum over n values a cell, weights 1..n, is a pseudo-Boolean equality
    without the no-repeat that keeps a cage's small, and those of one 9x9 Killer (84 of its 127 derived sums)
    took 130,000 (adder) to 1.8 million (sortnetwrk) clauses, 430,000 with Pindakaas's own choice.
    """
    n, x = cnf.side, cnf.x
    sums, redundant = str(opts["sums"]), str(opts["redundant"])
    peers = cnf.peers
    clauses: list[list[int]] = []
    last = cnf.first
    for cage in cast(Sequence[Cage], rules):
        clauses.extend(_no_repeats(cage.cells, x, n, peers))
        if cage.total is None:
            continue
        if sums == "combinations":
            made, last = _combinations(cage.cells, cage.combinations(n), x, n, last)
        else:
            made, last = _pb_equal(cage.cells, cage.total, x, n, last, sums)
        clauses.extend(made)
    if redundant == "45":
        assert cnf.layout is not None, "the 45 rule reads the puzzle's layout"
        for derived in derived_sums(cnf.layout):
            if not all(b in peers[a] for a, b in combinations(derived.cells, 2)):
                continue  # its values may repeat: left out (the docstring says what it would cost)
            if sums == "combinations":
                made, last = _combinations(derived.cells, combinations_of(n, len(derived.cells), derived.total), x,
                                           n, last)
            else:
                made, last = _pb_equal(derived.cells, derived.total, x, n, last, sums)
            clauses.extend(made)
    return clauses


def _no_repeats(cells: Sequence[int], x: Callable[[int, int], int], n: int,
                peers: Sequence[Sequence[int]]) -> list[list[int]]:
    """At most one of a cage's cells holds each value: pairwise, for its cells that share no house."""
    apart = [(a, b) for a, b in combinations(cells, 2) if b not in peers[a]]
    return [[-x(a, v), -x(b, v)] for v in range(1, n + 1) for a, b in apart]


def _combinations(cells: Sequence[int], masks: Sequence[int], x: Callable[[int, int], int], n: int,
                  last: int) -> tuple[list[list[int]], int]:
    """A cage's value set is one of `masks` (its combinations): the clauses, and the last variable used (the
    selectors', one a combination when there are several, numbered after `last`)."""
    union = 0
    for mask in masks:
        union |= mask
    values = range(1, n + 1)
    clauses = [[-x(c, v)] for v in values if not union >> (v - 1) & 1 for c in cells]
    if not masks:  # a derived sum no values reach: the cells hold none (the puzzle has no solution)
        return clauses, last
    if len(masks) == 1:
        return clauses + [[x(c, v) for c in cells] for v in values if masks[0] >> (v - 1) & 1], last
    selectors = list(range(last + 1, last + len(masks) + 1))
    clauses.append(selectors)
    for s, mask in zip(selectors, masks, strict=True):
        clauses.extend([-s, *(x(c, v) for c in cells)] for v in values if mask >> (v - 1) & 1)
        clauses.extend([-s, -x(c, v)] for v in values if (union & ~mask) >> (v - 1) & 1 for c in cells)
    return clauses, selectors[-1]


def _pb_equal(cells: Sequence[int], total: int, x: Callable[[int, int], int], n: int, last: int,
              sums: str) -> tuple[list[list[int]], int]:
    """The sum over `cells` and values v of v * x(c, v) equals `total`, in PySAT's pseudo-Boolean encoding
    `sums`: the clauses, and the last variable they use (the encoder's, numbered after `last`)."""
    return _pb([(c, 1) for c in cells], total, x, n, last, sums)


def _pb(terms: Sequence[tuple[int, int]], total: int, x: Callable[[int, int], int], n: int, last: int,
        sums: str) -> tuple[list[list[int]], int]:
    """The sum over (cell, weight) terms and values v of weight * v * x(c, v) equals `total`, in PySAT's
    pseudo-Boolean encoding `sums`: the clauses, and the last variable they use (numbered after `last`)."""
    try:
        from pysat.pb import EncType, PBEnc  # Pindakaas: imported only for a pseudo-Boolean encoding
    except (ImportError, AssertionError) as exc:  # pysat.pb asserts its back end is there
        raise ValueError(f"sums={sums} needs PySAT's pseudo-Boolean encoders: pip install 'python-sat[pb]'") \
            from exc
    lits = [x(c, v) for c, _ in terms for v in range(1, n + 1)]
    weights = [w * v for _, w in terms for v in range(1, n + 1)]
    encoded = PBEnc.equals(lits=lits, weights=weights, bound=total, top_id=last, encoding=getattr(EncType, sums))
    clauses = [list(clause) for clause in encoded.clauses]
    return clauses, max(last, encoded.nv, top(clauses))


def cage_comment(rules: Sequence[Constraint], opts: Mapping[str, Any], first: int) -> str:
    """The DIMACS export's line on a Killer's cages: their sum encoding, and where their auxiliaries start."""
    return (f"Killer: {len(rules)} cages, sums={opts['sums']}; variables above {first} are the cages' auxiliaries "
            "(a combination's selector, or a pseudo-Boolean encoder's own)")


def top(clauses: Iterable[Sequence[int]]) -> int:
    """The highest variable the clauses name."""
    return max((abs(lit) for clause in clauses for lit in clause), default=0)


# The order of the registry is the order of the clauses: the cages last, their auxiliaries after every other's.
ENCODERS: dict[str, CnfEncoder] = {
    AntiKnight.KIND: each(not_both),
    AntiKing.KIND: each(not_both),
    NonConsecutive.KIND: each(not_both),
    Thermometer.KIND: CnfEncoder(thermometers, {
        "thermometer": Option("support", "thermometers: support, each cell's values with their support along the "
                              "line; order, the order encoding (a variable for each cell holding v or more)",
                              THERMOMETERS),
    }),
    Difference.KIND: each(not_both),
    Ratio.KIND: each(not_both),
    XV.KIND: each(not_both),
    Negative.KIND: each(not_both),
    Odd.KIND: each(parity),
    Even.KIND: each(parity),
    Palindrome.KIND: each(same),
    Whispers.KIND: each(not_both),
    SlowThermometer.KIND: each(not_both),
    Clone.KIND: each(same),
    Minimum.KIND: each(not_both),
    Maximum.KIND: each(not_both),
    ModularLine.KIND: each(not_both),
    EntropicLine.KIND: each(not_both),
    Nabner.KIND: each(not_both),
    ZipperLine.KIND: CnfEncoder(zippers),
    DoubleArrow.KIND: CnfEncoder(weighted),
    BetweenLine.KIND: each(ordered),
    Lockout.KIND: each(ordered),
    PencilMarks.KIND: each(parity),
    Renban.KIND: each(run),
    Arrow.KIND: CnfEncoder(weighted),
    Quadruple.KIND: each(listed),
    LittleKiller.KIND: CnfEncoder(weighted),
    RowIndexer.KIND: each(indexed),
    ColumnIndexer.KIND: each(indexed),
    BoxIndexer.KIND: each(indexed),
    RegionSumLine.KIND: CnfEncoder(equal_sums),
    Sandwich.KIND: CnfEncoder(along),
    XSum.KIND: CnfEncoder(along),
    Skyscraper.KIND: CnfEncoder(along),
    Cage.KIND: CnfEncoder(cages, {
        "sums": Option(DEFAULT_SUMS, "a Killer cage's total as clauses: combinations (a selector per set of values "
                       "it may hold) or a pseudo-Boolean encoding of PySAT's pysat.pb", SUMS),
        "redundant": Option("none", "45: a Killer's innie and outie sums (the 45 rule) over cells that hold different "
                            "values, each as a cage in the sums encoding, beside the cages", REDUNDANT),
    }, sized="cage", comment=cage_comment),
}


def encode_kinds(constraints: Sequence[Constraint], cnf: Cnf,
                 opts: Mapping[str, Any] | None = None) -> list[tuple[CnfEncoder, list[list[int]], int]]:
    """The clauses of every constraint, kind by kind in the registry's order, with the options chosen (their
    defaults when not given): each kind's encoder, its clauses and the last variable numbered before them (its
    auxiliaries come after). ValueError naming a kind without an encoder."""
    chosen = opts or {}
    made: list[tuple[CnfEncoder, list[list[int]], int]] = []
    for encoder, rules in walk(ENCODERS, constraints, "the CNF"):
        clauses = encoder.state(rules, cnf, {name: chosen.get(name, option.default)
                                             for name, option in encoder.options.items()})
        made.append((encoder, clauses, cnf.first))
        cnf = replace(cnf, first=max(cnf.first, top(clauses)))
    return made


def encode(constraints: Sequence[Constraint], cnf: Cnf, opts: Mapping[str, Any] | None = None) -> list[list[int]]:
    """The clauses of every constraint, kind by kind in the registry's order (`encode_kinds`)."""
    return [clause for _, clauses, _ in encode_kinds(constraints, cnf, opts) for clause in clauses]
