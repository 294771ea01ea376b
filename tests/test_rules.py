"""search/rules.py against slow, obvious implementations of each rule's definition.

The references below enumerate what the definitions say (every combination of
cells or values, every assignment, every box and line and value) and share no
code with the module. Units and grids are drawn at random, from real partial
grids of every size and from arbitrary masks, so that contradictions come up too.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_references import (
    LOCAL_RULES,
    as_removals,
    bit,
    ref_alldiff,
    ref_alldiff_by_matchings,
    ref_hidden,
    ref_in_units,
    ref_naked,
    union,
)

from making.singles import generate
from making.solutions import pattern_solution
from puzzles import Candidates, geometry, mask_of, random_isomorph
from search import rules

# -- the references (tests/rule_references.py has those of the unit rules) -------------------


def ref_locked(masks, geo):
    """Per box, line and value: pointing and claiming straight from their definitions."""
    n = geo.side
    lost = [0] * len(masks)
    for box in geo.units[2 * n :]:
        for line in geo.units[: 2 * n]:
            inter = set(box) & set(line)
            if not inter:
                continue
            for v in range(1, n + 1):
                in_box = {c for c in box if masks[c] & bit(v)}
                in_line = {c for c in line if masks[c] & bit(v)}
                if in_box and in_box <= inter:  # pointing
                    for c in set(line) - inter:
                        lost[c] |= masks[c] & bit(v)
                if in_line and in_line <= inter:  # claiming
                    for c in set(box) - inter:
                        lost[c] |= masks[c] & bit(v)
    return as_removals(masks, lost)


# -- the material: partial grids and arbitrary units -----------------------------------


def partial(box, seed, blank, thin, keep_solution=True):
    """Candidate masks of a solved grid with a fraction `blank` of its cells blanked, each
    candidate then dropped with probability `thin` (never the solution's value if
    `keep_solution`); the values each unit still needs; the solution."""
    rng = random.Random(seed)
    solution = random_isomorph(pattern_solution(box), rng)
    puzzle = solution.with_values([0 if rng.random() < blank else v for v in solution.values])
    engine = Candidates(puzzle)
    masks = []
    for cell, v in enumerate(puzzle.values):
        m = 0 if v else engine.candidates(cell)
        for b in rules._bits(m):
            if rng.random() < thin and not (keep_solution and b == bit(solution.values[cell])):
                m &= ~b
        masks.append(m)
    needed = [engine.full & ~used for used in engine.used]
    return masks, needed, solution


grids = st.builds(
    partial,
    box=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10**6),
    blank=st.floats(0.1, 0.8),
    thin=st.sampled_from([0.0, 0.1, 0.3]),
    keep_solution=st.booleans(),
)


@st.composite
def units(draw, max_cells):
    """Masks of up to `max_cells` cells over as many values, and sometimes a `needed` mask."""
    n = draw(st.integers(0, max_cells))
    masks = draw(st.lists(st.integers(0, (1 << n) - 1), min_size=n, max_size=n))
    if draw(st.booleans()):  # plant an assignment, so that most units have one
        values = draw(st.permutations(range(1, n + 1)))
        masks = [m | bit(v) for m, v in zip(masks, values, strict=True)]
    needed = draw(st.none() | st.integers(0, (1 << (n + 1)) - 1))
    return masks, needed


# -- unit rules against their references --------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(unit=units(9), max_size=st.integers(1, 4))
def test_naked_subsets_are_the_definition(unit, max_size):
    masks, _ = unit
    assert rules.naked_subsets(masks, max_size) == ref_naked(masks, max_size)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(unit=units(9), max_size=st.integers(1, 4))
def test_hidden_subsets_are_the_definition(unit, max_size):
    masks, needed = unit
    assert rules.hidden_subsets(masks, max_size, needed) == ref_hidden(masks, max_size, needed)


@settings(max_examples=300, deadline=None)
@given(unit=units(7))
def test_alldiff_keeps_exactly_the_values_of_some_assignment(unit):
    masks, needed = unit
    assert rules.alldiff_filter(masks, needed) == ref_alldiff(masks, needed)


@settings(max_examples=200, deadline=None)
@given(unit=units(10))
def test_alldiff_is_naked_subsets_of_every_size(unit):
    """Hall's theorem: with as many values as cells, a candidate is in no perfect matching
    exactly when a naked subset of some size excludes it, and there is no perfect matching
    exactly when some cells share fewer values than their number."""
    masks, _ = unit
    if union(masks).bit_count() == len(masks):
        assert rules.alldiff_filter(masks) == rules.naked_subsets(masks, max(len(masks), 1))


@settings(max_examples=40, deadline=None)
@given(grid=grids)
@pytest.mark.slow
def test_alldiff_in_real_units_is_the_definition(grid):
    masks, needed, _ = grid
    geo = geometry(round(len(masks) ** 0.25))
    for u, unit in enumerate(geo.units):
        cells = [masks[c] for c in unit if masks[c]]
        expected = ref_alldiff(cells, needed[u]) if len(cells) <= 7 else ref_alldiff_by_matchings(cells, needed[u])
        assert rules.alldiff_filter(cells, needed[u]) == expected


# -- grid rules against their references ------------------------------------------


@settings(max_examples=60, deadline=None)
@given(grid=grids)
def test_locked_candidates_are_the_definition(grid):
    masks, _, _ = grid
    geo = geometry(round(len(masks) ** 0.25))
    assert rules.locked_candidates(masks, geo) == ref_locked(masks, geo)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(grid=grids, with_needed=st.booleans())
def test_unit_rules_in_every_unit_are_the_definition(grid, with_needed):
    masks, needed, _ = grid
    needed = needed if with_needed else None
    geo = geometry(round(len(masks) ** 0.25))
    assert rules.naked_subsets_in_units(masks, geo) == ref_in_units(lambda m, _n: ref_naked(m, 4), masks, geo.units)
    assert rules.hidden_subsets_in_units(masks, geo, needed) == ref_in_units(
        lambda m, n: ref_hidden(m, 4, n), masks, geo.units, needed
    )
    expected = ref_in_units(ref_alldiff_by_matchings, masks, geo.units, needed)
    assert rules.alldiff_in_units(masks, geo, needed) == expected


@pytest.mark.parametrize("seed", range(3))
def test_rules_on_25x25_grids_are_the_definition(seed):
    masks, needed, _ = partial(5, seed, blank=0.5, thin=0.2, keep_solution=seed != 0)
    geo = geometry(5)
    assert rules.locked_candidates(masks, geo) == ref_locked(masks, geo)
    assert rules.naked_subsets_in_units(masks, geo) == ref_in_units(lambda m, _n: ref_naked(m, 4), masks, geo.units)
    assert rules.hidden_subsets_in_units(masks, geo, needed) == ref_in_units(
        lambda m, n: ref_hidden(m, 4, n), masks, geo.units, needed
    )
    expected = ref_in_units(ref_alldiff_by_matchings, masks, geo.units, needed)
    assert rules.alldiff_in_units(masks, geo, needed) == expected


# -- the ladder: sound, and each rung at least the one below --------------------------

RUNGS_CHEAP = [r for r in rules.RUNG_NAMES if r != "probe"]


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8))
def test_every_rung_keeps_the_solution_and_adds_to_the_one_below(box, seed, blank):
    masks, needed, solution = partial(box, seed, blank, thin=0.0)
    geo = geometry(box)
    rungs = rules.RUNG_NAMES if box == 2 else RUNGS_CHEAP  # probing a 9x9 is seconds a grid
    below = masks
    for rung in rungs:
        after = rules.fixpoint(masks, geo, rules.ladder(rung, needed))
        assert after is not None, rung
        for cell, (m, v) in enumerate(zip(after, solution.values, strict=True)):
            assert m == 0 or m & bit(v), (rung, cell)
            assert m & ~below[cell] == 0, (rung, cell)  # nothing comes back
        below = after


def test_probing_keeps_a_9x9_solution():
    masks, needed, solution = partial(3, 7, blank=0.7, thin=0.0)
    after = rules.fixpoint(masks, geometry(3), rules.ladder("probe", needed))
    assert after is not None
    assert all(m == 0 or m & bit(v) for m, v in zip(after, solution.values, strict=True))


@pytest.mark.parametrize("box", [2, 3, 4])
def test_singles_fill_a_puzzle_that_singles_solve(box):
    """generate() makes puzzles that naked and hidden singles solve: the singles rung then
    leaves each empty cell its solution value alone."""
    puzzle, solution = generate(box, random.Random(box))
    engine = Candidates(puzzle)
    masks = [0 if v else engine.candidates(c) for c, v in enumerate(puzzle.values)]
    needed = [engine.full & ~used for used in engine.used]
    after = rules.fixpoint(masks, puzzle.geometry, rules.ladder("singles", needed))
    assert after == [0 if v else bit(s) for v, s in zip(puzzle.values, solution.values, strict=True)]


def test_a_contradiction_stops_the_fixpoint():
    """Two cells of a row left with the same single candidate."""
    geo = geometry(2)
    masks = [geo.full] * 16
    masks[0] = masks[1] = bit(1)
    assert rules.fixpoint(masks, geo, rules.ladder("naked")) is None


def test_an_unknown_rung_is_refused():
    with pytest.raises(ValueError, match="unknown rung"):
        rules.ladder("everything")


# -- hand-made cases ---------------------------------------------------------------


def masks_of(*cells):
    return [mask_of(values) for values in cells]


def test_a_naked_pair():
    """1 and 2 are the only candidates of the first two cells: the others lose them."""
    rest = range(3, 10)
    masks = masks_of([1, 2], [1, 2], [1, 3, 4], [2, 5, 6], *[rest] * 5)
    assert rules.naked_subsets(masks) == [0, 0, bit(1), bit(2), 0, 0, 0, 0, 0]
    assert rules.naked_subsets(masks, 1) == [0] * 9  # no naked single


def test_a_hidden_triple():
    """1, 2 and 3 only fit in the first three cells: those cells lose their other values."""
    masks = masks_of([1, 2, 4, 5], [2, 3, 6], [1, 3, 7, 8], *[range(4, 10)] * 6)
    assert rules.hidden_subsets(masks) == [mask_of([4, 5]), bit(6), mask_of([7, 8]), 0, 0, 0, 0, 0, 0]
    assert rules.hidden_subsets(masks, 2) == [0] * 9
    assert rules.naked_subsets(masks) == [0] * 9


def test_pointing():
    """In box 1, 5 fits only in row 1: the rest of row 1 loses it."""
    geo = geometry(3)
    masks = [geo.full] * 81
    for cell in (9, 10, 11, 18, 19, 20):  # box 1, rows 2 and 3
        masks[cell] &= ~bit(5)
    assert rules.locked_candidates(masks, geo) == dict.fromkeys(range(3, 9), bit(5))


def test_claiming():
    """In row 1, 5 fits only in box 1: the rest of box 1 loses it."""
    geo = geometry(3)
    masks = [geo.full] * 81
    for cell in range(3, 9):
        masks[cell] &= ~bit(5)
    assert rules.locked_candidates(masks, geo) == dict.fromkeys((9, 10, 11, 18, 19, 20), bit(5))


def test_pointing_that_empties_a_cell_is_a_contradiction():
    geo = geometry(2)
    masks = [geo.full] * 16
    masks[4] = masks[5] = mask_of([3, 4])  # box 1 holds 1 only in row 1
    masks[2] = bit(1)  # row 1, outside box 1, can only hold 1
    assert rules.locked_candidates(masks, geo) is None


def five_cycle():
    """Five cells, each with three consecutive values of 1..5 around a cycle: the five hold
    1..5 between them, but any four of them hold all five values, so no subset of size
    4 or less is naked, and each of 1..5 has at least three places among them."""
    return masks_of(*[[(i + d) % 5 + 1 for d in range(3)] for i in range(5)])


def test_alldiff_finds_a_hall_set_of_five_that_subsets_miss():
    """A 16-cell unit: the five-cycle is a naked quintuple and 6..16 a hidden 11-tuple,
    both beyond size 4; the 11 other cells each also have one of 1..5, which GAC removes."""
    masks = five_cycle() + [mask_of(range(6, 17)) | bit(i % 5 + 1) for i in range(11)]
    assert rules.naked_subsets(masks) == [0] * 16
    assert rules.hidden_subsets(masks) == [0] * 16
    assert rules.alldiff_filter(masks) == [0] * 5 + [bit(i % 5 + 1) for i in range(11)]
    assert rules.alldiff_filter(masks) == ref_alldiff_by_matchings(masks)


def test_alldiff_finds_six_cells_on_five_values_that_subsets_miss():
    """The five-cycle and a copy of its first cell: six cells, five values, no perfect
    matching; yet no four of them share only four values."""
    masks = [*five_cycle(), mask_of([1, 2, 3])] + [mask_of(range(6, 17))] * 10
    assert rules.naked_subsets(masks) == [0] * 16
    assert rules.hidden_subsets(masks) == [0] * 16
    assert rules.alldiff_filter(masks) is None


@pytest.mark.parametrize(
    ("rule", "masks", "needed"),
    [
        (rules.naked_subsets, masks_of([1, 2], [], [3]), None),  # a cell with no candidate
        (rules.naked_subsets, masks_of([1, 2], [1, 2], [1, 2]), None),  # three cells, two values
        (rules.hidden_subsets, masks_of([1, 2], [1, 2], [1, 2]), mask_of([1, 2, 3])),  # 3 has no place
        (rules.hidden_subsets, masks_of([1, 2, 3], [1, 2, 3]), None),  # three values, two cells
        (rules.hidden_subsets, [mask_of(range(1, 7))] * 5, None),  # six values, five cells, no group of 4 short
        (rules.hidden_subsets, masks_of([1, 2], [1, 3], [4], [4]), None),  # 1, 2, 3 in two cells
        (rules.alldiff_filter, masks_of([1, 2], [1, 2, 3]), None),  # three values, two cells
        (rules.alldiff_filter, masks_of([1, 2], [1, 2], [1, 2], [3, 4]), None),
        (rules.alldiff_filter, masks_of([1, 2], [1, 2]), mask_of([1, 3])),  # 3 has no place
    ],
)
def test_contradictions(rule, masks, needed):
    assert (rule(masks) if needed is None else rule(masks, needed=needed)) is None


def test_a_cell_two_hidden_subsets_empty_is_a_contradiction():
    """1 only fits in the first cell, 2 and 3 only in the first two: the first cell would
    keep only 1 and only 2 or 3. No group of two values or fewer has too few places."""
    masks = masks_of([1, 2, 3], [2, 3], [4], [4])
    assert rules.hidden_subsets(masks, 2) is None
    assert ref_hidden(masks, 2) is None


def test_values_outside_needed_leave():
    assert rules.alldiff_filter(masks_of([1, 4], [2, 3]), mask_of([1, 2])) == [bit(4), bit(3)]


def test_an_empty_unit_loses_nothing():
    assert rules.naked_subsets([]) == rules.hidden_subsets([]) == rules.alldiff_filter([]) == []


def test_a_long_chain_needs_no_recursion():
    """A 25-cell unit whose only matching is a chain through every cell (cell i: i+1 or
    i+2): Tarjan's depth-first search goes 25 deep, on its own stack."""
    masks = [mask_of([i + 1, i + 2]) if i < 24 else bit(25) for i in range(25)]
    assert rules.alldiff_filter(masks) == [bit(i + 2) for i in range(24)] + [0]
    cyclic = [mask_of([i + 1, (i + 1) % 25 + 1]) for i in range(25)]  # one cycle: two matchings
    assert rules.alldiff_filter(cyclic) == [0] * 25


def test_fixpoint_of_no_rule_is_the_masks():
    masks, _, _ = partial(2, 1, 0.5, 0.0)
    assert rules.fixpoint(masks, geometry(2), rules.ladder("none")) == masks


# -- a rule over the units that changed since it was quiet -----------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(grid=grids, rule=st.sampled_from(sorted(LOCAL_RULES)), seed=st.integers(0, 10**6),
       changes=st.integers(1, 6))
def test_a_rule_over_the_changed_units_removes_what_it_removes_over_every_unit(grid, rule, seed, changes):
    """What the rungs rely on (search/inference.py, Step): from masks where the rule removes
    nothing, change a few cells' candidates (some lost, some back); the pass over the units that
    hold a changed cell is the pass over every unit (ref_locked and ref_in_units say what that is)."""
    masks, _, _ = grid
    geo = geometry(round(len(masks) ** 0.25))
    local = LOCAL_RULES[rule]
    quiet = rules.fixpoint(masks, geo, [lambda m, g: local(m, g, None)])
    if quiet is None:
        return  # a contradiction on the way: no quiet state to start from
    assert local(quiet, geo, None) == {}
    rng = random.Random(seed)
    changed = list(quiet)
    for cell in rng.sample([c for c, m in enumerate(masks) if m], min(changes, sum(1 for m in masks if m))):
        changed[cell] = rng.randrange(1, masks[cell] + 1) & masks[cell] or masks[cell]
    units = [u for u, unit in enumerate(geo.units) if any(changed[c] != quiet[c] for c in unit)]
    everywhere = {
        "locked candidates": lambda: ref_locked(changed, geo),
        "naked subsets": lambda: ref_in_units(lambda m, _n: ref_naked(m, 4), changed, geo.units),
        "hidden subsets": lambda: ref_in_units(lambda m, n: ref_hidden(m, 4, n), changed, geo.units),
        "alldiff": lambda: ref_in_units(ref_alldiff_by_matchings, changed, geo.units),
    }[rule]()
    assert local(changed, geo, units) == everywhere
