"""The benchmark scripts run and check what they time (their figures are printed, never asserted)."""
from __future__ import annotations

import importlib
import os
import re
import shutil
import tempfile
from collections import Counter
from math import log1p
from pathlib import Path

import pytest
from fixtures import SEED000, SEED001

from benchmarks import hard_for, popcount, sat_setup, versus_iss, versus_pycosat
from comparison.programs.hard_search import geometric_mean


def test_versus_pycosat_times_both_on_every_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    monkeypatch.delenv(versus_pycosat.TDOKU_ENV, raising=False)
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000}\n{SEED001}\nnot a puzzle\n")
    assert versus_pycosat.main([str(path), "--solver", "mrv:propagate=singles"]) == 0
    out = capsys.readouterr().out
    assert "p.txt: 2 puzzles" in out
    for side in ("mrv:propagate=singles", "pycosat"):  # median, mean, max, and the slowest puzzle's line
        assert re.search(rf"\n  {re.escape(side)} +( +[\d.]+ ms){{3}}  line [12]\n", out)
    assert re.search(r"\n  mrv:propagate=singles  median [\d.]+x pycosat   mean [\d.]+x pycosat\n", out)
    assert re.search(r"\n  mrv:propagate=singles +[\d.]+ +[\d.]+  \(guesses\)\n", out)
    assert "tdoku" not in out.split("\n", 1)[1]  # past the line that says it is skipped


def test_versus_pycosat_says_what_it_cannot_read_or_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    monkeypatch.delenv(versus_pycosat.TDOKU_ENV, raising=False)
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

    def spy(grid: Grid) -> versus_pycosat.Run:
        given.append(grid)
        return versus_pycosat.pycosat_run(grid)

    files = [Grid.parse(SEED000), Grid.parse(SEED001)]
    sides = [versus_pycosat.Side("spy", spy)]
    measured = versus_pycosat.compare_file(path, sides, None, seed=None)
    assert given[1:] == files and measured.lines == [1, 2] and len(measured.of("spy").seconds) == 2
    drawn = []
    for seed in (0, 1):
        given.clear()
        versus_pycosat.compare_file(path, sides, None, seed=seed)
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


# -- versus_pycosat's tdoku side ----------------------------------------------------------------------------------
# A stand-in for a tdoku checkout: the function tdoku exports, with the signature its source declares, over a
# plain backtracking search of our own (no tdoku code in it), so that the build, the call through ctypes, the
# answer decoded and checked, and the report are tested where no checkout is at hand. Where TDOKU_DIR names a
# real checkout, the last test runs the real one.
STAND_IN = r"""
#include <cstddef>
#include <cstdint>

namespace {
int grid[81];
size_t guesses;

bool allowed(int cell, int v) {
    int r = cell / 9, c = cell % 9, br = r / 3 * 3, bc = c / 3 * 3;
    for (int i = 0; i < 9; i++)
        if (grid[r * 9 + i] == v || grid[i * 9 + c] == v || grid[(br + i / 3) * 9 + bc + i % 3] == v) return false;
    return true;
}

bool search(int cell) {
    while (cell < 81 && grid[cell]) cell++;
    if (cell == 81) return true;
    int left = 0;
    for (int v = 1; v <= 9; v++) left += allowed(cell, v);
    for (int v = 1; v <= 9; v++) {
        if (!allowed(cell, v)) continue;
        if (left-- > 1) guesses++;
        grid[cell] = v;
        if (search(cell + 1)) return true;
        grid[cell] = 0;
    }
    return false;
}
}  // namespace

extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                           char *solution, size_t *num_guesses) {
    for (int i = 0; i < 81; i++) grid[i] = puzzle[i] == '.' ? 0 : puzzle[i] - '0';
    guesses = 0;
    bool found = search(0);
    *num_guesses = guesses;
    if (found) for (int i = 0; i < 81; i++) solution[i] = char('0' + grid[i]);
    return found;
}
"""
# one that claims a solution it did not find: its answer must be refused
LIAR = r"""
#include <cstddef>
#include <cstdint>
extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                           char *solution, size_t *num_guesses) {
    for (int i = 0; i < 81; i++) solution[i] = '1';
    *num_guesses = 0;
    return 1;
}
"""
needs_compiler = pytest.mark.skipif(not (os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
                                         or shutil.which("clang++")), reason="no C++ compiler")


def checkout(where: Path, solver: str) -> Path:
    """A folder laid out as a tdoku checkout's sources are, holding `solver`."""
    (where / "src").mkdir(parents=True)
    (where / "src" / "solver_dpll_triad_simd.cc").write_text(solver)
    (where / "src" / "util.cc").write_text("")
    return where


def three_puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000}\n{SEED001}\n{SEED001}\n")  # the third drawn as another isomorph
    return path


def test_versus_pycosat_says_tdoku_is_skipped_without_a_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    monkeypatch.delenv(versus_pycosat.TDOKU_ENV, raising=False)
    assert versus_pycosat.main([str(three_puzzles(tmp_path))]) == 0
    first, rest = capsys.readouterr().out.split("\n", 1)
    assert first == ("tdoku: skipped, no checkout given (git clone https://github.com/t-dillon/tdoku, "
                     "then --tdoku DIR or TDOKU_DIR=DIR)")
    assert "p.txt: 3 puzzles" in rest and "tdoku" not in rest


def test_versus_pycosat_refuses_a_checkout_without_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    empty = tmp_path / "empty"
    empty.mkdir()
    path = three_puzzles(tmp_path)
    said = f"versus_pycosat: cannot build tdoku from {empty}: no src/solver_dpll_triad_simd.cc"
    assert versus_pycosat.main([str(path), "--tdoku", str(empty)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(said) and err.count("\n") == 1 and "puzzles" not in out  # one line, nothing timed
    monkeypatch.setenv(versus_pycosat.TDOKU_ENV, str(empty))  # the environment's checkout, the same
    assert versus_pycosat.main([str(path)]) == 2
    assert capsys.readouterr().err.startswith(said)
    assert versus_pycosat.main([str(path), "--tdoku", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err == f"versus_pycosat: cannot build tdoku from {tmp_path / 'missing'}: no such " \
                                      "directory\n"


@needs_compiler
def test_versus_pycosat_says_why_tdoku_did_not_build(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the build's cache
    broken = checkout(tmp_path / "broken", '#include "no_such_header.h"\n' + STAND_IN)
    assert versus_pycosat.main([str(three_puzzles(tmp_path)), "--tdoku", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"versus_pycosat: cannot build tdoku from {broken}: ") and err.count("\n") == 1
    assert "no_such_header.h" in err and "error" in err  # the compiler's own words, not "compilation terminated."
    assert not list(tmp_path.glob("sudoku-search-tdoku/*/libtdoku.so*"))  # nothing half-built is kept


@needs_compiler
def test_versus_pycosat_calls_tdoku_in_process_on_the_same_puzzles(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    from puzzles import Grid

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stand_in = checkout(tmp_path / "tdoku", STAND_IN)
    assert versus_pycosat.main([str(three_puzzles(tmp_path)), "--solver", "cdcl", "--solver", "mrv",
                                "--tdoku", str(stand_in)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"tdoku: building its solver from {stand_in}")
    assert "cdcl, mrv against pycosat and tdoku" in out and "p.txt: 3 puzzles" in out
    assert re.search(r"\n  tdoku +( +[\d.]+ ms){3}  line [123]\n", out)
    for label in ("cdcl", "mrv"):  # each configuration as a multiple of each baseline's median and mean
        assert re.search(rf"\n  {label} +median [\d.]+x pycosat  [\d.]+x tdoku   mean [\d.]+x pycosat  [\d.]+x tdoku\n",
                         out)
    assert re.search(r"\n  tdoku +[\d.,]+ +[\d.,]+  \(num_guesses\)\n", out)
    assert re.search(r"\n  cdcl +[\d.,]+ +[\d.,]+  \(guesses\)\n", out)
    library = versus_pycosat.build_tdoku(stand_in)  # built once: the same sources find the library built
    assert library.parent.parent == tmp_path / "sudoku-search-tdoku"
    heard: list[str] = []
    assert versus_pycosat.build_tdoku(stand_in, say=heard.append) == library and not heard
    run = versus_pycosat.Tdoku(library).run(Grid.parse(SEED001))
    assert run.solution is not None and Grid.parse(SEED001).solution_problems(run.solution) == []
    assert run.guesses is not None and run.guesses > 0 and run.seconds > 0
    unsat = Grid.parse("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..8....3......97..")
    assert versus_pycosat.Tdoku(library).run(unsat).solution is None


@needs_compiler
def test_versus_pycosat_checks_tdokus_every_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pycosat")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    liar = checkout(tmp_path / "liar", LIAR)
    with pytest.raises(SystemExit) as stopped:
        versus_pycosat.main([str(three_puzzles(tmp_path)), "--tdoku", str(liar)])
    assert str(stopped.value).endswith(":1: tdoku gave no valid solution")


def test_versus_pycosat_leaves_tdoku_out_of_a_file_it_cannot_solve(tmp_path: Path) -> None:
    pytest.importorskip("pycosat")
    path = tmp_path / "4x4.txt"
    path.write_text("3..1...2.3..2...\n")
    never = versus_pycosat.Side("tdoku", lambda grid: pytest.fail("tdoku was given a 4x4"), classic_only=True)
    measured = versus_pycosat.compare_file(path, [versus_pycosat.PYCOSAT, never], None, seed=0)
    assert [f.side.name for f in measured.figures] == ["pycosat"]
    assert measured.left_out == "tdoku: left out, it solves classic 9x9 puzzles only"


@pytest.mark.skipif(not os.environ.get("TDOKU_DIR"), reason="TDOKU_DIR names no tdoku checkout")
def test_versus_pycosat_against_the_real_tdoku(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pycosat")
    from puzzles import Grid

    assert versus_pycosat.main([str(three_puzzles(tmp_path)), "--solver", "cdcl"]) == 0  # TDOKU_DIR's checkout
    out = capsys.readouterr().out
    assert "cdcl against pycosat and tdoku" in out and "p.txt: 3 puzzles" in out
    assert re.search(r"\n  cdcl +median [\d.]+x pycosat  [\d.]+x tdoku   mean [\d.]+x pycosat  [\d.]+x tdoku\n", out)
    assert re.search(r"\n  tdoku +[\d.,]+ +[\d.,]+  \(num_guesses\)\n", out)
    tdoku = versus_pycosat.Tdoku(versus_pycosat.build_tdoku(Path(os.environ["TDOKU_DIR"])))
    for line in (SEED000, SEED001):
        run = tdoku.run(Grid.parse(line))
        assert run.solution is not None and Grid.parse(line).solution_problems(run.solution) == []
    unsat = Grid.parse("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..8....3......97..")
    assert tdoku.run(unsat).solution is None


def test_sat_setup_times_every_form_for_every_solver(capsys: pytest.CaptureFixture[str]) -> None:
    assert sat_setup.main(["--box", "2", "--repeat", "2", "--solver", "minisat22", "cadical195"]) == 0
    out = capsys.readouterr().out
    assert "4x4, complete encoding: 448 clauses" in out  # 16 cells and 12 unit-values: 1 + 6 pairs each
    assert len(re.findall(r"(minisat22|cadical195)( +[\d.]+){5}\n", out)) == 2


@pytest.mark.slow
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


def test_cluster_vs_pool_says_a_file_it_cannot_read(tmp_path: Path) -> None:
    from benchmarks import cluster_vs_pool

    missing = tmp_path / "missing.txt"
    with pytest.raises(SystemExit) as exit_:
        cluster_vs_pool.main([str(missing)])
    assert exit_.value.code == f"cluster_vs_pool: {missing}: no such file"


def test_versus_iss_reports_each_sides_guesses_a_puzzle_and_a_second() -> None:
    def side(name: str, peer: bool = False) -> versus_iss.Side:
        return versus_iss.Side(name, lambda grid: versus_iss.Answer(0.0), peer)  # (never called here)

    cdcl = versus_iss.Figures(side("cdcl"), seconds=[0.5, 1.5, 2.0], settled=3, guesses=[1_000, 3_000, 8_000])
    iss = versus_iss.Figures(side("ISS", peer=True), seconds=[0.1, 0.2, 0.1], settled=3, guesses=[2_000, 5_000, 1_000])
    lines = versus_iss.report("three.txt", 3, [cdcl, iss], 10)
    assert lines[0] == "three.txt: 3 puzzles, uniqueness proved by every side, 10 s a side a puzzle"
    assert lines[2].split() == ["cdcl", "3/3", "1.5000", "1.3333", "2.0000", "15.00x,", "10.00x"]  # 1.5 / 0.1, 4 / 0.4
    # medians 3,000 and 2,000; 12,000 guesses in 4 s and 8,000 in 0.4 s
    assert lines[4:6] == ["  guesses a puzzle, median: cdcl 3,000, ISS 2,000",
                          "  guesses a second, the puzzles together: cdcl 3,000, ISS 20,000"]


@pytest.mark.parametrize("program, argv, message", [
    ("catalogue", ["--count", "0"], "argument --count: '0' must be greater than 0"),
    ("cluster_vs_pool", ["x.txt", "--workers", "0"], "argument --workers: '0' must be greater than 0"),
    ("hard_for", ["--top", "-1"], "argument --top: '-1' must be greater than 0"),
    ("kernels", ["--rounds", "0"], "argument --rounds: '0' must be greater than 0"),
    ("py_sudoku", ["--difficulty", "1.5"], "argument --difficulty: '1.5' must be between 0 and 1"),
    ("rule45", ["x.txt", "--limit", "-1"], "argument --limit: '-1' must be greater than 0"),  # (not all but the last)
    ("sat_setup", ["--repeat", "0"], "argument --repeat: '0' must be greater than 0"),
    ("solo_killers", ["--count", "0"], "argument --count: '0' must be greater than 0"),
    ("sum_encodings", ["x.txt", "--timeout", "-2"], "argument --timeout: '-2' must be greater than 0"),
    ("versus_iss", ["x.txt", "--timeout", "0"], "argument --timeout: '0' must be greater than 0"),
    ("versus_pycosat", ["--limit", "0"], "argument --limit: '0' must be greater than 0"),
])
def test_a_count_or_a_time_of_nothing_is_a_usage_error(capsys: pytest.CaptureFixture[str], program: str,
                                                         argv: list[str], message: str) -> None:
    benchmark = importlib.import_module(f"benchmarks.{program}")
    with pytest.raises(SystemExit) as stopped:
        benchmark.main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
