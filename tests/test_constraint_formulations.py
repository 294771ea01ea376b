"""The formulations, the certifier and the solution maker on puzzles with constraints beyond houses and cages
(anti-knight, anti-king, non-consecutive, thermometers): every formulation and every SAT encoding gives the brute
force's solution and its uniqueness (tests/constraint_grids.py); the certifier certifies what the brute force
finds unique and refuses the rest; a random full grid keeps every rule."""
from __future__ import annotations

import random
import string

import pytest
from constraint_grids import EMPTY, breaks, puzzles, several, solutions

from formulations import SOLVERS
from formulations.cnf import ENCODINGS
from formulations.constraints import cpsat as cpsat_encoders
from formulations.constraints import csp as csp_encoders
from formulations.constraints import mip as mip_encoders
from formulations.constraints import sat as sat_encoders
from formulations.export import export_text
from formulations.mip import BACKENDS, Unavailable, make_solver
from formulations.pysat_solvers import opened
from making.certify import CageCertifier, SolutionCertifier
from making.certify import solutions as sat_solutions
from making.solutions import random_solution
from puzzles import Grid
from puzzles.constraints import CONSTRAINT_KINDS, HOUSED
from puzzles.constraints.killer import cages_in
from puzzles.outcome import Status

PUZZLES = puzzles()
NAMES = [name for name, _, _ in PUZZLES]


def _mip_backends() -> list[str]:
    found = []
    for backend in BACKENDS:
        try:
            make_solver(backend)
        except Unavailable:
            continue
        found.append(backend)
    return found


# (method, its options): each formulation's models, each SAT encoding, each MIP backend this OR-Tools has
SETTINGS = [("cpsat", {"model": "integer"}), ("cpsat", {"model": "boolean"}),
            *(("sat", {"encoding": encoding}) for encoding in ENCODINGS),
            ("sat", {"incremental": True}), ("sat", {"probe": True}),
            *(("mip", {"backend": backend}) for backend in _mip_backends()),
            ("python-constraint", {})]
IDS = [f"{method}-{'-'.join(map(str, opts.values()))}".rstrip("-") for method, opts in SETTINGS]
# the MIP's other backends read the same model as its default (SCIP): in the slow tier
PARAMS = [pytest.param(method, opts, id=name, marks=pytest.mark.slow if opts.get("backend", "scip") != "scip" else ())
          for (method, opts), name in zip(SETTINGS, IDS, strict=True)]


def _keeps_every_rule(grid: Grid) -> bool:
    return grid.is_full() and not grid.conflicts() and not any(
        breaks(grid.layout, grid.values, c) for c in range(len(grid.values)))


@pytest.mark.parametrize("registry", [cpsat_encoders, sat_encoders, mip_encoders, csp_encoders],
                         ids=["cpsat", "sat", "mip", "csp"])
def test_every_formulation_knows_every_kind(registry: object) -> None:
    """Every kind, Killer cages among them, has an encoder in each registry: what each formulation knows; a kind that
    adds houses (diagonals, ...) none, its houses stated with the rows' and columns'."""
    assert set(registry.ENCODERS) == set(CONSTRAINT_KINDS) - HOUSED  # type: ignore[attr-defined]


@pytest.mark.parametrize(("method", "opts"), PARAMS)
def test_unique_puzzles_solved_as_the_brute_force(method: str, opts: dict[str, object]) -> None:
    for name, puzzle, solution in PUZZLES:
        outcome = SOLVERS[method](puzzle, solutions=2, **opts)
        assert outcome.status is Status.SOLVED, (name, outcome.detail)
        assert outcome.solution is not None
        assert list(outcome.solution.values) == list(solution.values), name
        assert outcome.unique is True, name


# a kind's second statement in a formulation (its option), and the kind: run on the puzzles that hold it
STATEMENTS = [("cpsat", {"whispers": "difference"}, "whispers"), ("sat", {"thermometer": "order"}, "thermometer"),
              ("cpsat", {"sandwich": "linear"}, "sandwich"), ("cpsat", {"sandwich": "linear", "model": "boolean"},
                                                              "sandwich")]


@pytest.mark.parametrize(("method", "opts", "kind"), STATEMENTS,
                         ids=[f"{m}-{'-'.join(map(str, o.values()))}" for m, o, _ in STATEMENTS])
def test_a_kinds_second_statement_gives_the_brute_forces_answers(method: str, opts: dict[str, object],
                                                                 kind: str) -> None:
    held = [name for name in NAMES if kind in name.rsplit("-", 1)[0].split("+")]
    assert len(held) >= 2
    for name, puzzle, solution in PUZZLES:
        if name not in held:
            continue
        outcome = SOLVERS[method](puzzle, solutions=2, **opts)
        assert outcome.status is Status.SOLVED and outcome.unique is True, (name, outcome.detail)
        assert outcome.solution is not None and list(outcome.solution.values) == list(solution.values), name
        open_one = SOLVERS[method](several(name), solutions=2, **opts)
        assert open_one.status is Status.SOLVED and open_one.unique is False, name
        assert open_one.solution is not None and _keeps_every_rule(open_one.solution), name


@pytest.mark.parametrize("name", NAMES)
def test_the_puzzles_with_several_solutions_have_several(name: str) -> None:
    assert len(list(solutions(several(name), 2))) == 2


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("method", "opts"), PARAMS)
def test_puzzles_with_several_solutions_said_so(method: str, opts: dict[str, object], name: str) -> None:
    puzzle = several(name)
    outcome = SOLVERS[method](puzzle, solutions=2, **opts)
    assert outcome.status is Status.SOLVED, outcome.detail
    assert outcome.unique is False
    assert outcome.solution is not None and _keeps_every_rule(outcome.solution)
    assert all(g == 0 or g == v for g, v in zip(puzzle.values, outcome.solution.values, strict=True))


def test_a_grid_without_solution_has_none() -> None:
    # a 4x4 with anti-king has no solution (the brute force says so): every formulation finds none
    empty = Grid.parse("." * 16 + ";antiking")
    assert not list(solutions(empty, 1))
    for method, opts in SETTINGS:
        outcome = SOLVERS[method](empty, solutions=2, **opts)
        assert outcome.status is Status.UNSATISFIABLE, (method, opts, outcome.detail)
    assert sat_solutions(empty) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_certifier_certifies_unique_puzzles_only(name: str) -> None:
    puzzle, solution = next((p, s) for n, p, s in PUZZLES if n == name)
    givens = [c for c, v in enumerate(puzzle.values) if v]
    fewer = [c for c, v in enumerate(several(name).values) if v]
    with SolutionCertifier(solution) as certifier:
        assert certifier.unique(givens)
        assert certifier.other(givens) is None
        assert not certifier.unique(fewer)
        other = certifier.other(fewer)
        assert other is not None and other.values != solution.values and _keeps_every_rule(other)
    assert [s.values for s in sat_solutions(puzzle)] == [solution.values]
    assert len(sat_solutions(several(name))) == 2


@pytest.mark.parametrize("name", NAMES)
def test_the_cage_certifier_keeps_the_constraints(name: str) -> None:
    # no cages: the givens alone, under the houses and the constraints
    puzzle, solution = next((p, s) for n, p, s in PUZZLES if n == name)
    with CageCertifier(solution) as certifier:
        assert certifier.unique([], [c for c, v in enumerate(puzzle.values) if v])
        other = certifier.other([], [c for c, v in enumerate(several(name).values) if v])
        assert other is not None and _keeps_every_rule(other)


@pytest.mark.parametrize("words", [";antiknight", ";antiking;th=R1C1,R1C2,R2C3,R3C3,R4C4", ";nonconsecutive",
                                   ";th=R5C5,R4C5,R4C6,R3C7,R2C7,R1C8"])
def test_random_solutions_keep_every_rule(words: str) -> None:
    lay = Grid.parse("." * 81 + words).layout
    for seed in range(3):
        grid = random_solution(lay, random.Random(seed))
        assert _keeps_every_rule(grid), (seed, grid.text())


def test_the_empty_grids_of_the_tests_are_the_brute_forces() -> None:
    assert set(NAMES) == set(EMPTY)


@pytest.mark.parametrize("name", ["antiking+thermometer-6", "nonconsecutive+thermometer-6"])
def test_the_exported_models_state_the_constraints(name: str) -> None:
    puzzle, solution = next((p, s) for n, p, s in PUZZLES if n == name)
    dimacs = export_text(puzzle, "sat")
    assert "c constraints: " in dimacs and "thermometer 1" in dimacs
    clauses = [[int(x) for x in line.split()[:-1]] for line in dimacs.splitlines() if line[0] not in "cp"]
    n = puzzle.side
    with opened("minisat22", bootstrap_with=clauses) as sat:
        assert sat.solve()
        values = [0] * (n * n)
        for lit in sat.get_model() or []:
            if 0 < lit <= n**3:
                values[(lit - 1) // n] = (lit - 1) % n + 1
        assert values == list(solution.values)
        sat.add_clause([-(c * n + v) for c, v in enumerate(values) if not puzzle.values[c]])
        assert not sat.solve()  # the DIMACS alone proves it unique
    assert "constraint_1_" in export_text(puzzle, "mip") and "constraint_2_step_1" in export_text(puzzle, "mip")


def _with_dominoes(name: str) -> tuple[Grid, list[list[int]]]:
    """The unique puzzle of `name` without its first two givens, and with Killer cages: dominoes along the rows
    (every other pair of cells), each summing as in its solution; and the solutions the brute force finds of it
    (those of the puzzle without cages whose dominoes sum to their totals, two values differing)."""
    unique, solution = next((p, s) for n, p, s in PUZZLES if n == name)
    n = solution.side
    cages, totals = ["."] * (n * n), []
    for r in range(n):
        for c in range(r % 2 * 2, n - 1, 4):
            a = r * n + c
            cages[a] = cages[a + 1] = string.ascii_letters[len(totals)]
            totals.append(solution.values[a] + solution.values[a + 1])
    values = list(unique.values)
    for cell in [c for c, v in enumerate(values) if v][:2]:
        values[cell] = 0
    puzzle = unique.with_values(values)
    grid = Grid.parse(f"{puzzle.text()};k={''.join(cages)}:{','.join(map(str, totals))}")
    found = [values for values in solutions(puzzle) if all(
        values[c] != values[c + 1] and values[c] + values[c + 1] == totals[string.ascii_letters.index(cages[c])]
        for c in range(n * n) if cages[c] != "." and (c == 0 or cages[c - 1] != cages[c]))]
    return grid, found


@pytest.mark.parametrize("name", ["antiknight+thermometer-6", "antiking-6", "nonconsecutive+thermometer-6"])
def test_killers_with_constraints(name: str) -> None:
    grid, found = _with_dominoes(name)
    assert cages_in(grid.layout.constraints) and grid.layout.constraints and found
    for method, opts in [("cpsat", {"model": "integer"}), ("cpsat", {"model": "boolean"}), ("sat", {}),
                         ("mip", {}), ("python-constraint", {})]:
        outcome = SOLVERS[method](grid, solutions=2, **opts)
        assert outcome.status is Status.SOLVED and outcome.solution is not None, (method, outcome.detail)
        assert list(outcome.solution.values) in found and not outcome.solution.conflicts(), method
        assert outcome.unique is (len(found) == 1), method
    givens = [c for c, v in enumerate(grid.values) if v]
    with CageCertifier(grid.with_values(found[0])) as certifier:
        assert certifier.unique(cages_in(grid.layout.constraints), givens) is (len(found) == 1)


def test_python_constraint_states_a_rule_as_one_object() -> None:
    # one object a rule keeps each cell's count of constraints even (formulations/constraints/csp.py says why)
    puzzle, _ = next((p, s) for n, p, s in PUZZLES if n == "antiking+thermometer-6")
    outcome = SOLVERS["python-constraint"](puzzle)
    assert outcome.info["constraints"] == len(puzzle.geometry.units) + len(puzzle.layout.constraints) == 18 + 2
