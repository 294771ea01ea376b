"""The catalogue's kinds whose rule is pairs of cells (palindromes, German whispers, slow thermometers, clones,
minimum and maximum cells): their f-puzzles fields read and written with the format's names, wrong entries and
words refused by name, the check against hand-made grids that break them, their drawing, and the generator's
minimal puzzles of each kind read back unique and minimal (tests/constraint_grids.py's brute force). The engines,
searches, cdcl, rungs, formulations and isomorphs meet these kinds through constraint_grids.EMPTY in
tests/test_constraints.py and tests/test_constraint_formulations.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from constraint_grids import EMPTY, breaks, count, puzzles

from commands.generate import main
from comparison.report.page.houses import legend
from formulations import SOLVERS as FORMULATIONS
from making.minimal import givens_of, is_minimal
from puzzles import Grid
from puzzles.constraints import Shape
from puzzles.formats import read_puzzles
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, object_of_link, puzzle_of
from puzzles.layouts import PuzzleError

OURS = ("palindrome", "whispers", "slowthermometer", "clone", "minimum", "maximum", "modularline", "entropicline",
        "pencilmarks", "nabner")
MINE = [(name, puzzle, solution) for name, puzzle, solution in puzzles() if any(k in name for k in OURS)]


def _fpuzzles(size: int, **fields: object) -> dict[str, object]:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **fields}


@pytest.mark.parametrize(("name", "puzzle", "solution"), MINE, ids=[m[0] for m in MINE])
def test_fpuzzles_writes_and_reads_back_every_kind(name: str, puzzle: Grid, solution: Grid) -> None:
    obj = object_of(puzzle)
    assert puzzle_of(json.loads(json.dumps(obj)))[0] == puzzle
    assert puzzle_of(object_of_link(link_of(obj)))[0] == puzzle
    assert Grid.parse(puzzle.text()) == puzzle


@pytest.mark.parametrize(("fields", "words", "written"), [
    ({"palindrome": [{"lines": [["R1C1", "R2C2", "R3C3"], ["R6C1", "R5C2"]], "baseC": "#CFCFCF"}]},
     "pal=R1C1,R2C2,R3C3;pal=R6C1,R5C2",
     {"palindrome": [{"lines": [["R1C1", "R2C2", "R3C3"]]}, {"lines": [["R6C1", "R5C2"]]}]}),
    # no value: half the side (3 on a 6x6), as SudokuVariantSolverJS reads it; a value of 3 is that default
    ({"whispers": [{"lines": [["R1C1", "R1C2", "R2C3"]]}, {"lines": [["R6C6", "R5C6"]], "value": "2"},
                   {"lines": [["R4C4", "R4C5"]], "value": 3}]},
     "gw=R1C1,R1C2,R2C3;gw=R6C6,R5C6:2;gw=R4C4,R4C5",
     {"whispers": [{"lines": [["R1C1", "R1C2", "R2C3"]]}, {"lines": [["R6C6", "R5C6"]], "value": "2"},
                   {"lines": [["R4C4", "R4C5"]]}]}),
    ({"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R4C4", "R4C5"], "baseC": "#CFCFCF"}]},
     "cl=R1C1,R1C2=R4C4,R4C5", {"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R4C4", "R4C5"]}]}),
    ({"minimum": [{"cell": "R1C1"}, {"cell": "R2C2", "baseC": "#CFCFCF"}], "maximum": [{"cell": "R6C6"}]},
     "min=R1C1,R2C2;max=R6C6", {"minimum": [{"cell": "R1C1"}, {"cell": "R2C2"}], "maximum": [{"cell": "R6C6"}]}),
    ({"modularline": [{"lines": [["R1C1", "R1C2", "R1C3"]]}], "entropicline": [{"lines": [["R6C6", "R5C5"]]}]},
     "mod=R1C1,R1C2,R1C3;ent=R6C6,R5C5",
     {"modularline": [{"lines": [["R1C1", "R1C2", "R1C3"]]}], "entropicline": [{"lines": [["R6C6", "R5C5"]]}]}),
    ({"nabner": [{"lines": [["R1C1", "R2C2", "R3C3"]], "baseC": "#CFCFCF"}]}, "nb=R1C1,R2C2,R3C3",
     {"nabner": [{"lines": [["R1C1", "R2C2", "R3C3"]]}]}),
    # f-puzzles has no slow thermometer: the project's own field, shaped as `thermometer`'s
    ({"slowthermometer": [{"lines": [["R1C1", "R2C2", "R3C3"], ["R1C1", "R1C2"]]}]}, "sth=R1C1,R2C2,R3C3;sth=R1C1,R1C2",
     {"slowthermometer": [{"lines": [["R1C1", "R2C2", "R3C3"]]}, {"lines": [["R1C1", "R1C2"]]}]}),
])
def test_fpuzzles_fields_are_read_with_the_formats_names_and_defaults(fields: dict[str, object], words: str,
                                                                      written: dict[str, object]) -> None:
    grid = puzzle_of(_fpuzzles(6, **fields))[0]
    assert grid == Grid.parse("." * 36 + ";" + words)
    nine = Grid.parse("." * 81 + ";gw=R1C1,R1C2").layout.constraints[0]
    assert nine.word(9) == "gw=R1C1,R1C2" and nine.value == 5  # type: ignore[attr-defined]  # German whispers
    obj = object_of(grid)
    assert {key: obj[key] for key in written} == written


def test_given_pencil_marks_are_read_from_the_cells_and_written_there() -> None:
    obj = _fpuzzles(6)
    rows: list[list[dict[str, object]]] = obj["grid"]  # type: ignore[assignment]
    rows[0][0] = {"givenPencilMarks": [5, 1, 3], "centerPencilMarks": [1]}  # a solver's own marks: no rule
    rows[3][3] = {"givenPencilMarks": [2, 6], "value": 6, "given": True}
    rows[5][5] = {"givenPencilMarks": []}
    grid = puzzle_of(obj)[0]
    assert grid == Grid.parse("." * 21 + "6" + "." * 14 + ";pm=R1C1:135,R4C4:26")
    written = object_of(grid)["grid"]
    assert written[0][0] == {"givenPencilMarks": [1, 3, 5]} and "givenPencilMarks" not in object_of(grid)
    assert written[3][3] == {"value": 6, "given": True, "givenPencilMarks": [2, 6]}


@pytest.mark.parametrize("marks", [[7], ["1"], [True], "15", {"1": 1}])
def test_wrong_pencil_marks_are_refused_naming_their_cell(marks: object) -> None:
    obj = _fpuzzles(6)
    obj["grid"][1][2] = {"givenPencilMarks": marks}  # type: ignore[index]
    with pytest.raises(FPuzzlesError, match=r"cell R2C3: `givenPencilMarks` .* is not a list of values 1 to 6"):
        puzzle_of(obj)


@pytest.mark.parametrize(("fields", "says"), [
    ({"palindrome": [{"lines": [["R1C1", "R3C3"]]}]}, "`palindrome` entry 1: its line from R1C1 steps from R1C1 to "
                                                      "R3C3, which do not touch"),
    ({"palindrome": [{"lines": [["R1C1"]]}]}, "its line from R1C1 has one cell"),
    ({"palindrome": [{"lines": [["R1C1", "R1C2"]], "value": "3"}]}, "`palindrome` entry 1: field 'value' is not read"),
    ({"palindrome": [{"cells": ["R1C1", "R1C2"]}]}, "`palindrome` entry 1 has no `lines`"),
    ({"palindrome": [{"lines": [["R1C1", "R7C1"]]}]}, "`palindrome` entry 1: R7C1 is outside the 6x6 grid"),
    ({"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R4C4"]}]}, "`clone` entry 1: clone 1 (R1C1, R4C4) has 2 "
                                                                        "cells and 1 clone cells"),
    ({"clone": [{"cells": ["R1C1"]}]}, "`clone` entry 1 has no `cloneCells` list"),
    ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R1C1"]}]}, "clones its cells onto themselves"),
    ({"minimum": [{"cells": ["R1C1"]}]}, "`minimum` entry 1 has no `cell`"),
    ({"maximum": [{"cell": "R7C1"}]}, "`maximum` entry 1: R7C1 is outside the 6x6 grid"),
    ({"maximum": [{"cell": "R1C1", "value": "3"}]}, "`maximum` entry 1: field 'value' is not read"),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "6"}]}, "`whispers` entry 1: its line from R1C1 asks a "
                                                                  "difference of 6: no two values 1 to 6 differ by so"),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "five"}]}, "`whispers` entry 1: its value 'five' is not a"),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "0"}]}, "asks a difference of 0: a whispers line asks 1"),
])
def test_a_wrong_entry_is_refused_by_name(fields: dict[str, object], says: str) -> None:
    with pytest.raises((FPuzzlesError, PuzzleError, ValueError), match=says.replace("(", r"\(").replace(")", r"\)")):
        puzzle_of(_fpuzzles(6, **fields))


@pytest.mark.parametrize(("words", "says"), [
    ("pal=R1C1,R1C3", "palindrome 1 \\(R1C1\\) steps from R1C1 to R1C3, which do not touch"),
    ("pal=R1C1,R1C2,R1C1", "palindrome 1 \\(R1C1\\) names a cell twice"),
    ("pal=R1C1,R1C2:3", "a palindrome has no value after `:`"),
    ("pal=R1C1,R5C1", "R5C1 is outside the 4x4 grid"),
    ("cl=R1C1,R1C2", "gives one group of cells: a clone is two, joined by `=`"),
    ("cl=R1C1=R1C2,R2C2", "clone 1 \\(R1C1, R1C2\\) has 1 cells and 2 clone cells"),
    ("min=R5C1", "R5C1 is outside the 4x4 grid"),
    ("pm=R1C1", "'R1C1' gives no values after `:`"),
    ("pm=R1C1:15", "'R1C1:15': a value is not 1 to 4"),
    ("sth=R1C1,R1C2:2", "a slow thermometer has no value after `:`"),
    ("nb=R1C1,R1C2:2", "a nabner line has no value after `:`"),
    ("gw=R1C1,R1C2:x", "its value 'x' is not a whole number"),
    ("gw=R1C1,R2C3", "whispers line 1 \\(R1C1\\) steps from R1C1 to R2C3, which do not touch"),
])
def test_a_wrong_word_is_refused_by_name(words: str, says: str) -> None:
    with pytest.raises(PuzzleError, match=says):
        Grid.parse("." * 16 + ";" + words)


SOLUTION_4 = "1234341221434321"  # 1234 / 3412 / 2143 / 4321


@pytest.mark.parametrize(("words", "says"), [
    ("pal=R1C1,R2C2,R2C3", None),  # 1 4 1
    ("pal=R1C1,R2C2,R3C3", "R1C1 and R3C3 hold 1 and 4 on the palindrome from R1C1"),
    ("pal=R4C1,R3C2,R2C2,R1C3", "R4C1 and R1C3 hold 4 and 3"),  # 4 1 4 3: both pairs broken
    ("sth=R3C2,R2C3,R1C3", None),  # 1 1 3: a value may repeat
    ("sth=R1C1,R2C1,R3C2", "R2C1 and R3C2 hold 3 and 1 on the slow thermometer from R1C1"),  # and R1C1's 1 is kept
    ("cl=R1C1,R1C2=R2C3,R2C4", None),  # 1 2 and 1 2
    ("cl=R1C1,R1C2=R2C4,R2C3", "R1C1 and R2C4 hold 1 and 2: a clone's counterparts hold one value"),
    ("min=R3C2", None),  # 1 beside 2, 4, 4
    ("max=R2C2;min=R3C2", None),  # 4 beside 2, 3, 1 (a minimum, compared all the same), 1
    ("max=R2C3", "R2C3 holds 1, a maximum cell, beside R1C3's 3 (it holds more than each neighbour)"),
    ("min=R1C1,R1C2", None),  # R1C2's 2 is not less than R1C1's 1, but two minimum cells are not compared
    ("min=R1C2,R1C3", "R1C2 holds 2, a minimum cell, beside R1C1's 1"),
    ("max=R4C1", None),  # 4 beside 2 and 3
    ("mod=R1C1,R1C2,R1C3,R1C4", None),  # remainders 1 2 0 1
    ("mod=R1C1,R2C2,R1C3", "R1C1 and R2C2 hold 1 and 4 on the modular line from R1C1: three cells in a row along it "
                           "hold values of three classes (remainders by 3)"),
    ("ent=R1C1,R1C2,R2C2", None),  # 1 2 4: low, middle, high on a 4x4
    ("ent=R1C1,R1C2,R2C1", "R1C2 and R2C1 hold 2 and 3 on the entropic line from R1C1"),  # both middle
    ("ent=R1C1,R1C2,R2C2,R3C2", None),  # 1 2 4 1: each three in a row low, middle, high
    ("pm=R1C1:12,R2C2:4", None),
    ("pm=R1C1:12,R2C2:23", "R2C2 holds 4, not among its given pencil marks 23"),
    ("nb=R1C1,R2C1", None),  # 1 3
    ("nb=R1C1,R1C2,R2C1", "R1C1 and R1C2 hold 1 and 2 on the nabner line from R1C1: any two of its cells differ by 2"),
    ("nb=R1C2,R2C1,R3C1", "R1C2 and R3C1 hold 2 and 2"),  # a value twice, not neighbours along the line
    ("gw=R1C1,R2C2,R1C3", "R2C2 and R1C3 hold 4 and 3"),  # 4 and 3 differ by 1, the line asks 2 (half of 4)
    ("gw=R1C1,R2C2,R3C1", None),  # 1 4 2: 3 and 2
    ("gw=R1C1,R2C2:3", None),  # 1 4
    ("gw=R1C2,R1C3:3", "R1C2 and R1C3 hold 2 and 3 on the whispers line from R1C2: neighbours along it differ by 3"),
])
def test_the_check_finds_each_broken_rule_as_its_definition_does(words: str, says: str | None) -> None:
    grid = Grid.parse(SOLUTION_4 + ";" + words)
    found = grid.conflicts()
    by_definition = any(breaks(grid.layout, grid.values, c) for c in range(16))
    assert bool(found) == by_definition == (says is not None), found
    if says is not None:
        assert any(says in message for message in found), found


UP, DOWN = "\u2227", "\u2228"  # the signs between two cells one above the other, pointing at the smaller


def test_each_kind_draws_its_shape() -> None:
    grid = Grid.parse("." * 36 + ";pal=R1C1,R2C2,R3C3;gw=R6C1,R6C2;sth=R4C4,R4C5;cl=R1C6=R2C5;min=R6C6;max=R3C1")
    shapes = [shape for c in grid.layout.constraints for shape in c.drawing(6)]
    assert shapes == [Shape("line", (0, 7, 14), "palindrome"), Shape("line", (30, 31), "whispers line"),
                      Shape("bulb", (21,)), Shape("line", (21, 22), "slow thermometer"),
                      Shape("outline", (5,), "clone"), Shape("outline", (10,), "clone"),
                      Shape("letter", (29, 35), "minimum sign", DOWN), Shape("letter", (34, 35), "minimum sign", ">"),
                      Shape("letter", (6, 12), "maximum sign", UP), Shape("letter", (12, 18), "maximum sign", DOWN),
                      Shape("letter", (12, 13), "maximum sign", ">")]  # its point at the smaller cell
    assert "2 clones (dashed outlines)" in legend(grid.layout)
    assert "2 minimum signs (its letter between two cells)" in legend(grid.layout)
    marked = Grid.parse("." * 36 + ";pm=R2C2:12,R3C3:45")
    first = marked.layout.constraints[0].drawing(6)
    assert first == (Shape("letter", (7,), "pencil-marked cell", "12"),)
    assert "2 pencil-marked cells (its letters in the cell)" in legend(marked.layout)


@pytest.mark.slow
@pytest.mark.parametrize("kind", OURS)
def test_generate_minimal_puzzles_of_each_kind_read_back_unique_and_minimal(kind: str, tmp_path: object) -> None:
    out = tmp_path / f"{kind}.txt"  # type: ignore[operator]
    assert main(["--variant", kind, "--side", "6", "--minimal", "--count", "2", "--seed", "1",
                 "--output", str(out)]) == 0
    entries = list(read_puzzles(out))
    assert len(entries) == 2
    for entry in entries:
        grid = entry.grid
        assert grid.layout.variant == kind and entry.name.startswith("minimal-") and grid.layout.constraints
        assert count(grid) == 1 and is_minimal(grid, count) and givens_of(grid)


def test_the_empty_grids_hold_each_kind() -> None:
    kinds = {c.KIND for text in EMPTY.values() for c in Grid.parse(text).layout.constraints}
    assert set(OURS) <= kinds


def test_the_docs_examples_read_each_with_one_solution() -> None:
    """docs/reference/puzzle-files.md's generated 6x6 of each kind: read, of its kind, one solution (CP-SAT's
    count: the brute force's on the generator's puzzles is above)."""
    text = (Path(__file__).parent.parent / "docs" / "reference" / "puzzle-files.md").read_text()
    found = {line.rsplit(" ", 1)[1]: line.rsplit(" ", 1)[0] for line in text.splitlines()
             if line.endswith("-6") and line.rsplit(" ", 1)[1][:-2] in OURS}
    assert set(found) == {f"{kind}-6" for kind in OURS}
    for name, line in found.items():
        grid = Grid.parse(line)
        found = FORMULATIONS["cpsat"](grid, solutions=2)
        assert {c.KIND for c in grid.layout.constraints} == {name[:-2]} and found.unique is True, name
        assert found.solution is not None and found.solution.conflicts() == []
