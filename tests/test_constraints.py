"""Constraints beyond houses and cages (puzzles/constraints/): read and written in the line form, checked in every
answer against their definitions, kept by both candidate engines, and solved by every hand-written search that
knows them, each answer the brute force's (tests/constraint_grids.py)."""
from __future__ import annotations

import random

import pytest
from constraint_grids import EMPTY, breaks, puzzles, several, solutions

from puzzles import Grid
from puzzles.candidates import Candidates
from puzzles.cellmasks import CellMasks
from puzzles.isomorph import Isomorph, relabels
from puzzles.layouts import PuzzleError, named
from puzzles.options import contract
from puzzles.outcome import Outcome, Status
from search import SOLVERS

PUZZLES = puzzles()
IDS = [name for name, _, _ in PUZZLES]
SEARCHES = [("backtracking", {}), ("mrv", {}), ("mrv", {"propagate": "singles"}), ("mrv", {"propagate": "locked"}),
            ("restart", {"seed": 3}), ("astar", {})]


@pytest.mark.parametrize(("name", "puzzle", "solution"), PUZZLES, ids=IDS)
def test_the_brute_force_finds_one_solution_and_the_grid_keeps_every_rule(name: str, puzzle: Grid,
                                                                             solution: Grid) -> None:
    assert [bytes(s) for s in solutions(puzzle, 2)] == [solution.values]
    assert puzzle.conflicts() == [] and puzzle.solution_problems(solution) == []


@pytest.mark.parametrize(("name", "puzzle", "solution"), PUZZLES, ids=IDS)
def test_the_line_form_writes_and_reads_back_every_constraint(name: str, puzzle: Grid, solution: Grid) -> None:
    again = Grid.parse(puzzle.text())
    assert again.layout is puzzle.layout and again.values == puzzle.values
    assert again.layout.constraints and again.layout.variant == name.rsplit("-", 1)[0]


def test_conflicts_agree_with_the_definitions_on_random_grids() -> None:
    """Random fillings of each layout, half the cells blank: the grid reports a broken constraint exactly when the
    brute force's definition finds one (houses aside: values drawn so that no house repeats one)."""
    rng = random.Random(5)
    checked = broken = 0
    for text in EMPTY.values():
        empty = Grid.parse(text)
        for _ in range(40):
            values = list(next(solutions(Grid(empty.layout.houses, empty.values), 1, rng)))
            for cell in range(len(values)):
                if rng.random() < 0.5:
                    values[cell] = 0
            grid = empty.with_values(values)
            by_definition = any(v and breaks(empty.layout, values, c) for c, v in enumerate(values))
            assert bool(grid.conflicts()) == by_definition, grid.text()
            checked += 1
            broken += by_definition
    assert checked == 40 * len(EMPTY) and 0 < broken < checked  # both answers were seen


@pytest.mark.parametrize(("name", "puzzle", "solution"), PUZZLES, ids=IDS)
def test_both_engines_keep_every_solution_and_nothing_the_links_forbid(name: str, puzzle: Grid,
                                                                         solution: Grid) -> None:
    """Each engine's candidates of the puzzle after a few placements from its solution: every value some solution
    gives a cell is a candidate (sound), and no candidate breaks a constraint with a filled cell."""
    rng = random.Random(2)
    values = list(puzzle.values)
    for cell in rng.sample(puzzle.empty_cells(), 3):
        values[cell] = solution.values[cell]
    grid = puzzle.with_values(values)
    support = [0] * len(values)
    for found in solutions(grid):
        for c, v in enumerate(found):
            support[c] |= 1 << (v - 1)
    per_unit, per_cell = Candidates(grid), CellMasks(grid)
    for cell in grid.empty_cells():
        for engine in (per_unit.candidates(cell), per_cell.candidates(cell)):
            assert support[cell] & ~engine == 0
            for v in range(1, grid.side + 1):
                if engine >> (v - 1) & 1:
                    values[cell] = v
                    assert not breaks(grid.layout, values, cell)
            values[cell] = 0


@pytest.mark.parametrize(("method", "options"), SEARCHES, ids=[f"{m}{o}" for m, o in SEARCHES])
def test_every_search_that_knows_them_finds_the_one_solution(method: str, options: dict[str, object]) -> None:
    solved = 0
    for name, puzzle, solution in PUZZLES:
        found = SOLVERS[method](puzzle, solutions=2, **options)
        if method == "restart":  # incomplete: it may reach its cap of restarts, and says so
            assert (found.status, found.solution) == (Status.SOLVED, solution) or found.detail == "max_restarts"
            solved += found.status is Status.SOLVED
            continue
        assert found.status is Status.SOLVED and found.unique is True, (name, found.detail)
        assert found.solution is not None and list(found.solution.values) == list(solution.values), name
        open_one = SOLVERS[method](several(name), solutions=2, **options)
        assert open_one.status is Status.SOLVED and open_one.unique is False, name
        assert open_one.solution is not None and several(name).solution_problems(open_one.solution) == []
    assert method != "restart" or solved >= len(PUZZLES) - 2


def test_a_method_that_does_not_know_a_kind_does_not_run() -> None:
    @contract("houses-only", {}, knows={"antiknight"})
    def houses_only(grid: Grid, budget: object, solutions: int, options: object, started: float) -> Outcome:
        raise AssertionError("run on a puzzle with a rule it does not know")

    _, puzzle, _ = PUZZLES[IDS.index("thermometer-6")]
    found = houses_only(puzzle)
    assert found.status is Status.GAVE_UP
    assert found.detail == "not run: houses-only does not know thermometer constraints"


@pytest.mark.parametrize(("words", "says"), [
    ("th=R1C1,R1C2,R1C1", "thermometer 1 (R1C1) names a cell twice"),
    ("th=R1C1,R2C1,R3C1,R4C1,R4C2", "thermometer 1 (R1C1) has 5 cells: its values rise from 1 to 4 at most"),
    ("th=R1C1,R9C9", "R9C9 is outside the 4x4 grid"),
    ("th=R1C1,X", "'X' is not a cell name like R1C1"),
    ("antiknights", "unknown word 'antiknights'"),
])
def test_a_wrong_constraint_word_is_refused_by_name(words: str, says: str) -> None:
    with pytest.raises(PuzzleError, match=says.replace("(", r"\(").replace(")", r"\)")):
        Grid.parse("." * 16 + ";" + words)


def test_a_variant_named_by_its_whole_grid_rules() -> None:
    lay = named("x+antiknight", 9)
    assert lay.variant == "x+antiknight" and [c.KIND for c in lay.constraints] == ["antiknight"]
    with pytest.raises(PuzzleError, match="cells are its own"):
        named("thermometer", 9)


@pytest.mark.parametrize(("name", "puzzle", "solution"), PUZZLES, ids=IDS)
def test_isomorphs_keep_the_rules(name: str, puzzle: Grid, solution: Grid) -> None:
    """Each isomorph of a puzzle with constraints is a puzzle of the same layout with one solution, the solution's
    isomorph: the group keeps only the moves that map every constraint onto one, and relabels only where the
    kinds allow."""
    rng = random.Random(4)
    for _ in range(6):
        move = Isomorph.draw(puzzle.layout, rng)
        image, answer = move.apply(puzzle), move.apply(solution)
        assert [bytes(s) for s in solutions(image, 2)] == [answer.values]
        if not relabels(puzzle.layout):
            assert sorted(image.values) == sorted(puzzle.values)  # the same values, moved
