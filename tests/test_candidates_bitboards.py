"""Bitboards (per-value candidate bitsets) against the Candidates engine it is built from."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import Candidates, Grid, random_isomorph
from puzzles.candidates import Bitboards
from puzzles.generate import pattern_solution


def blanked(box: int, seed: int, blank: float) -> Grid:
    rng = random.Random(seed)
    solution = random_isomorph(pattern_solution(box), rng)
    return solution.with_values([0 if rng.random() < blank else v for v in solution.values])


def assert_same(bits: Bitboards, engine: Candidates) -> None:
    assert bits.values() == bytes(engine.values)
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
    # a placement, a snapshot and its restore
    rng = random.Random(seed)
    if empties:
        snap = bits.snapshot()
        cell = rng.choice(empties)
        mask = engine.candidates(cell)
        if mask:
            value = (mask & -mask).bit_length()
            bits.place(cell, value)
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


def test_bitboard_singles_since_a_fixpoint_find_the_same():
    puzzle = Grid.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    bits = Bitboards(puzzle)
    assert bits.singles() >= 0
    base = bits.snapshot()
    cell, mask = bits.fewest()
    value = (mask & -mask).bit_length()
    results = []
    for since in (None, base[0]):
        bits.restore(base)
        bits.place(cell, value)
        results.append((bits.singles(since), bits.values()))
    assert results[0] == results[1]
