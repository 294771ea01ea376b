"""Reading and writing puzzle files: one puzzle a line, grid blocks, or CSV.

Reading streams: entries are yielded one at a time, so a file of any length
goes through in flat memory. A bad entry is a `BadEntry` record (file, line,
reason) and reading goes on; only a file that cannot be opened at all raises
`PuzzleFileError`, with one clear message.

- line: one puzzle a line (16, 81, 256 or 625 symbols); what follows the
  puzzle on its line is its name; lines starting with '#' are comments.
- grid: a puzzle as `side` lines of symbols; '|', '-', '+' and spaces are
  ignored; puzzles are separated by blank lines.
- csv: a header naming a `puzzle` (or `quizzes`) column and optionally a
  `solution` (or `solutions`) column; other columns are kept as metadata.
"""
from __future__ import annotations

import csv
import io
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator, Union

from .grid import BOX_OF_SIDE, Grid, PuzzleError

PUZZLE_COLUMNS = ("puzzle", "quizzes")
SOLUTION_COLUMNS = ("solution", "solutions")
FORMATS = ("line", "grid", "csv")
_SEPARATORS = str.maketrans("", "", "|-+ \t")


@dataclass(frozen=True)
class Entry:
    """A puzzle read from a file, with where it came from."""

    file: str
    line: int
    grid: Grid
    name: str = ""
    solution: Grid | None = None
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class BadEntry:
    """An entry that is not a puzzle: where it is and why."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


Record = Union[Entry, BadEntry]


class PuzzleFileError(Exception):
    """A puzzle file that cannot be read at all (missing, a folder, not permitted)."""


def checked(text: str) -> Grid:
    """A grid from one-line text, refused if two givens clash in a unit."""
    grid = Grid.parse(text)
    conflicts = grid.conflicts()
    if conflicts:
        raise PuzzleError(f"invalid puzzle: {', '.join(conflicts)}")
    return grid


# -- opening ------------------------------------------------------------------
def read_puzzles(path: str | Path, fmt: str | None = None) -> Iterator[Record]:
    """Every entry of a puzzle file ('-' is standard input), format detected unless given."""
    name = str(path)
    if name == "-":
        return read_lines(sys.stdin, "<stdin>", fmt)
    try:
        handle = open(path, encoding="utf-8", errors="replace", newline="")
    except FileNotFoundError:
        raise PuzzleFileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise PuzzleFileError(f"{name}: is a folder, not a puzzle file") from None
    except PermissionError:
        raise PuzzleFileError(f"{name}: not permitted to read it") from None
    except OSError as exc:
        raise PuzzleFileError(f"{name}: cannot read it ({exc.strerror or exc})") from None
    return _closing(handle, read_lines(handle, name, fmt))


def _closing(handle: IO[str], records: Iterator[Record]) -> Iterator[Record]:
    with handle:
        try:
            yield from records
        except UnicodeDecodeError as exc:  # errors="replace" makes this rare
            raise PuzzleFileError(f"{handle.name}: not a text file ({exc.reason})") from None
        except OSError as exc:
            raise PuzzleFileError(f"{handle.name}: reading failed ({exc.strerror or exc})") from None


def read_lines(lines: Iterable[str], source: str, fmt: str | None = None) -> Iterator[Record]:
    """Every entry of an iterable of text lines; `source` names it in records."""
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    lines = iter(lines)
    head = list(itertools.islice(lines, 64))
    fmt = fmt or detect_format(head)
    lines = itertools.chain(head, lines)
    reader = {"line": _read_line_format, "grid": _read_grid_format, "csv": _read_csv}[fmt]
    return reader(lines, source)


def read_text(text: str, source: str = "<text>", fmt: str | None = None) -> Iterator[Record]:
    return read_lines(io.StringIO(text), source, fmt)


def detect_format(head: list[str]) -> str:
    """Guess a file's format from its first lines.

    CSV: the first content line is a header naming a puzzle column. Grid: the
    first content line holds one row (4, 9, 16 or 25 symbols once separators
    are dropped) and, for 16 symbols, which could also be a whole 4x4 puzzle,
    the first block of lines is exactly 16 rows long. Otherwise: line.
    """
    content = [(i, ln.strip()) for i, ln in enumerate(head) if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        return "line"
    first = content[0][1]
    header = [cell.strip().lower() for cell in first.split(",")]
    if len(header) > 1 and any(col in PUZZLE_COLUMNS for col in header):
        return "csv"
    row = first.translate(_SEPARATORS)
    if len(row) not in BOX_OF_SIDE or " " in first.strip() and len(first.split()[0]) in (16, 81, 256, 625):
        return "line"
    if len(row) != 16:
        return "grid"
    start = content[0][0]
    block = list(itertools.takewhile(lambda ln: ln.strip(), head[start:]))
    rows = [ln for ln in block if ln.translate(_SEPARATORS).strip()]
    return "grid" if len(rows) == 16 else "line"


# -- the three formats -----------------------------------------------------------
def _read_line_format(lines: Iterable[str], source: str) -> Iterator[Record]:
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        puzzle, _, name = text.partition(" ")
        if "\t" in puzzle:
            puzzle, _, name = text.partition("\t")
        try:
            yield Entry(source, number, checked(puzzle), name.strip())
        except PuzzleError as exc:
            yield BadEntry(source, number, str(exc))


def _read_grid_format(lines: Iterable[str], source: str) -> Iterator[Record]:
    rows: list[str] = []
    start = 0
    for number, raw in enumerate(itertools.chain(lines, [""]), 1):
        text = raw.strip()
        if text.startswith("#"):
            continue
        row = text.translate(_SEPARATORS)
        if row:
            if not rows:
                start = number
            rows.append(row)
        elif text and rows:
            continue  # a separator line such as ------+------- inside a block
        elif rows:
            yield _block(rows, source, start)
            rows = []


def _block(rows: list[str], source: str, start: int) -> Record:
    side = len(rows[0])
    if side not in BOX_OF_SIDE:
        return BadEntry(source, start, f"a grid row has 4, 9, 16 or 25 symbols, not {side}")
    if len(rows) != side:
        return BadEntry(source, start, f"a {side}x{side} grid has {side} rows, this block has {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != side:
            return BadEntry(source, start, f"row {i + 1} has {len(row)} symbols, not {side}")
    try:
        return Entry(source, start, checked("".join(rows)))
    except PuzzleError as exc:
        return BadEntry(source, start, str(exc))


def _read_csv(lines: Iterable[str], source: str) -> Iterator[Record]:
    # Skip comments and blank lines before the header, counting them for line numbers.
    lines = iter(lines)
    offset = 0
    for raw in lines:
        offset += 1
        if raw.strip() and not raw.lstrip().startswith("#"):
            lines = itertools.chain([raw], lines)
            offset -= 1
            break
    reader = csv.reader(lines)
    header = [h.strip().lower() for h in next(reader, [])]
    puzzle_col = next(i for i, h in enumerate(header) if h in PUZZLE_COLUMNS)
    solution_col = next((i for i, h in enumerate(header) if h in SOLUTION_COLUMNS), None)
    meta_cols = [i for i in range(len(header)) if i not in (puzzle_col, solution_col)]
    for row in reader:
        number = offset + reader.line_num
        if not row or not any(cell.strip() for cell in row):
            continue
        puzzle = row[puzzle_col].strip() if puzzle_col < len(row) else ""
        if not puzzle:
            yield BadEntry(source, number, f"no puzzle in column '{header[puzzle_col]}'")
            continue
        try:
            grid = checked(puzzle)
        except PuzzleError as exc:
            yield BadEntry(source, number, str(exc))
            continue
        solution = None
        if solution_col is not None and solution_col < len(row) and row[solution_col].strip():
            try:
                solution = Grid.parse(row[solution_col])
            except PuzzleError as exc:
                yield BadEntry(source, number, f"solution: {exc}")
                continue
        meta = {header[i]: row[i].strip() for i in meta_cols if i < len(row)}
        yield Entry(source, number, grid, meta.get("name", meta.get("id", "")), solution, meta)


# -- writing ----------------------------------------------------------------------
def format_line(grid: Grid, name: str = "") -> str:
    """One entry of the line format."""
    return f"{grid.line()} {name}".rstrip()
