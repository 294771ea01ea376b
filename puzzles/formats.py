"""Reading and writing puzzle files: one puzzle a line, grid blocks, CSV, or f-puzzles JSON and links.

Reading streams: entries are yielded one at a time, so a file of any length
goes through in flat memory. A bad entry is a `BadEntry` record (file, line,
reason) and reading goes on; a file that cannot be read as puzzles at all
raises `PuzzleFileError` with one clear message naming it.

Text. A path and standard input ('-') are read the same way, as bytes:
- a UTF-8 byte-order mark is dropped (spreadsheets write one); a UTF-16
  byte-order mark (little or big endian) makes the file UTF-16; anything
  else is UTF-8;
- CRLF, LF and a lone CR each end one line, so line numbers do not depend on
  the line endings;
- a NUL byte, bytes that are not UTF-8 (a Latin-1 name after a puzzle, say)
  or broken UTF-16 make the file "not a text file", with the line where it
  was found: guessing another encoding could misread every later name, and
  saving the file as UTF-8 fixes it. Reading stops there (the entries
  before it have been yielded).

Formats, detected from the first content line (not blank, not a '#' comment)
and the block of lines it starts, unless the caller names one (`fmt`):
- fpuzzles: that line starts with `{` (f-puzzles JSON: an object a line, or one
  object over the whole file) or `[` (a JSON array, refused as one), or is an
  f-puzzles link (`...?load=...`, or its bare payload: a base64 word that is not
  a puzzle and carries JSON) or a SudokuPad link (puzzles/sudokupad.py), one a
  line (puzzles/fpuzzles.py); or it holds a
  JSON object's `"key":` and a brace (JSON that lost its first brace).
- line: its first word is a puzzle of the Sudoku family, broken or not (16
  symbols or more, `;`, words): a Killer's totals have commas, as a CSV header.
- csv: that line, parsed by the csv module, has more than one field (or is a
  lone `puzzle` column name) and its first word is not a puzzle. It is the
  header: it must name a `puzzle` (or `quizzes`) column, else reading fails
  with the columns it has; an optional `solution` (or `solutions`) column
  is checked, other columns are kept as metadata. Fields may be quoted.
- grid: that line holds 4, 9 or 25 symbols once '|', '-', '+' and spaces are
  dropped (one row of a 4x4, 9x9 or 25x25 grid), or 16 symbols that are not
  a whole 4x4 puzzle. When it is a whole 4x4 puzzle, the file is grid blocks
  only if its first block is 16 rows of 16 symbols; if every one of those
  rows is also a 4x4 puzzle the choice is ambiguous and `on_note` is told.
  Likewise 25 symbols that could be a 5x5 puzzle (values 1-5 and blanks, no
  separator) start grid blocks only if their block is 25 rows of 25 symbols.
  A puzzle is `side` lines of symbols; puzzles are separated by blank lines.
- line: anything else: one puzzle a line (16, 81, 256 or 625 symbols, or n*n
  for another side with boxes; a variant's houses follow after `;`, see
  puzzles/layouts.py); what follows the puzzle on its line is its name.
An empty file, or one of comments only, has no entries.

Whatever a reader raises on one entry that it does not foresee becomes that
entry's bad entry (`fpuzzles.unexpected`), and reading goes on; anything else
it raises becomes a PuzzleFileError naming the file and the line: never a
traceback.
"""
from __future__ import annotations

import codecs
import contextlib
import csv
import io
import itertools
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from . import sudokupad
from .fpuzzles import COSMETIC, FPuzzlesError, is_link, puzzle_of, read_objects, unexpected
from .grid import BOX_OF_SIDE, Grid, PuzzleError
from .layouts import SIDE_OF_LENGTH
from .words import plural

PUZZLE_COLUMNS = ("puzzle", "quizzes")
SOLUTION_COLUMNS = ("solution", "solutions")
FORMATS = ("line", "grid", "csv", "fpuzzles")
_SEPARATORS = str.maketrans("", "", "|-+ \t")
_COLUMNS_SHOWN = 200  # the most of a header's columns a message quotes
_JSON_KEY = re.compile(r'"[^"]*"\s*:')  # a JSON object's `"key":`, which no CSV header or puzzle holds
_HEAD_LINES = 32  # from the first content line: a 25x25 block with its separator lines and a blank fits
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # what surrogateescape makes of a byte that is not UTF-8

Note = Callable[[str], None]
DECORATIONS_KEY = "decorations"  # an Entry's meta: the decorations not read as rules (read_puzzles' `decorations`)
ACCEPTED_KEY = "accepted"  # an Entry's meta: the unknown fields read and ignored (read_puzzles' `accepted`)
COSMETIC_WORDS = {"cage": "cosmetic cage"}  # an f-puzzles cosmetic field as a record names its entries


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


Record = Entry | BadEntry


class PuzzleFileError(Exception):
    """A puzzle file that cannot be read at all: missing, a folder, not text, a CSV without a puzzle column."""


@dataclass(frozen=True)
class Detection:
    """The format chosen for a file, and a note when its first lines fit another format as well."""

    format: str
    note: str | None = None


def checked(text: str) -> Grid:
    """A grid from one-line text, refused if two givens clash in a unit."""
    grid = Grid.parse(text)
    conflicts = grid.conflicts()
    if conflicts:
        raise PuzzleError(f"invalid puzzle: {', '.join(conflicts)}")
    return grid


# -- reading --------------------------------------------------------------------
def read_puzzles(path: str | Path, fmt: str | None = None, on_note: Note | None = None, *,
                 decorations: str = "refuse", accepted: Collection[str] = ()) -> Iterator[Record]:
    """Every entry of a puzzle file ('-' is standard input), format detected unless given.

    The file is opened and its first lines read now, so that a file that cannot
    be read fails here; `on_note` hears once if the detected format was a choice.
    A puzzle written on one line, or a link (f-puzzles', SudokuPad's), is read where a file is expected.
    `decorations` is what the f-puzzles and SudokuPad readers do with a cosmetic element: refuse it (the
    default: the rules may give it a meaning) or ignore it, the entry's `meta["decorations"]` then saying which
    it did not read as rules (`2 lines, 1 circle`). `accepted` names fields those readers would refuse as unknown
    (`source`), read and ignored (fpuzzles.check_accepted says which may be), the entry's `meta["accepted"]` then
    naming those it held.
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    if (is_puzzle_text(source) or _is_url(source)) and not Path(source).exists():  # a puzzle where a file is expected
        return read_lines([source], source, fmt, on_note, decorations=decorations, accepted=accepted)
    with contextlib.ExitStack() as stack, _failing_clearly(source):
        binary = sys.stdin.buffer if str(path) == "-" else stack.enter_context(_open(path))
        records = read_lines(_text_lines(binary, source), source, fmt, on_note, decorations=decorations,
                             accepted=accepted)
        return _streamed(records, source, stack.pop_all())


def is_puzzle_text(text: str) -> bool:
    """Whether `text` is a puzzle written on one line (16, 81, 256 or 625 symbols, blanks . 0 _, or another
    side's n*n; a variant's houses after `;`), as a command line may give one in place of a file."""
    symbols, _, words = text.partition(";")
    return (len(symbols) in SIDE_OF_LENGTH or bool(words)) and re.fullmatch(r"[0-9A-Za-z._]+", symbols) is not None \
        and re.fullmatch(r"[0-9A-Za-z.=+;-]*", words) is not None


def _is_url(text: str) -> bool:
    """Whether a command line's word is a link (`https://...`) that carries a puzzle, not a file's name."""
    return re.match(r"https?:/", text, re.IGNORECASE) is not None and is_link(text)


def read_lines(lines: Iterable[str], source: str, fmt: str | None = None,
               on_note: Note | None = None, *, decorations: str = "refuse",
               accepted: Collection[str] = ()) -> Iterator[Record]:
    """Every entry of an iterable of text lines; `source` names it in records and messages."""
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    lines = iter(lines)
    start = next(lines, "").removeprefix("\ufeff")  # a byte-order mark is not a symbol
    first = 1
    for line in itertools.chain([start], lines):  # every format skips blank and comment lines before content
        if _is_content(line):
            break
        first += 1
    else:
        return iter(())
    head = [line, *itertools.islice(lines, _HEAD_LINES - 1)]
    detection = Detection(fmt) if fmt else detect(head)
    if detection.note and on_note:
        on_note(f"{source}: {detection.note}")
    if detection.format == "fpuzzles":
        return _guarded(_read_fpuzzles(itertools.chain(head, lines), source, first, decorations, accepted), source)
    return _guarded(_READERS[detection.format](itertools.chain(head, lines), source, first), source)


def read_text(text: str, source: str = "<text>", fmt: str | None = None,
              on_note: Note | None = None, *, decorations: str = "refuse",
              accepted: Collection[str] = ()) -> Iterator[Record]:
    """Every entry of a string; CRLF, LF and a lone CR each end a line, as in a file."""
    return read_lines(io.StringIO(text, newline=None), source, fmt, on_note, decorations=decorations,
                      accepted=accepted)


def _open(path: str | Path) -> IO[bytes]:
    name = str(path)
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise PuzzleFileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise PuzzleFileError(f"{name}: is a folder, not a puzzle file") from None
    except PermissionError:
        raise PuzzleFileError(f"{name}: not permitted to read it") from None
    except OSError as exc:
        raise PuzzleFileError(f"{name}: cannot read it ({exc.strerror or exc})") from None


@contextlib.contextmanager
def _failing_clearly(source: str) -> Iterator[None]:
    """A failing disk or pipe as one PuzzleFileError."""
    try:
        yield
    except OSError as exc:
        raise PuzzleFileError(f"{source}: reading failed ({exc.strerror or exc})") from None


def _streamed(records: Iterator[Record], source: str, stack: contextlib.ExitStack) -> Iterator[Record]:
    with stack, _failing_clearly(source):
        yield from records


def _guarded(records: Iterator[Record], source: str) -> Iterator[Record]:
    """The records of a reader, anything it raises but PuzzleFileError (and a failing disk or pipe, which
    `_failing_clearly` says) as one PuzzleFileError naming the file and the line after the last record: every
    entry's own failure is a bad entry already, so this is a defect of the project, said in one line."""
    line = 0
    try:
        for record in records:
            line = record.line
            yield record
    except (PuzzleFileError, OSError):
        raise
    except Exception as exc:
        raise PuzzleFileError(f"{source}:{line + 1}: reading stopped: {unexpected(exc)}") from None


# -- bytes to lines ---------------------------------------------------------------
class _Prefixed(io.RawIOBase):
    """A binary stream that gives back the bytes sniffed from its start before the rest."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        # read1: what is there now, without waiting for a whole buffer (a pipe that streams puzzles)
        self._read = getattr(rest, "read1", rest.read)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:  # any writable buffer, as RawIOBase says
        view = memoryview(buffer).cast("B")
        data = self._head[: len(view)] or self._read(len(view))
        self._head = self._head[len(data):]
        view[: len(data)] = data
        return len(data)


def _text_lines(binary: IO[bytes], source: str) -> Iterator[str]:
    """The lines of a binary stream as text, each ending in '\\n' whatever ended it in the file."""
    head = binary.read(2)
    utf16 = head in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    text = io.TextIOWrapper(
        io.BufferedReader(_Prefixed(head, binary), 1 << 16),
        encoding="utf-16" if utf16 else "utf-8-sig",  # both drop their byte-order mark
        errors="strict" if utf16 else "surrogateescape",  # a byte that is not UTF-8 is found with its line
        newline=None,
    )
    number = 0
    try:
        for number, line in enumerate(text, 1):
            _refuse_binary(line, number, source)
            yield line
    except UnicodeDecodeError as exc:  # UTF-16 only: it is decoded ahead of the lines, a chunk at a time
        raise PuzzleFileError(f"{source}: not a text file (not UTF-16 after line {number}: {exc.reason})") from None


def _refuse_binary(line: str, number: int, source: str) -> None:
    if "\0" in line:
        raise PuzzleFileError(
            f"{source}: not a text file (a NUL byte on line {number}: binary, or UTF-16 without its byte-order mark)"
        )
    escaped = None if line.isascii() else _ESCAPED_BYTE.search(line)
    if escaped:
        raise PuzzleFileError(
            f"{source}: not a text file (line {number}, column {escaped.start() + 1}: "
            f"byte 0x{ord(escaped.group()) - 0xDC00:02x} is not UTF-8; save text files as UTF-8)"
        )


# -- detection ----------------------------------------------------------------------
def detect(head: list[str]) -> Detection:
    """The format of a file from its first lines (see the module docstring for the rules)."""
    content = [i for i, line in enumerate(head) if _is_content(line)]
    if not content:
        return Detection("line")
    first = head[content[0]].strip()
    if first.startswith(("{", "[")) or is_link(first.split()[0]):  # `[`: a JSON array, which its entry names
        return Detection("fpuzzles")
    if _is_variant_line(first.split()[0]):  # a puzzle and its houses, broken or not: never a CSV header
        return Detection("line")
    if _JSON_KEY.search(first) and ("{" in first or "[" in first):  # JSON that lost its first brace: no header
        return Detection("fpuzzles")
    if _is_csv_header(first):
        return Detection("csv")
    words = first.split()
    if len(words) > 1 and len(words[0].partition(";")[0]) in SIDE_OF_LENGTH:  # a puzzle and its name
        return Detection("line")
    row = first.translate(_SEPARATORS)
    if len(row) not in BOX_OF_SIDE:
        return Detection("line")
    if len(row) == 25 and _is_five(first) and not _is_grid_block(_first_block(head[content[0]:]), 25):
        return Detection("line")  # a 5x5 puzzle's 25 symbols (its regions missing), not a 25x25 grid's first row
    if len(row) != 16 or not _is_puzzle(first):
        return Detection("grid")
    return _sixteen_symbols(_first_block(head[content[0]:]))


def _is_variant_line(word: str) -> bool:
    """Whether a line's first word is the line form of a puzzle of the Sudoku family: at least 16 puzzle symbols,
    then `;` and its words (a malformed Killer's totals have commas, which a CSV header has too)."""
    symbols, semicolon, _ = word.partition(";")
    return bool(semicolon) and len(symbols) >= 16 and re.fullmatch(r"[0-9A-Za-z._]+", symbols) is not None


def _is_five(text: str) -> bool:
    """Whether a line is 25 symbols of a 5x5 puzzle, no separator: values 1 to 5 and blanks."""
    return re.fullmatch(r"[1-5._0]{25}", text) is not None


def _is_grid_block(block: list[str], side: int) -> bool:
    """Whether a block of lines is `side` rows of `side` symbols, separator lines aside."""
    rows = [row for row in (line.strip().translate(_SEPARATORS) for line in block) if row]
    return len(rows) == side and all(len(row) == side for row in rows)


def _sixteen_symbols(block: list[str]) -> Detection:
    """A file starting with a whole 4x4 puzzle: a 16x16 grid only if its first block is one."""
    if not _is_grid_block(block, 16):  # a separator line such as ----+---- is no row
        return Detection("line")
    if all(_is_puzzle(line.strip()) for line in block):
        return Detection(
            "grid",
            "read as grid blocks: its first 16 lines of 16 symbols each could also be sixteen 4x4 puzzles, "
            "one a line (--input-format line reads them so)",
        )
    return Detection("grid")


def _first_block(lines: list[str]) -> list[str]:
    """The lines up to the first blank line, comments left out."""
    block = itertools.takewhile(lambda line: line.strip(), lines)
    return [line for line in block if not line.lstrip().startswith("#")]


def _is_csv_header(line: str) -> bool:
    try:
        fields = next(csv.reader([line], skipinitialspace=True))
    except csv.Error:  # a NUL, a field past the csv module's limit: no header it could read
        return False
    lone_puzzle_column = len(fields) == 1 and fields[0].strip().lower() in PUZZLE_COLUMNS
    return (len(fields) > 1 or lone_puzzle_column) and not _is_puzzle(line.split()[0])


def _is_puzzle(text: str) -> bool:
    try:
        Grid.parse(text)
    except PuzzleError:
        return False
    return True


def _is_content(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith("#")


# -- the three formats -----------------------------------------------------------
def _read_line_format(lines: Iterable[str], source: str, first: int) -> Iterator[Record]:
    for number, raw in enumerate(lines, first):
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
        except Exception as exc:  # a defect of the reader: one bad entry, never the end of the run
            yield BadEntry(source, number, unexpected(exc))


def _read_fpuzzles(lines: Iterable[str], source: str, first: int, decorations: str = "refuse",
                   accepted: Collection[str] = ()) -> Iterator[Record]:
    content = ((number, text) for number, text in enumerate(lines, first) if _is_content(text))
    for number, found in read_objects(content, decorations, accepted):
        if isinstance(found, FPuzzlesError):
            yield BadEntry(source, number, str(found))
            continue
        try:
            grid, solution, title = puzzle_of(found, decorations, accepted)
        except PuzzleError as exc:
            yield BadEntry(source, number, str(exc))
            continue
        except Exception as exc:  # a defect of the reader: one bad entry, never the end of the run
            yield BadEntry(source, number, unexpected(exc))
            continue
        left_out = not_read(found) if decorations == "ignore" else ""
        ignored = ", ".join(found.accepted if isinstance(found, sudokupad.Converted) else
                            [key for key in found if key in accepted and found[key] not in (None, False, "", [], {})])
        meta = {DECORATIONS_KEY: left_out} if left_out else {}
        yield Entry(source, number, grid, title, solution, meta | ({ACCEPTED_KEY: ignored} if ignored else {}))


def not_read(puzzle: Mapping[str, Any]) -> str:
    """The decorations an f-puzzles object (or the one a SudokuPad link amounts to) holds that are not read as
    rules, `2 lines, 1 circle`; '' when it holds none."""
    counts = {key: len(value) if isinstance(value, list) else 1 for key, value in puzzle.items()
              if key in COSMETIC and value not in (None, False, "", [], {})}
    said = [plural(n, COSMETIC_WORDS.get(key, key)) for key, n in counts.items()]
    if isinstance(puzzle, sudokupad.Converted):
        said += [plural(n, sudokupad.LEFT_OUT[key]) for key, n in puzzle.left_out.items()]
    return ", ".join(said)


def _read_grid_format(lines: Iterable[str], source: str, first: int) -> Iterator[Record]:
    rows: list[str] = []
    start = 0
    for number, raw in enumerate(itertools.chain(lines, [""]), first):
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
            try:
                yield _block(rows, source, start)
            except Exception as exc:  # a defect of the reader: one bad entry, never the end of the run
                yield BadEntry(source, start, unexpected(exc))
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


@dataclass(frozen=True)
class _Columns:
    """Where a CSV file keeps its puzzle, its solution and its metadata."""

    names: list[str]  # lower case, as metadata keys
    puzzle: int
    solution: int | None

    @property
    def meta(self) -> list[int]:
        return [i for i in range(len(self.names)) if i not in (self.puzzle, self.solution)]


def _read_csv(lines: Iterable[str], source: str, first: int) -> Iterator[Record]:
    """The header is read now, so that a CSV without a puzzle column fails before any entry is asked for."""
    rows = csv.reader(lines, skipinitialspace=True)
    return _csv_entries(rows, _columns(next(rows), source, first), source, first)


def _columns(header: list[str], source: str, line: int) -> _Columns:
    names = [name.strip().lower() for name in header]
    puzzle = next((i for i, name in enumerate(names) if name in PUZZLE_COLUMNS), None)
    if puzzle is None:
        columns = ", ".join(name.strip() for name in header)
        if len(columns) > _COLUMNS_SHOWN:  # one short line, whatever the line taken for a header
            columns = f"{columns[:_COLUMNS_SHOWN - 1]}… ({len(header):,} columns)"
        raise PuzzleFileError(
            f"{source}:{line}: the CSV header names no puzzle column (puzzle or quizzes); its columns: {columns}"
        )
    solution = next((i for i, name in enumerate(names) if name in SOLUTION_COLUMNS), None)
    return _Columns(names, puzzle, solution)


def _csv_entries(rows: Any, columns: _Columns, source: str, first: int) -> Iterator[Record]:
    """The records of a csv.reader past its header; its line_num counts lines, as a quoted field may hold line ends."""
    consumed = rows.line_num
    while True:
        try:
            row = next(rows, None)
        except csv.Error as exc:  # a field past the csv module's limit, say: that row is one bad entry
            if rows.line_num == consumed:  # nothing read: the reader cannot go on past it
                raise PuzzleFileError(f"{source}:{first + consumed}: not CSV ({exc})") from None
            number, consumed = first + consumed, rows.line_num
            yield BadEntry(source, number, f"not CSV ({exc})")
            continue
        if row is None:
            return
        number, consumed = first + consumed, rows.line_num
        if not any(cell.strip() for cell in row):
            continue
        try:
            yield _csv_record(row, columns, source, number)
        except Exception as exc:  # a defect of the reader: one bad entry, never the end of the run
            yield BadEntry(source, number, unexpected(exc))


def _csv_record(row: list[str], columns: _Columns, source: str, number: int) -> Record:
    puzzle = row[columns.puzzle].strip() if columns.puzzle < len(row) else ""
    if not puzzle:
        return BadEntry(source, number, f"no puzzle in column '{columns.names[columns.puzzle]}'")
    try:
        grid = checked(puzzle)
    except PuzzleError as exc:
        return BadEntry(source, number, str(exc))
    solution = row[columns.solution].strip() if columns.solution is not None and columns.solution < len(row) else ""
    try:
        solved = Grid.parse(solution) if solution else None
    except PuzzleError as exc:
        return BadEntry(source, number, f"solution: {exc}")
    meta = {columns.names[i]: row[i].strip() for i in columns.meta if i < len(row)}
    return Entry(source, number, grid, meta.get("name", meta.get("id", "")), solved, meta)


_READERS = {"line": _read_line_format, "grid": _read_grid_format, "csv": _read_csv, "fpuzzles": _read_fpuzzles}


# -- writing ----------------------------------------------------------------------
def format_line(grid: Grid, name: str = "") -> str:
    """One entry of the line format."""
    return f"{grid.text()} {name}".rstrip()
