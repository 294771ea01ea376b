"""Hostile puzzle files, written by the tests themselves: `make_hostile_files(folder) -> {key: path}`.

Each file is what real files look like when they go wrong: byte-order marks,
UTF-16, every kind of line ending, quoted CSV, a CSV without a puzzle column,
a layout that fits two formats, binary bytes. Reading one with
`read_puzzles(path)` (format detected) yields, with FILE for the name it is
read under (the path, or `<stdin>`):

- bom_line: UTF-8 BOM, two puzzles one a line with names: 2 entries, lines 1 and 2.
- bom_csv: UTF-8 BOM before the header `puzzle,rating`, CRLF: 2 entries, lines 2 and 3, rating kept.
- utf16_le: UTF-16-LE with BOM, CRLF, a comment and a blank line: 2 entries, lines 2 and 4.
- utf16_be: UTF-16-BE with BOM, a 9x9 grid block with separators: 1 entry, line 1.
- cr_only: lone CR line ends, a comment and a blank line: 2 entries (9x9, 4x4), lines 2 and 4.
- crlf: CRLF, a comment, a blank, a bad line: 2 entries, lines 3 and 5; 1 bad entry, line 4.
- mixed_endings: LF, CRLF and CR (one blank line) in one file: 3 entries, lines 1, 3 and 5.
- quoted_csv: a comment, then the quoted header ` "Puzzle" , "Solution", "Name"` (spaces
  around fields), quoted fields, a name with a comma and a name holding a line end:
  3 entries, lines 3, 4 and 6 (the second row spans lines 4-5).
- csv_no_puzzle_column: PuzzleFileError "FILE:2: the CSV header names no puzzle column
  (puzzle or quizzes); its columns: id, rating, grid".
- ambiguous_16: sixteen different 4x4 puzzles one a line, nothing else, that are also a
  valid 16x16 grid block: read as a grid, 1 entry (16x16), line 1, and the note
  "FILE: read as grid blocks: ..."; with fmt="line", 16 entries (4x4), lines 1 to 16
  (AMBIGUOUS_AS_LINES).
- grid_16x16: a comment and a 16x16 grid block using symbols 1-9 and A-G: 1 entry, line 2, no note.
- empty, comments_only: no entries, no error.
- binary: a gzip-like header and pseudo-random bytes with NULs: PuzzleFileError
  "FILE: not a text file (a NUL byte on line 1: binary, or UTF-16 without its byte-order mark)".
- utf16_no_bom: UTF-16-LE without its BOM: the same error as binary.
- utf16_truncated: UTF-16-LE with BOM and an odd last byte: PuzzleFileError
  "FILE: not a text file (not UTF-16 after line 2: truncated data)".
- latin1_name: a Latin-1 name on line 2: PuzzleFileError
  "FILE: not a text file (line 2, column 86: byte 0xe9 is not UTF-8; save text files as UTF-8)".
- bad_entries_only: 4 bad entries, lines 1 to 4, no entries.

`EXPECTED` holds the same as data: every entry's line, puzzle text and name,
every bad entry, the error and the note.
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

SEED = "000702000100040007650000094470801062000000000580209013860000075900060008000908000"
SOLVED = "348792651192645837657183294479831562213456789586279413861324975934567128725918346"
SEED2 = SEED.translate(str.maketrans("123456789", "912345678"))  # the same puzzle, symbols renamed
FOUR = "3..1...2.3..2..."  # a 4x4 puzzle
NOT_A_TEXT_FILE = "FILE: not a text file (a NUL byte on line 1: binary, or UTF-16 without its byte-order mark)"


@dataclass(frozen=True)
class Expected:
    """What reading one hostile file yields; FILE stands for the name it is read under."""

    entries: tuple[tuple[int, str, str], ...] = ()  # (line, puzzle as written, name); blanks may be 0
    bad: tuple[tuple[int, str], ...] = ()  # (line, reason), in file order
    error: str | None = None  # the PuzzleFileError's message; nothing is yielded then
    note: str | None = None  # what on_note is told, once

    @property
    def count(self) -> int:
        return len(self.entries)

    @property
    def first_line(self) -> int | None:
        return self.entries[0][0] if self.entries else None


def solved_sixteen_by_sixteen() -> list[str]:
    """The rows of a solved 16x16 grid (a pattern: each row the one above shifted)."""
    symbols = "123456789ABCDEFG"
    return ["".join(symbols[(4 * (r % 4) + r // 4 + c) % 16] for c in range(16)) for r in range(16)]


def keep(rows: list[str], wanted) -> list[str]:
    """The rows with every symbol for which `wanted(symbol, cell)` is false blanked."""
    return ["".join(s if wanted(s, 16 * r + c) else "." for c, s in enumerate(row)) for r, row in enumerate(rows)]


def grid_block(puzzle: str) -> list[str]:
    """A 9x9 puzzle as a grid block with | and ------+------ separators."""
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    block = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            block.append("------+-------+------")
        block.append(" | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6)))
    return block


def pseudo_random_bytes(count: int) -> bytes:
    """Bytes that look random (every value, NULs among them), the same on every run."""
    return bytes((i * 167 + i * i * 13 + 7) % 256 for i in range(count))


SOLVED16 = solved_sixteen_by_sixteen()
ROWS16 = keep(SOLVED16, lambda symbol, cell: cell % 3 == 0)  # a 16x16 puzzle: one cell in three given
FOURS = keep(SOLVED16, lambda symbol, cell: symbol in "1234")  # each row a 4x4 puzzle, all rows a 16x16 one
AMBIGUOUS_NOTE = (
    "FILE: read as grid blocks: its first 16 lines of 16 symbols each could also be sixteen 4x4 puzzles, "
    "one a line (--input-format line reads them so)"
)

CONTENTS: dict[str, bytes] = {
    "bom_line": codecs.BOM_UTF8 + f"{SEED} seed one\n{SEED2} seed two\n".encode(),
    "bom_csv": codecs.BOM_UTF8 + f"puzzle,rating\r\n{SEED},1.5\r\n{SEED2},2\r\n".encode(),
    "utf16_le": codecs.BOM_UTF16_LE + f"# from Notepad\r\n{SEED} one\r\n\r\n{SEED2} two\r\n".encode("utf-16-le"),
    "utf16_be": codecs.BOM_UTF16_BE + "\n".join(grid_block(SEED)).encode("utf-16-be"),
    "cr_only": f"# old Mac\r{SEED} a\r\r{FOUR}\r".encode(),
    "crlf": f"# Windows\r\n\r\n{SEED}\r\n12345\r\n{SEED2}\r\n".encode(),
    "mixed_endings": f"{SEED}\n# comment\r\n{SEED2}\r\r{FOUR}\n".encode(),
    "quoted_csv": (
        '# exported\n "Puzzle" , "Solution", "Name"\n'
        f'"{SEED}","{SOLVED}","Smith, J."\n'
        f'"{SEED2}",,"two\r\nlines"\n'
        f"{SEED},,plain\n"
    ).encode(),
    "csv_no_puzzle_column": f"# exported\nid, rating, grid\n1,2.5,{SEED}\n".encode(),
    "ambiguous_16": "\n".join(FOURS).encode(),
    "grid_16x16": ("# a 16x16 puzzle\n" + "\n".join(ROWS16) + "\n").encode(),
    "empty": b"",
    "comments_only": b"# nothing here\n\n# still nothing\r\n",
    "binary": b"\x1f\x8b\x08\x00" + pseudo_random_bytes(2000),
    "utf16_no_bom": f"{SEED}\r\n".encode("utf-16-le"),
    "utf16_truncated": codecs.BOM_UTF16_LE + f"{SEED}\r\n{SEED2}\r\n".encode("utf-16-le") + b"A",
    "latin1_name": f"{SEED} one\n{SEED2} Café\n".encode("latin-1"),
    "bad_entries_only": f"hello\n12345\n{SEED[:-1]}x\n{'7' + SEED[1:]}\n".encode(),
}

LENGTHS = "5 symbols: a puzzle has 16, 81, 256 or 625 (4x4, 9x9, 16x16, 25x25)"
EXPECTED: dict[str, Expected] = {
    "bom_line": Expected(entries=((1, SEED, "seed one"), (2, SEED2, "seed two"))),
    "bom_csv": Expected(entries=((2, SEED, ""), (3, SEED2, ""))),
    "utf16_le": Expected(entries=((2, SEED, "one"), (4, SEED2, "two"))),
    "utf16_be": Expected(entries=((1, SEED, ""),)),
    "cr_only": Expected(entries=((2, SEED, "a"), (4, FOUR, ""))),
    "crlf": Expected(entries=((3, SEED, ""), (5, SEED2, "")), bad=((4, LENGTHS),)),
    "mixed_endings": Expected(entries=((1, SEED, ""), (3, SEED2, ""), (5, FOUR, ""))),
    "quoted_csv": Expected(entries=((3, SEED, "Smith, J."), (4, SEED2, "two\nlines"), (6, SEED, "plain"))),
    "csv_no_puzzle_column": Expected(
        error="FILE:2: the CSV header names no puzzle column (puzzle or quizzes); its columns: id, rating, grid"
    ),
    "ambiguous_16": Expected(entries=((1, "".join(FOURS), ""),), note=AMBIGUOUS_NOTE),
    "grid_16x16": Expected(entries=((2, "".join(ROWS16), ""),)),
    "empty": Expected(),
    "comments_only": Expected(),
    "binary": Expected(error=NOT_A_TEXT_FILE),
    "utf16_no_bom": Expected(error=NOT_A_TEXT_FILE),
    "utf16_truncated": Expected(error="FILE: not a text file (not UTF-16 after line 2: truncated data)"),
    "latin1_name": Expected(
        error="FILE: not a text file (line 2, column 86: byte 0xe9 is not UTF-8; save text files as UTF-8)"
    ),
    "bad_entries_only": Expected(
        bad=(
            (1, LENGTHS),
            (2, LENGTHS),
            (3, "unknown symbol 'x' at position 81 (a 9x9 puzzle uses 1-9 and blanks . 0 _)"),
            (4, "invalid puzzle: two 7s in row 1"),
        )
    ),
}
AMBIGUOUS_AS_LINES = Expected(entries=tuple((i, puzzle, "") for i, puzzle in enumerate(FOURS, 1)))


def make_hostile_files(folder: Path) -> dict[str, Path]:
    """Write every hostile file into `folder` (made if missing); return {key: path}.

    The keys, and what reading each file yields, are in this module's docstring and in EXPECTED.
    """
    folder.mkdir(parents=True, exist_ok=True)
    suffix = {"bom_csv": ".csv", "quoted_csv": ".csv", "csv_no_puzzle_column": ".csv", "binary": ".bin"}
    paths = {}
    for key, data in CONTENTS.items():
        path = folder / f"{key}{suffix.get(key, '.txt')}"
        path.write_bytes(data)
        paths[key] = path
    return paths
