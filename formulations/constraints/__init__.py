"""The formulations' encoders of the constraints beyond houses and cages (puzzles/constraints/): one registry
by kind for each formulation, `ENCODERS` in the module of its name, a function that adds one constraint to
that formulation's model. What a formulation knows is its registry's keys (`contract(..., knows=...)`): a puzzle
with a kind its registry lacks is not run by it.

- anti-knight, anti-king: CP-SAT `a != b` for each pair (the boolean model: not both x[a,v] and x[b,v]); SAT the
  binary clause (not x(a,v) or not x(b,v)); MIP the row x[a,v] + x[b,v] <= 1;
- non-consecutive: CP-SAT a - b outside {-1, 1} (boolean model: each forbidden pair of values as a clause); SAT
  and MIP each forbidden pair of values (a binary clause, a row <= 1);
- thermometer: along the line, each two neighbours a, b: CP-SAT a < b on the cells' values; SAT support clauses
  (a holding v needs b above v, b holding w needs a below w); MIP sum(v x[a,v]) + 1 <= sum(v x[b,v]);
- python-constraint: each rule one constraint object over its cells, checking the rule's links and forward
  checking them (csp.py says why one object, not one a pair).

A pair of cells that already share a house is left out of the difference kinds' statements: the houses say it.
Adding a kind: one encoder in each of these modules, and its line in each registry. What they share (a rule's
pairs of cells, its forbidden pairs of values, a registry's lookup) is here.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVar

from puzzles.constraints import Constraint, Link

E = TypeVar("E")


def cell_pairs(rule: Constraint, side: int) -> Iterator[Link]:
    """The rule's links, each unordered pair of cells once (the link back states the same pairs of values)."""
    seen: set[tuple[int, int]] = set()
    for link in rule.links(side):
        pair = (min(link.a, link.b), max(link.a, link.b))
        if pair not in seen:
            seen.add(pair)
            yield link


def forbidden_pairs(rule: Constraint, side: int, peers: Sequence[Sequence[int]]) -> Iterator[tuple[int, int, int, int]]:
    """(a, v, b, w): cell a may not hold v while cell b holds w, for each pair of values the rule's links forbid,
    each unordered pair of cells once; a same value in two cells of one house is left to the houses."""
    for link in cell_pairs(rule, side):
        shared = link.b in peers[link.a]
        for v in range(1, side + 1):
            for w in range(1, side + 1):
                if link.forbids[v] >> (w - 1) & 1 and not (shared and v == w):
                    yield link.a, v, link.b, w


def encoder_of(registry: Mapping[str, E], rule: Constraint, model: str) -> E:
    """The registry's encoder of the rule's kind; ValueError naming the kind and the model when it has none."""
    found = registry.get(rule.KIND)
    if found is None:
        raise ValueError(f"{model} has no encoder for {rule.KIND} constraints")
    return found
