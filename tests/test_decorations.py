"""A puzzle's cosmetic elements (f-puzzles' lines, circles, text, cosmetic cages; SudokuPad's drawings): refused by
default with the flag that reads them named; read with `--decorations ignore` (compare.py, sudoku-check), every
record and report of the puzzle then saying which were not read as rules."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from constraint_grids import count
from sudokupad_links import PARITY_FISH

import compare
from commands import check
from comparison.core.errors import UsageError
from comparison.core.settings import Settings
from puzzles import BadEntry, Entry, Grid, read_puzzles
from puzzles.formats import DECORATIONS_KEY

UNIQUE_4X4 = "1..4..1..3..2..3"  # one solution (test_the_4x4_is_unique)


def fpuzzles_object(givens: str, **fields: Any) -> dict[str, Any]:
    side = int(len(givens) ** 0.5)
    rows = [[{"value": int(v), "given": True} if v != "." else {} for v in givens[r * side:(r + 1) * side]]
            for r in range(side)]
    return {"size": side, "grid": rows, "title": "decorated", **fields}


DECORATED = fpuzzles_object(UNIQUE_4X4, line=[{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R2C1", "R3C1"]]}],
                            circle=[{"cells": ["R4C4"]}])


def decorated_file(tmp_path: Path) -> Path:
    path = tmp_path / "decorated.json"
    path.write_text(json.dumps(DECORATED) + "\n")
    return path


def test_the_4x4_is_unique() -> None:
    assert count(Grid.parse(UNIQUE_4X4)) == 1  # so that every method's answer must be the one


def test_a_decoration_is_refused_by_default_naming_the_flag_that_reads_it(tmp_path: Path) -> None:
    [entry] = list(read_puzzles(decorated_file(tmp_path)))
    assert isinstance(entry, BadEntry)
    assert "'line' (a cosmetic element" in entry.reason and "--decorations ignore" in entry.reason


def test_read_ignoring_decorations_the_entry_says_which_were_not_read(tmp_path: Path) -> None:
    [entry] = list(read_puzzles(decorated_file(tmp_path), decorations="ignore"))
    assert isinstance(entry, Entry) and entry.grid == Grid.parse(UNIQUE_4X4)
    assert entry.meta[DECORATIONS_KEY] == "2 lines, 1 circle"
    plain = tmp_path / "plain.json"  # a puzzle with none says nothing
    plain.write_text(json.dumps(fpuzzles_object(UNIQUE_4X4)) + "\n")
    [entry] = list(read_puzzles(plain, decorations="ignore"))
    assert isinstance(entry, Entry) and DECORATIONS_KEY not in entry.meta


def test_a_sudokupad_link_read_ignoring_its_drawings_says_which() -> None:
    [refused] = list(read_puzzles(PARITY_FISH))
    assert isinstance(refused, BadEntry) and "--decorations ignore" in refused.reason
    [entry] = list(read_puzzles(PARITY_FISH, decorations="ignore"))
    assert isinstance(entry, Entry)
    said = entry.meta[DECORATIONS_KEY]
    assert "background image" in said and said.count(",") >= 1  # the image and the drawn fish at least


def test_sudoku_check_counts_a_decorated_puzzle_only_with_the_flag(tmp_path: Path, capsys) -> None:
    path = decorated_file(tmp_path)
    assert check.main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "0 puzzles, 1 bad entry" in out and "--decorations ignore" in out
    assert check.main([str(path), "--decorations", "ignore"]) == 0
    out = capsys.readouterr().out
    assert "1 puzzle, 0 bad entries" in out
    assert f"{path}:1: decorations not read as rules: 2 lines, 1 circle" in out


def test_compare_records_and_report_say_what_was_not_read(tmp_path: Path, capsys) -> None:
    path, output = decorated_file(tmp_path), tmp_path / "r.jsonl"
    code = compare.main([str(path), "--solver", "mrv", "--jobs", "1", "--output", str(output)])
    out = capsys.readouterr().out
    assert code == 2 and "Bad entries (skipped): 1" in out  # refused: nothing compared
    assert "--decorations ignore reads the puzzle without it" in out
    code = compare.main([str(path), "--solver", "mrv", "--jobs", "1", "--output", str(output),
                         "--decorations", "ignore"])
    out = capsys.readouterr().out
    assert code == 0, out
    records = [json.loads(line) for line in output.read_text().splitlines()]
    assert {r["method"] for r in records} >= {"mrv"} and all(r["status"] == "solved" for r in records)
    for record in records:
        assert Grid.parse(UNIQUE_4X4).solution_problems(Grid.parse(record["solution"])) == []
        assert record["note"].endswith("decorations not read as rules: 2 lines, 1 circle")
    assert "decorations ignored" in out and "2 lines, 1 circle" in out


def test_the_flag_takes_refuse_or_ignore_and_a_fuzz_run_has_no_use_for_it(capsys) -> None:
    with pytest.raises(UsageError, match="decorations='keep'"):
        Settings(decorations="keep")
    assert compare.main(["--decorations", "keep"]) == 2
    assert "invalid choice: 'keep'" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1s", "--decorations", "ignore"]) == 2
    assert "--decorations ignore" in capsys.readouterr().err


def test_the_page_lists_the_puzzles_read_without_their_decorations(tmp_path: Path, monkeypatch, capsys) -> None:
    real = importlib.util.find_spec  # the page's plots drawn without matplotlib: the same page, a second sooner
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "matplotlib" else
                        real(name, *args))
    path, page = decorated_file(tmp_path), tmp_path / "report.html"
    plain = tmp_path / "plain.txt"
    plain.write_text(UNIQUE_4X4 + "\n")
    code = compare.main([str(path), str(plain), "--solver", "mrv", "--jobs", "1", "--no-certify",
                         "--decorations", "ignore", "--html", str(page)])
    assert code == 0, capsys.readouterr().out
    html = page.read_text(encoding="utf-8")
    listed = re.search(r'<section id="decorations">.*?<ul id="decorations">(.*?)</ul>', html, re.DOTALL)
    assert listed is not None
    assert re.findall(r"<li>(.*?)</li>", listed.group(1)) == [f"{path}:1 decorated: 2 lines, 1 circle"]
    assert "1 puzzle read with <code>--decorations ignore</code>" in html
    page.unlink()  # a run with nothing left out has no such section
    assert compare.main([str(plain), "--solver", "mrv", "--jobs", "1", "--no-certify", "--decorations", "ignore",
                         "--html", str(page)]) == 0
    assert 'id="decorations"' not in page.read_text(encoding="utf-8")
