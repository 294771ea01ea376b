"""CellMasks (per-cell candidate masks, snapshots, eliminations) against the Candidates engine it is built from,
and its singles against a slow, obvious fill."""
from __future__ import annotations

import random

from fixtures import blanked, partial_grid
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import Candidates, CellMasks, Grid, geometry, values_of


def assert_same(per_cell: CellMasks, per_unit: Candidates) -> None:
    assert per_cell.state() == bytes(per_unit.values)
    for cell, v in enumerate(per_unit.values):
        assert per_cell.candidates(cell) == (0 if v else per_unit.candidates(cell))


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.9))
def test_cell_masks_agree_with_the_unit_masks(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    per_cell, per_unit = CellMasks(puzzle), Candidates(puzzle)
    assert_same(per_cell, per_unit)
    # fewest: the first cell in row-major order with the fewest candidates, as the per-unit masks'
    empties = per_unit.empty_cells()
    assert per_cell.fewest() == (per_unit.fewest(empties) if empties else (-1, 0))
    # a placement, a mark and its restore
    rng = random.Random(seed)
    if empties:
        snap = per_cell.mark()
        cell = rng.choice(empties)
        mask = per_unit.candidates(cell)
        if mask:
            value = (mask & -mask).bit_length()
            per_cell.assign(cell, value)
            per_unit.place(cell, value)
            assert_same(per_cell, per_unit)
            per_cell.restore(snap)
            per_unit.remove(cell)
            assert_same(per_cell, per_unit)


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_cell_mask_singles_reach_the_unit_masks_fixpoint(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    per_cell, per_unit = CellMasks(puzzle), Candidates(puzzle)
    trail: list[int] = []
    ok = per_unit.singles(trail)
    forced = per_cell.singles()
    assert (forced >= 0) == ok
    if ok:  # singles are confluent: same fixpoint, same count, whatever the order
        assert forced == len(trail)
        assert_same(per_cell, per_unit)


def test_cell_mask_singles_find_contradictions():
    # the per-unit masks' own contradiction example: row 1 has no place for 3
    assert CellMasks(Grid.parse("12.." "..3." "...3" "....")).singles() == -1
    # a cell that sees every value
    assert CellMasks(Grid.parse("12..3........4..")).singles() == -1


def test_naked_singles_alone_stop_where_only_a_hidden_single_is_left():
    # 4x4: r1c1 must be 1 (the only place of 1 in row 1), but every cell keeps two candidates or more
    puzzle = Grid.parse(".2.." "..1." "...." "....")
    per_cell = CellMasks(puzzle)
    assert per_cell.force_naked_singles() == 0 and per_cell.state() == puzzle.values
    assert per_cell.force_singles() > 0 and per_cell.state()[0] == 1


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.9),
       start=st.integers(0, 5), enough=st.sampled_from([0, 1, 2]))
def test_both_engines_answer_the_fewest_questions_alike(box, seed, blank, start, enough):
    # the reads the strategies use, on a to-do list that holds every empty cell from `start` on
    puzzle = blanked(box, seed, blank)
    per_cell, per_unit = CellMasks(puzzle), Candidates(puzzle)
    filled = [c for c, v in enumerate(puzzle.values) if v]
    cells = filled[:start] + random.Random(seed).sample(per_unit.empty_cells(), len(per_unit.empty_cells()))
    start = min(start, len(filled))
    assert per_cell.fewest_from(cells, start, enough) == per_unit.fewest_from(cells, start, enough)
    assert per_cell.fewest_all(cells) == per_unit.fewest_all(cells)
    assert per_cell.fewest() == per_unit.fewest()
    counts = [len(values_of(per_unit.candidates(c))) for c in per_unit.empty_cells()]
    assert per_cell.live_total() == per_unit.live_total() == (-1 if 0 in counts else sum(counts))


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_both_engines_mark_and_restore_exactly(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    per_cell, per_unit = CellMasks(puzzle), Candidates(puzzle)
    rng = random.Random(seed)
    marks = []
    for _ in range(6):  # placements, each followed by singles, with a mark before each
        cell, mask = per_unit.fewest()
        if cell < 0 or not mask:
            break
        marks.append((per_cell.mark(), per_unit.mark(), per_unit.state()))
        value = rng.choice([v for v in range(1, box * box + 1) if mask >> (v - 1) & 1])
        per_cell.assign(cell, value)
        per_unit.assign(cell, value)
        forced = per_cell.force_singles()
        assert forced == per_unit.force_singles()
        if forced < 0:
            break
        assert_same(per_cell, per_unit)
    while marks:
        cell_mark, unit_mark, state = marks.pop()
        per_cell.restore(cell_mark)
        per_unit.restore(unit_mark)
        assert per_unit.state() == state
        assert_same(per_cell, per_unit)


def test_eliminate_is_undone_by_restore():
    puzzle = Grid.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    per_cell = CellMasks(puzzle)
    before = per_cell.mark()
    cell, mask = per_cell.fewest()
    low = mask & -mask
    per_cell.eliminate(cell, low)
    assert per_cell.candidates(cell) == mask ^ low
    per_cell.restore(before)
    assert per_cell.candidates(cell) == mask and per_cell.mark() == before


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_the_reads_the_rungs_make_are_the_masks(box, seed, blank):
    per_cell = CellMasks(blanked(box, seed, blank))
    rng = random.Random(seed)
    start, masks = per_cell.mark(), per_cell.masks()
    for _ in range(3):  # placements and eliminations away from the state read
        cell, mask = per_cell.fewest()
        if cell < 0 or not mask:
            break
        per_cell.assign(cell, rng.choice([v for v in range(1, box * box + 1) if mask >> (v - 1) & 1]))
        cell, mask = per_cell.fewest()
        if cell >= 0 and mask & (mask - 1):
            per_cell.eliminate(cell, mask & -mask)
        now = per_cell.masks()
        assert now == [0 if v else per_cell.candidates(c) for c, v in enumerate(per_cell.state())]
        for count in (1, 2, 3):
            assert per_cell.cells_with(count) == [c for c, m in enumerate(now) if m and m.bit_count() == count]
        assert per_cell.cells_by_count() == sorted(
            (k, [c for c, v in enumerate(per_cell.state()) if not v and now[c].bit_count() == k])
            for k in {now[c].bit_count() for c, v in enumerate(per_cell.state()) if not v})
        changed = [c for c, (a, b) in enumerate(zip(masks, now, strict=True)) if a != b]
        assert per_cell.units_touched(changed) == [
            u for u, unit in enumerate(puzzle_units(box)) if any(c in changed for c in unit)]
    per_cell.restore(start)
    assert per_cell.masks() == masks


def puzzle_units(box: int) -> list[list[int]]:
    return [list(unit) for unit in geometry(box).units]


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_saved_states_load_back_in_any_order_with_their_eliminations(box, seed, blank):
    # A*'s frontier: states saved along a path, then loaded in a shuffled order; each must read as it was
    # read when saved, and singles from it must end where they ended then
    puzzle = blanked(box, seed, blank)
    rng = random.Random(seed)
    for engine in (Candidates(puzzle), CellMasks(puzzle)):
        saved = []
        for _ in range(6):
            cell, mask = engine.fewest()
            if cell < 0 or not mask:
                break
            engine.assign(cell, rng.choice(values_of(mask)))
            if isinstance(engine, CellMasks):
                cell, mask = engine.fewest()
                if cell >= 0 and mask & (mask - 1):
                    engine.eliminate(cell, mask & -mask)  # a removal only the saved masks remember
            before = engine.mark()
            forced = engine.force_singles()
            after = engine.masks(), engine.state()
            engine.restore(before)
            saved.append((engine.save(), engine.masks(), engine.state(), engine.fewest(), engine.live_total(),
                          forced, after))
        rng.shuffle(saved)
        for state, masks, values, fewest, total, forced, after in saved:
            engine.load(state)
            assert (engine.masks(), engine.state(), engine.fewest(), engine.live_total()) == (
                masks, values, fewest, total)
            assert engine.force_singles() == forced
            if forced >= 0:
                assert (engine.masks(), engine.state()) == after


def obvious_fill(grid: Grid, hidden: bool) -> bool:
    """Singles one at a time, each found by scanning every cell (and, with `hidden`, every unit's
    values), until the grid is full (True) or no single is left or a cell has no candidate (False)."""
    geo = grid.geometry
    values = list(grid.values)
    everything = set(range(1, geo.side + 1))

    def allowed(cell: int) -> set[int]:
        return everything - {values[peer] for peer in geo.peers[cell]}

    while 0 in values:
        empty = [cell for cell, v in enumerate(values) if not v]
        if any(not allowed(cell) for cell in empty):
            return False
        single = next(((cell, allowed(cell).pop()) for cell in empty if len(allowed(cell)) == 1), None)
        if single is None and hidden:
            single = next(((places[0], v) for unit in geo.units for v in everything - {values[c] for c in unit}
                           if len(places := [c for c in unit if not values[c] and v in allowed(c)]) == 1), None)
        if single is None:
            return False
        values[single[0]] = single[1]
    return True


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.8),
       wrong=st.sampled_from([0, 0, 1]), hidden=st.booleans())
def test_solved_by_singles_is_the_obvious_fill(box, seed, blank, wrong, hidden):
    puzzle = partial_grid(box, seed, blank, wrong)  # a wrong value: a grid singles may find a contradiction in
    engine = CellMasks(puzzle)
    assert engine.solved_by_singles(hidden) is obvious_fill(puzzle, hidden)


def test_naked_singles_alone_stop_on_a_puzzle_that_hidden_singles_fill():
    # the generator's first 9x9 puzzle of seed 0 (rule singles): naked singles alone get stuck on it
    puzzle = Grid.parse("68.....4....3.5....4......7....7.1.9..6.3....1.....87.35....7.....1...64...8.7...")
    assert CellMasks(puzzle).solved_by_singles(hidden=False) is False
    assert CellMasks(puzzle).solved_by_singles() is True
    assert CellMasks(Grid.parse("12.." "..3." "...3" "....")).solved_by_singles() is False  # no place for 3 in row 1
