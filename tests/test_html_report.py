"""compare.py --html: the figures it computes, the page it writes, and that page in a real browser.

The unit tests need no browser: PAR-2 on records counted by hand, the rank correlation against a slow
obvious one, the page's tables against the run's records, self-containment. The browser tests open the
page in headless Chromium with the network cut off (they skip where no Chromium can be found or
installed): no console error, the tables' figures, the player's cell after N steps, a screenshot.
"""
from __future__ import annotations

import importlib.util
import json
import math
import random
import re
import statistics
from html.parser import HTMLParser
from pathlib import Path

import pytest
import variant_puzzles as variants
from fixtures import SEED000, SEED001
from headless import Browser, running_browser

import compare
import search
from comparison.judging.judge import VerdictKind
from comparison.report.page import figures
from comparison.report.page.html import grid_html, ladder_section
from comparison.report.page.player import EVENT_KINDS
from puzzles import Budget, Grid, Method, Outcome, Status
from search.trace import trace

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds.txt"


# -- the figures --------------------------------------------------------------------------------------------
def test_par2_counts_an_unsolved_run_as_twice_the_timeout():
    # three runs, timeout 10 s: solved in 1 s, gave up, solved in 3 s -> (1 + 20 + 3) / 3
    assert figures.par2([1.0, 9.5, 3.0], [True, False, True], 10.0) == pytest.approx(8.0)
    assert figures.par2([0.5], [False], 4.0) == 8.0
    assert figures.par2([], [], 10.0) is None


def slow_spearman(xs: list[float], ys: list[float]) -> float | None:
    """The definition, spelled out: each value's rank is 1 + the values below it + half of its equals."""
    def rank(values: list[float]) -> list[float]:
        return [1 + sum(w < v for w in values) + (sum(w == v for w in values) - 1) / 2 for v in values]
    rx, ry = rank(xs), rank(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx, vy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else None


def test_spearman_matches_its_definition_with_ties():
    rng = random.Random(13)
    for _ in range(200):
        n = rng.randint(2, 30)
        xs = [rng.choice([5.0, 6.1, 7.2, 8.0, 9.3, rng.random()]) for _ in range(n)]
        ys = [float(rng.randint(0, 6)) for _ in range(n)]
        expected = slow_spearman(xs, ys)
        got = figures.spearman(xs, ys)
        assert (got is None) == (expected is None)
        if expected is not None:
            assert got == pytest.approx(expected, abs=1e-12)


def test_spearman_of_monotone_relations():
    assert figures.spearman([1, 2, 3, 4], [10, 100, 1000, 10**6]) == pytest.approx(1.0)
    assert figures.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert figures.spearman([1, 1, 1], [1, 2, 3]) is None  # a constant side has no ranks to compare


def test_spread_over_isomorphs():
    (spread,) = figures.spreads({"f:1": [3.0, 0.0, 7.0], "f:2": [4.0]})  # f:2 has a single run: no spread
    assert (spread.low, spread.median, spread.high, spread.count) == (0.0, 3.0, 7.0, 3)
    assert spread.ratio == 8.0


def test_a_grid_is_drawn_cell_by_cell():
    drawn = grid_html(SEED000)
    cells = re.findall(r'<td class="(\w+)[^"]*">([^<]*)</td>', drawn)
    assert len(cells) == 81
    assert [text or "." for _, text in cells] == [c if c != "0" else "." for c in SEED000]
    assert all((kind == "given") == (text != "") for kind, text in cells)


# -- the page, from a real run ------------------------------------------------------------------------------
class Tables(HTMLParser):
    """Every table of a page: id -> rows of cell texts (header row first), and each cell's sort value."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str | None]]]] = {}
        self.current: str | None = None
        self.cell: list[str] | None = None
        self.sort: str | None = None
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.urls += [v for k, v in attrs if k in ("src", "href", "xlink:href", "action") and v]
        if tag == "table" and found.get("id"):
            self.current = found["id"]
            self.tables[self.current] = []
        elif tag == "tr" and self.current:
            self.tables[self.current].append([])
        elif tag in ("td", "th") and self.current:
            self.cell, self.sort = [], found.get("data-v")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.current and self.cell is not None:
            self.tables[self.current][-1].append(("".join(self.cell).strip(), self.sort))
            self.cell = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def parse(page: str) -> Tables:
    tables = Tables()
    tables.feed(page)
    return tables


def rows_by_method(tables: Tables, table_id: str) -> dict[str, dict[str, tuple[str, str | None]]]:
    header, *rows = tables.tables[table_id]
    names = [text for text, _ in header]
    return {row[0][0]: dict(zip(names, row, strict=True)) for row in rows}


def run_report(tmp_path: Path, *argv: object, methods: dict[str, Method] | None = None
               ) -> tuple[int, str, list[dict[str, object]]]:
    page, records = tmp_path / "report.html", tmp_path / "records.jsonl"
    code = compare.main([str(a) for a in (*argv, "--html", page, "--output", records, "--jobs", 1)], methods)
    return code, page.read_text(encoding="utf-8"), [json.loads(line) for line in records.read_text().splitlines()]


@pytest.fixture(scope="module")
def seeds_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[dict[str, object]]]:
    """One run on the project's puzzles, with the seed 001 puzzle watched (line 7 of seeds.txt). A node budget, not
    the clock, makes backtracking give up (on seed 003, the 16x16 and the 25x25): the same give-ups on any machine,
    in a fraction of a second rather than two seconds each."""
    folder = tmp_path_factory.mktemp("seeds")
    code, page, records = run_report(folder, SEEDS, "--solver", "mrv", "--solver", "mrv:propagate=singles",
                                     "--solver", "backtracking", "--timeout", 2, "--nodes", 100_000, "--watch", 7,
                                     "--watch-steps", 300)
    assert code == 0
    return folder / "report.html", page, records


@pytest.mark.slow
def test_the_tables_hold_the_runs_figures(seeds_run):
    _, page, records = seeds_run
    runs = [r for r in records if r["status"] != "bad_entry"]
    tables = parse(page)
    methods = rows_by_method(tables, "methods-table")
    assert set(methods) == {"mrv", "mrv:propagate=singles", "backtracking"}
    for label, row in methods.items():
        mine = [r for r in runs if r["method"] == label]
        solved = sum(r["status"] == "solved" for r in mine)
        assert row["solved"] == (f"{solved:,}", str(solved))
        assert row["unsat"][0] == str(sum(r["status"] == "unsatisfiable" for r in mine))
        # records keep their seconds to the microsecond
        assert float(row["median s"][1]) == pytest.approx(statistics.median(r["seconds"] for r in mine), abs=1e-6)
        settled = [r["valid"] is True or r["status"] == "unsatisfiable" for r in mine]
        par2 = statistics.fmean(r["seconds"] if ok else 4.0 for r, ok in zip(mine, settled, strict=True))
        assert float(row["PAR-2 s"][1]) == pytest.approx(par2, abs=1e-6)
    effort = rows_by_method(tables, "effort-table")
    nodes = [r["nodes"] for r in runs if r["method"] == "mrv"]
    assert float(effort["mrv"]["nodes"][1]) == pytest.approx(statistics.fmean(nodes))


@pytest.mark.slow
def test_the_page_fetches_nothing(seeds_run):
    _, page, _ = seeds_run
    tables = parse(page)
    assert all(not re.match(r"\s*(https?:)?//", url, re.IGNORECASE) for url in tables.urls)
    assert "<link" not in page and "@import" not in page
    assert not re.search(r"url\((?!#)", page)  # url(#id): a clip path of the same SVG
    assert re.search(r'http-equiv="Content-Security-Policy" content="default-src \'none\'', page)


@pytest.mark.slow
def test_the_puzzles_that_went_wrong_are_drawn(seeds_run):
    _, page, records = seeds_run
    gave_up = {(r["line"], r["puzzle"]) for r in records if r["status"] == "gave_up"}
    assert gave_up  # backtracking cannot finish seed 003, the 16x16 or the 25x25 in 100,000 nodes
    for line, puzzle in gave_up:
        assert f"seeds.txt:{line}" in page
        assert grid_html(str(puzzle), caption="the puzzle") in page


@pytest.mark.slow
def test_a_disagreement_is_drawn_with_its_grid(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000} homework\n")

    def liar(grid: Grid, budget: Budget = Budget(), **options: object) -> Outcome:
        return Outcome(Status.UNSATISFIABLE)
    methods = {"mrv": search.SOLVERS["mrv"], "liar": Method(liar, "always says there is no solution")}
    code, page, _ = run_report(tmp_path, path, "--no-certify", methods=methods)
    assert code == 1
    assert "Disagreements: 1" in page and "FAILED" in page
    assert grid_html(SEED000, caption="the puzzle") in page
    assert rows_by_method(parse(page), "methods-table")["liar"]["disagree"][0] == "1"


@pytest.mark.slow
def test_rating_and_isomorphs(tmp_path):
    rated = tmp_path / "rated.csv"
    rows = [(SEED000, 5.4, "a"), (SEED001, 8.9, "b"), (SEED000, 6.0, "c")]  # a puzzle is its line: three
    rated.write_text("puzzle,rating,id\n" + "".join(f"{p},{r},{i}\n" for p, r, i in rows))
    code, page, records = run_report(tmp_path, rated, "--solver", "mrv", "--isomorphs", 3, "--no-certify")
    assert code == 0
    assert {r["rating"] for r in records} == {5.4, 8.9, 6.0}
    tables = parse(page)
    rating = rows_by_method(tables, "rating-table")["mrv"]
    means: dict[str, list[float]] = {}
    for r in records:
        means.setdefault(str(r["line"]), []).append(float(r["nodes"]))  # type: ignore[arg-type]
    ratings = {str(r["line"]): float(r["rating"]) for r in records}  # type: ignore[arg-type]
    expected = figures.spearman([ratings[k] for k in means], [statistics.fmean(v) for v in means.values()])
    assert float(rating["rho (effort)"][1]) == pytest.approx(expected)
    spread = rows_by_method(tables, "isomorph-table")["mrv"]
    assert spread["puzzles"][0] == "3"


def test_the_ladder_hook_draws_its_rows_as_a_sortable_table():
    rows = [{"rung": "singles", "no guess": 0.446, "guesses": 42}, {"rung": "locked", "no guess": 0.76, "guesses": 17}]
    tables = parse(ladder_section(rows))
    assert tables.tables["ladder-table"] == [
        [("rung", None), ("no guess", None), ("guesses", None)],
        [("singles", None), ("0.446", "0.446"), ("42", "42")],
        [("locked", None), ("0.76", "0.76"), ("17", "17")]]
    assert ladder_section(None) == ladder_section([]) == ""


def test_watch_is_checked_before_the_run(tmp_path, capsys):
    assert compare.main([str(SEEDS), "--watch", "7"]) == 2
    assert "--watch needs --html" in capsys.readouterr().err
    assert compare.main([str(SEEDS), "--html", str(tmp_path / "r.html"), "--watch", "2"]) == 2
    assert "no puzzle that starts at line 2" in capsys.readouterr().err
    assert compare.main([str(SEEDS), "--html", str(tmp_path / "r.html"), "--watch", "25"]) == 2
    assert "two 7s in row 1" in capsys.readouterr().err  # line 25 is the bad entry
    assert compare.main([str(SEEDS), "--html", str(tmp_path / "r.txt")]) == 2
    assert "name a .html or .htm file" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def embedded(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.DOTALL)
    assert found
    data: dict[str, object] = json.loads(found.group(1))
    return data


@pytest.mark.slow
def test_the_player_holds_each_hand_written_methods_trace(seeds_run):
    _, page, _ = seeds_run
    watch = embedded(page)["watch"]
    assert isinstance(watch, dict)
    assert watch["puzzle"] == Grid.parse(SEED001).line()
    assert [t["method"] for t in watch["traces"]] == ["mrv", "mrv:propagate=singles", "backtracking"]
    for packed in watch["traces"]:
        traced = trace(Grid.parse(SEED001), packed["method"], max_steps=300)
        assert len(packed["events"]) == len(traced.events) <= 300
        for row, event in zip(packed["events"], traced.events, strict=True):
            cell = -1 if event.cell is None else event.cell[0] * 9 + event.cell[1]
            assert (EVENT_KINDS[row[0]], row[1], row[2], row[3]) == (event.kind, event.depth, cell, event.value or 0)


@pytest.mark.slow
def test_without_matplotlib_the_plots_are_drawn_by_the_report_itself(tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "matplotlib" else real(name, *args))
    code, page, records = run_report(tmp_path, SEEDS, "--solver", "mrv", "--solver", "backtracking", "--limit", 4,
                                     "--no-certify")
    assert code == 0
    assert "Cactus plot: further up and left is better" in page and "<polyline" in page
    assert 'id="matplotlib' not in page and "<!-- Created with matplotlib" not in page
    solved = sum(r["method"] == "mrv" and r["status"] == "solved" for r in records)
    assert rows_by_method(parse(page), "methods-table")["mrv"]["solved"][0] == str(solved)


# -- in a browser ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    return running_browser(tmp_path_factory.mktemp("probe"))


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_opens_offline_without_console_errors(browser, seeds_run, tmp_path):
    path, _, _ = seeds_run
    opened = browser.open(path, tmp_path)
    assert opened.console == [], opened.console
    assert 'id="player-state"' in opened.dom  # the script ran and built the player


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_shows_the_runs_figures(browser, seeds_run, tmp_path):
    path, _, records = seeds_run
    opened = browser.open(path, tmp_path, "sort=methods-table:1:asc")
    methods = rows_by_method(parse(opened.dom), "methods-table")
    solved = {label: sum(r["status"] == "solved" and r["method"] == label for r in records) for label in methods}
    assert {label: int(row["solved"][0]) for label, row in methods.items()} == solved
    assert list(methods) == sorted(solved, key=lambda label: solved[label])  # sorted by the fragment's column


@pytest.mark.browser
@pytest.mark.slow
def test_the_player_shows_the_cell_of_step_n(browser, seeds_run, tmp_path):
    path, page, _ = seeds_run
    watch = embedded(page)["watch"]
    assert isinstance(watch, dict)
    for method, step in ((0, 1), (0, 40), (2, 120)):
        packed = watch["traces"][method]
        kind, _, cell, value = packed["events"][step - 1][:4]
        state = browser.open(path, tmp_path, f"method={method}&step={step}").player_state()
        assert state["method"] == packed["method"] and state["step"] == str(step)
        assert state["kind"] == EVENT_KINDS[kind]
        assert state["cell"] == ("" if cell < 0 else f"{cell // 9},{cell % 9}")
        if EVENT_KINDS[kind] in ("try", "place"):
            assert state["shown"] == str(value)  # the value tried or placed stands in its cell


@pytest.mark.slow
def test_a_resumed_run_s_page_holds_the_kept_records_too(tmp_path):
    """--resume with --html: the page covers the whole file, the records kept from before as well as the new."""
    page, records = tmp_path / "report.html", tmp_path / "records.jsonl"
    argv = [SEEDS, "--solver", "mrv", "--jobs", "1", "--output", records]
    assert compare.main([str(a) for a in argv]) == 0
    lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(lines[:-1]) + lines[-1][:30])  # the last puzzle's record cut off: it runs again
    assert compare.main([str(a) for a in (*argv, "--resume", "--html", page)]) == 0
    runs = [json.loads(line) for line in records.read_text().splitlines()]
    mine = [r for r in runs if r["method"] == "mrv"]
    row = rows_by_method(parse(page.read_text(encoding="utf-8")), "methods-table")["mrv"]
    solved = sum(r["status"] == "solved" for r in mine)
    assert solved > 1 and row["solved"][0] == f"{solved:,}"
    # the figures the page computes from the records themselves: every run of the file, not the last one alone
    assert float(row["median s"][1]) == pytest.approx(statistics.median(r["seconds"] for r in mine), abs=1e-6)
    settled = [r["valid"] is True or r["status"] == "unsatisfiable" for r in mine]
    par2 = statistics.fmean(r["seconds"] if ok else 20.0 for r, ok in zip(mine, settled, strict=True))
    assert float(row["PAR-2 s"][1]) == pytest.approx(par2, abs=1e-6)


def test_runs_never_judged_stay_out_of_the_page_as_out_of_the_summary(tmp_path):
    """An interrupted run's unfinished puzzles are recorded (verdict 'interrupted') but judged by nobody: the
    page, like the terminal's summary, counts only the judged ones."""
    from comparison.records.format import Record
    from comparison.report.page.runbook import RunBook

    def record(line: int, verdict: VerdictKind) -> Record:
        return Record("f", line, Status.GAVE_UP, detail="time", isomorph=0, method="m", seconds=1.0,
                      verdict=verdict, puzzle="", problems="", note="", disagrees=False, counters={"nodes": 1})

    book = RunBook(["m"])
    book.add([record(1, "agree"), record(2, "interrupted")])
    assert [(key.file, key.line) for key in book.keys] == [("f", 1)]
    assert book.notable_count["gave_up"] == 1


# -- a puzzle's houses, drawn ---------------------------------------------------------------------------------
class Cells(HTMLParser):
    """The cells of a drawn grid: their classes, style and text, row-major; the table's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[set[str], str, str]] = []
        self.table: dict[str, str | None] = {}
        self.open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.table = found
        elif tag == "td":
            self.cells.append((set((found.get("class") or "").split()), found.get("style") or "", ""))
            self.open = []

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.open is not None:
            classes, style, _ = self.cells[-1]
            self.cells[-1] = (classes, style, "".join(self.open))
            self.open = None


def drawn_cells(text: str, answer: str | None = None) -> Cells:
    cells = Cells()
    cells.feed(grid_html(text, answer, caption="the puzzle"))
    return cells


def region_borders(regions: str) -> list[set[str]]:
    """Where a region map (one symbol a cell) puts thick borders: R where the right neighbour's symbol differs,
    B where the lower one's does (the slow obvious reading of a map)."""
    n = round(len(regions) ** 0.5)
    return [{e for e, other in (("R", cell + 1 if cell % n < n - 1 else None),
                                ("B", cell + n if cell + n < n * n else None))
             if other is not None and regions[other] != regions[cell]} for cell in range(n * n)]


@pytest.mark.parametrize("text, regions", [
    (variants.JIGSAW9, variants.JIGSAW9_REGIONS), (variants.JIGSAW6, variants.JIGSAW6_REGIONS),
    (variants.JIGSAW5, variants.JIGSAW5_REGIONS),
    # boxes drawn from each cell's box, by hand: 3x3 at 9x9, 2 rows by 3 columns at 6x6
    (SEED000, "".join(str(r // 3 * 3 + c // 3) for r in range(9) for c in range(9))),
    (variants.X9, "".join(str(r // 3 * 3 + c // 3) for r in range(9) for c in range(9))),
    (variants.RECT6, "".join(str(r // 2 * 2 + c // 3) for r in range(6) for c in range(6))),
])
def test_thick_borders_lie_between_regions(text, regions):
    cells = drawn_cells(text).cells
    assert [classes & {"R", "B"} for classes, _, _ in cells] == region_borders(regions)


def test_a_classic_grid_is_drawn_with_its_boxes_alone():
    """Its cells: the kind, then the box edges (a box's corner has both), and nothing else; no caption beyond its
    own, no variant."""
    expected = []
    for cell, ch in enumerate(SEED000.replace("0", ".")):
        r, c = divmod(cell, 9)
        edge = " ".join((["R"] if c % 3 == 2 and c < 8 else []) + (["B"] if r % 3 == 2 and r < 8 else []))
        expected.append(f'<td class="{"given" if ch != "." else "blank"} {edge}">{ch if ch != "." else ""}</td>')
    rows = "".join("<tr>" + "".join(expected[r * 9:r * 9 + 9]) + "</tr>" for r in range(9))
    assert grid_html(SEED000, caption="the puzzle") == \
        f'<table class="grid n9"><caption>the puzzle</caption>{rows}</table>'


def test_the_diagonals_extra_regions_and_disjoint_groups_are_marked():
    n = 9
    x = drawn_cells(variants.X_WINDOKU9)
    assert x.table["data-variant"] == "x+windoku"
    assert [("dp" in k, "dm" in k) for k, _, _ in x.cells] == [(r + c == n - 1, r == c) for r in range(n)
                                                               for c in range(n)]
    windows = variants.WINDOKU_CELLS
    assert ["xr" in k for k, _, _ in x.cells] == [ch != "." for ch in windows]
    colours = {}  # each extra region one colour, each its own
    for (_, style, _), ch in zip(x.cells, windows, strict=True):
        if ch != ".":
            colours.setdefault(ch, set()).add(style)
    assert all(len(found) == 1 for found in colours.values())
    assert len({style for found in colours.values() for style in found}) == 4
    disjoint = drawn_cells(variants.DISJOINT9).cells
    assert all("dg" in k for k, _, _ in disjoint)
    group = [(r % 3, c % 3) for r in range(n) for c in range(n)]  # the place in its box, by hand
    for a in range(n * n):
        for b in range(n * n):
            assert (disjoint[a][1] == disjoint[b][1]) == (group[a] == group[b])


def test_an_answer_is_drawn_over_the_puzzle():
    cells = drawn_cells(variants.JIGSAW5, variants.JIGSAW5_SOLUTION).cells
    assert "".join(text for _, _, text in cells) == variants.JIGSAW5_SOLUTION
    givens = variants.JIGSAW5.split(";")[0]
    assert [("given" in k, "filled" in k) for k, _, _ in cells] == [(ch != ".", ch == ".") for ch in givens]


@pytest.fixture(scope="module")
def variants_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[dict[str, object]]]:
    """A run on variant puzzles (line forms) where backtracking gives up on some (they are drawn), with the
    Jigsaw of line 1 watched."""
    folder = tmp_path_factory.mktemp("variants")
    puzzles = folder / "variants.txt"
    puzzles.write_text("".join(f"{p} {name}\n" for p, name in (
        (variants.JIGSAW9, "jigsaw"), (variants.X_WINDOKU9, "x-windoku"), (variants.DISJOINT9, "disjoint"),
        (variants.JIGSAW7, "jigsaw-7"))))
    code, page, records = run_report(folder, puzzles, "--solver", "mrv:propagate=singles", "--solver",
                                     "backtracking", "--nodes", 40, "--watch", 1, "--watch-steps", 200)
    assert code == 0
    return folder / "report.html", page, records


@pytest.mark.slow
def test_the_player_holds_the_puzzles_houses(variants_run):
    _, page, _ = variants_run
    watch = embedded(page)["watch"]
    assert isinstance(watch, dict)
    grid = Grid.parse(variants.JIGSAW9)
    assert (watch["side"], watch["puzzle"]) == (9, grid.line())
    assert "".join(str(k + 1) for k in watch["regions"]) == variants.JIGSAW9_REGIONS
    assert watch["extras"] == [] and watch["legend"].startswith("jigsaw, 9x9")
    named = []
    for packed in watch["traces"]:  # the events as the trace makes them, hidden singles' houses named
        traced = trace(grid, packed["method"], max_steps=200, budget=Budget(nodes=40))  # the run's budget
        assert [row[:4] for row in packed["events"]] == [
            [EVENT_KINDS.index(e.kind), e.depth, -1 if e.cell is None else e.cell[0] * 9 + e.cell[1], e.value or 0]
            for e in traced.events]
        named += [row[5] for row in packed["events"] if row[4] == "hidden single"]
    assert named and all(re.fullmatch(r"in (row|column|region) [1-9]", said) for said in named)  # mrv's


@pytest.mark.slow
def test_the_puzzles_drawn_are_those_that_went_wrong(variants_run):
    _, page, records = variants_run
    gave_up = {str(r["puzzle"]) for r in records if r["status"] == "gave_up"}
    assert {Grid.parse(p).layout.variant for p in gave_up} == {"jigsaw", "x+windoku", "disjoint"}
    for puzzle in gave_up:
        assert grid_html(puzzle, caption="the puzzle") in page


# -- the houses in a browser: the DOM, and the pixels where a border must be drawn ---------------------------
# Writes where each cell of each drawn grid and of the player's board lies, once the page's scripts ran: the
# dumped DOM then says where to look in a screenshot of the same window.
WHERE_CELLS_LIE = """<script>
document.querySelectorAll("table.grid, #player .board").forEach((board) => {
  const cells = board.querySelectorAll(board.tagName === "TABLE" ? "td" : ".c");
  board.dataset.rects = JSON.stringify(Array.from(cells, (cell) => {
    const r = cell.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom, cell.textContent];
  }));
});
</script>"""
WINDOW = (1400, 1800)
INK = 90  # a pixel darker than this (mean of R, G, B) is ink: a thick border's, not a thin one's or a shade's


def regions_of(puzzle: str) -> str:
    """A puzzle's region map, one symbol a cell, read by hand: its `r=` word, else its boxes."""
    word = next((w[2:] for w in puzzle.split(";")[1:] if w.startswith("r=")), None)
    if word is not None:
        return word
    n = round(len(puzzle.split(";")[0]) ** 0.5)
    h = {9: 3, 6: 2}[n]
    return "".join(str(r // h * h + c // (n // h)) for r in range(n) for c in range(n))


def inked(shot: object, x: int, y: int, along_x: bool) -> int:
    """Ink pixels across a boundary: from 3 before to 3 after (x, y), across the line it runs along."""
    points = [(x + d, y) if along_x else (x, y + d) for d in range(-3, 4)]
    return sum(sum(shot.getpixel(p)[:3]) / 3 < INK for p in points)  # type: ignore[attr-defined]


@pytest.mark.browser
@pytest.mark.slow
def test_the_houses_are_drawn_where_they_are(browser, variants_run, tmp_path):
    """The drawn grids of the puzzles that went wrong (a Jigsaw, an X+Windoku, a disjoint, a 7x7 Jigsaw) and
    the player's board on the Jigsaw: every boundary between two neighbours is thick ink exactly where they lie
    in different regions, by the puzzles' own maps; and the DOM holds the houses."""
    image = pytest.importorskip("PIL.Image")
    _, page, _ = variants_run
    measured = tmp_path / "measured.html"
    measured.write_text(page.replace("</body>", WHERE_CELLS_LIE + "</body>"), encoding="utf-8")
    fragment = "only=puzzles,watch"
    window = WINDOW
    opened = browser.open(measured, tmp_path, fragment, *window, shot=tmp_path / "shot.png")
    boards = re.findall(r'<(table|div) class="(grid[^"]*|board)"[^>]*data-rects="([^"]*)"', opened.dom)
    lowest = max((bottom for *_, rects in boards for _, _, _, bottom, _ in json.loads(rects.replace("&quot;", '"'))),
                 default=0)
    if lowest + 20 > window[1]:  # a window tall enough for every board, then the positions in it
        window = (window[0], int(lowest) + 40)
        opened = browser.open(measured, tmp_path, fragment, *window, shot=tmp_path / "shot.png")
        boards = re.findall(r'<(table|div) class="(grid[^"]*|board)"[^>]*data-rects="([^"]*)"', opened.dom)
    assert opened.console == [], opened.console
    shot = image.open(tmp_path / "shot.png").convert("RGB")
    puzzles = {Grid.parse(p).line(): p for p in (variants.JIGSAW9, variants.X_WINDOKU9, variants.DISJOINT9,
                                                 variants.JIGSAW7)}
    assert sorted(kind for kind, _, _ in boards) == ["div", "table", "table", "table", "table"]
    for kind, _, rects in boards:
        cells = json.loads(rects.replace("&quot;", '"'))
        n = round(len(cells) ** 0.5)
        if kind == "div":  # the player: the watched Jigsaw, its candidates in the blank cells
            puzzle = variants.JIGSAW9
        else:
            givens = "".join(text or "." for *_, text in cells)
            puzzle = puzzles[givens]
        regions = regions_of(puzzle)
        assert len(regions) == n * n
        wrong = []
        for cell, (left, top, right, bottom, _) in enumerate(cells):
            r, c = divmod(cell, n)
            if c < n - 1:
                thick = inked(shot, round(right), round((top + bottom) / 2), along_x=True) >= 2
                if thick != (regions[cell] != regions[cell + 1]):
                    wrong.append(f"r{r + 1}c{c + 1}|r{r + 1}c{c + 2}")
            if r < n - 1:
                thick = inked(shot, round((left + right) / 2), round(bottom), along_x=False) >= 2
                if thick != (regions[cell] != regions[cell + n]):
                    wrong.append(f"r{r + 1}c{c + 1}/r{r + 2}c{c + 1}")
        assert not wrong, f"{kind} of {puzzle}: borders wrong at {wrong}"
    # the DOM: the player's cells carry their borders; the X's diagonal cells their lines
    player = re.findall(r'<div class="(c[^"]*)" title="r(\d+)c(\d+)"', opened.dom)
    assert len(player) == 81
    borders = region_borders(variants.JIGSAW9_REGIONS)
    assert [set(classes.split()) & {"R", "B"} for classes, _, _ in player] == borders
    x = re.search(r'<table class="grid n9 variant" data-variant="x\+windoku".*?</table>', opened.dom, re.DOTALL)
    assert x is not None
    cells = Cells()
    cells.feed(x.group(0))
    assert [("dp" in k, "dm" in k) for k, _, _ in cells.cells] == [(r + c == 8, r == c) for r in range(9)
                                                                   for c in range(9)]


@pytest.mark.browser
@pytest.mark.slow
def test_the_player_replays_a_jigsaw_in_its_houses(browser, variants_run, tmp_path):
    """mrv's search of the Jigsaw, stopped before its first dead end: every cell shows what a slow replay in the
    puzzle's own regions (its `r=` map) gives, its value or its candidates."""
    path, page, _ = variants_run
    watch = embedded(page)["watch"]
    assert isinstance(watch, dict)
    packed = watch["traces"][0]
    assert packed["method"] == "mrv:propagate=singles"
    kinds = [EVENT_KINDS[row[0]] for row in packed["events"]]
    step = kinds.index("dead_end")  # the events before it only fill cells and remove candidates
    regions, n = variants.JIGSAW9_REGIONS, 9
    values = [0 if ch == "." else int(ch) for ch in variants.JIGSAW9.split(";")[0]]
    candidates = [set(c) for c in packed["candidates"]]
    for kind, row in zip(kinds[:step], packed["events"][:step], strict=True):
        cell, value = row[2], row[3]
        if kind in ("try", "place"):
            values[cell], candidates[cell] = value, set()
            for other in range(n * n):  # its row, its column, its region, by the map
                if other // n == cell // n or other % n == cell % n or regions[other] == regions[cell]:
                    candidates[other].discard(value)
        elif kind == "remove":
            candidates[cell].discard(value)
    opened = browser.open(path, tmp_path, f"method=0&step={step}")
    assert opened.player_state()["step"] == str(step)
    shown = re.findall(r'<div class="c[^"]*" title="r\d+c\d+"[^>]*>(.*?)</div>(?=<div class="c|</div>)',
                       opened.dom)
    assert len(shown) == 81
    texts = [re.sub(r"<[^>]+>", "", cell) for cell in shown]
    assert texts == [str(v) if v else "".join(map(str, sorted(candidates[c]))) for c, v in enumerate(values)]
