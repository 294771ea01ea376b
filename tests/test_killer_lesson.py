"""The Killer lesson (docs/guides/killer-lesson.md): the two bugs Killer models have shipped with, planted in a
solver of your own (examples/python/killer_cpsat.py --bug boxes|cages) and in-process (tests/planted.py's
killer-boxes and killer-cages), and the puzzles that show them.

OR-Tools' Killer example posts AllDifferent on the boxes of `range(2)` bands and `range(2)` stacks. On a 9x9 grid
that is harmless, and the first test proves it: rows and columns force the other five boxes (a band's three rows
hold each value three times, two boxes of it once each, so the third once too). The same loops on an 8x8 grid
(boxes 2 rows by 4 columns, four bands) leave the two lower bands without their boxes, and there it bites. The
other bug, sums alone inside the cages, bites on 9x9 wherever a cage crosses houses.

Each stored puzzle is checked here with CP-SAT models written for the test (not trusting its comment): one
solution with all rules, another once the rule the bug drops is gone.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import planted
import pytest
from ortools.sat.python import cp_model

import compare
from puzzles import Grid
from puzzles.constraints.killer import cages_in
from puzzles.fpuzzles import json_line

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "python" / "killer_cpsat.py"

# 8x8 Killers (no givens) that need the boxes of the two lower bands. Found by a search (2026-11-27): a random
# full 8x8 grid S; by CP-SAT the nearest grid A that keeps rows, columns and the four upper boxes but breaks a
# lower box (4 cells differ); each row's changed cells in one cage (a row segment: the same sum in S and A), the
# rest cut into random cages of 3 to 5 cells; kept when all rules leave S alone and the buggy example answered
# wrong. Checked below: unique with all rules, another solution without the lower boxes.
BOXES_8 = [
    "................................................................;k=occckpppollikhhpfliikhhsffqiduggjjjdddrgejma"
    "aarnemmbbbnneemtttnn:12,13,11,20,21,11,17,17,21,17,8,17,19,19,7,20,5,3,6,16,8",
    "................................................................;k=kkklvoeerrlllooerudjqhggdddjjhggfpppthngfcwa"
    "aannfccbbbnsmmciiiis:12,13,23,22,14,14,28,18,22,12,6,22,8,11,15,15,1,12,5,3,4,5,3",
]

# 9x9 Killers that need the no-repeat rule inside their one cage (an L of three cells across two boxes). Found by
# a search (2026-11-27): a random full grid S; by CP-SAT the nearest valid grid A whose L holds a value twice with
# the same sum; A's other changes and S's other cells given; then givens taken away at random while all rules
# leave S alone, kept where the buggy example answered wrong. Checked below the same way.
CAGES_9 = [
    ".1......27...81.39..23...716...38.2.2.85..3.41..4.7...8..6.....5.7.1.2.33.9.52186;k="
    ".......................aa........a...............................................:16",
    ".4...2....8.47..92.1..6354.42.536971.51987....392...5.86.7.1...1743...8..9.6..71.;k="
    "..................................................aa........a....................:14",
    ".796.832446823.7...3..7.86..46.8..9..9.....8.85.9.7.42384591.769157264..627.4395.;k="
    "....................aa........a..................................................:6",
]


def lower_boxes(grid: Grid) -> set[int]:
    """The boxes the `range(2)` loops leave out, as unit indices (planted.py's own rule for killer-boxes)."""
    return planted.beyond_two_bands_and_stacks(grid)


def solutions(grid: Grid, *, dropped: frozenset[int] = frozenset(), cage_distinct: bool = True,
              unlike: Grid | None = None) -> Grid | None:
    """A solution by CP-SAT of the puzzle's rules less the units `dropped` (and the no-repeat rule inside cages
    unless `cage_distinct`), differing from `unlike` somewhere when given; None when there is none."""
    model = cp_model.CpModel()
    n = grid.side
    x = [model.new_int_var(1, n, "") for _ in range(n * n)]
    for i, unit in enumerate(grid.geometry.units):
        if i not in dropped:
            model.add_all_different([x[c] for c in unit])
    for cage in cages_in(grid.layout.constraints):
        if cage.total is not None:
            model.add(sum(x[c] for c in cage.cells) == cage.total)
        if cage_distinct:
            model.add_all_different([x[c] for c in cage.cells])
    for cell, value in enumerate(grid.values):
        if value:
            model.add(x[cell] == value)
    if unlike is not None:
        differs = [model.new_bool_var("") for _ in range(n * n)]
        for cell, flag in enumerate(differs):
            model.add(x[cell] != unlike.values[cell]).only_enforce_if(flag)
        model.add_bool_or(differs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 60
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE), solver.status_name(status)
    return None if status == cp_model.INFEASIBLE else grid.with_values(bytes(solver.value(v) for v in x))


@pytest.mark.slow
def test_four_of_nine_boxes_force_the_other_five():
    """Rows, columns and boxes 1, 2, 4, 5 of a 9x9 grid leave no room for a value missing from any other box: the
    bug of OR-Tools' example cannot change an answer on 9x9. On 8x8 the same loops leave room."""
    for side, expected in ((9, False), (8, True)):
        grid = Grid.parse("." * side * side)
        geo, dropped = grid.geometry, lower_boxes(grid)
        assert len(dropped) == (5 if side == 9 else 4)
        for box in sorted(dropped):
            model = cp_model.CpModel()
            x = [model.new_int_var(1, side, "") for _ in range(geo.cells)]
            for i, unit in enumerate(geo.units):
                if i not in dropped:
                    model.add_all_different([x[c] for c in unit])
            missing = [model.new_bool_var("") for _ in range(side)]  # value v + 1 nowhere in the box
            for v, flag in enumerate(missing):
                for c in geo.units[box]:
                    model.add(x[c] != v + 1).only_enforce_if(flag)
            model.add_bool_or(missing)
            status = cp_model.CpSolver().solve(model)
            assert status != cp_model.UNKNOWN
            assert (status != cp_model.INFEASIBLE) == expected, (side, geo.unit_names[box])


@pytest.mark.parametrize("line, bug", [(line, "boxes") for line in BOXES_8] + [(line, "cages") for line in CAGES_9])
def test_each_stored_puzzle_needs_the_rule_its_bug_drops(line, bug):
    grid = Grid.parse(line)
    assert grid.layout.variant == "killer"
    solution = solutions(grid)
    assert solution is not None and grid.solution_problems(solution) == []
    assert solutions(grid, unlike=solution) is None  # unique with all rules
    dropped = frozenset(lower_boxes(grid)) if bug == "boxes" else frozenset()
    other = solutions(grid, dropped=dropped, cage_distinct=bug != "cages", unlike=solution)
    assert other is not None  # another once the rule is gone, wrong only there
    problems = grid.solution_problems(other)
    names = {grid.geometry.unit_names[u] for u in dropped}
    assert problems and all(p.endswith(tuple(names)) if bug == "boxes" else " cage " in p for p in problems)


def answers(lines: list[str], *bug: str) -> list[list[str]]:
    """The example program's answers to the puzzles, each as the problems compare.py's check finds in it."""
    grids = [Grid.parse(line) for line in lines]
    run = subprocess.run([sys.executable, str(EXAMPLE), *bug], input="".join(json_line(g) + "\n" for g in grids),
                         capture_output=True, text=True, check=True, timeout=120)
    out = run.stdout.splitlines()
    assert len(out) == len(grids)
    found = []
    for grid, answer in zip(grids, out, strict=True):
        symbols, *counters = answer.split()
        assert all(c.split("=")[0] in ("branches", "conflicts") for c in counters)
        found.append(grid.solution_problems(grid.with_values(Grid.parse(symbols).values)))
    return found


@pytest.mark.slow
def test_the_example_solver_is_right_and_its_planted_bugs_answer_wrong():
    assert answers(BOXES_8 + CAGES_9) == [[] for _ in BOXES_8 + CAGES_9]
    boxes = answers(BOXES_8, "--bug", "boxes")
    lower = tuple(f"box {k}" for k in range(5, 9))  # 8x8: the boxes of the two lower bands
    assert any(boxes) and all(p.endswith(lower) for a in boxes for p in a)
    assert answers(CAGES_9, "--bug", "boxes") == [[] for _ in CAGES_9]  # 9x9: the four boxes force the rest
    cages = answers(CAGES_9, "--bug", "cages")
    assert any(cages) and all(" in cage " in p for a in cages for p in a)


def test_the_planted_killer_solvers():
    for name, lines, harmless in (("killer-boxes", BOXES_8, CAGES_9), ("killer-cages", CAGES_9, ())):
        method = planted.SOLVERS[name]
        wrong = [Grid.parse(line).solution_problems(method(Grid.parse(line)).solution) for line in lines]
        assert any(wrong), name
        for line in harmless:
            grid = Grid.parse(line)
            assert grid.solution_problems(method(grid).solution) == []


@pytest.mark.slow
def test_compare_reports_the_buggy_programs_invalid_answers(tmp_path, capsys):
    """compare.py checks every answer against the puzzle's houses and cages: the buggy program's wrong answers are
    invalid (exit 1), the right program's are not (exit 0)."""
    path = tmp_path / "killers.txt"
    path.write_text("".join(f"{line} boxes-{i}\n" for i, line in enumerate(BOXES_8, 1)) +
                    "".join(f"{line} cage-{i}\n" for i, line in enumerate(CAGES_9, 1)))
    for bug, wrong in (("--bug boxes", "in box "), ("--bug cages", "in cage "), ("", None)):
        command = f"mine:input=fpuzzles={sys.executable} {EXAMPLE} {bug}".strip()
        assert compare.main([str(path), "--solver", "mine", "--solver", "cpsat", "--command", command,
                             "--jobs", "1", "--timeout", "120"]) == (0 if wrong is None else 1), bug
        out = capsys.readouterr().out
        listed = [line for line in out.splitlines() if ": mine: " in line]  # the invalid answers, one a line
        if wrong is None:
            assert "INVALID" not in out and not listed
        else:
            assert "INVALID answers (a bug in the method)" in out
            assert listed and all(wrong in line for line in listed), out


def test_the_guides_puzzle_file_holds_the_stored_puzzles():
    """examples/killer-lesson.txt, the file the guide runs compare.py on, is these puzzles (checked above)."""
    lines = [line.split()[0] for line in (ROOT / "examples" / "killer-lesson.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines == BOXES_8 + CAGES_9


def test_the_guides_code_is_the_examples():
    """The model the guide shows is an excerpt of examples/python/killer_cpsat.py, word for word."""
    page = (ROOT / "docs" / "guides" / "killer-lesson.md").read_text()
    shown = page.split("```python\n")[1].split("```")[0]
    assert shown in EXAMPLE.read_text()
