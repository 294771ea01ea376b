"""The constraints in a CP-SAT model, on either of formulations.cpsat's models: the integer one (a variable a
cell) or the boolean one (x[c][v-1]: cell c holds v; a cell's value is then the linear sum of v * x[c][v-1]).

- anti-knight, anti-king: the integer model says `a != b` for each pair of cells; the boolean one, for each
  value, not both x[a][v] and x[b][v] (a clause), as it states its houses;
- non-consecutive: the integer model forbids the consecutive pairs of values as a table (domain-consistent); the
  boolean one forbids each pair of values as a clause (x[a][v] and x[b][v+1] not both);
- thermometer: `a < b` for each two neighbours along the line, on the cells' values in either model (CP-SAT
  propagates the bounds along the chain);
- Killer cage, as its option `sums` says: linear, the cage's sum as a linear equality and its cells all different
  (AllDifferent; at most one cell a value in the boolean model); table, its allowed tuples (every ordering of each
  combination of values that reaches its total), one AddAllowedAssignments, as Gecode's Kakuro example states a
  sum; a cage whose tuples would pass TABLE_ROWS, and a cage without a total, is stated as with linear (its
  AllDifferent alone). `redundant=45` adds the 45 rule's innie and outie sums (puzzles/constraints/innies.py) as
  linear equalities the solver could do without;
- Kropki dots and XV (a rule between two neighbours): the integer model says the pair's allowed values as a table
  (AddAllowedAssignments: a white dot's consecutive pairs, an X's pairs summing to 10), domain-consistent; the
  boolean one forbids each other pair of values as a clause;
- negative (the undotted neighbours are no such pair): the integer model forbids each such pair's pairs of values
  as a table (AddForbiddenAssignments), the boolean one as clauses;
- odd and even cells: the integer model keeps the cell's variable in the values of its parity (a domain); the
  boolean one fixes the other values' Booleans false;
- palindrome, clone (pairs of cells holding one value): `a == b` on the integer model, each value's Booleans equal
  on the boolean one;
- German whispers: each two neighbours along the line as a dot's pair, the pairs of values far enough apart as a
  table (integer model; its option `whispers=difference`: |a - b| >= k as two linear inequalities, a Boolean
  choosing which holds), the others forbidden as clauses (boolean model);
- slow thermometer: `a <= b` for each two neighbours along the line, as a thermometer's `a < b`;
- minimum, maximum cells: each neighbour compared as a dot's pair (a table; clauses on the boolean model);
- modular and entropic lines: each two cells one or two apart along the line as a dot's pair (values of
  different classes).
- nabner line: each two of its cells as a dot's pair (values 2 or more apart).
- renban: its cells all different and each between a new variable `low` and `low` + k - 1 (k cells), linear;
- arrow, little killer: one linear equality, the line's values summing to the circle's number (a pill's digits
  weighted 10^k), the diagonal's to its clue;
- row, column and box indexers: the integer model an AddElement, the cells the indexer's values name indexed by
  its value equal to its place (an element of its row, column or region); the boolean one, x[a][v] implies x[b][p]
  for each value v, b the cell v names and p the indexer's place;
- region-sum line: each segment's sum equal to the first's, one linear equality a segment;
- sandwich, X-sum, skyscraper (a clue outside the grid): the automaton that reads its line from the clue
  (puzzles/constraints/outside.py), one AddAutomaton over the line's values; a sandwich, as its option `sandwich`
  says, so or as linear sums under reified Booleans (a Boolean a pair of cells that hold its 1 and its n, exactly one
  true, enforcing the sum of the cells between);
- quadruple: the integer model its four cells' allowed tuples (AddAllowedAssignments, domain-consistent); the boolean
  one, each listed value's count among the four Booleans at least as often as listed;
- double arrow: one linear equality, its ends' values less the values between them summing to 0;
- zipper line: each pair of cells the same distance from its middle summing to its middle cell's value (odd length),
  or to a new variable, the line's total (even length), linear;
- between and lockout lines: a new Boolean `up` (the first end below the last), and, enforced by `up` or by its
  negation, linear inequalities: each cell between its ends above the lower end and below the upper one (between);
  the ends at least the line's value apart, and each cell between them below the lower end or above the upper one,
  as a Boolean of its own says (lockout).

The pairs come from the constraint's links (each unordered pair of cells once); a difference between two cells
of one house is left to the houses.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise, permutations, product
from math import factorial
from typing import Any, cast

from ortools.sat.python import cp_model

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
from puzzles.constraints.outside import Sighted
from puzzles.constraints.parity import Parity
from puzzles.constraints.sums import WeightedSum
from puzzles.grid import values_of
from puzzles.layouts import Layout
from puzzles.options import Option

from . import Encoder, cell_pairs, forbidden_pairs, walk

SUMS = ("linear", "table")
SANDWICHES = ("automaton", "linear")
REDUNDANT = ("none", "45")
# A cage's table holds k! rows for each combination of its k values: a 9-cell cage of a 9x9 (45, one
# combination) would hold 362,880. Beyond this many rows the cage is stated linear, which says the same.
TABLE_ROWS = 50_000


@dataclass(frozen=True)
class CpCells:
    """What an encoder needs of a CP-SAT model: the model, the grid's side, the cells' integer variables (the
    integer model) or their Booleans (`bools[c][v-1]`, the boolean model), and each cell's peers (the cells that
    share a house with it)."""

    model: cp_model.CpModel
    side: int
    ints: Sequence[cp_model.IntVar] | None
    bools: Sequence[Sequence[cp_model.IntVar]] | None
    peers: Sequence[Sequence[int]]
    layout: Layout | None = None  # the puzzle's, for a statement that reads it whole (the 45 rule)

    def value(self, c: int) -> cp_model.LinearExprT:
        if self.ints is not None:
            return self.ints[c]
        assert self.bools is not None
        return cp_model.LinearExpr.weighted_sum(self.bools[c], range(1, self.side + 1))

    def all_different(self, cells: Sequence[int]) -> None:
        """No value twice among `cells`: AllDifferent, or at most one cell a value in the boolean model."""
        if len(cells) < 2:
            return
        if self.ints is not None:
            self.model.add_all_different(self.ints[c] for c in cells)
        else:
            assert self.bools is not None
            for v in range(self.side):
                self.model.add_at_most_one(self.bools[c][v] for c in cells)


# states a kind's constraints into the model with the options chosen; the facts for the Outcome's info
State = Callable[[Sequence[Constraint], CpCells, Mapping[str, Any]], dict[str, object]]


def each(state: Callable[[Constraint, CpCells], None]) -> Encoder[State]:
    """An encoder that states each constraint alone, reads no option and tells no fact."""

    def every(rules: Sequence[Constraint], cells: CpCells, opts: Mapping[str, Any]) -> dict[str, object]:
        for rule in rules:
            state(rule, cells)
        return {}

    return Encoder(every)


def _forbidden_clauses(rule: Constraint, cells: CpCells) -> None:
    """Boolean model: each pair of values the links forbid as a clause (not both: `forbidden_pairs`)."""
    assert cells.bools is not None
    x = cells.bools
    for a, v, b, w in forbidden_pairs(rule, cells.side, cells.peers):
        cells.model.add_bool_or([~x[a][v - 1], ~x[b][w - 1]])


def differ(rule: Constraint, cells: CpCells) -> None:
    """Each pair of the rule holds different values."""
    if cells.ints is None:
        _forbidden_clauses(rule, cells)
        return
    for link in cell_pairs(rule, cells.side):
        if link.b not in cells.peers[link.a]:
            cells.model.add(cells.ints[link.a] != cells.ints[link.b])


def not_consecutive(rule: Constraint, cells: CpCells) -> None:
    """Each pair of the rule holds values that differ by other than 1: on the integer model a table of the pairs it
    forbids, which CP-SAT keeps domain-consistent (a - b outside {-1, 1}, a linear expression in a domain, took 1.7
    times as long at the median on 40 minimal 9x9 puzzles: docs/results/constraints.md)."""
    if cells.ints is None:
        _forbidden_clauses(rule, cells)
        return
    n = cells.side
    consecutive = [(v, v + 1) for v in range(1, n)] + [(v + 1, v) for v in range(1, n)]
    for link in cell_pairs(rule, n):
        cells.model.add_forbidden_assignments([cells.ints[link.a], cells.ints[link.b]], consecutive)


def rising(rule: Constraint, cells: CpCells) -> None:
    """Each cell of the line below the next."""
    line = cast(Thermometer, rule).cells
    for a, b in pairwise(line):
        cells.model.add(cells.value(a) < cells.value(b))


WHISPERS = ("table", "difference")


def whispers(rules: Sequence[Constraint], cells: CpCells, opts: Mapping[str, Any]) -> dict[str, object]:
    """German whispers, as the option `whispers` says: table, each two neighbours' allowed pairs of values
    (AddAllowedAssignments, a dot's statement); difference, |a - b| >= k as two linear inequalities, one enforced
    by a new Boolean and the other by its negation (a rise or a fall), which CP-SAT propagates by bounds. The
    boolean model states each forbidden pair as a clause either way."""
    for rule in cast(Sequence[Whispers], rules):
        if str(opts["whispers"]) == "table" or cells.ints is None:
            related(rule, cells)
            continue
        apart = rule.value or Whispers.default(cells.side)
        for a, b in pairwise(rule.cells):
            rises = cells.model.new_bool_var(f"rise_{a}_{b}")
            cells.model.add(cells.ints[b] - cells.ints[a] >= apart).only_enforce_if(rises)
            cells.model.add(cells.ints[a] - cells.ints[b] >= apart).only_enforce_if(~rises)
    return {}


def not_falling(rule: Constraint, cells: CpCells) -> None:
    """Each cell of the line at most the next (a slow thermometer)."""
    for a, b in pairwise(cast(SlowThermometer, rule).cells):
        cells.model.add(cells.value(a) <= cells.value(b))


def related(rule: Constraint, cells: CpCells) -> None:
    """A pair of neighbours whose values keep a relation (a dot): the pairs of values its links allow, a table."""
    if cells.ints is None:
        _forbidden_clauses(rule, cells)
        return
    n = cells.side
    for link in cell_pairs(rule, n):
        allowed = [(v, w) for v in range(1, n + 1) for w in range(1, n + 1) if not link.forbids[v] >> (w - 1) & 1]
        cells.model.add_allowed_assignments([cells.ints[link.a], cells.ints[link.b]], allowed)


def unrelated(rule: Constraint, cells: CpCells) -> None:
    """Pairs of neighbours whose values may not keep a relation (negative): the pairs of values its links forbid,
    a table for each pair of cells."""
    if cells.ints is None:
        _forbidden_clauses(rule, cells)
        return
    n = cells.side
    for link in cell_pairs(rule, n):
        forbidden = [(v, w) for v in range(1, n + 1) for w in range(1, n + 1) if link.forbids[v] >> (w - 1) & 1]
        if forbidden:
            cells.model.add_forbidden_assignments([cells.ints[link.a], cells.ints[link.b]], forbidden)


def equal(rule: Constraint, cells: CpCells) -> None:
    """Each pair of the rule holds one value (a palindrome's, a clone's): `a == b` on the integer model, each
    value's Booleans equal on the boolean one."""
    for link in cell_pairs(rule, cells.side):
        if cells.ints is not None:
            cells.model.add(cells.ints[link.a] == cells.ints[link.b])
            continue
        assert cells.bools is not None
        for v in range(cells.side):
            cells.model.add(cells.bools[link.a][v] == cells.bools[link.b][v])


def parity(rule: Constraint, cells: CpCells) -> None:
    """The cell holds a value of its parity: its variable's domain, or the other values' Booleans false."""
    cell, n = cast(Parity, rule).cell, cells.side
    wrong = cast(Parity, rule).wrong(n)
    if cells.ints is None:
        assert cells.bools is not None
        for v in range(1, n + 1):
            if wrong >> (v - 1) & 1:
                cells.model.add(cells.bools[cell][v - 1] == 0)
        return
    kept = [v for v in range(1, n + 1) if not wrong >> (v - 1) & 1]
    cells.model.add_linear_expression_in_domain(cells.ints[cell], cp_model.Domain.from_values(kept))


def run(rule: Constraint, cells: CpCells) -> None:
    """A renban: its cells all different, each within `low`..`low` + k - 1 for a new variable `low` (k cells: then
    they hold that whole run)."""
    line, n = cast(Renban, rule).cells, cells.side
    low = cells.model.new_int_var(1, n - len(line) + 1, "")
    cells.all_different(line)
    for c in line:
        cells.model.add(cells.value(c) >= low)
        cells.model.add(cells.value(c) <= low + len(line) - 1)


def weighted(rule: Constraint, cells: CpCells) -> None:
    """A weighted sum (an arrow: the line's values less the circle's number, 0): one linear equality."""
    summed = cast(WeightedSum, rule)
    n = cells.side
    cells.model.add(sum(w * cells.value(c) for c, w in summed.terms(n)) == summed.total(n))


def listed(rule: Constraint, cells: CpCells) -> None:
    """A quadruple: on the integer model, its four cells' allowed tuples (those holding every listed value, as
    often as listed), one AddAllowedAssignments, domain-consistent; on the boolean one (or past TABLE_ROWS tuples),
    each listed value v held by at least as many of its cells as listed, a linear count of the Booleans x[c][v]."""
    quad, n = cast(Quadruple, rule), cells.side
    if cells.ints is not None and n ** len(quad.cells) <= TABLE_ROWS:
        allowed = [held for held in product(range(1, n + 1), repeat=len(quad.cells)) if quad.kept_by(held)]
        cells.model.add_allowed_assignments([cells.ints[c] for c in quad.cells], allowed)
        return
    for v in set(quad.values):
        if cells.bools is not None:
            count: Any = sum(cells.bools[c][v - 1] for c in quad.cells)
        else:
            assert cells.ints is not None
            held = [cells.model.new_bool_var("") for _ in quad.cells]
            for b, c in zip(held, quad.cells, strict=True):
                cells.model.add(cells.ints[c] == v).only_enforce_if(b)
                cells.model.add(cells.ints[c] != v).only_enforce_if(~b)
            count = sum(held)
        cells.model.add(count >= quad.values.count(v))


def zipped(rule: Constraint, cells: CpCells) -> None:
    """A zipper line: each pair around its middle sums to the middle cell's value, or on an even line to a new
    variable, the total every pair shares."""
    line, n = cast(ZipperLine, rule), cells.side
    mid = line.middle()
    total = cells.value(line.cells[mid]) if mid is not None else cells.model.new_int_var(2, 2 * n, "")
    for i, j in line.pairs_of():
        pair: Any = cells.value(line.cells[i])  # (OR-Tools' expression types add up, its stubs' unions do not)
        cells.model.add(pair + cells.value(line.cells[j]) == total)


def ordered(rule: Constraint, cells: CpCells) -> None:
    """A between or lockout line: `up` says its first end is below its last; enforced by it or its negation, the
    ends far enough apart and each cell between them strictly between the ends (between), or below the lower end or
    above the upper one, as a Boolean of its own says (lockout)."""
    line, m = cast(BetweenLine, rule), cells.model
    first: Any = cells.value(line.cells[0])
    last: Any = cells.value(line.cells[-1])
    up = m.new_bool_var("")
    for low, high, lit in ((first, last, up), (last, first, ~up)):
        if isinstance(line, Lockout):
            m.add(high - low >= line.value).only_enforce_if(lit)
        else:
            m.add(high - low >= 2).only_enforce_if(lit)
        for c in line.cells[1:-1]:
            value: Any = cells.value(c)
            if isinstance(line, Lockout):
                below = m.new_bool_var("")
                m.add(value < low).only_enforce_if([lit, below])
                m.add(value > high).only_enforce_if([lit, ~below])
            else:
                m.add(value > low).only_enforce_if(lit)
                m.add(value < high).only_enforce_if(lit)
def equal_sums(rule: Constraint, cells: CpCells) -> None:
    """A region-sum line: each segment after the first sums as the first does, a linear equality each."""
    for terms in cast(RegionSumLine, rule).differences():
        cells.model.add(sum(w * cells.value(c) for c, w in terms) == 0)


def indexed(rule: Constraint, cells: CpCells) -> None:
    """An indexer: the cell its value names holds its place. The integer model: AddElement over the named cells (a
    first entry for no value, never indexed); the boolean one: x[a][v] implies x[named v][place]."""
    indexer, n = cast(Indexer, rule), cells.side
    named, place = indexer.named(n), indexer.place(n)
    if cells.ints is not None:
        cells.model.add_element(cells.ints[indexer.cell], [place, *(cells.ints[c] for c in named)], place)
        return
    assert cells.bools is not None
    x = cells.bools
    for v, c in enumerate(named, 1):
        if c != indexer.cell:
            cells.model.add_implication(x[indexer.cell][v - 1], x[c][place - 1])
def along(rule: Constraint, cells: CpCells) -> None:
    """A clue outside the grid (a sandwich, an X-sum, a skyscraper): its automaton (puzzles/constraints/outside.py)
    over its line's values, one AddAutomaton (on the boolean model, over an integer variable a cell tied to its
    Booleans); a clue no line can show, no solution."""
    seen, n, m = cast(Sighted, rule), cells.side, cells.model
    machine = seen.automaton(n)
    steps = [(s, v + 1, t) for s, row in enumerate(machine.delta) for v, t in enumerate(row) if t >= 0]
    if not machine.final or not steps:
        m.add_bool_or([])
        return
    m.add_automaton([_int_of(cells, c) for c in seen.cells], 0, sorted(machine.final), steps)


def _int_of(cells: CpCells, c: int) -> cp_model.IntVar:
    """Cell c's integer variable: the integer model's, or a new one equal to its Booleans' weighted sum."""
    if cells.ints is not None:
        return cells.ints[c]
    held = cells.model.new_int_var(1, cells.side, "")
    cells.model.add(held == cells.value(c))
    return held


def between(rule: Constraint, cells: CpCells) -> None:
    """A sandwich as linear sums under reified Booleans: a Boolean e[i] a cell holding 1 or n (its value's Booleans,
    or reified on the integer model), one Boolean p[i, j] a pair of cells, exactly one true, which needs both ends to
    hold 1 or n (one 1 and one n: each value once along the line) and enforces the sum of the cells between."""
    seen, n, m = cast(Sandwich, rule), cells.side, cells.model
    line = seen.cells
    ones, tops = [_holds(cells, c, 1) for c in line], [_holds(cells, c, n) for c in line]
    m.add_exactly_one(ones)
    m.add_exactly_one(tops)
    pairs = []
    for i in range(len(line)):
        for j in range(i + 1, len(line)):
            pair = m.new_bool_var("")
            pairs.append(pair)
            m.add_bool_or([ones[i], tops[i]]).only_enforce_if(pair)
            m.add_bool_or([ones[j], tops[j]]).only_enforce_if(pair)
            m.add(sum(cells.value(c) for c in line[i + 1:j]) == seen.value).only_enforce_if(pair)
    m.add_exactly_one(pairs)


def _holds(cells: CpCells, c: int, v: int) -> cp_model.IntVar:
    """A Boolean true exactly when cell c holds v: its own on the boolean model, reified on the integer one."""
    if cells.bools is not None:
        return cells.bools[c][v - 1]
    assert cells.ints is not None
    held = cells.model.new_bool_var("")
    cells.model.add(cells.ints[c] == v).only_enforce_if(held)
    cells.model.add(cells.ints[c] != v).only_enforce_if(~held)
    return held


def sandwiches(rules: Sequence[Constraint], cells: CpCells, opts: Mapping[str, Any]) -> dict[str, object]:
    """Every sandwich as `sandwich` says: automaton (AddAutomaton, `along`) or linear (`between`); the facts: the
    option and how many sandwiches."""
    state = along if opts["sandwich"] == "automaton" else between
    for rule in rules:
        state(rule, cells)
    return {"sandwich": opts["sandwich"], "sandwiches": len(rules)}


def cages(rules: Sequence[Constraint], cells: CpCells, opts: Mapping[str, Any]) -> dict[str, object]:
    """Every cage as `sums` says (linear or table) and, with redundant=45, the 45 rule's derived sums; the facts:
    how many cages, how many stated as tables and their rows, how many derived sums."""
    sums, redundant = str(opts["sums"]), str(opts["redundant"])
    n, m = cells.side, cells.model
    tables = rows = 0
    for cage in cast(Sequence[Cage], rules):
        size = table_rows(n, cage)
        if sums == "table" and cage.total is not None and size <= TABLE_ROWS:
            m.add_allowed_assignments([cells.value(c) for c in cage.cells], allowed_tuples(n, cage))
            tables, rows = tables + 1, rows + size
            continue
        if cage.total is not None:
            m.add(sum(cells.value(c) for c in cage.cells) == cage.total)
        cells.all_different(cage.cells)
    facts: dict[str, object] = {"sums": sums, "redundant": redundant, "cages": len(rules)}
    if sums == "table":
        facts.update(table_cages=tables, table_rows=rows)
    if redundant == "45":
        assert cells.layout is not None, "the 45 rule reads the puzzle's layout"
        derived = derived_sums(cells.layout)
        for fact in derived:
            m.add(sum(cells.value(c) for c in fact.cells) == fact.total)
        facts["derived_sums"] = len(derived)
    return facts


def table_rows(side: int, cage: Cage) -> int:
    """How many rows a cage's table holds: k! orderings of each combination of its k values."""
    return len(cage.combinations(side)) * factorial(len(cage.cells))


def allowed_tuples(side: int, cage: Cage) -> list[tuple[int, ...]]:
    """A cage's allowed tuples, in its cells' order: every ordering of each combination (the kind's)."""
    return [order for mask in cage.combinations(side) for order in permutations(values_of(mask))]


# The order of the registry is the order of the model's statements: the cages after the others.
ENCODERS: dict[str, Encoder[State]] = {
    AntiKnight.KIND: each(differ),
    AntiKing.KIND: each(differ),
    NonConsecutive.KIND: each(not_consecutive),
    Thermometer.KIND: each(rising),
    Difference.KIND: each(related),
    Ratio.KIND: each(related),
    XV.KIND: each(related),
    Negative.KIND: each(unrelated),
    Odd.KIND: each(parity),
    Even.KIND: each(parity),
    Palindrome.KIND: each(equal),
    Whispers.KIND: Encoder(whispers, {
        "whispers": Option("table", "German whispers: table, each two neighbours' allowed pairs; difference, "
                           "|a - b| >= k as two linear inequalities enforced by a Boolean and its negation",
                           WHISPERS),
    }),
    SlowThermometer.KIND: each(not_falling),
    Clone.KIND: each(equal),
    Minimum.KIND: each(related),
    Maximum.KIND: each(related),
    ModularLine.KIND: each(related),
    EntropicLine.KIND: each(related),
    Nabner.KIND: each(related),
    ZipperLine.KIND: each(zipped),
    DoubleArrow.KIND: each(weighted),
    BetweenLine.KIND: each(ordered),
    Lockout.KIND: each(ordered),
    PencilMarks.KIND: each(parity),
    Renban.KIND: each(run),
    Arrow.KIND: each(weighted),
    Quadruple.KIND: each(listed),
    LittleKiller.KIND: each(weighted),
    RowIndexer.KIND: each(indexed),
    ColumnIndexer.KIND: each(indexed),
    BoxIndexer.KIND: each(indexed),
    RegionSumLine.KIND: each(equal_sums),
    Sandwich.KIND: Encoder(sandwiches, {
        "sandwich": Option("automaton", "a sandwich as automaton: its automaton over the line, one AddAutomaton; "
                           "linear: a Boolean a pair of cells holding 1 and n, enforcing the sum between them",
                           SANDWICHES),
    }),
    XSum.KIND: each(along),
    Skyscraper.KIND: each(along),
    Cage.KIND: Encoder(cages, {
        "sums": Option("linear", "a Killer cage as linear: sum == total and AllDifferent; table: its allowed "
                       "tuples (every ordering of each combination)", SUMS),
        "redundant": Option("none", "45: also the 45 rule's innie and outie sums of a Killer, as redundant linear "
                            "constraints", REDUNDANT),
    }),
}


def encode(constraints: Sequence[Constraint], cells: CpCells,
           opts: Mapping[str, Any] | None = None) -> dict[str, object]:
    """Every constraint into the model, kind by kind in the registry's order, with the options chosen (their
    defaults when not given); the facts the encoders tell. ValueError naming a kind without an encoder."""
    chosen = opts or {}
    facts: dict[str, object] = {}
    for encoder, rules in walk(ENCODERS, constraints, "the CP-SAT model"):
        facts.update(encoder.state(rules, cells, {name: chosen.get(name, option.default)
                                                  for name, option in encoder.options.items()}))
    return facts
