"""True candidates (making/candidates.py, `sudoku-check --candidates`) against enumeration: on small grids, each
cell's true candidates are exactly the values it holds in the brute force's solutions (tests/constraint_grids.py,
which knows nothing of the project's links or encodings), for puzzles with 0, 1, 2 and many solutions, of houses
alone, a Killer, anti-knight and thermometers."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from constraint_grids import count, solutions, unique_puzzle
from headless import running_browser

import compare
from commands import check
from making.candidates import true_candidates
from puzzles import SYMBOLS, Grid

SOLUTION_6 = "316245542613253164164352421536635421"  # a 6x6 solution, whose dominoes' sums make a Killer
EMPTY = {  # an empty grid of each kind, its layout in its words
    "houses-4": "." * 16,
    "houses-6": "." * 36,
    "killer-4": "." * 16 + ";k=aabbccbdeffdefgg:3,8,7,5,6,8,3",
    "killer-6": "." * 36 + ";k=" + "".join(2 * chr(ord("a") + i) for i in range(18)) + ":" + ",".join(
        str(int(a) + int(b)) for a, b in zip(SOLUTION_6[::2], SOLUTION_6[1::2], strict=True)),  # dominoes, row-wise
    "antiknight-4": "." * 16 + ";antiknight",
    "antiknight-6": "." * 36 + ";antiknight",
    "thermometer-4": "." * 16 + ";th=R1C1,R2C2,R3C3;th=R4C1,R3C1",
    "thermometer-6": "." * 36 + ";th=R1C1,R1C2,R2C3,R3C3;th=R6C6,R5C6,R4C5",
}


def union(grid: Grid) -> tuple[int, ...]:
    """Each cell's values over every solution the brute force finds, as masks."""
    masks = [0] * len(grid.values)
    for solution in solutions(grid):
        for cell, value in enumerate(solution):
            masks[cell] |= 1 << (value - 1)
    return tuple(masks)


def with_solutions(name: str, wanted: int) -> Grid | None:
    """A puzzle of the kind with exactly `wanted` solutions (0, 1, 2) or many (3: more than two): the brute force's
    unique puzzle; for none, a value that clashes with no given put in an empty cell where the solution has
    another; else the first of its givens, one, two or three taken away, that leaves that many. None when there is
    no such puzzle (a Killer whose cages alone make it unique has no given to take away)."""
    unique, solution = unique_puzzle(EMPTY[name], 1)
    if wanted == 1:
        return unique
    if wanted == 0:
        for cell in (c for c, v in enumerate(unique.values) if not v):
            for value in range(1, unique.side + 1):
                values = list(unique.values)
                values[cell] = value
                wrong = unique.with_values(values)
                if value != solution.values[cell] and not wrong.conflicts():
                    return wrong
        return None
    givens = [c for c, v in enumerate(unique.values) if v]
    for size in (1, 2, 3):
        for taken in itertools.combinations(givens, size):
            grid = unique.with_values([0 if c in taken else v for c, v in enumerate(unique.values)])
            if min(count(grid, 3), 3) == wanted:
                return grid
    for seed in range(30):  # the solution's values put in one by one, in random orders, until few solutions are left
        values = [0] * len(solution.values)
        for cell in random.Random(seed).sample(range(len(values)), len(values)):
            values[cell] = solution.values[cell]
            found = min(count(solution.with_values(values), 3), 3)
            if found == wanted:
                return solution.with_values(values)
            if found < wanted:
                break
    return None


# the 4x4 Killer's cages alone make it unique: it has no given to take away, and its solution's values put in
# leave one solution from the start (killer-6 has puzzles of every count)
NONE_SUCH = {("killer-4", 2), ("killer-4", 3)}
CASES = [(name, wanted) for name in EMPTY for wanted in (0, 1, 2, 3) if (name, wanted) not in NONE_SUCH]


@pytest.mark.parametrize(("name", "wanted"), CASES, ids=[f"{n}-{w if w < 3 else 'many'}" for n, w in CASES])
def test_true_candidates_are_the_values_of_every_solution(name: str, wanted: int) -> None:
    grid = with_solutions(name, wanted)
    assert grid is not None
    found = true_candidates(grid)
    expected = union(grid)
    assert found.gave_up is None and found.masks == expected, name
    assert found.solvable is (wanted > 0) and found.unique is (wanted == 1)
    assert found.undecided == (0,) * len(grid.values)
    for cell, value in enumerate(grid.values):  # a given is its cell's one candidate, when there is a solution
        if value and wanted:
            assert found.values(cell) == [value]
    if wanted:  # each value in no solution refuted by a solve of its own; no solve of a puzzle without one
        assert found.refuted == sum(grid.side - bin(m).count("1") for m in expected) < found.solves
    else:
        assert (found.solves, found.refuted) == (1, 0)


def test_the_cases_left_out_have_no_puzzle() -> None:
    assert all(with_solutions(name, wanted) is None for name, wanted in NONE_SUCH)


def test_a_spent_budget_gives_up_keeping_what_it_found_true() -> None:
    grid = with_solutions("houses-6", 3)
    assert grid is not None
    expected = union(grid)
    found = true_candidates(grid, propagations=60)
    assert found.gave_up is not None and "gave up after" in found.gave_up and found.unique is False
    for mask, undecided, truth in zip(found.masks, found.undecided, expected, strict=True):
        assert mask & ~truth == 0  # what it found true is true
        assert truth & ~(mask | undecided) == 0  # what it refuted is in no solution
    assert any(found.undecided)


def grids_printed(text: str, side: int) -> list[list[str]]:
    """Each pencil-mark grid of sudoku-check's output, as its cells' fields."""
    grids, rows = [], []
    for line in text.splitlines():
        if re.fullmatch(r"[-+]+", line):
            continue
        fields = line.replace("|", " ").split()
        if len(fields) == side and all(re.fullmatch(r"[0-9A-Z]+\??", f) for f in fields) and ":" not in line:
            rows.append(fields)
            if len(rows) == side:
                grids.append([f for row in rows for f in row])
                rows = []
        else:
            rows = []
    return grids


def test_sudoku_check_prints_the_pencil_marks_the_brute_force_finds(tmp_path: Path, capsys) -> None:
    puzzles = [g for g in (with_solutions("houses-4", w) for w in (0, 1, 2, 3)) if g is not None]
    path = tmp_path / "small.txt"
    path.write_text("".join(g.text() + "\n" for g in puzzles))
    assert check.main([str(path), "--candidates"]) == 0
    out = capsys.readouterr().out
    assert f"{path}:1: true candidates: none, no solution" in out
    assert f"{path}:2: true candidates: one solution, every cell settled" in out
    assert re.search(rf"{re.escape(str(path))}:3: true candidates: several solutions, \d+ of 16 cells settled", out)
    printed = grids_printed(out, 4)
    assert len(printed) == 3  # none for the puzzle without a solution
    for grid, fields in zip(puzzles[1:], printed, strict=True):
        assert fields == ["".join(SYMBOLS[v - 1] for v in range(1, 5) if m >> (v - 1) & 1) for m in union(grid)]
    assert "true candidates: 1 no solution, 1 unique, 2 several solutions" in out


def test_sudoku_check_gives_up_past_its_budget_and_says_how_to_go_on(tmp_path: Path, capsys) -> None:
    path = tmp_path / "one.txt"
    path.write_text("." * 81 + "\n")
    assert check.main([str(path), "--candidates", "--candidates-budget", "50"]) == 0
    out = capsys.readouterr().out
    assert "gave up after 1 SAT solve:" in out and "raise --candidates-budget" in out
    assert "true candidates: 1 gave up" in out and grids_printed(out, 9) == []  # no solution found: no grid
    assert check.main([str(path), "--candidates", "--candidates-budget", "2000"]) == 0
    out = capsys.readouterr().out
    [fields] = grids_printed(out, 9)  # a solution found, more undecided: its values and a mark, each cell
    assert all(field.endswith("?") and len(field) >= 2 for field in fields)


# -- compare.py --candidates: the records, the report and the page ----------------------------------------------
def marks_text(masks: tuple[int, ...], side: int) -> list[str]:
    return ["".join(SYMBOLS[v - 1] for v in range(1, side + 1) if m >> (v - 1) & 1) for m in masks]


@pytest.fixture(scope="module")
def candidates_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Grid], list[dict[str, Any]], str]:
    """compare.py --candidates on 4x4 puzzles (of houses alone, and thermometers) with none, one, two and many
    solutions, with its page."""
    folder = tmp_path_factory.mktemp("candidates")
    puzzles = [g for g in (with_solutions(n, w) for n in ("houses-4", "thermometer-4") for w in (0, 1, 2, 3))
               if g is not None]
    path, records, page = folder / "small.txt", folder / "r.jsonl", folder / "report.html"
    path.write_text("".join(g.text() + "\n" for g in puzzles))
    real = importlib.util.find_spec  # the page's plots drawn without matplotlib: the same page, a second sooner
    with contextlib.redirect_stdout(io.StringIO()) as out, pytest.MonkeyPatch.context() as patch:
        patch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "matplotlib" else
                      real(name, *args))
        code = compare.main([str(path), "--candidates", "--solver", "mrv", "--solver", "backtracking", "--jobs", "1",
                             "--no-certify",
                             "--output", str(records), "--html", str(page)])
    assert code == 0, out.getvalue()
    return page, puzzles, [json.loads(line) for line in records.read_text().splitlines()], out.getvalue()


def test_compare_records_the_true_candidates_the_brute_force_finds(candidates_run) -> None:
    _, puzzles, records, out = candidates_run
    assert len(records) == 2 * len(puzzles)
    for record in records:
        grid = puzzles[record["line"] - 1]
        assert record["candidates"].split(",") == marks_text(union(grid), grid.side), record["line"]
    kinds = [min(count(g, 3), 2) for g in puzzles]
    words = {0: "no solution", 1: "unique", 2: "several solutions"}
    said = ", ".join(f"{kinds.count(k):,} {words[k]}" for k in (1, 2, 0))
    assert f"True candidates (by SAT): {said.replace(' unique', ' puzzles unique', 1)}" in out


def test_the_page_draws_the_pencil_marks_of_puzzles_with_several_solutions(candidates_run) -> None:
    page, puzzles, _, _ = candidates_run
    html = page.read_text(encoding="utf-8")
    drawn = re.findall(r'<div class="puzzle" data-candidates="([^"]*)"><h4>[^:]*:(\d+)', html)
    several = [i for i, g in enumerate(puzzles) if count(g, 3) > 1]
    assert [int(line) - 1 for _, line in drawn] == several
    for marks, line in drawn:
        grid = puzzles[int(line) - 1]
        assert marks.split(",") == marks_text(union(grid), grid.side)


@pytest.mark.browser
@pytest.mark.slow
def test_the_pencil_marks_show_in_a_browser(candidates_run, tmp_path: Path) -> None:
    page, puzzles, _, _ = candidates_run
    browser = running_browser(tmp_path)
    opened = browser.open(page, tmp_path)
    assert opened.console == [], opened.console
    section = opened.dom[opened.dom.index('<section id="candidates">'):]
    section = section[:section.index("</section>")]
    tables = re.findall(r'<table class="grid n(\d+)[^"]*marks"[^>]*>(.*?)</table>', section)
    several = [g for g in puzzles if count(g, 3) > 1]
    assert len(tables) == len(several)
    for (side, body), grid in zip(tables, several, strict=True):
        cells = re.findall(r'<td class="(\w+)[^"]*"[^>]*>(?:<svg.*?</svg>)*([^<]*)</td>', body)
        assert len(cells) == int(side) ** 2
        for (kind, shown), value, marks in zip(cells, grid.values, marks_text(union(grid), grid.side), strict=True):
            assert (kind, shown) == (("given", SYMBOLS[value - 1]) if value else ("marked", marks))
