"""--resume: an interrupted run goes on from its records, and ends with the records of an uninterrupted one,
none twice; a file written with other settings is refused; a record cut off by a crash is run again."""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures import PUZZLES, eventually, lines_in, signalled_child

import compare

ROOT = Path(__file__).resolve().parents[1]
SOLVERS = ["--registry", "misbehaving", "--solver", "dawdler", "--solver", "good"]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(PUZZLES[:12] * 2) + "\n")  # 9x9 to 25x25 puzzles, a bad entry among them
    return path


def run(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    return signalled_child([sys.executable, str(ROOT / "compare.py"), *argv], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)


def finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, out + err
    return out


def read(path: Path) -> list[dict]:
    if path.suffix == ".csv":
        with open(path, newline="") as handle:
            return list(csv.DictReader(handle))
    return [json.loads(line) for line in path.read_text().splitlines()]


def keyed(rows: list[dict]) -> dict[tuple, dict]:
    runs = {(r["file"], str(r["line"]), str(r["isomorph"]), r["method"]): r for r in rows}
    assert len(runs) == len(rows), "a record twice"
    return runs


def same_records(resumed: list[dict], whole: list[dict]) -> None:
    a, b = keyed(resumed), keyed(whole)
    assert a.keys() == b.keys()
    for key, record in b.items():
        for field in ("status", "solution", "verdict", "nodes", "guesses", "backtracks", "disagrees"):
            assert a[key][field] == record[field], (key, field)


@pytest.mark.slow
def test_an_interrupted_run_resumed_ends_with_the_records_of_a_whole_run(tmp_path, puzzle_file):
    whole, resumed = tmp_path / "whole.csv", tmp_path / "resumed.csv"  # CSV: JSON lines in the next test
    common = [str(puzzle_file), *SOLVERS, "--jobs", "2", "--isomorphs", "2"]
    finish(run(tmp_path, *common, "--output", str(whole)))
    process = run(tmp_path, *common, "--output", str(resumed))
    assert eventually(lambda: lines_in(resumed) >= 8, 120)  # the header and 7 records: well under way
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, out + err
    interrupted = read(resumed)
    kept = {(r["file"], r["line"], r["isomorph"]) for r in interrupted if r["verdict"] not in ("interrupted", "")}
    assert 0 < len(kept) < 2 * 22  # some puzzles done, not all
    out = finish(run(tmp_path, *common, "--output", str(resumed), "--resume"))
    assert f"{len(kept)} puzzles kept from {resumed}" in out.replace("\n", " ")
    assert "Puzzles: 44 (" in out  # the summary covers the whole file
    same_records(read(resumed), read(whole))
    again = finish(run(tmp_path, *common, "--output", str(resumed), "--resume"))  # nothing left to do
    assert "44 puzzles kept" in again.replace("\n", " ") and "Puzzles: 44 (" in again
    same_records(read(resumed), read(whole))


def test_a_record_cut_off_by_a_crash_is_dropped_and_run_again(tmp_path, puzzle_file, capsys):
    output = tmp_path / "records.jsonl"
    argv = [str(puzzle_file), "--solver", "mrv", "--solver", "mrv:propagate=singles", "--jobs", "1",
            "--output", str(output)]
    assert compare.main(argv) == 0
    whole = read(output)
    lines = output.read_text().splitlines(keepends=True)
    output.write_text("".join(lines[:-3]) + lines[-3][:40])  # the last puzzle's records: one whole, one cut
    assert compare.main([*argv, "--resume"]) == 0
    same_records(read(output), whole)
    assert "Puzzles: 22" in capsys.readouterr().out


@pytest.mark.parametrize("change, named", [
    (["--timeout", "5"], "timeout 10.0 in the file, 5.0 now"),
    (["--solutions", "2"], "solutions 1 in the file, 2 now"),
    (["--seed", "3"], "seed 0 in the file, 3 now"),
    (["--solver", "sat"], "methods ['mrv'] in the file, ['mrv', 'sat'] now"),
])
def test_a_file_written_with_other_settings_is_refused_naming_the_difference(tmp_path, puzzle_file, capsys,
                                                                            change, named):
    output = tmp_path / "records.csv"
    argv = [str(puzzle_file), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    before = output.read_text()
    capsys.readouterr()
    assert compare.main([*argv, *change, "--resume"]) == 2
    err = capsys.readouterr().err
    assert f"--resume: {output} was written with other settings" in err and named in err
    assert output.read_text() == before  # untouched


def test_records_of_an_input_since_changed_are_not_kept(tmp_path, puzzle_file, capsys):
    """Records are keyed by file and line: an input whose lines have changed since must not lend them out."""
    output = tmp_path / "records.csv"
    argv = [str(puzzle_file), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    before = output.read_text()
    puzzle_file.write_text("\n".join(reversed(puzzle_file.read_text().splitlines())) + "\n")  # same lines, moved
    capsys.readouterr()
    assert compare.main([*argv, "--resume"]) == 2
    assert f"{puzzle_file} has changed since the records were written" in capsys.readouterr().err
    assert output.read_text() == before  # untouched


def test_records_of_another_version_name_the_fields_that_differ(tmp_path, puzzle_file, capsys):
    output = tmp_path / "records.csv"
    argv = [str(puzzle_file), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    side = Path(str(output) + ".settings.json")
    settings = json.loads(side.read_text())
    settings["fields"].remove("info")  # as written before the info column
    side.write_text(json.dumps(settings))
    capsys.readouterr()
    assert compare.main([*argv, "--resume"]) == 2
    assert "record fields new: info (written by another version of compare.py)" in capsys.readouterr().err


def test_a_file_without_its_settings_is_refused_and_resume_needs_an_output(tmp_path, puzzle_file, capsys):
    output = tmp_path / "records.csv"
    argv = [str(puzzle_file), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    Path(str(output) + ".settings.json").unlink()
    assert compare.main([*argv, "--resume"]) == 2
    assert "has no records.csv.settings.json beside it" in capsys.readouterr().err
    assert compare.main([str(puzzle_file), "--resume"]) == 2
    assert "--resume needs --output FILE" in capsys.readouterr().err


def test_resume_without_a_file_yet_starts_afresh(tmp_path, puzzle_file, capsys):
    output = tmp_path / "records.csv"
    assert compare.main([str(puzzle_file), "--solver", "mrv", "--jobs", "1", "--output", str(output), "--resume"]) == 0
    assert len(read(output)) == 22 + 2  # the puzzles, and the bad entry twice (it is in the file twice)


def test_a_csv_record_is_read_back_whole_rating_and_puzzle_included(tmp_path, capsys):
    """Every column of a CSV record survives --resume: the kept rows are rewritten from what was read."""
    rated = tmp_path / "rated.csv"
    rated.write_text("puzzle,rating,id\n" + "".join(f"{p},{5 + i / 2},p{i}\n" for i, p in enumerate(PUZZLES[:3])))
    output = tmp_path / "records.csv"
    argv = [str(rated), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    whole = read(output)
    assert [r["rating"] for r in whole] == ["5.0", "5.5", "6.0"]
    lines = output.read_text().splitlines(keepends=True)
    output.write_text("".join(lines[:-1]) + lines[-1][:30])  # the last record cut off
    assert compare.main([*argv, "--resume"]) == 0
    resumed = read(output)
    assert len(resumed) == len(whole)
    for got, want in zip(sorted(resumed, key=lambda r: int(r["line"])), whole, strict=True):
        for field in ("line", "rating", "puzzle", "status", "solution", "nodes"):
            assert got[field] == want[field], field
    capsys.readouterr()


def test_a_record_cut_inside_a_character_is_dropped_and_a_damaged_one_named(tmp_path, capsys):
    """A crash may cut a CSV record inside a character of a name (the seeds' names are Chinese): that last
    line is dropped and run again; a damaged record before it is an error naming its line, not a traceback."""
    named = tmp_path / "named.txt"
    named.write_text("".join(f"{p} 数独作业{i}\n" for i, p in enumerate(PUZZLES[:3])), encoding="utf-8")
    output = tmp_path / "records.csv"
    argv = [str(named), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    whole = read(output)
    data = output.read_bytes()
    last = data.rindex("数".encode())
    output.write_bytes(data[:last + 1])  # the last record ends inside the first character of its name
    assert compare.main([*argv, "--resume"]) == 0
    same_records(read(output), whole)
    capsys.readouterr()
    lines = output.read_text(encoding="utf-8").splitlines(keepends=True)
    for damaged in (lines[1].replace(",solved,", ",weird,"), lines[1].encode().replace("数".encode(), b"\xe6")):
        output.write_bytes(b"".join(x if isinstance(x, bytes) else x.encode() for x in [lines[0], damaged,
                                                                                       *lines[2:]]))
        assert compare.main([*argv, "--resume"]) == 2
        err = capsys.readouterr().err
        assert f"--resume: {output}, line 2: " in err and "Traceback" not in err, err


def test_a_json_record_without_its_fields_is_named(tmp_path, capsys):
    output = tmp_path / "records.jsonl"
    argv = [str(tmp_path / "p.txt"), "--solver", "mrv", "--jobs", "1", "--output", str(output)]
    (tmp_path / "p.txt").write_text("\n".join(PUZZLES[:3]) + "\n")
    assert compare.main(argv) == 0
    lines = output.read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    del record["verdict"]
    output.write_text(json.dumps(record) + "\n" + "".join(lines[1:]))
    capsys.readouterr()
    assert compare.main([*argv, "--resume"]) == 2
    assert f"--resume: {output}, line 1: not a record of compare.py (fields missing)" in capsys.readouterr().err


def swap_two_digits(solution: str, puzzle: str) -> str:
    """The solution with two of its digits swapped in one row, one of them at a given: a given contradicted."""
    side = int(len(solution) ** 0.5)
    given = next(i for i, ch in enumerate(puzzle) if ch not in ".0")
    row = given // side * side
    other = next(i for i in range(row, row + side) if solution[i] != solution[given])
    cells = list(solution)
    cells[given], cells[other] = cells[other], cells[given]
    return "".join(cells)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_a_kept_answer_altered_since_is_judged_again_and_fails_the_run(tmp_path, puzzle_file, capsys, suffix):
    output = tmp_path / f"records.{suffix}"
    argv = [str(puzzle_file), "--solver", "mrv", "--solver", "mrv:propagate=singles", "--jobs", "1",
            "--output", str(output)]
    assert compare.main(argv) == 0
    rows = read(output)
    target = next(i for i, r in enumerate(rows) if r["method"] == "mrv" and r["status"] == "solved")
    altered = swap_two_digits(rows[target]["solution"], rows[target]["puzzle"])
    text = output.read_text()
    assert text.count(rows[target]["solution"]) >= 1
    # the first record that holds it: mrv's, as both methods wrote the same solution
    output.write_text(text.replace(rows[target]["solution"], altered, 1))
    capsys.readouterr()
    assert compare.main([*argv, "--resume"]) == 1  # as a fresh invalid answer would
    out = capsys.readouterr().out
    assert "INVALID answers (a bug in the method): 1" in out and "FAILED" in out and "givens changed" in out
    resumed = [r for r in read(output) if str(r["line"]) == str(rows[target]["line"])]
    mine = [r for r in resumed if r["solution"] == altered]
    assert len(mine) == 1 and str(mine[0]["valid"]).lower() == "false" and "givens changed" in mine[0]["problems"]
    assert {r["verdict"] for r in resumed if r["isomorph"] == rows[target]["isomorph"]} == {"invalid"}
    # and resumed once more, it stays failed: the records file now says so itself
    assert compare.main([*argv, "--resume"]) == 1
