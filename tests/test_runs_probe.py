"""compare.py's runs under faults (issue 43): a program's late output, its descendants, closed and failing
streams, a full disk, --resume's paths, the certifier's words.

Each test fails without its fix. Programs are run as they would be by a user; nothing waits on a guess: a
test waits for what a program says (a line, a file), with generous timeouts as a safety net only.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from fixtures import MARK, alive, eventually, marked
from misbehaving import SOLVERS

import compare

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
SEEDS = ROOT / "puzzles" / "seeds.txt"
PUZZLES = [line.split()[0] for line in SEEDS.read_text().splitlines() if line and not line.startswith("#")][:3]
BROKEN = f"{sys.executable} {TESTS / 'broken_programs.py'}"

linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


@pytest.fixture
def mark(monkeypatch):
    """A mark in the environment the programs inherit; whatever carries it is killed after the test."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(TESTS)]))
    yield value
    for pid in marked(value):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run(capsys, tmp_path: Path, puzzles: list[str], *argv: str) -> tuple[int, str, list[dict]]:
    path, out_path = tmp_path / "puzzles.txt", tmp_path / "records.jsonl"
    path.write_text("\n".join(puzzles) + "\n")
    code = compare.main([str(path), "--output", str(out_path), *argv], methods={"good": SOLVERS["good"]})
    out, err = capsys.readouterr()
    return code, out + err, [json.loads(line) for line in out_path.read_text().splitlines()]


# -- 6: a late second answer is the error of the puzzle it followed ---------------------------------------
@pytest.mark.slow
@linux
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_late_second_answer_is_the_error_of_the_puzzle_it_followed(capsys, tmp_path, mark, jobs):
    # The program answers, then answers again once the next puzzle (or the end of its input) has come: the
    # repeat is read after the next puzzle was sent, and after the last one only when the program ends.
    code, output, records = run(capsys, tmp_path, PUZZLES, "--command", f"prog={BROKEN} late_repeat",
                                "--solver", "good", "--solver", "prog", "--jobs", jobs, "--timeout", "30")
    mine = sorted((r["line"], r["status"], r["detail"]) for r in records if r["method"] == "prog")
    assert [(line, status) for line, status, _ in mine] == [(1, "error"), (2, "error"), (3, "error")], output
    assert all("it wrote more than one answer to this puzzle" in detail for _, _, detail in mine)
    assert "INVALID" not in output
    assert code == 3, output
    assert eventually(lambda: not marked(mark)), "processes left behind"


@linux
@pytest.mark.slow
def test_the_same_answer_to_the_same_puzzle_twice_is_no_second_answer(capsys, tmp_path, mark):
    # The repeat of the last answer, word for word, is asked again of a new program: it gives it again, so
    # it was the answer, and nothing is wrong.
    code, output, records = run(capsys, tmp_path, [PUZZLES[0], PUZZLES[0], PUZZLES[1]], "--command",
                                f"prog={BROKEN} good", "--solver", "good", "--solver", "prog", "--jobs", "1",
                                "--timeout", "30")
    assert code == 0, output
    assert [r["status"] for r in records if r["method"] == "prog"] == ["solved"] * 3


# -- 7: what a program started dies with it, even in a session of its own -----------------------------------
def tagged(tag: str) -> list[int]:
    """The live processes whose argv holds `tag`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if tag.encode() in argv and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


@pytest.mark.slow
@linux
@pytest.mark.parametrize("mode, jobs, status", [("sessioner", "1", "solved"), ("sessioner", "2", "solved"),
                                                ("sessioner_hang", "1", "gave_up")])
def test_a_child_in_a_session_of_its_own_dies_with_the_program(capsys, tmp_path, mark, monkeypatch, mode, jobs,
                                                                 status):
    tag = f"sudoku-probe-{uuid.uuid4().hex}"
    monkeypatch.setenv("MISBEHAVING_TAG", tag)
    monkeypatch.setenv("MISBEHAVING_PIDS", str(tmp_path / "pids"))
    puzzles = PUZZLES[:2] if mode == "sessioner" else PUZZLES[:1]
    try:
        code, output, records = run(capsys, tmp_path, puzzles, "--command", f"prog={BROKEN} {mode}", "--solver",
                                    "good", "--solver", "prog", "--jobs", jobs, "--timeout",
                                    "30" if status == "solved" else "2")
        assert code == 0, output  # a budget spent is no failure
        assert [r["status"] for r in records if r["method"] == "prog"] == [status] * len(puzzles), output
        started = [int(p) for p in (tmp_path / "pids").read_text().split()]
        assert len(started) == len(puzzles)  # each puzzle's program started its child, in its own session
        assert not tagged(tag), "a child in a session of its own outlived compare.py"
        assert not any(alive(pid) for pid in started)
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)


# -- 9: closed and failing streams ------------------------------------------------------------------------
def command(argv: list[str], **popen: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *argv], cwd=ROOT, text=True, timeout=300, **popen)  # type: ignore[call-overload]


def puzzle_file(tmp_path: Path, lines: list[str] = PUZZLES) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("argv", [["compare.py", "-", "--solver", "mrv"], ["-m", "commands.check", "-"]])
def test_standard_input_closed_is_an_unreadable_input(argv):
    done = command(argv, preexec_fn=lambda: os.close(0), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 2, done.stderr
    assert "standard input is closed" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_standard_output_closed_the_records_are_written_all_the_same(tmp_path):
    records = tmp_path / "records.jsonl"
    done = command(["compare.py", str(puzzle_file(tmp_path)), "--solver", "mrv", "--solver", "backtracking",
                    "--output", str(records)], preexec_fn=lambda: os.close(1), stderr=subprocess.PIPE)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "compare.py: error: cannot write the report to standard output (it is closed); the run went on, its "
        f"records written to {records}")
    assert len(records.read_text().splitlines()) == 2 * len(PUZZLES)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["compare.py", "{file}", "--solver", "mrv"], ["-m", "commands.check", "{file}"]])
def test_a_full_standard_output_is_one_line_and_status_2(tmp_path, argv):
    file = str(puzzle_file(tmp_path))
    with open("/dev/full", "w") as full:
        done = command([a.replace("{file}", file) for a in argv], stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith(
        "cannot write the report to standard output (No space left on device)")


def closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """The command with its standard output a pipe whose reader has gone (`| head -1`, once head has its line)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return command(argv, stdout=writer, stderr=subprocess.PIPE)
    finally:
        os.close(writer)


def test_a_closed_pipe_ends_compare_quietly_with_141_its_records_written(tmp_path):
    records = tmp_path / "records.jsonl"
    done = closed_pipe(["compare.py", str(puzzle_file(tmp_path)), "--solver", "mrv", "--output", str(records)])
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""
    assert len(records.read_text().splitlines()) == len(PUZZLES)


def test_a_closed_pipe_ends_the_check_quietly_with_141(tmp_path):
    # `sudoku-check BIG | head -1`, the reader gone before the first line
    file = puzzle_file(tmp_path, PUZZLES + ["not a puzzle"] * 5000)
    done = closed_pipe(["-m", "commands.check", str(file), str(file)])
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""


# -- the smaller ones ------------------------------------------------------------------------------------
def test_a_full_disk_at_the_start_leaves_no_settings_tmp(tmp_path, monkeypatch, capsys):
    from comparison.records import resume

    def full(self: Path, *args: object, **kwargs: object) -> int:  # opened (made, empty), then the disk is full
        self.touch()
        raise OSError(errno.ENOSPC, "No space left on device")

    output = tmp_path / "records.jsonl"
    output.write_text("")
    monkeypatch.setattr(Path, "write_text", full)
    resume.write_settings(str(output), {"files": []})
    monkeypatch.undo()
    assert "cannot write" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]
