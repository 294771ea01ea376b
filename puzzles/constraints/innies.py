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
(innies of two rows may repeat a value). Across an area's edge the rule reads as innies less outies
(`signed_sums`): the cages with more than half their cells inside counted in, the area's cells they leave less
their cells outside it make the area's total less theirs.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import NamedTuple

from ..grid import geometry, mask_of, values_of
from ..kept import kept
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


class Area(NamedTuple):
    """A part of the grid whose values the 45 rule knows the sum of."""

    name: str  # "row 3", "rows 1-3"
    cells: frozenset[int]
    houses: int  # how many houses' worth of values it holds
    axis: int  # for a band of lines: 0 rows, 1 columns; -1 for a house
    lines: int  # for a band: its lines (bit i: row or column i + 1)


def areas(lay: Layout) -> tuple[Area, ...]:
    """The areas the 45 rule reads: every house, and the unions of 2 to n-1 consecutive rows or columns."""
    return _areas(lay.houses)


@kept()  # the houses' alone: every Killer of a file with the same houses reads the same areas
def _areas(houses: Layout) -> tuple[Area, ...]:
    geo = geometry(houses)
    n = houses.side
    found = [Area(name, frozenset(unit), 1, -1, 0) for name, unit in zip(geo.unit_names, geo.units, strict=True)]
    for size in range(2, n):
        for first in range(n - size + 1):
            for word, axis in (("rows", 0), ("columns", 1)):
                cells = frozenset(c for u in range(first, first + size) for c in geo.units[axis * n + u])
                lines = ((1 << size) - 1) << first
                found.append(Area(f"{word} {first + 1}-{first + size}", cells, size, axis, lines))
    return tuple(found)


@kept()
def derived_sums(lay: Layout) -> tuple[DerivedSum, ...]:
    """Every innie and outie sum of the layout's areas, once each (by cells), the cages themselves left out.
    Only cages with a total that overlap no other cage take part."""
    n, cages = lay.side, _cages(lay)
    lone = [(_mask(cage.cells), len(cage.cells), _total(cage)) for cage in _lone(cages)]  # cells as bits of one int
    caged = reduce(or_, (bits for bits, _, _ in lone), 0)
    seen = {_mask(cage.cells) for cage in cages}
    found: list[DerivedSum] = []
    for area, cells in _masked_areas(lay.houses):
        total = area.houses * n * (n + 1) // 2
        inside, inside_total, reached, reached_total = 0, 0, 0, 0
        for bits, _, cage_total in lone:
            if bits & cells:
                reached, reached_total = reached | bits, reached_total + cage_total
                if not bits & ~cells:
                    inside, inside_total = inside | bits, inside_total + cage_total
        innies = cells & ~inside
        if inside and 0 < innies.bit_count() <= n and innies not in seen:
            seen.add(innies)
            found.append(DerivedSum(_cells(innies), total - inside_total, area.name, "innies"))
        if not cells & ~caged:  # the area is covered: what sticks out sums to the excess
            outies = reached & ~cells
            if 0 < outies.bit_count() <= n and outies not in seen:
                seen.add(outies)
                found.append(DerivedSum(_cells(outies), reached_total - total, area.name, "outies"))
    return tuple(found)


@dataclass(frozen=True)
class Leftover:
    """The 45 rule's counterpart for regions that are not boxes (the law of leftovers): an area of k lines and
    the k regions that lie mostly in it hold the same values, so the area's cells outside those regions
    (`inside`) hold the same values, as many times each, as the regions' cells outside the area (`outside`)."""

    inside: tuple[int, ...]
    outside: tuple[int, ...]
    area: str


@kept()
def leftovers(lay: Layout) -> tuple[Leftover, ...]:
    """The leftovers of every row and column and every union of 2 to n-1 consecutive ones, once each (by its two
    sides): where exactly as many regions as the area has lines lie more than half in it, and fewer than n of its
    cells lie outside them.
    Square boxes have none (a band of box rows is whole boxes; a box holds no more than half a line)."""
    return _leftovers(lay.houses)


@kept()  # the houses' alone, as `_areas`
def _leftovers(houses: Layout) -> tuple[Leftover, ...]:
    n = houses.side
    regions = [frozenset(unit) for unit in geometry(houses).units[2 * n:3 * n]]
    found = []
    seen: set[frozenset[frozenset[int]]] = set()  # a band and the other lines' band give one leftover, sides swapped
    every = _areas(houses)
    for area in (*every[:2 * n], *(band for band in every if band.axis >= 0)):  # the lines, then the bands
        mostly = [region for region in regions if 2 * len(region & area.cells) > n]
        if len(mostly) * n != len(area.cells):
            continue
        covered = frozenset().union(*mostly)
        inside, outside = area.cells - covered, covered - area.cells
        if 0 < len(inside) < n and (sides := frozenset((inside, outside))) not in seen:
            seen.add(sides)
            found.append(Leftover(tuple(sorted(inside)), tuple(sorted(outside)), area.name))
    return tuple(found)


@dataclass(frozen=True)
class SignedSum:
    """Innies less outies: the values of `plus` (an area's cells outside the cages counted in) less those of `minus`
    (those cages' cells outside the area) make `total`, the area's total less the cages'. Values may repeat."""

    plus: tuple[int, ...]
    minus: tuple[int, ...]
    total: int
    area: str

    def counted(self, side: int) -> int:
        """The total when each outie of value v counts n + 1 - v, added (as bounds read it): `total` plus n + 1 an
        outie."""
        return self.total + len(self.minus) * (side + 1)


SIGNED_CELLS = 9  # a signed sum of more cells, or with more than 2 on both sides, bounds too little to keep


@kept()
def signed_sums(lay: Layout) -> tuple[SignedSum, ...]:
    """The 45 rule across an area's edge: the lone cages with more than half their cells in an area (every house,
    band of lines, and the unions of the first 2 to n-1 regions) are counted in; the area's cells they leave (its
    innies) less their cells outside it (its outies) sum to the area's total less theirs. Only where both sides
    hold cells (`derived_sums` has the others), of at most SIGNED_CELLS cells, one side of at most 2."""
    n, lone = lay.side, _lone(_cages(lay))
    cages = [(_mask(cage.cells), len(cage.cells), _total(cage)) for cage in lone]  # cells as bits of one int
    seen: set[tuple[int, int]] = set()
    found: list[SignedSum] = []
    for area, cells in _signed_areas(lay.houses):
        held, taken = 0, 0
        for bits, size, total in cages:
            if 2 * (bits & cells).bit_count() > size:
                held, taken = held | bits, taken + total
        plus, minus = cells & ~held, held & ~cells
        count, fewer = plus.bit_count() + minus.bit_count(), min(plus.bit_count(), minus.bit_count())
        if not plus or not minus or count > SIGNED_CELLS or fewer > 2 or (plus, minus) in seen:
            continue
        seen.add((plus, minus))
        found.append(SignedSum(_cells(plus), _cells(minus), area.houses * n * (n + 1) // 2 - taken, area.name))
    return tuple(found)


@kept()
def bounded_sums(lay: Layout) -> tuple[SignedSum, ...]:
    """Every sum the 45 rule derives, as bounds read them: `derived_sums` (no outies), then `signed_sums`."""
    return (*(SignedSum(known.cells, (), known.total, known.area) for known in derived_sums(lay)), *signed_sums(lay))


@kept()  # the houses' alone, as `_areas`
def _masked_areas(houses: Layout) -> tuple[tuple[Area, int], ...]:
    """The 45 rule's areas, each with its cells as bits of one int."""
    return tuple((area, _mask(area.cells)) for area in _areas(houses))


@kept()  # the houses' alone, as `_areas`
def _signed_areas(houses: Layout) -> tuple[tuple[Area, int], ...]:
    """The areas `signed_sums` reads, each with its cells as bits of one int: the 45 rule's, then the unions of the
    first 2 to n-1 regions."""
    n = houses.side
    regions = geometry(houses).units[2 * n:3 * n]
    unions = [Area(f"regions 1-{k}", frozenset(c for u in regions[:k] for c in u), k, -1, 0) for k in range(2, n)]
    return (*_masked_areas(houses), *((area, _mask(area.cells)) for area in unions))


def _mask(cells: Iterable[int]) -> int:
    return mask_of(c + 1 for c in cells)  # cell c is bit c, as `_cells` reads it


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(v - 1 for v in values_of(mask))  # cell c is bit c: value c + 1 to values_of


def _cages(lay: Layout) -> tuple[Cage, ...]:
    return tuple({id(cage): cage for cage in cages_in(lay.constraints)}.values())


def _lone(cages: tuple[Cage, ...]) -> list[Cage]:
    """The cages with a total that overlap no other cage: only they take part (overlapping cages would count a cell
    twice)."""
    covering = Counter(cell for cage in cages for cell in set(cage.cells))
    return [cage for cage in cages if cage.total is not None and all(covering[c] == 1 for c in cage.cells)]


def _total(cage: Cage) -> int:
    assert cage.total is not None  # only cages with totals take part
    return cage.total
