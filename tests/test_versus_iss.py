"""benchmarks/versus_iss.py and its node driver, against a stand-in for the Interactive Sudoku Solver: a checkout
written by the test whose two modules answer as ISS's do (a parser, a builder whose solver gives its solutions one
at a time), but only to the constraint strings ISS's syntax gives these puzzles; any other string is an error. With
ISS_DIR naming a real checkout, the driver runs on it too. Without node, every test skips; no network."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from constraint_grids import EMPTY, solutions, unique_puzzle

from benchmarks import versus_iss
from puzzles import Grid
from puzzles.fpuzzles import json_line

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

KILLER = Grid.parse("................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3")  # one solution, the brute force says
THERMO, _ = unique_puzzle(EMPTY["thermometer-4"], 1)  # ......2.........;th=R1C1,R2C2,R3C3;th=R4C1,R3C1
OPEN = Grid.parse(EMPTY["thermometer-4"])  # no givens: several solutions
# ISS's constraint strings for them, in its own syntax (js/sudoku_parser.js, js/sudoku_constraint.js)
ISS_TEXT = {
    KILLER: ".Shape~4x4.Cage~3~R1C1~R1C2.Cage~8~R1C3~R1C4~R2C3.Cage~7~R2C1~R2C2.Cage~5~R2C4~R3C4"
            ".Cage~6~R3C1~R4C1.Cage~8~R3C2~R3C3~R4C2.Cage~3~R4C3~R4C4",
    THERMO: ".Shape~4x4.~R2C3_2.Thermo~R1C1~R2C2~R3C3.Thermo~R4C1~R3C1",
    OPEN: ".Shape~4x4.Thermo~R1C1~R2C2~R3C3.Thermo~R4C1~R3C1",
}

# the catalogue's kinds the driver gives ISS, on open grids (several solutions), and their strings in ISS's syntax
CATALOGUE = {Grid.parse(EMPTY[name]): text for name, text in {
    "palindrome-4": ".Shape~4x4.Palindrome~R1C1~R2C2~R3C3",
    "whispers-6": ".Shape~6x6.Whisper~3~R1C1~R1C2~R1C3~R2C4~R3C4.Whisper~2~R6C6~R5C6~R4C5~R4C4",
    "renban-4": ".Shape~4x4.Renban~R1C1~R2C2~R3C3.Renban~R4C1~R4C2",
    "minimum+maximum-4": ".Shape~4x4.GreaterThan~R2C1~R1C1.GreaterThan~R1C2~R1C1.GreaterThan~R2C3~R3C3"
                         ".GreaterThan~R4C3~R3C3.GreaterThan~R3C2~R3C3.GreaterThan~R3C4~R3C3"
                         ".GreaterThan~R2C2~R1C2.GreaterThan~R2C2~R3C2.GreaterThan~R2C2~R2C1.GreaterThan~R2C2~R2C3",
    "arrow-6": ".Shape~6x6.Arrow~R1C1~R1C2~R1C3.Arrow~R6C6~R5C5~R4C4~R3C4.PillArrow~2~R3C1~R4C1~R5C1~R6C1~R6C2~R6C3",
    "quadruple-4": ".Shape~4x4.Quad~R1C1~1~2.Quad~R3C3~4",
    # a diagonal is named by the cell ISS's own walks start it from
    "littlekiller-6": ".Shape~6x6.LittleKiller~4~R1C2.LittleKiller~16~R2C1.LittleKiller~9~R2C6",
    "pencilmarks-4": ".Shape~4x4.~R1C1_1_2.~R2C3_3_4.~R4C4_2",
    "modularline-4": ".Shape~4x4.Modular~3~R1C1~R2C2~R3C3~R4C4",
    "zipperline-6": ".Shape~6x6.Zipper~R1C1~R2C2~R3C3~R4C4~R5C5.Zipper~R6C1~R5C2~R4C2~R4C1",
    "doublearrow-4": ".Shape~4x4.DoubleArrow~R1C1~R2C2~R3C3.DoubleArrow~R4C1~R3C1~R2C1",
    "betweenline-6": ".Shape~6x6.Between~R1C1~R2C2~R3C3~R4C4.Between~R6C1~R6C2~R5C3",
    "lockout-6": ".Shape~6x6.Lockout~3~R1C1~R2C2~R3C3~R4C4.Lockout~4~R6C1~R6C2~R5C3",
    "jigsaw+regionsumline-4": ".Shape~4x4.Jigsaw~0001011122232333.NoBoxes.RegionSumLine~R1C4~R2C4~R1C3~R1C2",
    # a clue outside: its row or column, and for an X-sum or a skyscraper the end it reads from
    "sandwich-6": ".Shape~6x6.Sandwich~10~R1.Sandwich~7~C2.Sandwich~0~R4",
    "xsum-6": ".Shape~6x6.XSum~R1~7~.XSum~C2~~8.XSum~R4~~5",
    "skyscraper-6": ".Shape~6x6.Skyscraper~R1~4~.Skyscraper~C1~3~.Skyscraper~R6~~2",
}.items()}
CATALOGUE[Grid.parse("." * 36 + ";ri=R1C2,R6C5;ci=R3C1,R3C6")] = ".Shape~6x6.Indexing~R~R1C2~R6C5.Indexing~C~R3C1~R3C6"

PARSER = "export class SudokuParser { static parseText(text) { return text; } }\n"
BUILDER = """
const ANSWERS = %s;
const HANG = %s;
export class SudokuBuilder {
  static resolveConstraint(text) { return text; }
  static build(text) {
    if (text === HANG) while (true) {}
    const found = ANSWERS[text];
    if (!found) throw new Error('unexpected constraint string ' + text);
    return {
      nthSolution: (n) => found[n] ?? null,
      geometry: () => ({ numGridCells: found[0].length }),
      state: () => ({ counters: { guesses: 3 } }),
    };
  }
}
"""


def stand_in(folder: Path, answers: dict[str, list[list[int]]], hang: str = "") -> Path:
    """A checkout whose solver answers each constraint string of `answers` with its solutions (and never
    answers `hang`)."""
    (folder / "js" / "solver").mkdir(parents=True)
    (folder / "js" / "sudoku_parser.js").write_text(PARSER)
    (folder / "js" / "solver" / "sudoku_builder.js").write_text(BUILDER % (json.dumps(answers), json.dumps(hang)))
    return folder


def truth(grid: Grid) -> list[list[int]]:
    """The puzzle's first two solutions, by the brute force that knows nothing of the project's links."""
    return list(solutions(grid, 2))


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    return stand_in(tmp_path / "iss", {text: truth(grid) for grid, text in (ISS_TEXT | CATALOGUE).items()})


def driver(checkout: Path, grids: list[Grid]) -> list[dict[str, object]]:
    assert NODE is not None
    done = subprocess.run([NODE, str(versus_iss.DRIVER), str(checkout)], input="".join(
        json_line(g) + "\n" for g in grids), capture_output=True, text=True, timeout=60, check=True)
    ready, *answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert ready == {"ready": True}
    return answers


def test_the_driver_gives_iss_each_puzzle_in_its_syntax_and_says_what_it_proved(checkout: Path) -> None:
    answers = driver(checkout, [KILLER, THERMO, OPEN])
    for grid, answer in zip([KILLER, THERMO, OPEN], answers, strict=True):
        assert answer.get("error") is None, answer
        assert answer["solution"] == truth(grid)[0]  # cell by cell
        assert answer["unique"] is (len(truth(grid)) == 1)
        assert isinstance(answer["seconds"], float) and isinstance(answer["setup_seconds"], float)
        assert answer["guesses"] == 3
    assert [a["unique"] for a in answers] == [True, True, False]


def test_the_driver_gives_iss_the_catalogues_kinds_in_its_syntax(checkout: Path) -> None:
    grids = list(CATALOGUE)
    for grid, answer in zip(grids, driver(checkout, grids), strict=True):
        assert answer.get("error") is None, (CATALOGUE[grid], answer)  # the stand-in knew the string
        assert answer["solution"] == truth(grid)[0] and answer["unique"] is False


def test_the_driver_refuses_by_name_a_rule_it_cannot_give_iss(checkout: Path) -> None:
    puzzle = json.loads(json_line(KILLER)) | {"clone": [{"cells": ["R1C1"], "cloneCells": ["R3C3"]}]}
    assert NODE is not None
    done = subprocess.run([NODE, str(versus_iss.DRIVER), str(checkout)], input=json.dumps(puzzle) + "\n",
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout.splitlines()[1]) == {
        "error": "cannot give ISS this puzzle: the f-puzzles field `clone` is not one this driver gives ISS"}


def test_the_benchmark_times_iss_beside_the_methods_every_answer_checked(
        checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.txt"
    path.write_text(f"{KILLER.text()}\n{THERMO.text()}\n")
    assert versus_iss.main([str(path), "--iss", str(checkout), "--solver", "mrv", "--solver", "cdcl",
                            "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "two.txt: 2 puzzles, uniqueness proved by every side" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("  ")}
    for side in ("mrv", "cdcl", "ISS"):
        assert rows[side][1] == "2/2", out
    assert rows["mrv"][-2].endswith("x,") and rows["cdcl"][-1].endswith("x")  # each a multiple of ISS's


def test_the_benchmark_stops_at_a_wrong_answer_or_a_disagreement(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(f"{THERMO.text()}\n")
    wrong = truth(THERMO)[0]
    wrong[0], wrong[1] = wrong[1], wrong[0]
    bad = stand_in(tmp_path / "wrong", {ISS_TEXT[THERMO]: [wrong]})
    with pytest.raises(SystemExit, match=r"one.txt:1: ISS gave a wrong answer"):
        versus_iss.main([str(path), "--iss", str(bad), "--solver", "mrv"])
    twice = stand_in(tmp_path / "twice", {ISS_TEXT[THERMO]: [truth(THERMO)[0], truth(OPEN)[0]]})
    with pytest.raises(SystemExit, match=r"one.txt:1: mrv and ISS disagree: unique against two solutions or more"):
        versus_iss.main([str(path), "--iss", str(twice), "--solver", "mrv"])
    several = tmp_path / "several.txt"
    several.write_text(f"{OPEN.text()}\n")
    blind = stand_in(tmp_path / "blind", {ISS_TEXT[OPEN]: truth(OPEN)[:1]})  # misses the second solution
    with pytest.raises(SystemExit, match=r"several.txt:1: mrv and ISS disagree: two solutions or more against "
                                         r"unique"):
        versus_iss.main([str(several), "--iss", str(blind), "--solver", "mrv"])


def test_a_puzzle_iss_does_not_answer_in_time_is_a_give_up_and_the_next_is_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versus_iss, "GRACE", 0.0)
    path = tmp_path / "three.txt"
    path.write_text(f"{KILLER.text()}\n{THERMO.text()}\n{KILLER.text()}\n")
    hangs = stand_in(tmp_path / "hangs", {ISS_TEXT[KILLER]: truth(KILLER)}, hang=ISS_TEXT[THERMO])
    assert versus_iss.main([str(path), "--iss", str(hangs), "--solver", "mrv", "--timeout", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "ISS: not settled: 1 time (stopped)" in out
    assert "  ISS " in out and " 2/3 " in out
    assert "(ISS's driver restarted 1 times, after give-ups)" in out


def test_without_a_checkout_iss_is_skipped_and_a_bad_one_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(versus_iss.ISS_ENV, raising=False)
    path = tmp_path / "one.txt"
    path.write_text(f"{KILLER.text()}\n")
    assert versus_iss.main([str(path), "--solver", "mrv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ISS: skipped, no checkout given (git clone {versus_iss.ISS_URL}")
    assert "ISS" not in out.split("one.txt:")[1]
    assert versus_iss.main([str(path), "--iss", str(tmp_path), "--solver", "mrv"]) == 2
    err = capsys.readouterr().err
    assert err == (f"versus_iss: ISS ({tmp_path}): {tmp_path} is not a checkout of the Interactive Sudoku Solver: "
                   f"no {tmp_path / 'js' / 'sudoku_parser.js'}\n")


@pytest.mark.skipif(not os.environ.get(versus_iss.ISS_ENV), reason="no ISS checkout (ISS_DIR)")
def test_the_real_iss_solves_the_tiny_puzzles_as_the_brute_force_does() -> None:
    grids = [KILLER, THERMO, OPEN, *CATALOGUE]
    answers = driver(Path(os.environ[versus_iss.ISS_ENV]), grids)
    for grid, answer in zip(grids, answers, strict=True):
        filled = answer["solution"]
        assert isinstance(filled, list)
        assert all(g in (0, v) for g, v in zip(grid.values, filled, strict=True))  # its givens kept
        assert truth(grid.with_values(filled)) == [filled]  # a solution, by the brute force
        assert answer["unique"] is (len(truth(grid)) == 1), answer


def test_a_puzzle_whose_rules_iss_cannot_be_given_is_not_run_by_iss(
        checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ISS negates white and black dots together only (its StrictKropki): a negative of white dots alone is refused
    path = tmp_path / "negative.txt"
    path.write_text(f"{THERMO.text()};negative=difference\n")
    assert versus_iss.main([str(path), "--iss", str(checkout), "--solver", "mrv"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  ISS +0/1  not run$", out, re.M), out
    assert "ISS: not settled: 1 not run: ISS negates white and black dots together (StrictKropki), not one alone" \
        in out
    assert "vs ISS" not in out  # no multiple of a time it did not take


def test_each_side_warms_up_on_the_first_puzzle_reflected_or_on_it_where_its_rules_are_not() -> None:
    # a Killer reflected is another layout (no timed puzzle's model built in the warm-up), an indexer's kind has no
    # reflected image: the puzzle itself
    warm = versus_iss.warm_up_puzzle(KILLER)
    assert warm.layout is not KILLER.layout and warm.values == KILLER.values  # no givens to move: the cages moved
    assert {frozenset(c.cells) for c in warm.layout.constraints} == \
           {frozenset(c % 4 * 4 + c // 4 for c in cage.cells) for cage in KILLER.layout.constraints}
    indexed = Grid.parse("." * 36 + ";ri=R1C2,R6C5;ci=R3C1,R3C6")
    assert versus_iss.warm_up_puzzle(indexed) is indexed
