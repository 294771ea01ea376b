"""The public collections: the catalogue, the lookup, and `sudoku-data fetch` against a local HTTP server.

No test reaches the network: small upstream-like files (a text file, a zip archive in tdoku's layout, the
Sudoku Exchange's lines, a C++ array in Gecode's form, a few real records of SudokuVariantSolverJS's puzzles
from tests/variant_solver_js.py) are made here and served on 127.0.0.1 by a thread, with a catalogue of their
own pinned to hashes of the converted files written out by hand below.
"""
from __future__ import annotations

import dataclasses
import hashlib
import http.server
import io
import json
import os
import re
import socket
import threading
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import variant_solver_js
from constraint_grids import breaks
from fixtures import SEED000, SEED001
from rich.console import Console
from variant_grids import valid_solution

import compare
from commands import data as command
from puzzles import Grid, data, fpuzzles
from puzzles.data import UPSTREAM, Collection, Conversion, FetchError
from puzzles.formats import BadEntry, Entry, read_puzzles

ROOT = Path(__file__).resolve().parents[1]
COMMIT = "0123456789abcdef0123456789abcdef01234567"
SEED003 = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


# -- the small upstream files, and what each must become ------------------------------------------------------

PLAIN = f"{SEED000}\n{SEED001}\n"  # served as is

TDOKU_TOP = f"# From somewhere\r\n#\r\n{SEED000}\r\n{SEED001}\r\n"  # CRLF line ends in the archive
TDOKU_TOP_CONVERTED = f"# From somewhere\n#\n{SEED000}\n{SEED001}\n"
TDOKU_SAMPLE = f"# a header\n{SEED000}\n\n{SEED001}\n{SEED003}\n"  # the first two puzzles are kept
TDOKU_SAMPLE_CONVERTED = f"{SEED000}\n{SEED001}\n"

EXCHANGE = f"0a1b2c3d4e5f {SEED000.replace('.', '0')}  7.2\nffee00112233 {SEED001}  9.3\n"
EXCHANGE_CONVERTED = f"puzzle,rating,id\n{SEED000},7.2,0a1b2c3d4e5f\n{SEED001},9.3,ffee00112233\n"

SIXTEEN = "1" + "." * 255  # the conversion checks sizes, not puzzles: a 16x16 of one given will do


def rows(puzzle: str, side: int) -> str:
    return "\n".join(f'    "{puzzle[i:i + side]}"' for i in range(0, side * side, side))


GECODE = f"""// a file in the form of Gecode's examples/sudoku-instances.hh
namespace {{
  const char* examples[] = {{
    // 0
{rows(SEED000, 9)}
    ,
    // 1
    // This one requires search
{rows(SEED001, 9)}
    , // Puzzle 1 from a newspaper
    // 2
    //"{SIXTEEN[:16]}"
{rows(SIXTEEN, 16)},
    // 3
    // 62 // problems
{rows(SEED003, 9)}
  }};
  const unsigned int n_examples = sizeof(examples)/sizeof(char*);
}}
"""
GECODE_9X9 = (f"{data.GECODE_HEADER}\n{SEED000} gecode-0\n{SEED001} gecode-1 This one requires search\n"
              f"{SEED003} gecode-3 62 // problems\n")
GECODE_16X16 = f"{data.GECODE_HEADER}\n{SIXTEEN} gecode-2 Puzzle 1 from a newspaper\n"


def zipped(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text.encode())
    return buffer.getvalue()


TDOKU_ZIP = zipped({"data/puzzles3_magictour_top1465": TDOKU_TOP, "data/puzzles1_unbiased": TDOKU_SAMPLE})


def git_blob(content: bytes) -> str:  # how git names a file's content
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def url(path: str) -> str:
    return f"{UPSTREAM}/owner/repository/{COMMIT}/{path}"


# A catalogue of the small files: each pinned to the hand-written conversions above.
PLAIN_ENTRY = Collection("plain", "9x9/plain.txt", 2, "two seeds", "a test", "MIT", url("plain.txt"), sha(PLAIN),
                         sha(PLAIN), Conversion("as is"))
TOP_ENTRY = Collection("top", "9x9/top.txt", 2, "from a zip", "a test", "BSD-2-Clause", url("data.zip"), None,
                       sha(TDOKU_TOP_CONVERTED), Conversion("zip member", member="puzzles3_magictour_top1465"),
                       upstream_blob=git_blob(TDOKU_ZIP))
SAMPLE_ENTRY = dataclasses.replace(TOP_ENTRY, name="sample", file="9x9/sample.txt", sha256=sha(TDOKU_SAMPLE_CONVERTED),
                                   conversion=Conversion("zip member", member="puzzles1_unbiased", first=2))
RATED_ENTRY = Collection("rated", "9x9/rated.csv", 2, "rated", "a test", "public domain", url("diabolical.txt"),
                         sha(EXCHANGE), sha(EXCHANGE_CONVERTED), Conversion("rated csv"))
GECODE_ENTRY = Collection("gecode-9x9", "9x9/gecode-9x9.txt", 3, "gecode", "a test", "MIT-style",
                          url("examples/sudoku-instances.hh"), sha(GECODE), sha(GECODE_9X9),
                          Conversion("gecode", side=9))
GECODE_16_ENTRY = dataclasses.replace(GECODE_ENTRY, name="gecode-16x16", file="16x16/gecode-16x16.txt", puzzles=1,
                                      sha256=sha(GECODE_16X16), conversion=Conversion("gecode", side=16))
SMALL = (PLAIN_ENTRY, TOP_ENTRY, SAMPLE_ENTRY, RATED_ENTRY, GECODE_ENTRY, GECODE_16_ENTRY)
UPSTREAM_FILES = {"plain.txt": PLAIN.encode(), "data.zip": TDOKU_ZIP, "diabolical.txt": EXCHANGE.encode(),
                  "examples/sudoku-instances.hh": GECODE.encode()}
CONVERTED = {"plain": PLAIN, "top": TDOKU_TOP_CONVERTED, "sample": TDOKU_SAMPLE_CONVERTED, "rated": EXCHANGE_CONVERTED,
             "gecode-9x9": GECODE_9X9, "gecode-16x16": GECODE_16X16}


class Mirror:
    """A local HTTP server serving a folder in raw.githubusercontent.com's layout; it counts the requests."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.requests: list[str] = []
        mirror = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, directory=str(root), **kwargs)

            def do_GET(self) -> None:
                mirror.requests.append(self.path)
                super().do_GET()

            def log_message(self, *args: object) -> None:  # quiet
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def serve(self, path: str, content: bytes) -> None:
        target = self.root / "owner" / "repository" / COMMIT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[Mirror]:
    served = Mirror(tmp_path / "served")
    for path, content in UPSTREAM_FILES.items():
        served.serve(path, content)
    yield served
    served.close()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$SUDOKU_DATA set to an empty folder: what is read, and where fetch writes."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(data.ENVIRONMENT, str(folder))
    monkeypatch.delenv(data.MIRROR, raising=False)
    return folder


def left_in(folder: Path) -> list[str]:
    """Every file under the folder, as relative paths (temporary ones included)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def closed_port() -> int:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing answers there
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the conversions, without a server ------------------------------------------------------------------------

def test_gecode_array_becomes_named_lines_by_side(tmp_path: Path) -> None:
    source = tmp_path / "sudoku-instances.hh"
    source.write_text(GECODE)
    assert Conversion("gecode", side=9).apply(source).decode() == GECODE_9X9
    assert Conversion("gecode", side=16).apply(source).decode() == GECODE_16X16
    with pytest.raises(data.DataError, match="no 25x25 puzzle"):
        Conversion("gecode", side=25).apply(source)
    source.write_text('const char* examples[] = {\n "123",\n};\n')
    with pytest.raises(data.DataError, match="entry 0 has 3 cells"):
        Conversion("gecode", side=9).apply(source)


def test_exchange_lines_become_csv(tmp_path: Path) -> None:
    source = tmp_path / "diabolical.txt"
    source.write_text(EXCHANGE)
    assert Conversion("rated csv").apply(source).decode() == EXCHANGE_CONVERTED
    source.write_text(f"{SEED000} 7.2\n")
    with pytest.raises(data.DataError, match="line 1: 2 fields"):
        Conversion("rated csv").apply(source)


def test_zip_member_found_in_its_folder_with_lf_line_ends(tmp_path: Path) -> None:
    archive = tmp_path / "data.zip"
    archive.write_bytes(TDOKU_ZIP)
    assert Conversion("zip member", member="puzzles3_magictour_top1465").apply(archive).decode() == TDOKU_TOP_CONVERTED
    assert Conversion("zip member", member="puzzles1_unbiased", first=2).apply(archive).decode() == \
        TDOKU_SAMPLE_CONVERTED
    with pytest.raises(data.DataError, match="holds 3 puzzles, fewer than 4"):
        Conversion("zip member", member="puzzles1_unbiased", first=4).apply(archive)
    with pytest.raises(data.DataError, match="holds 0 files named puzzles2_17_clue"):
        Conversion("zip member", member="puzzles2_17_clue").apply(archive)
    archive.write_text("not a zip")
    with pytest.raises(data.DataError, match="not a readable zip archive"):
        Conversion("zip member", member="puzzles1_unbiased").apply(archive)


def test_git_blob_id_is_gits(tmp_path: Path) -> None:
    empty, hello = tmp_path / "empty", tmp_path / "hello"
    empty.write_bytes(b"")
    hello.write_bytes(b"hello\n")
    # the ids `git hash-object` gives these two contents
    assert data.git_blob_id(empty) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    assert data.git_blob_id(hello) == "ce013625030ba8dba906f756967f9e9ca394464a"


# -- fetching from the local server ---------------------------------------------------------------------------

def test_fetch_downloads_converts_checks_and_keeps(mirror: Mirror, cache: Path) -> None:
    done = list(data.fetch(SMALL, mirror=mirror.url))
    assert [(f.entry.name, f.downloaded) for f in done] == [(e.name, True) for e in SMALL]
    for fetched in done:
        assert fetched.path == cache / fetched.entry.file
        assert fetched.path.read_text() == CONVERTED[fetched.entry.name]
    # one download for the collections that share an upstream file
    assert sorted(mirror.requests) == sorted(f"/owner/repository/{COMMIT}/{p}" for p in UPSTREAM_FILES)
    again = list(data.fetch(SMALL, mirror=mirror.url))
    assert [f.downloaded for f in again] == [False] * len(SMALL)
    assert len(mirror.requests) == len(UPSTREAM_FILES)  # nothing downloaded the second time
    assert not [name for name in left_in(cache) if name.endswith(".part")]


def test_fetch_replaces_a_file_that_is_not_the_pinned_one(mirror: Mirror, cache: Path) -> None:
    target = cache / PLAIN_ENTRY.file
    target.parent.mkdir(parents=True)
    target.write_text(f"{SEED000}\n")  # cut short
    [fetched] = data.fetch([PLAIN_ENTRY], mirror=mirror.url)
    assert fetched.downloaded and target.read_text() == PLAIN


def test_a_download_that_is_not_the_pinned_file_is_not_kept(mirror: Mirror, cache: Path) -> None:
    mirror.serve("plain.txt", f"{SEED000}\n".encode())  # upstream changed under the pinned hash
    with pytest.raises(FetchError) as failed:
        list(data.fetch([PLAIN_ENTRY], mirror=mirror.url))
    message = str(failed.value)
    assert message.startswith(f"plain: {mirror.url}/owner/repository/{COMMIT}/plain.txt is not the pinned file")
    assert f"expected {sha(PLAIN)}" in message and "\n" not in message
    assert left_in(cache) == []


def test_a_download_with_another_git_blob_is_not_kept(mirror: Mirror, cache: Path) -> None:
    mirror.serve("data.zip", zipped({"data/puzzles3_magictour_top1465": TDOKU_TOP_CONVERTED}))
    with pytest.raises(FetchError, match=f"is not the pinned file \\(git blob [0-9a-f]{{40}}, expected "
                                         f"{git_blob(TDOKU_ZIP)}\\); nothing was kept"):
        list(data.fetch([TOP_ENTRY], mirror=mirror.url))
    assert left_in(cache) == []


def test_a_conversion_that_differs_from_the_pinned_file_is_not_kept(mirror: Mirror, cache: Path) -> None:
    wrong = dataclasses.replace(RATED_ENTRY, sha256=sha("something else"))
    with pytest.raises(FetchError, match=f"rated: the converted file's SHA-256 is {sha(EXCHANGE_CONVERTED)}, not the "
                                         f"pinned {sha('something else')}; nothing was kept"):
        list(data.fetch([wrong], mirror=mirror.url))
    assert left_in(cache) == []  # the download went too: a second try downloads again
    unreadable = dataclasses.replace(TOP_ENTRY, upstream_blob=None, conversion=Conversion("rated csv"))
    with pytest.raises(FetchError, match="could not be converted"):
        list(data.fetch([unreadable], mirror=mirror.url))
    assert left_in(cache) == []


def test_fetch_stops_at_the_first_failure_keeping_what_came_before(mirror: Mirror, cache: Path) -> None:
    missing = dataclasses.replace(RATED_ENTRY, name="gone", url=url("gone.txt"))
    fetched = []
    with pytest.raises(FetchError, match=r"^gone: cannot download .*/gone.txt: the server answered 404 "):
        fetched.extend(data.fetch([PLAIN_ENTRY, missing, GECODE_ENTRY], mirror=mirror.url))
    assert [f.entry.name for f in fetched] == ["plain"]
    assert left_in(cache) == ["9x9/plain.txt", "downloads/owner-repository-plain.txt"]


def test_a_server_that_does_not_answer_is_a_clear_error(cache: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(FetchError) as failed:
        list(data.fetch([PLAIN_ENTRY], mirror=base))
    assert re.fullmatch(f"plain: cannot download {base}/owner/repository/{COMMIT}/plain.txt: no connection "
                        r"\(.*Connection refused\): offline\?", str(failed.value))
    assert left_in(cache) == []


def test_the_progress_bar_is_driven_as_pooch_drives_tqdm(mirror: Mirror, cache: Path) -> None:
    calls: list[tuple[str, int | None]] = []

    class Bar:
        def __init__(self, entry: Collection) -> None:
            calls.append(("made", None))

        @property
        def total(self) -> None:
            return None

        @total.setter
        def total(self, size: int) -> None:
            calls.append(("total", size))

        def update(self, size: int) -> None:
            calls.append(("update", size))

        def reset(self) -> None:
            calls.append(("reset", None))

        def close(self) -> None:
            calls.append(("close", None))

    list(data.fetch([RATED_ENTRY], mirror=mirror.url, progress=Bar))
    size = len(EXCHANGE.encode())
    assert calls[:2] == [("made", None), ("total", size)] and calls[-3:] == [("reset", None), ("update", size),
                                                                              ("close", None)]
    bar = command.DownloadBar("rated", Console(file=io.StringIO()))  # not a terminal: drawn nowhere
    bar.total = 10
    bar.update(4)
    assert bar.progress.tasks[0].completed == 4 and bar.total == 10
    bar.reset()
    bar.update(10)
    bar.close()
    assert bar.progress.tasks[0].finished


# -- the command line ------------------------------------------------------------------------------------------

def test_command_fetches_and_lists(mirror: Mirror, cache: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(data.MIRROR, mirror.url)
    assert command.main(["fetch", "plain", "rated", "plain"], catalogue=SMALL) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"plain: 2 puzzles in {cache / '9x9/plain.txt'} (downloaded, converted and checked)",
                                f"rated: 2 puzzles in {cache / '9x9/rated.csv'} (downloaded, converted and checked)"]
    assert err == ""
    assert command.main(["list"], catalogue=SMALL) == 0
    out, _ = capsys.readouterr()
    here = {line.split("│")[1].strip(): line.split("│")[-2].strip() for line in out.splitlines() if "│" in line
            and line.split("│")[1].strip()}
    assert here == {"plain": str(cache), "top": "no", "sample": "no", "rated": str(cache), "gecode-9x9": "no",
                    "gecode-16x16": "no"}
    assert f"4 collections not here: sudoku-data fetch NAME or sudoku-data fetch --all downloads them into " \
           f"{cache}" in out
    assert command.main(["fetch", "--all"], catalogue=SMALL) == 0
    out, _ = capsys.readouterr()
    assert len(out.splitlines()) == len(SMALL) and out.count("already here, checked") == 2


def test_command_exit_statuses(mirror: Mirror, cache: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert command.main(["fetch", "top96"]) == 2
    assert capsys.readouterr().err == ("sudoku-data: error: unknown collection 'top96'; the collections: "
                                       f"{', '.join(data.NAMES)}\n")
    assert command.main(["fetch"]) == 2
    assert capsys.readouterr().err == "sudoku-data: error: name the collections to fetch, or --all\n"
    assert command.main(["fetch", "top95", "--all"]) == 2
    assert command.main(["frobnicate"]) == 2
    capsys.readouterr()
    monkeypatch.setenv(data.MIRROR, f"http://127.0.0.1:{closed_port()}")
    assert command.main(["fetch", "--all"], catalogue=SMALL) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("sudoku-data: error: plain: cannot download ")
    assert left_in(cache) == []
    monkeypatch.setenv(data.MIRROR, mirror.url)
    mirror.serve("plain.txt", b"changed upstream\n")
    assert command.main(["fetch", "plain"], catalogue=SMALL) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "is not the pinned file" in err and left_in(cache) == []


def test_the_console_script_runs(cache: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "commands.data", "fetch", "nothing"], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and "unknown collection 'nothing'" in done.stderr and "Traceback" not in done.stderr


# -- where the collections are found --------------------------------------------------------------------------

def test_the_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    beside, caches, own = tmp_path / "shared" / "data", tmp_path / "xdg", tmp_path / "own"
    monkeypatch.setattr(data, "BESIDE", beside)
    monkeypatch.setattr(data.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(caches))
    monkeypatch.delenv(data.ENVIRONMENT, raising=False)
    user = caches / "sudoku-search"
    assert data.folders() == [user] and data.data_folder() == user  # no ../shared/data: the cache alone
    with pytest.raises(data.MissingCollection) as missing:
        data.locate("top95")
    assert str(missing.value) == (f"the collection top95 (9x9/top95.txt) is not in {user}: `sudoku-data fetch top95` "
                                  "downloads it")
    for folder in (beside, user):
        (folder / "9x9").mkdir(parents=True)
        (folder / "9x9" / "top95.txt").write_text(PLAIN)
    (user / "9x9" / "hardest.txt").write_text(PLAIN)
    assert data.folders() == [beside, user] and data.data_folder() == user  # fetch writes to the cache still
    assert data.locate("top95") == beside / "9x9" / "top95.txt"  # ../shared/data first
    assert data.locate("hardest") == user / "9x9" / "hardest.txt"  # then the cache
    monkeypatch.setenv(data.ENVIRONMENT, str(own))
    assert data.folders() == [own] and data.data_folder() == own  # $SUDOKU_DATA alone
    with pytest.raises(data.MissingCollection, match=f"is not in {own}: `sudoku-data fetch hardest`"):
        data.locate("hardest")
    with pytest.raises(data.UnknownCollection, match="unknown collection 'top96'"):
        data.locate("top96")


def test_compare_takes_a_collections_name(cache: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert compare.main(["top95", "--solver", "mrv", "--jobs", "1"]) == 2
    assert capsys.readouterr().err == (f"compare.py: error: the collection top95 (9x9/top95.txt) is not in {cache}: "
                                       "`sudoku-data fetch top95` downloads it\n")
    (cache / "9x9").mkdir(parents=True)
    (cache / "9x9" / "top95.txt").write_text(f"{SEED000} a\n{SEED001} b\n")
    assert compare.main(["top95", "--solver", "mrv", "--jobs", "1"]) == 0
    assert f"{cache / '9x9' / 'top95.txt'}: 2 puzzles x 1 method" in capsys.readouterr().out
    monkeypatch.chdir(cache / "9x9")
    (cache / "9x9" / "top95").write_text(f"{SEED000}\n")  # a file of that name, here, comes first
    assert data.resolve("top95") == "top95" and data.resolve("top96") == "top96" and data.resolve("-") == "-"


# -- the catalogue --------------------------------------------------------------------------------------------

def test_the_catalogue_pins_every_collection() -> None:
    names = [entry.name for entry in data.CATALOGUE]
    assert len(set(names)) == len(names) == 15
    by_download: dict[str, set[str]] = {}
    for entry in data.CATALOGUE:
        assert entry.name == Path(entry.file).stem
        assert re.fullmatch(r"https://raw\.githubusercontent\.com/[\w.-]+/[\w.-]+/[0-9a-f]{40}/.+", entry.url)
        assert re.fullmatch("[0-9a-f]{64}", entry.sha256)
        # each upstream file pinned by one hash or the other
        assert (entry.upstream_sha256 is None) != (entry.upstream_blob is None), entry.name
        by_download.setdefault(entry.download_name(), set()).add(entry.url)
    assert all(len(urls) == 1 for urls in by_download.values())  # one name, one upstream file
    assert len(by_download) == 8


def test_the_catalogue_hashes_are_the_studys_files() -> None:
    """The converted SHA-256 of each collection is that of the file the study read, where it is here."""
    found = {entry.name: path for entry in data.CATALOGUE if (path := data.BESIDE / entry.file).is_file()}
    if not found:
        pytest.skip(f"{data.BESIDE} is not beside the project")
    assert {name: sha(path.read_bytes()) for name, path in found.items()} == \
        {entry.name: entry.sha256 for entry in data.CATALOGUE if entry.name in found}


def test_the_collection_fixture_skips_naming_the_command(collection: Callable[[str], Path], cache: Path) -> None:
    with pytest.raises(pytest.skip.Exception, match=r"`sudoku-data fetch top1465` downloads it"):
        collection("top1465")
    (cache / "9x9").mkdir(parents=True)
    (cache / "9x9" / "top1465.txt").write_text(PLAIN)
    assert collection("top1465") == cache / "9x9" / "top1465.txt"


# -- real variant puzzles: SudokuVariantSolverJS's records, with their setters' solutions -------------------------

def made_record(title: str, author: str, puzzle: dict[str, object], solution: str) -> dict[str, object]:
    """A record as SudokuVariantSolverJS keeps one: the f-puzzles object as f-puzzles' own link payload."""
    return {"title": title, "author": author, "puzzle": fpuzzles.lz_string().compress_to_base64(json.dumps(puzzle)),
            "solution": solution, "comments": ""}


def test_fpuzzles_records_become_json_lines(tmp_path: Path) -> None:
    seed = fpuzzles.object_of(Grid.parse(SEED000))  # no title, no author, no solution of its own
    own = {"size": 4, "title": "its own title", "grid": [[{}] * 4] * 4, "arrow": [{"cells": ["R1C1"]}],
           "solution": ["1", "2", "3", "4"] * 4}  # its own solution, its numbers as strings, the record's
    records = [made_record("Seed 000", "a setter", seed, "1" * 81), {},
               made_record("Fraπ's", "Fraπ", own, "1234" * 4), {}]
    source = tmp_path / "puzzles.json"
    source.write_text(json.dumps(records, indent=4))
    lines = Conversion("fpuzzles records").apply(source).decode().splitlines()
    # every puzzle kept (the empty records are none), whatever its rules, its fields as they were but the record's
    assert [json.loads(line) for line in lines] == [
        {**seed, "title": "Seed 000", "author": "a setter", "solution": [1] * 81},
        {**own, "title": "Fraπ's", "author": "Fraπ", "solution": [1, 2, 3, 4] * 4}]
    assert "Fraπ" in lines[1]  # UTF-8, as the reader reads it


@pytest.mark.parametrize(("text", "message"), [
    ("[{", "not JSON (Expecting property name enclosed in double quotes at line 1, column 3)"),
    ('{"title": "x"}', "not a JSON array of puzzle records"),
    ("[{}]", "no puzzle in the array"),
    ('[{"title": "x", "author": "y", "puzzle": "z"}]', "record 0: not an object with the strings `title`, `author`, "
                                                       "`puzzle` and `solution`"),
    ('[{}, {"title": "x", "author": "y", "puzzle": "not a payload", "solution": "1"}]',
     "record 1 (x): its `puzzle` is not an f-puzzles payload"),
])
def test_fpuzzles_records_that_are_not_the_form_are_refused(tmp_path: Path, text: str, message: str) -> None:
    source = tmp_path / "puzzles.json"
    source.write_text(text)
    with pytest.raises(data.DataError) as refused:
        Conversion("fpuzzles records").apply(source)
    assert str(refused.value) == message


def test_a_record_whose_solution_does_not_fit_its_puzzle_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "puzzles.json"
    four = {"size": 4, "grid": [[{}] * 4] * 4}
    for solution, own, message in [
            ("123", None, "record 0 (x): its solution is not one digit for each cell"),
            ("12 4" * 4, None, "record 0 (x): its solution is not one digit for each cell"),
            ("123\u00b2" * 4, None, "record 0 (x): its solution is not one digit for each cell"),  # ² is no digit
            ("1234" * 4, [1, 2, 4, 3] * 4, "record 0 (x): its payload carries another solution than the record")]:
        puzzle = four if own is None else {**four, "solution": own}
        source.write_text(json.dumps([made_record("x", "y", puzzle, solution)]))
        with pytest.raises(data.DataError, match=re.escape(message)):
            Conversion("fpuzzles records").apply(source)


def test_records_without_py_lzstring_are_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise fpuzzles.FPuzzlesError("reading an f-puzzles link needs the py-lzstring package, which is not installed")

    monkeypatch.setattr(fpuzzles, "lz_string", missing)
    source = tmp_path / "puzzles.json"
    source.write_text(variant_solver_js.upstream())
    with pytest.raises(data.DataError, match=r"needs the py-lzstring package, which is not installed$"):
        Conversion("fpuzzles records").apply(source)


# the converted fixture's SHA-256, pinned as the catalogue pins its collections' (the same conversion and bytes)
VARIANTS_CONVERTED = "e6d08ecdb4b5dd7c17edc6059a3cf63a6936c294cb5b62cd99afdb95aeca7e0d"
VARIANTS_ENTRY = Collection("variants", "variants/variants.jsonl", len(variant_solver_js.RECORDS), "real variants",
                            "a test", "CC BY 4.0", url("puzzles/puzzles.json"), sha(variant_solver_js.upstream()),
                            VARIANTS_CONVERTED, Conversion("fpuzzles records"))


def test_real_variant_puzzles_fetch_and_run(mirror: Mirror, cache: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """SudokuVariantSolverJS's records (a few real ones) fetched, converted, read and solved: every method's answer
    is the setter's solution (every rule of these is read: the catalogue's puzzles with rules still unread are bad
    entries naming them, tests/test_fpuzzles.py)."""
    mirror.serve("puzzles/puzzles.json", variant_solver_js.upstream().encode())
    monkeypatch.setenv(data.MIRROR, mirror.url)
    assert command.main(["fetch", "variants"], catalogue=[VARIANTS_ENTRY]) == 0
    path = cache / VARIANTS_ENTRY.file
    assert capsys.readouterr().out == f"variants: 4 puzzles in {path} (downloaded, converted and checked)\n"
    objects = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    setters = {title: solution for title, _, _, solution in variant_solver_js.RECORDS}
    assert [(o["title"], o["author"]) for o in objects] == [(t, a) for t, a, _, _ in variant_solver_js.RECORDS]
    assert ["".join(map(str, o["solution"])) for o in objects] == list(setters.values())

    records = list(read_puzzles(path))
    read = [r for r in records if isinstance(r, Entry)]
    refused = {r.line: r.reason for r in records if isinstance(r, BadEntry)}
    assert [r.name for r in read] == ["Anti-knight minimal givens 2", "Random Neighing Generation", "Anti-XV Coverage",
                                      "Sistine Hippos"]
    for entry in read:  # the setter's solution, read cell by cell, fits the puzzle by the brute force's rules
        # (its houses and its constraints, stated from their definitions)
        assert entry.solution is not None and "".join(map(str, entry.solution.values)) == setters[entry.name]
        lay, values = entry.grid.layout, entry.solution.values
        assert valid_solution(lay, values) and not any(breaks(lay, values, cell) for cell in range(81))
        assert all(g in (0, s) for g, s in zip(entry.grid.values, entry.solution.values, strict=True))
    assert refused == {}  # every rule of these four is read (the arrows of the fourth among them)

    out = tmp_path / "records.jsonl"
    assert compare.main([str(path), "--solver", "mrv", "--solver", "cpsat", "--jobs", "1", "--nodes", "5000",
                         "--output", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    solved = [(r["name"], r["method"], r["solution"]) for r in rows if r["status"] == "solved"]
    # CP-SAT settles each puzzle read; MRV settles it or gives up within its nodes (the negative rule's puzzle and the
    # arrows' take it more): what either answers is the setter's grid
    assert sorted(name for name, method, _ in solved if method == "cpsat") == sorted(entry.name for entry in read)
    assert {r["status"] for r in rows if r["method"] == "mrv"} <= {"solved", "gave_up"}
    assert all(solution == setters[name] for name, _, solution in solved)
    assert not [r for r in rows if r["status"] == "bad_entry"]
