"""The constraints as rows of formulations.mip's 0-1 program over x[c][v-1] (cell c holds v).

- anti-knight, anti-king: for each pair of cells and value v, x[a,v] + x[b,v] <= 1;
- non-consecutive: for each pair of neighbours and value v, x[a,v] + x[b,v+1] <= 1 and x[a,v+1] + x[b,v] <= 1:
  each pair of values the constraint's links forbid, one row each, as the difference kinds' rows are;
- thermometer: for each two neighbours a, b along the line, sum(v * x[a,v]) + 1 <= sum(v * x[b,v]) (one row
  on the cells' values, as a Killer cage's sum is one row);
- Killer cage: its sum as one equality, sum over its cells c and values v of v * x[c,v] == total (none for a cage
  without a total), and no value twice, sum over its cells of x[c,v] <= 1 for each value v; with its option
  `redundant=45` the 45 rule's innie and outie sums (puzzles/constraints/innies.py) as equalities of the same shape;
- Kropki dots and XV: support rows, for each cell of the pair and value v, x[a,v] <= the sum of x[b,w] over the
  values w the dot allows beside v (2n rows a dot, tighter than a row per forbidden pair);
- negative: a row x[a,v] + x[b,w] <= 1 for each pair of values an undotted pair may not hold;
- odd and even cells: one row, the sum of x[c,v] over the values of the wrong parity == 0;
- palindrome, clone: the support rows of the dots (x[a,v] <= x[b,v] both ways: the two cells' values equal);
- German whispers: the support rows of the dots, for each two neighbours along the line;
- slow thermometer: the support rows of the dots, for each two cells of the line (a later one holds at least an
  earlier one's value);
- minimum, maximum cells: the support rows of the dots, for the cell and each neighbour compared;
- modular and entropic lines: the support rows of the dots, for each two cells one or two apart along the line.
- nabner line: the support rows of the dots, for each two of its cells.
- renban of k cells: a binary per run of k values, one of them chosen, and each value v held by as many of its cells
  as the chosen runs that hold v (one row a value);
- arrow: one row, the line's values less the circle's number (a pill's digits weighted 10^k) == 0; little killer:
  one row, the diagonal's values == the clue;
- quadruple: for each value listed m times, the sum of its four cells' x[c,v] >= m;
- double arrow: one row, its ends' values less the values between them == 0;
- zipper line: a row a pair around its middle, the pair's values less the middle cell's value (odd length) or a new
  integer variable, the line's total (even length), == 0;
- between and lockout lines: a binary `up` (the first end below the last) and rows on the cells' values relaxed by
  2n where `up` (or its negation) does not hold: each cell between the ends above the lower and below the upper
  (between); the ends at least the value apart, each cell between below the lower end or above the upper one, a
  binary of its own choosing which (lockout).
- row, column and box indexers: x[a,v] <= x[b,p] for each value v, b the cell v names and p the indexer's place;
- region-sum line: one row a segment after the first, its values less the first segment's == 0.
- sandwich, X-sum, skyscraper (a clue outside the grid): the automaton that reads its line, unrolled as a flow of
  one unit through its layers of states, each step a binary tied to the value its cell holds;
- quadruple: for each value listed m times, the sum of its four cells' x[c,v] >= m.

The pairs of values come from the constraint's links (each unordered pair of cells once): for a rule that
forbids pairs, a row a pair is the 0-1 program's own statement, the same shape as its houses' rows. A same value
in two cells of one house is left to the houses' rows.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, cast

from ortools.linear_solver import pywraplp

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
from puzzles.layouts import Layout
from puzzles.options import Option

from . import Encoder, forbidden_pairs, walk


@dataclass(frozen=True)
class MipCells:
    """What an encoder needs of the program: its solver, the variables x[c][v-1], the grid's side, each cell's
    peers (the cells that share a house with it), the puzzle's layout (the 45 rule reads it whole) and a name for
    the constraint's rows (`constraint_3`)."""

    solver: pywraplp.Solver
    x: Sequence[Sequence[pywraplp.Variable]]
    side: int
    peers: Sequence[Sequence[int]]
    layout: Layout
    name: str = ""

    def sum_row(self, cells: Sequence[int], total: int, name: str) -> None:
        """sum over cells c and values v of v * x[c][v] == total: the cells' values sum to total."""
        row = self.solver.Constraint(total, total, name)
        for c in cells:
            for v in range(self.side):
                row.SetCoefficient(self.x[c][v], v + 1)


# states a kind's constraints as rows, the first named after the `first`-th constraint of the puzzle's walk, with
# the options chosen; the facts for the Outcome's info
State = Callable[[Sequence[Constraint], MipCells, int, Mapping[str, Any]], dict[str, object]]


def each(state: Callable[[Constraint, MipCells], None]) -> Encoder[State]:
    """An encoder that states each constraint alone (its rows named `constraint_<its number>`), reads no option
    and tells no fact."""

    def every(rules: Sequence[Constraint], cells: MipCells, first: int, opts: Mapping[str, Any]) -> dict[str, object]:
        for index, rule in enumerate(rules, first):
            state(rule, replace(cells, name=f"constraint_{index}"))
        return {}

    return Encoder(every)


def not_both(rule: Constraint, cells: MipCells) -> None:
    """x[a,v] + x[b,w] <= 1 for each pair of values the links forbid (`forbidden_pairs`)."""
    x = cells.x
    for a, v, b, w in forbidden_pairs(rule, cells.side, cells.peers):
        row = cells.solver.Constraint(-cells.solver.infinity(), 1, f"{cells.name}_{a}_{v}_{b}_{w}")
        row.SetCoefficient(x[a][v - 1], 1)
        row.SetCoefficient(x[b][w - 1], 1)


def rising(rule: Constraint, cells: MipCells) -> None:
    """sum(v * x[b,v]) - sum(v * x[a,v]) >= 1 for each two neighbours a, b along the line."""
    n, x = cells.side, cells.x
    for step, (a, b) in enumerate(pairwise(cast(Thermometer, rule).cells), 1):
        row = cells.solver.Constraint(1, cells.solver.infinity(), f"{cells.name}_step_{step}")
        for v in range(1, n + 1):
            row.SetCoefficient(x[b][v - 1], v)
            row.SetCoefficient(x[a][v - 1], -v)


def supported(rule: Constraint, cells: MipCells) -> None:
    """x[a,v] - sum(x[b,w] for each w the links allow beside v) <= 0, for each link (both ways) and value v."""
    n, x = cells.side, cells.x
    for link in rule.links(n):
        for v in range(1, n + 1):
            row = cells.solver.Constraint(-cells.solver.infinity(), 0, f"{cells.name}_{link.a}_{v}_{link.b}")
            row.SetCoefficient(x[link.a][v - 1], 1)
            for w in range(1, n + 1):
                if not link.forbids[v] >> (w - 1) & 1:
                    row.SetCoefficient(x[link.b][w - 1], -1)


def parity(rule: Constraint, cells: MipCells) -> None:
    """sum(x[c,v] for v of the wrong parity) == 0."""
    cell, wrong = cast(Parity, rule).cell, cast(Parity, rule).wrong(cells.side)
    row = cells.solver.Constraint(0, 0, f"{cells.name}_parity")
    for v in range(1, cells.side + 1):
        if wrong >> (v - 1) & 1:
            row.SetCoefficient(cells.x[cell][v - 1], 1)


def run(rule: Constraint, cells: MipCells) -> None:
    """A renban of k cells: a binary y[a] per run a..a+k-1, one of them 1 (`_start`), and each value v held by as
    many cells as the runs holding v that are chosen (so at most once, and only in the chosen run)."""
    n, x, solver, line = cells.side, cells.x, cells.solver, cast(Renban, rule).cells
    k = len(line)
    starts = [solver.BoolVar(f"{cells.name}_start_{a}") for a in range(1, n - k + 2)]
    one = solver.Constraint(1, 1, f"{cells.name}_start")
    for y in starts:
        one.SetCoefficient(y, 1)
    for v in range(1, n + 1):
        row = solver.Constraint(0, 0, f"{cells.name}_value_{v}")
        for c in line:
            row.SetCoefficient(x[c][v - 1], 1)
        for a, y in enumerate(starts, 1):
            if a <= v <= a + k - 1:
                row.SetCoefficient(y, -1)


def weighted(rule: Constraint, cells: MipCells) -> None:
    """A weighted sum (an arrow: its line's values less its circle's number, 0): sum(weight * v * x[c,v]) == total,
    one row."""
    summed = cast(WeightedSum, rule)
    n = cells.side
    row = cells.solver.Constraint(summed.total(n), summed.total(n), f"{cells.name}_sum")
    for c, w in summed.terms(n):
        for v in range(1, n + 1):
            row.SetCoefficient(cells.x[c][v - 1], w * v)


def along(rule: Constraint, cells: MipCells) -> None:
    """A clue outside the grid (a sandwich, an X-sum, a skyscraper): its automaton (puzzles/constraints/outside.py)
    unrolled along its line as a flow of one unit, a binary f[i, s, v] a step of an accepted run at the i-th cell:
    one step at the first cell (from the start), as many steps out of each state as into it, and each cell holding v
    exactly when the step there reads v (x[c,v] == the sum of its f[i, s, v])."""
    seen, n, solver = cast(Sighted, rule), cells.side, cells.solver
    layers = seen.automaton(n).unrolled(len(seen.cells))
    flows = [{(s, v, t): solver.BoolVar(f"{cells.name}_step_{i}_{s}_{v}_{t}") for s, v, t in steps}
             for i, steps in enumerate(layers)]
    first = solver.Constraint(1, 1, f"{cells.name}_start")
    for f in flows[0].values():
        first.SetCoefficient(f, 1)
    for i in range(1, len(flows)):
        for state in {s for s, _, _ in flows[i]} | {t for _, _, t in flows[i - 1]}:
            row = solver.Constraint(0, 0, f"{cells.name}_state_{i}_{state}")
            for (s, _, _), f in flows[i].items():
                if s == state:
                    row.SetCoefficient(f, 1)
            for (_, _, t), f in flows[i - 1].items():
                if t == state:
                    row.SetCoefficient(f, -1)
    for i, c in enumerate(seen.cells):
        for v in range(1, n + 1):
            row = solver.Constraint(0, 0, f"{cells.name}_cell_{i}_{v}")
            row.SetCoefficient(cells.x[c][v - 1], 1)
            for (_, w, _), f in flows[i].items():
                if w == v:
                    row.SetCoefficient(f, -1)


def listed(rule: Constraint, cells: MipCells) -> None:
    """A quadruple: for each value v listed m times, sum over its four cells of x[c,v] >= m."""
    quad = cast(Quadruple, rule)
    for v in sorted(set(quad.values)):
        row = cells.solver.Constraint(quad.values.count(v), cells.solver.infinity(), f"{cells.name}_value_{v}")
        for c in quad.cells:
            row.SetCoefficient(cells.x[c][v - 1], 1)


def _row(cells: MipCells, terms: Sequence[tuple[int, int]], low: float, name: str,
         relaxed: Sequence[tuple[pywraplp.Variable, bool]] = ()) -> None:
    """sum(weight * value of cell) >= low over (cell, weight) terms, unless one of `relaxed`'s binaries is off (a
    binary and True: the row holds where it is 1; False: where it is 0), by 2n for each (a difference of two values
    is -(n - 1) at least, a row's bound n - 1 at most)."""
    n, solver = cells.side, cells.solver
    big = 2 * n
    row = solver.Constraint(low - big * sum(1 for _, on in relaxed if on), solver.infinity(), name)
    for c, w in terms:
        for v in range(1, n + 1):
            row.SetCoefficient(cells.x[c][v - 1], row.GetCoefficient(cells.x[c][v - 1]) + w * v)
    for y, on in relaxed:
        row.SetCoefficient(y, -big if on else big)


def zipped(rule: Constraint, cells: MipCells) -> None:
    """A zipper line: each pair around its middle sums to its middle cell's value, or on an even line to a new
    integer variable, the total every pair shares (one row a pair)."""
    line, n, solver = cast(ZipperLine, rule), cells.side, cells.solver
    mid = line.middle()
    total = solver.IntVar(2, 2 * n, f"{cells.name}_total") if mid is None else None
    for k, (i, j) in enumerate(line.pairs_of()):
        row = solver.Constraint(0, 0, f"{cells.name}_pair_{k + 1}")
        for c, w in ((line.cells[i], 1), (line.cells[j], 1), *(((line.cells[mid], -1),) if mid is not None else ())):
            for v in range(1, n + 1):
                row.SetCoefficient(cells.x[c][v - 1], row.GetCoefficient(cells.x[c][v - 1]) + w * v)
        if total is not None:
            row.SetCoefficient(total, -1)


def ordered(rule: Constraint, cells: MipCells) -> None:
    """A between or lockout line: a binary `up` (its first end below its last); for each way, rows that hold where
    it does: the ends far enough apart, each cell between them strictly between the ends (between), or below the
    lower end or above the upper one as a binary of its own says (lockout)."""
    line, solver = cast(BetweenLine, rule), cells.solver
    first, last = line.cells[0], line.cells[-1]
    up = solver.BoolVar(f"{cells.name}_up")
    lockout = isinstance(line, Lockout)
    for low, high, on in ((first, last, True), (last, first, False)):
        name = f"{cells.name}_{'up' if on else 'down'}"
        _row(cells, [(high, 1), (low, -1)], cast(Lockout, line).value if lockout else 2, f"{name}_ends", [(up, on)])
        for k, c in enumerate(line.cells[1:-1], 1):
            if not lockout:
                _row(cells, [(c, 1), (low, -1)], 1, f"{name}_{k}_above", [(up, on)])
                _row(cells, [(high, 1), (c, -1)], 1, f"{name}_{k}_below", [(up, on)])
                continue
            below = solver.BoolVar(f"{name}_{k}_side")
            _row(cells, [(low, 1), (c, -1)], 1, f"{name}_{k}_below", [(up, on), (below, True)])
            _row(cells, [(c, 1), (high, -1)], 1, f"{name}_{k}_above", [(up, on), (below, False)])
def equal_sums(rule: Constraint, cells: MipCells) -> None:
    """A region-sum line: sum(v * x[c,v]) over each segment after the first less the same over the first == 0."""
    n = cells.side
    for k, terms in enumerate(cast(RegionSumLine, rule).differences(), 2):
        row = cells.solver.Constraint(0, 0, f"{cells.name}_segment_{k}")
        for c, w in terms:
            for v in range(1, n + 1):
                row.SetCoefficient(cells.x[c][v - 1], w * v)


def indexed(rule: Constraint, cells: MipCells) -> None:
    """An indexer: x[its cell, v] <= x[the cell v names, its place] for each value v."""
    indexer, n = cast(Indexer, rule), cells.side
    place = indexer.place(n)
    for v, c in enumerate(indexer.named(n), 1):
        if c != indexer.cell:
            row = cells.solver.Constraint(-cells.solver.infinity(), 0, f"{cells.name}_value_{v}")
            row.SetCoefficient(cells.x[indexer.cell][v - 1], 1)
            row.SetCoefficient(cells.x[c][place - 1], -1)


def cages(rules: Sequence[Constraint], cells: MipCells, first: int, opts: Mapping[str, Any]) -> dict[str, object]:
    """Every cage's rows (`cage_<i>`): its sum (when it has a total) and at most one cell each value; with
    redundant=45, the 45 rule's derived sums. The facts: how many cages, the option, how many derived sums."""
    n = cells.side
    for index, cage in enumerate(cast(Sequence[Cage], rules)):
        name = f"cage_{index + 1}"
        if cage.total is not None:
            cells.sum_row(cage.cells, cage.total, f"{name}_sum")
        if len(cage.cells) > 1:
            for v in range(n):
                row = cells.solver.Constraint(0, 1, f"{name}_value_{v + 1}")
                for c in cage.cells:
                    row.SetCoefficient(cells.x[c][v], 1)
    facts: dict[str, object] = {"cages": len(rules), "redundant": opts["redundant"]}
    if opts["redundant"] == "45":
        derived = derived_sums(cells.layout)
        for fact in derived:
            area = fact.area.replace(" ", "_").replace("-", "_to_")  # LP names: no spaces, no minus
            cells.sum_row(fact.cells, fact.total, f"{fact.kind}_{area}")
        facts["derived_sums"] = len(derived)
    return facts


# The order of the registry is the order of the program's rows: the cages after the others.
ENCODERS: dict[str, Encoder[State]] = {
    AntiKnight.KIND: each(not_both),
    AntiKing.KIND: each(not_both),
    NonConsecutive.KIND: each(not_both),
    Thermometer.KIND: each(rising),
    Difference.KIND: each(supported),
    Ratio.KIND: each(supported),
    XV.KIND: each(supported),
    Negative.KIND: each(not_both),
    Odd.KIND: each(parity),
    Even.KIND: each(parity),
    Palindrome.KIND: each(supported),
    Whispers.KIND: each(supported),
    SlowThermometer.KIND: each(supported),
    Clone.KIND: each(supported),
    Minimum.KIND: each(supported),
    Maximum.KIND: each(supported),
    ModularLine.KIND: each(supported),
    EntropicLine.KIND: each(supported),
    Nabner.KIND: each(supported),
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
    Sandwich.KIND: each(along),
    XSum.KIND: each(along),
    Skyscraper.KIND: each(along),
    Cage.KIND: Encoder(cages, {
        "redundant": Option("none", "45: also the 45 rule's innie and outie sums of a Killer, as redundant "
                            "equalities", ("none", "45")),
    }),
}


def encode(constraints: Sequence[Constraint], cells: MipCells, opts: Mapping[str, Any] | None = None
           ) -> dict[str, object]:
    """Every constraint's rows, kind by kind in the registry's order, with the options chosen (their defaults when
    not given); the facts the encoders tell. ValueError naming a kind without an encoder."""
    chosen = opts or {}
    facts: dict[str, object] = {}
    stated = 0
    for encoder, rules in walk(ENCODERS, constraints, "the 0-1 program"):
        facts.update(encoder.state(rules, cells, stated + 1, {name: chosen.get(name, option.default)
                                                              for name, option in encoder.options.items()}))
        stated += len(rules)
    return facts
