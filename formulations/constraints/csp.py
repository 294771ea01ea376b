"""The constraints as python-constraint constraint objects over formulations.csp's variables (a cell each, its
value 1..n).

- anti-knight, anti-king: an AllDifferentConstraint over each pair of cells (the package's own, as the houses
  are stated);
- non-consecutive: a FunctionConstraint over each pair of neighbours, |a - b| != 1;
- thermometer: a FunctionConstraint a < b over each two neighbours along the line.

The pairs come from the constraint's links (each unordered pair of cells once); a pair of cells of one house is
left to the houses' AllDifferent. Each is a constraint of two variables, so forward checking prunes the other
cell's domain as soon as one is placed.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import cast

import constraint

from puzzles.constraints import AntiKing, AntiKnight, Constraint, NonConsecutive, Thermometer

# an encoder adds one constraint's objects to the problem (side, each cell's peers) and says how many it added
Encoder = Callable[[Constraint, constraint.Problem, int, Sequence[Sequence[int]]], int]


def _pairs(rule: Constraint, side: int) -> Iterator[tuple[int, int]]:
    """The rule's pairs of cells, each unordered pair once."""
    seen: set[tuple[int, int]] = set()
    for link in rule.links(side):
        pair = (min(link.a, link.b), max(link.a, link.b))
        if pair not in seen:
            seen.add(pair)
            yield pair


def differ(rule: Constraint, problem: constraint.Problem, side: int, peers: Sequence[Sequence[int]]) -> int:
    added = 0
    for a, b in _pairs(rule, side):
        if b not in peers[a]:
            problem.addConstraint(constraint.AllDifferentConstraint(), [a, b])
            added += 1
    return added


def _apart(a: int, b: int) -> bool:
    return abs(a - b) != 1


def not_consecutive(rule: Constraint, problem: constraint.Problem, side: int, peers: Sequence[Sequence[int]]) -> int:
    added = 0
    for a, b in _pairs(rule, side):
        problem.addConstraint(constraint.FunctionConstraint(_apart), [a, b])
        added += 1
    return added


def _below(a: int, b: int) -> bool:
    return a < b


def rising(rule: Constraint, problem: constraint.Problem, side: int, peers: Sequence[Sequence[int]]) -> int:
    added = 0
    for a, b in pairwise(cast(Thermometer, rule).cells):
        problem.addConstraint(constraint.FunctionConstraint(_below), [a, b])
        added += 1
    return added


ENCODERS: dict[str, Encoder] = {
    AntiKnight.KIND: differ,
    AntiKing.KIND: differ,
    NonConsecutive.KIND: not_consecutive,
    Thermometer.KIND: rising,
}


def encode(constraints: Sequence[Constraint], problem: constraint.Problem, side: int,
           peers: Sequence[Sequence[int]]) -> int:
    """Every constraint's objects, each by its kind's encoder: how many were added; ValueError naming a kind
    without one."""
    added = 0
    for rule in constraints:
        found = ENCODERS.get(rule.KIND)
        if found is None:
            raise ValueError(f"the CSP has no encoder for {rule.KIND} constraints")
        added += found(rule, problem, side, peers)
    return added
