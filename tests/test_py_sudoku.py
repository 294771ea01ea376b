"""Puzzles made by another program (py-sudoku: rectangular boxes and Sudoku-X) are read as the same variants,
and the methods solve them in those houses."""
from __future__ import annotations

import pytest

from formulations import SOLVERS as FORMULATIONS
from puzzles import Budget, Grid, Status
from search import SOLVERS as SEARCHES

pytest.importorskip("sudoku.sudoku")
from sudoku.sudoku import DiagonalSudoku, Sudoku

from benchmarks.py_sudoku import DIAGONAL, SHAPES, grid_of, main


@pytest.mark.parametrize("name, width, height, lay", [s for s in SHAPES if s[0] in ("boxes-6", "boxes-8")])
def test_rectangular_boxes_are_read_as_py_sudoku_draws_them(name, width, height, lay):
    solution = grid_of(Sudoku(width, height, seed=3).solve().board, lay)
    assert solution.is_full() and solution.conflicts() == []  # its boxes are ours
    puzzle = grid_of(Sudoku(width, height, seed=3).difficulty(0.5).board, lay)
    for method in (SEARCHES["mrv"], SEARCHES["cdcl"], FORMULATIONS["sat"]):
        outcome = method(puzzle, Budget(seconds=30))
        assert outcome.status is Status.SOLVED and puzzle.solution_problems(outcome.solution) == []


def test_diagonal_sudoku_is_read_as_x():
    _, box, lay = DIAGONAL[0]
    puzzle = grid_of(DiagonalSudoku(box, seed=2).difficulty(0.5).board, lay)
    outcome = SEARCHES["mrv"](puzzle, Budget(seconds=30))
    assert outcome.status is Status.SOLVED and outcome.solution is not None
    n = lay.side
    values = outcome.solution.values
    assert sorted(values[r * n + r] for r in range(n)) == sorted(values[r * n + n - 1 - r] for r in range(n)) \
        == list(range(1, n + 1))  # both diagonals hold every value once


def test_the_benchmark_writes_lines_compare_reads(tmp_path):
    out = tmp_path / "py-sudoku.txt"
    assert main([str(out), "--count", "1"]) == 0
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == len(SHAPES) + len(DIAGONAL)
    grids = [Grid.parse(line.split()[0]) for line in lines]
    assert [g.layout.variant for g in grids][-2:] == ["x", "x"] and grids[0].side == 6


def test_a_folder_or_a_place_it_cannot_write_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:  # a folder: said before the puzzles are made
        main([str(tmp_path), "--count", "1"])
    assert exit_.value.code == 2 and f"{tmp_path} is a folder" in capsys.readouterr().err
    out = tmp_path / "no-such-folder" / "made.txt"
    assert main([str(out), "--count", "1"]) == 2
    assert capsys.readouterr().err == f"py_sudoku: {out}: No such file or directory\n"
