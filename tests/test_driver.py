"""The formulation driver: uniqueness, budgets and the end of a solve, once for every formulation.

Every formulation (each CP-SAT view, each MIP backend, each SAT encoding, solver and mode,
python-constraint) goes through formulations.driver, so the rules are tested here once,
parametrised over all of them; solutions are checked cell by cell against an independent
hand-written search.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fixtures import ROW_COLUMN_UNSAT, ROW_COLUMN_UNSAT_4, SEED001, SEED002_MULTI

from formulations import SOLVERS
from formulations.driver import MAX_COUNT, Allowance
from puzzles.conclusion import UNPROVED
from puzzles.grid import Grid
from puzzles.outcome import Budget, Outcome, Status
from search import SOLVERS as SEARCHES

# Every formulation, as (method, options), and the counter its node budget binds (None: it takes none).
FORMULATIONS: dict[str, tuple[str, dict[str, str], str | None]] = {
    "cpsat": ("cpsat", {}, "conflicts"),
    "cpsat-boolean": ("cpsat", {"model": "boolean"}, "conflicts"),
    "cpsat-presolve-off": ("cpsat", {"presolve": "off"}, "conflicts"),
    "mip-scip": ("mip", {}, "nodes"),
    "mip-highs": ("mip", {"backend": "highs"}, None),
    "mip-cbc": ("mip", {"backend": "cbc"}, None),
    "sat-minimal": ("sat", {"encoding": "minimal"}, "conflicts"),
    "sat-natural": ("sat", {"encoding": "natural"}, "conflicts"),
    "sat-complete": ("sat", {}, "conflicts"),
    "sat-augmented": ("sat", {"encoding": "augmented"}, "conflicts"),
    "sat-probe": ("sat", {"probe": "on"}, "conflicts"),
    "sat-incremental": ("sat", {"incremental": "on"}, None),  # its counts depend on the puzzles before
    "sat-cadical195": ("sat", {"solver": "cadical195"}, "conflicts"),
    "sat-glucose4": ("sat", {"solver": "glucose4"}, None),  # runs on past a conflict budget: refused
    "python-constraint": ("python-constraint", {}, "nodes"),
}
NAMES = sorted(FORMULATIONS)
BUDGETED = [name for name in NAMES if FORMULATIONS[name][2] is not None]


def run(name: str, line: str, budget: Budget = Budget(), solutions: int = 1) -> Outcome:
    method, options, _ = FORMULATIONS[name]
    return SOLVERS[method](Grid.parse(line), budget, solutions=solutions, **options)


def reference(line: str) -> Grid:
    """The solution by a hand-written search, proved unique."""
    outcome = SEARCHES["mrv"](Grid.parse(line), solutions=2)
    assert outcome.unique is True and outcome.solution is not None
    return outcome.solution


def assert_same_cells(found: Grid | None, expected: Grid) -> None:
    assert found is not None
    for cell, (a, b) in enumerate(zip(found.values, expected.values, strict=True)):
        assert a == b, f"cell {cell}: {a} instead of {b}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_unique_puzzle_solved_and_proved_unique(name: str) -> None:
    expected = reference(SEED001)
    first = run(name, SEED001)
    assert first.status is Status.SOLVED and first.unique is None and first.detail == ""
    assert_same_cells(first.solution, expected)
    assert first.info["solves"] == 1
    proof = run(name, SEED001, solutions=2)
    assert proof.status is Status.SOLVED and proof.unique is True and proof.detail == ""
    assert_same_cells(proof.solution, expected)
    assert proof.info["solves"] == 2  # the second solve, with the first solution excluded, found none
    assert 0 <= proof.info["build_seconds"] <= proof.seconds
    assert 0 <= proof.info["solver_seconds"] <= proof.seconds


@pytest.mark.parametrize("name", NAMES)
def test_second_solution_means_not_unique(name: str) -> None:
    puzzle = Grid.parse(SEED002_MULTI)
    outcome = run(name, SEED002_MULTI, solutions=2)
    assert outcome.status is Status.SOLVED and outcome.unique is False and outcome.detail == ""
    assert outcome.solution is not None and puzzle.solution_problems(outcome.solution) == []
    assert outcome.info["solves"] == 2
    one = run(name, SEED002_MULTI)  # one solution asked for: uniqueness is not claimed either way
    assert one.status is Status.SOLVED and one.unique is None


@pytest.mark.parametrize("line", [ROW_COLUMN_UNSAT, ROW_COLUMN_UNSAT_4], ids=["9x9", "4x4"])
@pytest.mark.parametrize("name", NAMES)
def test_unsatisfiable(name: str, line: str) -> None:
    assert Grid.parse(line).conflicts() == []  # valid-looking: the contradiction is deeper
    for solutions in (1, 2):
        outcome = run(name, line, solutions=solutions)
        assert outcome.status is Status.UNSATISFIABLE and outcome.solution is None, outcome.detail
        assert outcome.unique is None and outcome.detail == ""


@pytest.mark.parametrize("name", NAMES)
def test_a_full_grid_is_its_own_unique_solution_in_one_solve(name: str) -> None:
    full = reference(SEED001)
    outcome = run(name, full.line(), solutions=2)
    assert outcome.status is Status.SOLVED and outcome.unique is True
    assert_same_cells(outcome.solution, full)
    assert outcome.info["solves"] == 1  # nothing else can differ: no second solve


@pytest.mark.parametrize("name", NAMES)
def test_no_time_left_gives_up_before_any_solve(name: str) -> None:
    outcome = run(name, SEED001, Budget(seconds=0))
    assert outcome.status is Status.GAVE_UP and outcome.detail == "time" and outcome.solution is None
    assert "solves" not in outcome.info


@pytest.mark.parametrize("name", NAMES)
def test_tiny_time_budget_gives_up_promptly(name: str, collection: Callable[[str], Path]) -> None:
    path = collection("top95")
    if name == "sat-incremental":
        pytest.skip("a kept solver may have learnt enough from earlier puzzles to answer within a millisecond")
    hard = path.read_text().split()[0]
    outcome = run(name, hard, Budget(seconds=0.001))
    assert outcome.status is Status.GAVE_UP and outcome.detail == "time" and outcome.solution is None


@pytest.mark.parametrize("name", BUDGETED)
def test_node_budget_spent_in_the_uniqueness_proof_keeps_the_solution(name: str) -> None:
    counter = FORMULATIONS[name][2]
    assert counter is not None
    first = run(name, SEED001)
    spent = first.effort[counter]
    # The smallest budget that reaches the first solution: the count it took, or one more for the
    # solvers that check their conflict limit before they report the model found at that conflict.
    budget = next(b for b in (spent, spent + 1) if run(name, SEED001, Budget(nodes=b)).solved)
    outcome = run(name, SEED001, Budget(nodes=budget), solutions=2)
    assert outcome.status is Status.SOLVED and outcome.unique is None
    assert outcome.detail == UNPROVED + "nodes"  # the searches' wording too
    assert_same_cells(outcome.solution, reference(SEED001))
    if budget == spent:  # nothing left: the proof may not start, so nothing ran on
        assert outcome.info["solves"] == 1 and outcome.effort == first.effort
    else:  # one conflict left: the proof starts and is cut short
        assert outcome.info["solves"] == 2


@pytest.mark.parametrize("name", BUDGETED)
def test_node_budget_spent_before_a_solution_gives_up(name: str) -> None:
    counter = FORMULATIONS[name][2]
    assert counter is not None
    spent = run(name, SEED001).effort[counter]
    if spent < 3:
        pytest.skip(f"{name} settles the puzzle within {spent} {counter}")
    outcome = run(name, SEED001, Budget(nodes=1), solutions=2)
    assert outcome.status is Status.GAVE_UP and outcome.detail == "nodes" and outcome.solution is None
    # Stopped short of the solution. The backends keep a conflict limit at their own check points:
    # MiniSat may pass it by a conflict, CP-SAT without presolve by dozens (its count includes work
    # before the limit is read), python-constraint and SCIP exactly.
    assert outcome.effort[counter] < spent
    if name in ("python-constraint", "mip-scip"):
        assert outcome.effort[counter] == 1


def test_sat_propagation_alone_concludes_through_the_driver() -> None:
    easy = "000702000100040007650000094470801062000000000580209013860000075900060008000908000"  # seed 000
    solved = SOLVERS["sat"](Grid.parse(easy), solutions=2, search="off")
    assert solved.status is Status.SOLVED and solved.unique is True  # forced: nothing was chosen
    assert solved.info["solves"] == 1
    assert_same_cells(solved.solution, reference(easy))
    stuck = SOLVERS["sat"](Grid.parse(SEED001), solutions=2, search="off", encoding="minimal")
    assert stuck.status is Status.GAVE_UP and stuck.detail == "incomplete" and stuck.solution is None
    assert SOLVERS["sat"](Grid.parse(ROW_COLUMN_UNSAT), search="off").status is Status.UNSATISFIABLE


def test_allowances_map_into_the_backends_ranges() -> None:
    none = Allowance(float("inf"), float("inf"))
    assert not none.timed and not none.counted and none.backend_count() == MAX_COUNT
    some = Allowance(-0.5, -3)
    assert some.timed and some.counted and some.backend_seconds() == 0.0 and some.backend_count() == 0
