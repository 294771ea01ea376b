"""search/bench.py: the small benchmark command."""
from __future__ import annotations

from pathlib import Path

import pytest

from search.bench import main, parse_solver

SEEDS = Path(__file__).resolve().parents[1] / "puzzles" / "seeds.txt"


def test_parse_solver():
    assert parse_solver("mrv:propagate=singles,tie=swap") == ("mrv", {"propagate": "singles", "tie": "swap"})
    assert parse_solver("astar") == ("astar", {})
    with pytest.raises(SystemExit, match="unknown solver"):
        parse_solver("dlx")


def test_bench_prints_time_and_counters(capsys):
    assert main([str(SEEDS), "--limit", "3", "--solutions", "2", "--isomorphs", "1",
                 "--solver", "mrv:propagate=singles", "--solver", "astar:weight=2"]) == 0
    out = capsys.readouterr().out
    assert "3 puzzles (1 isomorph(s) each, seed 0), solutions=2" in out
    assert "mrv:propagate=singles" in out and "median" in out and "guesses=" in out
    assert "frontier_peak=" in out


def test_bench_refuses_bad_options():
    with pytest.raises(SystemExit, match="unknown option"):
        main([str(SEEDS), "--limit", "1", "--solver", "mrv:speed=max"])
