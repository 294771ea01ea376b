"""The grid model and its geometry, checked against slow obvious computations."""
from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from fixtures import SEED000
from hypothesis import given
from hypothesis import strategies as st

from making.solutions import pattern_solution
from puzzles import Grid, PuzzleError, classic, geometry, mask_of, random_isomorph, values_of


def obvious_same_unit(box: int, a: int, b: int) -> bool:
    n = box * box
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return ra == rb or ca == cb or (ra // box == rb // box and ca // box == cb // box)


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_geometry_matches_the_obvious_definition(box):
    geo = geometry(box)
    n = box * box
    assert (geo.side, geo.cells, len(geo.units)) == (n, n * n, 3 * n)
    assert geo.full == (1 << n) - 1
    for cell in range(n * n):
        expected = {o for o in range(n * n) if o != cell and obvious_same_unit(box, cell, o)}
        assert set(geo.peers[cell]) == expected
        assert len(geo.peers[cell]) == 3 * (n - 1) - 2 * (box - 1)
        r, c = divmod(cell, n)
        assert cell in geo.units[geo.row_of[cell]] and geo.unit_names[geo.row_of[cell]] == f"row {r + 1}"
        assert cell in geo.units[geo.col_of[cell]] and geo.unit_names[geo.col_of[cell]] == f"column {c + 1}"
        assert cell in geo.units[geo.region_of[cell]]
    for unit in geo.units:
        assert len(set(unit)) == n
    assert geometry(box) is geo  # computed once per box size, shared


def test_unsupported_box_size():
    with pytest.raises(PuzzleError, match="box size 6"):
        geometry(6)


@pytest.mark.parametrize("length,side", [(16, 4), (81, 9), (256, 16), (625, 25)])
def test_size_follows_from_length(length, side):
    assert Grid.parse("." * length).side == side


def test_symbols_blanks_and_case():
    g = Grid.parse("1a.." + "_0" + "." * 250)
    assert g.side == 16 and g.values[:4] == bytes([1, 10, 0, 0]) and g.givens == 2
    assert g.line().startswith("1A....")


@pytest.mark.parametrize(
    "text,reason",
    [
        ("1" * 80, "80 symbols"),
        ("x" + "." * 80, "unknown symbol 'x' at position 1"),
        ("A" + "." * 80, "unknown symbol 'A'"),  # 10 does not exist in a 9x9
    ],
)
def test_bad_text_names_the_reason(text, reason):
    with pytest.raises(PuzzleError, match=reason):
        Grid.parse(text)


def test_conflicts_name_unit_and_value():
    dup_row = "7" + SEED000[1:]  # a 7 already stands in row 1
    assert Grid.parse(dup_row).conflicts()[0] == "two 7s in row 1"
    dup_box = SEED000[:10] + "6" + SEED000[11:]  # 6 at (2,2); box 1 holds 6 at (3,1)
    assert "two 6s in box 1" in Grid.parse(dup_box).conflicts()
    assert Grid.parse(SEED000).conflicts() == []


@pytest.mark.slow
@given(st.data(), st.sampled_from([2, 3, 4]))
def test_conflicts_is_empty_exactly_when_no_two_peers_share_a_value(data, box):
    # random grids, sparse or dense, against the pairwise definition of a clash
    n = box * box
    density = data.draw(st.sampled_from([0.1, 0.3, 0.6]))
    values = data.draw(st.lists(st.integers(1, n), min_size=n * n, max_size=n * n))
    keep = data.draw(st.lists(st.floats(0, 1), min_size=n * n, max_size=n * n))
    grid = Grid(classic(box), bytes(v if k < density else 0 for v, k in zip(values, keep, strict=True)))
    clash = any(grid.values[a] and grid.values[a] == grid.values[b]
                for a in range(n * n) for b in range(a + 1, n * n) if obvious_same_unit(box, a, b))
    assert bool(grid.conflicts()) == clash


@pytest.mark.slow
@given(st.data(), st.sampled_from([2, 3, 4]))
def test_conflicts_on_solutions_with_blanks_and_a_swap(data, box):
    # near-solutions, where units are full or nearly so and hold no repeat unless a swap made one
    n = box * box
    solution = random_isomorph(pattern_solution(box), random.Random(data.draw(st.integers(0, 10**6))))
    values = bytearray(solution.values)
    if data.draw(st.booleans()):
        a, b = data.draw(st.integers(0, n * n - 1)), data.draw(st.integers(0, n * n - 1))
        values[a], values[b] = values[b], values[a]
    blank = data.draw(st.sampled_from([0.0, 0.05, 0.3]))
    keep = data.draw(st.lists(st.floats(0, 1), min_size=n * n, max_size=n * n))
    grid = Grid(classic(box), bytes(0 if k < blank else v for v, k in zip(values, keep, strict=True)))
    clash = any(grid.values[a] and grid.values[a] == grid.values[b]
                for a in range(n * n) for b in range(a + 1, n * n) if obvious_same_unit(box, a, b))
    assert bool(grid.conflicts()) == clash


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_solution_check(box):
    solution = pattern_solution(box)
    assert solution.conflicts() == [] and solution.is_full()
    puzzle = solution.with_values([v if i % 3 else 0 for i, v in enumerate(solution.values)])
    assert puzzle.solution_problems(solution) == []
    assert puzzle.is_solved_by(solution)
    # swap two values of a row: duplicates in columns and a changed given
    swapped = bytearray(solution.values)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    problems = puzzle.solution_problems(Grid(classic(box), bytes(swapped)))
    assert any("givens changed" in p for p in problems) and any("column 1" in p for p in problems)
    assert "cells are still blank" in puzzle.solution_problems(puzzle)[0]


def test_matrix_round_trip_and_matlab_nan():
    g = Grid.parse(SEED000)
    arr = g.to_array()
    assert arr.shape == (9, 9) and arr[0, 3] == 7 and arr[0, 0] == 0
    assert Grid.from_array(arr) == g
    nan = arr.astype(float)
    nan[nan == 0] = np.nan
    assert Grid.from_array(nan) == g
    with pytest.raises(PuzzleError, match="not \\(3, 4\\)"):
        Grid.from_array(np.zeros((3, 4), dtype=int))


def test_pretty_draws_boxes():
    lines = Grid.parse(SEED000).pretty().splitlines()
    assert len(lines) == 11
    assert lines[0] == " . . . | 7 . 2 | . . ."
    assert lines[3] == "-------+-------+-------"


@given(st.sets(st.integers(1, 25)))
def test_masks_round_trip(values):
    assert values_of(mask_of(values)) == sorted(values)


@pytest.mark.parametrize("line", ["1234341221434321", "." * 81, "1" + "." * 255])
def test_a_grid_survives_pickling(line):
    # What the generator's move-making processes receive and send back; compiled, a frozen dataclass needs its
    # own __reduce__ for this.
    grid = Grid.parse(line)
    copy = pickle.loads(pickle.dumps(grid))
    assert copy == grid and (copy.box, copy.values) == (grid.box, grid.values)
