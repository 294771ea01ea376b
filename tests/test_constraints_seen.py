"""Constraints seen: the page's drawn grids and its player draw each constraint from its shapes (a thermometer's
bulb a disc on its first cell, its line a stroke from cell centre to cell centre, a rule of the whole grid named in
the legend), and the player replays a placement through the constraints' links as the engines make it.

What is drawn is checked against the puzzle's own words, read here by hand (a `th=` word's cells in order), and in
headless Chromium (skipped where there is none): the DOM once the scripts ran, and the pixels of a screenshot.
"""
from __future__ import annotations

import json
import re
import sys
from html import unescape
from pathlib import Path

import pytest
from headless import WHERE_CELLS_LIE, Browser, choices_beyond_houses, first, running_browser

import compare
from comparison.report.page.houses import legend, shape_marks
from comparison.report.page.html import grid_html
from comparison.report.page.player import houses
from puzzles import Grid

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_SOLVER = ROOT / "examples" / "python" / "fpuzzles_solver.py"
# Unique by the brute force (tests/constraint_grids.py's antiknight+thermometer-6 and thermometer-6)
ANTIKNIGHT_THERMOMETER = ".....1.4..........5......2.......3..;antiknight;th=R1C1,R1C2,R1C3"
THERMOMETERS = "..1....2...4...2..5..1.....6........;th=R1C1,R1C2,R2C3,R3C3;th=R6C6,R5C6,R4C5"


def thermometers(text: str) -> list[list[int]]:
    """A line form's thermometers, read by hand: each `th=` word's cells in order, row-major indices."""
    n = round(len(text.split(";")[0]) ** 0.5)
    return [[(int(r) - 1) * n + int(c) - 1 for r, c in re.findall(r"R(\d+)C(\d+)", word)]
            for word in text.split(";")[1:] if word.startswith("th=")]


def steps(text: str) -> list[set[tuple[float, float]]]:
    """Where each cell's line pieces must reach, by hand: from its centre, halfway to the cell before it and the
    cell after it on each thermometer (x the column, y the row, in the cell's units)."""
    n = round(len(text.split(";")[0]) ** 0.5)
    found: list[set[tuple[float, float]]] = [set() for _ in range(n * n)]
    for line in thermometers(text):
        for i, cell in enumerate(line):
            for other in (line[i - 1] if i else None, line[i + 1] if i + 1 < len(line) else None):
                if other is not None:
                    found[cell].add((0.5 + (other % n - cell % n) / 2, 0.5 + (other // n - cell // n) / 2))
    return found


def reaches(path: str) -> set[tuple[float, float]]:
    """The far ends of a cell's line pieces (each `M x1 y1 L x2 y2` has one end at the centre)."""
    numbers = [float(v) for v in re.findall(r"-?[\d.]+", path)]
    ends = set()
    for i in range(0, len(numbers), 4):
        (x1, y1), (x2, y2) = numbers[i:i + 2], numbers[i + 2:i + 4]
        assert (0.5, 0.5) in ((x1, y1), (x2, y2)), path  # every piece starts or ends at the cell's centre
        ends.add((x2, y2) if (x1, y1) == (0.5, 0.5) else (x1, y1))
    return ends


@pytest.mark.parametrize("text", [ANTIKNIGHT_THERMOMETER, THERMOMETERS])
def test_each_cells_share_of_the_thermometers(text):
    marks = shape_marks(Grid.parse(text).layout)
    bulbs = {line[0] for line in thermometers(text)}
    on_lines = {cell for line in thermometers(text) for cell in line}
    assert [bool(m.discs) for m in marks] == [cell in bulbs for cell in range(len(marks))]
    assert [reaches(m.lines) for m in marks] == steps(text)
    assert [bool(m.names) for m in marks] == [cell in on_lines for cell in range(len(marks))]
    assert marks[0].names == "thermometer 1 (R1C1)"


def test_the_legend_names_the_rules_of_the_whole_grid_and_counts_the_lines():
    assert legend(Grid.parse(ANTIKNIGHT_THERMOMETER).layout) == (
        "antiknight+thermometer, 6x6: rows, columns, boxes (thick borders), 1 thermometer (grey line, from its "
        "bulb), anti-knight (the whole grid)")
    assert legend(Grid.parse(THERMOMETERS).layout).endswith("2 thermometers (grey lines, each from its bulb)")
    assert legend(Grid.parse("." * 16 + ";antiking;nonconsecutive").layout).endswith(
        "boxes (thick borders), anti-king (the whole grid), non-consecutive (the whole grid)")
    # a rule of the whole grid draws nothing on the cells
    assert all(not (m.lines or m.discs or m.names) for m in shape_marks(Grid.parse("." * 16 + ";antiking").layout))


def test_a_drawn_grid_holds_the_shapes_where_they_are_and_its_cages_too():
    killer = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3;th=R1C1,R2C1"  # r1c1 in cage 1 (3), r2c1 in cage 3
    cells = re.findall(r"<td ([^>]*)>(.*?)</td>", grid_html(killer, caption="the puzzle"))
    assert len(cells) == 16
    for cell, (attributes, inside) in enumerate(cells):
        assert ('<svg class="shape"' in inside) == (cell in (0, 4))
        assert ('class="disc"' in inside) == (cell == 0)
        assert ('<svg class="cage"' in inside) and ("data-total" in attributes) == (cell in (0, 2, 4, 7, 8, 9, 14))
    assert 'title="cage 1 (3), thermometer 1 (R1C1)"' in cells[0][0]
    table = grid_html(ANTIKNIGHT_THERMOMETER, caption="the puzzle")
    assert 'data-variant="antiknight+thermometer"' in table and "anti-knight (the whole grid)" in table


def test_the_player_receives_the_shapes_and_the_links():
    """houses(): each cell's share of the drawing, and the links a placement follows: from each cell, those a knight's
    move away forbid its value, those after it on the thermometer the values up to its value plus their steps."""
    grid = Grid.parse(ANTIKNIGHT_THERMOMETER)
    found = houses(grid)
    assert found["shapes"] == [[m.lines, m.discs, m.names, m.marks] for m in shape_marks(grid.layout)]
    n, links, tables = 6, found["links"], found["tables"]
    line = thermometers(ANTIKNIGHT_THERMOMETER)[0]
    for cell in range(n * n):
        r, c = divmod(cell, n)
        for v in range(1, n + 1):
            forbidden = {}  # other cell -> the values v placed here forbids there, by the rules' definitions
            for other in range(n * n):
                dr, dc = abs(other // n - r), abs(other % n - c)
                if {dr, dc} == {1, 2}:
                    forbidden.setdefault(other, set()).add(v)
                if cell in line and other in line and other != cell:
                    d = line.index(other) - line.index(cell)  # values rise along the line: at least d more
                    forbidden.setdefault(other, set()).update(w for w in range(1, n + 1) if (w - v) * d < d * d)
            replayed = {other: {w for w in range(1, n + 1) if tables[t][v] >> (w - 1) & 1} for other, t in links[cell]}
            assert {k: s for k, s in replayed.items() if s} == {k: s for k, s in forbidden.items() if s}, (cell, v)


# Puzzles of the catalogue's first kinds (docs/reference/puzzle-files.md's examples): dots, letters, parity cells
DOTS = ("4........6..6..2...3................;kw=R1C6-R2C6,R3C3-R4C3,R4C1-R5C1,R4C6-R5C6,R5C1-R5C2,R5C4-R5C5,"
        "R5C6-R6C6,R6C2-R6C3")
ODD = "2...1.3........5.65.4..............5;odd=R2C1,R3C2,R4C4,R5C3,R6C5"


def test_a_mark_between_two_cells_is_drawn_once_on_their_edge_and_a_cells_mark_at_its_centre():
    """A dot is drawn by the later of its two cells (whose drawing comes over the earlier one's), centred on the
    edge they share: half a cell back toward the other cell; an odd cell's circle at its own centre; the legend
    counts each."""
    n = 6
    lay = Grid.parse(DOTS).layout
    marks = shape_marks(lay)
    pairs = [tuple(sorted(c.cells)) for c in lay.constraints]
    for cell, m in enumerate(marks):
        found = re.findall(r'<circle class="ring" cx="([^"]*)" cy="([^"]*)"', m.marks)
        centres = [(float(x), float(y)) for x, y in found]
        expected = sorted((0.5 + (a % n - b % n) / 2, 0.5 + (a // n - b // n) / 2) for a, b in pairs if b == cell)
        assert sorted(centres) == expected, cell
    assert "8 white dots (a white circle between two cells)" in legend(lay)
    odd = Grid.parse(ODD).layout
    cells = {c.cell for c in odd.constraints}
    for cell, m in enumerate(shape_marks(odd)):
        assert (m.marks == '<circle class="odd" cx="0.5" cy="0.5" r="0.4"/>') == (cell in cells), cell
    assert "5 odd cells (a grey circle in the cell)" in legend(odd)


# clues outside a 6x6: a sandwich above column 3, a skyscraper right of row 4, a little killer at the top left corner
CLUED = "." * 36 + ";sw=R0C3:5;sky=R4C7:3;lk=R0C0:DR:21"


def test_a_drawn_grid_writes_the_clues_outside_it_in_margins_on_their_sides():
    """The drawn grid gets a margin row above and a margin column on each side that holds a clue (none below), each
    clue's number in the margin's cell at its place (read by hand from the words), the others empty; the frame is
    drawn by the edge cells. A grid without such clues keeps its rows of cells alone."""
    rows = re.findall(r"<tr>(.*?)</tr>", grid_html(CLUED))
    assert len(rows) == 7  # the top margin and the six rows: no clue below
    table = [re.findall(r'<td class="([^"]*)"[^>]*>([^<]*)', row) for row in rows]
    assert all(len(row) == 8 for row in table)  # the left and right margins and the six columns
    written = {(r, c): text for r, row in enumerate(table) for c, (classes, text) in enumerate(row) if text}
    assert written == {(0, 3): "5", (4, 7): "3", (0, 0): "21"}  # R0C3, R4C7 and R0C0 with the margins' offsets
    for r, row in enumerate(table):
        for c, (classes, _) in enumerate(row):
            assert (classes == "o") == (r == 0 or c in (0, 7)), (r, c)
    assert {"T", "L"} <= set(table[1][1][0].split()) and {"R", "B"} <= set(table[6][6][0].split())
    assert 'title="sandwich 1 (5 at R0C3)"' in grid_html(CLUED)
    assert "clued" not in grid_html(THERMOMETERS) and 'class="o"' not in grid_html(THERMOMETERS)
    assert houses(Grid.parse(CLUED))["outside"] == [[-1, -1, "21", "little killer 1 (21 at R0C0 DR)"],
                                                    [-1, 2, "5", "sandwich 1 (5 at R0C3)"],
                                                    [3, 6, "3", "skyscraper 1 (3 at R4C7)"]]
    assert "outside" not in houses(Grid.parse(THERMOMETERS))
    assert legend(Grid.parse(CLUED).layout).endswith(
        "1 little killer clue (a number outside the grid, a grey line along its cells), 1 sandwich clue (a number "
        "outside the grid), 1 skyscraper clue (a number outside the grid)")


def test_a_shape_the_page_cannot_draw_is_refused_by_name(monkeypatch):
    from puzzles.constraints import Shape
    from puzzles.constraints.kropki import Difference

    monkeypatch.setattr(Difference, "drawing", lambda self, side: (Shape("spiral", self.cells, "white dot"),))
    with pytest.raises(ValueError, match="white dot R1C6-R2C6: the page draws no 'spiral' shape"):
        shape_marks(Grid.parse(DOTS).layout)


# -- in a browser ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    return running_browser(tmp_path_factory.mktemp("probe"))


@pytest.fixture(scope="module")
def constraints_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """compare.py on the two puzzles with mrv and a program that takes classic grids only (not run on them: each
    is drawn among the puzzles some methods did not run), the first watched; the page and the puzzles' file."""
    folder = tmp_path_factory.mktemp("constraints")
    puzzles, page = folder / "constraints.txt", folder / "report.html"
    puzzles.write_text(f"{ANTIKNIGHT_THERMOMETER} one\n{THERMOMETERS} two\n")
    classic = f"classic:input=line={sys.executable} {EXAMPLE_SOLVER}"
    code = compare.main([str(puzzles), "--jobs", "1", "--command", classic, "--solver", "mrv", "--solver", "classic",
                         "--timeout", "60", "--html", str(page), "--watch", "1"])
    assert code == 0
    return page, puzzles




@pytest.mark.browser
@pytest.mark.slow
def test_the_thermometers_are_drawn_and_the_whole_grid_rule_named(browser, constraints_run, tmp_path, capsys):
    """In the DOM once the scripts ran, each drawn grid and the player's board hold a disc on each bulb, line
    pieces reaching the thermometers' next and previous cells, and nothing on any other cell; the legend names
    anti-knight. In a screenshot, the centre of a blank cell on a thermometer is the shapes' grey, and of a blank
    cell off every thermometer white."""
    image = pytest.importorskip("PIL.Image")
    capsys.readouterr()
    page, _ = constraints_run
    measured = tmp_path / "measured.html"
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", WHERE_CELLS_LIE + "</body>"),
                        encoding="utf-8")
    window, fragment = (1200, 1800), "only=puzzles,watch"
    opened = browser.open(measured, tmp_path, fragment, *window, shot=tmp_path / "shot.png")
    assert opened.console == [], opened.console
    shot = image.open(tmp_path / "shot.png").convert("RGB")
    boards = re.findall(r'<(table|div) class="(?:grid[^"]*|board)"([^>]*)data-rects="([^"]*)"[^>]*>(.*?)'
                        r'(?=</table>|<div class="side">)', opened.dom, re.S)
    assert sorted(kind for kind, *_ in boards) == ["div", "table", "table"]
    by_givens = {Grid.parse(text).line(): text for text in (ANTIKNIGHT_THERMOMETER, THERMOMETERS)}
    grey = checked = 0
    for kind, attributes, rects, inner in boards:
        cells = json.loads(unescape(rects))
        held = re.split(r"<td |<div class=\"c[ \"]", inner)[1:]
        assert len(held) == len(cells) == 36
        if kind == "div":
            text = ANTIKNIGHT_THERMOMETER
            assert "anti-knight (the whole grid)" in first(r'<p class="houses">([^<]*)</p>', opened.dom)
        else:
            givens = "".join(first(r">(\d?)</td>", "<td " + cell) or "." for cell in held)
            text = by_givens[givens]
            assert ("anti-knight (the whole grid)" in unescape(attributes)) == (text == ANTIKNIGHT_THERMOMETER)
        bulbs = {line[0] for line in thermometers(text)}
        expected = steps(text)
        for cell, ((left, top, right, bottom), inside) in enumerate(zip(cells, held, strict=True)):
            assert ('class="disc"' in inside) == (cell in bulbs), (kind, cell)
            assert reaches(first(r'<path class="line" d="([^"]*)"', inside)) == expected[cell], (kind, cell)
            blank = kind == "table" and text.split(";")[0][cell] == "."
            if blank:  # the centre of a blank drawn cell: the shapes' grey on a thermometer, white off them
                red, green, blue = shot.getpixel((round((left + right) / 2), round((top + bottom) / 2)))
                on = bool(expected[cell]) or cell in bulbs
                assert (abs(red - 0xC9) < 24 and abs(blue - 0xD6) < 24) if on else min(red, green, blue) > 240, \
                    (text, cell, (red, green, blue))
                grey += on
                checked += 1
    assert grey >= 8 and checked >= 50


@pytest.mark.browser
@pytest.mark.slow
def test_the_player_replays_a_placement_through_the_links(browser, constraints_run, tmp_path, capsys):
    """At each choice of mrv's search where the houses alone would leave the chosen cell more candidates than it
    chose among, the board shows exactly the candidates the search chose among: the replay followed anti-knight
    and the thermometer as the engines do."""
    capsys.readouterr()
    page, _ = constraints_run
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page.read_text(), re.S)
    assert data is not None
    [packed] = json.loads(data.group(1))["watch"]["traces"]
    peers = Grid.parse(ANTIKNIGHT_THERMOMETER.split(";")[0]).geometry.peers  # rows, columns and boxes alone
    narrowed = choices_beyond_houses(packed, peers)
    assert len(narrowed) >= 3  # choices where the links, not the houses, left the cell its candidates
    for step, cell, values in narrowed[:3]:
        state = browser.open(page, tmp_path, f"method=0&step={step}").player_state()
        assert state["kind"] == "choose" and state["cell"] == f"{cell // 6},{cell % 6}"
        assert state["shown"] == "".join(values)


@pytest.mark.slow
def test_a_mixed_file_gives_a_readable_report(tmp_path, capsys):
    """Classic, Killer, anti-knight and thermometer puzzles in one file (and a Killer with a thermometer): compare.py
    runs them all, the terminal says which method did not run on which and why, by the kind; the page draws each
    puzzle a method did not run under its variant's name, with its legend."""
    killer = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3"  # its solution 1234/3412/2143/4321: r1c1 1, r1c2 2
    lines = ["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... classic",
             f"{killer} killer", f"{ANTIKNIGHT_THERMOMETER} antiknight", f"{THERMOMETERS} thermometers",
             f"{killer};th=R1C1,R1C2 killer-thermometer"]
    path, page = tmp_path / "mixed.txt", tmp_path / "report.html"
    path.write_text("\n".join(lines) + "\n")
    classic = f"classic:input=line={sys.executable} {EXAMPLE_SOLVER}"
    code = compare.main([str(path), "--jobs", "1", "--command", classic, "--solver", "mrv:propagate=singles",
                         "--solver", "classic", "--timeout", "60", "--html", str(page)])
    out = capsys.readouterr().out
    assert code == 0 and "Puzzles: 5 (5 agree)" in out and "OK: every answer valid" in out
    assert f"{path}:3 antiknight: classic (input=line carries classic Sudoku (square boxes) only, not this 6x6 " \
           "antiknight+thermometer" in " ".join(out.split())
    drawn = dict(re.findall(r'data-variant="([^"]+)" title="([^"]+)"', page.read_text(encoding="utf-8")))
    assert set(drawn) == {"killer", "antiknight+thermometer", "thermometer", "killer+thermometer"}
    assert drawn["killer+thermometer"] == ("killer+thermometer, 4x4: rows, columns, boxes (thick borders), 7 cages "
                                           "(dashed outlines, each total in its first cell), 1 thermometer (grey "
                                           "line, from its bulb)")


@pytest.mark.browser
@pytest.mark.slow
def test_the_players_board_draws_the_dots_and_the_parity_cells(browser, tmp_path, capsys):
    """In the DOM once the scripts ran, the player's board holds each white dot once, in the later cell of its
    pair, and an odd cell's circle in each odd cell; the page's scripts say nothing on the console."""
    puzzles, page = tmp_path / "marks.txt", tmp_path / "report.html"
    puzzles.write_text(f"{DOTS} dots\n{ODD} odd\n")
    for watched, text, kind in ((1, DOTS, "ring"), (2, ODD, "odd")):
        assert compare.main([str(puzzles), "--jobs", "1", "--solver", "mrv", "--html", str(page),
                             "--watch", str(watched)]) == 0
        capsys.readouterr()
        opened = browser.open(page, tmp_path, "only=watch")
        assert opened.console == [], opened.console
        board = first(r'<div class="board"[^>]*>(.*?)<div class="side">', opened.dom)
        held = re.split(r"<div class=\"c[ \"]", board)[1:]
        assert len(held) == 36
        lay = Grid.parse(text).layout
        expected = [max(c.cells) for c in lay.constraints] if kind == "ring" else [c.cell for c in lay.constraints]
        drawn = [cell for cell, inside in enumerate(held) for _ in range(inside.count(f'class="{kind}"'))]
        assert sorted(drawn) == sorted(expected), (kind, drawn)


# each clue written outside the player's board: where it lies, once the scripts ran
WHERE_CLUES_LIE = """<script>
document.querySelectorAll("#player .o").forEach((clue) => {
  const r = clue.getBoundingClientRect();
  clue.dataset.rect = JSON.stringify([r.left, r.top, r.right, r.bottom]);
});
</script>"""


def outside_clues(text: str) -> list[tuple[int, int, str]]:
    """The clues outside the grid of a line form, read by hand: each word naming a cell past the grid's edge
    (`sw=R0C3:12`, `lk=R0C3:DL:11`), its row and column as written (0 or n + 1 on that side) and its number."""
    n = round(len(text.split(";")[0]) ** 0.5)
    found = []
    for word in text.split(";")[1:]:
        place = re.fullmatch(r"\w+=R(\d+)C(\d+):(?:\w+:)?(\d+)", word)
        if place and {int(place[1]), int(place[2])} & {0, n + 1}:
            found.append((int(place[1]), int(place[2]), place[3]))
    return found


def beside(rect: list[float], cells: list[list[float]], r: int, c: int, n: int) -> bool:
    """Whether a rectangle lies outside the board's cells (each [left, top, right, bottom], row-major) on the side
    of the clue's row r and column c (1-based, 0 or n + 1 outside), and across the row or column it is beside."""
    left, top, right, bottom = rect
    first, last = cells[0], cells[-1]
    if (r == 0 and bottom > first[1]) or (r == n + 1 and top < last[3]):
        return False
    if (c == 0 and right > first[0]) or (c == n + 1 and left < last[2]):
        return False
    y, x = (top + bottom) / 2, (left + right) / 2
    if 1 <= r <= n and not cells[(r - 1) * n][1] <= y <= cells[(r - 1) * n][3]:
        return False
    return not (1 <= c <= n and not cells[c - 1][0] <= x <= cells[c - 1][2])


def one_of_each(seed: int = 7) -> Grid:
    """A 9x9 puzzle holding one instance of every kind of rule the generator draws (making/variants.py's
    `drawn_kinds`; a negative rule with every dot it asks), each drawn over one random solution, with a third of
    that solution's cells given: not unique (nothing here asks it), but every rule holds on the solution."""
    import random

    from making.solutions import random_solution
    from making.variants import drawn_kinds
    from puzzles.constraints import CONSTRAINT_KINDS, Constraint
    from puzzles.layouts import boxes, layout

    rng = random.Random(seed)
    classic = boxes(9)
    solution = random_solution(classic, rng)
    rules: list[Constraint] = []
    for name in drawn_kinds():  # a kind that reads the others' (a negative rule) all it draws: their every dot
        kind = CONSTRAINT_KINDS[name]
        drawn = kind.drawn_beside(rules, solution.values, 9, rng)
        rules += drawn if kind.READS_DRAWN else drawn[:1]
    given = [v if rng.random() < 0.34 else 0 for v in solution.values]
    lay = layout(9, classic.regions, classic.extras, rules)
    assert Grid(lay, bytes(solution.values)).conflicts() == []  # the solution keeps every rule drawn over it
    return Grid(lay, bytes(given))


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_and_the_trace_draw_one_of_every_kind(browser, tmp_path, capsys):
    """A puzzle with one rule of every kind the generator draws, run by compare.py with its page and watched: the
    page's scripts say nothing on the console; the player's board names every rule on its cells (each rule's name
    in some cell's tooltip, from the kind's own drawing) and the legend counts each; the trace of mrv names the
    rules its removals come from by the same names."""
    from commands.trace import main as trace_main
    from making.variants import drawn_kinds
    from puzzles.constraints import names as rule_names

    grid = one_of_each()
    kinds = {rule.KIND for rule in grid.layout.constraints}
    assert kinds == set(drawn_kinds())  # one of each, none missing
    puzzles, page = tmp_path / "every.txt", tmp_path / "report.html"
    puzzles.write_text(grid.text() + " every\n")
    assert compare.main([str(puzzles), "--jobs", "1", "--solver", "mrv", "--timeout", "30", "--html", str(page),
                         "--watch", "1"]) == 0
    capsys.readouterr()
    measured = tmp_path / "measured.html"
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", WHERE_CELLS_LIE + WHERE_CLUES_LIE
                                                                 + "</body>"), encoding="utf-8")
    opened = browser.open(measured, tmp_path, "only=watch", 1200, 1800)
    assert opened.console == [], opened.console
    board = unescape(first(r'<div class="board"[^>]*>(.*?)<div class="side">', opened.dom))
    legend = unescape(first(r'<p class="houses">([^<]*)</p>', opened.dom))  # names the rules of no cells
    names = rule_names(grid.layout.constraints, 9)
    missing = [name for name in names if name not in board and name not in legend]
    assert not missing, missing
    cells = json.loads(unescape(first(r'<div class="board"[^>]*data-rects="([^"]*)"', opened.dom)))
    written = [(json.loads(unescape(rect)), unescape(text).split())
               for rect, text in re.findall(r'<div class="o"[^>]*data-rect="([^"]*)"[^>]*>([^<]*)</div>', opened.dom)]
    clues = outside_clues(grid.text())
    assert clues and len(written) == len({(r, c) for r, c, _ in clues})
    for r, c, number in clues:  # each clue's number at its place: past the grid's edge, in line with its cells
        assert any(number in text and beside(rect, cells, r, c, 9) for rect, text in written), (r, c, number)
    assert trace_main([f"{puzzles}:1", "--max-steps", "5"]) == 0
    told = capsys.readouterr().out
    missing = [name for name in names if name not in told]  # by its word, or on a map of its cells' letters
    assert not missing, missing


@pytest.mark.browser
@pytest.mark.slow
def test_the_player_narrows_a_scoped_rules_cells_as_the_search_does(browser, tmp_path, capsys):
    """An arrow puzzle watched with mrv: at choices where the houses alone would leave the chosen cell more
    candidates (the arrows narrowed it, as the engines' scopes do at each placement), the board shows exactly the
    candidates the search chose among, backtracks and all."""
    from constraint_grids import EMPTY, unique_puzzle

    grid, _ = unique_puzzle(EMPTY["arrow-6"], 3)
    puzzles, page = tmp_path / "arrow.txt", tmp_path / "report.html"
    puzzles.write_text(grid.text() + " arrows\n")
    assert compare.main([str(puzzles), "--jobs", "1", "--solver", "mrv", "--html", str(page), "--watch", "1"]) == 0
    capsys.readouterr()
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page.read_text(), re.S)
    assert data is not None
    [packed] = json.loads(data.group(1))["watch"]["traces"]
    assert packed.get("narrowed")
    narrowed = choices_beyond_houses(packed, grid.geometry.peers)
    assert len(narrowed) >= 2
    for step, cell, values in narrowed[-2:]:  # the last ones: after the search's backtracks
        state = browser.open(page, tmp_path, f"method=0&step={step}").player_state()
        assert state["kind"] == "choose" and state["cell"] == f"{cell // 6},{cell % 6}"
        assert state["shown"] == "".join(values)
