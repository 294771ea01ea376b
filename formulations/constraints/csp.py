"""The constraints as python-constraint constraint objects over formulations.csp's variables (a cell each, its
value 1..n).

Each rule is one constraint object over every cell it ties (`Linked`), as a house is one AllDifferentConstraint:
it checks the rule's links (each pair of cells and the values one forbids in the other) among the placed cells
and, forward checking, hides from each open cell the values a placed linked cell forbids. Stated pair by pair
(an AllDifferentConstraint or a FunctionConstraint a pair), a rule would skew the package's variable order,
which puts the variables in the most constraints first and looks at domain sizes only among equals: the cells
with the most knight's moves first, the givens after them. On a 9x9 anti-knight puzzle of 14 givens that took
python-constraint 556 s (7.5 million nodes); one object a rule keeps every cell's count even.

- anti-knight, anti-king: one `Linked` over the grid (two cells a move apart differ);
- non-consecutive: one `Linked` over the grid (neighbours never differ by 1);
- thermometer: one `Linked` over its line (a cell d steps after another holds at least d more: every pair of the
  line, so a placed bulb bounds the whole line at once).

The four kinds' statements are the same, the constraint's own relation: python-constraint takes a rule as a
check over its variables, and the links are that check.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import constraint

from puzzles.constraints import AntiKing, AntiKnight, Constraint, NonConsecutive, Thermometer

from . import encoder_of


class Linked(constraint.Constraint):  # type: ignore[misc]  # python-constraint is untyped
    """One rule over the cells its links tie: no placed cell holds a value a placed linked cell forbids."""

    def __init__(self, rule: Constraint, side: int) -> None:
        out: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        for link in rule.links(side):
            out.setdefault(link.a, []).append((link.b, link.forbids))
        self.out = out
        self.cells = sorted({c for a, pairs in out.items() for c in (a, *(b for b, _ in pairs))})

    def __call__(self, variables: Sequence[int], domains: dict[int, Any], assignments: dict[int, int],
                 forwardcheck: Any = False) -> bool:
        for a, pairs in self.out.items():
            v = assignments.get(a)
            if v is None:
                continue
            for b, forbids in pairs:
                forbidden = forbids[v]
                w = assignments.get(b)
                if w is not None:
                    if forbidden >> (w - 1) & 1:
                        return False
                elif forwardcheck:
                    domain = domains[b]
                    for value in [value for value in domain if forbidden >> (value - 1) & 1]:
                        domain.hideValue(value)
                    if not domain:
                        return False
        return True


def linked(rule: Constraint, problem: constraint.Problem, side: int) -> int:
    """The rule as one `Linked` object over its cells; how many objects it added (one)."""
    stated = Linked(rule, side)
    problem.addConstraint(stated, stated.cells)
    return 1


# an encoder adds one constraint's objects to the problem of a grid of this side, and says how many it added
Encoder = Callable[[Constraint, constraint.Problem, int], int]

ENCODERS: dict[str, Encoder] = {
    AntiKnight.KIND: linked,
    AntiKing.KIND: linked,
    NonConsecutive.KIND: linked,
    Thermometer.KIND: linked,
}


def encode(constraints: Sequence[Constraint], problem: constraint.Problem, side: int) -> int:
    """Every constraint's objects, each by its kind's encoder: how many were added; ValueError naming a kind
    without one."""
    added = 0
    for rule in constraints:
        added += encoder_of(ENCODERS, rule, "the CSP")(rule, problem, side)
    return added
