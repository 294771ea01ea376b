"""The candidate engine against a slow, obvious computation, for every box size."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from making.solutions import pattern_solution
from puzzles import Candidates, Grid, PuzzleError, values_of
from puzzles.isomorph import random_isomorph


def obvious_candidates(values: list[int], box: int, cell: int) -> set[int]:
    """Scan the cell's row, column and box, as the seeds do."""
    n = box * box
    r, c = divmod(cell, n)
    seen = {values[r * n + k] for k in range(n)} | {values[k * n + c] for k in range(n)}
    br, bc = r - r % box, c - c % box
    seen |= {values[(br + i) * n + bc + j] for i in range(box) for j in range(box)}
    return set(range(1, n + 1)) - seen


def assert_engine_agrees(board: Candidates, box: int) -> None:
    for cell, v in enumerate(board.values):
        if not v:
            assert set(values_of(board.candidates(cell))) == obvious_candidates(board.values, box, cell)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), data=st.data())
def test_place_and_remove_keep_candidates_exact(box, seed, data):
    rng = random.Random(seed)
    solution = random_isomorph(pattern_solution(box), rng)
    n = box * box
    blank = data.draw(st.floats(0.2, 1.0))
    puzzle = solution.with_values([0 if rng.random() < blank else v for v in solution.values])
    board = Candidates(puzzle)
    assert_engine_agrees(board, box)
    placed = []
    for _ in range(data.draw(st.integers(1, 30))):
        empties = board.empty_cells()
        if placed and (not empties or rng.random() < 0.4):
            board.remove(placed.pop(rng.randrange(len(placed))))
        elif empties:
            cell = rng.choice(empties)
            options = values_of(board.candidates(cell))
            if options:
                board.place(cell, rng.choice(options))
                placed.append(cell)
        assert_engine_agrees(board, box)
    assert board.empty_cells() == [c for c, v in enumerate(board.values) if not v]
    for cell in board.empty_cells():
        for v in range(1, n + 1):
            assert board.allows(cell, v) == (v in obvious_candidates(board.values, box, cell))


def test_fewest_is_first_cell_with_fewest_candidates():
    puzzle = Grid.parse("000702000100040007650000094470801062000000000580209013860000075900060008000908000")
    board = Candidates(puzzle)
    empties = board.empty_cells()
    counts = [len(obvious_candidates(board.values, 3, c)) for c in empties]
    cell, mask = board.fewest(empties)
    assert cell == empties[counts.index(min(counts))]
    assert set(values_of(mask)) == obvious_candidates(board.values, 3, cell)
    assert board.total_candidates(empties) == sum(counts)


def test_singles_solve_and_undo():
    puzzle = Grid.parse("000702000100040007650000094470801062000000000580209013860000075900060008000908000")
    board = Candidates(puzzle)
    trail: list[int] = []
    assert board.singles(trail)
    assert not board.empty_cells() and puzzle.is_solved_by(board.grid())
    assert sorted(trail) == puzzle.empty_cells()
    board.undo(trail, 0)
    assert board.grid() == puzzle and trail == []


def test_own_trail_marks_and_restores():
    # the engine interface: assign and force_singles go on the engine's own trail, restore takes them back
    puzzle = Grid.parse("000702000100040007650000094470801062000000000580209013860000075900060008000908000")
    board = Candidates(puzzle)
    root = board.mark()
    cell, mask = board.fewest()
    assert (cell, mask) == board.fewest(board.empty_cells())
    board.assign(cell, mask.bit_length())
    middle = board.mark()
    assert board.force_singles() == len(puzzle.empty_cells()) - 1
    assert puzzle.is_solved_by(board.grid()) and board.fewest() == (-1, 0)
    board.restore(middle)
    assert board.values[cell] == mask.bit_length() and len(board.empty_cells()) == len(puzzle.empty_cells()) - 1
    board.restore(root)
    assert board.grid() == puzzle and board.trail == []
    assert Candidates(Grid.parse("12.." "..3." "...3" "....")).force_singles() == -1


def test_singles_find_a_contradiction():
    # 4x4: row 1 holds 1 and 2; column 3 and column 4 both hold a 3, so row 1 has no place for 3
    puzzle = Grid.parse("12.." "..3." "...3" "....")
    assert Candidates(puzzle).singles([]) is False


def test_duplicate_givens_are_refused():
    with pytest.raises(PuzzleError, match="two 1s in row 1"):
        Candidates(Grid.parse("11.." + "." * 12))


def test_compact_state_round_trip():
    board = Candidates(Grid.parse("3..1...2.3..2..."))
    state = board.state()
    assert isinstance(state, bytes) and len(state) == 16
    again = Candidates(Grid(2, state))
    assert again.values == board.values
    assert all(again.candidates(c) == board.candidates(c) for c in range(16))
