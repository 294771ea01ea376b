"""benchmarks/nogoods.py: cdcl's nogoods as its own counters count them, CP-SAT's learned literals as its log's table
says, and a whole run on the seeds (every solution checked there; the sizes themselves are the benchmark's)."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from benchmarks.nogoods import by_cdcl, by_cpsat, learned_literals, main
from puzzles import Budget, Entry, read_puzzles
from search import SOLVERS

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [entry.grid for entry in read_puzzles(str(ROOT / "puzzles" / "seeds.txt")) if isinstance(entry, Entry)]
SEARCHED = SEEDS[1]  # the seed that both sides settle after a few conflicts, not in propagation alone

# A table of CP-SAT's log (9.15, one worker, a 16x16 Killer), figures with its thousands' separator
TABLE = """SAT formula    Fixed  Equiv  Total  VarLeft  BinaryClauses  PermanentClauses  TemporaryClauses
      'main':     82      9  3'746    3'655         17'938             2'694                82

SAT stats    ClassicMinim  LitRemoved  LitRemovedBinary  LitLearned  LitForgotten  Subsumed
    'main':           149         815               884       4'697             0        17
"""


def test_cdcls_nogoods_are_one_a_conflict_of_the_same_search_as_compare_runs() -> None:
    kept = by_cdcl(SEARCHED, 60)
    outcome = SOLVERS["cdcl"](SEARCHED, Budget(seconds=60), solutions=1)
    assert kept.solved and kept.conflicts == outcome.effort["conflicts"] > 0
    assert len(kept.sizes) == len(kept.lbds) == kept.conflicts
    assert all(1 <= lbd <= size for size, lbd in zip(kept.sizes, kept.lbds, strict=True))  # a level a literal at most
    assert kept.mean_size() == sum(kept.sizes) / len(kept.sizes)


def test_cpsats_learned_literals_are_read_from_its_table() -> None:
    assert learned_literals(TABLE.splitlines(keepends=True)) == 4697
    assert learned_literals([TABLE]) == 4697  # the table given as one message of several lines
    assert learned_literals(["no table here\n"]) is None


def test_cpsat_learns_at_least_a_literal_a_conflict() -> None:
    kept = by_cpsat(SEARCHED, 60)
    assert kept.solved and kept.conflicts > 0 and kept.learned_literals is not None
    assert kept.learned_literals >= kept.conflicts  # each conflict learns a clause of one literal or more
    assert kept.mean_size() == kept.learned_literals / kept.conflicts


def test_a_run_has_a_row_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(ROOT / "puzzles" / "seeds.txt"), "--limit", "2", "--timeout", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("2 puzzles, a first solution each, 30 s a side a puzzle (solved: cdcl, cpsat)")
    rows = [line.split() for line in lines[2:4]]
    assert [row[:2] for row in rows] == [["1", "SS"], ["2", "SS"]]
    assert rows[0][2:] == ["0", "-", "-", "-", "0", "-"]  # the first seed: settled without a conflict by both
    assert lines[4].startswith("  over the 1 puzzle where both learned")


def test_a_file_without_a_puzzle_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert main([str(empty)]) == 2
    assert "no puzzle read" in capsys.readouterr().err


@pytest.mark.parametrize("program", ["nogoods", "backjumps", "rule45", "sum_encodings"])
@pytest.mark.parametrize("where", ["missing.txt", "."])
def test_a_file_that_cannot_be_read_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  program: str, where: str) -> None:
    benchmark = importlib.import_module(f"benchmarks.{program}")
    path = tmp_path / where  # (tmp_path / "." is the folder itself)
    assert benchmark.main([str(path)]) == 2
    err = capsys.readouterr().err
    why = "is a folder, not a puzzle file" if where == "." else "no such file"
    assert err.strip().endswith(f"{path}: {why}"), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
