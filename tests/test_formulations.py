"""The formulations (CP-SAT, python-constraint, 0-1 MIP, SAT) through the common contract."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fixtures import pattern, scattered

from formulations import SOLVERS
from formulations.export import export_text
from puzzles.grid import Grid, classic
from puzzles.outcome import Budget, Method, Status

SEEDS = {
    "seed000": "000702000100040007650000094470801062000000000580209013860000075900060008000908000",
    "seed001": "005300000800000020070010500400005300010070006003200080060500009004000030000009700",
    "seed003": ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.",
}
NAMES = tuple(SOLVERS)


def collection_lines(path: Path) -> list[str]:
    return [line.split()[0] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


# -- the registry ----------------------------------------------------------------


def test_registry_lists_four_documented_methods() -> None:
    assert set(SOLVERS) == {"cpsat", "python-constraint", "mip", "sat"}
    for name, method in SOLVERS.items():
        assert isinstance(method, Method)
        assert method.summary and method.options and method.counters, name
    assert "model" in SOLVERS["cpsat"].options and "presolve" in SOLVERS["cpsat"].options
    assert "backend" in SOLVERS["mip"].options
    assert "solver" in SOLVERS["sat"].options and "solver" in SOLVERS["python-constraint"].options


# -- solving and agreeing ---------------------------------------------------------


@pytest.fixture(scope="module")
def seed_outcomes() -> dict[tuple[str, str], object]:
    return {(seed, name): SOLVERS[name](Grid.parse(line), solutions=2)
            for seed, line in SEEDS.items() for name in NAMES}


@pytest.mark.parametrize("seed", sorted(SEEDS))
@pytest.mark.parametrize("name", NAMES)
def test_solves_seed_checked_cell_by_cell(seed_outcomes, seed: str, name: str) -> None:
    puzzle = Grid.parse(SEEDS[seed])
    outcome = seed_outcomes[seed, name]
    assert outcome.status is Status.SOLVED, outcome.detail
    assert puzzle.solution_problems(outcome.solution) == []
    assert outcome.unique is True
    assert outcome.seconds > 0
    assert all(isinstance(v, int) for v in outcome.effort.values())
    assert set(outcome.effort) == set(SOLVERS[name].counters)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_all_formulations_agree_on_unique_puzzles(seed_outcomes, seed: str) -> None:
    solutions = {name: seed_outcomes[seed, name].solution.line() for name in NAMES}
    assert len(set(solutions.values())) == 1, solutions


def test_cpsat_model_variants_agree() -> None:
    puzzle = Grid.parse(SEEDS["seed003"])
    lines = {
        SOLVERS["cpsat"](puzzle, model=model, presolve=presolve).solution.line()
        for model in ("integer", "boolean") for presolve in ("on", "off")
    }
    assert len(lines) == 1


@pytest.mark.parametrize("name", NAMES)
def test_every_box_size_small_and_medium(name: str) -> None:
    for box, keep in ((2, 0.4), (3, 0.5), (4, 0.7)):
        puzzle = scattered(box, keep)
        outcome = SOLVERS[name](puzzle, Budget(seconds=60))
        assert outcome.status is Status.SOLVED, (box, outcome.detail)
        assert puzzle.solution_problems(outcome.solution) == []


# -- large grids by CP-SAT ----------------------------------------------------


@pytest.mark.parametrize("box", [4, 5])
def test_cpsat_large_built_puzzles(box: int) -> None:
    puzzle = scattered(box, 0.55)
    outcome = SOLVERS["cpsat"](puzzle, Budget(seconds=60), solutions=2)
    assert outcome.status is Status.SOLVED
    assert puzzle.solution_problems(outcome.solution) == []
    assert outcome.info["variables"] == box**4


def test_cpsat_gecode_16x16(collection: Callable[[str], Path]) -> None:
    puzzle = Grid.parse(collection_lines(collection("gecode-16x16"))[0])
    outcome = SOLVERS["cpsat"](puzzle, Budget(seconds=60))
    assert outcome.status is Status.SOLVED
    assert puzzle.solution_problems(outcome.solution) == []


@pytest.mark.slow
def test_cpsat_gecode_25x25(collection: Callable[[str], Path]) -> None:
    # The third puzzle of the set: CP-SAT settles it in about a second (many others take far longer).
    puzzle = Grid.parse(collection_lines(collection("gecode-25x25"))[2])
    outcome = SOLVERS["cpsat"](puzzle, Budget(seconds=60))
    assert outcome.status is Status.SOLVED, outcome.detail
    assert puzzle.solution_problems(outcome.solution) == []


# -- budgets (the rules themselves: tests/test_driver.py, for every formulation) ----


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cpsat", "sat", "python-constraint"])
def test_tiny_time_budget_on_25x25(name: str) -> None:
    puzzle = scattered(5, 0.45)
    outcome = SOLVERS[name](puzzle, Budget(seconds=0.001))
    assert outcome.status is Status.GAVE_UP and outcome.detail == "time"  # no timing asserted: a loaded machine


# -- counters -------------------------------------------------------------------


def test_cpsat_settles_easy_puzzle_in_presolve() -> None:
    easy = Grid.parse(SEEDS["seed000"])
    on = SOLVERS["cpsat"](easy)
    assert on.effort["branches"] == 0 and on.effort["conflicts"] == 0
    off = SOLVERS["cpsat"](easy, presolve="off")
    assert off.status is Status.SOLVED
    assert off.effort["propagations"] > 0  # the search itself propagated
    assert on.info["presolve"] is True and off.info["presolve"] is False
    assert on.info["variables"] == 81 and on.info["constraints"] == 27
    assert 0 <= on.info["solver_seconds"] <= on.seconds
    assert 0 <= on.info["build_seconds"] <= on.seconds
    assert on.info["deterministic_time"] > 0


def test_cpsat_boolean_model_size() -> None:
    puzzle = Grid.parse(SEEDS["seed000"])
    outcome = SOLVERS["cpsat"](puzzle, model="boolean")
    # 729 Booleans; 81 cell + 243 unit-value exactly-ones + one per given.
    assert outcome.info["variables"] == 729
    assert outcome.info["constraints"] == 81 + 243 + puzzle.givens


def test_cpsat_is_deterministic_by_default() -> None:
    puzzle = Grid.parse(SEEDS["seed001"])
    a = SOLVERS["cpsat"](puzzle, solutions=2, presolve="off")
    b = SOLVERS["cpsat"](puzzle, solutions=2, presolve="off")
    assert a.effort == b.effort


def test_sat_counters_and_size() -> None:
    puzzle = Grid.parse(SEEDS["seed001"])
    outcome = SOLVERS["sat"](puzzle)
    for key in ("decisions", "conflicts", "propagations"):
        assert isinstance(outcome.effort[key], int) and outcome.effort[key] >= 0
    # 729 variables; per cell and per unit-value: 1 at-least-one + 36 pairs.
    assert outcome.info["variables"] == 729
    assert outcome.info["clauses"] == (81 + 243) * (1 + 36) + puzzle.givens
    glucose = SOLVERS["sat"](puzzle, solver="glucose4")
    assert glucose.solution == outcome.solution


@pytest.mark.slow
def test_mip_counters_and_root_lp() -> None:
    easy = SOLVERS["mip"](Grid.parse(SEEDS["seed000"]))
    assert easy.info["root_lp_integral"] is True  # the constraints alone force a 0-1 vertex
    assert easy.info["variables"] == 729 and easy.info["constraints"] == 324
    hard = SOLVERS["mip"](Grid.parse(SEEDS["seed001"]))
    assert hard.info["root_lp_integral"] is False
    assert hard.info["root_lp_fractional_vars"] > 0
    assert isinstance(hard.effort["nodes"], int) and isinstance(hard.effort["iterations"], int)
    off = SOLVERS["mip"](Grid.parse(SEEDS["seed000"]), root_lp="off")
    assert "root_lp_integral" not in off.info
    # Without SCIP's presolve, the search is the LP at the root node: simplex
    # iterations appear exactly when the relaxation is fractional.
    searched = SOLVERS["mip"](Grid.parse(SEEDS["seed001"]), presolve="off")
    assert searched.effort["nodes"] >= 1 and searched.effort["iterations"] > 0
    assert SOLVERS["mip"](Grid.parse(SEEDS["seed000"]), presolve="off").effort["iterations"] == 0
    cbc = SOLVERS["mip"](Grid.parse(SEEDS["seed000"]), presolve="off", backend="cbc")
    assert cbc.status is Status.ERROR and "presolve" in cbc.detail


@pytest.mark.parametrize("backend", ["highs", "cbc"])
def test_mip_other_backends(backend: str) -> None:
    puzzle = Grid.parse(SEEDS["seed003"])
    outcome = SOLVERS["mip"](puzzle, backend=backend, root_lp="off")
    assert outcome.status is Status.SOLVED and outcome.info["backend"] == backend
    assert puzzle.solution_problems(outcome.solution) == []


def test_python_constraint_counts_one_blank_by_hand() -> None:
    values = pattern(3)
    values[40] = 0  # the centre cell: its 20 peers leave it one candidate
    puzzle = Grid(classic(3), bytes(values))
    for solver in ("backtracking", "recursive", "optimized"):
        one = SOLVERS["python-constraint"](puzzle, solver=solver)
        assert one.effort["nodes"] == 1, solver  # one value tried, and it fits
        assert one.info["given_placements"] == 80
        both = SOLVERS["python-constraint"](puzzle, solutions=2, solver=solver)
        assert both.effort["nodes"] == 1 and both.unique is True  # nothing else to try


def test_python_constraint_counts_two_blanks_by_hand() -> None:
    values = pattern(3)
    values[0] = values[80] = 0  # corners: each forced by its row, column and box
    outcome = SOLVERS["python-constraint"](Grid(classic(3), bytes(values)))
    assert outcome.effort["nodes"] == 2


def test_python_constraint_solvers_agree() -> None:
    puzzle = Grid.parse(SEEDS["seed001"])
    lines = {SOLVERS["python-constraint"](puzzle, solver=s).solution.line()
             for s in ("backtracking", "recursive", "optimized")}
    assert len(lines) == 1


# -- options and errors ---------------------------------------------------------


def test_string_options_from_the_command_line() -> None:
    puzzle = Grid.parse(SEEDS["seed001"])
    outcome = SOLVERS["cpsat"](puzzle, presolve="off", workers="2", seed="7", solutions="2")
    assert outcome.status is Status.SOLVED and outcome.unique is True
    assert outcome.info["presolve"] is False


@pytest.mark.parametrize("name, options, words", [
    ("cpsat", {"colour": "red"}, "unknown option 'colour'"),
    ("cpsat", {"model": "real"}, "integer, boolean"),
    ("cpsat", {"presolve": "maybe"}, "on or off"),
    ("cpsat", {"workers": "0"}, "workers"),
    ("cpsat", {"solutions": "0"}, "solutions"),
    ("python-constraint", {"solver": "minconflicts"}, "backtracking"),
    ("mip", {"backend": "gurobi"}, "scip"),
    ("sat", {"solver": "zchaff"}, "cadical"),
    ("sat", {"solutions": "two"}, "whole number"),
])
def test_bad_options_are_errors_not_tracebacks(name: str, options: dict, words: str) -> None:
    outcome = SOLVERS[name](Grid.parse(SEEDS["seed000"]), **options)
    assert outcome.status is Status.ERROR
    assert words in outcome.detail


@pytest.mark.parametrize("name", NAMES)
def test_invalid_puzzle_is_an_error_with_the_reason(name: str) -> None:
    outcome = SOLVERS[name](Grid.parse("11" + "." * 79))
    assert outcome.status is Status.ERROR
    assert "two 1s in row 1" in outcome.detail


def test_cbc_refuses_a_node_budget_clearly() -> None:
    outcome = SOLVERS["mip"](Grid.parse(SEEDS["seed000"]), Budget(nodes=5), backend="cbc")
    assert outcome.status is Status.ERROR and "cbc" in outcome.detail


# -- export ---------------------------------------------------------------------


def test_export_texts(tmp_path: Path) -> None:
    from commands import export

    puzzle = Grid.parse(SEEDS["seed000"])
    dimacs = export_text(puzzle, "sat")
    header = next(line for line in dimacs.splitlines() if line.startswith("p "))
    assert header == f"p cnf 729 {(81 + 243) * 37 + puzzle.givens}"
    assert sum(1 for line in dimacs.splitlines() if line.endswith(" 0")) == (81 + 243) * 37 + puzzle.givens
    proto = export_text(puzzle, "cpsat")
    assert proto.count("all_diff") == 27
    assert export_text(puzzle, "cpsat", cpsat_model="boolean").count("exactly_one") == 324
    lp = export_text(puzzle, "mip")
    assert "cell_1_1" in lp and "row_9_value_9" in lp
    assert "ROWS" in export_text(puzzle, "mip", mip_format="mps")
    out = tmp_path / "model.cnf"
    assert export.main([SEEDS["seed000"], "--model", "sat", "--out", str(out)]) == 0
    assert out.read_text() == dimacs
    assert export.main(["123", "--model", "sat"]) == 2


# -- the project's own puzzle file --------------------------------------------


def project_seeds() -> list[tuple[str, Grid]]:
    path = Path(__file__).resolve().parents[1] / "puzzles" / "seeds.txt"
    if not path.exists():
        pytest.skip("puzzles/seeds.txt is absent")
    entries = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, _, name = line.strip().partition(" ")
        grid = Grid.parse(text)
        if not grid.conflicts():  # the file's invalid entry is for the readers, not the solvers
            entries.append((name.strip() or text, grid))
    return entries


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_project_seeds_file(name: str) -> None:
    seen = 0
    for label, puzzle in project_seeds():
        if name == "python-constraint" and puzzle.box > 3:
            continue  # forward checking alone is hopeless on the large ones
        outcome = SOLVERS[name](puzzle, Budget(seconds=60), solutions=2)
        seen += 1
        if "no-solution" in label:
            assert outcome.status is Status.UNSATISFIABLE, label
            continue
        assert outcome.status is Status.SOLVED, (label, outcome.detail)
        assert puzzle.solution_problems(outcome.solution) == [], label
        assert outcome.unique is ("multiple" not in label), label
    assert seen >= 8
