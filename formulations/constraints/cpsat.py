"""The constraints in a CP-SAT model, on either of formulations.cpsat's models: the integer one (a variable a
cell) or the boolean one (x[c][v-1]: cell c holds v; a cell's value is then the linear sum of v * x[c][v-1]).

- anti-knight, anti-king: the integer model says `a != b` for each pair of cells; the boolean one, for each
  value, not both x[a][v] and x[b][v] (a clause), as it states its houses;
- non-consecutive: the integer model forbids the consecutive pairs of values as a table (domain-consistent); the
  boolean one forbids each pair of values as a clause (x[a][v] and x[b][v+1] not both);
- thermometer: `a < b` for each two neighbours along the line, on the cells' values in either model (CP-SAT
  propagates the bounds along the chain).

The pairs come from the constraint's links (each unordered pair of cells once); a difference between two cells
of one house is left to the houses.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import cast

from ortools.sat.python import cp_model

from puzzles.constraints import AntiKing, AntiKnight, Constraint, NonConsecutive, Thermometer

from . import cell_pairs, encoder_of, forbidden_pairs


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

    def value(self, c: int) -> cp_model.LinearExprT:
        if self.ints is not None:
            return self.ints[c]
        assert self.bools is not None
        return cp_model.LinearExpr.weighted_sum(self.bools[c], range(1, self.side + 1))


Encoder = Callable[[Constraint, CpCells], None]


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


ENCODERS: dict[str, Encoder] = {
    AntiKnight.KIND: differ,
    AntiKing.KIND: differ,
    NonConsecutive.KIND: not_consecutive,
    Thermometer.KIND: rising,
}


def encode(constraints: Sequence[Constraint], cells: CpCells) -> None:
    """Every constraint into the model, each by its kind's encoder; ValueError naming a kind without one."""
    for rule in constraints:
        encoder_of(ENCODERS, rule, "the CP-SAT model")(rule, cells)
