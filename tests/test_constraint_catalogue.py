"""The first kinds of the community's catalogue (Kropki dots, XV, the negative rule, odd and even cells): their
f-puzzles fields read and written with the format's names, wrong entries refused by name, the check against
hand-made grids that break them, a puzzle that gives every dot solved by every method to its one solution, and the
generator's minimal puzzles of each kind read back unique and minimal (tests/constraint_grids.py's brute force).
The engines, searches, cdcl, rungs, formulations and isomorphs meet these kinds through constraint_grids.EMPTY in
tests/test_constraints.py and tests/test_constraint_formulations.py."""
from __future__ import annotations

import json

import pytest
from constraint_grids import DOTTED, EMPTY, breaks, count, every_dot, puzzles, solutions

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

OURS = ("difference", "ratio", "xv", "negative", "odd", "even", "renban", "arrow", "quadruple", "littlekiller",
        "rowindexer", "columnindexer", "boxindexer", "regionsumline", "zipperline", "doublearrow", "betweenline",
        "lockout", "sandwich", "xsum", "skyscraper")
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
    ({"zipperline": [{"lines": [["R1C1", "R1C2"]]}]}, "`zipperline` entry 1: its line from R1C1 has 2 cells: a zipper"),
    ({"doublearrow": [{"lines": [["R1C1", "R1C3", "R1C4"]]}]}, "steps from R1C1 to R1C3, which do not touch"),
    ({"betweenline": [{"lines": [["R1C1", "R1C2", "R1C3"]], "value": "2"}]}, "field 'value' is not read"),
    ({"lockout": [{"lines": [["R1C1", "R1C2", "R1C3"]], "value": "6"}]}, "asks its ends to differ by 6: two values"),
    ({"lockout": [{"lines": [["R1C1", "R1C2", "R1C3"]], "value": "x"}]}, "its value 'x' is not a whole number"),
    ({"columnindexer": [{"cells": ["R1C7"]}]}, "`columnindexer` entry 1: R1C7 is outside the 6x6 grid"),
    ({"rowindexer": [{"cells": ["R1C1"], "value": "3"}]}, "`rowindexer` entry 1: field 'value' is not read"),
    ({"regionsumline": [{"lines": [["R1C1", "R2C2", "R1C1"]]}]}, "its line from R1C1 names a cell twice"),
    ({"sandwichsum": [{"cell": "R0C0", "value": "5"}]}, "`sandwichsum` entry 1: its clue R0C0 is at a corner"),
    ({"sandwichsum": [{"cell": "R3C3", "value": "5"}]}, "its clue R3C3 is not just outside the 6x6 grid"),
    ({"sandwichsum": [{"cell": "R0C3", "value": "five"}]}, "`sandwichsum` entry 1: its clue 'five' is not a whole"),
    ({"sandwichsum": [{"value": "5"}]}, "`sandwichsum` entry 1 has no `cell`"),
    ({"sandwichsum": [{"cell": "R0C3", "value": "5", "cells": ["R1C3"]}]}, "field 'cells' is not read"),
    ({"xsum": [{"cell": "R8C3", "value": "5"}]}, "`xsum` entry 1: its clue R8C3 is not just outside the 6x6 grid"),
    ({"skyscraper": "3"}, "`skyscraper` must be a list of clues"),
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
    ("zip=R1C1,R1C2", "zipper line 1 \\(R1C1\\) has 2 cells: a zipper line has 3 or more"),
    ("da=R1C1,R1C2,R1C1", "double arrow 1 \\(R1C1\\) names a cell twice"),
    ("btw=R1C1,R1C2,R1C3:2", "a between line has no value after `:`"),
    ("lo=R1C1,R1C2,R1C3:0", "asks its ends to differ by 0"),
    ("ci=R5C1", "R5C1 is outside the 4x4 grid"),
    ("rsl=R1C1,R1C1", "region-sum line from R1C1 names a cell twice"),
    ("sw=R0C1", "`sw=` gives its clue's cell, `:`, then its clue"),
    ("sw=R5C5:3", "its clue R5C5 is at a corner"),
    ("sw=R0C2:-1", "its clue '-1' is not a whole number"),
    ("xs=R0C2", "`xs=` gives its clue's cell, `:`, then its clue"),
    ("sky=R0C0:2", "its clue R0C0 is at a corner"),
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
    ("zip=R1C1,R2C2,R1C3", None),  # 1 + 3 = 4 in the middle
    ("zip=R1C1,R1C2,R1C3", "zipper line 1 (R1C1): its pairs around its middle sum to 4, its middle holds 2"),
    ("zip=R1C1,R1C2,R2C2,R2C1", "its pairs around its middle sum to 4, 6, not one total"),
    ("zip=R1C1,R1C2,R2C1,R2C2", None),  # 1 + 4 = 2 + 3
    ("da=R1C1,R1C2,R1C3,R1C4", None),  # 1 + 4 = 2 + 3
    ("da=R1C1,R1C2,R1C3", "double arrow 1 (R1C1): its ends sum to 4, the cells between them to 2"),
    ("btw=R1C1,R1C2,R1C3,R1C4", None),
    ("btw=R1C4,R1C3,R2C2,R3C1", "between line 1 (R1C4): its ends hold 4 and 2; out of place between them: 4"),
    ("lo=R1C1,R1C2,R1C3", "lockout line 1 (R1C1): its ends hold 1 and 3; out of place between them: 2"),
    ("lo=R1C1,R2C2,R3C3", "its ends hold 1 and 4; out of place between them: 4"),
    ("lo=R2C2,R1C1,R1C2", None),  # 4 and 2: 1 is outside 2..4
    ("lo=R2C2,R1C1,R1C2:3", "lockout line 1 (R2C2): its ends hold 4 and 2, less than 3 apart"),
    ("rsl=R1C1,R1C2,R1C3", None),  # 1 + 2 in box 1, 3 in box 2
    ("rsl=R1C2,R1C3", "region-sum line 1 (R1C2): its segments in the regions sum to 2, 3"),
    ("rsl=R1C2,R1C1,R2C1", None),  # within box 1: no rule
    ("sw=R0C1:5", None),  # 1 3 2 4 down column 1
    ("sw=R2C0:5", "sandwich 1 (5 at R2C0): the values between its 1 and its 4 sum to 0"),
    ("sw=R5C3:0", None),  # 2 4 1 3 up column 3: neighbours
    ("sw=R2C5:2", "sandwich 1 (2 at R2C5): the values between its 1 and its 4 sum to 0"),
    ("xs=R0C3:8", None),  # 3 1 4 2 down column 3: the first 3 sum to 8
    ("xs=R3C0:4", "X-sum 1 (4 at R3C0): its first values, as many as the first says, sum to 3"),
    ("xs=R4C5:1", None),  # 1 2 3 4 from the right of row 4: the first 1 sum to 1
    ("sky=R1C0:4", None),  # 1 2 3 4: every building seen
    ("sky=R1C5:4", "skyscraper 1 (4 at R1C5): the buildings seen from it: 1"),
    ("sky=R0C2:2", None),  # 2 4 1 3 down column 2
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


OTHER_4 = "1234341223414123"  # where SOLUTION_4 keeps every indexer, this breaks some


@pytest.mark.parametrize(("words", "says"), [
    ("ci=R1C1,R2C1,R2C2", None),  # R2C1's 3 names R2C3, which holds 1 (column 1)
    ("ci=R3C1", "R3C1 holds 2, a column indexer: the row's cell 2, R3C2, should hold 1, not 3"),
    ("ri=R1C1,R2C1", None),  # R2C1's 3 names R3C1, which holds 2 (row 2)
    ("ri=R1C2", "R1C2 holds 2, a row indexer: the column's cell 2, R2C2, should hold 1, not 4"),
    ("bi=R1C1,R2C3", None),
    ("bi=R3C2", "R3C2 holds 3, a box indexer: the region's cell 3, R4C1, should hold 2, not 4"),
])
def test_the_check_finds_each_broken_indexer_as_its_definition_does(words: str, says: str | None) -> None:
    grid = Grid.parse(OTHER_4 + ";" + words)
    found = grid.conflicts()
    assert bool(found) == any(breaks(grid.layout, grid.values, c) for c in range(16)) == (says is not None), found
    if says is not None:
        assert any(says in message for message in found), found


def test_a_region_sum_line_that_leaves_a_region_and_comes_back_has_a_segment_each_time() -> None:
    lay = Grid.parse("." * 16 + ";r=1112122233343444;rsl=R1C1,R2C2,R1C3,R1C4").layout
    assert [c.segments() for c in lay.constraints] == [[(0,), (5,), (2,), (3,)]]  # type: ignore[attr-defined]
    assert lay.constraints[0].drawing(4) == (Shape("line", (0, 5, 2, 3), "region-sum line"),)


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
                                  "littlekiller", "columnindexer", "regionsumline", "zipperline", "doublearrow",
                                  "betweenline", "lockout", "sandwich", "xsum", "skyscraper", "difference+negative",
                                  "xv+negative"])
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
        if "negative" in kind:  # every pair of neighbours the solution relates carries its dot, and no other
            [solution] = solutions(grid, 2)
            dotted = {tuple(sorted(c.cells)) for c in grid.layout.constraints if c.KIND != "negative"}
            related = {(a, b) for a in range(36) for b in (a + 1, a + 6) if b < 36 and (b != a + 1 or b % 6)
                       and (abs(solution[a] - solution[b]) == 1 if kind.startswith("difference")
                            else solution[a] + solution[b] in (5, 10))}
            assert dotted == related


def test_the_empty_grids_hold_each_kind() -> None:
    kinds = {c.KIND for text in EMPTY.values() for c in Grid.parse(text).layout.constraints}
    assert set(OURS) <= kinds
