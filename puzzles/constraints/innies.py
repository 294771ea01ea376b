"""What a Killer's cages and its houses imply together: the sums the 45 rule derives (the rungs `innies` and
`killer`, and the formulations' `redundant=45`). A cage's own arithmetic, its combinations and its filter, is its
kind's (killer.py); this module reads a whole layout, so the registry does not import it.

The 45 rule: every house holds 1..n once, so its values sum to n(n+1)/2 (45 on a 9x9), and k houses that do
not overlap sum to k times that. Where cages lie wholly inside such an area, the area's other cells (its
*innies*) sum to the area's total less the cages' totals; where cages cover the area and stick out of it, the
cells outside (its *outies*) sum to the cages' totals less the area's. Each such fact is a `DerivedSum`: the
cells and their total, and the area it came from. The areas are every house and the unions of 2 to n-1
consecutive rows or columns; only cages that overlap no other cage take part (overlapping cages would count
a cell twice). A sum is kept when it says something a house or a cage does not: at most n cells, at least one
cage inside the area (innies) and not a cage's own cells. The cells of a derived sum need not be different
(innies of two rows may repeat a value).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..grid import geometry
from ..layouts import Layout
from .killer import Cage, cages_in, combinations_of


@dataclass(frozen=True)
class DerivedSum:
    """Cells whose values sum to `total`, as the 45 rule derives from an area (`area`: `row 3`, `rows 1-3`) and
    the cages inside it (`innies`) or sticking out of it (`outies`)."""

    cells: tuple[int, ...]
    total: int
    area: str
    kind: str  # "innies" or "outies"

    def fillings(self, side: int) -> tuple[int, ...]:
        """The value sets its cells may hold if their values differ (masks: bit v-1 = value v), as a cage's
        combinations: for a sum whose cells see each other (a caller knows the layout's houses)."""
        return combinations_of(side, len(self.cells), self.total)


def areas(lay: Layout) -> list[tuple[str, frozenset[int], int]]:
    """The areas the 45 rule reads: (name, cells, how many houses' worth of values they hold)."""
    geo = geometry(lay.houses)
    n = lay.side
    found = [(name, frozenset(unit), 1) for name, unit in zip(geo.unit_names, geo.units, strict=True)]
    for size in range(2, n):
        for first in range(n - size + 1):
            for word, start in (("rows", 0), ("columns", n)):
                cells = frozenset(c for u in range(start + first, start + first + size) for c in geo.units[u])
                found.append((f"{word} {first + 1}-{first + size}", cells, size))
    return found


@cache
def derived_sums(lay: Layout) -> tuple[DerivedSum, ...]:
    """Every innie and outie sum of the layout's areas, once each (by cells), the cages themselves left out.
    Only cages with a total that overlap no other cage take part."""
    n, cages = lay.side, cages_in(lay.constraints)
    lone = [cage for cage in cages if cage.total is not None
            and not any(other is not cage and set(other.cells) & set(cage.cells) for other in cages)]
    caged = {cell: cage for cage in lone for cell in cage.cells}
    seen = {frozenset(cage.cells) for cage in cages}
    found: list[DerivedSum] = []
    for name, cells, houses in areas(lay):
        total = houses * n * (n + 1) // 2
        inside = [cage for cage in lone if set(cage.cells) <= cells]
        innies = cells - {c for cage in inside for c in cage.cells}
        if inside and 0 < len(innies) <= n and frozenset(innies) not in seen:
            seen.add(frozenset(innies))
            found.append(DerivedSum(tuple(sorted(innies)), total - sum(_total(c) for c in inside), name, "innies"))
        touching = {id(caged[c]): caged[c] for c in cells if c in caged}
        if all(c in caged for c in cells):  # the area is covered: what sticks out sums to the excess
            outies = {c for cage in touching.values() for c in cage.cells} - cells
            if 0 < len(outies) <= n and frozenset(outies) not in seen:
                seen.add(frozenset(outies))
                excess = sum(_total(cage) for cage in touching.values()) - total
                found.append(DerivedSum(tuple(sorted(outies)), excess, name, "outies"))
    return tuple(found)


def _total(cage: Cage) -> int:
    assert cage.total is not None  # only cages with totals take part
    return cage.total
