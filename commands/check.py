"""Check puzzle files: how many puzzles of each size, their givens, every bad entry.

    sudoku-check FILE...   ('-' reads standard input; python -m commands.check in a checkout not installed)

Exit status 0 when every entry is a puzzle, 1 if any entry was bad, 2 if a
file could not be read (standard input closed too) or standard output failed
(closed or full), 141 quietly when the reader of standard output has gone
(`| head -1`: the check stops there). A note on standard error says when a
file's format was a choice between two readings (--input-format picks the
other one).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import TextIO

from puzzles.formats import DECORATIONS_KEY, FORMATS, BadEntry, PuzzleFileError, read_puzzles
from puzzles.words import plural

from .flags import add_decorations_flag
from .output import Guarded, guarded_stdout, status_of, stdin_closed


def median_of(histogram: Counter[int]) -> float:
    """The median of values held as a histogram {value: count} (flat memory for any count)."""
    total = sum(histogram.values())
    middle = [(total - 1) // 2, total // 2]
    found, seen = [], 0
    for value in sorted(histogram):
        seen += histogram[value]
        while middle and middle[0] < seen:
            found.append(value)
            middle.pop(0)
    return float(sum(found) / len(found))


def check_file(path: str, fmt: str | None, out: TextIO | Guarded, decorations: str = "refuse") -> tuple[int, int]:
    """Print one file's summary and bad entries (and the decorations of each puzzle not read as rules, when
    `decorations` is "ignore"); return (puzzles, bad entries). Reading stops when `out`, a Guarded stream, has
    failed: nobody would read what follows."""
    givens: dict[int, Counter[int]] = {}
    bad = 0
    for record in read_puzzles(path, fmt, on_note=lambda note: print(f"note: {note}", file=sys.stderr),
                               decorations=decorations):
        if isinstance(out, Guarded) and out.failed is not None:
            break
        if isinstance(record, BadEntry):
            bad += 1
            print(record, file=out)
        else:
            givens.setdefault(record.grid.side, Counter())[record.grid.givens] += 1
            if record.meta.get(DECORATIONS_KEY):
                print(f"{record.where}: decorations not read as rules: {record.meta[DECORATIONS_KEY]}", file=out)
    puzzles = sum(sum(h.values()) for h in givens.values())
    name = "<stdin>" if path == "-" else path  # as its records name it
    print(f"{name}: {plural(puzzles, 'puzzle')}, {plural(bad, 'bad entry', 'bad entries')}", file=out)
    for side in sorted(givens):
        h = givens[side]
        print(
            f"  {side}x{side}: {plural(sum(h.values()), 'puzzle')}, givens min {min(h)} / "
            f"median {median_of(h):g} / max {max(h)}",
            file=out,
        )
    return puzzles, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sudoku-check", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE", help="puzzle files; '-' for standard input")
    parser.add_argument("--input-format", "--format", dest="format", choices=FORMATS, help="skip format detection")
    add_decorations_flag(parser)
    with guarded_stdout() as out:
        args = parser.parse_args(argv)
        status = 0
        for path in args.files:
            if out.failed is not None:
                break
            try:
                if stdin_closed([path]):
                    raise PuzzleFileError("-: standard input is closed: there is nothing to read")
                _, bad = check_file(path, args.format, out, args.decorations)
            except PuzzleFileError as exc:
                print(f"{parser.prog}: error: {exc}", file=sys.stderr)
                status = 2
                continue
            if bad and status == 0:
                status = 1
    return status_of(out, status, parser.prog)


if __name__ == "__main__":
    sys.exit(main())
