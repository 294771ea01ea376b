"""benchmarks/killer_runs.py (the Killer benchmarks' order and checks) and benchmarks/sum_encodings.py run whole on
small Killers (every answer checked by the run; the figures themselves are the benchmark's, never asserted)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.killer_runs import accepted, interleaved, read_killers
from benchmarks.sum_encodings import main
from formulations.constraints.sat import SUMS
from making.kinds import killer
from making.variants import variant
from puzzles import Grid, Outcome, Status


def small_killers(path: Path, count: int) -> list[Grid]:
    rng = random.Random(7)
    made = [killer(variant("killer", 4).layout(rng), rng).puzzle for _ in range(count)]  # unique 4x4 Killers
    path.write_text("".join(grid.text() + "\n" for grid in made))
    return made


def test_each_puzzle_starts_one_configuration_further(tmp_path: Path) -> None:
    a, b, c = small_killers(tmp_path / "k.txt", 3)
    order = [(index, configuration) for index, _, configuration in interleaved([a, b, c], "xyz")]
    assert order == [(0, "x"), (0, "y"), (0, "z"), (1, "y"), (1, "z"), (1, "x"), (2, "z"), (2, "x"), (2, "y")]
    assert [grid for _, grid, _ in interleaved([a, b], "xy")] == [a, a, b, b]


def test_an_error_and_a_wrong_answer_stop_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = small_killers(tmp_path / "k.txt", 1)[0]
    assert not accepted(Outcome(Status.ERROR, detail="it broke"), grid, 2, "sat")
    assert capsys.readouterr().err == "puzzle 3, sat: it broke\n"
    wrong = grid.with_values([1] * len(grid.values))  # every cell 1: rows repeat
    assert not accepted(Outcome(Status.SOLVED, solution=wrong), grid, 0, "cpsat")
    assert capsys.readouterr().err.startswith("puzzle 1, cpsat: a wrong answer: ")
    assert accepted(Outcome(Status.GAVE_UP), grid, 0, "cpsat")


def test_a_file_without_killers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    classic = tmp_path / "classic.txt"
    classic.write_text("." * 81 + "\n")
    assert read_killers(str(classic), 5) is None
    assert capsys.readouterr().err == f"{classic}: no Killer puzzle among its first 5\n"
    assert main([str(classic)]) == 2


def test_every_encoding_on_small_killers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "killers.txt"
    small_killers(puzzles, 2)
    assert main([str(puzzles), "--timeout", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"2 Killer puzzles of {puzzles}, back end minisat22, solutions=2")
    rows = {line.split("  ")[0].strip(): line.split() for line in out[2:]}
    assert set(rows) == {*SUMS, "combinations + 45"}
    assert all(row[-1] == "0" for row in rows.values())  # the last column, gave up: every encoding settled both
