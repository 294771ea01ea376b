"""The runs a profile-guided build trains on (making/guided.py; setup.py with SUDOKU_SEARCH_GUIDED=1): the same
puzzles on every machine, each a real search for cdcl."""
from __future__ import annotations

import pytest

from making import guided
from puzzles import Budget
from puzzles.constraints.killer import Cage
from search import SOLVERS


@pytest.mark.slow
def test_the_made_puzzles_are_the_same_every_time_and_a_search_for_cdcl():
    killer, jigsaw = guided.made()
    assert [killer, jigsaw] == guided.made()  # a fixed seed
    assert killer.side == jigsaw.side == 16
    # the Killer: cages over the whole grid, no given; their totals those of 16 rows of 1..16
    cages = killer.layout.constraints
    assert cages and all(isinstance(c, Cage) and c.total is not None for c in cages) and not any(killer.values)
    assert sorted(cell for c in cages for cell in c.cells) == list(range(256))
    assert sum(c.total or 0 for c in cages) == 16 * sum(range(1, 17))
    # the Jigsaw: regions that are not boxes, about three cells in ten given, solved cell by cell by its rules
    assert jigsaw.layout.box_height == 0 and 0.2 < sum(1 for v in jigsaw.values if v) / 256 < 0.4
    found = SOLVERS["cdcl"](jigsaw, Budget(nodes=guided.MADE_NODES), solutions=2)
    assert found.solution is not None and jigsaw.solution_problems(found.solution) == []
    assert all(v == w for v, w in zip(jigsaw.values, found.solution.values, strict=True) if v)
    # the Killer: conflicts from the first guesses on (a tenth of the training's budget here), the budget kept
    tried = SOLVERS["cdcl"](killer, Budget(nodes=guided.MADE_NODES // 10), solutions=2)
    assert tried.effort["conflicts"] > guided.MADE_NODES // 20 and tried.effort["nodes"] <= guided.MADE_NODES // 10
