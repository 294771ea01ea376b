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

- Kropki dots, XV: one `Linked` over its two cells; negative: one `Linked` over the grid (the undotted pairs);
- odd and even cells: the package's InSetConstraint over the cell (its domain cut to its parity before search);
- palindrome, German whispers, slow thermometer, modular and entropic lines, nabner: one `Linked` over its line; clone:
  one over its two groups; a minimum or maximum cell: one over it and its neighbours.
- row, column and box indexers: one `Linked` over the cell and the cells it may name;
- renban, arrow, quadruple, little killer, region-sum line, zipper line, double arrow, between and lockout lines,
  sandwich, X-sum, skyscraper (the rules of some cells that are no set of pairs): one `Filtered` over its cells, a
  function of them that asks the rule's own filter (`Constraint.allowed`) whether the values assigned leave it a
  filling, and, forward checking, hides what the filter removes from the open cells.

The pairwise kinds' statements are the same, the constraint's own relation: python-constraint takes a rule as a
check over its variables, and the links are that check.

- Killer cage: the package's AllDifferentConstraint over its cells (of two or more) and, when it has a total, its
  ExactSumConstraint (`CageSum`: its bounds prune domains before search and, forward checking, hide the values
  that would overshoot the total).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import constraint

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
from puzzles.constraints.parity import Parity

from . import Encoder, walk


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


class CageSum(constraint.ExactSumConstraint):  # type: ignore[misc]  # python-constraint is untyped
    """The package's ExactSumConstraint, safe where another cage already emptied a domain.

    Its preProcess reads each cell's least and greatest value, which fails on an empty domain (min() of
    nothing): with overlapping cages one cage's pruning can empty a cell another cage then reads. An empty
    domain means no solution, which the package finds itself right after the preprocessing.
    """

    def preProcess(self, variables: Sequence[int], domains: dict[int, Any], constraints: list[Any],
                   vconstraints: dict[int, Any]) -> None:
        if len(variables) == 1:  # a one-cell cage: its domain filtered, the constraint dropped (the base's way)
            constraint.Constraint.preProcess(self, variables, domains, constraints, vconstraints)
        elif all(domains[v] for v in variables):
            super().preProcess(variables, domains, constraints, vconstraints)


class Filtered(constraint.Constraint):  # type: ignore[misc]  # python-constraint is untyped
    """One rule of some cells that is no set of pairs (a renban, an arrow, ...), as a function of its scope: it
    fails when the values assigned leave the rule no filling (`Constraint.unfillable`), and, forward checking,
    hides the values of an unassigned cell its filter removes given those values (`Constraint.allowed`)."""

    def __init__(self, rule: Constraint, side: int) -> None:
        self.rule, self.side = rule, side
        self.cells = list(rule.scope())

    def __call__(self, variables: Sequence[int], domains: dict[int, Any], assignments: dict[int, int],
                 forwardcheck: Any = False) -> bool:
        held = [assignments.get(c, 0) for c in self.cells]
        allowed = self.rule.allowed(held, self.side)
        for c, v, mask in zip(self.cells, held, allowed, strict=True):
            if not mask or (v and not mask >> (v - 1) & 1):
                return False
            if forwardcheck and not v:
                domain = domains[c]
                for value in [value for value in domain if not mask >> (value - 1) & 1]:
                    domain.hideValue(value)
                if not domain:
                    return False
        return True


def filtered(rule: Constraint, problem: constraint.Problem, side: int) -> int:
    """The rule as one `Filtered` object over its scope; how many objects it added (one)."""
    stated = Filtered(rule, side)
    problem.addConstraint(stated, stated.cells)
    return 1


def parity(rule: Constraint, problem: constraint.Problem, side: int) -> int:
    """The cell's values of its parity, an InSetConstraint; how many objects it added (one)."""
    wrong = cast(Parity, rule).wrong(side)
    kept = {v for v in range(1, side + 1) if not wrong >> (v - 1) & 1}
    problem.addConstraint(constraint.InSetConstraint(kept), [cast(Parity, rule).cell])
    return 1


# states a kind's constraints as objects of the problem of a grid of this side, with the options chosen: how many
# objects it added, and the facts for the Outcome's info
State = Callable[[Sequence[Constraint], constraint.Problem, int, Mapping[str, Any]], tuple[int, dict[str, object]]]


def each(state: Callable[[Constraint, constraint.Problem, int], int]) -> Encoder[State]:
    """An encoder that states each constraint alone, reads no option and tells no fact."""

    def every(rules: Sequence[Constraint], problem: constraint.Problem, side: int,
              opts: Mapping[str, Any]) -> tuple[int, dict[str, object]]:
        return sum(state(rule, problem, side) for rule in rules), {}

    return Encoder(every)


def cages(rules: Sequence[Constraint], problem: constraint.Problem, side: int,
          opts: Mapping[str, Any]) -> tuple[int, dict[str, object]]:
    """Each cage's AllDifferent (of two cells or more) and its sum (with a total); the fact: how many cages."""
    added = 0
    for cage in cast(Sequence[Cage], rules):
        if len(cage.cells) > 1:
            problem.addConstraint(constraint.AllDifferentConstraint(), list(cage.cells))
            added += 1
        if cage.total is not None:
            problem.addConstraint(CageSum(cage.total), list(cage.cells))
            added += 1
    return added, {"cages": len(rules)}


# The order of the registry is the order of the problem's objects: the cages after the others.
ENCODERS: dict[str, Encoder[State]] = {
    AntiKnight.KIND: each(linked),
    AntiKing.KIND: each(linked),
    NonConsecutive.KIND: each(linked),
    Thermometer.KIND: each(linked),
    Difference.KIND: each(linked),
    Ratio.KIND: each(linked),
    XV.KIND: each(linked),
    Negative.KIND: each(linked),
    Odd.KIND: each(parity),
    Even.KIND: each(parity),
    Palindrome.KIND: each(linked),
    Whispers.KIND: each(linked),
    SlowThermometer.KIND: each(linked),
    Clone.KIND: each(linked),
    Minimum.KIND: each(linked),
    Maximum.KIND: each(linked),
    ModularLine.KIND: each(linked),
    EntropicLine.KIND: each(linked),
    Nabner.KIND: each(linked),
    ZipperLine.KIND: each(filtered),
    DoubleArrow.KIND: each(filtered),
    BetweenLine.KIND: each(filtered),
    Lockout.KIND: each(filtered),
    PencilMarks.KIND: each(parity),
    Renban.KIND: each(filtered),
    Arrow.KIND: each(filtered),
    Quadruple.KIND: each(filtered),
    LittleKiller.KIND: each(filtered),
    RowIndexer.KIND: each(linked),
    ColumnIndexer.KIND: each(linked),
    BoxIndexer.KIND: each(linked),
    RegionSumLine.KIND: each(filtered),
    Sandwich.KIND: each(filtered),
    XSum.KIND: each(filtered),
    Skyscraper.KIND: each(filtered),
    Cage.KIND: Encoder(cages),
}


def encode(constraints: Sequence[Constraint], problem: constraint.Problem, side: int,
           opts: Mapping[str, Any] | None = None) -> tuple[int, dict[str, object]]:
    """Every constraint's objects, kind by kind in the registry's order, with the options chosen: how many were
    added, and the facts the encoders tell; ValueError naming a kind without an encoder."""
    chosen = opts or {}
    added, facts = 0, dict[str, object]()
    for encoder, rules in walk(ENCODERS, constraints, "the CSP"):
        count, told = encoder.state(rules, problem, side, {name: chosen.get(name, option.default)
                                                           for name, option in encoder.options.items()})
        added, facts = added + count, {**facts, **told}
    return added, facts
