"""The constraints as rows of formulations.mip's 0-1 program over x[c][v-1] (cell c holds v).

- anti-knight, anti-king: for each pair of cells and value v, x[a,v] + x[b,v] <= 1;
- non-consecutive: for each pair of neighbours and value v, x[a,v] + x[b,v+1] <= 1 and x[a,v+1] + x[b,v] <= 1:
  each pair of values the constraint's links forbid, one row each, as the difference kinds' rows are;
- thermometer: for each two neighbours a, b along the line, sum(v * x[a,v]) + 1 <= sum(v * x[b,v]) (one row
  on the cells' values, as a Killer cage's sum is one row).

The pairs of values come from the constraint's links (each unordered pair of cells once): for a rule that
forbids pairs, a row a pair is the 0-1 program's own statement, the same shape as its houses' rows. A same value
in two cells of one house is left to the houses' rows.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import cast

from ortools.linear_solver import pywraplp

from puzzles.constraints import AntiKing, AntiKnight, Constraint, NonConsecutive, Thermometer

from . import encoder_of, forbidden_pairs


@dataclass(frozen=True)
class MipCells:
    """What an encoder needs of the program: its solver, the variables x[c][v-1], the grid's side, each cell's
    peers (the cells that share a house with it) and a name for the constraint's rows (`constraint_3`)."""

    solver: pywraplp.Solver
    x: Sequence[Sequence[pywraplp.Variable]]
    side: int
    peers: Sequence[Sequence[int]]
    name: str


Encoder = Callable[[Constraint, MipCells], None]


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


ENCODERS: dict[str, Encoder] = {
    AntiKnight.KIND: not_both,
    AntiKing.KIND: not_both,
    NonConsecutive.KIND: not_both,
    Thermometer.KIND: rising,
}


def encode(constraints: Sequence[Constraint], solver: pywraplp.Solver, x: Sequence[Sequence[pywraplp.Variable]],
           side: int, peers: Sequence[Sequence[int]]) -> None:
    """Every constraint's rows, each by its kind's encoder; ValueError naming a kind without one."""
    for index, rule in enumerate(constraints, 1):
        encoder_of(ENCODERS, rule, "the 0-1 program")(rule, MipCells(solver, x, side, peers, f"constraint_{index}"))
