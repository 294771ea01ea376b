"""The HTML report of a run: one self-contained page (scripts, styles and images inline, nothing fetched).

    python compare.py FILES ... --html report.html [--watch LINE] [--watch-steps N]

The page holds the run's settings, the terminal's tables (sortable), the cactus and effort plots, PAR-2,
the no-guess shares, the spread of effort over isomorphs, effort against a file's human rating, the
puzzles that went wrong with their grids, and a player of one puzzle's search by each hand-written method
(search/trace/'s events). Its script and style are comparison/report/page/static/; the charts are inline SVG, drawn by
matplotlib when the plot extra is installed and by comparison/report/page/svg.py otherwise.
"""
from __future__ import annotations

import datetime
import importlib.util
import json
import math
import statistics
from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources
from string import Template
from typing import Any, Protocol

from puzzles import Grid, PuzzleError, kernels
from puzzles.words import plural

from ...core.selected import CERTIFIER, Selected
from ...core.settings import Settings
from ...judging.judge import DISAGREEING, WRONG_ANSWER
from ...judging.stats import COMMON_COUNTERS, MethodStats, Summary, present
from ...records.format import Record
from ..plot import PLOT_COUNTERS, default_reference
from ..terminal import count_words, fmt_counter, fmt_seconds, fmt_share, gave_up_text, verdict_words
from . import figures, svg
from .houses import (
    CageMarks,
    OutsideMark,
    ShapeMarks,
    cage_marks,
    cell_marks,
    drawn_outlined,
    drawn_shaped,
    legend,
    margins,
    outside_marks,
    shape_marks,
)
from .player import DEFAULT_STEPS, find_watched, traces
from .runbook import CANDIDATE_KINDS, NOTABLE_KINDS, MethodRuns, Notable, RunBook


class Comparison(Protocol):
    """What the page reads of a run: comparison.run.Comparison is one (a protocol, so that the page does not
    import the run that writes it)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def summary(self) -> Summary: ...
    @property
    def files(self) -> Sequence[str]: ...
    @property
    def selected(self) -> Sequence[Selected]: ...
    @property
    def jobs(self) -> int: ...
    @property
    def wall(self) -> float: ...
    @property
    def busy_seconds(self) -> float: ...

POINTS_DRAWN = 1500  # points a rating panel draws at most (the correlation uses them all)
SPREADS_DRAWN = 150  # puzzles an isomorph panel draws at most
HEADINGS = {"invalid": "Invalid answers (a bug in the method)", "disagreement": "Disagreements",
            "error": "Errors", "gave_up": "Methods gave up",
            "not_run": "Methods that did not run: they cannot take these puzzles (not a failure)",
            "multiple_solutions": "More than one solution"}


def effort_counter(stats: MethodStats | MethodRuns) -> str | None:
    """The counter that stands for a method's effort in the charts: the first of PLOT_COUNTERS it reports."""
    return next((c for c in PLOT_COUNTERS if c in stats.effort), next(iter(stats.effort), None))


def write_html(path: str, comparison: Comparison, book: RunBook, reference: int | None = None,
               watched: Mapping[str, Any] | None = None, ladder: Sequence[Mapping[str, Any]] | None = None,
               interrupted: bool = False) -> None:
    """The page of a finished (or interrupted) run, written to `path`."""
    page = build_page(comparison, book, reference, watched, ladder, interrupted)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)


def build_page(comparison: Comparison, book: RunBook, reference: int | None = None,
               watched: Mapping[str, Any] | None = None, ladder: Sequence[Mapping[str, Any]] | None = None,
               interrupted: bool = False) -> str:
    summary = comparison.summary
    sections = [
        ("settings", "The run", settings_section(comparison, interrupted)),
        ("methods", "Methods", methods_section(comparison, book)),
        ("effort", "Effort", effort_section(comparison)),
        ("plots", "Plots", plots_section(comparison, book, reference)),
        ("ladder", "Inference ladder", ladder_section(ladder)),
        ("isomorphs", "Isomorphs", isomorph_section(comparison, book)),
        ("rating", "Human rating", rating_section(book)),
        ("puzzles", "Puzzles that went wrong", notable_section(book)),
        ("candidates", "True candidates", candidates_section(book)),
        ("decorations", "Decorations not read as rules", decorations_section(summary)),
        ("watch", "Watch a search", watch_section(watched)),
    ]
    shown = [(anchor, title, body) for anchor, title, body in sections if body]
    nav = " ".join(f'<a href="#{anchor}">{escape(title)}</a>' for anchor, title, _ in shown)
    body = "\n".join(f'<section id="{anchor}"><h2>{escape(title)}</h2>\n{content}</section>'
                     for anchor, title, content in shown)
    files = ", ".join("<stdin>" if f == "-" else f for f in comparison.files)
    return Template(static("report.html")).substitute(
        title=escape(f"compare.py: {files}"), heading=escape(f"{files}: {plural(summary.puzzles, 'puzzle')} x "
                                                            f"{plural(len(summary.stats), 'method')}"),
        style=static("report.css"), script=static("report.js"), nav=nav, body=body,
        data=script_json({"watch": watched or None}))


def static(name: str) -> str:
    return resources.files("comparison.report.page").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON that can sit inside a <script> element: no `</` to end it early."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


# -- the run ----------------------------------------------------------------------------------------------
def settings_section(comparison: Comparison, interrupted: bool) -> str:
    s, summary = comparison.settings, comparison.summary
    busy = comparison.busy_seconds / (comparison.jobs * comparison.wall) if comparison.wall > 0 else 0.0
    rows = [("files", ", ".join("<stdin>" if f == "-" else f for f in comparison.files)),
            ("puzzles", f"{summary.puzzles:,}" + (f" ({plural(s.isomorphs, 'isomorph')} each, seed {s.seed})"
                                                  if s.isomorphs else "")),
            ("methods", ", ".join(st.label for st in summary.stats)),
            ("kernels", kernels.BUILD.line().removeprefix("kernels: ")),
            ("budget", f"{s.timeout:g} s" + (f", {s.nodes:,} nodes" if s.nodes else "") + " per method per puzzle"),
            ("solutions", "2 (every method proves uniqueness)" if s.solutions == 2 else
             f"{s.solutions:,} (every method that can count counts up to {s.solutions:,})" if s.solutions > 2 else "1"),
            ("wall time", f"{comparison.wall:.2f} s, {plural(comparison.jobs, 'worker')} ({busy:.0%} busy)"),
            ("written", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))]
    rows += [("first", plural(s.limit, "puzzle"))] if s.limit else []
    rows += [("sample", f"{plural(s.sample, 'puzzle')} (seed {s.seed})")] if s.sample else []
    rows += [("certification", "off (--no-certify)")] if not s.certify else []
    rows += [("solutions counted", count_words(summary.counted))] if summary.counted else []
    table = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    if summary.failed:
        verdict, style = "FAILED: invalid answers or disagreements", "bad"
    elif interrupted:
        verdict, style = "Interrupted: so far every answer is valid and the methods agree", "warn"
    elif not summary.puzzles:
        verdict, style = "Nothing compared: the input held no puzzle", "bad"
    else:
        verdict, style = "OK: every answer valid, the methods agree", "good"
    verdicts = verdict_words(summary.verdicts)
    lines = [f'<p class="verdict {style}">{escape(verdict)}</p>',
             f'<table class="settings">{table}</table>',
             f"<p>Puzzles: {summary.puzzles:,}" + (f" ({escape(verdicts)})" if verdicts else "") + "</p>"]
    if summary.certified:
        lines.append(f"<p>Claims certified by {CERTIFIER}: {summary.confirmed:,} confirmed, {summary.refuted:,} "
                     "refuted (no solution, or a unique one, that no other method of the run corroborated)</p>")
    if summary.unchecked:
        lines.append(f'<p class="warn">Claims unchecked: {summary.unchecked:,}</p>')
    return "\n".join(lines)


# -- tables -----------------------------------------------------------------------------------------------
def cell(text: str, value: float | None = None) -> str:
    """A table cell; `value` is what the column sorts by (the text when None)."""
    sort = "" if value is None or math.isnan(value) else f' data-v="{value:.12g}"'
    return f"<td{sort}>{escape(text)}</td>"


def table(table_id: str, caption: str, header: Sequence[str], rows: Sequence[Sequence[str]],
          notes: str = "") -> str:
    head = "".join(f'<th title="click to sort">{escape(h)}</th>' for h in header)
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return (f'<div class="scroll"><table class="sortable" id="{table_id}"><caption>{escape(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{notes}")


def par2_of(runs: MethodRuns, timeout: float) -> float | None:
    return figures.par2(runs.seconds, [bool(ok) for ok in runs.settled], timeout)


def methods_section(comparison: Comparison, book: RunBook) -> str:
    header = ["method", "solved", "no guess", "unsat", "gave up (why)", "errors", "invalid", "disagree",
              "median s", "mean s", "max s", "puzzles/s", "PAR-2 s"]
    rows = []
    timeout = comparison.settings.timeout
    for s in comparison.summary.stats:
        c, seconds = s.counts, s.run_seconds
        total = sum(seconds)
        par2 = par2_of(book.methods[s.label], timeout)
        rate = len(seconds) / total if total > 0 else None
        share = s.no_guess_share
        rows.append([f'<th scope="row">{escape(s.label)}</th>', cell(f"{c['solved']:,}", c["solved"]),
                     cell(fmt_share(share), share), cell(f"{c['unsatisfiable']:,}", c["unsatisfiable"]),
                     cell(gave_up_text(c), c["gave_up"]), failure_cell(s.failures["error"]),
                     failure_cell(s.failures["invalid answer"]), failure_cell(s.failed(DISAGREEING)),
                     cell(fmt_seconds(seconds, statistics.median), median_or_none(seconds)),
                     cell(fmt_seconds(seconds, statistics.fmean), mean_or_none(seconds)),
                     cell(fmt_seconds(seconds, max), max(seconds, default=None)),
                     cell("-" if rate is None else f"{rate:,.1f}", rate),
                     cell("-" if par2 is None else f"{par2:.3g}", par2)])
    notes = ("<p class=\"note\">PAR-2: the mean time a puzzle, an unsolved run (gave up, failed, wrong) counted as "
             f"twice the timeout ({2 * timeout:g} s), as the SAT competitions score solvers. No guess: the share of "
             "the valid solutions that needed no guess, by the method's own count. Click a heading to sort.</p>")
    return table("methods-table", "Outcomes and time per puzzle", header, rows, notes)


def failure_cell(count: int) -> str:
    return f'<td data-v="{count}" class="{"bad" if count else ""}">{count:,}</td>'


def median_or_none(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def mean_or_none(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def effort_section(comparison: Comparison) -> str:
    stats = comparison.summary.stats
    found = [name for s in stats for name in s.effort]
    counters = list(dict.fromkeys([c for c in COMMON_COUNTERS if c in found] + found))
    if not counters:
        return ""
    rows = []
    for s in stats:
        row = [f'<th scope="row">{escape(s.label)}</th>']
        for name in counters:
            values = present(s.effort.get(name, ()))
            row.append(cell(fmt_counter(values), statistics.fmean(values) if values else None))
        rows.append(row)
    return table("effort-table", "Search effort per puzzle (mean / median; sorted by the mean)",
                 ["method", *counters], rows,
                 '<p class="note">Each counter means exactly what docs/concepts/effort.md says; '
                 "gave-up runs are included with the counts they reached.</p>")


# -- plots ------------------------------------------------------------------------------------------------
def plots_section(comparison: Comparison, book: RunBook, reference: int | None) -> str:
    summary = comparison.summary
    if not summary.puzzles or not summary.stats:
        return ""
    parts = []
    if importlib.util.find_spec("matplotlib") is not None:
        from ..plot import svg as matplotlib_svg

        parts.append(f'<div class="figure wide">{matplotlib_svg(summary, reference)}</div>')
    else:
        parts.append(f'<div class="figure">{cactus_chart(summary)}</div>'
                     f'<div class="figure">{effort_chart(summary, reference)}</div>')
    timeout = comparison.settings.timeout
    par2 = [par2_of(book.methods[s.label], timeout) for s in summary.stats]
    parts.append('<div class="figure">' + svg.bars(
        f"PAR-2 (s a puzzle; unsolved = {2 * timeout:g} s): shorter is better",
        [(s.label, p, svg.colour(i)) for i, (s, p) in enumerate(zip(summary.stats, par2, strict=True))],
        ["-" if p is None else f"{p:.3g} s" for p in par2]) + "</div>")
    shares = [s.no_guess_share for s in summary.stats]
    parts.append('<div class="figure">' + svg.bars(
        "No guess: share of the solutions that needed none",
        [(s.label, share, svg.colour(i)) for i, (s, share) in enumerate(zip(summary.stats, shares, strict=True))],
        ["cannot tell" if share is None else f"{share:.1%}" for share in shares]) + "</div>")
    return '<div class="figures">' + "".join(parts) + "</div>"


def cactus_chart(summary: Any) -> str:
    chart = svg.Chart("Cactus plot: further up and left is better", svg.Axis("time per puzzle (s, log)", log=True),
                      svg.Axis("puzzles solved within that time"))
    for i, s in enumerate(summary.stats):
        times = sorted(t for t, ok in zip(s.seconds, s.solved, strict=True) if ok and t > 0)
        if times:
            chart.steps([(t, k + 1) for k, t in enumerate(times)], svg.colour(i))
            chart.legend.append((s.label, svg.colour(i)))
    return chart.svg()


def effort_chart(summary: Any, reference: int | None) -> str:
    ref = summary.stats[default_reference(summary) if reference is None else reference]
    chart = svg.Chart(f"Effort against {ref.label}'s time",
                      svg.Axis(f"{ref.label}: time per puzzle (s, log)", log=True),
                      svg.Axis("effort + 1 (log; x = not solved)", log=True))
    for i, s in enumerate(summary.stats):
        counter = effort_counter(s)
        if counter is None:
            continue
        points = [(x, y + 1, ok) for x, y, ok in zip(ref.seconds, s.effort[counter], s.solved, strict=True)
                  if x > 0 and not math.isnan(y)]
        chart.dots(thin([(x, y) for x, y, ok in points if ok]), svg.colour(i))
        chart.dots(thin([(x, y) for x, y, ok in points if not ok]), svg.colour(i), marker="x")
        chart.legend.append((f"{s.label}: {counter}", svg.colour(i)))
    return chart.svg()


def thin(points: Sequence[Any], at_most: int = POINTS_DRAWN) -> list[Any]:
    """At most `at_most` of the points, evenly spaced: a chart of 50,000 dots says no more than one of 1,500."""
    if len(points) <= at_most:
        return list(points)
    step = len(points) / at_most
    return [points[int(i * step)] for i in range(at_most)]


# -- the inference ladder -----------------------------------------------------------------------------------
def ladder_section(rows: Sequence[Mapping[str, Any]] | None) -> str:
    """The ladder's table, when the run climbed it: one row a rung, its columns as the ladder report names them.

    The hook for compare.py's --ladder (its rows: dicts of column -> value, numbers sortable).
    """
    if not rows:
        return ""
    header = list(dict.fromkeys(k for row in rows for k in row))
    body = []
    for row in rows:
        cells = []
        for name in header:
            value = row.get(name)
            number = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
            text = "-" if value is None else f"{value:,}" if isinstance(value, int) and number is not None \
                else f"{value:.3g}" if number is not None else str(value)
            cells.append(cell(text, number))
        body.append(cells)
    return table("ladder-table", "What each rung of the inference ladder buys", header, body)


# -- isomorphs --------------------------------------------------------------------------------------------
def per_puzzle(runs: MethodRuns, book: RunBook, counter: str) -> dict[str, list[float]]:
    """file:line -> the counter's values on that puzzle's runs (its isomorphs, or the one run)."""
    values: dict[str, list[float]] = {}
    for puzzle, value in zip(runs.puzzle, runs.effort[counter], strict=True):
        if not math.isnan(value):
            values.setdefault(book.keys[puzzle].where, []).append(value)
    return values


def isomorph_section(comparison: Comparison, book: RunBook) -> str:
    if (comparison.settings.isomorphs or 0) < 2:
        return ""
    rows, panels = [], []
    for i, label in enumerate(book.labels):
        runs = book.methods[label]
        counter = effort_counter(runs)
        if counter is None:
            continue
        spreads = sorted(figures.spreads(per_puzzle(runs, book, counter)), key=lambda s: s.median)
        if not spreads:
            continue
        ratios = [s.ratio for s in spreads]
        wide = sum(r > 2 for r in ratios) / len(ratios)
        rows.append([f'<th scope="row">{escape(label)}</th>', cell(counter), cell(f"{len(spreads):,}", len(spreads)),
                     cell(f"{statistics.median(ratios):.2f}", statistics.median(ratios)),
                     cell(f"{max(ratios):,.1f}", max(ratios)), cell(f"{wide:.0%}", wide)])
        chart = svg.Chart(label, svg.Axis("puzzles, by their median effort"),
                          svg.Axis(f"{counter} + 1 (log)", log=True), width=360, height=240)
        chart.ranges([(k, s.low + 1, s.median + 1, s.high + 1) for k, s in thin(list(enumerate(spreads)),
                                                                                  SPREADS_DRAWN)], svg.colour(i))
        panels.append(f'<div class="figure">{chart.svg()}</div>')
    if not rows:
        return ""
    intro = (f"<p>Each puzzle ran as {comparison.settings.isomorphs} random isomorphs (the same puzzle relabelled, "
             "rows, columns, bands and stacks permuted): the effort of one orientation is one sample. A bar spans "
             "a puzzle's least to most effort over its isomorphs, the tick is its median.</p>")
    header = ["method", "counter", "puzzles", "median most/least", "largest most/least", "puzzles > 2x"]
    return intro + table("isomorph-table", "Spread of effort over a puzzle's isomorphs ((most + 1) / (least + 1))",
                         header, rows) + '<div class="figures">' + "".join(panels) + "</div>"


# -- human rating -----------------------------------------------------------------------------------------
def rating_section(book: RunBook) -> str:
    if not book.rated:
        return ""
    rows, panels = [], []
    for i, label in enumerate(book.labels):
        runs = book.methods[label]
        counter = effort_counter(runs)
        pairs = rated_means(runs, book, counter) if counter else []
        time_pairs = rated_means(runs, book, None)
        rho = figures.spearman([r for r, _ in pairs], [e for _, e in pairs]) if pairs else None
        rho_time = figures.spearman([r for r, _ in time_pairs], [t for _, t in time_pairs])
        rows.append([f'<th scope="row">{escape(label)}</th>', cell(counter or "-"), cell(f"{len(time_pairs):,}",
                     len(time_pairs)), cell(fmt_rho(rho), rho), cell(fmt_rho(rho_time), rho_time)])
        if counter and pairs:
            chart = svg.Chart(f"{label}: Spearman {fmt_rho(rho)}", svg.Axis("rating (human techniques)"),
                              svg.Axis(f"{counter} + 1 (log)", log=True), width=360, height=240)
            chart.dots(thin([(r, e + 1) for r, e in pairs]), svg.colour(i))
            chart.line(binned_medians([(r, e + 1) for r, e in pairs]), "#222")
            panels.append(f'<div class="figure">{chart.svg()}</div>')
    intro = ("<p>The file rates each puzzle by the human techniques it needs. Spearman's rank correlation says how "
             "well a method's effort follows that rating: 1, harder for people is always more work for the method; "
             "0, no relation. One point a puzzle (the mean over its isomorphs); the dark line joins the median "
             "effort of each half-point of rating.</p>")
    return intro + table("rating-table", "Effort against the human rating (Spearman's rank correlation)",
                         ["method", "counter", "puzzles", "rho (effort)", "rho (time)"], rows) + \
        '<div class="figures">' + "".join(panels) + "</div>"


def rated_means(runs: MethodRuns, book: RunBook, counter: str | None) -> list[tuple[float, float]]:
    """(rating, mean of the counter, or of the time when None, over the puzzle's runs: its isomorphs), a rated
    puzzle each."""
    column = runs.seconds if counter is None else runs.effort[counter]
    values: dict[str, tuple[float, list[float]]] = {}
    for puzzle, value in zip(runs.puzzle, column, strict=True):
        rating = book.ratings[puzzle]
        if not math.isnan(value) and not math.isnan(rating):
            values.setdefault(book.keys[puzzle].where, (rating, []))[1].append(value)
    return [(rating, statistics.fmean(v)) for rating, v in values.values()]


def binned_medians(points: Sequence[tuple[float, float]], width: float = 0.5) -> list[tuple[float, float]]:
    bins: dict[int, list[float]] = {}
    for x, y in points:
        bins.setdefault(math.floor(x / width), []).append(y)
    return [((b + 0.5) * width, statistics.median(ys)) for b, ys in sorted(bins.items())]


def fmt_rho(rho: float | None) -> str:
    return "-" if rho is None else f"{rho:+.2f}"


# -- puzzles that went wrong ------------------------------------------------------------------------------
def grid_html(text: str, answer: str | None = None, caption: str = "", pencil: Sequence[str] | None = None) -> str:
    """A drawn grid of a puzzle (its one-line form, `Grid.text()`): the givens in bold, an answer's other values
    in colour, or each blank cell's `pencil` marks (its true candidates' symbols, a `?` kept when some are
    undecided), its houses drawn (houses.py): thick borders between regions, the diagonals, the extra regions and
    disjoint groups shaded, a Killer's cages outlined, the constraints' lines and bulbs drawn."""
    try:
        grid = Grid.parse(text)
    except PuzzleError:
        return f"<pre>{escape(text)}</pre>"
    side, line, lay = grid.side, grid.line(), grid.layout
    marks = cell_marks(lay)
    cages = cage_marks(lay) if drawn_outlined(lay) else None
    shapes = shape_marks(lay) if drawn_shaped(lay) else None
    clues = {(m.row, m.column): m for m in outside_marks(lay)} if shapes is not None else {}
    around = margins(list(clues.values()), side)
    rows = []
    for r in around.rows(side):
        cells = []
        for c in around.columns(side):
            if not (0 <= r < side and 0 <= c < side):  # a margin's place: a clue outside the grid, or nothing
                cells.append(outside_cell(clues.get((r, c))))
                continue
            mark = marks[r * side + c]
            given, shown = line[r * side + c], (answer or line)[r * side + c]
            kind = "given" if given not in ".0_" else "filled" if shown not in ".0_" else "blank"
            text_shown = shown if shown not in ".0_" else ""
            if pencil is not None and kind == "blank":
                kind = "marked"
                text_shown = pencil[r * side + c] or "\u2205"  # no candidate: an empty set
            houses = f" {mark.classes}" if mark.classes else ""
            if clues:  # the grid's frame drawn by its edge cells, the margins outside it
                houses += "".join(f" {edge}" for edge, on in (("T", r == 0), ("L", c == 0), ("R", c == side - 1),
                                                               ("B", r == side - 1)) if on)
            style = f' style="{mark.style}"' if mark.style else ""
            shape = shapes[r * side + c] if shapes is not None else None
            if shape is not None and (shape.lines or shape.discs or shape.marks):
                cells.append(shaped_cell(f"{kind} {mark.edges}{houses}", style, text_shown, shape,
                                         None if cages is None else cages[r * side + c]))
            elif cages is None:
                cells.append(f'<td class="{kind} {mark.edges}{houses}"{style}>{escape(text_shown)}</td>')
            else:
                cells.append(caged_cell(f"{kind} {mark.edges}{houses}", style, text_shown, cages[r * side + c]))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    marked = (" marks" if pencil is not None else "") + (" clued" if clues else "")
    if grid.text() == line:  # the side's boxes and no other house: nothing to name
        title = f"<caption>{escape(caption)}</caption>" if caption else ""
        return f'<table class="grid n{side}{marked}">{title}{"".join(rows)}</table>'
    said = legend(lay)
    title = f'<caption title="{escape(said)}">{escape(caption + (": " if caption else "") + lay.variant)}</caption>'
    return (f'<table class="grid n{side} variant{marked}" data-variant="{escape(lay.variant)}" '
            f'title="{escape(said)}">{title}{"".join(rows)}</table>')


def outside_cell(clue: OutsideMark | None) -> str:
    """A place in a margin of a drawn grid: the clues written there (their names as its tooltip), or nothing."""
    if clue is None:
        return '<td class="o"></td>'
    return f'<td class="o" title="{escape(clue.names)}">{escape(clue.text)}</td>'


def caged_cell(classes: str, style: str, text: str, cage: CageMarks) -> str:
    """A cell of a Killer's drawn grid: its share of the cages' dashed outlines (an SVG in the cell's own units,
    houses.py), the total of a cage it begins as `data-total` (the style writes it in the corner, and the cell's
    text stays its value), and the names of its cages as its tooltip."""
    total = f' data-total="{escape(cage.total)}"' if cage.total else ""
    title = f' title="{escape(cage.names)}"' if cage.names else ""
    outline = cage_svg(cage.path) if cage.path else ""
    return f'<td class="{classes} k"{style}{total}{title}>{outline}{escape(text)}</td>'


def shaped_cell(classes: str, style: str, text: str, shape: ShapeMarks, cage: CageMarks | None) -> str:
    """A cell a constraint is drawn on: its share of the lines and bulbs (an SVG in the cell's own units, under
    its text), its cages' drawing when it has some (`caged_cell`), and the names of both as its tooltip."""
    total = f' data-total="{escape(cage.total)}"' if cage is not None and cage.total else ""
    names = ", ".join(n for n in (cage.names if cage is not None else "", shape.names) if n)
    title = f' title="{escape(names)}"' if names else ""
    outline = cage_svg(cage.path) if cage is not None and cage.path else ""
    caged = " k" if cage is not None else ""
    return (f'<td class="{classes}{caged} s"{style}{total}{title}>{shape_svg(shape.lines, shape.discs, shape.marks)}'
            f'{outline}{escape(text)}</td>')


def shape_svg(lines: str, discs: str, marks: str = "") -> str:
    """A cell's pieces of the constraints' lines, its discs and its marks (dots, letters, circles, squares),
    stretched over the cell under its text."""
    drawn = (f'<path class="line" d="{lines}"/>' if lines else "") + (f'<path class="disc" d="{discs}"/>'
                                                                      if discs else "") + marks
    return f'<svg class="shape" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">{drawn}</svg>'


def cage_svg(path: str) -> str:
    """A cell's pieces of the cages' outlines, stretched over the cell (viewBox 0 0 1 1; the strokes keep their
    width and dashes in pixels)."""
    return (f'<svg class="cage" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">'
            f'<path d="{path}"/></svg>')


def notable_section(book: RunBook) -> str:
    parts = []
    for kind in NOTABLE_KINDS:
        count = book.notable_count[kind]
        if not count:
            continue
        shown = book.notable[kind]
        more = f" (the first {len(shown)} drawn)" if count > len(shown) else ""
        parts.append(f'<h3 class="{kind}">{escape(HEADINGS[kind])}: {count:,}{more}</h3><div class="puzzles">')
        parts.extend(notable_html(n) for n in shown)
        parts.append("</div>")
    if book.bad_count:
        parts.append(f"<h3>Bad entries (skipped): {book.bad_count:,}</h3><ul>")
        parts.extend(f"<li>{escape(line)}</li>" for line in book.bad)
        parts.append("</ul>")
    return "".join(parts)


def notable_html(notable: Notable) -> str:
    where = notable.key.where + (f" {notable.name}" if notable.name else "")
    where += f" (isomorph {notable.key.isomorph})" if notable.key.isomorph else ""
    grids = [grid_html(notable.puzzle, caption="the puzzle")] if notable.puzzle else []
    runs = []
    for record in notable.records:
        status = record.status.value if record.status is not None else ""
        said = (f"not run ({record.not_run})" if record.not_run is not None else
                status.replace("_", " ") + (f" ({record.detail})" if record.detail else ""))
        # (a kept puzzle no longer a grid has every record marked invalid, whatever its run said)
        style = "bad" if record.failure in WRONG_ANSWER or record.valid is False else ""
        runs.append(f'<li class="{style}">{escape(record.method or "")}: {escape(said)}'
                    + (f" — {escape(record.problems)}" if record.problems else "") + "</li>")
        if record.valid is False and record.solution and notable.puzzle and \
                len(record.solution) == Grid.parse(notable.puzzle).side ** 2:
            grids.append(grid_html(notable.puzzle, record.solution, f"{record.method}'s answer"))
    note = f"<p>{escape(notable.note)}</p>" if notable.note else ""
    return (f'<div class="puzzle"><h4>{escape(where)}: {escape(notable.verdict.replace("_", " "))}</h4>{note}'
            f'<div class="grids">{"".join(grids)}</div><ul>{"".join(runs)}</ul></div>')


# -- true candidates and decorations ----------------------------------------------------------------------
def candidates_section(book: RunBook) -> str:
    """--candidates: the puzzles of each kind, and the pencil marks of the first puzzles with more than one
    candidate somewhere (a unique puzzle's marks are its solution)."""
    if not book.candidates:
        return ""
    counts = ", ".join(f"{book.candidates[k]:,} {k}" for k in CANDIDATE_KINDS if book.candidates[k])
    parts = [f'<p id="candidates-counts">Each cell\'s true candidates are the values it takes in some solution, found '
             f"exactly by SAT: {escape(counts)}.</p>"]
    if book.marked:
        more = sum(book.candidates[k] for k in ("several solutions", "gave up")) - len(book.marked)
        parts.append("<p class=\"note\">The pencil marks of the puzzles with more than one candidate somewhere"
                     + (f" (the first {len(book.marked)}; {more:,} more)" if more > 0 else "")
                     + "; a <code>?</code> marks a cell whose other values the search left undecided.</p>")
        parts.append('<div class="puzzles">')
        for marked in book.marked:
            where = marked.key.where + (f" {marked.name}" if marked.name else "")
            where += f" (isomorph {marked.key.isomorph})" if marked.key.isomorph else ""
            parts.append(f'<div class="puzzle" data-candidates="{escape(",".join(marked.marks))}">'
                         f"<h4>{escape(where)}: {escape(marked.kind)}</h4><div class=\"grids\">"
                         f'{grid_html(marked.puzzle, caption="true candidates", pencil=marked.marks)}</div></div>')
        parts.append("</div>")
    return "".join(parts)


def decorations_section(summary: Summary) -> str:
    """--decorations ignore and --accept-fields: the puzzles read without their decorations, or their accepted
    fields, and which those were."""
    parts = []
    for kind, said in (("decorations", "read with <code>--decorations ignore</code>: their cosmetic elements were "
                        "not read as rules. A puzzle whose decorations matter (its rules text gives them a meaning) "
                        "was solved as another puzzle; it then often has more than one solution."),
                       ("accepted", "read with <code>--accept-fields</code>: these fields were read and ignored.")):
        count = summary.notable_count[kind]
        if not count:
            continue
        listed = summary.notable.get(kind, [])
        more = f"<li>... {count - len(listed):,} more</li>" if count > len(listed) else ""
        items = "".join(f"<li>{escape(unmarked(line))}</li>" for line in listed)
        parts.append(f'<p>{plural(count, "puzzle")} {said}</p><ul id="{kind}">{items}{more}</ul>')
    return "".join(parts)


def unmarked(line: str) -> str:
    """A summary's line as plain text: the terminal's rich markup escapes taken back."""
    return line.replace("\\[", "[")


# -- the player -------------------------------------------------------------------------------------------
def watch_section(watched: Mapping[str, Any] | None) -> str:
    """The player's frame; report.js fills it from the page's data (the traces of `--watch`)."""
    if not watched:
        return ""
    notes = "".join(f"<li>{escape(n)}</li>" for n in watched.get("notes", []))
    return (f"<p>{escape(watched['where'])}: the search of each hand-written method of the run, step by step. "
            "Candidates are the small digits; the chosen cell is outlined, a value tried is blue, a value placed by "
            "inference green, a dead end red. Keys: arrows step, Home and End jump, space plays.</p>"
            + (f"<ul class=\"note\">{notes}</ul>" if notes else "")
            + '<div id="player"></div>')


# -- compare.py's --html ------------------------------------------------------------------------------------
class HtmlOutput:
    """--html FILE [--watch LINE] [--watch-steps N]: the records gathered as the run yields them, the page after.

    Everything that can be refused (the path, the watched line) is refused when it is made, before the run.
    """

    def __init__(self, path: str, comparison: Comparison, watch: str | None = None,
                 watch_steps: int = DEFAULT_STEPS) -> None:
        self.path, self.comparison, self.steps = path, comparison, watch_steps
        self.watched = find_watched(watch, comparison.files, comparison.settings.input_format,
                                    comparison.settings.decorations, comparison.settings.accept_fields) \
            if watch else None
        self.book = RunBook([s.label for s in comparison.selected])

    def add(self, records: Sequence[Record]) -> None:
        self.book.add(records)

    def write(self, reference: int | None, interrupted: bool = False,
              ladder: Sequence[Mapping[str, Any]] | None = None) -> None:
        watched = (traces(self.watched, self.comparison.selected, self.steps, self.comparison.settings.budget)
                   if self.watched else None)
        write_html(self.path, self.comparison, self.book, reference, watched, ladder, interrupted)
