"""Puzzle files: the three formats, bad entries with their line numbers, the shared collections."""
from __future__ import annotations

import io
import itertools
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from fixtures import SEED000
from hostile import AMBIGUOUS_AS_LINES, AMBIGUOUS_NOTE, EXPECTED, Expected, make_hostile_files

from commands.check import main as check_main
from puzzles import BadEntry, Detection, Entry, Grid, PuzzleFileError, detect, read_puzzles, read_text
from puzzles.data import CATALOGUE

ROOT = Path(__file__).resolve().parents[1]
SOLVED000 = "348792651192645837657183294479831562213456789586279413861324975934567128725918346"


def split(records):
    records = list(records)
    return [r for r in records if isinstance(r, Entry)], [r for r in records if isinstance(r, BadEntry)]


def test_line_format_with_every_kind_of_bad_line():
    text = "\n".join(
        [
            "# a comment",
            f"{SEED000} homework puzzle",  # line 2: good, named
            "",
            "12345",  # line 4: wrong length
            SEED000[:-1] + "x",  # line 5: unknown symbol
            "7" + SEED000[1:],  # line 6: two 7s in row 1
            "3..1...2.3..2...",  # line 7: good 4x4
            SEED000.replace("0", "_"),  # line 8: good, other blank
        ]
    )
    good, bad = split(read_text(text, "mixed.txt"))
    assert [(e.line, e.name, e.grid.side) for e in good] == [(2, "homework puzzle", 9), (7, "", 4), (8, "", 9)]
    assert [str(b) for b in bad] == [
        "mixed.txt:4: 5 symbols: a puzzle has 16, 81, 256 or 625 (4x4, 9x9, 16x16, 25x25)",
        "mixed.txt:5: unknown symbol 'x' at position 81 (a 9x9 puzzle uses 1-9 and blanks . 0 _)",
        "mixed.txt:6: invalid puzzle: two 7s in row 1",
    ]


def grid_block(line: str, side: int = 9, box: int = 3) -> list[str]:
    rows = [line[r * side : (r + 1) * side] for r in range(side)]
    out = []
    for r, row in enumerate(rows):
        if r and r % box == 0:
            out.append("------+-------+------")
        out.append(" | ".join(" ".join(row[c : c + box]) for c in range(0, side, box)))
    return out


def test_grid_format_blocks_and_bad_blocks():
    text = "\n".join([
        "# grids",
        *grid_block(SEED000),  # line 2..12
        "",
        *grid_block(SEED000)[:-1],  # line 14: a row short
        "",
        *grid_block(SOLVED000),  # line 25
    ])
    assert detect(text.splitlines()).format == "grid"
    good, bad = split(read_text(text, "g.txt"))
    assert [(e.line, e.grid.line()) for e in good] == [(2, SEED000.replace("0", ".")), (25, SOLVED000)]
    assert [str(b) for b in bad] == ["g.txt:14: a 9x9 grid has 9 rows, this block has 8"]


def test_grid_format_16x16_is_told_from_a_4x4_line_file():
    block = "\n".join("." * 16 for _ in range(16))
    assert detect(block.splitlines()).format == "grid"
    notes = []
    [entry] = read_text(block, "b.txt", on_note=notes.append)
    assert entry.grid.side == 16 and notes == [AMBIGUOUS_NOTE.replace("FILE", "b.txt")]
    assert len(list(read_text(block, fmt="line"))) == 16
    four_by_four = "\n".join(["3..1...2.3..2..."] * 3)
    assert detect(four_by_four.splitlines()).format == "line"


def test_csv_with_solution_metadata_and_bad_rows():
    text = "\n".join(
        [
            "quizzes,solutions,rating",
            f"{SEED000},{SOLVED000},1.5",  # line 2
            f",{SOLVED000},2",  # line 3: no puzzle
            f"{SEED000},12,3",  # line 4: bad solution
            f"{SEED000[:-1]}9,,4",  # line 5: duplicate 9 in row 9? the row has 9 . 8 -> two 9s
        ]
    )
    good, bad = split(read_text(text, "p.csv"))
    assert len(good) == 1 and good[0].solution.line() == SOLVED000 and good[0].meta == {"rating": "1.5"}
    assert good[0].grid.is_solved_by(good[0].solution)
    assert [str(b) for b in bad] == [
        "p.csv:3: no puzzle in column 'quizzes'",
        "p.csv:4: solution: 2 symbols: a puzzle has 16, 81, 256 or 625 (4x4, 9x9, 16x16, 25x25)",
        "p.csv:5: invalid puzzle: two 9s in row 9",
    ]


def test_unreadable_files_are_one_clear_error(tmp_path):
    with pytest.raises(PuzzleFileError, match="no such file"):
        list(read_puzzles(tmp_path / "missing.txt"))
    with pytest.raises(PuzzleFileError, match="is a folder"):
        list(read_puzzles(tmp_path))


def test_seeds_file():
    good, bad = split(read_puzzles(ROOT / "puzzles" / "seeds.txt"))
    names = {e.name: e.grid for e in good}
    assert names["seed000-homework"].line() == SEED000.replace("0", ".")
    assert {g.side for g in names.values()} == {4, 9, 16, 25}
    assert [b.reason for b in bad] == ["invalid puzzle: two 7s in row 1"]


def run_check(*args):
    return subprocess.run([sys.executable, "-m", "commands.check", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.slow
def test_check_command_reports_bad_lines_and_counts(tmp_path):
    f = tmp_path / "mixed.txt"
    f.write_text(f"{SEED000}\nnot a puzzle\n3..1...2.3..2...\n{'7' + SEED000[1:]}\n")
    result = run_check(str(f))
    assert result.returncode == 1
    assert f"{f}:2: 3 symbols" in result.stdout
    assert f"{f}:4: invalid puzzle: two 7s in row 1" in result.stdout
    assert "2 puzzles, 2 bad entries" in result.stdout
    assert "4x4: 1 puzzle, givens min 5 / median 5 / max 5" in result.stdout
    clean = tmp_path / "clean.txt"
    clean.write_text(SEED000 + "\n")
    assert run_check(str(clean)).returncode == 0
    missing = run_check(str(tmp_path / "nope.txt"))
    assert missing.returncode == 2 and "nope.txt: no such file" in missing.stderr and "Traceback" not in missing.stderr


# The public collections: every one, with the count docs/reference/data.md gives.
COLLECTIONS = [
    ("easy50", "9x9/easy50.txt", 50, 9),
    ("top95", "9x9/top95.txt", 95, 9),
    ("hardest", "9x9/hardest.txt", 11, 9),
    ("top1465", "9x9/top1465.txt", 1465, 9),
    ("17-clue", "9x9/17-clue.txt", 49158, 9),
    ("forum-hardest-1106", "9x9/forum-hardest-1106.txt", 375, 9),
    ("forum-hardest-1905-11plus", "9x9/forum-hardest-1905-11plus.txt", 48766, 9),
    ("unbiased-1000", "9x9/unbiased-1000.txt", 1000, 9),
    ("serg-multi-solution", "9x9/serg-multi-solution.txt", 10000, 9),
    ("diabolical-rated", "9x9/diabolical-rated.csv", 39719, 9),
    ("gecode-9x9", "9x9/gecode-9x9.txt", 18, 9),
    ("gecode-16x16", "16x16/gecode-16x16.txt", 55, 16),
    ("gecode-25x25", "25x25/gecode-25x25.txt", 18, 25),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,file,count,side", COLLECTIONS, ids=[c[0] for c in COLLECTIONS])
def test_public_collections_are_read_whole(collection, name, file, count, side):
    good, bad = 0, []
    sides = set()
    for record in read_puzzles(collection(name)):
        if isinstance(record, BadEntry):
            bad.append(str(record))
        else:
            good += 1
            sides.add(record.grid.side)
    assert (good, bad, sides) == (count, [], {side})


# Real variant puzzles: every puzzle a record, read or refused naming the rule the project does not read yet
VARIANTS = [
    ("variant-solver-js", "variants/variant-solver-js.jsonl", 85, {6, 9}),
    ("lubaf-coloring-book", "variants/lubaf-coloring-book.jsonl", 16, {9}),
]
REFUSED_RULE = re.compile(r"f-puzzles field '[\w+-]+' \((a constraint|a cosmetic element, [^)]*)\): not read by this "
                          "project, and a solver that ignored it would solve a different puzzle")


@pytest.mark.parametrize("name,file,count,sides", VARIANTS, ids=[c[0] for c in VARIANTS])
def test_variant_collections_are_read_or_refused_by_rule(collection, name, file, count, sides):
    records = list(read_puzzles(collection(name)))
    read = [r for r in records if not isinstance(r, BadEntry)]
    assert [r.line for r in records] == list(range(1, count + 1))  # one puzzle a line, none lost
    assert [str(r) for r in records if isinstance(r, BadEntry) and not REFUSED_RULE.search(r.reason)] == []
    assert {r.grid.side for r in read} <= sides and read and all(r.solution is not None and r.name for r in read)


def test_the_catalogue_is_the_documented_list():
    assert [(c.name, c.file, c.puzzles) for c in CATALOGUE] == [c[:3] for c in COLLECTIONS + VARIANTS]


def test_ratings_are_kept(collection):
    first = next(iter(read_puzzles(collection("diabolical-rated"))))
    assert first.line == 2 and first.meta == {"rating": "7.2", "id": "00015097c6c3"} and first.name == "00015097c6c3"


@pytest.mark.slow
def test_reading_streams_in_flat_memory(collection):
    path = collection("17-clue")
    tracemalloc.start()
    count = sum(1 for _ in read_puzzles(path))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 49158
    assert peak < 2_000_000  # the whole file as Grids would be ~10 MB


# Hostile files: every one read from a path and from standard input gives the same records.
HOSTILE = sorted(EXPECTED)
WRITTEN_SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, Path]:
    return make_hostile_files(tmp_path_factory.mktemp("hostile"))


def values_written(text: str) -> list[int]:
    """The cell values of a puzzle text as written: 1-9, A-P for 10-25, anything else blank."""
    return [WRITTEN_SYMBOLS.find(ch.upper()) + 1 for ch in text]


def outcome(read, source: str) -> Expected:
    """What a read yields, in EXPECTED's terms (FILE for the source's name), grids checked cell by cell."""
    notes: list[str] = []
    try:
        records = list(read(notes.append))
    except PuzzleFileError as exc:
        return Expected(error=str(exc).replace(source, "FILE"), note=notes[0] if notes else None)
    good, bad = split(records)
    assert {r.file for r in records} <= {source}
    assert len(notes) <= 1
    entries = []
    for entry in good:
        text = entry.grid.line()
        assert list(entry.grid.values) == values_written(text)
        entries.append((entry.line, text, entry.name))
    note = notes[0].replace(source, "FILE") if notes else None
    return Expected(tuple(entries), tuple((b.line, b.reason) for b in bad), None, note)


def from_stdin(monkeypatch, data: bytes, fmt: str | None = None) -> Expected:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    return outcome(lambda note: read_puzzles("-", fmt, on_note=note), "<stdin>")


def as_written(expected: Expected) -> Expected:
    """EXPECTED with every puzzle in Grid.line() form (the files write blanks as 0 or .)."""
    return Expected(
        tuple((line, Grid.parse(text).line(), name) for line, text, name in expected.entries),
        expected.bad, expected.error, expected.note,
    )


@pytest.mark.parametrize("key", HOSTILE)
def test_hostile_file_from_a_path_and_from_stdin(hostile, monkeypatch, key):
    path = hostile[key]
    from_path = outcome(lambda note: read_puzzles(path, on_note=note), str(path))
    assert from_path == as_written(EXPECTED[key])
    assert from_stdin(monkeypatch, path.read_bytes()) == from_path


def test_hostile_puzzles_are_the_written_ones_cell_by_cell(hostile):
    """The expectations themselves: each puzzle text is what the file holds, cell by cell."""
    [entry] = read_puzzles(hostile["grid_16x16"])
    rows = [line for line in hostile["grid_16x16"].read_text().splitlines() if not line.startswith("#")]
    assert [entry.grid.values[r * 16 : r * 16 + 16] for r in range(16)] == [bytes(values_written(r)) for r in rows]
    [first, *_] = read_puzzles(hostile["utf16_le"])
    assert list(first.grid.values) == [int(ch) for ch in SEED000]


def test_ambiguous_layout_is_noted_and_can_be_read_the_other_way(hostile, monkeypatch):
    text = hostile["ambiguous_16"].read_text()
    assert detect(text.splitlines()) == Detection("grid", AMBIGUOUS_NOTE.removeprefix("FILE: "))
    as_lines = outcome(lambda note: read_puzzles(hostile["ambiguous_16"], "line", on_note=note),
                       str(hostile["ambiguous_16"]))
    assert as_lines == AMBIGUOUS_AS_LINES
    assert from_stdin(monkeypatch, hostile["ambiguous_16"].read_bytes(), "line") == AMBIGUOUS_AS_LINES
    assert detect(hostile["grid_16x16"].read_text().splitlines()) == Detection("grid")


def test_quoted_csv_keeps_solutions_and_metadata(hostile):
    first, second, third = read_puzzles(hostile["quoted_csv"])
    assert first.solution.line() == SOLVED000 and first.grid.is_solved_by(first.solution)
    assert first.meta == {"name": "Smith, J."} and second.solution is None and third.meta == {"name": "plain"}


def test_csv_is_told_by_its_first_line_as_the_csv_module_reads_it():
    assert detect(['"puzzle"\n']).format == "csv"
    assert detect([" Puzzle , rating \n"]).format == "csv"
    assert detect([f"{SEED000} a name, with a comma\n"]).format == "line"
    assert detect(["# comments first\n", "\n", "id,quizzes\n"]).format == "csv"
    with pytest.raises(PuzzleFileError, match=r"^x.csv:1: the CSV header names no puzzle column .*: "
                                              rf"{SEED000}, {SOLVED000}$"):
        read_text(f"{SEED000},{SOLVED000}\n", "x.csv")


def test_a_long_preamble_does_not_hide_a_grid_file():
    text = "\n".join(["# a comment"] * 100 + grid_block(SEED000))
    [entry] = read_text(text)
    assert entry.line == 101 and entry.grid.line() == SEED000.replace("0", ".")


def test_a_bom_in_text_is_no_symbol_either():
    [entry] = read_text(f"\ufeff{SEED000} named\r")
    assert (entry.line, entry.name, entry.grid.line()) == (1, "named", SEED000.replace("0", "."))


def test_undecodable_bytes_past_the_head_stop_reading_at_their_line(tmp_path):
    f = tmp_path / "late.txt"
    f.write_bytes(f"{SEED000}\n".encode() * 40 + b"\xff\n")
    records = read_puzzles(f)
    assert sum(1 for _ in itertools.islice(records, 40)) == 40
    with pytest.raises(PuzzleFileError, match=r"late.txt: not a text file \(line 41, column 1: byte 0xff is not"):
        next(records)


@pytest.mark.slow
@pytest.mark.parametrize("key", HOSTILE)
def test_hostile_file_piped_into_the_check_command(hostile, capsys, key):
    path = hostile[key]
    piped = subprocess.run([sys.executable, "-m", "commands.check", "-"], input=path.read_bytes(),
                           capture_output=True, check=False, cwd=ROOT)
    status = check_main([str(path)])
    out, err = capsys.readouterr()
    assert (piped.returncode, piped.stdout.decode(), piped.stderr.decode()) == (
        status, out.replace(str(path), "<stdin>"), err.replace(str(path), "<stdin>"))
