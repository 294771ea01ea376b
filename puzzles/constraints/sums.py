"""What the rules that are a weighted sum share (an arrow: its line's values sum to its circle's number; a little
killer: a diagonal's values sum to its clue): the sum over cells c of weight(c) * value(c) equals a total, values
free to repeat (the houses keep what repeats they forbid).

Such a rule is no set of pairs and has no room (which values its empty cells may take depends on where each placed
value is), so it is kept by its filter (`SCOPED`): `narrow` keeps each value that some filling of the other cells,
one value of each one's candidates, brings to the total (generalised arc consistency, by the sums the cells before
and after each one can reach)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from .base import Removal, Scoped


class WeightedSum(Scoped):
    """A rule `sum(weight * value) == total` over distinct cells: a subclass gives `terms` (its cells with their
    weights) and `total`."""

    RELABELS = False  # relabelling the values changes the sums
    TERMS: ClassVar[str] = ""

    def terms(self, side: int) -> tuple[tuple[int, int], ...]:
        """Its cells, each with its weight."""
        raise NotImplementedError

    def total(self, side: int) -> int:
        raise NotImplementedError

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell that no filling of the others (a value from each one's candidates, repeats allowed)
        brings to the total, with the values the other cells lost as the reason; no filling at all: every cell loses
        every value."""
        full = (1 << side) - 1
        terms = self.terms(side)
        domains = [masks[c] for c, _ in terms]
        kept = sum_supports(domains, [w for _, w in terms], self.total(side))
        lost = [(c, full & ~masks[c]) for c, _ in terms if full & ~masks[c]]
        return [Removal(cell, domain & ~keep, by, tuple(c for c in lost if c[0] != cell))
                for (cell, _), domain, keep in zip(terms, domains, kept, strict=True) if domain & ~keep]


def values_in(mask: int) -> list[int]:
    """The values of a mask (bit v - 1 for value v), ascending."""
    found = []
    while mask:
        low = mask & -mask
        mask ^= low
        found.append(low.bit_length())
    return found


def sum_supports(domains: Sequence[int], weights: Sequence[int], total: int) -> list[int]:
    """Per cell (its candidates in `domains`), the values v for which some value of every other cell's candidates
    makes sum(weight * value) equal `total`; all 0 when none does."""
    count = len(domains)
    choices = [values_in(d) for d in domains]
    before: list[set[int]] = [{0}]  # the sums the cells before i reach
    for values, w in zip(choices, weights, strict=True):
        before.append({s + w * v for s in before[-1] for v in values})
    if total not in before[-1]:
        return [0] * count
    after: set[int] = {total}  # what the cells from i on must still make up, for some filling of those after i
    kept = [0] * count
    for i in range(count - 1, -1, -1):
        w, reach = weights[i], before[i]
        for v in choices[i]:
            if any(t - w * v in reach for t in after):
                kept[i] |= 1 << (v - 1)
        after = {t - w * v for t in after for v in choices[i]}
    return kept
