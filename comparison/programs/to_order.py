"""`sudoku-generate --minimal | --hard-for SPEC`: puzzles made to order, written as a puzzle file.

--minimal: a random full grid (making/solutions.py), its clues taken away in random order while SAT certifies
the puzzle unique (making/minimal.py): unique and minimal by construction, at every size.
The generator's command line (commands/generate.py) hands over to it for these two.
--hard-for: the pool of comparison/programs/hard_search.py's local search, best first, when --minutes are spent or at
Ctrl-C or SIGTERM (the pool so far, exit status 130 or 143). --start FILE: the unique puzzles of FILE are
scored first and the best of them pooled, as tdoku's generator loads a pool; one of them that stays is named
where it was read.

Either on classic Sudoku or on a variant (`OrderSettings.variant`, the making.variants.Variant the command line
chose; a Jigsaw's regions drawn anew for each puzzle made fresh, kept by the moves from it).

The output is the line format (each puzzle, then its name) or, for a FILE.csv, CSV with the clue count and the
effort columns (what certifying took; with --hard-for the score and each method's mean effort), which
compare.py reads as it is.
"""
from __future__ import annotations

import csv
import dataclasses
import random
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from making.certify import solutions
from making.kinds import minimal_puzzle
from making.variants import Variant
from puzzles import BadEntry, Grid, PuzzleFileError, read_puzzles
from puzzles.fpuzzles import json_line
from puzzles.words import plural

from ..core.errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError
from ..core.settings import Settings
from ..execution.interrupts import Interrupted, stopped_by_signals
from ..run.comparison import registry_of
from ..run.methods import check_commands_selected, select_methods
from . import hard_search
from .hard_search import Scored, Search


@dataclass(frozen=True)
class HardFor:
    """--hard-for's search: the methods it scores puzzles by, their budget, and how long and how wide it looks."""

    hard: str  # --hard-for's method spec: the effort to make large
    easy: str | None  # --easy-for's: the score is the ratio of the two efforts
    command: tuple[str, ...]  # --command specs
    registry: tuple[str, ...]  # --registry modules
    timeout: float
    jobs: int | None
    solutions: int  # 2: the effort to prove each isomorph's solution unique
    minutes: float  # how long the search runs
    isomorphs: int  # a puzzle's effort is the geometric mean over this many isomorphs
    pool: int  # the best puzzles kept
    start: tuple[str, ...]  # --start files, named as given: a puzzle read from one is named where it was read

    @property
    def specs(self) -> list[str]:
        return [self.hard, *([self.easy] if self.easy else [])]

    @property
    def settings(self) -> Settings:
        """The runs' settings: the methods, their budget and the workers."""
        return Settings(methods=self.specs, command=list(self.command) or None,
                        registry=list(self.registry) or None, timeout=self.timeout, jobs=self.jobs,
                        solutions=self.solutions)


@dataclass(frozen=True)
class OrderSettings:
    """What the generator makes to order: minimal puzzles, or with `hard_for` puzzles made hard for a method
    (commands/generate.py builds it once from its command line)."""

    variant: Variant
    count: int | None  # None: one minimal puzzle, or --hard-for's whole pool
    seed: int
    output: str | None  # the file, named as given; None: standard output
    hard_for: HardFor | None  # None: minimal puzzles


@stopped_by_signals  # SIGINT and SIGTERM alike: the pool so far is written, exit 130 or 143
def made_to_order(order: OrderSettings) -> int:
    try:
        if order.hard_for:
            return hard(order, order.hard_for)
        return minimal(order)
    except OSError as exc:
        print(f"sudoku-generate: error: cannot write {order.output}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE


def progress_bar(what: str, total: float | None) -> Progress:
    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                    disable=not sys.stderr.isatty())


def minimal(order: OrderSettings) -> int:
    rng = random.Random(order.seed)
    rows: list[dict[str, object]] = []
    status = EXIT_OK
    count = order.count or 1
    with progress_bar("minimal puzzles", count) as bar:
        task = bar.add_task("made", total=count, note="")
        try:
            for i in range(count):
                started = time.perf_counter()
                made = minimal_puzzle(order.variant.layout(rng), rng)
                puzzle = made.puzzle
                rows.append({"puzzle": puzzle.text(), "name": f"minimal-{order.variant.tag}-seed{order.seed}-"
                             f"{i + 1}", "clues": puzzle.givens, "sat_checks": made.checks,
                             "forced": made.forced, "seconds": round(time.perf_counter() - started, 3)})
                bar.update(task, advance=1, note=plural(puzzle.givens, "clue"))
        except KeyboardInterrupt as exc:
            status = exc.status if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
    write(order.output, rows)
    return status


def hard(order: OrderSettings, asked: HardFor) -> int:
    specs = asked.specs
    try:
        settings = asked.settings
        check_commands_selected(asked.command, specs)  # the specs checked now, before any search
        selected = select_methods(specs, registry_of(settings), asked.solutions, settings.budget)
        labelled = dataclasses.replace(settings, methods=[s.label for s in selected])
        search = Search(labelled, order.variant, asked.isomorphs, random.Random(order.seed), pool_size=asked.pool,
                        start=[c for path in asked.start for c in read_start(path, order.variant)])
    except (UsageError, PuzzleFileError) as exc:
        print(f"sudoku-generate: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK
    minutes = asked.minutes
    read = len(search.start)
    with progress_bar("search", minutes * 60) as bar:
        task = bar.add_task("search", total=round(minutes * 60), note="")
        started = time.monotonic()

        def report(s: Search) -> None:
            best = s.pool[0].score if s.pool else 0.0
            bar.update(task, completed=min(round(time.monotonic() - started), round(minutes * 60)),
                       note=f"best {best:,.1f} ({s.counter or 'effort'}), {s.tried} tried")

        try:
            hard_search.run_search(search, minutes, report)
        except KeyboardInterrupt as exc:
            status = exc.status if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
    rows = []
    counter = search.counter or "effort"
    for rank, c in enumerate(search.pool[:order.count] if order.count else search.pool, 1):
        rows.append({"puzzle": c.puzzle.text(), "name": c.origin or f"hard-{order.variant.tag}-{rank}",
                     "clues": c.puzzle.givens, "score": round(c.score, 3),
                     f"{counter}_hard": round(c.hard, 3),
                     **({f"{counter}_easy": round(c.easy, 3)} if c.easy is not None else {}),
                     "isomorphs": c.isomorphs})
    write(order.output, rows)
    what = f"{search.labels[0]}" + (f" / {search.labels[1]}" if len(search.labels) > 1 else "")
    print(f"sudoku-generate: {plural(search.tried, 'puzzle')} tried"
          + (f" ({read:,} read from --start)" if read else "") + f", {len(rows)} written; best score "
          f"{rows[0]['score'] if rows else '-'} ({counter}, {what}, geometric mean over "
          f"{plural(asked.isomorphs, 'isomorph')})"
          + (f"; {plural(search.errors, 'candidate')} skipped for an error" if search.errors else ""),
          file=sys.stderr)
    return status


def read_start(path: str, made: Variant) -> list[Scored]:
    """The puzzles of a --start file, each with its solution: every one unique and of the variant and size
    searched, or a UsageError that names the file, the line and the reason."""
    read = []
    for record in read_puzzles(path):
        if isinstance(record, BadEntry):
            raise UsageError(f"--start {record}")
        grid = record.grid
        if grid.side != made.side or grid.layout.variant != made.name:
            raise UsageError(f"--start {record.where}: the search makes {made.label} puzzles, this one is "
                             f"{Variant(grid.layout.variant, grid.side).label}")
        found = solutions(grid, 2)
        if len(found) != 1:
            raise UsageError(f"--start {record.where}: " + ("no solution" if not found else "more than one "
                             "solution: the search keeps unique puzzles only"))
        read.append(Scored(grid, found[0], [], origin=record.where))
    if not read:
        raise UsageError(f"--start {path}: no puzzle in it")
    return read


def write(output: str | None, rows: Sequence[dict[str, object]]) -> None:
    """The puzzles as a line-format file (puzzle and name), CSV with every column when `output` ends in .csv, or
    f-puzzles JSON lines when it ends in .jsonl."""
    with ExitStack() as stack:
        handle: IO[str] = stack.enter_context(open(output, "w", newline="", encoding="utf-8")) if output \
            else sys.stdout
        if output and output.lower().endswith(".csv"):
            fields = list(dict.fromkeys(k for row in rows for k in row)) or ["puzzle", "name", "clues"]
            writer = csv.DictWriter(handle, fields)
            writer.writeheader()
            writer.writerows(rows)
        elif output and output.lower().endswith(".jsonl"):
            handle.writelines(json_line(Grid.parse(str(row["puzzle"])), str(row["name"])) + "\n" for row in rows)
        else:
            handle.writelines(f"{row['puzzle']} {row['name']}\n" for row in rows)
        handle.flush()

