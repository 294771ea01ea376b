"""`sudoku-trace`: watch a hand-written search step by step (search/trace/). In a checkout not installed:
`python -m commands.trace`."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.markup import escape

from puzzles.grid import Grid
from search.trace.record import Trace, read_puzzle, selected, trace
from search.trace.view import CompactView, FullView, counted, drawn, print_diff

from .flags import zero_or_more

DEFAULT_MAX_STEPS = 100_000  # a trace is kept in memory (0 = no limit)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku-trace", description="Watch a hand-written search step by step.")
    parser.add_argument("puzzle", metavar="PUZZLE_OR_FILE[:LINE]",
                        help="a puzzle (81 symbols, blanks . 0 _), or a puzzle file and a 1-based line")
    parser.add_argument("--solver", action="append", metavar="SPEC",
                        help="a hand-written method, NAME[:key=value,...] as compare.py takes it (default: mrv); "
                             "twice with --diff")
    parser.add_argument("--max-steps", type=zero_or_more(int), default=DEFAULT_MAX_STEPS, metavar="N",
                        help=f"stop after N events (default {DEFAULT_MAX_STEPS:,}; 0: no limit)")
    parser.add_argument("--compact", action="store_true", help="one short line per search step")
    parser.add_argument("--jsonl", metavar="FILE", help="write the events as JSON lines to FILE ('-': stdout)")
    parser.add_argument("--diff", action="store_true", help="with two --solver: where the two searches part ways")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    specs = args.solver or ["mrv"]
    if args.max_steps < 0:
        parser.error("--max-steps must be 0 or more")
    if args.diff and len(specs) != 2:
        parser.error("--diff compares two searches: give --solver twice")
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    try:
        for spec in specs:
            selected(spec)  # every spec checked before anything is printed
        grid = read_puzzle(args.puzzle)
        out = open_output(args.jsonl)
    except (ValueError, OSError) as exc:  # a bad spec or option, not a puzzle, an unwritable --jsonl
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    limit = args.max_steps or None
    traces = []
    try:
        for spec in specs:
            show = None if args.diff or args.jsonl == "-" else (CompactView if args.compact else FullView)(console)
            if show is not None:
                console.print(f"[bold]{escape(spec)}[/bold] on {grid.text()}")
                console.print(drawn(grid))
            traced = trace(grid, spec, limit, on_event=show)
            if show is not None:
                show.close()
                ending(console, traced)
            if out is not None:
                write_jsonl(out, traced)
            traces.append(traced)
    except ValueError as exc:  # a spec that is not a hand-written method, a bad option
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if out is not None and out is not sys.stdout:
            out.close()
    if args.diff:
        print_diff(console, traces[0], traces[1])
    return 0


def open_output(path: str | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return sys.stdout if path == "-" else open(path, "w", encoding="utf-8")  # closed by main
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror or exc}") from None


def ending(console: Console, traced: Trace) -> None:
    status = "stopped after --max-steps" if traced.truncated else traced.status + (
        f" ({traced.detail})" if traced.detail else "")
    console.print(f"{len(traced.events)} steps; {status}; {counted(traced.counters)}")
    if traced.solution is not None:  # its values, then the puzzle's houses (the words after its symbols)
        console.print(drawn(Grid.parse(traced.solution + traced.puzzle[len(traced.solution):])))


def write_jsonl(out: IO[str], traced: Trace) -> None:
    whole = traced.as_dict()
    events = whole.pop("events")
    end = {name: whole.pop(name) for name in ("counters", "status", "truncated", "solution", "detail")}
    print(json.dumps({"kind": "start", **whole}), file=out)
    for event in events:
        print(json.dumps(event), file=out)
    print(json.dumps({"kind": "end", **end}), file=out)


if __name__ == "__main__":
    sys.exit(main())
