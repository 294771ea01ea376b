"""The readers held to their grammar (issue 43): f-puzzles objects, links and line-form puzzles, valid and broken,
field by field and type by type (tests/reader_grammar.py builds them).

The properties, for every input:
- a reader either returns a puzzle or raises the project's reader error (PuzzleError, an f-puzzles one included;
  PuzzleFileError, naming the file and line, for a whole file), never any other exception;
- a puzzle it returns holds what the input said, no less and no more: its givens, its cages, its diagonals, its
  extra regions, its disjoint groups, its rules of the whole grid (anti-knight, ...) and its thermometers, counted
  against the input as a careless reader would read it (a flag `1` says the rule, so a reader that read it as false
  would fail here);
- a puzzle it returns writes back to an equivalent one: the line form (`Grid.parse(grid.text())`), an f-puzzles
  object (`puzzle_of(object_of(...))`), its JSON line and its link read through `read_text`;
- a file of such lines yields one record a line, at its line, a puzzle exactly where the line reads as one; the
  reason of a bad entry is one short line;
- compare.py, run in-process on a file of such lines (the line form, and f-puzzles JSON lines), records every line:
  a bad-entry record for each bad one, the runs of every good one, before and after it, and exits 0.

Budget. The examples are set so that the module runs in about 10 s on a quiet 2-core machine, 20 s on a loaded one
(each property's `budget(...)` below; deadline=None, since a loaded machine's times say nothing). Before a release,
run it longer: `READER_GRAMMAR_SCALE=50 python -m pytest tests/test_reader_grammar.py -p no:cacheprovider` runs
50 times the examples of each property (any number: a factor; the compare.py property grows a tenth as fast, since
each of its examples runs compare.py). A failure prints the input hypothesis shrank it to: mend the reader and add
that input to tests/test_readers_probe.py.

What it found when it was written: a JSON line that lost its first brace taken for a CSV header (the whole file
refused), and that header's error quoting every column, however long (both mended, tests in test_readers_probe.py).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_grammar import Said, as_json, fpuzzles_objects, line_puzzles, mutated

import compare
from puzzles import BadEntry, Entry, Grid, PuzzleError, PuzzleFileError, read_text
from puzzles.constraints.killer import cages_in
from puzzles.formats import checked
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, puzzle_of
from puzzles.layouts import DIAGONAL, DISJOINT_GROUP, EXTRA_REGION

SCALE = float(os.environ.get("READER_GRAMMAR_SCALE", "1"))
LONGEST_REASON = 400  # a bad entry's reason is one short line, whatever the input's size
FIRST = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3 first"  # a good first line: the file is the line form


def budget(examples: int, scale: float = SCALE) -> settings:
    return settings(max_examples=max(1, round(examples * scale)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def holds(grid: Grid, said: Said) -> None:
    """The puzzle holds what the input said: nothing dropped, nothing made up."""
    lay = grid.layout
    assert grid.givens == said.givens
    assert len(cages_in(lay.constraints)) == said.cages
    assert {h.name[-1] for h in lay.extras_of(DIAGONAL)} == said.diagonals
    assert len(lay.extras_of(EXTRA_REGION)) == said.extra_regions
    assert bool(lay.extras_of(DISJOINT_GROUP)) == said.disjoint
    assert {c.KIND for c in lay.constraints if c.GLOBAL} == said.rules
    assert sum(c.KIND == "thermometer" for c in lay.constraints) == said.thermometers


def one_line(reason: str) -> None:
    assert reason and "\n" not in reason and len(reason) <= LONGEST_REASON, reason


def only_records(text: str) -> list[Entry | BadEntry]:
    """Every record of a text; a PuzzleFileError is allowed only with the file's name and line first."""
    try:
        found = list(read_text(text, "f"))
    except PuzzleFileError as exc:
        assert str(exc).startswith("f:"), exc
        one_line(str(exc))
        return []
    for record in found:
        assert isinstance(record, (Entry, BadEntry)) and record.line >= 1
        if isinstance(record, BadEntry):
            one_line(record.reason)
    return found


def writes_back(grid: Grid, solution: Grid | None = None, title: str = "") -> None:
    """The puzzle's line form, f-puzzles object, JSON line and link all read back as the same puzzle."""
    assert Grid.parse(grid.text()) == grid
    assert puzzle_of(object_of(grid, title, solution)) == (grid, solution, title)
    line = json.dumps(object_of(grid, title, solution))
    for text in (line, *(link_of(object_of(grid, title, solution), site) for site in ("f-puzzles", "sudokupad"))):
        [record] = list(read_text(text + "\n", "f"))
        assert isinstance(record, Entry) and (record.grid, record.solution, record.name) == (grid, solution, title)


# -- f-puzzles objects, their JSON lines and their links -------------------------------------------------------------
@pytest.mark.slow
@budget(200)
@given(fpuzzles_objects(), st.sampled_from(["json", "f-puzzles", "sudokupad"]))
def test_an_fpuzzles_object_is_read_whole_or_refused(drawn: tuple[dict[str, Any], Said], form: str) -> None:
    puzzle, said = drawn
    # its JSON line, or its f-puzzles or SudokuPad link: read as the object
    text = as_json(puzzle) if form == "json" else link_of(puzzle, site=form)
    try:
        grid, solution, title = puzzle_of(puzzle)
    except FPuzzlesError as exc:
        one_line(str(exc))
        [record] = only_records(text + "\n")  # the same reason, at line 1
        assert isinstance(record, BadEntry) and (record.line, record.reason) == (1, str(exc))
        return
    holds(grid, said)
    writes_back(grid, solution, title)
    [record] = only_records(text + "\n")
    assert isinstance(record, Entry) and (record.grid, record.solution, record.name) == (grid, solution, title)


@pytest.mark.slow
@budget(120)
@given(fpuzzles_objects().flatmap(lambda drawn: mutated(as_json(drawn[0]))))
def test_broken_json_is_a_bad_entry_never_a_traceback(text: str) -> None:
    for record in only_records(text + "\n" + as_json({"size": 4, "grid": [[{}] * 4] * 4}) + "\n"):
        if isinstance(record, Entry):
            assert record.grid == puzzle_of(json.loads(text if record.line == 1 else
                                                       as_json({"size": 4, "grid": [[{}] * 4] * 4})))[0]


# -- the line form ----------------------------------------------------------------------------------------------------
@pytest.mark.slow
@budget(300)
@given(line_puzzles())
def test_a_line_form_puzzle_is_read_whole_or_refused(drawn: tuple[str, Said]) -> None:
    text, said = drawn
    try:
        grid = Grid.parse(text)
    except PuzzleError as exc:
        one_line(str(exc))
        return
    holds(grid, said)
    try:
        checked(text)
    except PuzzleError:
        return  # two givens clash (a diagonal or a cage the full grid breaks): no puzzle to write back
    writes_back(grid)


@budget(80)
@given(st.lists(line_puzzles(), min_size=1, max_size=6), st.booleans())
def test_a_file_of_lines_yields_one_record_a_line(drawn: list[tuple[str, Said]], first: bool) -> None:
    lines = [text + (f" name-{i}" if i % 2 else "") for i, (text, _) in enumerate(drawn)]
    if first:  # the file's format told from a good line: every line is one record
        lines.insert(0, FIRST)
    found = only_records("\n".join(lines) + "\n")
    if not first:  # told from a line drawn: the format may be another, but nothing else is allowed
        return
    assert [record.line for record in found] == list(range(1, len(lines) + 1))
    for record, line in zip(found, lines, strict=True):
        try:
            grid = checked(line.split()[0])
        except PuzzleError as exc:
            assert isinstance(record, BadEntry) and record.reason == str(exc)
        else:
            assert isinstance(record, Entry) and record.grid == grid


# -- compare.py, in-process ------------------------------------------------------------------------------------------
def assert_every_line_recorded(lines: list[str], name: str, bad: set[int], timeout: int) -> None:
    """compare.py on a file of `lines` (`name` says its format) records every line: a bad entry for each line in
    `bad`, runs for every other, and exits 0."""
    with tempfile.TemporaryDirectory() as folder:
        path, out = Path(folder) / name, Path(folder) / "r.jsonl"
        path.write_text("\n".join(lines) + "\n")
        code = compare.main([str(path), "--solver", "mrv", "--jobs", "1", "--timeout", str(timeout),
                             "--output", str(out)])
        written = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0
    assert {r["line"] for r in written if r["status"] == "bad_entry"} == bad
    assert {r["line"] for r in written if r["status"] != "bad_entry"} == set(range(1, len(lines) + 1)) - bad


@pytest.mark.slow
@budget(25, max(1.0, SCALE / 10))
@given(st.lists(line_puzzles() | st.just(("4" * 16, None)),
                min_size=1, max_size=3))
def test_compare_records_every_line_of_a_file_of_such_lines(drawn: list[tuple[str, Said | None]]) -> None:
    lines = [FIRST, *(text for text, _ in drawn), FIRST]
    bad = set()
    for number, line in enumerate(lines, 1):
        try:
            checked(line.split()[0])
        except PuzzleError:
            bad.add(number)
    assert_every_line_recorded(lines, "p.txt", bad, timeout=20)


SMALL_OBJECTS = fpuzzles_objects().filter(lambda drawn: len(drawn[0]["grid"] or []) <= 6)  # quick to solve


@pytest.mark.slow
@budget(12, max(1.0, SCALE / 10))
@given(st.lists(SMALL_OBJECTS, min_size=1, max_size=3))
def test_compare_records_every_line_of_a_file_of_fpuzzles_objects(drawn: list[tuple[dict[str, Any], Said]]) -> None:
    objects = [{k: v for k, v in puzzle.items() if k != "solution"} for puzzle, _ in drawn]  # a grid of several
    first = object_of(Grid.parse(FIRST.split()[0]))  # solutions may be solved otherwise than the file's
    lines = [as_json(first), *map(as_json, objects), as_json(first)]
    bad = set()
    for number, puzzle in enumerate([first, *objects, first], 1):
        try:
            puzzle_of(puzzle)
        except FPuzzlesError:
            bad.add(number)
    assert_every_line_recorded(lines, "p.jsonl", bad, timeout=5)
