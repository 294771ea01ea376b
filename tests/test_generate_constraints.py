"""Making puzzles with constraints (puzzles/constraints/): each kind's random instances drawn over a full grid,
the variants that carry them (alone, with Jigsaw, with Killer), and what the generator and the fuzzer make of them,
checked by the brute force of tests/constraint_grids.py on 6x6 and by CP-SAT on 9x9: unique, minimal (each given
removed leaves several solutions), their solution keeping every rule, and rule-minimal puzzles that need their
constraints."""
from __future__ import annotations

import functools
import itertools
import random
import re

import constraint_grids
import pytest
from fixtures import count_by_cpsat

from commands.generate import main
from making.kinds import KILLER_KINDS, minimal_puzzle, rule_minimal, without_constraints
from making.minimal import givens_of, is_minimal
from making.solutions import random_solution
from making.variants import variant
from puzzles import Grid
from puzzles.constraints import CONSTRAINT_KINDS, Thermometer
from puzzles.constraints.killer import cages_in
from puzzles.formats import read_puzzles
from puzzles.layouts import PuzzleError, boxes, named

GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"  # a classic solution


def brute(grid: Grid) -> int:
    """0, 1 or 2 (two or more) solutions, by the brute force that states each rule from its definition."""
    return constraint_grids.count(grid, 2)


@pytest.mark.parametrize("seed", range(4))
def test_thermometers_drawn_rise_along_king_adjacent_cells_of_the_grid(seed):
    values = Grid.parse(GRID).values
    drawn = Thermometer.drawn(values, 9, random.Random(seed))
    assert drawn and drawn == Thermometer.drawn(values, 9, random.Random(seed))
    cells = [c for t in drawn for c in t.cells]  # type: ignore[attr-defined]
    assert len(cells) == len(set(cells))  # none shares a cell
    for t in drawn:
        line = t.cells  # type: ignore[attr-defined]
        assert 2 <= len(line) <= 9 and all(values[a] < values[b] for a, b in itertools.pairwise(line))
        assert all(max(abs(a // 9 - b // 9), abs(a % 9 - b % 9)) == 1 for a, b in itertools.pairwise(line))


def test_a_rule_of_the_whole_grid_is_drawn_where_the_grid_keeps_it():
    rng = random.Random(1)
    for name, kind in CONSTRAINT_KINDS.items():
        if kind.GLOBAL:
            lay = named(name, 6)
            for grid in (random_solution(lay, rng), random_solution(boxes(6), rng)):
                kept = not any(constraint_grids.breaks(lay, grid.values, c) for c in range(36))
                assert kind.drawn(grid.values, 6, rng) == ([kind()] if kept else []), name
                assert kept or grid.layout is boxes(6)  # a solution of the rule's layout keeps it


@pytest.mark.parametrize("name, canonical", [("thermometer", "thermometer"), ("Thermometer+AntiKnight",
                         "antiknight+thermometer"), ("jigsaw+thermometer", "jigsaw+thermometer"),
                         ("antiknight+killer", "killer+antiknight"), ("killer+thermometer", "killer+thermometer")])
def test_variants_with_constraints_are_named_as_their_layouts_name_them(name, canonical):
    made = variant(name, 9)
    assert made.name == canonical and made.constrained
    lay = made.layout(random.Random(2))
    # a Killer's cages come later
    assert lay.variant == canonical.replace("killer+", "") and not cages_in(lay.constraints)


@pytest.mark.parametrize("name, side, message", [
    ("x+antiknight", 6, "x+antiknight has no solution at 6x6"),
    ("thermometer", 25, "thermometer puzzles are made from 4x4 to 16x16, not 25x25"),
    ("jigsaw+boxindexer", 6, "boxindexer puzzles are drawn on the side's boxes, not on Jigsaw regions"),
    ("antiknight+hyper", 9, "unknown variant 'hyper'"),
])
def test_a_variant_with_constraints_that_has_no_puzzles_is_refused(name, side, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        variant(name, side)


KINDS_6 = ["antiknight", "antiking", "nonconsecutive", "thermometer", "jigsaw+thermometer", "antiknight+thermometer"]


@pytest.mark.parametrize("name", KINDS_6)
def test_a_minimal_6x6_puzzle_keeps_its_rules_is_unique_and_needs_every_given(name):
    rng = random.Random(3)
    made = minimal_puzzle(variant(name, 6).layout(rng), rng)
    puzzle = made.puzzle
    assert puzzle.layout.variant == name and puzzle.layout.constraints
    assert brute(made.solution) == 1 and made.solution.conflicts() == []  # a full grid that keeps every rule
    assert puzzle.solution_problems(made.solution) == []
    assert is_minimal(puzzle, brute)


@pytest.mark.parametrize("name", ["antiknight", "thermometer"])
def test_a_rule_minimal_puzzle_needs_its_constraints(name):
    rng = random.Random(4)
    puzzle = rule_minimal(variant(name, 6).layout(rng), rng)
    assert brute(puzzle) == 1 and is_minimal(puzzle, brute)
    assert brute(Grid(without_constraints(puzzle.layout), puzzle.values)) == 2
    with pytest.raises(PuzzleError, match="it has none"):
        rule_minimal(boxes(6), rng)


@pytest.mark.parametrize("name", [*(pytest.param(name, marks=pytest.mark.slow) for name in
                                    ("antiknight", "antiking", "nonconsecutive")), "thermometer", "jigsaw+thermometer"])
def test_a_minimal_9x9_puzzle_keeps_its_rules_is_unique_and_needs_every_given(name):
    rng = random.Random(5)
    made = minimal_puzzle(variant(name, 9).layout(rng), rng)
    assert made.puzzle.layout.variant == name and made.solution.conflicts() == []
    # by CP-SAT, not the SAT certifier that made it; its boolean model, which takes a third of the integer one's time
    # on non-consecutive puzzles (docs/results/constraints.md)
    assert is_minimal(made.puzzle, functools.partial(count_by_cpsat, model="boolean"))


@pytest.mark.parametrize("name", ["killer+antiknight", pytest.param("killer+thermometer", marks=pytest.mark.slow)])
def test_a_cage_minimal_killer_keeps_its_constraints_and_is_unique(name):
    rng = random.Random(6)
    made = variant(name, 6)
    puzzle = KILLER_KINDS["killer-minimal"].make(made.layout(rng), rng)
    assert puzzle.layout.variant == name and cages_in(puzzle.layout.constraints) and puzzle.layout.constraints
    assert brute(puzzle) == 1
    [solution] = constraint_grids.solutions(puzzle)
    assert puzzle.with_values(solution).conflicts() == []


@pytest.mark.slow
def test_generate_minimal_puzzles_with_constraints_read_back_unique_and_minimal(tmp_path):
    for name in ("antiknight", "jigsaw+thermometer", "killer+antiknight"):
        out = tmp_path / f"{name}.txt"
        assert main(["--variant", name, "--side", "6", "--minimal", "--count", "2", "--seed", "1",
                     "--output", str(out)]) == 0
        entries = list(read_puzzles(out))
        assert len(entries) == 2
        for entry in entries:
            grid = entry.grid
            assert grid.layout.variant == name and entry.name.startswith("minimal-")
            if cages_in(grid.layout.constraints):
                assert brute(grid) == 1
            else:
                assert is_minimal(grid, brute) and givens_of(grid)
