"""sudoku-generate --minimal and --hard-for: certified minimal puzzles at every size, and the local
search that makes puzzles hard for a method, checked against an independent solver (CP-SAT, solutions=2)."""
from __future__ import annotations

import contextlib
import csv
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures import MARK, ROOT, count_by_cpsat, eventually, marked, signalled_child

from commands.generate import main
from comparison.core.settings import Settings
from comparison.core.stream import Puzzle
from comparison.execution.result import RunResult
from comparison.judging.judge import Judged, Verdict
from comparison.programs.hard_search import (
    RESCORED,
    MoveOrder,
    Scored,
    Search,
    counter_of,
    geometric_mean,
    move_workers,
)
from comparison.run.batch import run_batch
from making.certify import SolutionCertifier, solutions
from making.kinds import minimal_puzzle
from making.minimal import givens_of, is_minimal
from making.variants import variant
from puzzles import Grid, Status, classic
from puzzles.formats import read_puzzles


@pytest.mark.slow
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
                assert count_by_cpsat(Grid(classic(box), bytes(values))) == 2


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


def test_a_certifier_leaves_the_kept_solver_as_it_found_it():
    # The 12 grids of one 4x4 first row, certified in turn on the one kept solver: were a certifier's "some cell
    # differs" clause to hold beyond it (added without its selector), the twelfth would find no other completion.
    row = [0, 1, 2, 3]
    grids = solutions(Grid.parse("1234" + "." * 12), 20)
    assert len(grids) == 12
    for solution in grids:
        with SolutionCertifier(solution) as certifier:
            other = certifier.other(row)
            assert other is not None and other != solution and other.values[:4] == solution.values[:4]
            assert certifier.unique(list(range(16))) and not certifier.unique(row)


def test_a_minimal_puzzle_keeps_each_clue_only_while_needed():
    made = minimal_puzzle(classic(3), random.Random(3))
    assert made.puzzle.solution_problems(made.solution) == []
    assert made.checks + made.forced == 81  # one certificate a cell: each clue is tried once
    assert is_minimal(made.puzzle, lambda g: len(solutions(g, 2)))


def test_a_score_is_the_geometric_mean_of_the_methods_own_counter():
    search = Search(Settings(methods=["mrv", "cpsat"]), variant("classic", 4), 3, random.Random(0))
    grid = Grid.parse("." * 16)

    def judged(status: Status, effort: dict[str, int]) -> Judged:
        puzzle = Puzzle(0, "<memory>", 1, "", 1, grid, None)
        return Judged(puzzle, ("mrv", "cpsat"), (RunResult(0, 0, status, effort=effort), RunResult(0, 1, status)),
                      Verdict("agree"))
    isomorphs = [judged(Status.SOLVED, {"nodes": 9, "guesses": g}) for g in (0, 3, 15)]
    logs = search.efforts(isomorphs, "mrv")
    assert geometric_mean(logs) == pytest.approx(3.0)  # (1 * 4 * 16) ** (1/3) - 1
    assert search.counter == "guesses"
    assert counter_of({"conflicts": 7, "restarts": 2}) == ("conflicts", 7.0)
    assert counter_of({"propagations": 7}) == ("", 0.0)
    assert search.efforts([*isomorphs, judged(Status.ERROR, {})], "mrv") == []
    split = Scored(Grid.parse("." * 16), Grid.parse("1234341221434321"), [logs, [math.log1p(1)] * 2])
    assert (split.hard, split.easy, split.score, split.isomorphs) == pytest.approx((3.0, 1.0, 2.0, 3))


@pytest.mark.slow
def test_the_search_pools_unique_minimal_puzzles_best_first():
    settings = Settings(methods=["mrv:propagate=singles", "mrv:propagate=alldiff"], timeout=5, jobs=1)
    search = Search(settings, variant("classic", 9), 2, random.Random(1), pool_size=3)
    members = {}  # every candidate that was in the pool after a round
    for _ in range(3):  # a round of fresh puzzles, then two of moves
        scored = search.round(3)
        assert all(c.score == pytest.approx((c.hard + 1) / ((c.easy or 0) + 1)) for c in scored)
        members.update((id(c), c) for c in search.pool)
    assert search.tried == 9 and len(search.pool) == 3
    # The parents of the two rounds of moves (pool members) were scored again on K=2 fresh isomorphs: the first
    # time in place of the isomorphs they entered the pool on, then in addition.
    assert any(c.rescored for c in members.values())
    assert all(c.rescored <= min(2, RESCORED) and c.isomorphs == 2 * max(1, c.rescored) for c in members.values())
    assert [c.score for c in search.pool] == sorted((c.score for c in search.pool), reverse=True)
    for candidate in search.pool:
        assert is_minimal(candidate.puzzle, lambda g: len(solutions(g, 2)))
        assert candidate.puzzle.solution_problems(candidate.solution) == []
        assert math.isfinite(candidate.score)


@pytest.mark.parametrize("argv, message", [
    (["--easy-for", "cpsat"], "--easy-for needs --hard-for"),
    (["--hard-for", "nosuch"], "unknown method 'nosuch'"),
    (["--hard-for", "mrv", "--command", "bug=cat"], "add --solver bug"),
    (["--count", "0"], "argument --count: '0' must be greater than 0"),  # (not one puzzle, as `or 1` made it)
    (["--count", "-1"], "argument --count: '-1' must be greater than 0"),  # (not none, and success)
    (["--hard-for", "mrv", "--minutes", "0"], "argument --minutes: '0' must be greater than 0"),
    (["--hard-for", "mrv", "--isomorphs", "0"], "argument --isomorphs: '0' must be greater than 0"),
    (["--hard-for", "mrv", "--pool", "-2"], "argument --pool: '-2' must be greater than 0"),
    (["--keep", "-3"], "argument --keep: '-3' must be 0 or more"),  # (not taken as 0)
    (["--keep", "two"], "argument --keep: 'two' is not a whole number"),
    (["--hard-for", "mrv", "--minutes", "soon"], "argument --minutes: 'soon' is not a number"),
])
def test_generator_usage_errors(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 2 and message in capsys.readouterr().err


def test_ctrl_c_stops_the_search_and_writes_the_pool_so_far(tmp_path, monkeypatch, capsys):
    import comparison.programs.hard_search as hard_search

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
    assert set(rows[0]) == {"puzzle", "name", "clues", "score", "guesses_hard", "isomorphs"}
    for row in rows:
        assert count_by_cpsat(Grid.parse(row["puzzle"])) == 1
    assert "2 puzzles tried, 2 written" in capsys.readouterr().err


@pytest.mark.slow
def test_moves_made_on_processes_of_their_own_are_unique_minimal_puzzles():
    parent = minimal_puzzle(classic(3), random.Random(4))
    orders = [MoveOrder(variant("classic", 9), seed, 3, Scored(parent.puzzle, parent.solution, []))
              for seed in range(3)]
    orders.append(MoveOrder(variant("classic", 4), 7, 3))  # a fresh minimal 4x4
    with move_workers(2) as makers:
        assert makers is not None
        made = makers(orders)
        workers = multiprocessing.active_children()
    assert [c.puzzle.box for c in made] == [3, 3, 3, 2]
    for candidate in made:
        assert candidate.puzzle.solution_problems(candidate.solution) == []
        assert is_minimal(candidate.puzzle, lambda g: len(solutions(g, 2)))
    assert workers and not any(w.is_alive() for w in workers)  # gone once the search is over


def test_the_puzzles_of_start_are_scored_first_and_named_where_read(tmp_path, capsys):
    start = tmp_path / "start.txt"
    lines = [minimal_puzzle(classic(2), random.Random(seed)).puzzle.line() for seed in (1, 2)]
    start.write_text("".join(f"{line}\n" for line in lines))
    out = tmp_path / "pool.csv"
    assert main(["--hard-for", "mrv", "--box", "2", "--isomorphs", "2", "--jobs", "1", "--minutes", "0.01",
                 "--pool", "40", "--start", str(start), "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    named = {row["name"]: row["puzzle"] for row in rows}
    assert named[f"{start}:1"] == lines[0] and named[f"{start}:2"] == lines[1]
    assert "(2 read from --start)" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    ("1234" + "." * 12 + "\n", "start.txt:1: more than one solution"),
    ("." * 81 + "\n", "start.txt:1: the search makes 4x4 puzzles, this one is 9x9"),
    ("." * 16 + ";x\n", "start.txt:1: the search makes 4x4 puzzles, this one is x 4x4"),
    ("1234341221434321\n11" + "." * 14 + "\n", "start.txt:2: "),
    ("# nothing\n", "no puzzle in it"),
])
def test_a_start_file_is_checked_before_the_search(tmp_path, capsys, text, message):
    start = tmp_path / "start.txt"
    start.write_text(text)
    assert main(["--hard-for", "mrv", "--box", "2", "--jobs", "1", "--start", str(start)]) == 2
    assert message in capsys.readouterr().err


def test_with_solutions_2_every_isomorph_is_proved_unique(tmp_path, monkeypatch):
    import comparison.programs.hard_search as hard_search
    seen = []

    def recording(*args, **kwargs):
        batches = run_batch(*args, **kwargs)
        seen.extend(result for isomorphs in batches for judged in isomorphs for result in judged.results)
        return batches
    monkeypatch.setattr(hard_search, "run_batch", recording)
    out = tmp_path / "pool.csv"
    assert main(["--hard-for", "mrv", "--solutions", "2", "--box", "2", "--isomorphs", "2", "--jobs", "1",
                 "--minutes", "0.01", "--output", str(out)]) == 0
    assert seen and all(result.unique is True for result in seen)  # the whole tree searched, each time
    assert len(list(csv.DictReader(out.open()))) >= 1


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_writes_the_pool_and_leaves_no_process(tmp_path, signum, status):
    mark, out = f"generate-{signum}-{os.getpid()}", tmp_path / "pool.csv"
    search = signalled_child(
        [sys.executable, "-m", "commands.generate", "--hard-for", "mrv", "--box", "2", "--isomorphs", "2",
         "--jobs", "2", "--minutes", "5", "--output", str(out)], cwd=ROOT,
        env={**os.environ, MARK: mark}, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # Once the move makers have started (two processes beside the search, and compare.py's workers by turns),
        # the handlers are in place.
        assert eventually(lambda: len(marked(mark)) >= 3, 120)
        search.send_signal(signum)
        _, err = search.communicate(timeout=120)
        assert search.returncode == status, err
        assert "puzzles tried" in err and out.exists()
        assert eventually(lambda: not marked(mark))
    finally:  # never left behind, whatever the test found
        for pid in marked(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        search.communicate()


# `sudoku-generate` as it is, saying when its first SAT solve (a certifier's) begins: a file of the test's
TOLD_OF_SAT = """
import os, sys
sys.path.insert(0, {root!r})
from commands.generate import main
from making.certify import SolutionCertifier

solve = SolutionCertifier.solve

def told(self, cells):
    if not os.path.exists({told!r}):
        open({told!r}, "w").close()
    return solve(self, cells)

SolutionCertifier.solve = told
sys.exit(main())
"""


@pytest.mark.slow
def test_ctrl_c_in_a_sat_solve_writes_the_puzzles_made(tmp_path):
    """Making minimal 16x16 Jigsaw puzzles is mostly SAT solves, where PySAT turns a SIGINT into an error of its
    own: the run stops all the same, exit 130, no traceback, and the file holds the puzzles made so far."""
    out, told = tmp_path / "made.txt", tmp_path / "told.txt"
    script = tmp_path / "generate.py"
    script.write_text(TOLD_OF_SAT.format(root=str(ROOT), told=str(told)))
    making = signalled_child([sys.executable, str(script), "--variant", "jigsaw", "--box", "4", "--minimal",
                              "--count", "50", "--output", str(out)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        # The cue: its SAT solves have begun (the run takes minutes: still at work when the signal comes).
        assert eventually(lambda: told.exists() or making.poll() is not None, 120), "no SAT solve began"
        making.send_signal(signal.SIGINT)
        _, err = making.communicate(timeout=120)
    finally:
        making.kill()  # never left behind, whatever the test found
    assert making.returncode == 130 and "Traceback" not in err, err
    for line in out.read_text().splitlines():
        puzzle = Grid.parse(line.split()[0])
        assert puzzle.layout.variant == "jigsaw" and count_by_cpsat(puzzle) == 1
