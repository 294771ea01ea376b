"""benchmarks/rule45.py: each pair's lines counted by hand from made-up runs, and a whole run on small Killers
(every answer checked there; the figures themselves are the benchmark's, never asserted)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.rule45 import PAIRS, Pair, Run, Side, main, pair_lines
from comparison.run.methods import load_registry, parse_solver
from making.kinds import killer
from making.variants import variant
from puzzles import Budget


def side(spec: str, runs: list[Run | None]) -> Side:
    return Side(parse_solver(spec, load_registry(["mrv"]), 1, Budget()), runs)


def test_a_pair_counted_by_hand() -> None:
    pair = Pair("rung", "mrv:propagate=cages", "mrv:propagate=innies", "guesses")
    without = side(pair.without, [Run(0.010, {"guesses": 8}), Run(0.040, {"guesses": 2}), None,
                                  Run(0.020, {"guesses": 0})])
    with45 = side(pair.with45, [Run(0.005, {"guesses": 2}), Run(0.080, {"guesses": 0}), Run(0.001, {"guesses": 0}),
                                None])
    lines = pair_lines(pair, without, with45, 4).splitlines()
    # both settled puzzles 1 and 2: times 10, 40 -> 5, 80 ms (ratios 0.5, 2.0); guesses 8, 2 -> 2, 0
    assert lines[0] == "rung: mrv:propagate=cages settled 3, mrv:propagate=innies 3, both 2"
    assert lines[1] == ("  median ms 25.00 -> 42.50; per-puzzle time ratio median 1.25; "
                        "faster with the rule on 1 of 2")
    assert lines[2] == "  guesses: median 5 -> 1; per-puzzle ratio median 0.12; none at all 0.0% -> 50.0%"


def test_a_pair_with_nothing_in_common() -> None:
    pair = Pair("rung", "mrv:propagate=cages", "mrv:propagate=innies", "guesses")
    lines = pair_lines(pair, side(pair.without, [None]), side(pair.with45, [Run(0.1, {})]), 1)
    assert lines == "rung: mrv:propagate=cages settled 0, mrv:propagate=innies 1, both 0"


def test_every_pair_on_small_killers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "killers.txt"
    rng = random.Random(7)
    made = [killer(variant("killer", 4).layout(rng), rng).puzzle for _ in range(2)]  # unique 4x4 Killers
    puzzles.write_text("".join(grid.text() + "\n" for grid in made))
    assert main([str(puzzles), "--timeout", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"2 Killer puzzles of {puzzles}, 20 s a solve")
    for pair in PAIRS:  # every side settles both 4x4 puzzles, each answer checked against the puzzle by the run
        assert f"{pair.label}: {pair.without} settled 2, {pair.with45} 2, both 2" in out


def test_a_file_without_killers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    classic = tmp_path / "classic.txt"
    classic.write_text("." * 81 + "\n")
    assert main([str(classic)]) == 2
    assert "no Killer puzzle among its first 200" in capsys.readouterr().err
