"""benchmarks/backjumps.py: each jump back of cdcl measured on its trail, checked against cdcl's own counters and
against what a jump must be (a level or more undone, nothing kept by a jump of one level), and a row counted by hand."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.backjumps import Jumps, jumps_of, main, row
from puzzles import Budget, Entry, read_puzzles
from search import SOLVERS

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [entry.grid for entry in read_puzzles(str(ROOT / "puzzles" / "seeds.txt")) if isinstance(entry, Entry)]
SEARCHED = SEEDS[1]  # settled after a few dozen conflicts


def test_a_jump_a_conflict_as_cdcl_counts_them() -> None:
    jumps = jumps_of(SEARCHED, 60)
    effort = SOLVERS["cdcl"](SEARCHED, Budget(seconds=60), solutions=2).effort
    assert jumps.settled and len(jumps.undone) > 10
    # every conflict but the last, at level 0, which proves there is no second solution, jumps back
    assert len(jumps.undone) == len(jumps.levels) == effort["conflicts"] - 1
    assert sum(jumps.undone_levels) == effort["backtracks"]  # its counter: the levels undone, summed


def test_each_jump_undoes_a_level_or_more_and_keeps_only_what_lies_between() -> None:
    jumps = jumps_of(SEARCHED, 60)
    for level, levels, undone, between in zip(jumps.levels, jumps.undone_levels, jumps.undone, jumps.between,
                                              strict=True):
        assert 1 <= levels <= level
        assert 0 <= between < undone  # the conflict's own level is undone either way
        if levels == 1:
            assert between == 0  # a jump of one level is a chronological backtrack already


def test_a_row_counted_by_hand() -> None:
    jumps = Jumps(True, levels=[3, 5], undone_levels=[1, 3], undone=[10, 30], between=[0, 10])
    # 2 jumps; mean level 4; 2 levels undone a jump; one jump of the two over more than a level; 20 literals
    # undone a jump; 10 of the 40 on the levels passed over
    assert row(0, jumps).split() == ["1", "S", "2", "4.0", "2.00", "50.0%", "20", "25.0%"]
    assert row(1, Jumps()).split() == ["2", "-", "0", "-", "-", "-", "-", "-"]


def test_a_run_has_a_row_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(ROOT / "puzzles" / "seeds.txt"), "--limit", "2", "--timeout", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{ROOT / 'puzzles' / 'seeds.txt'}: 2 puzzles, cdcl asked for two solutions, 30 s")
    searched = str(len(jumps_of(SEARCHED, 30).undone))
    assert [line.split()[:3] for line in lines[2:4]] == [["1", "S", "0"], ["2", "S", searched]]
    assert lines[4].startswith("  in all: ")
