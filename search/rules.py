"""The inference rules of the ladder, as pure functions on candidate masks.

A candidate mask is an int: value v is bit v-1, as in puzzles/candidates.py.
Every mask here is at most n <= 25 bits (a cell's values, a unit's cells by
their position in it, a value's places, a group of values): within a machine
word (63 bits), so compiled they are native integers. A grid is a list of its
cells' masks, never one wide int; whole-grid sets of cells are lists of cells, or
`Sight`'s words of 32 cells each.
Nothing here places a value: a rule only says which candidates leave which
cells, and the engine that calls it applies the removals. A cell with one
candidate left is a naked single that has not been written in yet; its value
leaves its peers through the rules below (a naked subset of size 1).

Unit rules look at one unit: a house (a row, a column, a region, or a variant's
diagonal, extra region or disjoint group), n cells that hold every value once. They take the masks of the
unit's empty cells, in any order, and, where it matters, `needed`: the mask of
the values still to place in the unit (by default, the values its cells can
take). They return the candidates each cell loses, one mask per cell in the
same order (0 when it loses nothing), or None for a contradiction: the unit
cannot be completed, whatever the rest of the grid holds.

- `naked_subsets`: k cells whose candidates are k values between them take
  those k values, so the unit's other cells lose them.
- `hidden_subsets`: k values that only k cells can take are in those cells, so
  those cells lose their other candidates.
- `alldiff_filter`: a candidate stays only if some way of giving every cell a
  different value uses it (generalised arc consistency of AllDifferent).

Grid helpers look at a whole grid: `masks` holds one mask per cell, 0 for a
filled cell (so an empty cell with no candidate left is not seen: that dead end
is the engine's first check). They return the removals of one pass as a dict
{cell: mask of candidates it loses}, each rule applied to the masks as given,
never to what another unit of the same pass removed; or None for a
contradiction, including a cell that the removals of two units leave empty.
Units are visited in the geometry's order (rows, columns, regions, then the extra
houses), but as they all read the same masks the removals do not depend on that order. With `needed` per unit (what
the engine's `full & ~used[u]` says), hidden subsets and AllDifferent also catch
a value with no place left and an empty cell with no candidate (a unit then has
fewer cells than values); without it they only see what the cells can take.
The engine applies the removals and repeats until nothing changes; `fixpoint`
does exactly that and is the reference semantics of a rung, listed by `ladder`.

Killer cages (docs/concepts/killer.md) are not houses: a cage's values are
different and sum to its total (when it has one), but it need not hold every
value. Its rules read the cell values too (`values`: one per cell, 0 for a
blank), since a cage's placed values are part of its sum; a blank whose mask is
0 is then seen, and is a contradiction.

- `cage_combinations`: each cage's one filter, the kind's (puzzles/constraints/
  killer.py, `Cage.narrow`): a candidate of a cage's empty cell stays only if
  some set of different values, one for each cell from its candidates, with the
  cage's sum, gives that cell that candidate (generalised arc consistency of
  the sum and AllDifferent together, over the cage's combinations).
- `cage_required`: a value every combination left to a cage holds, with two
  places or more among its empty cells, leaves every cell outside the cage that
  shares a house with each of those places (the cage holds it in one of them).
- `sum_bounds`: cells whose values sum to a total (the 45 rule's innies and
  outies, puzzles/constraints/innies.py's `derived_sums`, and innies less outies,
  `signed_sums`, an outie's candidates mirrored; values may repeat): a candidate
  stays only if the other cells' least and greatest candidates can make up the
  rest of the total (bounds consistency of the sum).
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from puzzles.bits import alldiff_filter as alldiff_filter
from puzzles.bits import bit_index, indices, popcount, required_values, union, zeros
from puzzles.constraints import Constraint
from puzzles.constraints.innies import SignedSum, bounded_sums
from puzzles.grid import Geometry, mask_of, values_of
from puzzles.grid import crossings as crossings  # the geometry's; cdcl reads them here too
from puzzles.kept import kept
from puzzles.layouts import Layout

Removals = dict[int, int]  # cell -> the candidates it loses
GridRule = Callable[[Sequence[int], Geometry], "Removals | None"]
UnitRule = Callable[[list[int], "int | None"], "list[int] | None"]


# -- naked and hidden subsets --------------------------------------------------


def naked_subsets(masks: Sequence[int], max_size: int = 4) -> list[int] | None:
    """k cells of a unit whose candidates are only k values between them will hold
    those values, so every other cell of the unit loses them; for each k from 1 to
    `max_size` (k = 1 is a naked single, whose value leaves the other cells).

    A contradiction when k cells share fewer than k values (k = 1: a cell with no
    candidate), or when a cell would lose every candidate.
    """
    groups = _tight_groups(masks, max_size)
    if groups is None:
        return None
    lost = [0] * len(masks)
    for cells, values in groups:
        for i, mask in enumerate(masks):
            if not cells >> i & 1:
                lost[i] |= mask & values
    return _unless_emptied(masks, lost)


def hidden_subsets(masks: Sequence[int], max_size: int = 4, needed: int | None = None) -> list[int] | None:
    """k values still needed in a unit that only k of its cells can take are in those
    cells, so those cells lose every other candidate; for each k from 1 to `max_size`
    (k = 1 is a hidden single: a value with one place takes it).

    A contradiction when more values are needed than there are cells, when k needed
    values have fewer than k places (k = 1: a value with no place), or when a cell
    would lose every candidate (it is the only place of two values).
    """
    if needed is None:
        needed = union(masks)
    if popcount(needed) > len(masks):
        return None
    values = _bits(needed)
    places = [sum(1 << i for i, mask in enumerate(masks) if mask & value) for value in values]
    groups = _tight_groups(places, max_size)
    if groups is None:
        return None
    lost = [0] * len(masks)
    for group, cells in groups:
        kept = union(value for j, value in enumerate(values) if group >> j & 1)
        for i in indices(cells):
            lost[i] |= masks[i] & ~kept
    return _unless_emptied(masks, lost)


def _tight_groups(sets: Sequence[int], max_size: int) -> list[tuple[int, int]] | None:
    """Every group of k <= max_size of the `sets` whose union has exactly k elements,
    as (the group's indices as a bitmask, the union); None if some group's union has
    fewer than k. Groups grow one set at a time, and a group whose union already has
    more than max_size elements is dropped with every group that contains it."""
    found: list[tuple[int, int]] = []
    small = [i for i, s in enumerate(sets) if popcount(s) <= max_size]
    stack = [(0, 0, 0, 0)]  # (where in `small` to go on from, group, union, group size)
    while stack:
        start, group, union, k = stack.pop()
        for j in range(start, len(small)):
            i = small[j]
            grown = union | sets[i]
            size = popcount(grown)
            if size > max_size:
                continue
            if size <= k:
                return None  # k+1 sets with at most k elements between them
            if size == k + 1:
                found.append((group | 1 << i, grown))
            if k + 1 < max_size:
                stack.append((j + 1, group | 1 << i, grown, k + 1))
    return found


# -- AllDifferent: Régin's filtering -------------------------------------------


# -- whole grids ---------------------------------------------------------------


def naked_subsets_in_units(masks: Sequence[int], geo: Geometry, max_size: int = 4) -> Removals | None:
    """`naked_subsets` in every unit (one pass)."""
    return in_every_unit(masks, geo, lambda unit, _needed: naked_subsets(unit, max_size), None)


def hidden_subsets_in_units(
    masks: Sequence[int], geo: Geometry, needed: Sequence[int] | None = None, max_size: int = 4
) -> Removals | None:
    """`hidden_subsets` in every unit (one pass); `needed[u]` is what unit u still needs
    (the full mask minus the unit's placed values), by default what its cells can take."""
    return in_every_unit(masks, geo, lambda unit, need: hidden_subsets(unit, max_size, need), needed)


def alldiff_in_units(masks: Sequence[int], geo: Geometry, needed: Sequence[int] | None = None) -> Removals | None:
    """`alldiff_filter` in every unit (one pass); `needed` as for `hidden_subsets_in_units`."""
    return in_every_unit(masks, geo, alldiff_filter, needed)


def in_every_unit(
    masks: Sequence[int], geo: Geometry, rule: UnitRule, needed: Sequence[int] | None,
    units: Iterable[int] | None = None,
) -> Removals | None:
    """What `rule` removes in each unit, all units reading the same masks, merged (the grid
    helpers above are this with their unit rule; an engine may pass its own, e.g. memoised).
    `units`: only these (indices into geo.units), e.g. those whose masks changed since the
    rule last removed nothing anywhere: a unit rule reads its own unit's masks alone."""
    removed: Removals = {}
    for u in range(len(geo.units)) if units is None else units:
        cells = [cell for cell in geo.units[u] if masks[cell]]
        lost = rule([masks[cell] for cell in cells], None if needed is None else needed[u])
        if lost is None:
            return None
        _removing(cells, lost, removed)
    return _unless_emptied_cells(masks, removed)


def _removing(cells: Sequence[int], lost: Sequence[int], removed: Removals) -> None:
    """Each cell's lost values (a mask, in the cells' order) added to what is removed."""
    for cell, mask in zip(cells, lost, strict=True):
        if mask:
            removed[cell] = removed.get(cell, 0) | mask


def locked_candidates(masks: Sequence[int], geo: Geometry, units: Collection[int] | None = None) -> Removals | None:
    """Locked candidates, in every crossing of two houses (one pass): a value whose places in one house
    all lie in the crossing will be there, so it leaves the rest of the other house. Of a line and a box:
    pointing (the value's places in the box lie in one line: it leaves the rest of the line) and claiming
    (its places in the line lie in one box: it leaves the rest of the box).

    A contradiction when a cell would lose every candidate. A value with no place
    in a house says nothing here (the singles and subsets rules catch it).
    `units`: only the crossings of these houses (indices into geo.units), e.g.
    those whose masks changed since the rule last removed nothing anywhere: what a crossing
    removes depends on the masks of its two houses alone.
    """
    t = crossings(geo)
    looked: Iterable[int] = range(len(t.cells)) if units is None else sorted({s for u in units for s in t.of_unit[u]})
    removed: Removals = {}
    for s in looked:
        inside = union([masks[cell] for cell in t.cells[s]])
        in_first = inside & union([masks[cell] for cell in t.first_rest[s]])  # also outside, in the first
        in_second = inside & union([masks[cell] for cell in t.second_rest[s]])
        pointing = in_first & ~in_second  # locked in the second house: leaves the rest of the first
        claiming = in_second & ~in_first
        if pointing:
            _lose(masks, t.first_rest[s], pointing, removed)
        if claiming:
            _lose(masks, t.second_rest[s], claiming, removed)
    return _unless_emptied_cells(masks, removed)


def _lose(masks: Sequence[int], cells: Sequence[int], values: int, removed: Removals) -> None:
    for cell in cells:
        gone = masks[cell] & values
        if gone:
            removed[cell] = removed.get(cell, 0) | gone


# -- Killer cages: combinations and the 45 rule -----------------------------------


def sum_bounds(masks: Sequence[int], total: int) -> list[int] | None:
    """Cells whose values sum to `total` (values may repeat): a candidate v of a cell leaves when the other
    cells' candidates cannot make up total - v: it is less than the sum of their least candidates, or more than
    the sum of their greatest.

    A contradiction when `total` itself lies outside the least and greatest sums (no cell: when it is not 0).
    """
    least = [(mask & -mask).bit_length() for mask in masks]
    greatest = [mask.bit_length() for mask in masks]
    low, high = sum(least), sum(greatest)
    if not low <= total <= high:
        return None
    lost = []
    for mask, a, b in zip(masks, least, greatest, strict=True):
        smallest = total - (high - b)  # what the cell must hold at least, the others at their greatest
        largest = total - (low - a)  # and at most, the others at their least
        allowed = _between(smallest, largest)
        lost.append(mask & ~allowed)
    return lost


SAID_LIMIT = 50_000  # cages remembered (then forgotten at once), as inference.py's MEMO_LIMIT


def _between(low: int, high: int) -> int:
    """The mask of the values low..high (those of 1..25 among them)."""
    low, high = max(low, 1), min(high, 25)
    return 0 if low > high else ((1 << high) - 1) & ~((1 << (low - 1)) - 1)


Said = dict[tuple[int, ...], "list[int] | None"]  # what a group rule said of a group's masks, remembered


def cage_combinations(masks: Sequence[int], geo: Geometry, values: Sequence[int],
                      cages: Iterable[int] | None = None, said: Said | None = None) -> Removals | None:
    """Each cage's filter (puzzles/constraints/killer.py's `Cage.narrow`: a candidate of an empty cell stays only
    if some filling of the cage gives it) in every cage of the layout (one pass), each reading its cells' masks and
    the values placed in it; `cages`: only these (indices into the layout's cages). A contradiction when a cage
    has no filling, holds a value twice, or has an empty cell with no candidate. `said`: what the filter said of
    each cage's masks and placed values, remembered (it depends on nothing else), for an engine to pass."""
    roomed = rooms(geo.layout)
    removed: Removals = {}
    seen: list[int] = []  # the masks the filter reads: a placed cell its value's bit (made when first needed)
    for k in range(len(roomed)) if cages is None else cages:
        cage = roomed[k]
        cells = cage.scope()
        empty = [cell for cell in cells if not values[cell]]
        used = 0
        for cell in cells:
            if values[cell]:
                used |= 1 << (values[cell] - 1)
        if popcount(used) + len(empty) != len(cells) or any(not masks[cell] for cell in empty):
            return None
        free = [masks[cell] & ~used for cell in empty]  # a value placed in the cage is in none of its other cells
        key = (k, used, *free)
        if said is not None and key in said:
            lost = said[key]
        else:
            if not seen:
                seen = [1 << (v - 1) if v else m for v, m in zip(values, masks, strict=True)]
            lost = _cage_lost(cage, seen, empty, free, geo.side)
            if said is not None:
                if len(said) >= SAID_LIMIT:
                    said.clear()
                said[key] = lost
        if lost is None:
            return None
        for cell, mask, gone in zip(empty, free, lost, strict=True):
            gone = masks[cell] & ~(mask & ~gone)
            if gone:
                removed[cell] = removed.get(cell, 0) | gone
    return _unless_emptied_cells(masks, removed)


def _cage_lost(cage: Constraint, seen: list[int], empty: Sequence[int], free: Sequence[int],
               side: int) -> list[int] | None:
    """What the cage's filter removes from each of its empty cells (`free`: their candidates, in `empty`'s order;
    `seen`: every cell's mask, a placed cell its value's bit, restored as it was); None when it finds no filling."""
    if not all(free):
        return None
    kept = [seen[cell] for cell in empty]
    for cell, mask in zip(empty, free, strict=True):
        seen[cell] = mask
    lost: list[int] | None = [0] * len(empty)
    place = {cell: i for i, cell in enumerate(empty)}
    for removal in cage.narrow(seen, side):
        i = place.get(removal.cell, -1)
        if i < 0 or removal.mask & seen[removal.cell] == seen[removal.cell]:
            lost = None  # a placed value no filling keeps, or an empty cell left with nothing: no filling
            break
        assert lost is not None
        lost[i] |= removal.mask
    for cell, mask in zip(empty, kept, strict=True):
        seen[cell] = mask
    return lost


def cage_required(masks: Sequence[int], geo: Geometry, values: Sequence[int],
                  cages: Iterable[int] | None = None, said: Said | None = None) -> Removals | None:
    """A value every filling of a cage holds (puzzles/bits `required_values`: common to every combination within
    the values its cells can hold and hold), placed in none of its cells and with two places or more among them,
    leaves every cell outside the cage that shares a house with each of those places (one pass, each cage reading
    the masks as given; cdcl's looks make the same deduction, search/learning.py `KillerCages.point`); `cages` as
    for `cage_combinations`. Nothing from a cage without combinations (any different values). (`said` is not
    read: remembering cost more than it saved; it is there to match `cage_combinations`.)"""
    roomed = rooms(geo.layout)
    n, seen = geo.side, sight(geo)
    removed: Removals = {}
    for k in range(len(roomed)) if cages is None else cages:
        fillings = roomed[k].fillings(n)
        if fillings is None:
            continue
        cells = roomed[k].scope()
        available = used = 0
        for cell in cells:
            if values[cell]:
                used |= 1 << (values[cell] - 1)
            else:
                available |= masks[cell]
        required = required_values(available | used, vec[i64](fillings)) & ~used
        while required:
            low = required & -required
            required ^= low
            places = vec[i64]([cell for cell in cells if not values[cell] and masks[cell] & low])
            if len(places) < 2:
                continue  # one place: the cage's filter leaves it that value alone; none: no filling
            for cell in seen.seeing_each(places, seen.within(cells)):
                if masks[cell] & low:
                    removed[cell] = removed.get(cell, 0) | low
    return _unless_emptied_cells(masks, removed)


WORD: Final = 32  # the cells a word of a `Sight` holds (bit_index reads 32 bits)
FULL_WORD: Final = (1 << WORD) - 1


class Sight:
    """Per cell, the cells that share a house with it (the geometry's peers) as a set of cells in words: cell c is
    bit c % WORD of word c // WORD. The cells that see each of a few places are then their words ANDed
    (`seeing_each`): some hundreds of instructions, where intersecting sets of Python ints took some 24,000."""

    def __init__(self, peers: Sequence[Sequence[int]]) -> None:
        self.words: i64 = (len(peers) + WORD - 1) // WORD
        self.bits = zeros(len(peers) * self.words)  # cell c's words from c * words
        for cell in range(len(peers)):
            words = self.within(peers[cell])
            for w in range(self.words):
                self.bits[cell * self.words + w] = words[w]

    def within(self, cells: Iterable[int]) -> vec[i64]:
        """A set of cells in words."""
        words = zeros(self.words)
        for cell in cells:
            words[cell // WORD] = words[cell // WORD] | i64(1) << (cell % WORD)
        return words

    def seeing_each(self, places: vec[i64], inside: vec[i64]) -> vec[i64]:
        """The cells outside `inside` (a group's cells, in words: `within`) that share a house with each of
        `places` (cells of the group), in order: where a value the group holds in one of those places cannot be."""
        words, bits = self.words, self.bits
        found = vec[i64]()
        for w in range(words):
            common = ~inside[w] & FULL_WORD
            for cell in places:
                common &= bits[cell * words + w]
            while common:
                low = common & -common
                common ^= low
                found = append(found, w * WORD + bit_index(low))
        return found


@kept(8)
def sight(geo: Geometry) -> Sight:
    """The geometry's `Sight`, made once."""
    return Sight(geo.peers)


def innies_and_outies(masks: Sequence[int], geo: Geometry, values: Sequence[int],
                      sums: Iterable[int] | None = None, said: Said | None = None) -> Removals | None:
    """The 45 rule: `sum_bounds` on every sum puzzles/constraints/innies.py's `derived_sums` derives from the layout,
    then on every `signed_sums` (innies less outies, an outie's value v counting n + 1 - v: its mask `mirrored`),
    one pass (`bounded_sums`), each over its empty cells, its total less what its placed cells count; `sums`: only
    these (indices into `bounded_sums`). A contradiction also when an empty cell of a sum has no candidate.
    (`said` is not read: bounds cost less than a look-up; it is there to match `cage_combinations`.)"""
    bounded: tuple[SignedSum, ...] = bounded_sums(geo.layout)
    n = geo.side
    removed: Removals = {}
    for s in range(len(bounded)) if sums is None else sums:
        plus, minus, total = bounded[s].plus, bounded[s].minus, bounded[s].counted(n)
        added = [cell for cell in plus if not values[cell]]
        taken = [cell for cell in minus if not values[cell]]
        if any(not masks[cell] for cell in added + taken):
            return None
        rest = total - sum(values[cell] for cell in plus) - sum(n + 1 - values[cell] for cell in minus if values[cell])
        lost = sum_bounds([masks[cell] for cell in added] + [mirrored(masks[cell], n) for cell in taken], rest)
        if lost is None:
            return None
        _removing(added + taken, lost[:len(added)] + [mirrored(mask, n) for mask in lost[len(added):]], removed)
    return _unless_emptied_cells(masks, removed)


def mirrored(mask: int, n: int) -> int:
    """The mask of n + 1 - v for each value v of `mask`."""
    return mask_of(n + 1 - v for v in values_of(mask))


def constraint_filters(masks: Sequence[int], geo: Geometry, values: Sequence[int] | None = None,
                       only: int | None = None) -> Removals | None:
    """The filters of the layout's constraints (puzzles/constraints/: `Constraint.narrow`, one pass each): a
    candidate of an empty cell leaves when no value a linked cell can hold allows it. `values`: the cell values
    (0 for a blank), a filled cell read as its value; without them a cell whose mask is 0 is read as any value
    (what its value forbids the engine removed when it was placed). `only`: the constraint of this index alone.
    A contradiction when a filled cell's value is no longer allowed, or a cell is left with no candidate. On a
    layout without constraints, nothing. (A Killer cage's filter is the cage rungs', `cage_combinations`.)"""
    lay, n = geo.layout, geo.side
    ks = filtered(lay)
    if not ks:
        return {}
    seen = list(masks)
    for cell, m in enumerate(masks):
        if not m:  # filled, or an empty cell with no candidate (then the removals empty a cell: a contradiction)
            seen[cell] = geo.full if values is None else 1 << (values[cell] - 1) if values[cell] else 0
    removed: Removals = {}
    for k in ks if only is None else (only,):
        for removal in lay.constraints[k].narrow(seen, n):
            if masks[removal.cell]:
                gone = removal.mask & masks[removal.cell]
                if gone:
                    removed[removal.cell] = removed.get(removal.cell, 0) | gone
            elif values is not None and values[removal.cell] and removal.mask & seen[removal.cell]:
                return None
    return _unless_emptied_cells(masks, removed)


@kept()
def filtered(lay: Layout) -> tuple[int, ...]:
    """The indices of the layout's constraints whose filters `constraint_filters` runs: every one but those that
    keep a room (`Constraint.ROOMS`: a Killer's cages), whose filters the cage rungs run."""
    return tuple(k for k, rule in enumerate(lay.constraints) if not rule.ROOMS)


@kept()
def rooms(lay: Layout) -> tuple[Constraint, ...]:
    """The layout's constraints that keep a room (`Constraint.ROOMS`: a Killer's cages), in order: the groups the
    cage rungs filter (`cage_combinations`), as the engines' `Rooms` number them."""
    return tuple(rule for rule in lay.constraints if rule.ROOMS)


# -- the ladder ------------------------------------------------------------------


def fixpoint(masks: Sequence[int], geo: Geometry, rules: Sequence[GridRule]) -> list[int] | None:
    """The masks after applying `rules` in turn, each to what the previous left, until
    a whole round removes nothing; None if a rule finds a contradiction."""
    current = list(masks)
    changed = True
    while changed:
        changed = False
        for rule in rules:
            removed = rule(current, geo)
            if removed is None:
                return None
            for cell, lost in removed.items():
                current[cell] &= ~lost
            changed = changed or bool(removed)
    return current


RUNG_NAMES = ("none", "naked", "singles", "locked", "subsets", "alldiff", "pairs", "probe")
# the Killer rungs: a branch from singles. Their names are said here alone (the ladder and the rungs' makers read
# them from here): records and the `propagate` option name them, and `killer` is also a kind's name, which
# tests/test_constraint_socket.py allows in this one tuple.
CAGE_RUNG_NAMES = ("cages", "innies", "killer")


def ladder(rung: str, needed: Sequence[int] | None = None, values: Sequence[int] | None = None) -> list[GridRule]:
    """The rules whose `fixpoint` is what rung `rung` of the ladder deduces; `needed` as
    for `hidden_subsets_in_units`, `values` the cell values (0 for a blank; none: every
    cell blank), which the cage rules read. Each rung deduces at least what the one below does:

    none     nothing (a cell with no candidate is the engine's dead end)
    naked    naked singles: naked subsets of size 1
    singles  and hidden singles: hidden subsets of size 1
    locked   and locked candidates, in every two houses that share two cells or more
    subsets  naked and hidden subsets up to size 4, and locked candidates
    alldiff  AllDifferent filtering in every unit (every subset of any size, by
             Hall's theorem), and locked candidates
    pairs    alldiff, and probing the cells with two candidates: a candidate of
             such a cell leaves when, given it alone, the cell makes the singles
             rung find a contradiction
    probe    and probing: a candidate leaves when, given it alone, the cell makes
             the alldiff rung find a contradiction

    Every rung from locked up, and each Killer rung, also applies the filters of the layout's constraints
    (`constraint_filters`, after the houses' rules; on a layout without constraints, nothing).

    The Killer rungs add the cages' rules (on a layout without cages, nothing):

    cages    singles, the cage combinations (each cage's filter, `Cage.narrow`) and
             their required values (`cage_required`)
    innies   cages, and the 45 rule (`sum_bounds` on every innie and outie sum)
    killer   alldiff (with locked candidates), the cage combinations, their required
             values and the 45 rule
    """
    if rung in CAGE_RUNG_NAMES:
        return _killer_ladder(rung, needed, values)
    if rung == "pairs":
        return [*ladder("alldiff", needed, values), probing(ladder("singles", needed), only=2)]
    if rung == "probe":
        below = ladder("alldiff", needed, values)
        return [*below, probing(below)]
    if rung in RUNG_NAMES[3:]:
        return [*_house_ladder(rung, needed), lambda masks, geo: constraint_filters(masks, geo, values)]
    return _house_ladder(rung, needed)


def _house_ladder(rung: str, needed: Sequence[int] | None) -> list[GridRule]:
    """The rules of the houses of each rung of `ladder` (its Sudoku rules: no constraints' filters, no cages)."""
    if rung == "none":
        return []
    if rung == "naked":
        return [lambda masks, geo: naked_subsets_in_units(masks, geo, 1)]
    if rung == "singles":
        return [*_house_ladder("naked", needed), lambda masks, geo: hidden_subsets_in_units(masks, geo, needed, 1)]
    if rung == "locked":
        return [*_house_ladder("singles", needed), locked_candidates]
    if rung == "subsets":
        return [
            naked_subsets_in_units,
            lambda masks, geo: hidden_subsets_in_units(masks, geo, needed),
            locked_candidates,
        ]
    if rung == "alldiff":
        return [lambda masks, geo: alldiff_in_units(masks, geo, needed), locked_candidates]
    raise ValueError(f"unknown rung {rung!r}: one of {', '.join(RUNG_NAMES + CAGE_RUNG_NAMES)}")


def _killer_ladder(rung: str, needed: Sequence[int] | None, values: Sequence[int] | None) -> list[GridRule]:
    """The Killer rungs' rules (`ladder`)."""

    def placed(masks: Sequence[int]) -> Sequence[int]:
        return [0] * len(masks) if values is None else values

    def cages(masks: Sequence[int], geo: Geometry) -> Removals | None:
        return cage_combinations(masks, geo, placed(masks))

    def required(masks: Sequence[int], geo: Geometry) -> Removals | None:
        return cage_required(masks, geo, placed(masks))

    def sums(masks: Sequence[int], geo: Geometry) -> Removals | None:
        return innies_and_outies(masks, geo, placed(masks))

    def filters(masks: Sequence[int], geo: Geometry) -> Removals | None:
        return constraint_filters(masks, geo, values)

    if rung == "cages":
        return [*ladder("singles", needed), filters, cages, required]
    if rung == "innies":
        return [*ladder("singles", needed), filters, cages, required, sums]
    return [*ladder("alldiff", needed, values), cages, required, sums]


def probing(rules: Sequence[GridRule], only: int | None = None) -> GridRule:
    """The rule: a candidate leaves its cell when the `fixpoint` of `rules`, with the
    cell given that candidate alone, is a contradiction (one pass over every candidate
    of every cell with two or more; with `only`, of the cells with exactly that many)."""

    def probe(masks: Sequence[int], geo: Geometry) -> Removals | None:
        removed: Removals = {}
        for cell, mask in enumerate(masks):
            if mask & (mask - 1) and (only is None or popcount(mask) == only):
                for value in _bits(mask):
                    trial = list(masks)
                    trial[cell] = value
                    if fixpoint(trial, geo, rules) is None:
                        removed[cell] = removed.get(cell, 0) | value
        return _unless_emptied_cells(masks, removed)

    return probe


# -- small helpers -----------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    """The set bits of `mask`, lowest first, each as a mask of its own."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _unless_emptied(masks: Sequence[int], lost: list[int]) -> list[int] | None:
    """`lost`, or None if it leaves some cell with no candidate."""
    return None if any(mask == gone for mask, gone in zip(masks, lost, strict=True)) else lost


def _unless_emptied_cells(masks: Sequence[int], removed: Removals) -> Removals | None:
    return None if any(masks[cell] == gone for cell, gone in removed.items()) else removed
