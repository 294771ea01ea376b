"""Isomorphs keep a puzzle's solutions; the generator makes unique, singles-solvable puzzles."""
from __future__ import annotations

import random

import pytest
from fixtures import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from making.singles import generate, singles_solve
from making.solutions import pattern_solution
from puzzles import Candidates, Grid, classic
from puzzles.isomorph import Isomorph, group_of, random_isomorph


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**9))
def test_isomorph_maps_puzzle_and_solution_together(box, seed):
    solution = random_isomorph(pattern_solution(box), random.Random(seed))
    puzzle = solution.with_values([v if (i * 7 + seed) % 3 else 0 for i, v in enumerate(solution.values)])
    # The same random draws applied to the puzzle and to its solution keep them matched.
    iso_puzzle = random_isomorph(puzzle, random.Random(seed + 1))
    iso_solution = random_isomorph(solution, random.Random(seed + 1))
    assert iso_solution.conflicts() == []
    assert iso_puzzle.is_solved_by(iso_solution)
    assert iso_puzzle.givens == puzzle.givens
    assert sorted(iso_puzzle.values) != [] and sorted(iso_solution.values) == sorted(solution.values)


def test_one_draw_maps_puzzle_and_solution():
    solution = pattern_solution(3)
    puzzle = solution.with_values([v if i % 4 else 0 for i, v in enumerate(solution.values)])
    moves = Isomorph.draw(classic(3), random.Random(11))
    assert moves.apply(puzzle).is_solved_by(moves.apply(solution))
    with pytest.raises(ValueError, match="an isomorph of a classic 9x9 grid applied to a classic 4x4 grid"):
        moves.apply(pattern_solution(2))


def test_isomorphs_are_reproducible_and_vary():
    g = Grid.parse("000702000100040007650000094470801062000000000580209013860000075900060008000908000")
    assert random_isomorph(g, random.Random(5)) == random_isomorph(g, random.Random(5))
    assert len({random_isomorph(g, random.Random(s)) for s in range(20)}) > 15


@pytest.mark.parametrize("box", [2, 3, 4])
def test_generated_puzzles_are_unique_by_singles(box):
    rng = random.Random(box)
    puzzle, solution = generate(box, rng)
    assert puzzle.is_solved_by(solution) and puzzle.givens < solution.side**2
    board = Candidates(puzzle)
    assert board.singles([]) and board.grid() == solution
    # minimal for singles: taking away any one more given leaves singles stuck
    cell = next(c for c, v in enumerate(puzzle.values) if v)
    fewer = bytearray(puzzle.values)
    fewer[cell] = 0
    assert singles_solve(Grid(classic(box), bytes(fewer))) is False


def test_the_group_says_which_rule_rules_out_relabelling() -> None:
    """The first constraint that relabelling breaks says why, in its kind's words: a Killer's sums before a
    thermometer's rise."""
    centre = "." * 40 + "a" + "." * 40
    caged = Grid.parse(f"{'.' * 81};k={centre}:5;th=R1C1,R1C2").layout
    assert group_of(caged) == "none (a Killer's sums rule out relabelling)"
    assert group_of(Grid.parse(f"{'.' * 81};k={centre}:5").layout) == \
        "7 of the grid's rotations and reflections that keep every cage (no relabelling)"
    assert group_of(Grid.parse(f"{'.' * 81};th=R1C1,R2C2").layout) == \
        "1 of the grid's rotations and reflections that keep every constraint (no relabelling)"


def test_a_moved_killer_has_the_original_solution_moved() -> None:
    """`moved_killer`: bands, stacks and the lines within them shuffled, the cages moved with their cells; the copy
    has one solution, the original's moved by the same draw (cdcl), and each cage is a cage of the original moved."""
    from puzzles.formats import Entry, read_puzzles
    from puzzles.isomorph import moved_killer
    from search import SOLVERS

    killers = [entry.grid for entry in read_puzzles(ROOT / "examples/killer.jsonl") if isinstance(entry, Entry)]
    assert len(killers) == 4
    for k, puzzle in enumerate(killers):
        found = SOLVERS["cdcl"](puzzle, solutions=2)
        assert found.unique is True and found.solution is not None
        copy, answer = moved_killer(puzzle, random.Random(k)), moved_killer(found.solution, random.Random(k))
        again = SOLVERS["cdcl"](copy, solutions=2)
        assert again.unique is True and again.solution is not None
        assert again.solution.values == answer.values
        assert copy.layout != puzzle.layout and copy.text() == moved_killer(puzzle, random.Random(k)).text()
        # each cage's values in the copy's solution are a cage's of the original's: the cages moved, none lost
        values = sorted((sorted(found.solution.values[c] for c in rule.cells), rule.total or 0)
                        for rule in puzzle.layout.rules)
        assert sorted((sorted(answer.values[c] for c in rule.cells), rule.total or 0)
                      for rule in copy.layout.rules) == values


def test_a_killer_with_other_rules_is_not_moved(tmp_path, capsys) -> None:
    """A diagonal is not kept when lines move: refused by name; the script leaves that line out and says so."""
    from benchmarks.moved_killers import main
    from puzzles import PuzzleError
    from puzzles.isomorph import moved_killer

    centre = "." * 40 + "a" + "." * 40
    with pytest.raises(PuzzleError, match="only a Killer on boxes with no other rule"):
        moved_killer(Grid.parse(f"{'.' * 81};k={centre}:5;x"), random.Random(0))
    path = tmp_path / "some.txt"
    path.write_text(f"{'.' * 81};k={centre}:5 plain\n{'.' * 81};k={centre}:5;x crossed\n")
    out = tmp_path / "moved.txt"
    assert main([str(path), "--copies", "3", "--seed", "5", "--output", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert [line.split()[-1] for line in lines[1:]] == ["plain-moved0", "plain-moved1", "plain-moved2"]
    for line in lines[1:]:
        cages = Grid.parse(line.split()[0]).layout.rules
        assert [(len(cage.cells), cage.total) for cage in cages] == [(1, 5)]
    assert f"{path}:2: only a Killer on boxes with no other rule is kept when its lines are moved (left out)" in \
        capsys.readouterr().err


def test_moving_a_missing_file_says_so(tmp_path, capsys) -> None:
    """A file that is not there: one line naming it, exit status 2, nothing written."""
    from benchmarks.moved_killers import main

    missing, out = tmp_path / "none.txt", tmp_path / "moved.txt"
    assert main([str(missing), "--output", str(out)]) == 2
    assert capsys.readouterr().err == f"moved_killers: {missing}: no such file\n"
    assert not out.exists()
