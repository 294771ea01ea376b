"""`sudoku-generate --minimal | --hard-for SPEC`: puzzles made to order, written as a puzzle file.

--minimal: a random full grid (making/solutions.py), its clues taken away in random order while SAT certifies
the puzzle unique (making/minimal.py): unique and minimal by construction, at every size.
The generator's command line (commands/generate.py) hands over to it for these two.
--hard-for: the pool of comparison/programs/hard_search.py's local search, best first, when --minutes are spent or at
Ctrl-C or SIGTERM (the pool so far, exit status 130 or 143). --start FILE: the unique puzzles of FILE are
scored first and the best of them pooled, as tdoku's generator loads a pool; one of them that stays is named
where it was read.

Either on classic Sudoku or on a variant (`args.variant`, the making.variants.Variant the command line chose;
a Jigsaw's regions drawn anew for each puzzle made fresh, kept by the moves from it).

The output is the line format (each puzzle, then its name) or, for a FILE.csv, CSV with the clue count and the
effort columns (what certifying took; with --hard-for the score and each method's mean effort), which
compare.py reads as it is.
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import random
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from typing import IO, Any

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


@stopped_by_signals  # SIGINT and SIGTERM alike: the pool so far is written, exit 130 or 143
def made_to_order(args: argparse.Namespace) -> int:
    try:
        if args.hard_for:
            return hard(args)
        return minimal(args)
    except OSError as exc:
        print(f"sudoku-generate: error: cannot write {args.output}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE


def progress_bar(what: str, total: float | None) -> Progress:
    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                    disable=not sys.stderr.isatty())


def minimal(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    status = EXIT_OK
    count = args.count or 1
    with progress_bar("minimal puzzles", count) as bar:
        task = bar.add_task("made", total=count, note="")
        try:
            for i in range(count):
                started = time.perf_counter()
                made = minimal_puzzle(args.variant.layout(rng), rng)
                puzzle = made.puzzle
                rows.append({"puzzle": puzzle.text(), "name": f"minimal-{args.variant.tag}-seed{args.seed}-"
                             f"{i + 1}", "clues": puzzle.givens, "sat_checks": made.checks,
                             "forced": made.forced, "seconds": round(time.perf_counter() - started, 3)})
                bar.update(task, advance=1, note=plural(puzzle.givens, "clue"))
        except KeyboardInterrupt as exc:
            status = exc.status if isinstance(exc, Interrupted) else EXIT_INTERRUPTED
    write(args.output, rows)
    return status


def hard(args: argparse.Namespace) -> int:
    specs = [args.hard_for, *([args.easy_for] if args.easy_for else [])]
    try:
        settings = Settings(methods=specs, command=args.command, registry=args.registry, timeout=args.timeout,
                            jobs=args.jobs, solutions=args.solutions)
        check_commands_selected(args.command or [], specs)  # the specs checked now, before any search
        selected = select_methods(specs, registry_of(settings), args.solutions, settings.budget)
        labelled = dataclasses.replace(settings, methods=[s.label for s in selected])
        search = Search(labelled, args.variant, args.isomorphs, random.Random(args.seed), pool_size=args.pool,
                        start=[c for path in args.start or [] for c in read_start(path, args.variant)])
    except (UsageError, PuzzleFileError) as exc:
        print(f"sudoku-generate: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK
    minutes = args.minutes
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
    for rank, c in enumerate(search.pool[:args.count] if args.count else search.pool, 1):
        rows.append({"puzzle": c.puzzle.text(), "name": c.origin or f"hard-{args.variant.tag}-{rank}",
                     "clues": c.puzzle.givens, "score": round(c.score, 3),
                     f"{counter}_hard": round(c.hard, 3),
                     **({f"{counter}_easy": round(c.easy, 3)} if c.easy is not None else {}),
                     "isomorphs": c.isomorphs})
    write(args.output, rows)
    what = f"{search.labels[0]}" + (f" / {search.labels[1]}" if len(search.labels) > 1 else "")
    print(f"sudoku-generate: {plural(search.tried, 'puzzle')} tried"
          + (f" ({read:,} read from --start)" if read else "") + f", {len(rows)} written; best score "
          f"{rows[0]['score'] if rows else '-'} ({counter}, {what}, geometric mean over "
          f"{plural(args.isomorphs, 'isomorph')})"
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


def write(output: str | None, rows: Sequence[dict[str, Any]]) -> None:
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
            handle.writelines(json_line(Grid.parse(row["puzzle"]), row["name"]) + "\n" for row in rows)
        else:
            handle.writelines(f"{row['puzzle']} {row['name']}\n" for row in rows)
        handle.flush()

