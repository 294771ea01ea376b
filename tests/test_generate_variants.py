"""Making puzzles of the Sudoku family: Jigsaw regions drawn by the walk (n connected regions of n cells, with a
solution, the same for a seed), full grids and every kind of puzzle on each variant, checked against CP-SAT and
cell by cell, and `sudoku-generate --variant` end to end."""
from __future__ import annotations

import csv
import json
import random
import re

import pytest
from fixtures import count_by_cpsat

from commands.generate import build_parser, main, order_of, settings_of
from comparison.core.settings import Settings
from comparison.programs.hard_search import Search
from making.certify import SolutionCertifier, solutions
from making.kinds import KINDS, minimal_puzzle
from making.minimal import givens_of, is_minimal
from making.shrink import smallest_forms
from making.singles import naked_solve, singles_solve
from making.solutions import random_solution
from making.variants import random_regions, variant
from puzzles import Grid
from puzzles.constraints.base import adjacent, connected
from puzzles.formats import read_puzzles
from puzzles.layouts import BOX_SHAPE, PuzzleError, boxes, named


def pieces(cells: list[int], side: int) -> int:
    """How many pieces the cells fall into, neighbours sharing an edge (counted by flood fill)."""
    left, count = set(cells), 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            r, c = divmod(todo.pop(), side)
            for other in (r * side + c - 1 if c else -1, r * side + c + 1 if c < side - 1 else -1,
                          (r - 1) * side + c, (r + 1) * side + c):
                if other in left:
                    left.remove(other)
                    todo.append(other)
    return count


def test_connected_says_one_piece_as_the_flood_fill_counts():
    """The walk's (and the Killer cages') check, against the count of pieces above, on random sets of cells."""
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        side = rng.choice([3, 4, 5, 6, 9])
        cells = rng.sample(range(side * side), rng.randint(1, side * side))
        whole = connected(set(cells), adjacent(side))
        assert whole == (pieces(cells, side) == 1), (side, sorted(cells))
        seen[whole] += 1
    assert min(seen.values()) > 300  # both answers met often


@pytest.mark.parametrize("side", [4, 5, 6, 7, 8, 9, 12, pytest.param(16, marks=pytest.mark.slow)])
def test_jigsaw_regions_are_n_connected_regions_of_n_cells_and_the_same_for_a_seed(side):
    regions = random_regions(side, random.Random(side))
    for region in range(side):
        cells = [c for c in range(side * side) if regions[c] == region]
        assert len(cells) == side and pieces(cells, side) == 1
    assert regions == random_regions(side, random.Random(side))
    assert regions != random_regions(side, random.Random(side + 100))
    start = boxes(side).regions if side in BOX_SHAPE else tuple(c // side for c in range(side * side))
    assert sum(a != b for a, b in zip(regions, start, strict=True)) > side * side // 4  # far from where it began


@pytest.mark.slow
@pytest.mark.parametrize("name, side", [("jigsaw", 6), ("jigsaw", 9), ("jigsaw", 7), ("jigsaw+x", 9)])
def test_a_jigsaw_layout_drawn_has_a_solution_and_regions_that_are_not_boxes(name, side):
    made = variant(name, side)
    for seed in range(3):
        lay = made.layout(random.Random(seed))
        assert lay.variant == name and lay.box_height == 0 and lay.side == side
        assert len(solutions(Grid(lay, bytes(side * side)), 1)) == 1
        assert made.layout(random.Random(seed)) is lay  # the same seed, the same layout (one object each)


@pytest.mark.parametrize("name, side, message", [
    ("hyper", 9, "unknown variant 'hyper'"),
    ("windoku", 16, "windoku's extra regions are defined on 9x9 grids"),
    ("x+disjoint", 6, "x+disjoint has no solution at 6x6"),
    ("x", 5, "a 5x5 grid has no boxes"),
    ("x", 25, "x puzzles are made from 4x4 to 16x16, not 25x25"),
    ("jigsaw", 17, "jigsaw puzzles are made from 4x4 to 16x16, not 17x17"),
    ("jigsaw+disjoint", 9, "disjoint groups need box regions"),
])
def test_a_variant_without_puzzles_at_a_size_is_refused_by_name(name, side, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        variant(name, side)


def test_variant_names_are_read_as_the_layouts_name_them():
    assert variant("X+Jigsaw", 9).name == "jigsaw+x"
    assert variant("diagonal+", 9).name == "diagonal+"
    assert variant("diagonal+ +diagonal-".replace(" ", ""), 9).name == "x"
    assert variant("classic", 6).label == "6x6" and variant("windoku", 9).label == "windoku 9x9"
    assert variant("jigsaw", 9).tag == "jigsaw-9x9"
    assert named("diagonal++windoku", 9).variant == "diagonal++windoku"


@pytest.mark.parametrize("name, side", [("jigsaw", 6), ("jigsaw", 9), ("x", 4), ("x", 9), ("windoku", 9),
                                        ("disjoint", 6), ("diagonal-", 8), ("x", 16),
                                        pytest.param("jigsaw", 16, marks=pytest.mark.slow)])
def test_a_random_full_grid_keeps_every_house(name, side):
    made = variant(name, side)
    rng = random.Random(1)
    grid = random_solution(made.layout(rng), rng)
    assert 0 not in grid.values
    for unit, cells in zip(grid.geometry.unit_names, grid.geometry.units, strict=True):
        assert sorted(grid.values[c] for c in cells) == list(range(1, side + 1)), unit
    again = random.Random(1)
    assert random_solution(made.layout(again), again) == grid


@pytest.mark.slow
@pytest.mark.parametrize("name, side, seed", [("jigsaw", 6, 1), ("x", 6, 2), ("windoku", 9, 3), ("jigsaw", 9, 4),
                                              ("x", 9, 5), ("jigsaw+x", 6, 6)])
def test_a_minimal_variant_puzzle_is_unique_and_needs_every_clue(name, side, seed):
    rng = random.Random(seed)
    made = minimal_puzzle(variant(name, side).layout(rng), rng)
    assert made.puzzle.layout.variant == name
    assert made.puzzle.solution_problems(made.solution) == []
    assert is_minimal(made.puzzle, count_by_cpsat)  # the slow obvious check, by another solver


def test_a_jigsaw_certifier_has_a_solver_of_its_own():
    rng = random.Random(2)
    lay = variant("jigsaw", 6).layout(rng)
    solution = random_solution(lay, rng)
    with SolutionCertifier(solution) as certifier:
        assert certifier.own and certifier.unique(list(range(36))) and not certifier.unique([])
    with SolutionCertifier(random_solution(named("x", 6), rng)) as kept:
        assert not kept.own


@pytest.mark.parametrize("name, side", [("jigsaw", 6), ("x", 9), ("windoku", 9), ("antiknight", 6), ("thermometer", 6)])
def test_every_kind_is_what_it_says_on_a_variant(name, side):
    made = variant(name, side)
    rng = random.Random(7)
    for kind in KINDS.values():
        grid = kind.make(made.layout(rng), rng)
        assert grid.layout.variant == name and grid.side == side, kind.name
        count = count_by_cpsat(grid)
        if kind.name in ("singles", "naked", "unique", "minimal", "hard"):
            assert count == 1, kind.name
        elif kind.name == "several":
            assert count == 2
        elif kind.name == "unsat":
            assert count == 0
        elif kind.name == "near-empty":
            assert len(givens_of(grid)) <= side
        else:
            assert side * side - side <= len(givens_of(grid)) < side * side and count >= 1
        if kind.name == "singles":
            assert singles_solve(grid)
        if kind.name == "naked":
            assert naked_solve(grid)


def test_the_smallest_forms_of_a_variant_puzzle_keep_its_layout_and_use_its_symmetries():
    x = Grid(named("x", 4), bytes(15) + b"\x03")  # a 3 in the last cell: a half turn moves it to the first
    forms = smallest_forms(x)
    assert all(f.layout is x.layout for f in forms)
    assert forms[0].values == b"\x01" + bytes(15)
    jigsaw = variant("jigsaw", 6).layout(random.Random(3))
    lone = Grid(jigsaw, bytes(35) + b"\x04")
    assert [f.values for f in smallest_forms(lone)] == [bytes(35) + b"\x01"]  # relabelled only: no symmetry


@pytest.mark.slow
def test_generate_variant_lines_read_back_as_the_same_variant(tmp_path):
    out = tmp_path / "jigsaw.txt"
    assert main(["--variant", "jigsaw", "--count", "3", "--seed", "1", "--output", str(out)]) == 0
    entries = list(read_puzzles(out))
    assert [e.name for e in entries] == [f"generated-jigsaw-9x9-seed1-{i}" for i in (1, 2, 3)]
    layouts = {e.grid.layout for e in entries}
    assert len(layouts) == 3 and all(lay.variant == "jigsaw" for lay in layouts)  # regions of its own each
    for entry in entries:
        assert singles_solve(entry.grid) and count_by_cpsat(entry.grid) == 1
    again = tmp_path / "again.txt"
    assert main(["--variant", "jigsaw", "--count", "3", "--seed", "1", "--output", str(again)]) == 0
    assert again.read_text() == out.read_text()


def test_generate_minimal_variant_puzzles_as_fpuzzles_json_lines(tmp_path):
    out = tmp_path / "x6.jsonl"
    assert main(["--variant", "x", "--side", "6", "--minimal", "--count", "2", "--seed", "2",
                 "--output", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    for line, entry in zip(lines, read_puzzles(out), strict=True):
        found = json.loads(line)
        assert found["size"] == 6 and found["diagonal+"] and found["diagonal-"]
        assert entry.grid.layout is named("x", 6)
        assert is_minimal(entry.grid, count_by_cpsat)
    table = tmp_path / "jigsaw.csv"
    assert main(["--variant", "jigsaw", "--side", "7", "--minimal", "--seed", "3", "--output", str(table)]) == 0
    [row] = list(csv.DictReader(table.open()))
    assert row["name"] == "minimal-jigsaw-7x7-seed3-1" and ";r=" in row["puzzle"]
    assert count_by_cpsat(Grid.parse(row["puzzle"])) == 1


@pytest.mark.parametrize("argv, message", [
    (["--variant", "hyper"], "--variant hyper at 9x9: unknown variant 'hyper'"),
    (["--variant", "windoku", "--box", "4"], "windoku's extra regions are defined on 9x9 grids"),
    (["--side", "7"], "a 7x7 grid has no boxes"),
    (["--box", "3", "--side", "9"], "give --box or --side, not both"),
])
def test_generate_refuses_a_variant_it_cannot_make(capsys, argv, message):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2 and message in capsys.readouterr().err


def test_the_hard_search_on_a_jigsaw_keeps_each_puzzle_on_its_own_layout():
    settings = Settings(methods=["mrv:propagate=singles"], timeout=5, jobs=1)
    search = Search(settings, variant("jigsaw", 6), 2, random.Random(1), pool_size=3)
    for _ in range(2):  # fresh puzzles, each on regions of its own; then moves, on their parents' layouts
        search.round(3)
    assert search.tried == 6 and len(search.pool) == 3
    for candidate in search.pool:
        assert candidate.puzzle.layout.variant == "jigsaw" and candidate.solution.layout is candidate.puzzle.layout
        assert candidate.puzzle.solution_problems(candidate.solution) == []
        assert is_minimal(candidate.puzzle, lambda g: len(solutions(g, 2)))


def test_the_generators_settings_are_read_once_each_of_its_own_type():
    """sudoku-generate turns its flags into typed records once: the variant a Variant at its side, --hard-for's
    search its own record (HardFor) with --easy-for's method after it; --minimal's record has none."""
    parser = build_parser()
    asked = settings_of(parser.parse_args(["--variant", "jigsaw", "--side", "6", "--count", "2", "--seed", "3"]),
                        parser)
    assert asked.variant == variant("jigsaw", 6) and (asked.count, asked.seed, asked.rule) == (2, 3, "singles")
    order = order_of(parser.parse_args(["--hard-for", "mrv", "--easy-for", "cdcl", "--box", "2", "--start", "a.txt",
                                        "--minutes", "0.5"]), variant("classic", 4))
    assert order.hard_for is not None and order.hard_for.specs == ["mrv", "cdcl"]
    assert order.hard_for.start == ("a.txt",) and order.hard_for.minutes == 0.5
    assert order.hard_for.settings.methods == ["mrv", "cdcl"] and order.hard_for.settings.command is None
    assert order_of(parser.parse_args(["--minimal"]), variant("classic", 9)).hard_for is None
