"""The candidate engines against a slow, obvious computation, for every box size; which engine a search
runs on (search/engine.py's `on_engine`), and that the choice changes no count."""
from __future__ import annotations

import random

import pytest
from fixtures import SEED001, blanked
from hypothesis import given, settings
from hypothesis import strategies as st

from making.solutions import pattern_solution
from puzzles import Budget, Candidates, CellMasks, Grid, PuzzleError, classic, values_of
from puzzles.isomorph import random_isomorph
from search.astar import frontier_search
from search.engine import on_engine
from search.inference import make_rung
from search.restart import RandomFewest, restarting


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
    assert board.live_total() == sum(counts)


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
    state = board.save()
    assert isinstance(state, bytes) and state == board.state() and len(state) == 16
    again = Candidates(Grid(classic(2), state))
    assert again.values == board.values
    assert all(again.candidates(c) == board.candidates(c) for c in range(16))
    board.assign(1, 4)
    board.load(state)
    assert board.values == again.values and board.trail == [] and board.fewest() == again.fewest()


# -- which engine a search runs on, and that it changes no count -------------------------------------------

def test_a_search_with_a_rung_runs_on_the_cell_masks_and_one_without_on_the_unit_masks():
    puzzle = Grid.parse(SEED001)
    assert on_engine(puzzle, True, type) is CellMasks
    assert on_engine(puzzle, False, type) is Candidates
    assert on_engine(puzzle, False, lambda engine: engine.state()) == puzzle.values


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), blank=st.floats(0.4, 0.75), solutions=st.sampled_from([1, 2]),
       propagate=st.sampled_from(["none", "singles"]))
def test_restart_and_astar_count_the_same_on_either_engine(seed, blank, solutions, propagate):
    # on_engine picks one engine by the rung; the searches are written for either, and the other must give
    # the very same outcome, counter for counter (mrv's: tests/test_search_properties.py)
    puzzle = blanked(3, seed, blank)
    budget = Budget(nodes=3000)
    options = {"cutoff": "luby", "unit": 5, "max_restarts": "auto"}
    restarts = [restarting(RandomFewest(engine, seed, make_rung(propagate)), puzzle, budget, solutions, options, 0.0)
                for engine in (Candidates(puzzle), CellMasks(puzzle))]
    frontiers = [frontier_search(engine, puzzle, make_rung(propagate), 0.25, budget, solutions, 0.0)
                 for engine in (Candidates(puzzle), CellMasks(puzzle))]
    for units, cells in (restarts, frontiers):
        assert units.effort == cells.effort and units.info == cells.info
        assert (units.status, units.solution, units.unique) == (cells.status, cells.solution, cells.unique)
