"""Issue 43's smaller ones about records: a full disk leaves whole puzzles and counts them truly; --resume takes
the same input by another name, no puzzle run twice, none lost; the certifier's claims are counted confirmed and
refuted apart, in the terminal's report, on the page and when --resume replays the records."""
from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fixtures import SEED000, SEED001, SEED001_UNSAT, RefusingWrites
from misbehaving import SOLVERS
from planted import SOLVERS as PLANTED

import compare
from comparison.records import format as records
from formulations import SOLVERS as FORMULATIONS
from puzzles import Grid

METHODS = {"good": SOLVERS["good"], "twin": SOLVERS["good"]}  # two records a puzzle
LINES = [SEED000, SEED001] * 4


def puzzle_file(folder: Path, lines: list[str] = LINES, name: str = "p.txt") -> Path:
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object, methods: dict[str, Any] | None = None
        ) -> tuple[int, str, str]:
    """compare.py in this process, with the methods given (METHODS by default)."""
    code = compare.main([str(a) for a in argv], methods=methods or METHODS)
    out, err = capsys.readouterr()
    return code, out, err


def read(path: Path) -> list[dict[str, Any]]:
    """The records of a file, every line of which must be a whole record."""
    text = path.read_text()
    assert text == "" or text.endswith("\n"), "a record cut off"
    if path.suffix == ".csv":
        return list(csv.DictReader(io.StringIO(text, newline="")))
    return [json.loads(line) for line in text.splitlines()]


def per_puzzle(found: list[dict[str, Any]]) -> Counter[tuple[str, int]]:
    """How many records each (file, line) has."""
    return Counter((record["file"], int(record["line"])) for record in found)


# -- a full disk: the file holds whole puzzles, and the message counts them --------------------------------
class FullDisk(io.FileIO):
    """A file on a disk with `room` bytes left: a write takes what fits (a short write), the next one fails."""

    def __init__(self, path: str, mode: str, room: int) -> None:
        super().__init__(path, mode)
        self.room = room

    def write(self, data: Any) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        taken = super().write(bytes(data)[:self.room])
        self.room -= taken
        return taken


def cramped(monkeypatch: pytest.MonkeyPatch, output: Path, how: str, room: int) -> None:
    """The records writer's `open` of `output` on a disk that fills after `room` bytes."""
    real_open = open

    def cramped_open(file: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file) != str(output) or not set(mode) & set("wa"):  # reading the records back (--resume)
            return real_open(file, mode, *args, **kwargs)
        if how == "refused write":
            return RefusingWrites(real_open(file, mode, *args, **kwargs), room)
        raw = FullDisk(file, mode.replace("t", ""), room)
        return io.TextIOWrapper(io.BufferedWriter(raw), encoding=kwargs.get("encoding"),
                                newline=kwargs.get("newline"))

    monkeypatch.setattr(records, "open", cramped_open, raising=False)


def room_in_third_puzzle(capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> int:
    """Bytes that take the first two puzzles' records, the third's first record and half its second (from a
    run on a disk with room, whose record lengths differ from the cramped run's by a few digits at most)."""
    whole = tmp_path / f"whole.{fmt}"
    code, _, err = run(capsys, puzzle_file(tmp_path), "--jobs", 1, "--no-certify", "--output", whole)
    assert code == 0, err
    lines = whole.read_bytes().splitlines(keepends=True)
    header = 1 if fmt == "csv" else 0
    return sum(len(line) for line in lines[:header + 5]) + len(lines[header + 5]) // 2


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("how", ["disk full in a flush", "refused write"])
def test_a_full_disk_leaves_whole_puzzles_counted_truly_and_resume_goes_on(capsys, tmp_path, monkeypatch, fmt,
                                                                           how):
    room = room_in_third_puzzle(capsys, tmp_path, fmt)
    path, output = puzzle_file(tmp_path), tmp_path / f"r.{fmt}"
    cramped(monkeypatch, output, how, room)
    code, out, err = run(capsys, path, "--jobs", 1, "--no-certify", "--output", output)
    monkeypatch.undo()
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    said = re.search(r"the (\d+) records? written before it (?:is|are) kept", err)
    assert said, err
    kept = read(output)
    assert int(said[1]) == len(kept) == 4  # the third puzzle's first record, written, went with the rest of it
    assert set(per_puzzle(kept).values()) == {2}  # whole puzzles only

    code, out, err = run(capsys, path, "--jobs", 1, "--no-certify", "--output", output, "--resume")
    assert code == 0, err
    assert "2 puzzles kept from" in " ".join(out.split())  # the header, as wide as the console
    found = read(output)
    assert per_puzzle(found) == {(str(path), line): 2 for line in range(1, len(LINES) + 1)}
    assert Counter(record["method"] for record in found) == {"good": len(LINES), "twin": len(LINES)}


def test_a_full_disk_after_resuming_counts_the_records_kept_from_before(capsys, tmp_path, monkeypatch):
    path, output = puzzle_file(tmp_path), tmp_path / "r.jsonl"
    code, _, err = run(capsys, path, "--jobs", 1, "--no-certify", "--output", output)
    assert code == 0, err
    lines = output.read_bytes().splitlines(keepends=True)
    output.write_bytes(b"".join(lines[:6]))  # three puzzles kept, as an interrupted run leaves them
    cramped(monkeypatch, output, "disk full in a flush", len(lines[6]) + len(lines[7]) + len(lines[8]) // 2)
    code, _, err = run(capsys, path, "--jobs", 1, "--no-certify", "--output", output, "--resume")
    monkeypatch.undo()
    assert code == 2
    said = re.search(r"the (\d+) records? written before it (?:is|are) kept", err)
    assert said, err
    kept = read(output)
    assert int(said[1]) == len(kept) == 8 and set(per_puzzle(kept).values()) == {2}


# -- --resume: the same input by another name ------------------------------------------------------------
@pytest.mark.parametrize("first, then", [("absolute", "relative"), ("relative", "absolute"),
                                         ("absolute", "relative, settings without paths")])
def test_resume_takes_the_same_input_by_another_name_and_runs_no_puzzle_twice(capsys, tmp_path, monkeypatch,
                                                                              first, then):
    path, output = puzzle_file(tmp_path), tmp_path / "out" / "r.jsonl"
    output.parent.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def name(how: str) -> str:  # the input as given: its absolute path from elsewhere, or its name from its folder
        monkeypatch.chdir(elsewhere if how == "absolute" else tmp_path)
        return str(path) if how == "absolute" else path.name

    named = name(first)
    code, _, err = run(capsys, named, "--jobs", 1, "--no-certify", "--output", output)
    assert code == 0, err
    lines = output.read_text().splitlines(keepends=True)
    output.write_text("".join(lines[:6]))  # three puzzles kept, as an interrupted run leaves them
    before = read(output)
    if "without paths" in then:  # as an earlier version wrote them: the names alone
        side = Path(f"{output}.settings.json")
        side.write_text(json.dumps({k: v for k, v in json.loads(side.read_text()).items() if k != "paths"}))

    given = name(then.partition(",")[0])
    code, out, err = run(capsys, given, "--jobs", 1, "--no-certify", "--output", output, "--resume")
    assert code == 0, err
    assert "3 puzzles kept from" in " ".join(out.split())
    assert f"the records of {named} name it {given} now" in err
    found = read(output)
    # every puzzle once, with both methods, under this run's name: none run twice, none lost
    assert per_puzzle(found) == {(given, line): 2 for line in range(1, len(LINES) + 1)}
    assert [{**r, "file": given} for r in before] == found[:6]  # the kept ones kept, not run again
    assert json.loads(Path(f"{output}.settings.json").read_text())["files"] == [given]

    code, out, err = run(capsys, given, "--jobs", 1, "--no-certify", "--output", output, "--resume")
    assert code == 0 and "8 puzzles kept from" in " ".join(out.split()) and "name it" not in err, err
    assert read(output) == found


def test_resume_still_refuses_another_file_by_the_same_name(capsys, tmp_path, monkeypatch):
    output = tmp_path / "r.jsonl"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        puzzle_file(tmp_path / folder, LINES if folder == "a" else LINES[::-1])
    monkeypatch.chdir(tmp_path / "a")
    code, _, err = run(capsys, "p.txt", "--jobs", 1, "--no-certify", "--output", output, "--limit", 2)
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "b")
    code, _, err = run(capsys, "p.txt", "--jobs", 1, "--no-certify", "--output", output, "--limit", 2, "--resume")
    assert code == 2 and "p.txt has changed since the records were written" in err


# -- the certifier's claims: confirmed and refuted, counted apart ---------------------------------------------
def cornered(puzzle: str) -> str:
    """The puzzle with its solution's first and last cells given: tests/planted.py's liar says it has none."""
    solution = SOLVERS["good"](Grid.parse(puzzle)).solution
    assert solution is not None
    digits = "".join(str(v) for v in solution.values)
    return digits[0] + puzzle[1:-1] + digits[-1]


@pytest.mark.parametrize("solutions, puzzles, confirmed, refuted", [
    (1, [cornered(SEED000), cornered(SEED001), SEED001_UNSAT], 1, 2),  # no solution, said thrice
    (2, [cornered(SEED000), SEED000, SEED001_UNSAT], 2, 1),  # and a unique one
])
@pytest.mark.slow
def test_claims_refuted_are_told_from_claims_confirmed(capsys, tmp_path, solutions, puzzles, confirmed, refuted):
    path, output, page = puzzle_file(tmp_path, puzzles), tmp_path / "r.jsonl", tmp_path / "page.html"
    methods = {"liar": PLANTED["liar"], "cpsat": FORMULATIONS["cpsat"]}  # cpsat there: the certifier
    argv = [path, "--solver", "liar", "--solutions", solutions, "--jobs", 1, "--output", output, "--html", page]
    line = f"Claims certified by cpsat: {confirmed} confirmed, {refuted} refuted (no solution, or a unique one"
    code, out, err = run(capsys, *argv, methods=methods)
    assert code == 1, err  # a refuted claim is a disagreement
    assert line in " ".join(out.split())
    assert line in " ".join(page.read_text().split())
    assert sum(record["disagrees"] for record in read(output)) == refuted  # the records say the same

    code, out, err = run(capsys, *argv, "--resume", methods=methods)  # nothing left to run: the records replayed
    assert code == 1, err
    assert "3 puzzles kept from" in " ".join(out.split()) and line in " ".join(out.split())
    assert line in " ".join(page.read_text().split())
