"""f-puzzles JSON and links (puzzles/fpuzzles.py): the classic rules read, every other rule refused by name."""
from __future__ import annotations

import json
from pathlib import Path

import lzstring
import pytest
from constraint_grids import count as count_solutions
from constraint_grids import puzzles as constraint_puzzles
from fixtures import SEED000

import compare
from puzzles import BadEntry, Entry, Grid, read_puzzles
from puzzles.fpuzzles import FPuzzlesError, is_link, json_line, link_of, object_of, object_of_link, puzzle_of

PUZZLE = Grid.parse(SEED000)
SOLUTION = Grid.parse("348792651192645837657183294479831562213456789586279413861324975934567128725918346")


def fpuzzle(grid: Grid = PUZZLE, **fields: object) -> dict:
    """An f-puzzles object written by hand, as f-puzzles writes one: `size`, rows of cells, givens flagged."""
    n = grid.side
    rows = [[{"value": v, "given": True} if v else {} for v in grid.values[r * n:(r + 1) * n]] for r in range(n)]
    return {"size": n, "grid": rows, "title": "seed 000", "author": "someone", **fields}


def test_the_solution_fixture_solves_the_puzzle():
    assert PUZZLE.solution_problems(SOLUTION) == []


def test_a_classic_object_is_its_grid_cell_by_cell():
    grid, solution, title = puzzle_of(fpuzzle(solution=list(SOLUTION.values)))
    assert grid == PUZZLE and solution == SOLUTION and title == "seed 000"
    # a solver's own digits and notes are not givens
    solved_some = fpuzzle()
    solved_some["grid"][0][0] = {"value": 3, "centerPencilMarks": [3, 4]}
    assert puzzle_of(solved_some)[0] == PUZZLE
    # the boxes given as regions (0-based, row-major) are the classic puzzle still
    with_regions = fpuzzle()
    for r, row in enumerate(with_regions["grid"]):
        for c, cell in enumerate(row):
            cell["region"] = r // 3 * 3 + c // 3
    assert puzzle_of(with_regions)[0] == PUZZLE


@pytest.mark.parametrize("fields, named", [
    ({"clock": [{"cells": ["R2C2", "R2C3"]}]}, "'clock'"),
    ({"clock": [{"cell": "R0C1", "value": "7"}]}, "'clock' (a constraint)"),
    ({"sum": [{"cells": ["R1C1", "R1C2"], "value": "7"}]}, "'sum' (a constraint)"),
    ({"text": [{"cells": ["R1C1"], "value": "odd"}]}, "'text' (a cosmetic element, which the rules may give"),
])
def test_a_rule_the_project_does_not_read_is_refused_by_name(fields, named):
    with pytest.raises(FPuzzlesError, match="would solve a different puzzle") as caught:
        puzzle_of(fpuzzle(**fields))
    assert named in str(caught.value)


@pytest.mark.parametrize("field", ["sum"])
def test_the_rules_of_f_puzzles_successors_are_called_constraints(field):
    # fields SudokuVariantSolverJS reads as rules (its FPuzzlesInterfaces.ts), in real puzzles of its collection
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(fpuzzle(**{field: [{"cells": ["R1C1", "R1C2"]}]}))
    assert str(caught.value).startswith(f"f-puzzles field '{field}' (a constraint): not read by this project")


def test_f_puzzles_own_drawings_of_a_read_rule_are_that_rule_said_twice():
    """f-puzzles draws some rules for SudokuPad as cosmetic lines marked with the rule's title beside the rule's own
    field: read as the rule; the same drawing without the rule's field, or of a rule not read, stays a cosmetic
    element, refused."""
    renban = {"renban": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}
    drawn = {"line": [{"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#F067F0", "width": 0.4,
                       "fromConstraint": "Renban"}]}
    empty = Grid.parse("." * 81)
    grid = puzzle_of(fpuzzle(empty, **renban, **drawn))[0]
    assert grid.layout.constraints == Grid.parse(grid.line() + ";rb=R1C1,R1C2,R1C3").layout.constraints
    whispers = fpuzzle(empty, whispers=[{"lines": [["R5C5", "R5C6"]]}],
                       line=[{"lines": [["R5C5", "R5C6"]], "fromConstraint": "German Whispers"}])
    assert puzzle_of(whispers)[0].layout.constraints  # "German Whispers" is f-puzzles' `whispers`
    for fields in (drawn, {**renban, "line": [*drawn["line"], {"lines": [["R9C1", "R9C2"]]}]},
                   {"line": [{"lines": [["R1C1", "R1C2"]], "fromConstraint": "Clock"}]}):
        with pytest.raises(FPuzzlesError, match="'line' \\(a cosmetic element"):
            puzzle_of(fpuzzle(empty, **fields))


def test_fields_that_say_no_rule_are_read():
    assert puzzle_of(fpuzzle(**{"diagonal+": False, "arrow": [], "ruleset": "Normal sudoku rules."}))[0] == PUZZLE


def test_bad_objects_are_clear_errors():
    irregular = fpuzzle()
    irregular["grid"][0][3]["region"] = 0  # R1C4 put in box 1's region: ten cells there, eight in box 2
    with pytest.raises(FPuzzlesError, match=r"region 1 has 10 cells, not 9"):
        puzzle_of(irregular)
    with pytest.raises(FPuzzlesError, match="size 3: the project reads sides 4 to 25"):
        puzzle_of({"size": 3, "grid": []})
    with pytest.raises(FPuzzlesError, match="`grid` must be 9 rows of 9 cells"):
        puzzle_of({"size": 9, "grid": [[{}] * 9] * 8})
    clash = fpuzzle()
    clash["grid"][0][1] = {"value": 7, "given": True}  # row 1 holds a 7 at R1C4 already
    with pytest.raises(FPuzzlesError, match="invalid puzzle: two 7s in row 1"):
        puzzle_of(clash)
    with pytest.raises(FPuzzlesError, match="a given must be a value 1 to 9"):
        puzzle_of({**fpuzzle(), "grid": [[{"value": 10, "given": True}] + [{}] * 8] + [[{}] * 9] * 8})


def test_links_and_bare_payloads_carry_the_object():
    link = link_of(fpuzzle())
    assert link.startswith("https://www.f-puzzles.com/?load=") and is_link(link)
    payload = link.partition("load=")[2]
    assert is_link(payload) and object_of_link(payload) == object_of_link(link) == fpuzzle()
    assert not is_link(SEED000) and not is_link("123456789ABCDEFG" * 16)  # puzzles are not payloads
    with pytest.raises(FPuzzlesError, match="not an f-puzzles link"):
        object_of_link("https://www.f-puzzles.com/?load=AAAAAAAAAAAAAAAAAAAAAAA")
    # the link form the JavaScript library writes reads back the same (compressToBase64 of the JSON)
    assert object_of_link(lzstring.compress_to_base64(json.dumps(fpuzzle()))) == fpuzzle()


def test_files_of_objects_of_links_and_of_one_pretty_object(tmp_path):
    lines = tmp_path / "family.jsonl"
    bad = fpuzzle(**{"clock": [{"cell": "R0C1", "value": "3"}]})
    lines.write_text("\n".join([json.dumps(fpuzzle()), "# a comment", json.dumps(bad), "{not json",
                                link_of(object_of(PUZZLE, "as a link"))]) + "\n")
    read = list(read_puzzles(lines))
    assert [type(r) for r in read] == [Entry, BadEntry, BadEntry, Entry]
    assert [r.line for r in read] == [1, 3, 4, 5]
    assert read[0].grid == read[3].grid == PUZZLE and read[3].name == "as a link"
    assert "'clock' (a constraint)" in read[1].reason
    assert read[2].reason.startswith("the line is not JSON (") and len(read[2].reason) < 100  # short: no quoted line
    pretty = tmp_path / "one.json"
    pretty.write_text(json.dumps(fpuzzle(solution=list(SOLUTION.values)), indent=2))
    [entry] = list(read_puzzles(pretty))
    assert isinstance(entry, Entry) and entry.line == 1 and entry.grid == PUZZLE and entry.solution == SOLUTION


def test_compare_runs_an_fpuzzles_file(tmp_path: Path, capsys):
    path = tmp_path / "puzzles.jsonl"
    path.write_text(json.dumps(fpuzzle(solution=list(SOLUTION.values))) + "\n"
                    + json.dumps(fpuzzle(clock=[{}])) + "\n")
    assert compare.main([str(path), "--solver", "mrv", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Bad entries (skipped): 1" in out and f"{path}:2: f-puzzles field 'clock'" in out
    assert "Solution (found by mrv):" in out  # one puzzle run: its solution shown, checked against the file's


def test_the_generator_writes_fpuzzles_lines_that_read_back(tmp_path):
    from commands.generate import main as generate

    lines, jsonl = tmp_path / "made.txt", tmp_path / "made.jsonl"
    assert generate(["--box", "2", "--count", "3", "--seed", "5", "--output", str(lines)]) == 0
    assert generate(["--box", "2", "--count", "3", "--seed", "5", "--output", str(jsonl)]) == 0
    as_lines, as_json = list(read_puzzles(lines)), list(read_puzzles(jsonl))
    assert [e.grid for e in as_json] == [e.grid for e in as_lines] and len(as_json) == 3
    assert [e.name for e in as_json] == [e.name for e in as_lines]
    for entry in as_json:  # each carries its solution, which solves it
        assert entry.solution is not None and entry.grid.solution_problems(entry.solution) == []


# -- constraints beyond houses and cages (puzzles/constraints/) ----------------------------------------------------
def test_constraint_fields_are_read_as_f_puzzles_writes_them():
    """A 4x4 as f-puzzles exports it: flags for the rules of the whole grid, a thermometer entry holding two lines
    from one bulb with its colours (the drawing's, no rule); each line is a thermometer."""
    empty = Grid.parse("." * 16)
    thermometers = [{"lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]], "baseC": "#CFCFCF",
                     "outlineC": "#CFCFCF", "fontC": "#000000"}, {"lines": [["R4C4", "R3C3"]]}]
    grid, _, _ = puzzle_of(fpuzzle(empty, antiknight=True, antiking=False, nonconsecutive=None,
                                   thermometer=thermometers))
    assert grid.layout.variant == "antiknight+thermometer"
    assert grid.text() == "." * 16 + ";antiknight;th=R1C1,R1C2,R1C3;th=R1C1,R2C1;th=R4C4,R3C3"
    assert [getattr(c, "cells", None) for c in grid.layout.constraints] == [None, (0, 1, 2), (0, 4), (15, 10)]


@pytest.mark.parametrize(("name", "puzzle", "solution"), [pytest.param(*p, id=p[0]) for p in constraint_puzzles()])
def test_every_constraint_round_trips_through_objects_json_lines_and_links(tmp_path, name, puzzle, solution):
    written = object_of(puzzle, name, solution)
    assert puzzle_of(written) == (puzzle, solution, name)
    assert puzzle_of(object_of_link(link_of(written))) == (puzzle, solution, name)
    path = tmp_path / "constraints.jsonl"
    path.write_text(json_line(puzzle, name, solution) + "\n")
    [entry] = list(read_puzzles(path))
    assert isinstance(entry, Entry) and entry.grid == puzzle and entry.solution == solution
    assert entry.grid.text() == puzzle.text()  # the line form's words, the same constraints in the same order


@pytest.mark.parametrize(("value", "says"), [
    ([{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R1C1", "R5C1"]]}], "`thermometer` entry 2: R5C1 is outside the 4x4 "
                                                                      "grid"),
    ([{"lines": [["R1C1", "R1C2"]]}, {"lines": []}], "`thermometer` entry 2 has no `lines`"),
    ([{"cells": ["R1C1", "R1C2"]}], "`thermometer` entry 1 has no `lines`"),
    (["R1C1"], "`thermometer` entry 1 has no `lines`"),
    ([{"lines": [["R1C1", 7]]}], "`thermometer` entry 1: a line holds something other than cell names"),
    ([{"lines": [["R1C1", "X"]]}], "`thermometer` entry 1: 'X' is not a cell name like R1C1"),
    ([{"lines": [["R1C1", "R1C2"]], "value": "3"}], "`thermometer` entry 1: field 'value' is not read by this project"),
    ([{"lines": [["R1C1", "R1C2", "R1C1"]]}], "`thermometer` entry 1: its line from R1C1 names a cell twice"),
    ([{"lines": [["R1C1", "R1C2", "R1C3", "R1C4", "R2C4"]]}], "`thermometer` entry 1: its line from R1C1 has 5 cells"),
    ({"lines": [["R1C1", "R1C2"]]}, "`thermometer` must be a list of thermometers, not an object"),
    ("R1C1,R1C2", "`thermometer` must be a list of thermometers, not a string"),
])
def test_a_wrong_thermometer_is_refused_naming_its_entry(tmp_path, value, says):
    with pytest.raises(FPuzzlesError) as caught:
        puzzle_of(fpuzzle(Grid.parse("." * 16), thermometer=value))
    assert str(caught.value).startswith(says)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(fpuzzle()) + "\n" + json.dumps(fpuzzle(Grid.parse("." * 16), thermometer=value)) + "\n")
    read = list(read_puzzles(path))
    assert isinstance(read[1], BadEntry) and str(read[1]).startswith(f"{path}:2: {says}")


def test_givens_that_break_a_constraint_are_an_invalid_puzzle():
    clash = fpuzzle(Grid.parse("1.....1........." + ""), antiknight=True)  # R1C1 and R2C3: a knight's move apart
    with pytest.raises(FPuzzlesError, match="invalid puzzle: R1C1 and R2C3, a knight's move apart, both hold 1"):
        puzzle_of(clash)


def test_compare_solves_f_puzzles_with_constraints(tmp_path: Path, capsys):
    path = tmp_path / "constraints.jsonl"
    path.write_text("".join(json_line(puzzle, name, solution) + "\n"
                            for name, puzzle, solution in constraint_puzzles()))
    assert compare.main([str(path), "--solver", "mrv:propagate=singles", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    count = len(constraint_puzzles())
    assert "Bad entries" not in out and f"Puzzles: {count} ({count} agree)" in out
    assert "OK: every answer valid" in out  # each solution checked against every constraint, and the file's


def test_the_docs_constraint_examples_read_each_with_one_solution(tmp_path):
    """docs/reference/puzzle-files.md's examples of constraints: the line form's and the f-puzzles line of the same
    6x6, each read, the two the same puzzle, each with one solution by the brute force."""
    text = (Path(__file__).parent.parent / "docs" / "reference" / "puzzle-files.md").read_text()
    lines = [line for line in text.splitlines() if ";th=" in line and not line.startswith("|")]
    [json_text] = [line for line in text.splitlines() if line.startswith("{") and '"thermometer"' in line]
    path = tmp_path / "examples.txt"
    path.write_text("\n".join(lines) + "\n")
    entries = list(read_puzzles(path))
    assert len(entries) == 2 and all(isinstance(e, Entry) for e in entries)
    grid, _, title = puzzle_of(json.loads(json_text))
    assert grid == entries[0].grid and title == entries[0].name == "antiknight+thermometer-6"
    assert [count_solutions(e.grid) for e in entries] == [1, 1]
