"""search/: properties over random puzzles (isomorphs of a full grid with random blanks)."""
from __future__ import annotations

from fixtures import blanked
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import Budget, Candidates, CellMasks, Grid, Status
from search import SOLVERS
from search.depth_first import search
from search.inference import make_rung
from search.mrv import Fewest


def strategy(puzzle: Grid, propagate: str, tie: str, engine: str) -> Fewest:
    """mrv's strategy on the engine named, whichever search/engine.py's `on_engine` would choose."""
    return Fewest((CellMasks if engine == "cells" else Candidates)(puzzle), tie, make_rung(propagate))

VARIANTS = [
    ("backtracking", {}),
    ("mrv", {}),
    ("mrv", {"tie": "swap"}),
    ("mrv", {"propagate": "singles"}),
    ("mrv", {"propagate": "singles", "tie": "swap"}),
    ("restart", {"cutoff": "luby", "seed": 3}),
    ("restart", {"cutoff": "none", "seed": 3, "max_restarts": 50}),
    ("astar", {}),
    ("cdcl", {}),
    ("cdcl", {"propagate": "locked"}),
]


@settings(max_examples=25, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 10**6), blank=st.floats(0.1, 0.6))
def test_every_method_returns_valid_solutions_and_agrees_on_the_status(box, seed, blank):
    puzzle = blanked(box, seed, blank)
    statuses = set()
    for name, options in VARIANTS:
        out = SOLVERS[name](puzzle, Budget(nodes=20_000), solutions=2, **options)
        assert out.status in (Status.SOLVED, Status.GAVE_UP), (name, options, out.detail)
        if out.status is Status.SOLVED:
            assert puzzle.solution_problems(out.solution) == []
            if out.unique is not None:
                statuses.add(out.unique)
        again = SOLVERS[name](puzzle, Budget(nodes=20_000), solutions=2, **options)
        assert again.effort == out.effort and again.solution == out.solution
    assert len(statuses) <= 1  # the complete methods agree on uniqueness


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), blank=st.floats(0.4, 0.8), solutions=st.sampled_from([1, 2]),
       tie=st.sampled_from(["rowmajor", "swap", "requeue"]), propagate=st.sampled_from(["none", "singles"]))
def test_both_engines_give_the_same_singles_search(seed, blank, solutions, tie, propagate):
    # mrv with singles runs on the per-cell masks, without on the per-unit masks; one strategy runs
    # on either, and must count exactly the same
    puzzle = blanked(3, seed, blank)
    outs = [search(strategy(puzzle, propagate, tie, engine), puzzle, Budget(nodes=5000), solutions, 0.0)
            for engine in ("cells", "units")]
    assert outs[0].effort == outs[1].effort
    assert (outs[0].status, outs[0].solution, outs[0].unique) == (outs[1].status, outs[1].solution, outs[1].unique)


def test_both_engines_count_the_same_on_hard_puzzles():
    for line in ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
                 "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."):
        puzzle = Grid.parse(line)
        for tie in ("rowmajor", "swap", "requeue"):
            outs = [search(strategy(puzzle, "singles", tie, engine), puzzle, Budget(), 2, 0.0)
                    for engine in ("cells", "units")]
            assert outs[0].effort == outs[1].effort and outs[0].unique is True
