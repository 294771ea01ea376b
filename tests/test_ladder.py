"""The inference ladder on the engine: each rung deduces exactly what its rules' fixpoint does.

search/rules.py's rules are tested against brute force in test_rules.py; here the rungs
as the searches run them (search/inference.py, on the per-cell masks, placing values and
removing candidates with exact undo) are held to `rules.fixpoint` of the same rules on
random partial grids of every size, and the searches built on them to the puzzles' answers.
"""
from __future__ import annotations

import random

import pytest
from fixtures import LADDER, SEED001, SEED001_UNSAT, UNSAT_4, engine_result, partial_grid, reference
from hypothesis import given, settings
from hypothesis import strategies as st

from making.singles import generate
from making.solutions import pattern_solution
from puzzles import Budget, Grid, Status, classic, random_isomorph
from search import SOLVERS
from search.inference import REMOVING


@settings(max_examples=60, deadline=None)
@given(box=st.sampled_from([2, 3, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
       wrong=st.sampled_from([0, 0, 1, 2]), rung=st.sampled_from(LADDER[:-1]))
@pytest.mark.slow
def test_a_rung_on_the_engine_deduces_exactly_its_rules_fixpoint(box, seed, blank, wrong, rung):
    grid = partial_grid(box, seed, blank, wrong)
    assert engine_result(grid, rung) == reference(grid, rung)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9), wrong=st.sampled_from([0, 1]))
def test_probing_on_the_engine_deduces_exactly_its_rules_fixpoint(seed, blank, wrong):
    grid = partial_grid(2, seed, blank, wrong)  # the reference probes by brute force: 4x4 only
    assert engine_result(grid, "probe") == reference(grid, "probe")


@pytest.mark.parametrize("box", [2, 3, 4])
@pytest.mark.parametrize("rung", LADDER)
def test_every_rung_keeps_the_solution_and_proves_it_unique(box, rung):
    if rung == "probe" and box == 4:
        pytest.skip("probing every candidate of a 16x16 at each node is the costliest rung: 9x9 suffices")
    # 16x16: a puzzle naked singles settle (on one hidden singles settle, naked singles alone may search long)
    puzzle, solution = generate(box, random.Random(box), rule="naked" if box == 4 else "singles")
    methods = [("mrv", {}), ("mrv", {"tie": "swap"}), ("restart", {"cutoff": "luby"}),
               ("mrv", {"choose": "domwdeg"}), ("restart", {"cutoff": "luby", "unit": 2, "choose": "domwdeg"})]
    if box < 4 or rung != "naked":
        methods.append(("astar", {}))
    for method, options in methods:
        out = SOLVERS[method](puzzle, Budget(seconds=60), propagate=rung, solutions=2, **options)
        assert out.status is Status.SOLVED and out.unique is True, (method, out.detail)
        assert out.solution == solution  # cell by cell
        assert puzzle.solution_problems(out.solution) == []


@pytest.mark.parametrize("puzzle", [UNSAT_4, SEED001_UNSAT])
@pytest.mark.parametrize("rung", LADDER)
def test_every_rung_proves_a_puzzle_without_solution(puzzle, rung):
    for method, options in [("mrv", {}), ("restart", {"cutoff": "luby"}), ("astar", {})]:
        out = SOLVERS[method](Grid.parse(puzzle), Budget(seconds=60), propagate=rung, **options)
        assert out.status is Status.UNSATISFIABLE, (method, out)


@pytest.mark.slow
def test_a_stronger_rung_never_needs_a_guess_where_a_weaker_one_did_not():
    """A rung's fixpoint contains the one below: what it settles without a guess grows up the ladder."""
    rng = random.Random(7)
    for _ in range(5):
        puzzle = random_isomorph(Grid.parse(SEED001), rng)
        guessed = [SOLVERS["mrv"](puzzle, propagate=rung).effort["guesses"] > 0 for rung in LADDER]
        assert guessed == sorted(guessed, reverse=True), guessed  # True (guessed) before False, never after


def test_counters_on_a_grid_one_cell_short():
    """Hand-counted: one blank, one candidate. Without inference the search places it (one node, no
    guess); every rung places it by inference (one forced value, no node); nothing to eliminate."""
    solved = pattern_solution(2)
    puzzle = Grid(classic(2), bytes([0, *solved.values[1:]]))
    assert SOLVERS["mrv"](puzzle).effort == {"nodes": 1, "guesses": 0, "backtracks": 0}
    for rung in LADDER:
        out = SOLVERS["mrv"](puzzle, propagate=rung)
        expected = {"nodes": 0, "guesses": 0, "backtracks": 0, "forced": 1}
        if rung in REMOVING:
            expected["eliminated"] = 0
        assert out.effort == expected, rung
        assert out.solution == solved


def test_the_rules_work_is_in_the_outcomes_info():
    out = SOLVERS["mrv"](Grid.parse(SEED001), propagate="alldiff")
    tally = out.info["rules"]
    assert set(tally) <= {"singles", "locked candidates", "alldiff"}
    assert tally["singles"] == out.effort["forced"]
    assert sum(n for rule, n in tally.items() if rule != "singles") == out.effort["eliminated"] > 0


@pytest.mark.parametrize("method, options", [("mrv", {}), ("restart", {"cutoff": "luby"}), ("astar", {})])
def test_a_long_propagation_keeps_to_the_time_budget(method, options):
    """Probing a 16x16 at the root takes far longer than a zero budget: the rung reads the
    deadline itself, and the search gives up on time instead of running on."""
    puzzle, _ = generate(4, random.Random(4))
    blanked = Grid(classic(4), bytes(v if i % 3 else 0 for i, v in enumerate(puzzle.values)))
    out = SOLVERS[method](blanked, Budget(seconds=0), propagate="probe", **options)
    assert out.status is Status.GAVE_UP and out.detail == "time"


def every_unit(self, masks, engine, geo):
    """Step's pass as it was: the rule over every unit, every time (the reference for the test below)."""
    return self.rule(masks, geo, None)


@pytest.mark.parametrize("rung", ["locked", "subsets", "alldiff"])
@pytest.mark.parametrize("choose", ["fewest", "domwdeg"])
@pytest.mark.parametrize("puzzle", [SEED001, SEED001_UNSAT])
def test_the_rules_over_changed_units_search_exactly_as_over_every_unit(rung, choose, puzzle, monkeypatch):
    """A rung runs each rule only on the units that changed since it last removed nothing: the
    search must be the same step for step, so its counters and its per-rule work are."""
    from search import inference
    grid, budget = Grid.parse(puzzle), Budget(nodes=400)
    fast = SOLVERS["mrv"](grid, budget, solutions=2, propagate=rung, choose=choose)
    monkeypatch.setattr(inference.Step, "__call__", every_unit)
    slow = SOLVERS["mrv"](grid, budget, solutions=2, propagate=rung, choose=choose)
    assert fast.effort["backtracks"] > 0  # it searched, and stepped back
    assert (fast.status, fast.effort, fast.info["rules"]) == (slow.status, slow.effort, slow.info["rules"])
    assert fast.solution == slow.solution
