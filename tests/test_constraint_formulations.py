"""The formulations, the certifier and the solution maker on puzzles with constraints beyond houses and cages
(anti-knight, anti-king, non-consecutive, thermometers): every formulation and every SAT encoding gives the brute
force's solution and its uniqueness (tests/constraint_grids.py); the certifier certifies what the brute force
finds unique and refuses the rest; a random full grid keeps every rule."""
from __future__ import annotations

import random

import pytest
from constraint_grids import EMPTY, breaks, puzzles, several, solutions

from formulations import SOLVERS
from formulations.constraints import cpsat as cpsat_encoders
from formulations.constraints import csp as csp_encoders
from formulations.constraints import mip as mip_encoders
from formulations.constraints import sat as sat_encoders
from formulations.mip import BACKENDS, Unavailable, make_solver
from formulations.sat import ENCODINGS
from making.certify import CageCertifier, SolutionCertifier
from making.certify import solutions as sat_solutions
from making.solutions import random_solution
from puzzles import Grid
from puzzles.constraints import KINDS
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


def _keeps_every_rule(grid: Grid) -> bool:
    return grid.is_full() and not grid.conflicts() and not any(
        breaks(grid.layout, grid.values, c) for c in range(len(grid.values)))


@pytest.mark.parametrize("registry", [cpsat_encoders, sat_encoders, mip_encoders, csp_encoders],
                         ids=["cpsat", "sat", "mip", "csp"])
def test_every_formulation_knows_every_kind(registry: object) -> None:
    assert set(registry.ENCODERS) == set(KINDS)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("method", "opts"), SETTINGS, ids=IDS)
def test_unique_puzzles_solved_as_the_brute_force(method: str, opts: dict[str, object]) -> None:
    for name, puzzle, solution in PUZZLES:
        outcome = SOLVERS[method](puzzle, solutions=2, **opts)
        assert outcome.status is Status.SOLVED, (name, outcome.detail)
        assert outcome.solution is not None
        assert list(outcome.solution.values) == list(solution.values), name
        assert outcome.unique is True, name


@pytest.mark.parametrize(("method", "opts"), SETTINGS, ids=IDS)
def test_puzzles_with_several_solutions_said_so(method: str, opts: dict[str, object]) -> None:
    for name in NAMES:
        puzzle = several(name)
        assert len(list(solutions(puzzle, 2))) == 2
        outcome = SOLVERS[method](puzzle, solutions=2, **opts)
        assert outcome.status is Status.SOLVED, (name, outcome.detail)
        assert outcome.unique is False, name
        assert outcome.solution is not None and _keeps_every_rule(outcome.solution), name
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
