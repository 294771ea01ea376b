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
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fixtures import SEED000, SEED001
from headless import Browser, find_browser

import compare
import search
from comparison.report.page import figures
from comparison.report.page.html import grid_html, ladder_section
from comparison.report.page.player import KINDS
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
    """One run on the project's puzzles, with the seed 001 puzzle watched (line 7 of seeds.txt)."""
    folder = tmp_path_factory.mktemp("seeds")
    code, page, records = run_report(folder, SEEDS, "--solver", "mrv", "--solver", "mrv:propagate=singles",
                                     "--solver", "backtracking", "--timeout", 2, "--watch", 7,
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


def test_the_page_fetches_nothing(seeds_run):
    _, page, _ = seeds_run
    tables = parse(page)
    assert all(not re.match(r"\s*(https?:)?//", url, re.IGNORECASE) for url in tables.urls)
    assert "<link" not in page and "@import" not in page
    assert not re.search(r"url\((?!#)", page)  # url(#id): a clip path of the same SVG
    assert re.search(r'http-equiv="Content-Security-Policy" content="default-src \'none\'', page)


def test_the_puzzles_that_went_wrong_are_drawn(seeds_run):
    _, page, records = seeds_run
    gave_up = {(r["line"], r["puzzle"]) for r in records if r["status"] == "gave_up"}
    assert gave_up  # backtracking cannot finish the 16x16 and 25x25 puzzles in 2 s
    for line, puzzle in gave_up:
        assert f"seeds.txt:{line}" in page
        assert grid_html(str(puzzle), caption="the puzzle") in page


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
            assert (KINDS[row[0]], row[1], row[2], row[3]) == (event.kind, event.depth, cell, event.value or 0)


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
    found = find_browser()
    if found is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    folder = tmp_path_factory.mktemp("probe")
    probe = folder / "probe.html"
    probe.write_text("<!DOCTYPE html><p id=x></p><script>document.getElementById('x').textContent='ran'</script>")
    try:
        ran = "ran" in found.open(probe, folder).dom
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"{found.program} cannot run headless here ({exc})")
    if not ran:
        pytest.skip(f"{found.program} does not run a page's script headless here")
    return found


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
        assert state["kind"] == KINDS[kind]
        assert state["cell"] == ("" if cell < 0 else f"{cell // 9},{cell % 9}")
        if KINDS[kind] in ("try", "place"):
            assert state["shown"] == str(value)  # the value tried or placed stands in its cell


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
    from comparison.report.page.runbook import RunBook

    def record(line: int, status: str, verdict: str) -> dict[str, object]:
        return {"file": "f", "line": line, "isomorph": 0, "method": "m", "status": status, "detail": "time",
                "seconds": 1.0, "valid": None, "verdict": verdict, "rating": None, "puzzle": "", "solution": None,
                "unique": None, "problems": "", "note": "", "disagrees": False, "nodes": 1}

    book = RunBook(["m"])
    book.add([record(1, "gave_up", "agree"), record(2, "gave_up", "interrupted")])
    assert [(key.file, key.line) for key in book.keys] == [("f", 1)]
    assert book.notable_count["gave_up"] == 1
