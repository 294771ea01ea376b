"""SudokuPad links (puzzles/sudokupad.py): every form of a real puzzle's link reads as its f-puzzles JSON reads;
what SudokuPad's format leaves unsaid is refused by name; f-puzzles' settings and notes are read and ignored."""
from __future__ import annotations

import json
from typing import Any

import lzstring
import pytest
from hypothesis import HealthCheck, assume, given, settings
from reader_grammar import fpuzzles_objects
from sudokupad_links import PARITY_FISH, PARITY_FISH_SOLUTION, REAL, scl_of, zipped

from puzzles import BadEntry, Entry, Grid, read_puzzles
from puzzles.constraints.killer import cages_in
from puzzles.fpuzzles import FPuzzlesError, is_link, object_of_link, puzzle_of
from puzzles.sudokupad import repairs

SITE = "https://sudokupad.app/"
PAYLOADS = {title: "".join(parts) for title, _, *parts in REAL}


def lz(text: str) -> str:
    return str(lzstring.compress_to_base64(text))


def real(title: str) -> tuple[dict[str, Any], tuple[Grid, Grid | None, str]]:
    """A real puzzle's f-puzzles object and what the f-puzzles reader reads of it."""
    found = object_of_link(PAYLOADS[title])
    return found, puzzle_of(found)


def links(title: str) -> list[str]:
    """Every form of a real puzzle's SudokuPad link."""
    payload = PAYLOADS[title]
    scl = scl_of(object_of_link(payload))
    assert scl is not None
    return [SITE + "fpuzzles" + payload, SITE + "fpuz" + payload, "fpuzzles" + payload,
            "https://beta.sudokupad.app/fpuzzles" + payload, SITE + "?puzzleid=fpuzzles" + payload,
            SITE + "scl" + lz(json.dumps(scl)), SITE + "scl" + lz(zipped(scl)), SITE + "ctc" + lz(zipped(scl)),
            "scl" + lz(zipped(scl)), "https://app.crackingthecryptic.com/sudoku/ctc" + lz(json.dumps(scl))]


@pytest.mark.parametrize("title", list(PAYLOADS))
def test_every_form_of_a_real_link_reads_as_its_f_puzzles_json(title):
    read = real(title)[1]
    assert read[0].layout.extras or read[0].layout.constraints or title.startswith("Sept")
    for link in links(title):
        assert is_link(link), link
        assert puzzle_of(object_of_link(link)) == read, link[:60]


def test_a_link_whose_double_slash_was_collapsed_is_repaired():
    title = "October 10, 2023: Killer"  # its payload holds a `//`
    payload = PAYLOADS[title]
    assert "//" in payload
    collapsed = SITE + "fpuzzles" + payload.replace("//", "/")
    assert puzzle_of(object_of_link(collapsed)) == real(title)[1]
    assert puzzle_of(object_of_link("https:/sudokupad.app/fpuzzles" + payload.replace("//", "/"))) == real(title)[1]
    with pytest.raises(FPuzzlesError, match="even with a collapsed `//` put back"):
        object_of_link(SITE + "fpuzzles" + payload.replace("//", "/")[:-40])
    assert len(list(repairs("a/b/c/d/e/f/g/h/i/j/k/l/m"))) <= 400  # the repair's tries are bounded


def test_a_file_of_links_reads_each_at_its_line(tmp_path):
    path = tmp_path / "links.txt"
    title = "Random Neighing Generation"
    path.write_text("\n".join([links(title)[0], "# a comment", SITE + "wsj7iunsg6", links(title)[6]]) + "\n")
    records = list(read_puzzles(path))
    assert [type(r) for r in records] == [Entry, BadEntry, Entry] and [r.line for r in records] == [1, 3, 4]
    assert isinstance(records[0], Entry) and records[0].grid == real(title)[1][0] == records[2].grid
    assert "SudokuPad puzzle id ('wsj7iunsg6')" in str(records[1])
    # a link given where a file is expected is read as one
    [entry] = list(read_puzzles(links(title)[0]))
    assert isinstance(entry, Entry) and entry.grid == real(title)[1][0] and entry.line == 1


def test_a_short_puzzle_id_is_refused_in_one_line():
    for link in (SITE + "wsj7iunsg6", SITE + "sudoku/abc123", "https://sudokupad.app/?puzzleid=qwerty"):
        with pytest.raises(FPuzzlesError, match="held on SudokuPad's server, and this project reads no network") as e:
            object_of_link(link)
        assert "\n" not in str(e.value)


def test_a_real_scl_link_with_a_drawn_rule_is_refused_by_name_or_read_without_its_drawings():
    with pytest.raises(FPuzzlesError, match="background image drawn under the grid: SudokuPad's format does not "
                                            "say which rule it is"):
        puzzle_of(object_of_link(PARITY_FISH))
    grid, solution, title = puzzle_of(object_of_link(PARITY_FISH, decorations="ignore"))
    assert title == "Parity Fish" and grid == Grid.parse("." * 81) and solution == Grid.parse(PARITY_FISH_SOLUTION)
    assert grid.solution_problems(solution) == []
    [entry] = list(read_puzzles(PARITY_FISH, decorations="ignore"))
    assert isinstance(entry, Entry) and entry.solution == solution


def scl_link(**fields: Any) -> str:
    """A 4x4 scl link holding these fields, after its cells and box regions."""
    boxes = [[[r, c] for r in range(br, br + 2) for c in range(bc, bc + 2)] for br in (0, 2) for bc in (0, 2)]
    return SITE + "scl" + lz(json.dumps({"cells": [[{}] * 4] * 4, "regions": boxes, **fields}))


@pytest.mark.parametrize("fields, says", [
    ({"lines": [{"wayPoints": [[0.5, 0.5], [0.5, 2.5]], "color": "#CFCFCF"}]},
     "`lines` entry 1, a drawn line: SudokuPad's format does not say which rule it is"),
    ({"arrows": [{"wayPoints": [[0.5, 0.5], [1.5, 1.5]]}]}, "`arrows` entry 1, a drawn arrow"),
    ({"underlays": [{"center": [0.5, 0.5]}]}, "`underlays` entry 1, an underlay"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "3"}]}, "cage 1, a cage SudokuPad does not mark as a Killer"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "3", "unique": False}]}, "whose digits may repeat: not read"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "x", "unique": True}]}, "its value 'x' is not a whole number"),
    ({"global": ["antiknight", "sandwich"]}, "global rule 'sandwich': not read by this project"),
    ({"foglight": [[0, 0]]}, "SudokuPad field 'foglight' (an unknown field)"),
    ({"regions": []}, "without `regions`"),
    ({"regions": [[[0, 0]]]}, "cell R1C2 is in no region"),
    ({"cells": [[{}] * 4] * 3}, "a grid of 3 rows whose row 1 has 4 cells: the project reads square grids"),
])
def test_what_scl_leaves_unsaid_is_refused_by_name(fields, says):
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(object_of_link(scl_link(**fields)))
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_scl_rules_read_from_a_hand_made_link():
    killer = {"cells": [[0, 0], [0, 1]], "value": "3", "unique": True}
    diagonal = {"wayPoints": [[0, 0], [4, 4]]}
    grid = puzzle_of(object_of_link(scl_link(cages=[killer, {"value": "title: tiny"}], lines=[diagonal],
                                             **{"global": ["antiking"]})))
    assert grid[2] == "tiny" and [c.total for c in cages_in(grid[0].layout.constraints)] == [3]
    assert [h.name for h in grid[0].layout.extras] == ["diagonal -"]
    assert {c.KIND for c in grid[0].layout.constraints if c.GLOBAL} == {"antiking"}
    with pytest.raises(FPuzzlesError, match="not LZ-String's base64 of a puzzle"):
        object_of_link(SITE + "sclAAAAAAAAAAAAAAAAAAAAA")


def test_f_puzzles_settings_and_notes_are_ignored_and_decorations_refused_unless_ignored():
    found, read = real("September 2, 2023: Antiknight")
    assert found.get("disabledlogic") and "truecandidatesoptions" in found  # real settings, read and ignored
    noted = json.loads(json.dumps(found))
    noted["successMessage"] = "Well done!"
    noted["grid"][0][0]["candidates"] = [1, 2]
    assert puzzle_of(noted) == read
    with pytest.raises(FPuzzlesError, match="'source' \\(an unknown field\\)"):
        puzzle_of({**found, "source": "somewhere"})
    drawn = {**found, "text": [{"cells": ["R1C1"], "value": "odd?"}]}
    with pytest.raises(FPuzzlesError, match="'text' \\(a cosmetic element, which the rules may give a meaning\\)"):
        puzzle_of(drawn)
    assert puzzle_of(drawn, decorations="ignore") == read
    with pytest.raises(ValueError, match="decorations must be one of refuse, ignore"):
        puzzle_of(drawn, decorations="keep")


@pytest.mark.slow
# The readers' grammar draws odd objects on purpose (the reader must refuse them) and thermometers (which SudokuPad
# draws as lines): most of its draws are not for this test, which keeps the puzzles read and converted.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(fpuzzles_objects())
def test_an_fpuzzles_object_and_the_scl_sudokupad_makes_of_it_read_alike(drawn):
    puzzle, _ = drawn
    try:
        read = puzzle_of(puzzle)
    except FPuzzlesError:
        assume(False)
    scl = scl_of(puzzle)
    assume(scl is not None)
    assert scl is not None
    assert puzzle_of(object_of_link(SITE + "scl" + lz(json.dumps(scl)))) == read
    if "\\" in json.dumps(scl):
        return  # a backslash before a quote cannot be zipped: SudokuPad's unzipper reads `\\'` as an escaped quote
    grid, solution, title = puzzle_of(object_of_link(SITE + "scl" + lz(zipped(scl))))
    # SudokuPad's zipped form keeps its strings in single quotes, and a double quote in one comes back single
    assert (grid, solution, title) == (read[0], read[1], read[2].replace('"', "'"))
