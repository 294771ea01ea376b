"""The screen: the progress bar on stderr, the report's tables and lists, and --list's table of methods."""
from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from puzzles import GAVE_UP_REASONS, Count, Method
from puzzles.options import ALL
from puzzles.words import plural

from ..core.selected import CERTIFIER
from ..execution.result import NOT_RUN
from ..judging.judge import DISAGREEING
from ..judging.stats import COMMON_COUNTERS, LISTED, Summary, present


class ProgressBar:
    """Puzzles done, rate and time left on stderr when it is a terminal; silent otherwise."""

    def __init__(self, total: int | None, enabled: bool) -> None:
        self.bar: Any = None
        self.last = 0.0
        if not enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        # No refresh thread: workers are forked from this process, and forking while a thread runs is unsafe.
        self.bar = Progress(TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True, auto_refresh=False,
                            redirect_stdout=False, redirect_stderr=False)
        self.task = self.bar.add_task("puzzles", total=total, rate="")
        self.started = time.perf_counter()
        self.bar.start()

    def advance(self) -> None:
        if self.bar is None:
            return
        self.bar.advance(self.task)
        now = time.perf_counter()
        if now - self.last > 0.1:
            done = self.bar.tasks[0].completed
            self.bar.update(self.task, rate=f"{done / max(now - self.started, 1e-9):.1f}/s")
            self.bar.refresh()
            self.last = now

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def fmt_seconds(values: Sequence[float], how: Callable[[Sequence[float]], float]) -> str:
    return f"{how(values):.3g}" if values else "-"


def fmt_count(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.1f}"


def fmt_counter(values: Sequence[float]) -> str:
    """'mean / median' of a counter's reported values."""
    values = present(values)
    if not values:
        return "-"
    return f"{fmt_count(statistics.fmean(values))} / {fmt_count(statistics.median(values))}"


def method_table(summary: Summary) -> Table:
    table = Table(title="Methods: outcomes and time per puzzle", title_justify="left")
    for name in ("method", "solved", "no guess", "unsat", "gave up (why)", "errors", "invalid", "disagree",
                 "median s", "mean s", "max s", "puzzles/s"):
        table.add_column(name, justify="left" if name == "method" else "right")
    for s in summary.stats:
        c, seconds = s.counts, s.run_seconds
        total = sum(seconds)
        table.add_row(
            escape(s.label), f"{c['solved']:,}", fmt_share(s.no_guess_share), f"{c['unsatisfiable']:,}",
            gave_up_text(c),
            red_if(s.failures["error"]), red_if(s.failures["invalid answer"]), red_if(s.failed(DISAGREEING)),
            fmt_seconds(seconds, statistics.median), fmt_seconds(seconds, statistics.fmean),
            fmt_seconds(seconds, max), f"{len(seconds) / total:,.1f}" if total > 0 else "-")
    return table


def gave_up_text(counts: Counter[str]) -> str:
    """'N (k time, j nodes, ...)': the runs that gave up, and why (a run the method could not take: `not run`)."""
    why = ", ".join(f"{counts['gave_up_' + r]:,} {r}" for r in (*GAVE_UP_REASONS, NOT_RUN, "other")
                    if counts["gave_up_" + r])
    return f"{counts['gave_up']:,} ({why})" if counts["gave_up"] else "0"


def fmt_share(share: float | None) -> str:
    return "-" if share is None else f"{share:.1%}"


def red_if(count: int, style: str = "bold red") -> str:
    """A count that should be 0, marked (bold red, or `style`) when it is not."""
    return f"[{style}]{count:,}[/]" if count else "0"


def effort_table(summary: Summary) -> Table:
    table = Table(title="Search effort per puzzle (mean / median)", title_justify="left")
    table.add_column("method")
    for name in COMMON_COUNTERS:
        table.add_column(name, justify="right")
    table.add_column("other counters")
    for s in summary.stats:
        others = [f"{name} {fmt_counter(values)}" for name, values in s.effort.items() if name not in COMMON_COUNTERS]
        table.add_row(escape(s.label), *(fmt_counter(s.effort.get(name, ())) for name in COMMON_COUNTERS),
                      "\n".join(others) or "-")
    return table


NOTABLE = (  # kind, heading, style; the loudest first
    ("invalid", "INVALID answers (a bug in the method)", "bold red"),
    ("disagreement", "Disagreements", "bold red"),
    ("error", "Puzzles with errors", "red"),
    ("gave_up", "Puzzles where methods gave up", "yellow"),
    ("not_run", "Puzzles some methods did not run: they cannot take them (not a failure)", "cyan"),
    ("multiple_solutions", "More than one solution (not a disagreement)", "cyan"),
    ("decorations", "Puzzles read with decorations ignored (--decorations ignore): what was not read as rules",
     "cyan"),
    ("accepted", "Puzzles read with fields accepted (--accept-fields): the fields read and ignored", "cyan"),
    ("candidates", "Puzzles whose true candidates were not all found (--candidates)", "yellow"),
)


def print_report(console: Console, summary: Summary, header: str, interrupted: bool = False,
                 certifying: bool = True) -> None:
    console.print(header)
    if summary.stats:
        console.print(method_table(summary))
        console.print(effort_table(summary))
    room = LISTED  # lines for all the lists together, the loudest first; each list shows at least two
    for kind, heading, style in NOTABLE:
        count = summary.notable_count[kind]
        if not count:
            continue
        lines = summary.notable.get(kind, [])[:max(2, room)]
        room -= len(lines)
        console.print(f"[{style}]{heading}: {count:,}[/]")
        for line in lines:
            console.print(f"  [{style}]{line}[/]" if kind == "invalid" else f"  {line}", highlight=False)
        if count > len(lines):
            console.print(f"  ... {count - len(lines):,} more")
    if summary.bad_count:
        console.print(f"[yellow]Bad entries (skipped): {summary.bad_count}[/]")
        for line in summary.bad:
            console.print(f"  {escape(line)}", highlight=False)
        if summary.bad_count > len(summary.bad):
            console.print(f"  ... {summary.bad_count - len(summary.bad)} more")
    verdicts = verdict_words(summary.verdicts)
    console.print(f"Puzzles: {summary.puzzles:,}" + (f" ({verdicts})" if verdicts else ""))
    if summary.counted:
        console.print(f"Solutions counted: {count_words(summary.counted)}", highlight=False)
    if summary.candidates:
        console.print(f"True candidates (by SAT): {candidate_words(summary.candidates)}", highlight=False)
    if summary.certified:
        console.print(f"Claims certified by {CERTIFIER}: {summary.confirmed:,} confirmed, {summary.refuted:,} "
                      "refuted (no solution, or a unique one, that no other method of the run corroborated)")
    if summary.unchecked:
        why = "certification is off (--no-certify)" if not certifying else f"{CERTIFIER} could not settle them"
        console.print(f"[yellow]Claims unchecked: {summary.unchecked:,} (no solution, or a unique one, that no "
                      f"other method corroborated; {why})[/]")
    errors = error_text(summary)
    if summary.failed:
        console.print("[bold red]FAILED: invalid answers or disagreements" + (f"; and {errors}" if errors else "")
                      + "[/]")
    elif errors:
        console.print(f"[bold red]FAILED: {errors}; the answers given are valid and agree[/]")
    elif interrupted:
        console.print("[yellow]Interrupted: so far every answer is valid and the methods agree[/]")
    elif not summary.puzzles:
        console.print("[bold red]Nothing compared: the input held no puzzle[/]")
    else:
        console.print("[green]OK: every answer valid, the methods agree[/]")


def verdict_words(verdicts: Counter[str]) -> str:
    """`8 agree, 3 disagreements, 2 unsatisfiable`: each verdict's puzzles, the one noun of them counted as one."""
    return ", ".join(plural(n, "disagreement") if k == "disagreement" else f"{n:,} {k.replace('_', ' ')}"
                     for k, n in sorted(verdicts.items()))


def candidate_words(kinds: Counter[str]) -> str:
    """`3 puzzles unique, 1 several solutions`: the puzzles of each kind of true candidates, in a fixed order."""
    order = [k for k in ("unique", "several solutions", "no solution", "gave up") if kinds[k]]
    return ", ".join(f"{plural(kinds[k], 'puzzle') if i == 0 else f'{kinds[k]:,}'} {k}" for i, k in enumerate(order))


def count_words(counted: Counter[Count]) -> str:
    """`1 puzzle with 0, 2 with 1, 1 with 7, 1 with 10+`: the puzzles of each count, the exact before the floors."""
    order = sorted(counted, key=lambda c: (c.found, not c.exact))
    return ", ".join(f"{plural(counted[c], 'puzzle') if i == 0 else f'{counted[c]:,}'} with {c}"
                     for i, c in enumerate(order))


def error_text(summary: Summary) -> str:
    """'N error records (a crash, ...) on M puzzles', or '' when there are none."""
    if not summary.errors:
        return ""
    puzzles = summary.notable_count["error"]
    return (f"{plural(summary.errors, 'error record')} (a crash, junk output or a protocol error) on "
            f"{plural(puzzles, 'puzzle')}")


def print_methods(console: Console, registry: dict[str, Method]) -> None:
    table = Table(title="Registered methods (--solver NAME[:key=value,...])", title_justify="left")
    for name in ("method", "summary", "options", "counters"):
        table.add_column(name)
    for name, method in registry.items():
        # `solutions` is every method's: said once below the table, not in every row
        options = [f"[bold]{k}[/]: {escape(v)}" for k, v in method.options.items() if k != "solutions"]
        table.add_row(name, escape(method.summary), "\n".join(options) or "-", ", ".join(method.counters) or "-")
    console.print(table)
    console.print("Every method also takes [bold]solutions[/]=1 (stop at the first, the default), 2 (go on to "
                  "prove there is no other solution) or N > 2 (count the solutions up to N; all: up to "
                  f"{ALL}); --solutions N sets it for all.")
