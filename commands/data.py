"""sudoku-data: the public collections the studies run on, listed and fetched.

    sudoku-data list                    each collection: its size, source, licence, and where it is here
    sudoku-data fetch NAME... | --all   download, check the pinned SHA-256, convert, keep in the cache

A collection is read from $SUDOKU_DATA when that is set, else from ../shared/data beside the checkout
where it exists, else from the per-user cache; fetch writes into $SUDOKU_DATA or the cache
(puzzles/data.py). $SUDOKU_DATA_MIRROR fetches from a mirror of raw.githubusercontent.com.

Exit status 0 done; 1 a fetch failed (no connection, a download or a converted file that is not the pinned
one): one line on standard error says which, and nothing of it is kept; 2 a usage error (an unknown
name); 130 interrupted.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.table import Table

from puzzles.data import CATALOGUE, Collection, DataError, collection, data_folder, fetch, find
from puzzles.words import plural

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class DownloadBar:
    """A rich progress bar that pooch drives as it would drive tqdm's: `total`, `update`, `reset`, `close`.

    Live only while its download runs, on standard error, and only where that is a terminal, so that the
    lines the command prints between downloads go to standard output untouched."""

    def __init__(self, label: str, console: Console) -> None:
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                 TransferSpeedColumn(), TimeRemainingColumn(), console=console,
                                 disable=not console.is_terminal)
        self.task = self.progress.add_task(label, total=None)
        self._total: int | None = None

    @property
    def total(self) -> int | None:
        return self._total

    @total.setter
    def total(self, size: int) -> None:  # pooch sets it from the response's length, before the first chunk
        self._total = size or None
        self.progress.update(self.task, total=self._total)
        self.progress.start()

    def update(self, size: int) -> None:
        self.progress.advance(self.task, size)

    def reset(self) -> None:
        self.progress.reset(self.task, total=self._total)

    def close(self) -> None:
        self.progress.stop()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sudoku-data", description="The public puzzle collections the studies "
                                     "run on: list them, fetch them into the per-user cache.",
                                     epilog="Exit status: 0 done; 1 a fetch failed (nothing of it kept); 2 a usage "
                                     "error; 130 interrupted.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="list|fetch")
    commands.add_parser("list", help="each collection: its size, source, licence, and whether it is here")
    fetching = commands.add_parser("fetch", help="download collections, check their pinned SHA-256, convert them "
                                   "to the project's format, and keep them in the per-user cache")
    fetching.add_argument("names", nargs="*", metavar="NAME", help="collections to fetch (sudoku-data list)")
    fetching.add_argument("--all", action="store_true", help="every collection")
    return parser


def main(argv: Sequence[str] | None = None, catalogue: Sequence[Collection] = CATALOGUE) -> int:
    """Run the command; `catalogue` replaces the project's (tests fetch small collections of their own)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the error
        return int(exc.code or 0)
    if args.command == "list":
        list_collections(Console(width=None if sys.stdout.isatty() else 160, highlight=False), catalogue)
        return EXIT_OK
    try:
        entries = chosen(args.names, args.all, catalogue)
    except DataError as exc:
        print(f"sudoku-data: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return fetch_collections(entries)


def chosen(names: Sequence[str], every: bool, catalogue: Sequence[Collection]) -> list[Collection]:
    """The collections named (each once, in the order given), or every one with --all."""
    if every == bool(names):
        raise DataError("name the collections to fetch, or --all" if not every else "--all, or names: not both")
    if every:
        return list(catalogue)
    return [collection(name, catalogue) for name in dict.fromkeys(names)]


def shown(text: str) -> str:
    """The catalogue's Markdown as the terminal shows it: `code` in bold (plain text where the output is not a
    terminal), anything else as it is."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an odd backtick: no code span to read
        return escape(text)
    return "".join(f"[bold]{escape(part)}[/]" if i % 2 else escape(part) for i, part in enumerate(parts))


def list_collections(out: Console, catalogue: Sequence[Collection]) -> None:
    table = Table("name", "puzzles", "what it is", "source", "licence", "here")
    missing = []
    for entry in catalogue:
        path = find(entry)
        if path is None:
            missing.append(entry.name)
        here = "no" if path is None else str(path.parents[len(entry.file.split("/")) - 1])
        table.add_row(*map(shown, (entry.name, f"{entry.puzzles:,}", entry.about, entry.source, entry.licence)),
                      escape(here))
    out.print(table)
    if missing:
        out.print(shown(f"{plural(len(missing), 'collection')} not here: `sudoku-data fetch NAME` or "
                        f"`sudoku-data fetch --all` downloads them into {data_folder()}"), soft_wrap=True)


def fetch_collections(entries: Sequence[Collection]) -> int:
    errors = Console(stderr=True)
    try:
        for done in fetch(entries, progress=lambda entry: DownloadBar(entry.name, errors)):
            how = "downloaded, converted and checked" if done.downloaded else "already here, checked"
            print(f"{done.entry.name}: {plural(done.entry.puzzles, 'puzzle')} in {done.path} ({how})", flush=True)
    except DataError as exc:
        print(f"sudoku-data: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("sudoku-data: interrupted; nothing half-written was kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
