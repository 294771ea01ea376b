"""The benchmark scripts run and check what they time (their figures are printed, never asserted)."""
from __future__ import annotations

import re
from collections import Counter
from math import log1p
from pathlib import Path

import pytest
from fixtures import SEED000, SEED001

from benchmarks import hard_for, popcount, sat_setup, versus_pycosat
from comparison.programs.hard_search import geometric_mean


def test_versus_pycosat_times_both_on_every_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pycosat")
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000}\n{SEED001}\nnot a puzzle\n")
    assert versus_pycosat.main([str(path), "--solver", "mrv:propagate=singles"]) == 0
    out = capsys.readouterr().out
    assert "p.txt: 2 puzzles" in out
    assert len(re.findall(r"mrv:propagate=singles +[\d.]+ ms +pycosat +[\d.]+ ms +ratio", out)) == 3
    assert re.search(r"slowest puzzle: mrv:propagate=singles line [12], pycosat line [12]\n", out)


def test_versus_pycosat_says_what_it_cannot_read_or_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    missing = tmp_path / "missing.txt"
    assert versus_pycosat.main([str(missing)]) == 2
    err = capsys.readouterr().err
    assert err == f"versus_pycosat: {missing}: no such file\n"
    monkeypatch.setattr(versus_pycosat, "pycosat", None)  # as where the bench extra is not installed
    with pytest.raises(SystemExit) as exited:
        versus_pycosat.main([str(missing)])
    assert exited.value.code == 2
    assert 'pycosat is not installed: pip install -e ".[bench]"' in capsys.readouterr().err


def test_versus_pycosat_times_isomorphs_unless_told_literal(tmp_path: Path) -> None:
    pytest.importorskip("pycosat")
    from puzzles import Grid

    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000}\n{SEED001}\n")
    given: list[Grid] = []

    def spy(grid: Grid) -> Grid | None:
        given.append(grid)
        return versus_pycosat.pycosat_solve(grid)

    files = [Grid.parse(SEED000), Grid.parse(SEED001)]
    times, lines = versus_pycosat.compare_file(path, spy, None, seed=None)
    assert given[1:] == files and lines == [1, 2] and all(len(t) == 2 for t in times.values())
    drawn = []
    for seed in (0, 1):
        given.clear()
        versus_pycosat.compare_file(path, spy, None, seed=seed)
        timed = given[1:]  # (the first is the untimed warm-up)
        for iso, own in zip(timed, files, strict=True):  # the same puzzle, relabelled and permuted
            assert iso != own
            assert sorted(Counter(iso.values).values()) == sorted(Counter(own.values).values())
        drawn.append(timed)
    assert drawn[0] != drawn[1]


def test_pycosat_solves_the_complete_encoding() -> None:
    pytest.importorskip("pycosat")
    from puzzles import Grid

    grid = Grid.parse(SEED001)
    solution = versus_pycosat.pycosat_solve(grid)
    assert solution is not None and grid.solution_problems(solution) == []
    unsat = Grid.parse("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..8....3......97..")
    assert versus_pycosat.pycosat_solve(unsat) is None


def test_sat_setup_times_every_form_for_every_solver(capsys: pytest.CaptureFixture[str]) -> None:
    assert sat_setup.main(["--box", "2", "--repeat", "2", "--solver", "minisat22", "cadical195"]) == 0
    out = capsys.readouterr().out
    assert "4x4, complete encoding: 448 clauses" in out  # 16 cells and 12 unit-values: 1 + 6 pairs each
    assert len(re.findall(r"(minisat22|cadical195)( +[\d.]+){5}\n", out)) == 2


def test_hard_for_scores_made_puzzles_on_fresh_isomorphs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made, reference = tmp_path / "made.txt", tmp_path / "reference.txt"
    made.write_text(f"{SEED001} hard-9x9-1\n{SEED000} hard-9x9-2\n")
    reference.write_text(f"{SEED000}\n{SEED001}\n{SEED000}\n")
    assert hard_for.main([str(made), "--isomorphs", "3", "--top", "1", "--reference", str(reference)]) == 0
    out = capsys.readouterr().out
    lines = re.findall(r"made.txt:(\d+): geometric mean ([\d.]+), median [\d.]+ over 3 fresh isomorphs "
                       r"\(seed 99\): (.*)\n", out)
    assert [line for line, _, _ in lines] == ["1"]  # --top 1: the best only
    counts = [float(c) for c in lines[0][2].split(", ")]
    assert len(counts) == 3 and float(lines[0][1]) == pytest.approx(geometric_mean([log1p(c) for c in counts]),
                                                                    abs=0.05)
    assert "reference.txt, as written: median" in out and "over 3 puzzles" in out
    assert "reference.txt, one random isomorph each (seed 99): median" in out
    assert hard_for.main([str(made), "--isomorphs", "2", "--top", "1", "--easy", "cdcl"]) == 0
    out = capsys.readouterr().out
    hard = float(re.search(r"made.txt:1: geometric mean ([\d.]+)", out)[1])
    easy = float(re.search(r"  cdcl: geometric mean ([\d.]+) \(\d+, \d+\); ratio ([\d.]+)", out)[1])
    ratio = float(re.search(r"ratio ([\d.]+)", out)[1])
    assert ratio == pytest.approx((hard + 1) / (easy + 1), abs=0.06) and "forum-hardest" not in out
    assert hard_for.main([str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err


def test_popcount_times_every_way_on_masks_of_every_width(tmp_path: Path) -> None:
    # interpreted here (the compiled loops need mypyc and a C compiler, and minutes): each way's totals are
    # checked against bit_count's as it is timed
    found = popcount.medians(popcount.modules(tmp_path, compiled=False), rounds=1, repeats=2)
    assert list(found) == [9, 16, 25] and all(list(ns) == list(popcount.WAYS) for ns in found.values())
    assert all(t > 0 for ns in found.values() for t in ns.values())
