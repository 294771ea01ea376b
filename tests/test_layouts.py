"""Layouts: the houses of classic Sudoku and of the Sudoku family, checked against their plain definitions."""
from __future__ import annotations

import json
import pickle
import random

import pytest

from puzzles import Grid, PuzzleError, geometry, random_isomorph
from puzzles.formats import is_puzzle_text, read_lines
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, object_of_link, puzzle_of
from puzzles.isomorph import group_of, symmetries
from puzzles.layouts import boxes, classic, family, layout, layout_of_words, named, words_of_layout
from search import SOLVERS

# a 6x6 Jigsaw: six connected regions of six cells, row by row
JIGSAW6 = (0, 0, 0, 1, 1, 1,
           0, 0, 2, 2, 1, 1,
           0, 3, 2, 2, 2, 1,
           3, 3, 3, 4, 2, 5,
           3, 4, 4, 4, 5, 5,
           3, 4, 4, 5, 5, 5)
# a valid solution of that Jigsaw (found by CP-SAT, checked below by the plain definition)
JIGSAW6_SOLUTION = "165423" "346251" "231546" "512634" "423165" "654312"


def same_house_plainly(kind: str, n: int, a: int, b: int) -> bool:
    """Whether two cells share a house, from each variant's definition in words."""
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    box = round(n ** 0.5)
    if ra == rb or ca == cb or (ra // box == rb // box and ca // box == cb // box):
        return True
    if kind == "x":
        return (ra == ca and rb == cb) or (ra + ca == n - 1 and rb + cb == n - 1)
    if kind == "windoku":  # the four 3x3 windows with corners at (1, 1), (1, 5), (5, 1), (5, 5)
        def window(r: int, c: int) -> tuple[int, int] | None:
            wr = next((t for t in (1, 5) if t <= r < t + 3), None)
            wc = next((t for t in (1, 5) if t <= c < t + 3), None)
            return None if wr is None or wc is None else (wr, wc)
        return window(ra, ca) is not None and window(ra, ca) == window(rb, cb)
    if kind == "disjoint":
        return (ra % box, ca % box) == (rb % box, cb % box)
    return False


@pytest.mark.parametrize("kind", ["x", "windoku", "disjoint"])
def test_peers_of_each_variant_match_its_definition(kind):
    geo = geometry(named(kind, 9))
    for cell in range(81):
        expected = {o for o in range(81) if o != cell and same_house_plainly(kind, 9, cell, o)}
        assert set(geo.peers[cell]) == expected, cell
    for unit in geo.units:
        assert len(set(unit)) == 9


def test_a_cell_may_lie_in_five_houses():
    geo = geometry(named("x", 9))
    centre = 4 * 9 + 4
    assert [geo.unit_names[u] for u in geo.units_of(centre)] == ["row 5", "column 5", "box 5", "diagonal +",
                                                                  "diagonal -"]
    assert geo.extra_of[0] == (geo.unit_names.index("diagonal -"),) and geo.extra_of[1] == ()


def test_rectangular_boxes_are_as_f_puzzles_draws_them():
    for side, (height, width) in {6: (2, 3), 8: (2, 4), 10: (2, 5), 12: (3, 4)}.items():
        lay = boxes(side)
        assert (lay.box_height, lay.box_width, lay.box, lay.variant) == (height, width, 0, "classic")
        geo = geometry(lay)
        for cell in range(side * side):
            r, c = divmod(cell, side)
            region = geo.units[geo.region_of[cell]]
            assert {divmod(o, side)[0] // height for o in region} == {r // height}
            assert {divmod(o, side)[1] // width for o in region} == {c // width}
    assert Grid.parse("." * 36).pretty().splitlines()[2] == "-------+-------"


def test_layouts_are_one_object_each_and_survive_pickling():
    assert family(6, JIGSAW6) is family(6, list(JIGSAW6)) is layout(6, JIGSAW6)
    assert named("x", 9) is family(9, None, "-+")
    grid = Grid.parse("." * 36 + ";r=" + "".join(str(r + 1) for r in JIGSAW6) + ";x")
    copy = pickle.loads(pickle.dumps(grid))
    assert copy == grid and copy.layout is grid.layout


@pytest.mark.parametrize("regions, message", [
    ((0,) * 36, "region 1 has 36 cells, not 6"),
    (JIGSAW6[:35], "a region map of a 6x6 grid has 36 entries, not 35"),
    ((*JIGSAW6[:35], 9), "R6C6 is in region 10: a 6x6 grid has regions 1 to 6"),
])
def test_bad_regions_are_clear_errors(regions, message):
    with pytest.raises(PuzzleError, match=message):
        layout(6, regions)


def test_bad_houses_are_clear_errors():
    with pytest.raises(PuzzleError, match="side 3 is not supported"):
        layout(3, (0,) * 9)
    with pytest.raises(PuzzleError, match="extra region 1 has 3 distinct cells: a house has 9"):
        family(9, None, "", [[0, 1, 2]])
    with pytest.raises(PuzzleError, match="a 7x7 grid has no boxes"):
        boxes(7)
    with pytest.raises(PuzzleError, match="unknown variant 'hyper'"):
        named("hyper", 9)
    with pytest.raises(PuzzleError, match="windoku's extra regions are defined on 9x9"):
        named("windoku", 16)


@pytest.mark.parametrize("lay", [classic(3), boxes(6), named("x", 9), named("windoku", 9), named("disjoint", 9),
                                 named("diagonal-", 4), family(6, JIGSAW6, "+-"),
                                 family(9, None, "", [[0, 1, 2, 9, 10, 11, 18, 19, 20], list(range(1, 10))])])
def test_the_line_form_and_f_puzzles_round_trip(lay):
    rng = random.Random(lay.side)
    n = lay.side
    diagonal = Grid(lay, bytes(c // (n + 1) + 1 if c % (n + 1) == 0 else 0 for c in range(n * n)))  # 1..n
    grid = diagonal.with_values([v if rng.random() < 0.7 else 0 for v in diagonal.values])
    assert Grid.parse(grid.text()) == grid
    assert (grid.text() == grid.line()) == (lay is boxes(lay.side))
    assert layout_of_words(words_of_layout(lay), lay.side ** 2) is lay if words_of_layout(lay) else True
    read, _, _ = puzzle_of(object_of(grid))
    assert read == grid
    assert puzzle_of(object_of_link(link_of(object_of(grid))))[0] == grid


def test_overlapping_extra_regions_take_a_word_each():
    lay = family(9, None, "", [list(range(9)), [0, 1, 2, 9, 10, 11, 18, 19, 20]])  # row 1 and box 1 again
    assert words_of_layout(lay).count("e=") == 2
    assert layout_of_words(words_of_layout(lay), 81) is lay


@pytest.mark.parametrize("words, message", [
    ("q", "unknown word 'q' after the puzzle"),
    ("r=" + "1" * 35 + ".", "`r=` gives every cell a region"),
    ("e=123", "`e=` maps 36 cells of a 6x6 grid, not 3"),
    ("r=" + "7" * 36, "'7' at R1C1 is not 1 to 6"),
])
def test_bad_words_are_clear_errors(words, message):
    with pytest.raises(PuzzleError, match=message):
        Grid.parse("." * 36 + ";" + words)


def test_a_variant_line_is_a_puzzle_on_the_command_line_and_in_a_file():
    text = "." * 81 + ";x"
    assert is_puzzle_text(text) and not is_puzzle_text("." * 80 + ";x!")
    entries = list(read_lines([f"{text} an empty X", "." * 36], "here"))
    assert [(e.grid.layout.variant, e.name, e.grid.side) for e in entries] == [("x", "an empty X", 9),
                                                                               ("classic", "", 6)]


def test_conflicts_and_solutions_are_checked_in_the_puzzles_own_houses():
    x = Grid(named("x", 4), bytes([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]))
    assert x.conflicts() == ["two 1s in diagonal -"]
    jigsaw = Grid(family(6, JIGSAW6), bytes(36))
    solution = Grid.parse(JIGSAW6_SOLUTION)  # read as 6x6 with boxes: the jigsaw's regions are not those
    assert jigsaw.solution_problems(solution) == []
    assert Grid(boxes(6), bytes(36)).solution_problems(solution) != []  # not a solution of the boxed 6x6


def test_f_puzzles_jigsaw_and_extra_regions_are_read():
    rows = [[{"region": JIGSAW6[r * 6 + c]} for c in range(6)] for r in range(6)]
    rows[0][0].update(value=2, given=True)
    grid, _, title = puzzle_of({"size": 6, "grid": rows, "diagonal+": True, "title": "j"})
    assert grid.layout is family(6, JIGSAW6, "+") and grid.values[0] == 2 and title == "j"
    with pytest.raises(FPuzzlesError, match="extra region 1: R10C1 is outside the 9x9 grid"):
        puzzle_of({"size": 9, "grid": [[{}] * 9] * 9, "extraregion": [{"cells": ["R10C1"] * 9}]})
    with pytest.raises(FPuzzlesError, match="extra region 1 has 2 cells: the project reads extra regions of 9"):
        puzzle_of({"size": 9, "grid": [[{}] * 9] * 9, "extraregion": [{"cells": ["R1C1", "R1C2"]}]})
    with pytest.raises(FPuzzlesError, match="a 7x7 grid has no boxes: its cells must give their regions"):
        puzzle_of({"size": 7, "grid": [[{}] * 7] * 7})
    assert json.loads(json.dumps(object_of(grid)))["grid"][0][0] == {"value": 2, "given": True, "region": 0}


def test_isomorphs_keep_the_variants_houses():
    rng = random.Random(5)
    assert len(symmetries(named("x", 9))) == len(symmetries(named("windoku", 9))) == 8
    assert len(symmetries(family(6, JIGSAW6))) == 1
    assert group_of(family(6, JIGSAW6)) == "relabelling only"
    jigsaw = Grid(family(6, JIGSAW6), Grid.parse(JIGSAW6_SOLUTION).values)
    for _ in range(5):
        moved = random_isomorph(jigsaw, rng)
        assert moved.layout is jigsaw.layout and moved.conflicts() == [] and moved.is_full()
    solution = next(iter(pattern_x_solutions()))
    for _ in range(10):
        moved = random_isomorph(solution, rng)
        assert moved.conflicts() == [] and moved.layout is solution.layout


def pattern_x_solutions() -> list[Grid]:
    """A full 4x4 X grid, by brute force over the 4! first rows (the plain definition, no solver)."""
    import itertools

    lay = named("x", 4)
    for rows in itertools.product(itertools.permutations(range(1, 5)), repeat=4):
        grid = Grid(lay, bytes(v for row in rows for v in row))
        if not grid.conflicts():
            return [grid]
    return []


def test_rectangular_boxes_keep_band_and_stack_moves_without_transposition():
    from formulations import SOLVERS
    from puzzles import Budget
    from puzzles.isomorph import Isomorph

    lay = boxes(6)
    solution = SOLVERS["cpsat"](Grid(lay, bytes(36)), Budget()).solution
    assert solution is not None
    rng = random.Random(3)
    moves = [Isomorph.draw(lay, rng) for _ in range(20)]
    assert not any(m.transpose for m in moves)
    assert len({m.rows for m in moves}) > 1 and all(sorted(m.rows[:2]) in ([0, 1], [2, 3], [4, 5]) for m in moves)
    for m in moves:
        moved = m.apply(solution)
        assert moved.conflicts() == [] and moved.layout is lay
    assert group_of(lay) == "relabelling, band, stack, row and column swaps"
    assert group_of(classic(3)).endswith("transposition")


def test_regions_in_pieces_are_read_written_and_solved():
    # a 5x5 whose regions are its broken diagonals (each in pieces), as f-puzzles' readers allow
    regions = "".join(str((r + c) % 5 + 1) for r in range(5) for c in range(5))
    solution = "".join(str((r + 2 * c) % 5 + 1) for r in range(5) for c in range(5))
    puzzle = Grid.parse(solution[:12] + "." * 13 + ";r=" + regions)
    assert Grid.parse(solution + ";r=" + regions).conflicts() == []
    assert Grid.parse(puzzle.text()) == puzzle and puzzle_of(object_of(puzzle))[0] == puzzle
    found = SOLVERS["mrv"](puzzle, solutions=2)
    assert found.solution is not None and found.solution.line() == solution and found.unique is True
