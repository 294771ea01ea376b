"""The constraints as CNF clauses over formulations.cnf's cell-value variables (x(c, v): cell c holds v).

Each encoder returns the clauses of one constraint. A rule that forbids pairs of values (anti-knight, anti-king,
non-consecutive) is stated by its forbidden pairs, as binary clauses (not x(a, v), or not x(b, w)): that is the
natural statement in the direct encoding, what the constraint's links say, and unit propagation on it does what
the engines' links do. A thermometer is stated along its line by support clauses: a cell holding v needs its next
cell above v (not x(a, v), or x(b, v+1), ..., x(b, n)), and its next cell holding w needs it below w. Unit
propagation on these keeps every neighbour pair arc consistent, so the bounds travel the whole line (a bulb of a
line of k cells holds at most n-k+1 before any decision). A cell with no support gets a unit clause (a bulb is
never n): a layout with constraints may hold unit clauses, as a Killer's does, and may contradict its houses.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import cast

from puzzles.constraints import AntiKing, AntiKnight, Constraint, NonConsecutive, Thermometer

from . import encoder_of, forbidden_pairs


@dataclass(frozen=True)
class Cnf:
    """What an encoder needs of the CNF: the grid's side, the variable of a cell-value, and each cell's peers
    (the cells that share a house with it, whose values the houses' clauses keep apart already)."""

    side: int
    var: Callable[[int, int, int], int]  # formulations.cnf's var(cell, value, side)
    peers: Sequence[Sequence[int]]

    def x(self, cell: int, value: int) -> int:
        return self.var(cell, value, self.side)


Encoder = Callable[[Constraint, Cnf], list[list[int]]]


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


ENCODERS: dict[str, Encoder] = {
    AntiKnight.KIND: not_both,
    AntiKing.KIND: not_both,
    NonConsecutive.KIND: not_both,
    Thermometer.KIND: thermometer,
}


def encode(constraints: Sequence[Constraint], cnf: Cnf) -> list[list[int]]:
    """The clauses of every constraint, each by its kind's encoder; ValueError naming a kind without one."""
    clauses: list[list[int]] = []
    for rule in constraints:
        clauses += encoder_of(ENCODERS, rule, "the CNF")(rule, cnf)
    return clauses
