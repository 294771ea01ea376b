"""The readers' defects a hostile probe found (issue 43), one test each: nothing dropped, nothing lost.

A rule or a given of the wrong JSON type is refused by name, never read as false; a layout the readers take is
one the line form writes and compare.py records; a number or a nesting the readers cannot hold is one bad entry
with its place, never a traceback, and a bad line in the middle of a run stops nothing; a file's first line is
not mistaken for another format's; and the messages name the right line and say what is true.
"""
from __future__ import annotations

import json

import pytest
from fixtures import P4

import compare
from puzzles import BadEntry, Entry, Grid, read_text
from puzzles.fpuzzles import FPuzzlesError, object_of, puzzle_of
from puzzles.layouts import SYMBOLS, box_regions

KILLER = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3"  # docs/reference/puzzle-files.md's 4x4 Killer
BROKEN_KILLER = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8"  # one total short, and its commas


def empty(size: int = 4, **fields: object) -> dict:
    """An f-puzzles object of an empty grid with these fields."""
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **fields}


def records(text: str, source: str = "f") -> list[Entry | BadEntry]:
    return list(read_text(text, source))


def only_bad(text: str, source: str = "f") -> BadEntry:
    [found] = records(text, source)
    assert isinstance(found, BadEntry), found
    return found


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


# -- 10. wrong places and silent choices in messages ---------------------------------------------------------------
@pytest.mark.parametrize("line", ["." * 49, "." * 121])
def test_a_puzzle_of_a_side_without_boxes_and_no_regions_is_called_so(line):
    side = 7 if len(line) == 49 else 11
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
    ("k=aa..............:3;k=aa..............:3", "the word 'k=aa..............:3' again"),
    ("e=1111............;e=1111............", "again"),
])
def test_a_word_repeated_in_a_line_is_refused(words, reason):
    bad = only_bad(f"................;{words}\n")
    assert reason in bad.reason


def test_a_layout_the_line_form_cannot_write_is_refused_where_it_is_read():
    region = {"cells": [f"R{r}C{c}" for r in (1, 2) for c in (1, 2)]}
    with pytest.raises(FPuzzlesError, match="extra region 2 is extra region 1 again"):
        puzzle_of(empty(extraregion=[region, region]))
    cage = {"cells": ["R1C1", "R1C2"], "value": "3"}
    with pytest.raises(FPuzzlesError, match=r"cage 2 \(3\) is cage 1 \(3\) again"):
        puzzle_of(empty(killercage=[cage, cage]))


def test_overlapping_cages_with_the_same_cells_and_other_totals_are_read_and_written():
    cages = [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R1C1", "R1C2"]}]
    grid = puzzle_of(empty(killercage=cages))[0]
    assert len(grid.layout.cages) == 2 and Grid.parse(grid.text()) == grid
