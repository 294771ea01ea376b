"""Bitboards (per-cell candidate masks, snapshots, eliminations) against the Candidates engine it is built from."""
from __future__ import annotations

import random

from fixtures import blanked
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import Bitboards, Candidates, Grid, geometry


def assert_same(bits: Bitboards, engine: Candidates) -> None:
    assert bits.state() == bytes(engine.values)
    for cell, v in enumerate(engine.values):
        assert bits.candidates(cell) == (0 if v else engine.candidates(cell))


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.9))
def test_bitboards_agree_with_the_engine(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    bits, engine = Bitboards(puzzle), Candidates(puzzle)
    assert_same(bits, engine)
    # fewest: the first cell in row-major order with the fewest candidates, as the engine's
    empties = engine.empty_cells()
    assert bits.fewest() == (engine.fewest(empties) if empties else (-1, 0))
    # a placement, a mark and its restore
    rng = random.Random(seed)
    if empties:
        snap = bits.mark()
        cell = rng.choice(empties)
        mask = engine.candidates(cell)
        if mask:
            value = (mask & -mask).bit_length()
            bits.assign(cell, value)
            engine.place(cell, value)
            assert_same(bits, engine)
            bits.restore(snap)
            engine.remove(cell)
            assert_same(bits, engine)


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_bitboard_singles_reach_the_engines_fixpoint(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    bits, engine = Bitboards(puzzle), Candidates(puzzle)
    trail: list[int] = []
    ok = engine.singles(trail)
    forced = bits.singles()
    assert (forced >= 0) == ok
    if ok:  # singles are confluent: same fixpoint, same count, whatever the order
        assert forced == len(trail)
        assert_same(bits, engine)


def test_bitboard_singles_find_contradictions():
    # the engine's own contradiction example: row 1 has no place for 3
    assert Bitboards(Grid.parse("12.." "..3." "...3" "....")).singles() == -1
    # a cell that sees every value
    assert Bitboards(Grid.parse("12..3........4..")).singles() == -1


def test_naked_singles_alone_stop_where_only_a_hidden_single_is_left():
    # 4x4: r1c1 must be 1 (the only place of 1 in row 1), but every cell keeps two candidates or more
    puzzle = Grid.parse(".2.." "..1." "...." "....")
    bits = Bitboards(puzzle)
    assert bits.force_naked_singles() == 0 and bits.state() == puzzle.values
    assert bits.force_singles() > 0 and bits.state()[0] == 1


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.9),
       start=st.integers(0, 5), enough=st.sampled_from([0, 1, 2]))
def test_bitboards_answer_the_fewest_questions_as_the_engine(box, seed, blank, start, enough):
    # the reads the strategies use, on a to-do list that holds every empty cell from `start` on
    puzzle = blanked(box, seed, blank)
    bits, engine = Bitboards(puzzle), Candidates(puzzle)
    filled = [c for c, v in enumerate(puzzle.values) if v]
    cells = filled[:start] + random.Random(seed).sample(engine.empty_cells(), len(engine.empty_cells()))
    start = min(start, len(filled))
    assert bits.fewest_from(cells, start, enough) == engine.fewest_from(cells, start, enough)
    assert bits.fewest_all(cells) == engine.fewest_all(cells)
    assert bits.fewest() == engine.fewest()


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_both_engines_mark_and_restore_exactly(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    bits, engine = Bitboards(puzzle), Candidates(puzzle)
    rng = random.Random(seed)
    marks = []
    for _ in range(6):  # placements, each followed by singles, with a mark before each
        cell, mask = engine.fewest()
        if cell < 0 or not mask:
            break
        marks.append((bits.mark(), engine.mark(), engine.state()))
        value = rng.choice([v for v in range(1, box * box + 1) if mask >> (v - 1) & 1])
        bits.assign(cell, value)
        engine.assign(cell, value)
        forced = bits.force_singles()
        assert forced == engine.force_singles()
        if forced < 0:
            break
        assert_same(bits, engine)
    while marks:
        bit_mark, engine_mark, state = marks.pop()
        bits.restore(bit_mark)
        engine.restore(engine_mark)
        assert engine.state() == state
        assert_same(bits, engine)


def test_eliminate_is_undone_by_restore():
    puzzle = Grid.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    bits = Bitboards(puzzle)
    before = bits.mark()
    cell, mask = bits.fewest()
    low = mask & -mask
    bits.eliminate(cell, low)
    assert bits.candidates(cell) == mask ^ low
    bits.restore(before)
    assert bits.candidates(cell) == mask and bits.mark() == before


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9))
def test_the_reads_the_rungs_make_are_the_masks(box, seed, blank):
    bits = Bitboards(blanked(box, seed, blank))
    rng = random.Random(seed)
    start, masks = bits.mark(), bits.masks()
    for _ in range(3):  # placements and eliminations away from the state read
        cell, mask = bits.fewest()
        if cell < 0 or not mask:
            break
        bits.assign(cell, rng.choice([v for v in range(1, box * box + 1) if mask >> (v - 1) & 1]))
        cell, mask = bits.fewest()
        if cell >= 0 and mask & (mask - 1):
            bits.eliminate(cell, mask & -mask)
        now = bits.masks()
        assert now == [0 if v else bits.candidates(c) for c, v in enumerate(bits.state())]
        for count in (1, 2, 3):
            assert bits.cells_with(count) == [c for c, m in enumerate(now) if m and m.bit_count() == count]
        assert bits.cells_by_count() == sorted(
            (k, [c for c, v in enumerate(bits.state()) if not v and now[c].bit_count() == k])
            for k in {now[c].bit_count() for c, v in enumerate(bits.state()) if not v})
        changed = [c for c, (a, b) in enumerate(zip(masks, now, strict=True)) if a != b]
        assert bits.units_touched(changed) == [
            u for u, unit in enumerate(puzzle_units(box)) if any(c in changed for c in unit)]
    bits.restore(start)
    assert bits.masks() == masks


def puzzle_units(box: int) -> list[list[int]]:
    return [list(unit) for unit in geometry(box).units]
