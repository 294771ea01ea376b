#!/usr/bin/env python3
"""Run every method on puzzle files, check that they agree, and report each one's search effort.

    python compare.py [FILE ...] [--solver NAME[:key=value,...]]... [--timeout S] [--nodes N]
        [--solutions 2|N|all] [--limit K] [--sample K] [--seed S] [--isomorphs K] [--jobs N]
        [--format csv|jsonl] [--output FILE] [--plot FILE.png] [--html FILE.html [--watch [FILE:]LINE]]
        [--watch-steps N] [--reference METHOD] [--registry MODULE]
        [--command NAME[:mode=once,input=matrix|fpuzzles]='PROGRAM ARGS']... [--input-format line|grid|csv]
        [--decorations refuse|ignore] [--accept-fields NAME,...] [--candidates] [--no-certify] [--list] [--cluster tcp://HOST:8786|local:N]
        [--resume]
    python compare.py FILE ... --ladder [--timeout S] [--limit K] [--sample K] [--jobs N] [--output FILE]
    python compare.py --fuzz DURATION|--limit N [--solver ...] [--command ...] [--against METHOD] [--box 2|3|4|5]...
        [--output FAILURES.txt]   (comparison/programs/fuzz.py)
    python compare.py --fuzz DURATION|--limit N --steps 'PROGRAM ARGS' [--box 2|3|4|5]... [--timeout S]
        [--output FAILURES.txt]   (a logic solver's steps: comparison/programs/steps.py)

How it runs. The puzzle files are streamed: each puzzle becomes one work item per
method, (puzzle id, method index, cell values), and items go to worker processes
in short chunks, a few in flight per worker, so memory stays flat whatever the
file's length (comparison/execution/pool.py holds the sizes, the grace and the
batching: its constants, in one place). Workers are forked from this
process: the registries (and ortools, when a chosen method needs it) are imported
once, here, and methods that tests register are found too. A worker counts the
runs it starts and stamps the start time of each in shared memory, and sends
results in batches. The parent kills a worker whose run in hand overruns the
timeout plus a grace, records that run as gave_up (time (killed)), puts the
worker's other unreported items back in the queue and forks a new worker; a
worker that dies turns its run in hand into an error record the same way. When a
puzzle's runs are all in, its answers are judged (comparison/judging/judge.py):
each was already checked against the rules and the givens in the worker
(comparison/execution/check.py); valid answers that differ, and a claim (no
solution, a unique one) that no second method of the run makes too, are settled
by CP-SAT with solutions=2 (solutions=N when the run counts; itself a work item); unsatisfiable against a valid
answer, or a uniqueness claim against the evidence, is a disagreement.

A --command method is a program speaking the solver protocol (docs/reference/
protocol.md; comparison/execution/external.py): in streaming mode each worker starts it on its
first puzzle and keeps it; the worker enforces the budget itself, kills the program's
process group when it overruns or misbehaves, and starts it again for the next puzzle.

On a cluster (--cluster, comparison/execution/cluster.py) the same chunks are Dask tasks: each
runs its chunk through a pool of one worker forked on its Dask worker, so that a run
that overruns is killed there as here; results come back as tasks complete, records
are written as they arrive. --resume (comparison/records/resume.py) keeps the judged puzzles
of --output FILE, whose settings are in FILE.settings.json, and runs the rest.

The same run is `comparison.compare(...)` from Python (comparison/run/comparison.py): this file
is only the command line, the report and the exit status around it; --ladder runs
comparison/programs/ladder.py's program the same way. comparison/__init__.py maps the parts.

SIGTERM stops a run as Ctrl-C does: the records and the summary of what finished
are kept (exit status 143, 130 after Ctrl-C): see comparison/execution/interrupts.py. No
worker, nor any process a method started, outlives the run, however it ends: see
comparison/execution/processes.py.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from commands.flags import (
    PROGRAMS,
    add_accept_fields_flag,
    add_decorations_flag,
    add_method_flags,
    positive,
    solutions_asked,
)
from commands.output import guarded_stdout, status_of, stdin_closed
from comparison.core.errors import (
    EXIT_ERRORS,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_USAGE,
    UsageError,
)
from comparison.core.paths import check_html, check_outputs, check_plot
from comparison.core.selected import Selected
from comparison.core.settings import Settings
from comparison.execution.interrupts import Interrupted, stopped_by_signals
from comparison.programs.ladder import Ladder
from comparison.records.format import Record, RecordWriter
from comparison.report.page.html import HtmlOutput
from comparison.report.page.player import DEFAULT_STEPS as WATCH_STEPS
from comparison.report.plot import plot
from comparison.report.terminal import ProgressBar, print_methods
from comparison.run.comparison import Plain, Runner, expected_puzzles, registry_of
from puzzles import Grid, Method, PuzzleFileError, kernels
from puzzles.formats import FORMATS
from puzzles.options import ALL
from puzzles.signals import signals_held
from puzzles.words import plural

if TYPE_CHECKING:
    from comparison.programs.fuzz import FuzzSettings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="compare.py", description="Run every method on puzzle files, check that they agree, "
        "and report each one's search effort.",
        epilog="Exit status: 0 every answer valid and the methods agree; 1 an invalid answer or a "
        "disagreement; 2 a usage error or an unreadable file; 3 a method's error records (a crash, junk output, a "
        "protocol error), the answers otherwise valid; 130 interrupted (Ctrl-C); 143 terminated (SIGTERM).")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="puzzle files (line, grid or CSV format; '-' = stdin), or the names of public "
                        "collections (sudoku-data list); default puzzles/seeds.txt")
    parser.add_argument("--input-format", choices=FORMATS, metavar="line|grid|csv",
                        help="read every input in this format (default: detected per file; "
                        "see docs/reference/puzzle-files.md)")
    add_decorations_flag(parser)
    add_accept_fields_flag(parser)
    parser.add_argument("--list", action="store_true", help="list the registered methods, options and counters")
    add_method_flags(parser)
    parser.add_argument("--nodes", type=positive(int), metavar="N", help="node budget per method per puzzle")
    parser.add_argument("--solutions", type=solutions_asked, default=1, metavar="2|N|all",
                        help="2: every method also proves the solution unique; N > 2: every method that can count "
                        f"counts the solutions up to N (a count of N reads N+, at least N); all: up to {ALL}")
    parser.add_argument("--limit", type=positive(int), metavar="K", help="only the first K puzzles")
    parser.add_argument("--sample", type=positive(int), metavar="K", help="a random sample of K puzzles")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample and --isomorphs (default 0)")
    parser.add_argument("--isomorphs", type=positive(int), metavar="K",
                        help="replace each puzzle by K random isomorphs")
    parser.add_argument("--format", choices=("csv", "jsonl"), help="record format (default: from --output)")
    parser.add_argument("--output", metavar="FILE", help="write one record per (puzzle, method) to FILE")
    parser.add_argument("--plot", metavar="FILE.png", help="cactus and effort plots (needs matplotlib)")
    parser.add_argument("--html", metavar="FILE.html",
                        help="a self-contained web page of the run: tables, plots, the puzzles that went wrong")
    parser.add_argument("--watch", metavar="[FILE:]LINE",
                        help="with --html: the puzzle at LINE (of the first file), searched step by step by each "
                        "hand-written method of the run, playable in the page")
    parser.add_argument("--watch-steps", type=positive(int), default=WATCH_STEPS, metavar="N",
                        help=f"the steps of each method's search the page holds at most (default {WATCH_STEPS})")
    parser.add_argument("--candidates", action="store_true",
                        help="also find each puzzle's true candidates (the values each cell takes in some solution, "
                        "exactly, by SAT: milliseconds a 9x9), in the records' `candidates` column and drawn as "
                        "pencil marks in the --html page")
    parser.add_argument("--no-certify", dest="certify", action="store_false",
                        help="do not certify claims (no solution, a unique solution) that no other method of the "
                        "run corroborates: faster; the report counts them as unchecked")
    parser.add_argument("--cluster", metavar="tcp://HOST:8786|local:N",
                        help="run on a Dask distributed cluster: a running scheduler's address, or local:N for a "
                        "cluster of N worker processes on this machine (needs the cluster extra)")
    parser.add_argument("--resume", action="store_true",
                        help="with --output FILE: keep the puzzles FILE holds already, run the rest and append them")
    parser.add_argument("--ladder", action="store_true",
                        help="the ladder report: which rungs of both ladders (hand-written rules, SAT unit "
                        "propagation, CP-SAT presolve, the MIP's root) settle each puzzle without a guess, and "
                        "the equivalences the literature states, checked on every puzzle "
                        "(comparison/programs/ladder.py)")
    parser.add_argument("--fuzz", nargs="?", const="", metavar="DURATION",
                        help="fuzz the methods for DURATION (90s, 5m, 1h; or --limit N puzzles) on puzzles made for "
                        "it, against --against; each failure shrunk to a 1-minimal puzzle written to --output "
                        "(comparison/programs/fuzz.py); exit 1 when one is found")
    parser.add_argument("--against", default="cpsat", metavar="METHOD",
                        help="with --fuzz: the trusted method (default cpsat, run with solutions=2)")
    parser.add_argument("--box", type=int, action="append", choices=(2, 3, 4, 5),
                        help="with --fuzz: a box size to fuzz on (repeatable; default 2, 3 and 4, unless --variant "
                        "is given)")
    parser.add_argument("--variant", action="append", metavar="NAME[@SIDE]",
                        help="with --fuzz: a variant of the Sudoku family to fuzz on, 9x9 or at SIDE (repeatable; "
                        "the generator's names: jigsaw, x, windoku, jigsaw+x, ...; jigsaw@16, x@4)")
    parser.add_argument("--steps", metavar="'PROGRAM ARGS'",
                        help="with --fuzz: fuzz this logic solver instead of methods: each made puzzle on its standard "
                        "input, its every step checked against the puzzle's true candidates (docs/reference/steps.md), "
                        "the first unsound step shrunk to a 1-minimal puzzle (default --box 2 and 3)")
    parser.add_argument("--reference", metavar="METHOD",
                        help="the method whose time per puzzle is the effort plot's x axis "
                        "(default: the one that solves most)")
    return parser


def settings_of(args: argparse.Namespace) -> Settings:
    """A run's settings, the options of the same names."""
    return Settings(**{f.name: getattr(args, f.name) for f in dataclasses.fields(Settings)})


def fuzz_settings(args: argparse.Namespace) -> FuzzSettings:
    """A fuzz run's settings; ValueError or UsageError naming the flag that is wrong."""
    from comparison.programs.fuzz import FuzzSettings, fuzzed_variant, parse_duration

    return FuzzSettings(duration=parse_duration(args.fuzz) if args.fuzz else None, limit=args.limit,
                        output=args.output, methods=tuple(args.methods or ()), command=tuple(args.command or ()),
                        registry=tuple(args.registry or ()), timeout=args.timeout, nodes=args.nodes,
                        solutions=args.solutions, jobs=args.jobs, seed=args.seed, against=args.against,
                        variants=tuple(dict.fromkeys(fuzzed_variant(text) for text in args.variant or ())),
                        boxes=tuple(args.box or ()))


def steps_fuzz(args: argparse.Namespace, parser: argparse.ArgumentParser, console: Console) -> int:
    """compare.py --fuzz --steps 'PROGRAM ARGS': a logic solver's steps fuzzed (comparison/programs/steps.py)."""
    from commands.flags import STEPS_FUZZ
    from comparison.programs.fuzz import fuzzed_variant, parse_duration
    from comparison.programs.steps import STEPS_BOXES, StepsProgram, program_argv, steps_fuzz_main
    from making.variants import variant

    try:
        refusal = STEPS_FUZZ.foreign(args, parser)
        if refusal:
            raise UsageError(refusal)
        if not args.fuzz and args.limit is None:
            raise UsageError("--fuzz needs a DURATION (--fuzz 5m) or --limit N puzzles")
        duration = parse_duration(args.fuzz) if args.fuzz else None
        if args.output and args.output.lower().endswith((".csv", ".jsonl")):
            raise UsageError(f"--fuzz --output {args.output}: the failing puzzles are a puzzle file (line format); "
                             "name it .txt")
        variants = list(dict.fromkeys(fuzzed_variant(text) for text in args.variant or ()))
        boxes = sorted(set(args.box or ([] if variants else STEPS_BOXES)))
        sizes = list(dict.fromkeys([variant("classic", box * box) for box in boxes] + variants))
        program = StepsProgram(program_argv(args.steps), args.timeout)
    except (UsageError, ValueError) as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return steps_fuzz_main(args.steps, program, sizes, duration, args.limit, args.seed, args.output, console)


def output_format(args: argparse.Namespace) -> str | None:
    if args.output is None:
        if args.format:
            raise UsageError("--format needs --output FILE")
        if args.resume:
            raise UsageError("--resume needs --output FILE, the records to go on from")
        return None
    if args.format:
        return str(args.format)
    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix in ("csv", "jsonl"):
        return suffix
    raise UsageError(f"--output {args.output}: say --format csv or jsonl (or name the file .csv or .jsonl)")


def reference_index(args: argparse.Namespace, selected: Sequence[Selected]) -> int | None:
    """The --reference method's index; None: the one that solves most, chosen after the run."""
    if args.reference is None:
        return None
    labels = [s.label for s in selected]
    if args.reference not in labels:
        raise UsageError(f"--reference {args.reference}: not among the methods run ({', '.join(labels)})")
    return labels.index(args.reference)


def main(argv: Sequence[str] | None = None, methods: dict[str, Method] | None = None) -> int:
    """Run the command; `methods` replaces the registries (tests register their own methods this way).

    Standard output is the report's alone: closed, full or a closed pipe, the run goes on and writes its
    records, and the exit status says what became of the report (commands/output.py)."""
    kept: list[str] = []  # where the records went, once known
    with guarded_stdout() as stdout:
        status = command(argv, methods, kept)
    return status_of(stdout, status, "compare.py", "".join(kept))


def command(argv: Sequence[str] | None, methods: dict[str, Method] | None, kept: list[str]) -> int:
    if not hasattr(os, "fork"):  # the workers are forked processes in groups of their own (POSIX)
        print("compare.py: error: its workers are forked POSIX processes, which this system does not have; "
              "on Windows, run it under WSL", file=sys.stderr)
        return EXIT_USAGE
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the error
        return int(exc.code or 0)
    if args.output:
        kept.append(f"; the run went on, its records written to {args.output}")
    console = Console(width=None if sys.stdout.isatty() else 160)
    refusal = PROGRAMS["fuzz" if args.fuzz is not None else "ladder" if args.ladder else "run"].foreign(args, parser)
    if refusal:
        print(f"compare.py: error: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    if args.fuzz is not None and args.steps is not None:
        return steps_fuzz(args, parser, console)
    if args.fuzz is not None:
        from comparison.programs.fuzz import fuzz_main  # made puzzles and shrinking: imported only for a fuzz run

        try:
            asked = fuzz_settings(args)
        except (UsageError, ValueError) as exc:
            print(f"compare.py: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        return fuzz_main(asked, methods, console)
    try:
        settings = settings_of(args)
        if stdin_closed(list(settings.files)):
            raise PuzzleFileError("-: standard input is closed: there is nothing to read")
        kind = Ladder if args.ladder else Plain
        if args.list:
            print_methods(console, registry_of(settings, methods, everything=True))
            return EXIT_OK
        program: Runner = kind(settings, methods)
        comparison = program.comparison
        fmt = output_format(args)
        reference = reference_index(args, comparison.selected)
        if args.plot and importlib.util.find_spec("matplotlib") is None:
            raise UsageError("--plot needs matplotlib: pip install 'sudoku-search[plot]'")
        check_plot(args.plot)
        check_html(args.html)
        if args.watch and not args.html:
            raise UsageError("--watch needs --html FILE.html (the page that plays the search)")
        check_outputs({"--output": args.output, "--plot": args.plot, "--html": args.html}, comparison.files)
        html = HtmlOutput(args.html, comparison, args.watch, args.watch_steps) if args.html else None
        writer = program.open_records(args.output, fmt, args.resume, html.add if html else None) if fmt else None
    except (UsageError, PuzzleFileError) as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"compare.py: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return run(args, program, writer, reference, console, html)


@stopped_by_signals
def run(args: argparse.Namespace, program: Runner, writer: RecordWriter | None, reference: int | None,
        console: Console, html: HtmlOutput | None = None) -> int:
    comparison = program.comparison
    console.print(kernels.BUILD.line(), markup=False, highlight=False)  # first: which build of the searches runs
    show_progress = sys.stderr.isatty()
    total = expected_puzzles(comparison.settings, comparison.files) if show_progress else None
    progress = ProgressBar(total, show_progress)
    summary = comparison.summary
    status = None
    batches = comparison.batches(writer, progress)
    answers: list[Record] = []  # the valid answers: a run of one puzzle shows its solution
    try:
        for batch in batches:  # the records are written as they come
            if html is not None:
                html.add(batch)
            program.add(batch)
            answers.extend(r for r in batch if r.valid and r.solution)
        if writer is not None and writer.failed:
            status = EXIT_USAGE
    except Interrupted as exc:
        status = exc.status
        batches.close()  # the workers go, if the signal came between two rounds
        with signals_held():
            unfinished = comparison.write(comparison.unfinished(), writer)
            if html is not None:
                html.add(unfinished)
    except PuzzleFileError as exc:  # a file that fails in the middle of reading
        status = EXIT_USAGE
        print(f"compare.py: error: {exc}", file=sys.stderr)
    except UsageError as exc:  # a cluster that cannot be reached or used: nothing ran, nothing to report
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        with signals_held():
            progress.close()
            if writer:
                writer.close()
    interrupted = status in (EXIT_INTERRUPTED, EXIT_TERMINATED)
    program.report(console, interrupted=interrupted)
    if summary.puzzles == 1 and answers and isinstance(program, Plain):
        show_solution(console, answers)
    if writer is not None and writer.failed:
        kept = f"the {plural(writer.held, 'record')} written before it {'is' if writer.held == 1 else 'are'} kept"
        print(f"compare.py: error: {writer.failed}; {kept}; the run stopped there", file=sys.stderr)
    if args.plot and summary.puzzles:
        try:
            plot(summary, reference, args.plot)
            console.print(f"Plot written to {escape(args.plot)}")
        except OSError as exc:
            print(f"compare.py: error: cannot write {args.plot}: {exc.strerror or exc}", file=sys.stderr)
            status = status or EXIT_USAGE
    if html is not None and summary.puzzles:
        try:
            html.write(reference, interrupted, ladder=program.page_ladder())
            console.print(f"Report written to {escape(args.html)}")
        except OSError as exc:
            print(f"compare.py: error: cannot write {args.html}: {exc.strerror or exc}", file=sys.stderr)
            status = status or EXIT_USAGE
    if status is not None:
        return status
    if not summary.puzzles:  # nothing was compared: not a success, whatever the reason
        why = f"only bad entries ({summary.bad_count:,})" if summary.bad_count else "no puzzle at all"
        print(f"compare.py: error: the input held {why}; nothing was compared", file=sys.stderr)
        return EXIT_USAGE
    if summary.failed or program.failed:
        return EXIT_FAILED
    return EXIT_ERRORS if summary.errors else EXIT_OK


def show_solution(console: Console, answers: Sequence[Record]) -> None:
    """The one puzzle's solution as a grid, with the methods that found it."""
    first = answers[0]
    found = [r.method or "" for r in answers if r.solution == first.solution]
    several = first.verdict == "multiple_solutions"
    console.print(f"{'One of its solutions' if several else 'Solution'} (found by {', '.join(found)}):", markup=False,
                  highlight=False)
    console.print(Grid.parse(first.solution or "").pretty(), markup=False, highlight=False)


if __name__ == "__main__":
    sys.exit(main())
