"""`--accept-fields NAME,...` (compare.py, sudoku-check; `accepted=` from Python): f-puzzles' and SudokuPad's fields
that the readers refuse as unknown (`source`, `version`), read and ignored when named, every record and report of a
puzzle that held one saying which; without the flag such a field is refused as unknown, naming the flag; a field that
holds a rule, is read, or is a drawing cannot be named."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import lzstring
import pytest
from constraint_grids import count

import compare
from commands import check
from comparison.core.errors import UsageError
from comparison.core.settings import Settings
from puzzles import BadEntry, Entry, Grid, read_puzzles
from puzzles.formats import ACCEPTED_KEY

UNIQUE_4X4 = "1..4..1..3..2..3"


def fpuzzles_object(**fields: Any) -> dict[str, Any]:
    rows = [[{"value": int(v), "given": True} if v != "." else {} for v in UNIQUE_4X4[r * 4:(r + 1) * 4]]
            for r in range(4)]
    return {"size": 4, "grid": rows, "title": "sourced", **fields}


def scl_link(**fields: Any) -> str:
    """A 4x4 SudokuPad scl link of the same puzzle, with these fields."""
    boxes = [[[r, c] for r in range(br, br + 2) for c in range(bc, bc + 2)] for br in (0, 2) for bc in (0, 2)]
    cells = [[{"value": int(v)} if v != "." else {} for v in UNIQUE_4X4[r * 4:(r + 1) * 4]] for r in range(4)]
    return "https://sudokupad.app/scl" + str(lzstring.compress_to_base64(
        json.dumps({"cells": cells, "regions": boxes, **fields})))


@pytest.fixture
def sourced(tmp_path: Path) -> Path:
    path = tmp_path / "sourced.txt"
    path.write_text(json.dumps(fpuzzles_object(source="a book, page 3", version=2, notes="")) + "\n"
                    + scl_link(source="a site") + "\n" + json.dumps(fpuzzles_object()) + "\n")
    return path


def test_the_puzzle_is_unique() -> None:
    assert count(Grid.parse(UNIQUE_4X4)) == 1


def test_an_unknown_field_is_refused_as_unknown_naming_the_flag(sourced: Path) -> None:
    first, second, third = read_puzzles(sourced)
    assert isinstance(first, BadEntry) and isinstance(second, BadEntry)
    assert "f-puzzles field 'source' (an unknown field)" in first.reason and "--accept-fields source" in first.reason
    assert "SudokuPad field 'source' (an unknown field)" in second.reason and "--accept-fields source" in second.reason
    assert "a constraint" not in first.reason
    assert isinstance(third, Entry) and ACCEPTED_KEY not in third.meta
    refused = next(read_puzzles(sourced, accepted=("source",)))
    assert isinstance(refused, BadEntry) and "'version' (an unknown field)" in refused.reason  # only those named


def test_named_fields_are_read_and_ignored_and_said(sourced: Path) -> None:
    first, second, third = read_puzzles(sourced, accepted=("source", "version"))
    for entry in (first, second, third):
        assert isinstance(entry, Entry) and entry.grid == Grid.parse(UNIQUE_4X4)
    assert isinstance(first, Entry) and first.meta[ACCEPTED_KEY] == "source, version"  # the empty `notes` unsaid
    assert isinstance(second, Entry) and second.meta[ACCEPTED_KEY] == "source"
    assert isinstance(third, Entry) and ACCEPTED_KEY not in third.meta


def test_compare_s_records_report_and_page_say_which_fields_were_ignored(sourced: Path, tmp_path: Path, capsys,
                                                                          monkeypatch) -> None:
    real = importlib.util.find_spec  # the page's plots drawn without matplotlib: the same page, a second sooner
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "matplotlib" else
                        real(name, *args))
    output, page = tmp_path / "r.jsonl", tmp_path / "report.html"
    code = compare.main([str(sourced), "--solver", "mrv", "--jobs", "1", "--no-certify", "--output", str(output),
                         "--accept-fields", "source,version", "--html", str(page)])
    out = capsys.readouterr().out
    assert code == 0, out
    records = {r["line"]: r for r in map(json.loads, output.read_text().splitlines())}
    assert records[1]["note"] == "fields read and ignored: source, version"
    assert records[2]["note"] == "fields read and ignored: source"
    assert not records[3]["note"]
    assert all(Grid.parse(UNIQUE_4X4).solution_problems(Grid.parse(r["solution"])) == [] for r in records.values())
    assert "Puzzles read with fields accepted (--accept-fields): the fields read and ignored: 2" in out
    assert f"{sourced}:1 sourced: source, version" in out
    listed = re.search(r'<ul id="accepted">(.*?)</ul>', page.read_text(encoding="utf-8"))
    assert listed is not None and re.findall(r"<li>(.*?)</li>", listed.group(1)) == [
        f"{sourced}:1 sourced: source, version", f"{sourced}:2: source"]


def test_sudoku_check_says_which_fields_were_ignored(sourced: Path, capsys) -> None:
    assert check.main([str(sourced)]) == 1
    assert "1 puzzle, 2 bad entries" in capsys.readouterr().out
    assert check.main([str(sourced), "--accept-fields", "source,version"]) == 0
    out = capsys.readouterr().out
    assert "3 puzzles, 0 bad entries" in out
    assert f"{sourced}:1: fields read and ignored: source, version" in out and f"{sourced}:2: fields read and " \
        "ignored: source" in out


@pytest.mark.parametrize(("names", "says"), [
    ("clock", "'clock' holds a rule"),
    ("thermometer", "'thermometer' is read by this project"),
    ("size", "'size' is read by this project"),
    ("line", "'line' is a drawing: --decorations ignore"),
    ("lines", "'lines' is a drawing"),
    ("cages", "'cages' is read by this project"),
    ("source,", "'' is not a field's name"),
])
def test_a_field_that_holds_a_rule_is_read_or_is_drawn_cannot_be_named(names: str, says: str, capsys) -> None:
    with pytest.raises(SystemExit):
        check.main(["-", "--accept-fields", names])
    assert says in capsys.readouterr().err
    assert compare.main(["--accept-fields", names]) == 2
    assert says in capsys.readouterr().err
    with pytest.raises(UsageError, match="--accept-fields"):
        Settings(accept_fields=tuple(names.split(",")))


def test_a_fuzz_run_has_no_use_for_it(capsys) -> None:
    assert compare.main(["--fuzz", "1s", "--accept-fields", "source"]) == 2
    assert "--accept-fields" in capsys.readouterr().err
