"""python -m puzzles.generate --minimal and --hard-for: certified minimal puzzles at every size, and the local
search that makes puzzles hard for a method, checked against an independent solver (CP-SAT, solutions=2)."""
from __future__ import annotations

import csv
import math
import random

import pytest

from comparison.hard_search import Search, counter_of
from comparison.run import Settings
from formulations import SOLVERS as FORMULATIONS
from formulations.certify import SolutionCertifier, random_solution, solutions
from puzzles import Budget, Grid, Status
from puzzles.formats import read_puzzles
from puzzles.generate import main
from puzzles.minimal import givens_of, is_minimal, minimise, puzzle_of


def count_by_cpsat(grid: Grid) -> int:
    """0, 1 or 2 (two or more) solutions, by CP-SAT: not the SAT certifier that made the puzzle."""
    outcome = FORMULATIONS["cpsat"](grid, Budget(seconds=60), solutions=2)
    if outcome.status is Status.UNSATISFIABLE:
        return 0
    assert outcome.status is Status.SOLVED and outcome.solution is not None
    assert grid.solution_problems(outcome.solution) == []
    return 1 if outcome.unique else 2


@pytest.mark.parametrize("box, count", [(2, 6), (3, 4), (4, 1)])
def test_minimal_puzzles_are_unique_and_every_clue_is_needed(tmp_path, box, count):
    out = tmp_path / "minimal.csv"
    assert main(["--minimal", "--box", str(box), "--count", str(count), "--seed", "5", "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    entries = list(read_puzzles(out))  # the file is one compare.py reads as it is
    assert len(rows) == len(entries) == count
    for row, entry in zip(rows, entries, strict=True):
        grid = entry.grid
        assert grid.box == box and int(row["clues"]) == len(givens_of(grid))
        if box <= 3:  # the slow obvious check: every clue taken away in turn, counted by CP-SAT
            assert is_minimal(grid, count_by_cpsat)
        else:
            assert count_by_cpsat(grid) == 1
            for cell in random.Random(1).sample(givens_of(grid), 8):
                values = bytearray(grid.values)
                values[cell] = 0
                assert count_by_cpsat(Grid(box, bytes(values))) == 2


def test_the_same_seed_makes_the_same_puzzles(tmp_path):
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    assert main(["--minimal", "--count", "3", "--seed", "7", "--output", str(a)]) == 0
    assert main(["--minimal", "--count", "3", "--seed", "7", "--output", str(b)]) == 0
    assert main(["--minimal", "--count", "3", "--seed", "8", "--output", str(c)]) == 0
    assert a.read_text() == b.read_text() != c.read_text()
    assert len(a.read_text().splitlines()) == 3


def test_the_certifier_against_a_count_by_hand():
    solution = Grid.parse("1234341221434321")
    with SolutionCertifier(solution) as certifier:
        assert certifier.unique(list(range(16)))  # the full grid
        assert not certifier.unique([])  # the empty grid has 288 solutions
        other = certifier.other([0, 1, 2, 3])  # a first row only: the rest can be filled several ways
        assert other is not None and other != solution and other.values[:4] == solution.values[:4]
        assert Grid.parse("1234" + "." * 12).solution_problems(other) == []
    assert len(solutions(Grid.parse("." * 16), 300)) == 288  # every 4x4 Sudoku, counted
    assert solutions(Grid.parse("11" + "." * 14), 2) == []


def test_minimise_keeps_each_clue_only_while_needed():
    rng = random.Random(3)
    solution = random_solution(3, rng)
    with SolutionCertifier(solution) as certifier:
        cells = minimise(range(81), certifier.unique, rng)
    assert is_minimal(puzzle_of(solution, cells), lambda g: len(solutions(g, 2)))


def test_a_score_is_the_geometric_mean_of_the_methods_own_counter():
    search = Search(Settings(solver=["mrv", "cpsat"]), 2, 3, random.Random(0))
    records = [{"method": "mrv", "status": "solved", "guesses": g, "extra": None} for g in (0, 3, 15)]
    assert search.mean_effort(records, "mrv") == pytest.approx(3.0)  # (1 * 4 * 16) ** (1/3) - 1
    assert search.counter == "guesses"
    assert counter_of({"extra": {"conflicts": 7}}) == ("conflicts", 7.0)
    assert search.mean_effort([*records, {"method": "mrv", "status": "error", "extra": None}], "mrv") is None


def test_the_search_pools_unique_minimal_puzzles_best_first():
    settings = Settings(solver=["mrv:propagate=singles", "mrv:propagate=alldiff"], timeout=5, jobs=1)
    search = Search(settings, 3, 2, random.Random(1), pool_size=3)
    for _ in range(3):  # a round of fresh puzzles, then two of moves
        scored = search.round(3)
        assert all(c.score == pytest.approx((c.hard + 1) / ((c.easy or 0) + 1)) for c in scored)
    assert search.tried == 9 and len(search.pool) == 3
    assert [c.score for c in search.pool] == sorted((c.score for c in search.pool), reverse=True)
    for candidate in search.pool:
        assert is_minimal(candidate.puzzle, lambda g: len(solutions(g, 2)))
        assert candidate.puzzle.solution_problems(candidate.solution) == []
        assert math.isfinite(candidate.score)


@pytest.mark.parametrize("argv, message", [
    (["--easy-for", "cpsat"], "--easy-for needs --hard-for"),
    (["--hard-for", "nosuch"], "unknown method 'nosuch'"),
    (["--hard-for", "mrv", "--command", "bug=cat"], "add --solver bug"),
])
def test_generator_usage_errors(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2 and message in capsys.readouterr().err


def test_ctrl_c_stops_the_search_and_writes_the_pool_so_far(tmp_path, monkeypatch, capsys):
    import comparison.hard_search as hard_search

    def interrupted(search, minutes, on_round=None):
        search.round(2)
        if on_round is not None:
            on_round(search)
        raise KeyboardInterrupt
    monkeypatch.setattr(hard_search, "run_search", interrupted)
    out = tmp_path / "pool.csv"
    assert main(["--hard-for", "mrv", "--box", "2", "--isomorphs", "2", "--jobs", "1", "--output", str(out)]) == 130
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2 and float(rows[0]["score"]) >= float(rows[1]["score"])
    assert set(rows[0]) == {"puzzle", "name", "clues", "score", "guesses_hard"}
    for row in rows:
        assert count_by_cpsat(Grid.parse(row["puzzle"])) == 1
    assert "2 puzzles tried, 2 written" in capsys.readouterr().err
