"""search/ on the public collections (skipped cleanly where they are not here: `sudoku-data fetch NAME`)."""
from __future__ import annotations

from itertools import islice

from puzzles import Budget, Entry, Status, read_puzzles
from search import SOLVERS


def first(path, count):
    return [r for r in islice(read_puzzles(path), count) if isinstance(r, Entry)]


def test_every_16x16_solved_by_mrv_with_singles(collection):
    entries = first(collection("gecode-16x16"), 1000)
    assert len(entries) == 55
    for entry in entries:
        out = SOLVERS["mrv"](entry.grid, propagate="singles")
        assert out.status is Status.SOLVED, entry.where
        assert entry.grid.solution_problems(out.solution) == [], entry.where


def test_hard_9x9_methods_agree(collection):
    for entry in first(collection("top95"), 4):
        reference = SOLVERS["mrv"](entry.grid, propagate="singles", solutions=2)
        assert reference.status is Status.SOLVED and reference.unique is True, entry.where
        for name, options in [("mrv", {"tie": "swap"}), ("mrv", {"propagate": "singles", "tie": "swap"})]:
            out = SOLVERS[name](entry.grid, Budget(nodes=300_000), solutions=2, **options)
            assert out.solution == reference.solution and out.unique is True, (entry.where, name, options)
        # restarts find it fast; proving uniqueness waits for a run whose allowance covers the tree
        out = SOLVERS["restart"](entry.grid, Budget(nodes=300_000), cutoff="luby", seed=2)
        assert out.solution == reference.solution, entry.where


def test_multi_solution_collection(collection):
    for entry in first(collection("serg-multi-solution"), 20):
        out = SOLVERS["mrv"](entry.grid, propagate="singles", solutions=2)
        assert out.status is Status.SOLVED and out.unique is False, entry.where
        assert entry.grid.solution_problems(out.solution) == []
