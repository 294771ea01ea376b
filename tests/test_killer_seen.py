"""Killer cages seen and carried: the page's drawn grids and its player draw them (a dashed outline inset along
each cage's boundary, the total in its first cell), the trace names and draws them, an `input=fpuzzles` program
receives them and a `line` or `matrix` one is not run on them, and the example f-puzzles solver honours them.

The outline is checked against a slow obvious definition (the cage's cells eroded by a square of the inset's
size: every point of the outline lies exactly that far from the nearest cell outside the cage), the example
solver against a brute force over every 4x4 grid, the example puzzles' uniqueness by a CP-SAT model of their
own here, and the page in headless Chromium (skipped where there is none).
"""
from __future__ import annotations

import importlib.util
import itertools
import json
import random
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from types import ModuleType

import pytest
from headless import WHERE_CELLS_LIE, Browser, choices_beyond_houses, first, running_browser
from hypothesis import given, settings
from hypothesis import strategies as st

import compare
from comparison.execution.external import Command, External, puzzle_text
from comparison.report.page.houses import INSET, cage_levels, cage_marks, cage_outline, cell_pieces, legend
from comparison.report.page.html import grid_html
from comparison.report.page.player import houses
from puzzles import Grid, Status
from puzzles.constraints.killer import Cage, cages_in
from puzzles.fpuzzles import json_line, object_of_json, puzzle_of
from puzzles.layouts import boxes, family
from search.trace.view import drawn, outline, outline_groups

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "killer.jsonl"
EXAMPLE_SOLVER = ROOT / "examples" / "python" / "fpuzzles_solver.py"

# A 4x4 Killer cut from the solution 1234/3412/2143/4321, unique (test_the_4x4_killer_is_unique):
#     a a b b      a 1+2 = 3      b 3+4+1 = 8
#     c c b d      c 3+4 = 7      d 2+3 = 5
#     e f f d      e 2+4 = 6      f 1+4+3 = 8
#     e f g g      g 2+1 = 3
KILLER4_SOLUTION = "1234341221434321"
KILLER4 = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3"
# A cage over others: cage 8 (r1c1, r2c2: 1 and 4, no total) overlaps cages 1 and 3: a second k= word
OVERLAPPING4 = KILLER4 + ";k=a....a..........:-"


# -- the outline, against its definition -------------------------------------------------------------------
def distance_outside(x: float, y: float, cells: set[int], n: int) -> float:
    """How far (x, y) lies from the nearest point outside the cage, in the square (Chebyshev) measure: from each
    cell not in it, and from the grid's edge."""
    best = min(x, y, n - x, n - y)
    for cell in range(n * n):
        if cell not in cells:
            r, c = divmod(cell, n)
            dx, dy = max(c - x, 0.0, x - c - 1), max(r - y, 0.0, y - r - 1)
            best = min(best, max(dx, dy))
    return best


cage_cells = st.integers(4, 6).flatmap(
    lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n * n - 1), min_size=1, max_size=n)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(cage_cells, st.sampled_from([INSET, 2 * INSET]))
def test_a_cages_outline_is_its_cells_eroded_by_the_inset(case, inset):
    """Every point of every segment lies exactly `inset` from the nearest point outside the cage; the segments
    close into loops (each end meets exactly one other); and every side of a cage cell that borders the outside
    has the outline running along it, `inset` in."""
    n, cells = case
    segments = cage_outline(sorted(cells), n, inset)
    for x1, y1, x2, y2 in segments:
        assert x1 == x2 or y1 == y2  # horizontal or vertical
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            assert distance_outside(x, y, cells, n) == pytest.approx(inset)
    ends = [(round(x, 9), round(y, 9)) for x1, y1, x2, y2 in segments for x, y in ((x1, y1), (x2, y2))]
    assert all(ends.count(end) == 2 for end in ends)
    for cell in cells:
        r, c = divmod(cell, n)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n and rr * n + cc in cells:
                continue
            mx = c + 0.5 if dc == 0 else (c + inset if dc < 0 else c + 1 - inset)
            my = r + 0.5 if dr == 0 else (r + inset if dr < 0 else r + 1 - inset)
            assert any(min(x1, x2) - 1e-9 <= mx <= max(x1, x2) + 1e-9 and min(y1, y2) - 1e-9 <= my <= max(y1, y2)
                       + 1e-9 for x1, y1, x2, y2 in segments), (cell, dr, dc)


def test_a_lone_cell_and_a_corner_turning_in():
    assert cage_outline([0], 4) == [(INSET, INSET, 1 - INSET, INSET), (INSET, 1 - INSET, 1 - INSET, 1 - INSET),
                                    (INSET, INSET, INSET, 1 - INSET), (1 - INSET, INSET, 1 - INSET, 1 - INSET)]
    # r1c1 r1c2 r2c1: the corner at r2c2 turns in; r1c2's lower side and r2c1's right side meet inside r1c1
    segments = cage_outline([0, 1, 4], 4)
    assert (1 - INSET, 1 - INSET, 2 - INSET, 1 - INSET) in segments
    assert (1 - INSET, 1 - INSET, 1 - INSET, 2 - INSET) in segments
    # cut at the cells' edges: the piece of r1c2's lower side inside r1c1, in r1c1's own units
    pieces = cell_pieces((1 - INSET, 1 - INSET, 2 - INSET, 1 - INSET))
    assert [(r, c) for r, c, _ in pieces] == [(0, 0), (0, 1)]
    assert pieces[0][2] == pytest.approx((1 - INSET, 1 - INSET, 1.0, 1 - INSET))
    assert pieces[1][2] == pytest.approx((0.0, 1 - INSET, 1 - INSET, 1 - INSET))


def test_overlapping_cages_are_drawn_a_level_apart():
    cages = [Cage((0, 1)), Cage((5, 6)), Cage((0, 5)), Cage((2, 3)), Cage((1, 2))]
    assert cage_levels(cages) == [0, 0, 1, 0, 1]
    lay = Grid.parse(OVERLAPPING4).layout
    assert len(cages_in(lay.constraints)) == 8 and cage_levels(cages_in(lay.constraints)) == [0] * 7 + [1]
    marks = cage_marks(lay)
    assert f"{2 * INSET:.2f}".rstrip("0") in marks[0].path  # r1c1 holds the deeper outline too
    assert marks[0].names == "cage 1 (3), cage 8"


def test_each_cells_share_of_the_cages():
    lay = Grid.parse(KILLER4).layout
    marks = cage_marks(lay)
    assert all(mark.path for mark in marks)  # every cell is in a cage: every cell draws a piece
    firsts = {min(cage.cells): str(cage.total) for cage in cages_in(lay.constraints)}
    assert [mark.total for mark in marks] == [firsts.get(cell, "") for cell in range(16)]
    assert marks[6].names == "cage 2 (8)" and marks[7].names == "cage 4 (5)"
    assert legend(lay) == ("killer, 4x4: rows, columns, boxes (thick borders), 7 cages (dashed outlines, each "
                           "total in its first cell)")
    untotalled = Grid.parse("................;k=ab..............:-,-").layout
    assert [m.total for m in cage_marks(untotalled)[:2]] == ["", ""]  # the outline alone
    assert cage_marks(untotalled)[0].path and cage_marks(untotalled)[2].path == ""


# -- the drawn grid and the player's data ------------------------------------------------------------------
def test_a_killers_drawn_grid_has_its_outlines_totals_and_values():
    table = grid_html(KILLER4, KILLER4_SOLUTION, caption="the puzzle")
    cells = re.findall(r"<td ([^>]*)>(.*?)</td>", table)
    assert len(cells) == 16
    lay = Grid.parse(KILLER4).layout
    totals = {min(cage.cells): str(cage.total) for cage in cages_in(lay.constraints)}
    for cell, (attributes, inside) in enumerate(cells):
        total = re.search(r'data-total="(\d+)"', attributes)
        assert (total.group(1) if total else None) == totals.get(cell)
        assert re.fullmatch(r'<svg class="cage" [^>]*><path d="(M[-\d. ]+L[-\d. ]+)+"/></svg>\d', inside)
        assert re.sub(r"<[^>]+>", "", inside) == KILLER4_SOLUTION[cell]  # the value alone is the cell's text
    assert 'data-variant="killer"' in table and "7 cages" in table


def test_a_classic_grids_drawing_is_unchanged_and_holds_no_cage():
    table = grid_html("1..." * 4)
    assert "cage" not in table and "data-total" not in table
    assert "cages" not in houses(Grid.parse("1..." * 4))


def test_the_player_receives_each_cells_share():
    found = houses(Grid.parse(KILLER4))
    marks = cage_marks(Grid.parse(KILLER4).layout)
    assert found["cages"] == [[m.path, m.total, m.names] for m in marks]
    assert "7 cages" in found["legend"]


# -- the trace ---------------------------------------------------------------------------------------------
def test_the_trace_draws_the_cages_as_maps():
    text = drawn(Grid.parse(KILLER4))
    lines = text.splitlines()
    assert lines[:5] == Grid.parse("." * 16).pretty().splitlines()  # the boxes, as for a classic 4x4
    at = lines.index("and cages 1-7, each cell by its cage's letter:")
    assert lines[at + 1:at + 8] == [  # drawn by hand from the map above
        " a a|b b",
        " ---+ +-",
        " c c|b|d",
        " -+-+-+",
        " e|f f|d",
        "  | +-+-",
        " e|f|g g",
    ]
    assert lines[at + 8:] == ["a = cage 1 (3), b = cage 2 (8), c = cage 3 (7), d = cage 4 (5), e = cage 5 (6), "
                              "f = cage 6 (8)", "g = cage 7 (3)"]
    over = drawn(Grid.parse(OVERLAPPING4)).splitlines()
    at = over.index("and cage 8 (over those above), each cell by its cage's letter:")
    assert over[at + 1:at + 4] == [" a|. . .", " -+-+", " .|a|. ."]
    assert over[-1] == "a = cage 8"
    lay = Grid.parse(OVERLAPPING4).layout
    outlines = [(shape, "") for rule in lay.constraints if (shape := outline(rule, lay.side)) is not None]
    assert [len(g) for g in outline_groups(outlines)] == [7, 1]


def test_a_classic_or_jigsaw_drawing_is_unchanged():
    grid = Grid.parse("." * 81)
    assert drawn(grid) == grid.pretty()


def test_the_trace_command_draws_a_killer(tmp_path):
    done = subprocess.run([sys.executable, "-m", "commands.trace", KILLER4, "--max-steps", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    assert "and cages 1-7, each cell by its cage's letter:" in done.stdout
    assert "c = cage 3 (7)" in done.stdout


# -- external programs ---------------------------------------------------------------------------------
def test_an_fpuzzles_program_receives_the_cages():
    examples = [puzzle_of(object_of_json(line))[0].text() for line in EXAMPLES.read_text().splitlines()]
    for text in (KILLER4, OVERLAPPING4, *examples):
        grid = Grid.parse(text)
        sent = puzzle_text(grid, "fpuzzles")
        assert sent.endswith("\n") and "\n" not in sent[:-1]
        found = json.loads(sent)
        assert [entry.get("value") for entry in found["killercage"]] == \
            [None if cage.total is None else str(cage.total) for cage in cages_in(grid.layout.constraints)]
        read, solution, _ = puzzle_of(found)
        assert read == grid and solution is None
        assert cages_in(read.layout.constraints) == cages_in(grid.layout.constraints)
        assert Command("p", ("cat",), input="fpuzzles").refuses(grid) == ""


@pytest.mark.parametrize("form", ["line", "matrix"])
def test_a_line_or_matrix_program_is_not_run_on_a_killer(form):
    grid = Grid.parse(KILLER4)
    command = Command("p", ("false",), input=form)
    said_why = command.refuses(grid)
    assert said_why == (f"input={form} carries classic Sudoku (square boxes) only, not this 4x4 killer; "
                        "input=fpuzzles carries every house and cage")
    outcome = External(command)(grid)  # refused before anything runs: `false` would be an error
    assert outcome.status is Status.GAVE_UP and outcome.detail == f"not run: {said_why}"
    assert command.refuses(Grid.parse("." * 16)) == ""  # a classic 4x4 runs


# -- the example solver ------------------------------------------------------------------------------------
def example_solver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fpuzzles_solver", EXAMPLE_SOLVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def all_4x4() -> list[str]:
    """Every full 4x4 grid (288), by brute force over rows."""
    box = [r // 2 * 2 + c // 2 for r in range(4) for c in range(4)]
    grids = [""]
    for _ in range(4):  # row by row, none repeating a column's value above it
        grids = [grid + "".join(row) for grid in grids for row in itertools.permutations("1234")
                 if all(v not in grid[c::4] for c, v in enumerate(row))]
    found = [text for text in grids if all(len({text[r * 4 + c] for r in range(4)}) == 4 for c in range(4))
             and all(len({text[i] for i in range(16) if box[i] == b}) == 4 for b in range(4))]
    assert len(found) == 288
    return found


FULL_4X4 = all_4x4()


def killer_solutions(cages: list[Cage], givens: str = "." * 16) -> list[str]:
    return [g for g in FULL_4X4 if all(ch in ".0" or ch == g[i] for i, ch in enumerate(givens))
            and all(len({g[c] for c in cage.cells}) == len(cage.cells) and
                    (cage.total is None or sum(int(g[c]) for c in cage.cells) == cage.total) for cage in cages)]


def test_the_4x4_killer_is_unique():
    assert killer_solutions(list(cages_in(Grid.parse(KILLER4).layout.constraints))) == [KILLER4_SOLUTION]
    assert killer_solutions(list(cages_in(Grid.parse(OVERLAPPING4).layout.constraints))) == [KILLER4_SOLUTION]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_the_example_solver_against_brute_force_on_4x4_killers(seed):
    """Random cages (some without a total, some overlapping, some of cells that do not touch) over a random
    full grid, sometimes a total made wrong: the example finds a solution exactly when one exists, and it is
    one of them; it says unsat otherwise."""
    rng = random.Random(seed)
    solution = rng.choice(FULL_4X4)
    cages = []
    for _ in range(rng.randint(1, 7)):
        cells = tuple(sorted(rng.sample(range(16), rng.randint(1, 4))))
        if len({solution[c] for c in cells}) != len(cells):
            continue
        total = sum(int(solution[c]) for c in cells) if rng.random() < 0.8 else None
        if total is not None and rng.random() < 0.15:
            total = min(max(total + rng.choice((-1, 1)), len(cells) * (len(cells) + 1) // 2),
                        len(cells) * (9 - len(cells)) // 2)
        cages.append(Cage(cells, total))
    givens = "".join(ch if rng.random() < 0.15 else "." for ch in solution)
    grid = Grid(family(4, constraints=cages), bytes(0 if ch == "." else int(ch) for ch in givens))
    expected = killer_solutions(cages, givens)
    answer = example_solver().answer(json_line(grid)).split()[0]
    if expected:
        assert answer in expected
    else:
        assert answer == "unsat"


@pytest.mark.slow
def test_the_example_killers_are_unique_and_the_example_solves_them(capsys, tmp_path):
    """examples/killer.jsonl: each puzzle's cages, proved to leave one solution by a CP-SAT model of its own
    here; compare.py runs the example solver on them (input=fpuzzles) and mrv, every answer valid and the
    same."""
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    lines = EXAMPLES.read_text().splitlines()
    assert len(lines) >= 3
    for line in lines:
        grid, _, _ = puzzle_of(object_of_json(line))
        assert cages_in(grid.layout.constraints) and grid.layout.houses == boxes(grid.side)
        assert count_killer_solutions(cp_model, grid) == 1
    out_path = tmp_path / "records.jsonl"
    spec = f"mine:input=fpuzzles={sys.executable} {EXAMPLE_SOLVER}"
    code = compare.main([str(EXAMPLES), "--jobs", "1", "--output", str(out_path), "--command", spec,
                         "--solver", "mine", "--solver", "mrv", "--timeout", "60"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    mine = [r for r in records if r["method"] == "mine"]
    assert len(mine) == len(lines) and all(r["status"] == "solved" and r["valid"] is True for r in mine)
    others = [r for r in records if r["method"] == "mrv"]
    assert len(others) == len(lines) and all(r["status"] == "solved" and r["valid"] is True for r in others)
    assert [r["solution"] for r in others] == [r["solution"] for r in mine]


def count_killer_solutions(cp_model: ModuleType, grid: Grid, limit: int = 2) -> int:
    """Solutions of the grid's houses and cages, up to `limit`, by CP-SAT (all different, sums)."""
    model, n = cp_model.CpModel(), grid.side
    x = [model.NewIntVar(1, n, f"x{i}") for i in range(n * n)]
    for unit in grid.geometry.units:
        model.AddAllDifferent([x[c] for c in unit])
    for cage in cages_in(grid.layout.constraints):
        model.AddAllDifferent([x[c] for c in cage.cells])
        if cage.total is not None:
            model.Add(sum(x[c] for c in cage.cells) == cage.total)
    for cell, value in enumerate(grid.values):
        if value:
            model.Add(x[cell] == value)

    class Count(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1
            if self.found >= limit:
                self.StopSearch()

    solver, counted = cp_model.CpSolver(), Count()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.Solve(model, counted)
    return counted.found


# -- in a browser ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    return running_browser(tmp_path_factory.mktemp("probe"))


@pytest.fixture(scope="module")
def killers_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of compare.py on the example Killers with the example solver (and a command that cannot take
    them, so that each is drawn), the first one watched."""
    page = tmp_path_factory.mktemp("killers") / "report.html"
    spec = f"mine:input=fpuzzles={sys.executable} {EXAMPLE_SOLVER}"
    code = compare.main([str(EXAMPLES), "--jobs", "1", "--command", spec, "--command", classic_only(),
                         "--solver", "mine", "--solver", "mrv", "--solver", "classic",
                         "--timeout", "60", "--html", str(page), "--watch", "1"])
    assert code == 0
    return page


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_draws_the_cages_in_a_browser(browser, killers_page, tmp_path):
    """compare.py on the example Killers with the example solver, the first one watched: in the DOM once the
    scripts ran, each drawn grid and the player's board have every cage's total in its first cell and their
    outlines' pieces in their cells (those houses.py gives); a screenshot for the eye."""
    shot = tmp_path / "killer.png"
    opened = browser.open(killers_page, tmp_path, "only=puzzles,watch", 1200, 1600, shot=shot)
    assert opened.console == [], opened.console
    drawings = sorted(([m.total for m in marks], [m.path for m in marks]) for marks in (
        cage_marks(puzzle_of(object_of_json(line))[0].layout) for line in EXAMPLES.read_text().splitlines()))
    tables = re.findall(r'<table class="grid n\d+ variant" data-variant="killer".*?</table>', opened.dom, re.S)
    found = []
    for table in tables:  # each puzzle was not run by `classic`: each is drawn, in the order the run judged them
        cells = re.findall(r"<td ([^>]*)>(.*?)</td>", table)
        assert all(re.sub(r"<[^>]+>", "", inside) == "" for _, inside in cells)  # no givens: no text
        found.append(([first(r'data-total="(\d+)"', a) for a, _ in cells],
                      [first(r'<path d="([^"]*)"', inside) for _, inside in cells]))
    assert sorted(found) == drawings
    held = re.search(r'<div class="board"[^>]*>(.*?)<div class="side">', opened.dom, re.S)
    assert held is not None
    board = re.findall(r'<div class="c(?: [^"]*)?"([^>]*)>(.*?)(?=<div class="c[ "]|</div></div>)', held.group(1))
    watched = puzzle_of(object_of_json(EXAMPLES.read_text().splitlines()[0]))[0]
    marks = cage_marks(watched.layout)
    assert len(board) == 81
    assert [first(r'data-total="(\d+)"', a) for a, _ in board] == [m.total for m in marks]
    assert [first(r'title="r\d+c\d+: ([^"]*)"', a) for a, _ in board] == [m.names for m in marks]
    assert [first(r'<path d="([^"]*)"', inside) for _, inside in board] == [m.path for m in marks]
    assert shot.stat().st_size > 10_000


def test_the_reference_pages_killer_examples_are_these():
    """docs/reference/puzzle-files.md's Killer lines: the 4x4 above, with and without its overlapping cage, and its
    f-puzzles line as the project writes it."""
    page = (ROOT / "docs" / "reference" / "puzzle-files.md").read_text(encoding="utf-8").splitlines()
    named = dict(reversed(line.split()) for line in page if line.startswith("................;k="))
    assert named == {"killer-4": KILLER4, "killer-4-overlapping": OVERLAPPING4}
    assert Grid.parse(OVERLAPPING4).text() == OVERLAPPING4  # the words as the project writes them
    fpuzzles = [line for line in page if line.startswith('{"size":4') and "killercage" in line]
    assert fpuzzles == [json_line(Grid.parse(KILLER4), "killer-4")]




def pieces_of(path: str) -> list[tuple[float, float, float, float]]:
    """A cell's path data (houses.py: `M x1 y1 L x2 y2` a piece) as pieces."""
    numbers = [float(v) for v in re.findall(r"-?[\d.]+", path)]
    return [(numbers[i], numbers[i + 1], numbers[i + 2], numbers[i + 3]) for i in range(0, len(numbers), 4)]


@pytest.mark.browser
@pytest.mark.slow
def test_the_outlines_are_ink_where_they_run(browser, killers_page, tmp_path):
    """In a screenshot, along every horizontal piece of outline a cell holds (houses.py's, in the cell's inside as
    the page lays it out, give or take 2 pixels: a table's collapsed borders shift it by one or so), the dashes
    are ink: in the drawn grids and in the player's board (but under a total, which covers the line)."""
    image = pytest.importorskip("PIL.Image")
    measured = tmp_path / "measured.html"
    measured.write_text(killers_page.read_text(encoding="utf-8").replace("</body>", WHERE_CELLS_LIE + "</body>"),
                        encoding="utf-8")
    window, fragment = (1200, 2400), "only=puzzles,watch"
    opened = browser.open(measured, tmp_path, fragment, *window, shot=tmp_path / "shot.png")
    shot = image.open(tmp_path / "shot.png").convert("L")
    boards = re.findall(r'<(table|div) class="(?:grid[^"]*|board)"[^>]*data-rects="([^"]*)"[^>]*>(.*?)'
                        r'(?=</table>|<div class="side">)', opened.dom, re.S)
    assert len(boards) == 5  # the four drawn grids and the player's board
    checked = 0
    for kind, rects, inner in boards:
        cells = json.loads(unescape(rects))
        held = re.split(r"<td |<div class=\"c[ \"]", inner)[1:]
        assert len(held) == len(cells), kind
        for (left, top, right, bottom), cell in zip(cells, held, strict=True):
            total = "data-total" in cell.split(">")[0]
            for x1, y1, x2, y2 in pieces_of(first(r'<path d="([^"]*)"', cell)):
                if y1 != y2 or abs(x2 - x1) < 0.5 or (total and y1 < 0.5):  # the total covers the top left
                    continue
                y = top + y1 * (bottom - top)
                xs = range(round(left + min(x1, x2) * (right - left)) + 1, round(left + max(x1, x2) * (right - left)))
                darkest = [min(shot.getpixel((x, round(y) + d)) for d in (-2, -1, 0, 1, 2)) for x in xs]
                inked = sum(v < 140 for v in darkest)
                assert inked >= 0.3 * len(darkest), (kind, left, top, cell)
                checked += 1
    assert checked > 200


def classic_only() -> str:
    """A --command whose input form carries classic grids only: not run on a Killer (so the page draws it)."""
    return f"classic:input=line={sys.executable} {EXAMPLE_SOLVER}"


def test_cages_piled_on_one_cell_share_the_deepest_inset():
    """Five cages over r1c1: levels 0 to 4, drawn at three insets at most (inside the cell, never at its centre)."""
    cages = [Cage((0, k)) for k in range(1, 6)]
    assert cage_levels(cages) == [0, 1, 2, 3, 4]
    marks = cage_marks(family(9, constraints=cages))
    insets = {round(v, 3) for v in (n for x1, y1, x2, y2 in pieces_of(marks[0].path) for n in (x1, y1))}
    assert insets <= {0.0, round(INSET, 3), round(2 * INSET, 3), round(3 * INSET, 3)} | \
        {round(1 - k * INSET, 3) for k in (1, 2, 3)} | {1.0}


@pytest.mark.browser
@pytest.mark.slow
def test_the_player_keeps_each_cages_room(browser, capsys, tmp_path):
    """The player replays a Killer's placements as the engines make them (a placement leaves each of its cages'
    empty cells only the values the cage can still reach its total with): at choices where the houses alone would
    leave a cell more candidates, the board shows exactly the candidates the search chose among."""
    page = tmp_path / "report.html"
    code = compare.main([str(EXAMPLES), "--jobs", "1", "--solver", "mrv", "--timeout", "60", "--html", str(page),
                         "--watch", "1"])
    capsys.readouterr()
    assert code == 0
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page.read_text(), re.S)
    assert data is not None
    [packed] = json.loads(data.group(1))["watch"]["traces"]
    peers = puzzle_of(object_of_json(EXAMPLES.read_text().splitlines()[0]))[0].geometry.peers
    caged = choices_beyond_houses(packed, peers)
    assert len(caged) >= 3  # choices where the cages' rooms, not the houses, left the cell its candidates
    for step, cell, values in caged[:3]:
        state = browser.open(page, tmp_path, f"method=0&step={step}").player_state()
        assert state["kind"] == "choose" and state["cell"] == f"{cell // 9},{cell % 9}"
        assert state["shown"] == "".join(values)
