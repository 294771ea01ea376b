"""The public puzzle collections: what each one is, where it comes from, and where it is on this machine.

The project ships its own small file (puzzles/seeds.txt); the public collections the studies run on
(top95, top1465, 17-clue, the forum's hardest, Gecode's 16x16 and 25x25, real variant puzzles with their
setters' solutions, ...) are downloaded from their upstream addresses by `sudoku-data fetch NAME`
(commands/data.py), converted to the project's line format or f-puzzles JSON lines where needed, and kept
in a per-user cache. `CATALOGUE` holds one `Collection` record for each.

Every collection is pinned twice over: the SHA-256 of the file the project reads (the file the study was
measured on), and, where it could be computed, the SHA-256 of the upstream download. A download whose hash
differs, or whose conversion does not give the pinned file byte for byte, is an error and nothing of it is
kept. The upstream addresses name a commit, so the bytes behind them do not change.

Where a collection is read from (`locate`), in this order:
- $SUDOKU_DATA, when it is set: that folder alone (fetch writes there too);
- `../shared/data` beside the checkout, where it exists (kept for development);
- the per-user cache (`user_cache()`: $XDG_CACHE_HOME/sudoku-search or ~/.cache/sudoku-search on Linux).

Standard library only: tests, benchmarks and compare.py import it; pooch is imported by `fetch` alone, and
py-lzstring by the conversion that decodes f-puzzles payloads.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import sys
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ENVIRONMENT = "SUDOKU_DATA"  # a folder of one's own: read from it alone, and fetch into it
MIRROR = "SUDOKU_DATA_MIRROR"  # fetch from this address in place of https://raw.githubusercontent.com
UPSTREAM = "https://raw.githubusercontent.com"
ROOT = Path(__file__).resolve().parents[1]
BESIDE = ROOT.parent / "shared" / "data"  # the development copy, beside the checkout
APP = "sudoku-search"
DOWNLOADS = "downloads"  # the upstream files, kept under the data folder so that a second fetch reads them again
TIMEOUT = 30.0  # seconds without an answer from the server before a fetch gives up


class DataError(Exception):
    """A collection that cannot be found, fetched or converted; the message says which and what to do."""


class UnknownCollection(DataError):
    """A name that is not in the catalogue."""


class MissingCollection(DataError):
    """A collection of the catalogue that is not on this machine (yet)."""


class FetchError(DataError):
    """A download or conversion that failed; nothing of it was kept."""


# -- the conversions ------------------------------------------------------------------------------------------

GECODE_HEADER = ('# From the Gecode examples (examples/sudoku-instances.hh, MIT-style license). Values 1-9 then '
                 'A=10 ... P=25, "." blank; after the puzzle: its name and source.')
_GECODE_TOKEN = re.compile(r'"([^"]*)"|(,)|//(.*)$')  # a string literal, a comma, or a comment to the line's end


@dataclass(frozen=True)
class Conversion:
    """How the upstream file becomes the file the project reads.

    - `as is`: the download is the file;
    - `zip member`: the file `member` of a zip archive, with CRLF line ends made LF, and only the first
      `first` puzzles (comment lines left out) where `first` is given;
    - `rated csv`: the Sudoku Exchange's `id puzzle rating` lines as CSV `puzzle,rating,id` with that header;
    - `gecode`: the puzzles of side `side` of the string array in Gecode's examples/sudoku-instances.hh, one a
      line, each named gecode-N by its index in the array and followed by the comments above it;
    - `fpuzzles records`: a JSON array of records (`title`, `author`, `puzzle`: f-puzzles' LZ-String payload,
      `solution`: the setter's, one digit a cell), as SudokuVariantSolverJS keeps its puzzles: each puzzle an
      f-puzzles JSON line (`fpuzzles_lines`).
    """

    kind: Literal["as is", "zip member", "rated csv", "gecode", "fpuzzles records"]
    member: str = ""
    first: int | None = None
    side: int = 0

    def describe(self) -> str:
        if self.kind == "zip member":
            cut = f", its first {self.first:,} puzzles (comments left out)" if self.first else ""
            return f"{self.member} from the zip archive{cut}"
        if self.kind == "rated csv":
            return "`id puzzle rating` lines made CSV `puzzle,rating,id`"
        if self.kind == "gecode":
            return f"the {self.side}x{self.side} puzzles of the C++ array, one a line, named gecode-N"
        if self.kind == "fpuzzles records":
            return "each record's payload as an f-puzzles JSON line, with the record's title, author and solution"
        return "as is"

    def apply(self, upstream: Path) -> bytes:
        """The converted file, from the downloaded upstream file; a DataError if it is not what was expected."""
        if self.kind == "as is":
            return upstream.read_bytes()
        if self.kind == "zip member":
            return zip_member(upstream, self.member, self.first)
        text = upstream.read_bytes().decode("utf-8")
        if self.kind == "rated csv":
            return rated_csv(text).encode()
        if self.kind == "fpuzzles records":
            return fpuzzles_lines(text).encode()
        return gecode_lines(text, self.side).encode()


def zip_member(archive: Path, member: str, first: int | None = None) -> bytes:
    """The file named `member` (in any folder) of a zip archive, LF line ends, its first puzzles if `first`."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            names = [n for n in zipped.namelist() if n.rsplit("/", 1)[-1] == member]
            if len(names) != 1:
                raise DataError(f"{archive.name} holds {len(names)} files named {member}, not one")
            data = zipped.read(names[0]).replace(b"\r\n", b"\n")
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataError(f"{archive.name} is not a readable zip archive: {exc}") from exc
    if first is None:
        return data
    puzzles = [line for line in data.split(b"\n") if line.strip() and not line.startswith(b"#")]
    if len(puzzles) < first:
        raise DataError(f"{member} holds {len(puzzles):,} puzzles, fewer than {first:,}")
    return b"".join(line + b"\n" for line in puzzles[:first])


def rated_csv(text: str) -> str:
    """The Sudoku Exchange's lines (`id puzzle rating`, space-separated) as CSV `puzzle,rating,id`."""
    rows = ["puzzle,rating,id"]
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise DataError(f"line {number}: {len(fields)} fields, not `id puzzle rating`")
        ident, puzzle, rating = fields
        rows.append(f"{puzzle},{rating},{ident}")
    return "\n".join(rows) + "\n"


def gecode_puzzles(source: str) -> Iterator[tuple[str, str]]:
    """(puzzle, note) of each entry of the `examples[]` string array of Gecode's sudoku-instances.hh, in order.

    An entry is the string literals up to a comma at the array's level; its note is the comments between the
    previous entry's comma and that comma, joined with " | ", but for the bare index comments (`// 12`) and
    rows commented out (`//".N..JG..."`).
    """
    start = source.find("examples[] = {")
    end = source.find("};", start)
    if start < 0 or end < 0:
        raise DataError("no `examples[] = {...};` array in the file")
    rows: list[str] = []
    notes: list[str] = []
    for line in source[start + len("examples[] = {"):end].splitlines():
        for match in _GECODE_TOKEN.finditer(line):
            row, comma, comment = match.groups()
            if row is not None:
                rows.append(row)
            elif comma is not None:
                if rows:
                    yield "".join(rows), " | ".join(notes)
                rows, notes = [], []
            else:
                text = comment.strip()
                if text and not text.isdigit() and not text.startswith('"'):
                    notes.append(text)
    if rows:
        yield "".join(rows), " | ".join(notes)


def gecode_lines(source: str, side: int) -> str:
    """The puzzles of side `side` of Gecode's array as the project's line format, under a header comment."""
    lines = [GECODE_HEADER]
    for index, (puzzle, note) in enumerate(gecode_puzzles(source)):
        if len(puzzle) not in (81, 256, 625):
            raise DataError(f"entry {index} has {len(puzzle)} cells, not a 9x9, 16x16 or 25x25 puzzle")
        if len(puzzle) == side * side:
            lines.append(f"{puzzle} gecode-{index}" + (f" {note}" if note else ""))
    if len(lines) == 1:
        raise DataError(f"no {side}x{side} puzzle in the array")
    return "\n".join(lines) + "\n"


def fpuzzles_lines(text: str) -> str:
    """The puzzles of a JSON array of records (SudokuVariantSolverJS's puzzles/*.json) as f-puzzles JSON, one
    object a line, in the array's order: each record's `puzzle` (f-puzzles' LZ-String base64) decoded, its
    `title` and `author` set to the record's, and its `solution` to the record's (one digit a cell, row-major,
    made f-puzzles' list of numbers). Every puzzle is kept, whatever its rules: the reader names the ones the
    project does not know. An empty record (the array's closing `{}`) holds no puzzle and is passed over; a
    payload that carries another solution than its record's is a DataError."""
    from .fpuzzles import FPuzzlesError, lz_string  # py-lzstring, only here (as pooch is only in download())

    try:
        lzstring = lz_string()
    except FPuzzlesError as exc:  # not installed, or another package's module of that name: one line saying so
        raise DataError(str(exc)) from None
    try:
        records = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(records, list):
        raise DataError("not a JSON array of puzzle records")
    lines = []
    for index, record in enumerate(records):
        if record == {}:
            continue
        where = f"record {index}"
        if not isinstance(record, dict) or not all(isinstance(record.get(k), str)
                                                   for k in ("title", "author", "puzzle", "solution")):
            raise DataError(f"{where}: not an object with the strings `title`, `author`, `puzzle` and `solution`")
        try:
            puzzle = json.loads(lzstring.decompress_from_base64(record["puzzle"]) or "")
        except Exception:  # a malformed payload: what the library raises is its own
            puzzle = None
        if not isinstance(puzzle, dict):
            raise DataError(f"{where} ({record['title']}): its `puzzle` is not an f-puzzles payload")
        solution, size = record["solution"], puzzle.get("size")
        if not isinstance(size, int) or not re.fullmatch("[0-9]+", solution) or len(solution) != size * size:
            raise DataError(f"{where} ({record['title']}): its solution is not one digit for each cell")
        own = puzzle.get("solution")  # some exports write its numbers as strings: the same solution
        if own is not None and (not isinstance(own, list) or [str(v) for v in own] != list(solution)):
            raise DataError(f"{where} ({record['title']}): its payload carries another solution than the record")
        puzzle |= {"title": record["title"], "author": record["author"], "solution": [int(d) for d in solution]}
        lines.append(json.dumps(puzzle, ensure_ascii=False, separators=(",", ":")))
    if not lines:
        raise DataError("no puzzle in the array")
    return "\n".join(lines) + "\n"


# -- the catalogue --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Collection:
    """One public collection: the file the project reads, and where and how it is made from upstream."""

    name: str  # what `sudoku-data fetch` and compare.py call it: the file's stem
    file: str  # under the data folder, e.g. 9x9/top95.txt
    puzzles: int
    about: str  # what it is
    source: str
    licence: str
    url: str  # the upstream file, at a fixed commit
    upstream_sha256: str | None  # None where the file was not in reach to be hashed when the catalogue was made
    sha256: str  # of the converted file: the study's own copy
    conversion: Conversion
    upstream_blob: str | None = None  # the upstream file's git blob id (SHA-1), where its SHA-256 is unknown

    def download_name(self) -> str:
        """The upstream file's name in the downloads folder: owner, repository and file name."""
        owner, repository = self.url.split("/")[3:5]
        return f"{owner}-{repository}-{self.url.rsplit('/', 1)[-1]}"

    def url_from(self, mirror: str | None) -> str:
        """Its address, from `mirror` (an address serving the same paths as raw.githubusercontent.com) if given."""
        if not mirror:
            return self.url
        return mirror.rstrip("/") + "/" + self.url.split("/", 3)[3]


_TDOKU = f"{UPSTREAM}/t-dillon/tdoku/a05701253ed175e2859063dec3cf01a7f5b9c6a7/data.zip"
_TDOKU_BLOB = "2ae6e4f8d021d2198069814c7db18bf11fcd9591"
_PYTUDES = f"{UPSTREAM}/norvig/pytudes/88819c4cd043afa265ba1f7fedc03e006a2082e6/py"
_EXCHANGE = f"{UPSTREAM}/grantm/sudoku-exchange-puzzle-bank/63957e92bb9f02432c20583443742337f22b49c2/diabolical.txt"
_GECODE = f"{UPSTREAM}/Gecode/gecode/26e3a7a6109b2bbb54bca5b0b78eb25bbfe39e39/examples/sudoku-instances.hh"
_GECODE_SHA = "d2532b555286100a21697f5d1a3df3b90cc63b961b3caa4ac3b75649ff60578b"
_SVJS = f"{UPSTREAM}/dclamage/SudokuVariantSolverJS/06eaf432bdf56eae47b2a1816e3f23d3996897a3/puzzles"
# CC BY 4.0 asks for attribution: the repository's LICENSE grants it for its `puzzles` folder, each puzzle by the
# setters its record names (kept as each line's `author`); docs/reference/data.md says what the project changed
_SVJS_PUZZLES = "SudokuVariantSolverJS's puzzles (David Clamage and contributors; each puzzle's author as named)"
_NORVIG, _TDOKU_DATA = "Peter Norvig's pytudes", "tdoku's benchmark data"
_EXCHANGE_BANK, _GECODE_EXAMPLES = "Sudoku Exchange puzzle bank", "Gecode's examples"


def _tdoku(name: str, file: str, puzzles: int, about: str, sha256: str, member: str,
           first: int | None = None) -> Collection:
    return Collection(name, file, puzzles, about, _TDOKU_DATA, "BSD-2-Clause", _TDOKU, None, sha256,
                      Conversion("zip member", member=member, first=first), upstream_blob=_TDOKU_BLOB)


def _gecode(side: int, puzzles: int, about: str, sha256: str) -> Collection:
    file = f"{side}x{side}/gecode-{side}x{side}.txt"
    return Collection(f"gecode-{side}x{side}", file, puzzles, about, _GECODE_EXAMPLES, "MIT-style", _GECODE,
                      _GECODE_SHA, sha256, Conversion("gecode", side=side))


CATALOGUE: tuple[Collection, ...] = (
    Collection("easy50", "9x9/easy50.txt", 50, "easy puzzles (Project Euler problem 96), `0` for a blank",
               _NORVIG, "MIT", f"{_PYTUDES}/sudoku-easy50.txt",
               "42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05",
               "42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05", Conversion("as is")),
    Collection("top95", "9x9/top95.txt", 95, "the hard set Norvig timed his solver on",
               _NORVIG, "MIT", f"{_PYTUDES}/sudoku-top95.txt",
               "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
               "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36", Conversion("as is")),
    Collection("hardest", "9x9/hardest.txt", 11, 'puzzles called "hardest" in the press',
               _NORVIG, "MIT", f"{_PYTUDES}/sudoku-hardest.txt",
               "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
               "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f", Conversion("as is")),
    _tdoku("top1465", "9x9/top1465.txt", 1_465, "magictour's top 1465, hard for naive search",
           "ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce", "puzzles3_magictour_top1465"),
    _tdoku("17-clue", "9x9/17-clue.txt", 49_158, "every known puzzle with 17 givens, the fewest possible",
           "6b98791a53f51997dea2d1a85dcc7fdd99798c3c6ccfae9c3d57df69b8d8dc16", "puzzles2_17_clue"),
    _tdoku("forum-hardest-1106", "9x9/forum-hardest-1106.txt", 375,
           "the hardest known puzzles, a forum's list of 2011",
           "45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06", "puzzles6_forum_hardest_1106"),
    _tdoku("forum-hardest-1905-11plus", "9x9/forum-hardest-1905-11plus.txt", 48_766,
           "very hard puzzles, rated 11 and up by Sudoku Explainer",
           "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996", "puzzles5_forum_hardest_1905_11+"),
    _tdoku("unbiased-1000", "9x9/unbiased-1000.txt", 1_000, "the first 1,000 of an unbiased random sample",
           "fc176210734cdec76977bf6320f0fe90f27a89efb2755657967dfe438e7612d6", "puzzles1_unbiased", first=1_000),
    _tdoku("serg-multi-solution", "9x9/serg-multi-solution.txt", 10_000, "puzzles with two or more solutions each",
           "ece26465ccb6918e854d91df4bb1ca6e2c40ee17a6e2d5d9cbbeddce06439ade", "puzzles7_serg_benchmark"),
    Collection("diabolical-rated", "9x9/diabolical-rated.csv", 39_719,
               "CSV `puzzle,rating,id`, rated 5.0 to 9.3 by the human techniques needed",
               _EXCHANGE_BANK, "public domain", _EXCHANGE,
               "84b626dc1f85c9ccde8b0f2a98bec412bc955bb6b5fdb3b41f955acd69c1169c",
               "a9f3da51040e40029bde3d224b4efd2eddead796e3f0255d7a525af1730a03a3", Conversion("rated csv")),
    _gecode(9, 18, "newspaper and bifurcation puzzles",
            "d34ad246df59d91ce0f61830aab8725c6683e480c0a65b7e5c53eae333f50cd5"),
    _gecode(16, 55, "16x16, values `1`-`9` then `A`-`G`",
            "edb69ca5ab11d8ab23a2f87cca4512e955187877054096f580c3fc6abd231562"),
    _gecode(25, 18, "minimal 25x25 puzzles, very hard for search without strong propagation",
            "1694c94bb09776efd44ceaa2cfa314c00c967f0c42d468504a6a904692fb8afd"),
    Collection("variant-solver-js", "variants/variant-solver-js.jsonl", 85,
               "real variant puzzles by many setters, with their solutions (f-puzzles JSON lines); rules the "
               "project does not read yet are named as bad entries", _SVJS_PUZZLES, "CC BY 4.0",
               f"{_SVJS}/puzzles.json", "ea7282c5ec155bcf01a30dadd18036149af2ce70463548338b9d71646dc1656e",
               "716f9871e428b857543db2c36070a74027e468cb83facbe46630087634c5de34", Conversion("fpuzzles records")),
    Collection("lubaf-coloring-book", "variants/lubaf-coloring-book.jsonl", 16,
               "Lubaf's anti-knight thermometer (and palindrome) coloring book, with the setter's solutions",
               _SVJS_PUZZLES, "CC BY 4.0", f"{_SVJS}/lubaf-coloring-book.json",
               "a4a0b652e7be510dd3dae91a68ec7cb88f97d53498d50fd74407d3141c2b6c70",
               "0295ec8bd4dc8c8f4180d8644d9e3c1ffe96a44641964bdce061c7e8fa483044", Conversion("fpuzzles records")),
)
NAMES = tuple(c.name for c in CATALOGUE)


def collection(name: str, catalogue: Sequence[Collection] = CATALOGUE) -> Collection:
    """The collection of that name, or UnknownCollection naming the ones there are."""
    for entry in catalogue:
        if entry.name == name:
            return entry
    raise UnknownCollection(f"unknown collection {name!r}; the collections: {', '.join(c.name for c in catalogue)}")


# -- where the collections are --------------------------------------------------------------------------------

def user_cache() -> Path:
    """The per-user cache folder of the project (where pooch's os_cache would put it; no import needed)."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / APP / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / APP


def data_folder() -> Path:
    """Where `fetch` writes: $SUDOKU_DATA when it is set, else the per-user cache."""
    own = os.environ.get(ENVIRONMENT)
    return Path(own) if own else user_cache()


def folders() -> list[Path]:
    """Where the collections are looked for, in order: $SUDOKU_DATA alone when set, else ../shared/data
    beside the checkout where it exists, then the per-user cache."""
    own = os.environ.get(ENVIRONMENT)
    if own:
        return [Path(own)]
    return ([BESIDE] if BESIDE.is_dir() else []) + [user_cache()]


def find(entry: Collection) -> Path | None:
    """The collection's file in the first folder that has it, or None."""
    for folder in folders():
        path = folder / entry.file
        if path.is_file():
            return path
    return None


def locate(name: str) -> Path:
    """The file of the collection `name`, or MissingCollection naming the command that fetches it."""
    entry = collection(name)
    path = find(entry)
    if path is None:
        where = " or ".join(str(folder) for folder in folders())
        raise MissingCollection(f"the collection {name} ({entry.file}) is not in {where}: "
                                f"`sudoku-data fetch {name}` downloads it")
    return path


def resolve(file: str) -> str:
    """A puzzle file as compare.py takes it: a path that exists (or '-') as it is, else a collection's name
    as its file; anything else as it is, for the reader to report."""
    if file == "-" or os.path.exists(file) or file not in NAMES:
        return file
    return str(locate(file))


# -- fetching -------------------------------------------------------------------------------------------------

def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def git_blob_id(path: Path) -> str:
    """The id git gives the file's content (SHA-1 of `blob <size>\\0` and the bytes)."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode(), usedforsecurity=False)
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_current(path: Path, entry: Collection) -> bool:
    """True if the file is there and is byte for byte the pinned one."""
    return path.is_file() and sha256_of(path.read_bytes()) == entry.sha256


@dataclass(frozen=True)
class Fetched:
    """One collection made present: where its file is, and whether it was already there."""

    entry: Collection
    path: Path
    downloaded: bool


BarFactory = Callable[[Collection], Any]
"""Makes the progress bar of one download: an object pooch can drive (`total`, `update`, `reset`, `close`)."""


def fetch(entries: Iterable[Collection], folder: Path | None = None, mirror: str | None = None,
          progress: BarFactory | None = None, timeout: float = TIMEOUT) -> Iterator[Fetched]:
    """Make each collection present in `folder` (default `data_folder()`), one after the other.

    A collection already there with the pinned SHA-256 is left as it is. Else its upstream file is
    downloaded into folder/downloads (once for the collections it holds; pooch checks the pinned SHA-256 of
    the download where there is one, the git blob id is checked where there is not), converted, and the
    result written only if its SHA-256 is the pinned one. A FetchError stops at the first failure, with one
    line saying what failed; a download that failed its check, or gave a file that is not the pinned one, is
    deleted, and nothing half-written is left (pooch downloads to a temporary file, the converted file is
    written to one and renamed). `mirror` (default $SUDOKU_DATA_MIRROR) serves the upstream paths elsewhere.
    """
    target = folder if folder is not None else data_folder()
    mirror = mirror if mirror is not None else os.environ.get(MIRROR)
    for entry in entries:
        path = target / entry.file
        if is_current(path, entry):
            yield Fetched(entry, path, downloaded=False)
            continue
        try:
            converted = converted_file(entry, target / DOWNLOADS, mirror, progress, timeout)
        except FetchError:
            with contextlib.suppress(OSError):  # only if empty: what another fetch downloaded stays
                (target / DOWNLOADS).rmdir()
            raise
        write_whole(path, converted)
        yield Fetched(entry, path, downloaded=True)


def converted_file(entry: Collection, downloads: Path, mirror: str | None, progress: BarFactory | None,
                   timeout: float) -> bytes:
    """The collection's file made from its upstream file, checked against its pinned SHA-256."""
    upstream = download(entry, downloads, mirror, progress, timeout)
    try:
        converted = entry.conversion.apply(upstream)
    except (DataError, UnicodeDecodeError) as exc:
        upstream.unlink(missing_ok=True)
        raise FetchError(f"{entry.name}: {entry.url_from(mirror)} could not be converted ({exc}); "
                         "the download was deleted") from exc
    got = sha256_of(converted)
    if got != entry.sha256:
        upstream.unlink(missing_ok=True)
        raise FetchError(f"{entry.name}: the converted file's SHA-256 is {got}, not the pinned {entry.sha256}; "
                         "nothing was kept")
    return converted


def download(entry: Collection, folder: Path, mirror: str | None, progress: BarFactory | None,
             timeout: float) -> Path:
    """The upstream file of `entry` in `folder`, downloaded unless it is there already (and checked)."""
    import logging

    import pooch  # only here: reading the collections needs nothing but the standard library

    url = entry.url_from(mirror)
    known = f"sha256:{entry.upstream_sha256}" if entry.upstream_sha256 else None
    downloader = pooch.HTTPDownloader(progressbar=progress(entry) if progress else False, timeout=timeout,
                                      chunk_size=1 << 16)
    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)  # pooch would log each download and the hash to pin; the command says it
    try:
        path = Path(pooch.retrieve(url, known_hash=known, fname=entry.download_name(), path=folder,
                                   downloader=downloader))
    except ValueError as exc:  # pooch's hash mismatch; the download was deleted
        raise FetchError(f"{entry.name}: {url} is not the pinned file ({hash_difference(exc)}); "
                         "nothing was kept") from exc
    except OSError as exc:  # requests' errors are OSErrors: no connection, a timeout, an HTTP error status
        raise FetchError(f"{entry.name}: cannot download {url}: {reason(exc)}") from exc
    finally:
        logger.setLevel(level)
    if entry.upstream_blob is not None and (blob := git_blob_id(path)) != entry.upstream_blob:
        path.unlink()
        raise FetchError(f"{entry.name}: {url} is not the pinned file (git blob {blob}, expected "
                         f"{entry.upstream_blob}); nothing was kept")
    return path


def hash_difference(exc: ValueError) -> str:
    """'SHA-256 X, expected Y' from pooch's message, or its message as it is."""
    found = re.search(r"expected (?:sha256:)?(\w+) but got (\w+)", str(exc))
    return f"SHA-256 {found.group(2)}, expected {found.group(1)}" if found else str(exc)


def reason(exc: OSError) -> str:
    """Why a download failed, in a few words: the server's answer, else the innermost cause (requests nests
    the socket's error three deep in its own)."""
    response = getattr(exc, "response", None)
    if response is not None:
        return f"the server answered {response.status_code} {response.reason}"
    cause: BaseException = exc
    while (inner := cause.__cause__ or cause.__context__) is not None:
        cause = inner
    text = str(cause) or type(cause).__name__
    if isinstance(cause, (ConnectionError, TimeoutError, socket.gaierror)):
        return f"no connection ({text}): offline?"
    return text


def write_whole(path: Path, data: bytes) -> None:
    """Write the file through a temporary one beside it and a rename: it is whole or it is not there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")  # the umask's permissions, as any file's
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
