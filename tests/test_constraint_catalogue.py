"""The first kinds of the community's catalogue (Kropki dots, XV, the negative rule, odd and even cells): their
f-puzzles fields read and written with the format's names, wrong entries refused by name, the check against
hand-made grids that break them, a puzzle that gives every dot solved by every method to its one solution, and the
generator's minimal puzzles of each kind read back unique and minimal (tests/constraint_grids.py's brute force).
The engines, searches, cdcl, rungs, formulations and isomorphs meet these kinds through constraint_grids.EMPTY in
tests/test_constraints.py and tests/test_constraint_formulations.py."""
from __future__ import annotations

import json

import pytest
from constraint_grids import DOTTED, EMPTY, breaks, count, every_dot, puzzles

from commands.generate import main
from formulations import SOLVERS as FORMULATIONS
from making.minimal import givens_of, is_minimal
from puzzles import Grid
from puzzles.constraints import Shape
from puzzles.formats import read_puzzles
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, object_of_link, puzzle_of
from puzzles.layouts import PuzzleError
from puzzles.outcome import Status
from search import SOLVERS

OURS = ("difference", "ratio", "xv", "negative", "odd", "even", "renban", "arrow", "quadruple", "littlekiller")
MINE = [(name, puzzle, solution) for name, puzzle, solution in puzzles() if any(k in name for k in OURS)]


def _fpuzzles(size: int, **fields: object) -> dict[str, object]:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **fields}


@pytest.mark.parametrize(("name", "puzzle", "solution"), MINE, ids=[m[0] for m in MINE])
def test_fpuzzles_writes_and_reads_back_every_kind(name: str, puzzle: Grid, solution: Grid) -> None:
    obj = object_of(puzzle)
    assert puzzle_of(json.loads(json.dumps(obj)))[0] == puzzle
    assert puzzle_of(object_of_link(link_of(obj)))[0] == puzzle
    assert Grid.parse(puzzle.text()) == puzzle


def test_fpuzzles_fields_are_read_with_the_formats_names_and_defaults() -> None:
    obj = _fpuzzles(6, difference=[{"cells": ["R1C1", "R1C2"]}, {"cells": ["R3C3", "R4C3"], "value": "2"}],
                    ratio=[{"cells": ["R2C6", "R2C5"], "outlineC": "#000000"}, {"cells": ["R5C1", "R5C2"],
                                                                                 "value": "3"}],
                    xv=[{"cells": ["R6C1", "R6C2"], "value": "x"}, {"cells": ["R1C5", "R2C5"], "value": "V"}],
                    negative=["xv", "ratio"], odd=[{"cell": "R4C4"}], even=[{"cell": "R6C6"}])
    grid = puzzle_of(obj)[0]
    assert grid == Grid.parse("." * 36 + ";kw=R1C1-R1C2,R3C3-R4C3:2;kb=R2C5-R2C6,R5C1-R5C2:3;"
                              "xv=R6C1-R6C2:X,R1C5-R2C5:V;negative=ratio,xv;odd=R4C4;even=R6C6")
    written = object_of(grid)
    assert written["difference"] == [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R3C3", "R4C3"], "value": "2"}]
    assert written["xv"] == [{"cells": ["R6C1", "R6C2"], "value": "X"}, {"cells": ["R1C5", "R2C5"], "value": "V"}]
    assert written["negative"] == ["ratio", "xv"] and written["odd"] == [{"cell": "R4C4"}]


@pytest.mark.parametrize(("fields", "says"), [
    ({"difference": [{"cells": ["R1C1", "R1C3"]}]}, "`difference` entry 1: white dot R1C1-R1C3 is not between two "
                                                    "orthogonal neighbours"),
    ({"difference": [{"cells": ["R1C1", "R1C2"], "value": "6"}]}, "has no two different values 1 to 6"),
    ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "two"}]}, "`ratio` entry 1: its value 'two' is not a whole"),
    ({"ratio": [{"cells": ["R1C1"]}]}, "`ratio` entry 1 has 1 cells: a black dot is between two"),
    ({"xv": [{"cells": ["R1C1", "R1C2"]}]}, "`xv` entry 1 has no `value`"),
    ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "W"}]}, "its value 'W' is not X or V"),
    ({"negative": ["sum"]}, "`negative` holds 'sum': not read by this project"),
    ({"negative": "xv"}, "`negative` must be a list of names"),
    ({"odd": [{"cells": ["R1C1"]}]}, "`odd` entry 1 has no `cell`"),
    ({"even": [{"cell": "R7C1"}]}, "`even` entry 1: R7C1 is outside the 6x6 grid"),
    ({"renban": [{"lines": [["R1C1", "R1C1"]]}]}, "`renban` entry 1: its line from R1C1 names a cell twice"),
    ({"arrow": [{"cells": ["R1C1"], "lines": [["R1C2", "R1C3"]]}]}, "`arrow` entry 1: its line starts at R1C2, not in"),
    ({"arrow": [{"lines": [["R1C1", "R1C2"]]}]}, "`arrow` entry 1 has no `cells`"),
    ({"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": ["1"]}]}, "`values` must be a list of"),
    ({"quadruple": [{"cells": ["R1C1", "R1C2", "R1C3", "R2C2"], "values": [1]}]}, "no four cells around a corner"),
    ({"littlekillersum": [{"cell": "R0C3", "direction": "DX", "value": "5"}]}, "its direction 'DX' is not UL, UR"),
    ({"littlekillersum": [{"cell": "R2C2", "direction": "DL", "value": "5"}]}, "not just outside the 6x6 grid"),
    ({"littlekillersum": [{"cell": "R0C3", "direction": "DL", "value": "5", "cells": ["R1C3"]}]},
     "its `cells` are not the diagonal from R0C3 DL"),
])
def test_a_wrong_entry_is_refused_by_name(fields: dict[str, object], says: str) -> None:
    with pytest.raises((FPuzzlesError, PuzzleError, ValueError), match=says.replace("(", r"\(").replace(")", r"\)")):
        puzzle_of(_fpuzzles(6, **fields))


@pytest.mark.parametrize(("words", "says"), [
    ("kw=R1C1-R2C2", "white dot R1C1-R2C2 is not between two orthogonal neighbours"),
    ("kw=R1C1,R1C2", "'R1C1' is not a pair of cells like R1C1-R1C2"),
    ("xv=R1C1-R1C2", "'R1C1-R1C2' gives no value after `:`"),
    ("xv=R1C1-R1C2:X", "XV R1C1-R1C2 \\(X\\) has no two different values 1 to 4"),
    ("negative=kropki", "names 'kropki': not read by this project"),
    ("odd=R5C1", "R5C1 is outside the 4x4 grid"),
    ("rb=R1C1,R1C1", "renban 1 \\(R1C1\\) names a cell twice"),
    ("ar=R1C1", "`ar=` gives its circle's cells"),
    ("qd=R4C4:1", "R4C4 is the top left of no four cells"),
    ("qd=R1C1:7", "'7' is not a value 1 to 4"),
    ("lk=R1C1:DR:5", "not just outside the 4x4 grid"),
    ("lk=R0C1:DR", "`lk=` gives its clue's cell, its direction and its sum"),
])
def test_a_wrong_word_is_refused_by_name(words: str, says: str) -> None:
    with pytest.raises(PuzzleError, match=says):
        Grid.parse("." * 16 + ";" + words)


SOLUTION_4 = "1234341221434321"


@pytest.mark.parametrize(("words", "says"), [
    ("kw=R1C1-R1C3", None),  # not neighbours: refused above; here the grid's own checks
    ("kw=R1C2-R1C3", None),  # 2 and 3: kept
    ("kw=R1C1-R2C1", "R1C1 and R2C1 hold 1 and 3: a white dot between them asks a difference of 1"),
    ("kb=R1C1-R1C2", None),
    ("kb=R1C2-R1C3", "R1C2 and R1C3 hold 2 and 3: a black dot between them asks that one be 2 times the other"),
    ("xv=R1C1-R2C1:V", "R1C1 and R2C1 hold 1 and 3: a V between them asks a sum of 5"),
    ("xv=R1C2-R1C3:V", None),
    ("odd=R1C2", "R1C2 holds 2, on an odd cell"),
    ("even=R1C2", None),
    ("kb=R1C1-R1C2;negative=difference", "R1C3 and R1C4 hold 3 and 4, neighbours without a white dot"),
    ("xv=R1C2-R1C3:V;negative=xv", "R2C1 and R3C1 hold 3 and 2, neighbours without a XV, yet its rule of V holds"),
    ("rb=R1C1,R1C2,R1C3", None),
    ("rb=R1C1,R2C1", "renban 1 (R1C1) holds 1 and 3: 2 consecutive values span 1 at most"),
    ("ar=R1C3:R1C1,R1C2", None),
    ("ar=R2C2:R1C1,R3C1", "arrow 1 (R2C2): its line sums to 3, its circle holds 4"),
    ("ar=R2C3,R1C2:R2C2,R3C3,R1C4", None),  # a pill: 1 and 2 are 12
    ("qd=R1C1:1,4", None),
    ("qd=R2C2:1,1", None),  # two 1s, apart in the square
    ("qd=R2C2:2", "quadruple 1 (R2C2: 2): its cells hold 4, 1, 1, 4, leaving no room for 2"),
    ("lk=R0C0:DR:10", None),
    ("lk=R0C0:DR:9", "little killer 1 (9 at R0C0 DR): its diagonal sums to 10"),
])
def test_the_check_finds_each_broken_rule_as_its_definition_does(words: str, says: str | None) -> None:
    if words == "kw=R1C1-R1C3":
        with pytest.raises(PuzzleError):
            Grid.parse(SOLUTION_4 + ";" + words)
        return
    grid = Grid.parse(SOLUTION_4 + ";" + words)
    found = grid.conflicts()
    by_definition = any(breaks(grid.layout, grid.values, c) for c in range(16))
    assert bool(found) == by_definition == (says is not None), found
    if says is not None:
        assert any(says in message for message in found), found


NEGATIVE = "." * 36 + every_dot(DOTTED, "kropki") + ";negative=difference,ratio"
NEGATIVE_XV = "." * 36 + every_dot(DOTTED, "xv") + ";negative=xv"
METHODS = [("backtracking", {}), ("mrv", {}), ("mrv", {"propagate": "locked"}), ("cdcl", {}), ("astar", {}),
           ("cpsat", {}), ("cpsat", {"model": "boolean"}), ("sat", {}), ("mip", {}), ("python-constraint", {})]


@pytest.mark.parametrize(("method", "options"), METHODS, ids=[f"{m}-{o}" for m, o in METHODS])
def test_a_grid_that_gives_every_dot_is_solved_by_every_method_to_its_one_solution(method: str,
                                                                                  options: dict[str, object]) -> None:
    grid = Grid.parse(NEGATIVE)
    assert count(grid, 2) == 1 and grid.givens == 0
    found = {**SOLVERS, **FORMULATIONS}[method](grid, solutions=2, **options)
    assert found.status is Status.SOLVED and found.unique is True, found.detail
    assert found.solution is not None and found.solution.line() == DOTTED
    two = Grid.parse(NEGATIVE_XV)  # the X's and V's alone leave two solutions
    found = {**SOLVERS, **FORMULATIONS}[method](two, solutions=2, **options)
    assert found.status is Status.SOLVED and found.unique is False and count(two, 3) == 2
    assert found.solution is not None and two.solution_problems(found.solution) == []


def test_the_negative_rule_follows_the_dots_of_its_layout() -> None:
    """A dot dropped from a puzzle with the negative rule leaves its pair under the rule: the grid is the puzzle's
    without it, and its solution breaks it there."""
    grid = Grid.parse(DOTTED + every_dot(DOTTED, "kropki") + ";negative=difference,ratio")
    assert grid.conflicts() == []
    dots = [c for c in grid.layout.constraints if c.KIND == "difference"]
    fewer = Grid.parse(DOTTED + ";" + ";".join(c.word(6) for c in grid.layout.constraints if c is not dots[0]))
    assert fewer.conflicts() and any("neighbours without a white dot" in m for m in fewer.conflicts())


def test_each_kind_draws_its_shape() -> None:
    grid = Grid.parse("." * 36 + ";kw=R1C1-R1C2:2;kb=R2C1-R2C2;xv=R3C1-R3C2:X;negative=xv;odd=R4C4;even=R4C1")
    shapes = [shape for c in grid.layout.constraints for shape in c.drawing(6)]
    assert shapes[:3] == [Shape("ring", (0, 1), "white dot", "2"), Shape("dot", (6, 7), "black dot"),
                          Shape("letter", (12, 13), "XV", "X")]
    assert shapes[3].kind == "note" and shapes[4:] == [Shape("circle", (21,), "odd cell"),
                                                       Shape("square", (18,), "even cell")]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["difference", "ratio", "xv", "odd", "even", "renban", "arrow", "quadruple",
                                  "littlekiller"])
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
