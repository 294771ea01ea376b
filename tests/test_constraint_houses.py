"""The extra houses as kinds of constraint (puzzles/constraints/diagonal.py, extra_region.py, disjoint.py): each
adds houses that the geometry makes units of, each reads and writes its own words, fields and variant name part,
and every method knows them. The houses are checked against cells worked out here from rows and columns."""
from __future__ import annotations

import pytest

from puzzles import Grid, PuzzleError, geometry
from puzzles.constraints import CONSTRAINT_KINDS, HOUSED, SEARCHED, names
from puzzles.fpuzzles import object_of, puzzle_of
from puzzles.layouts import family, layout_of_words, named, words_of_layout
from puzzles.outcome import Status
from search import SOLVERS


def diagonal_cells(side: int, sign: str) -> set[int]:
    return {r * side + c for r in range(side) for c in range(side) if (c == r if sign == "-" else r + c == side - 1)}


def test_the_houses_kinds_add_houses_and_the_others_none() -> None:
    assert HOUSED and HOUSED <= SEARCHED
    for kind in CONSTRAINT_KINDS.values():
        assert (kind.KIND in HOUSED) == bool(kind.HOUSE)


@pytest.mark.parametrize("side", [4, 6, 9])
def test_a_layouts_houses_are_its_constraints_houses_and_the_geometrys_units(side: int) -> None:
    lay = named("x+disjoint", side)
    units = {frozenset(unit) for unit in geometry(lay).units}
    assert {frozenset(h.cells) for h in lay.extras} <= units
    assert [frozenset(h.cells) for h in lay.extras[:2]] == [frozenset(diagonal_cells(side, s)) for s in "+-"]
    height, width = lay.box_height, lay.box_width
    groups = {frozenset(c for c in range(side * side) if (c // side % height, c % side % width) == place)
              for place in {(r, c) for r in range(height) for c in range(width)}}
    assert {frozenset(h.cells) for h in lay.extras[2:]} == groups
    assert len(geometry(lay).units) == 3 * side + 2 + side
    assert lay.constraints == () and lay.rules and all(rule.KIND in HOUSED for rule in lay.rules)


WINDOKU = "e=" + "." * 9 + ".111.222." * 3 + "." * 9 + ".333.444." * 3 + "." * 9


@pytest.mark.parametrize("words", ["x", "d+", "d-", "dg", "x;dg", "d-;antiknight", WINDOKU, "x;" + WINDOKU,
                                   "e=" + "1" * 9 + "." * 72 + ";e=" + "." * 2 + "1" * 9 + "." * 70])
def test_each_kind_reads_back_what_it_writes(words: str) -> None:
    lay = layout_of_words(words, 81)
    assert layout_of_words(words_of_layout(lay), 81) is lay
    if "extra-regions" not in lay.variant:  # (a name no layout is read from: its regions are its own)
        assert named(lay.variant, 9) is lay
    grid = Grid(lay, bytes(81))
    assert puzzle_of(object_of(grid))[0].layout is lay


def test_the_diagonals_are_held_plus_first_whatever_order_they_are_given_in() -> None:
    assert layout_of_words("d-;d+", 81) is named("x", 9) is family(9, None, "-+")
    assert [h.name for h in named("x", 9).extras] == ["diagonal +", "diagonal -"]
    assert words_of_layout(named("x", 9)) == "x" and named("diagonal-", 9).variant == "diagonal-"


def test_a_house_twice_and_disjoint_groups_without_boxes_are_refused() -> None:
    region = [0, 1, 2, 9, 10, 11, 18, 19, 20]
    with pytest.raises(PuzzleError, match="extra region 2 is extra region 1 again"):
        family(9, None, "", [region, region])
    with pytest.raises(PuzzleError, match="extra region 1 has 3 distinct cells"):
        family(9, None, "", [region[:3]])
    with pytest.raises(PuzzleError, match="disjoint groups need box regions"):
        layout_of_words("r=1112132233423444;dg", 16)  # a 4x4 Jigsaw


def test_isomorphs_move_a_diagonal_onto_the_other_by_a_reflection() -> None:
    plus, minus = named("x", 9).rules
    assert minus.moved(lambda c: c) == minus
    assert minus.moved(lambda c: c // 9 * 9 + 8 - c % 9) == plus  # each row reversed
    assert plus.moved(lambda c: c % 9 * 9 + c // 9) == plus  # transposed
    [groups] = named("disjoint", 9).rules
    assert groups.moved(lambda c: 80 - c) == groups  # turned half a turn: each group onto another


def keeps_x(values: bytes, side: int, box: int) -> bool:
    """Whether a full grid keeps Sudoku-X's rules, its houses worked out here."""
    houses = [{r * side + c for c in range(side)} for r in range(side)]
    houses += [{r * side + c for r in range(side)} for c in range(side)]
    houses += [{(r0 + r) * side + c0 + c for r in range(box) for c in range(box)}
               for r0 in range(0, side, box) for c0 in range(0, side, box)]
    houses += [diagonal_cells(side, s) for s in "+-"]
    return all(sorted(values[c] for c in house) == list(range(1, side + 1)) for house in houses)


@pytest.mark.parametrize("method", ["backtracking", "mrv", "restart", "cdcl"])
def test_every_search_knows_the_houses_and_keeps_them(method: str) -> None:
    """No search names a house kind; each solves an empty X grid, and its answer keeps the diagonals."""
    grid = Grid(named("x", 9), bytes(81))
    outcome = SOLVERS[method].solve(grid)
    assert outcome.status is Status.SOLVED and outcome.solution is not None
    assert keeps_x(outcome.solution.values, 9, 3)
    assert names(grid.layout.rules, 9) == ["diagonal +", "diagonal -"]
