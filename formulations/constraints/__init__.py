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
  checking them (csp.py says why one object, not one a pair);
- Killer cage: each formulation's own statements of a sum and its no-repeat (in the module of its name), with the
  options that choose them (`sums`, `redundant=45`: the 45 rule's derived sums, puzzles/cages.py), declared by the
  cage's encoder.

A pair of cells that already share a house is left out of the difference kinds' statements: the houses say it.
Adding a kind: one encoder in each of these modules, and its line in each registry. A formulation states a
puzzle's constraints by one walk of its registry (`walk`): kind by kind in the registry's order, each kind's
constraints at once in the layout's order (a kind may read them together: the 45 rule reads every cage). An
encoder declares the options it reads (`Encoder.options`); its formulation's method takes them as its own
(`options_of`), and they matter only on a puzzle of that kind (`chosen`). What the registries share (this shape, a
rule's pairs of cells, its forbidden pairs of values) is here.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from puzzles.constraints import Constraint, Link
from puzzles.options import Option

S = TypeVar("S", bound=Callable[..., Any])


@dataclass(frozen=True)
class Encoder(Generic[S]):
    """A kind's encoder in one formulation's registry: `state`, which states the kind's constraints of a puzzle
    (all of them, in the layout's order) into that formulation's model, and the options it reads, which the
    formulation's method accepts as its own."""

    state: S
    options: Mapping[str, Option] = field(default_factory=dict)


E = TypeVar("E", bound=Encoder[Any])


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


def walk(registry: Mapping[str, E], constraints: Sequence[Constraint],
         model: str) -> Iterator[tuple[E, list[Constraint]]]:
    """Each kind the constraints hold, in the registry's order: its encoder and its constraints (in their order);
    ValueError naming a kind the registry has no encoder for, and the model."""
    for rule in constraints:
        if rule.KIND not in registry:
            raise ValueError(f"{model} has no encoder for {rule.KIND} constraints")
    for kind, encoder in registry.items():
        rules = [rule for rule in constraints if kind == rule.KIND]
        if rules:
            yield encoder, rules


def options_of(registry: Mapping[str, Encoder[Any]]) -> dict[str, Option]:
    """Every option the registry's encoders read, in the registry's order: its formulation's method takes them."""
    return {name: option for encoder in registry.values() for name, option in encoder.options.items()}


def chosen(registry: Mapping[str, Encoder[Any]], constraints: Sequence[Constraint],
           options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The options the kinds of these constraints read, as `options` gives them (else their defaults), in the
    registry's order: what their statements depend on. A puzzle without such a kind has none, whatever the options
    say (so its model, its cache entry and its kept solver are the same)."""
    kinds = {rule.KIND for rule in constraints}
    return tuple((name, options.get(name, option.default)) for kind, encoder in registry.items() if kind in kinds
                 for name, option in encoder.options.items())
