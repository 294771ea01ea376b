"""Slow, obvious implementations of the ladder's rules, from their definitions: every combination of cells or
values, every assignment, every two houses and value. They share no code with search/rules.py, which
test_rules.py (classic grids) and test_variants_solve.py (the Sudoku family) hold to them.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from puzzles import mask_of, values_of
from search import rules


def bit(value):
    return 1 << (value - 1)


def union(masks):
    out = 0
    for m in masks:
        out |= m
    return out


def left_empty(masks, lost):
    """Whether removing `lost` leaves some cell with no candidate."""
    return any(m & ~gone == 0 for m, gone in zip(masks, lost, strict=True))


def ref_naked(masks, max_size):
    n = len(masks)
    lost = [0] * n
    for k in range(1, max_size + 1):
        for group in combinations(range(n), k):
            values = union(masks[i] for i in group)
            if values.bit_count() < k:
                return None
            if values.bit_count() == k:
                for i in range(n):
                    if i not in group:
                        lost[i] |= masks[i] & values
    return None if left_empty(masks, lost) else lost


def ref_hidden(masks, max_size, needed=None):
    n = len(masks)
    needed = union(masks) if needed is None else needed
    if needed.bit_count() > n:
        return None
    lost = [0] * n
    for k in range(1, max_size + 1):
        for values in combinations(values_of(needed), k):
            kept = mask_of(values)
            places = [i for i in range(n) if masks[i] & kept]
            if len(places) < k:
                return None
            if len(places) == k:
                for i in places:
                    lost[i] |= masks[i] & ~kept
    return None if left_empty(masks, lost) else lost


def assignments(masks, values) -> Iterator[list[int]]:
    """Every way to give each cell a different one of `values` from its mask."""
    if not masks:
        yield []
        return
    for v in values:
        if masks[0] & bit(v):
            for rest in assignments(masks[1:], [w for w in values if w != v]):
                yield [v, *rest]


def ref_alldiff(masks, needed=None):
    """The values each cell takes in some complete assignment; the rest leave."""
    needed = union(masks) if needed is None else needed
    if needed.bit_count() != len(masks):
        return None
    used = [0] * len(masks)
    found = False
    for assignment in assignments(list(masks), values_of(needed)):
        found = True
        for i, v in enumerate(assignment):
            used[i] |= bit(v)
    return [m & ~u for m, u in zip(masks, used, strict=True)] if found else None


def has_matching(masks, values):
    """Whether the cells can take distinct values of `values` (a plain recursive augmenting
    path search, written independently of the module's)."""
    owner = {}

    def place(i, seen):
        for v in values:
            if masks[i] & bit(v) and v not in seen:
                seen.add(v)
                if v not in owner or place(owner[v], seen):
                    owner[v] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(masks)))


def ref_alldiff_by_matchings(masks, needed=None):
    """GAC by its definition, one candidate at a time: v stays in cell i when the unit still
    has a perfect matching with i given v alone. Polynomial, for units too large to enumerate."""
    needed = union(masks) if needed is None else needed
    values = values_of(needed)
    if len(values) != len(masks) or not has_matching(masks, values):
        return None
    lost = []
    for i, m in enumerate(masks):
        gone = m & ~needed
        for v in values_of(m & needed):
            if not has_matching([bit(v) if j == i else x for j, x in enumerate(masks)], values):
                gone |= bit(v)
        lost.append(gone)
    return lost


def ref_locked_houses(masks, units):
    """Locked candidates from the definition, in any two houses that share two cells or more: a value
    whose places in one house all lie in the other leaves the rest of the other."""
    lost = [0] * len(masks)
    for a in units:
        for b in units:
            common = set(a) & set(b)
            if a is b or len(common) < 2:
                continue
            for v in values_of(union(masks[c] for c in a)):
                if {c for c in a if masks[c] & bit(v)} <= common:
                    for c in set(b) - common:
                        lost[c] |= masks[c] & bit(v)
    return as_removals(masks, lost)


def ref_in_units(unit_rule, masks, units, needed=None):
    """`unit_rule` in each of `units` (the houses, each a list of cells), on the masks as given, merged."""
    lost = [0] * len(masks)
    for u, unit in enumerate(units):
        cells = [c for c in unit if masks[c]]
        removed = unit_rule([masks[c] for c in cells], None if needed is None else needed[u])
        if removed is None:
            return None
        for c, gone in zip(cells, removed, strict=True):
            lost[c] |= gone
    return as_removals(masks, lost)


def as_removals(masks, lost):
    """The grid form: {cell: lost} for cells that lose something, None if one loses all."""
    if any(gone and m == gone for m, gone in zip(masks, lost, strict=True)):
        return None
    return {c: gone for c, gone in enumerate(lost) if gone}


# The rules that read only the houses given them (inference.Step runs them over the houses that changed)
LOCAL_RULES = {
    "locked candidates": rules.locked_candidates,
    "naked subsets": lambda masks, geo, units: rules.in_every_unit(
        masks, geo, lambda m, _n: rules.naked_subsets(m), None, units),
    "hidden subsets": lambda masks, geo, units: rules.in_every_unit(
        masks, geo, lambda m, n: rules.hidden_subsets(m, needed=n), None, units),
    "alldiff": lambda masks, geo, units: rules.in_every_unit(masks, geo, rules.alldiff_filter, None, units),
}
