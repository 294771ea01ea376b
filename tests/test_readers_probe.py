"""The readers' defects a hostile probe found (issue 43), one test each: nothing dropped, nothing lost.

A rule or a given of the wrong JSON type is refused by name, never read as false; a layout the readers take is
one the line form writes and compare.py records; a number or a nesting the readers cannot hold is one bad entry
with its place, never a traceback, and a bad line in the middle of a run stops nothing; a file's first line is
not mistaken for another format's; and the messages name the right line and say what is true.
"""
from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from fixtures import P4

import compare
from puzzles import BadEntry, Entry, Grid, PuzzleFileError, formats, read_puzzles, read_text
from puzzles.constraints.killer import cages_in
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, object_of_link, puzzle_of
from puzzles.layouts import SYMBOLS, box_regions

KILLER = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3"  # docs/reference/puzzle-files.md's 4x4 Killer
BROKEN_KILLER = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8"  # one total short, and its commas


def empty(size: int = 4, **fields: object) -> dict:
    """An f-puzzles object of an empty grid with these fields."""
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **fields}


def given(value: object, flag: object) -> dict:
    """A 4x4 object whose R1C1 holds `value` with `given` set to `flag`."""
    puzzle = empty()
    puzzle["grid"][0][0] = {"value": value, "given": flag}
    return puzzle


def records(text: str, source: str = "f") -> list[Entry | BadEntry]:
    return list(read_text(text, source))


def only_bad(text: str, source: str = "f") -> BadEntry:
    [found] = records(text, source)
    assert isinstance(found, BadEntry), found
    return found


# -- 1. a rule silently dropped -----------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value, named", [
    ("diagonal+", 1, "`diagonal+` must be true or false, not a number 1"),
    ("diagonal-", 1.0, "`diagonal-` must be true or false, not a number 1.0"),
    ("disjointgroups", 1, "`disjointgroups` must be true or false, not a number 1"),
    ("diagonal+", "true", "`diagonal+` must be true or false, not a string 'true'"),
    ("diagonal-", 0, "`diagonal-` must be true or false, not a number 0"),
    ("disjointgroups", [1], "`disjointgroups` must be true or false, not an array [1]"),
    ("antiknight", 1, "`antiknight` must be true or false, not a number 1"),
    ("antiking", "true", "`antiking` must be true or false, not a string 'true'"),
    ("nonconsecutive", 1.0, "`nonconsecutive` must be true or false, not a number 1.0"),
    ("antiknight", 0, "`antiknight` must be true or false, not a number 0"),
    ("antiking", {"on": True}, "`antiking` must be true or false, not an object {'on': True}"),
])
def test_a_flag_is_a_bool_only_if_it_is_one(field, value, named):
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(empty(**{field: value}))
    assert str(caught.value) == named
    assert str(only_bad(json.dumps(empty(**{field: value})))) == f"f:1: {named}"


def test_true_false_and_null_flags_are_read_as_they_were():
    assert puzzle_of(empty(**{"diagonal+": True}))[0].layout.variant == "diagonal+"
    assert puzzle_of(empty(**{"diagonal-": True, "diagonal+": True}))[0].layout.variant == "x"
    assert puzzle_of(empty(disjointgroups=True))[0].layout.variant == "disjoint"
    assert puzzle_of(empty(antiknight=True, nonconsecutive=True))[0].layout.variant == "antiknight+nonconsecutive"
    for nothing in (False, None):
        assert puzzle_of(empty(**{"diagonal+": nothing, "disjointgroups": nothing, "antiknight": nothing,
                                  "antiking": nothing, "nonconsecutive": nothing}))[0].layout.is_classic


@pytest.mark.parametrize("field, value", [("killercage", 0), ("extraregion", False), ("killercage", {"cells": []})])
def test_a_rule_list_of_another_type_is_refused(field, value):
    with pytest.raises(FPuzzlesError, match=f"`{field}` must be a list, not "):
        puzzle_of(empty(**{field: value}))


def test_an_unknown_rule_set_to_zero_is_refused_not_taken_for_false():
    with pytest.raises(FPuzzlesError, match="'clock' \\(a constraint\\)"):
        puzzle_of(empty(clock=0))


# -- 2. givens silently dropped ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag, named", [(1, "a number 1"), ("true", "a string 'true'"), (1.0, "a number 1.0"),
                                         (0, "a number 0")])
def test_a_given_flag_is_a_bool_only_if_it_is_one(flag, named):
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(given(3, flag))
    assert str(caught.value) == f"cell R1C1: `given` must be true or false, not {named}"


def test_true_false_and_null_givens_are_read_as_they_were():
    assert puzzle_of(given(3, True))[0].values[0] == 3
    assert puzzle_of(given(3, False))[0].values[0] == 0  # a solver's entry
    assert puzzle_of(given(3, None))[0].values[0] == 0


# -- 3. a valid layout crashes compare.py -------------------------------------------------------------------------
def pattern(n: int, h: int, w: int) -> list[int]:
    """A full grid whose regions are boxes h rows tall and w wide."""
    return [(w * (r % h) + r // h + c) % n + 1 for r in range(n) for c in range(n)]


def rectangles(n: int, h: int, w: int) -> str:
    """A puzzle on boxes h x w of side n (a third of its cells blank), in the line form with its `r=`."""
    values = [0 if i % 3 == 0 else v for i, v in enumerate(pattern(n, h, w))]
    return "".join(SYMBOLS[v - 1] if v else "." for v in values) + ";r=" + \
        "".join(SYMBOLS[k] for k in box_regions(n, h, w))


SHAPES = [(5, 1, 5), (7, 1, 7), (20, 4, 5), (5, 5, 1), (11, 1, 11)]  # sides the project gives no boxes


@pytest.mark.parametrize("n, h, w", SHAPES)
def test_rectangles_on_a_side_without_boxes_write_and_read_back(n, h, w):
    grid = Grid.parse(rectangles(n, h, w))
    assert (grid.layout.box_height, grid.layout.box_width) == (h, w)
    assert grid.text() == rectangles(n, h, w)  # its own regions, written
    assert Grid.parse(grid.text()) == grid
    assert puzzle_of(object_of(grid))[0] == grid


def test_compare_records_every_puzzle_on_rectangles_without_default_boxes(tmp_path, capsys):
    path = tmp_path / "rectangles.txt"
    path.write_text("".join(f"{rectangles(n, h, w)} side-{n}\n" for n, h, w in SHAPES))
    out = tmp_path / "r.jsonl"
    assert compare.main([str(path), "--solver", "mrv", "--jobs", "1", "--output", str(out)]) == 0
    assert "Puzzles: 5 (5 agree)" in capsys.readouterr().out
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["line"], r["status"]) for r in written] == [(i, "solved") for i in range(1, 6)]
    assert [Grid.parse(r["puzzle"]) for r in written] == [Grid.parse(rectangles(*shape)) for shape in SHAPES]


# -- 4. tracebacks on bad input, a run that dies mid-file ----------------------------------------------------------
CAGE = ('{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],'
        '"killercage":[{"cells":%s,"value":%s}]}')
DIGITS = "1" * 4400  # past int()'s 4,300


@pytest.mark.parametrize("total, reason", [
    ("²", "`k=`: cage a's total '²' is not a whole number or '-'"),
    ("³", "`k=`: cage a's total '³' is not a whole number or '-'"),
    (DIGITS, "`k=`: cage a's total of 4,400 digits is larger than any cage's"),
])
def test_line_totals_past_pythons_limits_are_one_bad_entry(total, reason):
    good, bad = records(f"{KILLER}\n" + KILLER.replace(":3,", f":{total},") + "\n")
    assert isinstance(good, Entry) and isinstance(bad, BadEntry)
    assert bad.line == 2 and reason in bad.reason and len(bad.reason) < 200  # one short line, not the input



@pytest.mark.parametrize("line, reason", [
    (CAGE % ('["R1C1","R1C2"]', '"²"'), "cage 1: its total '²' is not a whole number"),
    (CAGE % ('["R1C1","R1C2"]', '"³"'), "cage 1: its total '³' is not a whole number"),
    (CAGE % ('["R1C1","R1C2"]', f'"{DIGITS}"'), "cage 1: its total of 4,400 digits is larger than any cage's"),
    (CAGE % ('["R1C1","R1C2"]', DIGITS), "is JSON holding a number of more than 4,300 digits"),
    (CAGE % (f'["R{"5" * 5000}C1"]', '"3"'), "cage 1: 'R5555"),
    ('{"size":4,"a":' + "[" * 200_000 + "]" * 200_000 + "}", "the line is JSON nested too deeply to read"),
    ("[" * 200_000 + "]" * 200_000, "the line is JSON nested too deeply to read"),
])
def test_numbers_and_nesting_past_pythons_limits_are_one_bad_entry(line, reason):
    bad = only_bad(line + "\n")
    assert bad.line == 1 and reason in bad.reason and len(bad.reason) < 200  # one short line, not the input


def test_a_cell_named_with_5000_digits_is_not_a_cell():
    bad = only_bad(CAGE % (f'["R{"5" * 5000}C1"]', '"3"'))
    assert bad.reason.endswith("is not a cell name like R1C1") and "(5,005 characters)" in bad.reason


def test_a_bad_line_21_stops_nothing_every_good_puzzle_is_recorded(tmp_path, capsys):
    lines = [P4] * 30
    lines[20] = KILLER.replace(":3,", ":²,")
    path = tmp_path / "p.txt"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "r.jsonl"
    assert compare.main([str(path), "--solver", "mrv", "--jobs", "1", "--output", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"{path}:21: `k=`: cage a's total '²' is not a whole number" in text and "Puzzles: 29" in text
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["line"], r["status"]) for r in written) == \
        [(i, "bad_entry" if i == 21 else "solved") for i in range(1, 31)]


def test_whatever_a_reader_raises_for_one_entry_is_one_bad_entry(monkeypatch):
    real = formats.checked

    def failing(text: str) -> Grid:
        if text == KILLER:
            raise RuntimeError("a defect planted by the test")
        return real(text)

    monkeypatch.setattr(formats, "checked", failing)
    found = records(f"{P4}\n{KILLER}\n{P4}\n")
    assert [type(r) for r in found] == [Entry, BadEntry, Entry]
    assert found[1].line == 2 and "RuntimeError: 'a defect planted by the test'" in found[1].reason
    assert "a defect of this project: please report it" in found[1].reason


def test_whatever_an_fpuzzles_reader_raises_for_one_entry_is_one_bad_entry(monkeypatch):
    real = formats.puzzle_of

    def failing(puzzle: dict, *args: Any) -> tuple:
        if puzzle.get("title") == "planted":
            raise KeyError("planted")
        return real(puzzle, *args)

    monkeypatch.setattr(formats, "puzzle_of", failing)
    found = records("\n".join(json.dumps(empty(title=t)) for t in ("a", "planted", "c")) + "\n")
    assert [type(r) for r in found] == [Entry, BadEntry, Entry] and "KeyError" in found[1].reason


# -- 5. a bad first line loses the file --------------------------------------------------------------------------------
def test_a_broken_killer_line_first_is_one_bad_entry_not_a_csv_header():
    found = records(f"{BROKEN_KILLER}\n{KILLER} killer\n")
    assert [type(r) for r in found] == [BadEntry, Entry]
    assert found[0].reason.startswith("`k=` gives 6 totals for cages lettered abcdefg")
    assert records(f"{KILLER} killer\n{BROKEN_KILLER}\n")[1].reason == found[0].reason  # the same line elsewhere


def test_a_csv_header_is_still_a_csv_header():
    found = records(f"puzzle,rating\n{P4},1.5\n")
    assert isinstance(found[0], Entry) and found[0].meta == {"rating": "1.5"}


def test_a_broken_first_line_of_json_lines_loses_no_later_line():
    found = records("{not json\n" + "\n".join(json.dumps(empty(title=t)) for t in "ab") + "\n")
    assert [(type(r), r.line) for r in found] == [(BadEntry, 1), (Entry, 2), (Entry, 3)]


# -- 10. wrong places and silent choices in messages ---------------------------------------------------------------
def test_a_json_syntax_error_is_reported_at_its_own_line(tmp_path):
    path = tmp_path / "one.json"
    text = json.dumps(empty(9, title="pretty"), indent=2).splitlines()
    text.insert(1, "")  # a blank line: the lines counted are the file's
    assert text[39].strip() == "{},"
    text[39] = '      {"value" 3},'
    path.write_text("\n".join(text) + "\n")
    [bad] = list(read_puzzles(path))
    assert isinstance(bad, BadEntry) and bad.line == 40 and bad.reason.startswith("the file is not JSON (")


def test_a_json_array_is_called_one():
    for text in ("[" + json.dumps(empty()) + ", " + json.dumps(empty()) + "]\n", "[\n" + json.dumps(empty()) + "\n]\n"):
        assert "is a JSON array, not an f-puzzles object" in only_bad(text).reason


def test_a_link_with_an_empty_payload_says_so():
    assert only_bad("https://www.f-puzzles.com/?load=\n").reason == \
        "an f-puzzles link with nothing after `load=`: it carries no puzzle"
    with pytest.raises(FPuzzlesError, match="nothing after `load=`"):
        object_of_link("https://www.f-puzzles.com/?load=&title=x")


@pytest.mark.parametrize("line", ["1234512345123451234512345", ".....1234..........5....1", "." * 49, "." * 121])
def test_a_puzzle_of_a_side_without_boxes_and_no_regions_is_called_so(line):
    side = {25: 5, 49: 7, 121: 11}[len(line)]
    bad = only_bad(line + "\n")
    assert bad.reason.startswith(f"{len(line)} symbols: a {side}x{side} puzzle, but a {side}x{side} grid has no "
                                 "boxes: give its regions")


def test_a_25x25_grid_block_is_still_a_grid():
    rows = ["".join(SYMBOLS[v - 1] for v in pattern(25, 5, 5)[r * 25:(r + 1) * 25]) for r in range(25)]
    rows[0] = "." + rows[0][1:]
    [entry] = records("\n".join(rows) + "\n")
    assert isinstance(entry, Entry) and entry.grid.side == 25 and entry.grid.givens == 624


@pytest.mark.parametrize("words, reason", [
    ("r=1122112233443344;r=1122112233443344", "a second `r=` after the puzzle: each word is given once"),
    ("r=1122112233443344;r=1212343412123434", "a second `r=`"),
    ("x;x", "the word 'x' again"),
    ("d-;x", "`x` names a diagonal an earlier word named"),
    ("x;d+", "`d+` names a diagonal an earlier word named"),
    ("d-;d-", "the word 'd-' again"),
    ("dg;dg", "the word 'dg' again"),
    ("e=1111............;e=1111............", "again"),
])
def test_a_word_repeated_in_a_line_is_refused(words, reason):
    bad = only_bad(f"................;{words}\n")
    assert reason in bad.reason


def test_a_layout_the_line_form_cannot_write_is_refused_where_it_is_read():
    region = {"cells": [f"R{r}C{c}" for r in (1, 2) for c in (1, 2)]}
    with pytest.raises(FPuzzlesError, match="extra region 2 is extra region 1 again"):
        puzzle_of(empty(extraregion=[region, region]))


def test_a_cage_twice_is_two_cages_its_k_word_twice():
    cage = {"cells": ["R1C1", "R1C2"], "value": "3"}
    grid = puzzle_of(empty(killercage=[cage, cage]))[0]
    assert len(cages_in(grid.layout.constraints)) == 2
    assert grid.text() == "." * 16 + ";k=aa..............:3;k=aa..............:3"
    assert Grid.parse(grid.text()) == grid


def test_overlapping_cages_with_the_same_cells_and_other_totals_are_read_and_written():
    cages = [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R1C1", "R1C2"]}]
    grid = puzzle_of(empty(killercage=cages))[0]
    assert len(cages_in(grid.layout.constraints)) == 2 and Grid.parse(grid.text()) == grid


# -- smaller ones ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["source", "version"])
def test_an_unknown_top_level_field_is_called_unknown(field):
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(empty(**{field: "f-puzzles 2"}))
    assert str(caught.value).startswith(f"f-puzzles field '{field}' (an unknown field): not read by this project")


def test_a_module_lzstring_that_is_not_py_lzstring_is_said_in_one_line(monkeypatch):
    link = link_of(empty(title="a link"))
    other = types.ModuleType("lzstring")  # PyPI's lzstring: one class, methods in camelCase
    other.LZString = type("LZString", (), {"decompressFromBase64": lambda self, s: s})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lzstring", other)
    bad = only_bad(link + "\n")
    assert "needs the py-lzstring package, and the module `lzstring` here" in bad.reason
    assert "pip uninstall lzstring" in bad.reason and "\n" not in bad.reason
    monkeypatch.setitem(sys.modules, "lzstring", None)  # none installed: import fails
    assert "which is not installed" in only_bad(link + "\n").reason


def test_the_read_puzzles_path_turns_a_readers_defect_into_one_file_error(monkeypatch, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{P4}\n{P4}\n")

    def broken(lines, source, first):
        yield Entry(source, first, Grid.parse(P4))
        raise RuntimeError("planted")

    monkeypatch.setitem(formats._READERS, "line", broken)
    found = read_puzzles(path)
    assert isinstance(next(found), Entry)
    with pytest.raises(PuzzleFileError, match=r"p.txt:2: reading stopped: not read: the reader failed on it "
                                              r"\(RuntimeError: 'planted'\)"):
        next(found)


def test_valid_objects_read_exactly_as_before(tmp_path: Path):
    grid = Grid.parse(KILLER)
    assert puzzle_of(object_of(grid, "k"))[0] == grid and puzzle_of(json.loads(json.dumps(object_of(grid))))[0] == grid


# -- found by the grammar fuzzer (tests/test_reader_grammar.py) and by the probe's own reading -----------------------
def test_a_json_line_that_lost_its_first_brace_is_a_bad_entry_not_a_csv_header():
    found = records(json.dumps(empty())[1:] + "\n" + json.dumps(empty(title="b")) + "\n")
    assert [(type(r), r.line) for r in found] == [(BadEntry, 1), (Entry, 2)]
    assert found[0].reason == "the line is neither an f-puzzles object (JSON, from `{` to `}`) nor an f-puzzles link"


def test_a_header_without_a_puzzle_column_is_refused_in_one_short_line():
    with pytest.raises(PuzzleFileError) as caught:
        records(",".join(f"column {i}" for i in range(200)) + "\n")
    assert str(caught.value).startswith("f:1: the CSV header names no puzzle column (puzzle or quizzes); its columns: "
                                        "column 0, column 1") and str(caught.value).endswith("(200 columns)")
    assert len(str(caught.value)) < 320


def test_a_line_of_digits_that_is_no_puzzle_is_not_taken_for_a_link():
    assert only_bad("1" * 80 + "\n").reason.startswith("80 symbols: a puzzle has 16, 81, 256 or 625")


def test_a_symbol_upper_cased_into_another_is_no_symbol():
    bad = only_bad("." * 16 + ";r=" + "\u0131" + "122112233443344\n")  # a dotless i: its upper case is "I"
    assert bad.reason.startswith("`r=`: '\u0131' at R1C1 is not 1 to 4 or '.'")


def test_a_side_past_25_is_called_so():
    assert only_bad("." * 900 + ";x\n").reason == "900 symbols: a 30x30 grid; the project reads sides 4 to 25"


def test_a_csv_row_the_csv_module_refuses_is_one_bad_entry_and_the_rows_after_it_are_read(tmp_path):
    """A field past the csv module's limit (131,072 characters) stopped the whole file; it is that row's bad entry."""
    path = tmp_path / "big.csv"
    seed = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path.write_text(f"puzzle,name\n{seed},first\n{'x' * 200_000},huge\n{seed},last\n")
    entries = list(read_puzzles(path))
    assert [(type(e).__name__, e.line) for e in entries] == [("Entry", 2), ("BadEntry", 3), ("Entry", 4)]
    assert "field larger than field limit" in entries[1].reason
