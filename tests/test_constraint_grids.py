"""The brute force's puzzles as the suite reads them (tests/constraint_puzzles.txt) are what it makes: one for each
empty grid of constraint_grids.EMPTY and no other, each equal to `made_unique`'s, its stored solution its only one."""
from __future__ import annotations

import pytest
from constraint_grids import EMPTY, made_unique, solutions, stored


@pytest.mark.slow
def test_the_stored_puzzles_are_what_the_brute_force_makes() -> None:
    kept = stored()
    assert set(kept) == {(text, 1) for text in EMPTY.values()}, "python tests/constraint_grids.py writes them again"
    for name, text in EMPTY.items():
        puzzle, solution = kept[text, 1]
        assert (puzzle, solution) == made_unique(text, 1), name
        assert list(solutions(puzzle, 2)) == [list(solution.values)], name
