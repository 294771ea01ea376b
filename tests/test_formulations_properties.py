"""Property tests: on random small puzzles the four formulations agree with each other.

Random givens on a 4x4 make every kind of puzzle (unique, several solutions,
no solution though no unit repeats a value), so agreement on status and on
uniqueness checks the exclusion constraints and the unsatisfiability proofs
of every formulation against the others.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formulations import SOLVERS
from puzzles.grid import Grid, classic
from puzzles.outcome import Status

CELLS_4 = 16


@st.composite
def small_puzzles(draw: st.DrawFn) -> Grid:
    """A 4x4 with random givens that repeat no value in a unit."""
    values = [0] * CELLS_4
    for cell in draw(st.lists(st.integers(0, CELLS_4 - 1), max_size=10, unique=True)):
        values[cell] = draw(st.integers(1, 4))
        if Grid(classic(2), bytes(values)).conflicts():
            values[cell] = 0
    grid = Grid(classic(2), bytes(values))
    assert not grid.conflicts()
    return grid


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_formulations_agree_on_random_4x4(puzzle: Grid) -> None:
    outcomes = {name: SOLVERS[name](puzzle, solutions=2) for name in SOLVERS}
    statuses = {name: o.status for name, o in outcomes.items()}
    assert len(set(statuses.values())) == 1, (puzzle.line(), statuses)
    status = next(iter(statuses.values()))
    assert status in (Status.SOLVED, Status.UNSATISFIABLE)
    if status is Status.SOLVED:
        for name, outcome in outcomes.items():
            assert puzzle.solution_problems(outcome.solution) == [], name
        uniques = {name: o.unique for name, o in outcomes.items()}
        assert len(set(uniques.values())) == 1, (puzzle.line(), uniques)
        if uniques["cpsat"]:  # one solution: everyone found the same one
            assert len({o.solution.line() for o in outcomes.values()}) == 1


@settings(max_examples=15, deadline=None)
@given(st.permutations(range(1, 10)), st.lists(st.integers(0, 80), min_size=30, max_size=60, unique=True))
def test_relabelled_pattern_with_blanks_solves_everywhere(labels: list[int], blanks: list[int]) -> None:
    base = [(3 * (r % 3) + r // 3 + c) % 9 for r in range(9) for c in range(9)]
    full = [labels[v] for v in base]
    values = list(full)
    for cell in blanks:
        values[cell] = 0
    puzzle = Grid(classic(3), bytes(values))
    for name in ("cpsat", "sat", "mip"):
        outcome = SOLVERS[name](puzzle)
        assert outcome.status is Status.SOLVED, name
        assert puzzle.solution_problems(outcome.solution) == [], name
