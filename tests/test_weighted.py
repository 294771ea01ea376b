"""The choice weighted by failures (dom/wdeg, search/weighted.py) and the search's failure hook."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from fixtures import LADDER, SEED001_UNSAT, TOP95_FIRST, UNSAT_4, partial_grid
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import Budget, Candidates, CellMasks, Grid, Status
from puzzles.grid import geometry
from search import SOLVERS
from search.depth_first import search
from search.inference import MAKE_RUNG
from search.weighted import FailureWeights


def slow_choice(grid: Grid, failures: list[int]) -> tuple[int, int]:
    """The obvious way: every unit weighs 1 plus the failures in its cells; every empty cell's
    candidates over its three units' weights, as fractions; the smallest, the first cell on a tie;
    a cell with no candidate first of all."""
    geo = geometry(grid.box)
    board = Candidates(grid)
    unit_weight = [1 + sum(cell in unit for cell in failures) for unit in geo.units]
    empty = [cell for cell, v in enumerate(grid.values) if not v]
    if not empty:
        return -1, 0
    dead = [cell for cell in empty if not board.candidates(cell)]
    if dead:
        return dead[0], 0

    def score(cell: int) -> tuple[Fraction, int]:
        weight = sum(unit_weight[u] for u in geo.units_of(cell))
        return Fraction(board.candidates(cell).bit_count(), weight), cell

    best = min(empty, key=score)
    return best, board.candidates(best)


@settings(max_examples=80, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.9),
       wrong=st.sampled_from([0, 0, 1]), failures=st.lists(st.integers(0, 10**6), max_size=40))
@pytest.mark.slow
def test_the_weighted_choice_is_the_slow_obvious_one(box, seed, blank, wrong, failures):
    grid = partial_grid(box, seed, blank, wrong)
    cells = [f % (box ** 4) for f in failures]
    chooser = FailureWeights(CellMasks(grid), None)
    for cell in cells:
        chooser.failed(cell)
    assert chooser.choose(0) == slow_choice(grid, cells)


def test_with_no_failure_yet_it_is_mrv_with_row_major_ties():
    """Every cell weighs 3 at first, so the first choice is seed 000's."""
    grid = partial_grid(3, 1, 0.6, 0)
    assert FailureWeights(CellMasks(grid), None).choose(0) == CellMasks(grid).fewest()


class Recording:
    """dom/wdeg that also notes what the search told it, and counts the refutations itself: a strategy that
    hands each call on to a FailureWeights (a wrapper, not a subclass: the compiled FailureWeights allows none)."""

    def __init__(self, grid: Grid, rung: str) -> None:
        make = MAKE_RUNG[rung]
        self.weights = FailureWeights(CellMasks(grid), make() if make else None)
        self.engine = self.weights.engine
        self.order = self.weights.order
        self.release = self.weights.release
        self.describe_choice = self.weights.describe_choice
        self.heard: list[int] = []
        self.refuted = self.dead_ends = 0
        self.inference = self.weights.inference
        if self.inference is not None:
            inner = self.inference

            class Counting:
                def __getattr__(self, name: str) -> object:
                    return getattr(inner, name)

                def __setattr__(self, name: str, value: object) -> None:
                    setattr(inner, name, value)

                def __call__(counting, engine: object) -> int:
                    placed = inner(engine)
                    self.refuted += placed < 0
                    return placed

            self.inference = Counting()  # type: ignore[assignment]

    @property
    def failures(self) -> int:
        return self.weights.failures

    def choose(self, depth: int) -> tuple[int, int]:
        cell, mask = self.weights.choose(depth)
        self.dead_ends += cell >= 0 and not mask
        return cell, mask

    def failed(self, cell: int) -> None:
        self.heard.append(cell)
        self.weights.failed(cell)


@pytest.mark.parametrize("rung", ["none", "singles", "alldiff"])
@pytest.mark.parametrize("puzzle", [SEED001_UNSAT, TOP95_FIRST])
def test_the_search_reports_every_failure_once(puzzle, rung):
    """The hook hears each refuted placement and each dead end, no more: failures learned are
    exactly those the inference and the choice met."""
    grid = Grid.parse(puzzle)
    chooser = Recording(grid, rung)
    out = search(chooser, grid, Budget(nodes=20_000), 2, 0.0)
    assert out.status in (Status.SOLVED, Status.UNSATISFIABLE, Status.GAVE_UP)
    assert len(chooser.heard) == chooser.failures == chooser.refuted + chooser.dead_ends
    assert chooser.failures > 0 or rung == "alldiff"  # AllDifferent may settle a puzzle with no failure
    assert all(not grid.values[cell] for cell in chooser.heard)  # failures are at cells the search fills


@pytest.mark.parametrize("puzzle", [UNSAT_4, SEED001_UNSAT])
@pytest.mark.parametrize("rung", ["none", *LADDER])
def test_domwdeg_proves_a_puzzle_without_solution(puzzle, rung):
    for method, options in [("mrv", {}), ("restart", {"cutoff": "luby", "unit": 1})]:
        out = SOLVERS[method](Grid.parse(puzzle), Budget(seconds=60), propagate=rung, choose="domwdeg", **options)
        assert out.status is Status.UNSATISFIABLE, (method, out)


def test_domwdeg_is_deterministic_and_its_weights_outlive_restarts(monkeypatch):
    """No random draw: the same run twice counts the same; the seed option does not matter. The weights a
    descent learns are those the next one chooses by: the total weight seen by `choose` never drops, so no
    restart resets it, and it has grown by the time of the last descent."""
    from search.weighted import FailureWeights

    seen: list[int] = []
    choose = FailureWeights.choose

    def spied(self: FailureWeights, depth: int) -> tuple[int, int]:
        seen.append(sum(self.unit_weight))
        return choose(self, depth)

    puzzle = Grid.parse(TOP95_FIRST)
    runs = [SOLVERS["restart"](puzzle, cutoff="luby", unit=1, choose="domwdeg", propagate="singles", seed=seed)
            for seed in (0, 0, 1)]
    assert runs[0].effort == runs[1].effort == runs[2].effort
    assert runs[0].effort["restarts"] > 0
    assert runs[0].solution is not None and puzzle.solution_problems(runs[0].solution) == []
    monkeypatch.setattr(FailureWeights, "choose", spied)
    again = SOLVERS["restart"](puzzle, cutoff="luby", unit=1, choose="domwdeg", propagate="singles")
    assert again.effort == runs[0].effort
    units = 3 * 9
    assert seen[0] == units and seen[-1] > units  # each unit weighs 1 at first, and failures added to them
    assert all(a <= b for a, b in itertools.pairwise(seen))  # never reset, across every restart
