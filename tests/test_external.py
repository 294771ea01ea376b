"""compare.py --command: solvers as programs speaking the solver protocol, good and broken ones.

The C example is compiled with the machine's C compiler (skipped without one) and checked against CP-SAT;
the Octave example runs when `octave` is on the PATH. tests/broken_programs.py breaks the protocol one way
a mode; each break must be the record the docs promise, and leave no process behind: the programs and
their children carry this test's SUDOKU_RUN_MARK in their environment, and /proc must show none alive.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import variant_puzzles as variants
from fixtures import MARK, alive, eventually, marked, signalled_child
from misbehaving import SOLVERS

import compare
from comparison import compare as compare_api
from comparison.execution.external import Command, ProtocolError, parse_answer, puzzle_text
from comparison.execution.result import RunResult
from comparison.judging.stats import MethodStats
from comparison.report.terminal import gave_up_text
from puzzles import Grid, Status, classic
from puzzles.fpuzzles import puzzle_of

ROOT = Path(__file__).resolve().parents[1]
BROKEN = Path(__file__).resolve().parent / "broken_programs.py"
SEEDS = ROOT / "puzzles" / "seeds.txt"
PUZZLES = [line.split()[0] for line in SEEDS.read_text().splitlines() if line and not line.startswith("#")][:3]
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

# the tests that start programs (and kill them, run after run) are slow; reading answers and specs is not
pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")]


PROGRAM = f"{sys.executable} {BROKEN}"


def program(mode: str) -> str:
    return f"{PROGRAM} {mode}"


@pytest.fixture
def mark(monkeypatch, tmp_path):
    """A mark in the environment the programs inherit; whatever carries it is killed after the test."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    monkeypatch.setenv("MISBEHAVING_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    yield value
    for pid in marked(value) + children(tmp_path):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def children(tmp_path: Path) -> list[int]:
    pids = tmp_path / "pids"
    return [int(p) for p in pids.read_text().split()] if pids.exists() else []


def nothing_left(mark: str, tmp_path: Path) -> bool:
    return eventually(lambda: not marked(mark) and not any(alive(p) for p in children(tmp_path)))


def counter(record: dict, name: str) -> int | None:
    """A counter of a record: in its own column when a method of the run declares it, else in `extra`."""
    return record.get(name, (record["extra"] or {}).get(name))


def run(capsys, tmp_path: Path, *argv: str, puzzles: list[str] = PUZZLES) -> tuple[int, str, str, list[dict]]:
    path, out_path = tmp_path / "puzzles.txt", tmp_path / "records.jsonl"
    path.write_text("\n".join(puzzles) + "\n")
    code = compare.main([str(path), "--jobs", "1", "--output", str(out_path), *argv], methods={"good": SOLVERS["good"]})
    out, err = capsys.readouterr()
    return code, out, err, [json.loads(line) for line in out_path.read_text().splitlines()]


# -- the protocol's parts -------------------------------------------------------------------------------
@pytest.mark.parametrize("text, status, effort", [
    (SOLVED, Status.SOLVED, {}),
    (f"{SOLVED} nodes=12 usec=-0", Status.SOLVED, {"nodes": 12, "usec": 0}),
    ("\n".join(" ".join(SOLVED[r * 9:r * 9 + 9]) for r in range(9)) + " guesses=3", Status.SOLVED, {"guesses": 3}),
    ("unsat nodes=5", Status.UNSATISFIABLE, {"nodes": 5}),
    ("unknown", Status.GAVE_UP, {}),
])
def test_an_answer_in_either_form_with_its_counters(text, status, effort):
    outcome = parse_answer(text, classic(3))
    assert outcome.status is status and outcome.effort == effort
    assert status is not Status.SOLVED or (outcome.solution is not None and outcome.solution.line() == SOLVED)


@pytest.mark.parametrize("text, message", [
    ("hello world", "not an answer: 'hello world'"),
    (SOLVED[:80], "not an answer"),
    ("1234341221434321", "an answer for a 4x4 grid; the puzzle is 9x9"),
    (f"{SOLVED} nodes=lots", "'nodes=lots' is not a counter"),
    ("", "not an answer"),
])
def test_what_is_not_an_answer(text, message):
    with pytest.raises(ProtocolError, match=message):
        parse_answer(text, classic(3))


def test_a_command_spec():
    command = Command.parse("mine:mode=once,input=matrix=cat {file} --flag")
    assert command == Command("mine", ("cat", "{file}", "--flag"), "once", "matrix")
    assert Command.parse("mine=cat -").mode == "streaming"
    assert Command.parse("mine:input=fpuzzles=cat -").input == "fpuzzles"
    for spec, message in [("mine", "expected NAME"), ("mine:mode=fast=cat", "mode is streaming or once"),
                          ("mine:input=json=cat", "input is line or matrix or fpuzzles"),
                          ("mine:color=red=cat", "unknown option 'color'"), ("mine=cat {file}", "needs mode=once"),
                          ("mine=./no-such-program", "not found"), ("mine='cat", "cannot split")]:
        with pytest.raises(ValueError, match=message):
            Command.parse(spec)


@pytest.mark.parametrize("argv, message", [
    (["--command", "good=cat"], "there is a method 'good' already"),
    (["--command", "x=cat", "--solver", "x", "--nodes", "5"], "gets no node budget"),
    (["--command", "x:mode=slow=cat"], "--command x:mode=slow=cat: mode=slow"),
    # defined, then left out of an explicit --solver list: it would never run, so the user is told how to run it
    (["--command", "bug=cat", "--solver", "good"], "'bug' is not among the --solver methods, so it would not run; "
                                                   "add --solver bug"),
    (["--command", "bug:mode=once=cat {file}", "--solver", "good"], "add --solver bug"),
])
def test_command_usage_errors(capsys, argv, message):
    assert compare.main(argv, methods={"good": SOLVERS["good"]}) == 2
    assert message in capsys.readouterr().err


def test_list_shows_the_commands(capsys):
    assert compare.main(["--list", "--command", "mine:mode=once=cat {file}"], methods={"good": SOLVERS["good"]}) == 0
    out = capsys.readouterr().out
    assert "mine" in out and "external program (once, line" in out


# -- broken programs ------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("mode, statuses, detail", [
    ("good", ["solved"] * 3, ""),
    ("matrix", ["solved"] * 3, ""),
    ("wrong", ["solved"] * 3, ""),
    ("crash", ["error"] * 3, "the program ended (exit status 3) before its answer; stderr: about to fail | "
                             "Segmentation fault (pretend)"),
    ("crash_later", ["solved", "error", "solved"], "(exit status 3)"),  # started again, it answers again
    # the first error line, that says why, is kept beside the last lines, that do not
    ("chatty_crash", ["error"] * 3, "stderr: error: max_recursion_depth exceeded | ... | search at line 41 column 38 | "
                                    "search at line 41 column 39 | error: ignoring const execution_exception&"),
    ("hang", ["gave_up"] * 3, "time"),
    ("garbage", ["error"] * 3, "not an answer: 'hello world'"),
    ("partial", ["error"] * 3, "the program ended (exit status 0) before its answer after a partial line"),
    ("forker_later", ["solved", "gave_up", "solved"], "time"),
    ("wrong_size", ["error"] * 3, "an answer for a 4x4 grid; the puzzle is 9x9"),
    ("bad_counter", ["error"] * 3, "'nodes=lots' is not a counter"),
    ("two_answers", ["error"] * 3, "it wrote more than one answer to this puzzle"),
])
def test_a_broken_program_is_its_own_record_and_leaves_nothing(capsys, tmp_path, mark, mode, statuses, detail):
    # A budget the program's start-up cannot spend on a loaded machine, except where it is meant to run out.
    timeout = "3" if mode in ("hang", "forker_later") else "10"
    code, out, err, records = run(capsys, tmp_path, "--command", f"prog={program(mode)}", "--solver", "good",
                                  "--solver", "prog", "--timeout", timeout)
    mine = [r for r in records if r["method"] == "prog"]
    # an invalid answer is 1; a crash, junk or a protocol error is 3, and the verdict counts them; a budget is 0
    errors = statuses.count("error")
    assert code == (1 if mode == "wrong" else 3 if errors else 0), out + err
    if errors:
        assert f"FAILED: {errors} error record" in out
    assert [r["status"] for r in mine] == statuses
    assert all(detail in r["detail"] for r in mine if r["status"] != "solved")
    assert all(r["valid"] is (mode != "wrong") for r in mine if r["status"] == "solved")
    assert mode != "wrong" or "INVALID" in out
    assert all(r["status"] == "solved" for r in records if r["method"] == "good")
    if mode in ("good", "matrix"):
        assert all(counter(r, "nodes") is not None for r in mine)
    if mode.startswith("forker"):
        assert len(children(tmp_path)) == 1
    assert nothing_left(mark, tmp_path), "processes left behind"


@pytest.mark.slow
@pytest.mark.parametrize("spec", [
    "once:mode=once,input=matrix={} once {{file}}",
    "once:mode=once,input=matrix={} once -",
])
def test_once_mode_by_file_or_standard_input(capsys, tmp_path, mark, spec):
    code, out, err, records = run(capsys, tmp_path, "--command", spec.format(PROGRAM), "--solver", "once",
                                  "--solver", "good")
    assert code == 0, out + err
    assert [r["valid"] for r in records] == [True] * 6
    assert all(counter(r, "nodes") is not None for r in records if r["method"] == "once")
    assert nothing_left(mark, tmp_path)


@pytest.mark.slow
def test_once_mode_failures(capsys, tmp_path, mark):
    code, out, err, records = run(capsys, tmp_path, "--command", f"crash:mode=once={program('crash')}",
                                  "--command", f"hang:mode=once={program('forker')}", "--solver", "crash",
                                  "--solver", "hang", "--timeout", "3", puzzles=PUZZLES[:2])
    assert code == 3, out + err
    assert "FAILED: 2 error records" in out
    assert [(r["status"], r["detail"][:33]) for r in records] == [
        ("error", "the program ended (exit status 3)"), ("gave_up", "time")] * 2
    assert len(children(tmp_path)) == 2
    assert nothing_left(mark, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_compare_ending_mid_run_takes_the_programs_and_their_children(tmp_path, mark, how):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    process = signalled_child([sys.executable, str(ROOT / "compare.py"), str(path), "--command",
                               f"forker={program('forker')}", "--solver", "forker", "--jobs", "2",
                               "--timeout", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The cue: both programs' children alive (the run under way); the deadlines are caps, for a loaded machine.
    assert eventually(lambda: len(children(tmp_path)) == 2 and all(alive(p) for p in children(tmp_path)), 120)
    process.send_signal(how)
    out, err = process.communicate(timeout=120)
    assert process.returncode == (-9 if how == signal.SIGKILL else 130), out + err
    assert nothing_left(mark, tmp_path), "processes left behind"


# -- from Python ----------------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_python_api_runs_what_the_command_line_runs(tmp_path, mark):
    pytest.importorskip("pandas")
    run = compare_api([SEEDS], solvers=["mrv:propagate=singles", "prog"], commands=[f"prog={program('good')}"],
                      timeout=5, jobs=2)
    first = next(iter(run))
    assert first["method"] in ("mrv:propagate=singles", "prog", None)
    records = list(run)
    assert records[0] == first and len(records) == 2 * 11 + 1  # 11 puzzles, a bad entry
    assert run.summary.puzzles == 11 and not run.failed
    frame = run.to_pandas()
    assert len(frame) == len(records) and {"method", "seconds", "nodes", "guesses"} <= set(frame.columns)
    assert frame.groupby("method")["valid"].sum().to_dict() == {"mrv:propagate=singles": 9, "prog": 9}
    assert nothing_left(mark, tmp_path)


# -- the examples ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def c_solver(tmp_path_factory) -> Path:
    """examples/c built with its Makefile and the machine's C compiler, in a folder of the test's own."""
    if not shutil.which("make") or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler (cc) or make")
    folder = tmp_path_factory.mktemp("c")
    shutil.copy(ROOT / "examples" / "c" / "sudoku.c", folder)
    shutil.copy(ROOT / "examples" / "c" / "Makefile", folder)
    compiler = [] if shutil.which("cc") else ["CC=gcc"]
    subprocess.run(["make", "-s", "-C", str(folder), *compiler], check=True, capture_output=True)
    return folder / "sudoku"


@pytest.mark.slow
def test_the_c_example_against_cpsat(c_solver, capsys, tmp_path, collection):
    # Budgets in seconds of wall time with room for a loaded machine, where the C program gets a share of a core:
    # seeds.txt's 9x9 puzzles take it 0.13 s at most at load 6 (0.02 s of CPU alone); its 16x16 and 25x25 give up
    # at the budget, whatever it is: row-major backtracking drowns in them (the 16x16: no answer in 60 s of CPU), so
    # each spends the whole budget spinning, and 1 s shows that give-up as well as any (7 times the 9x9s' worst).
    # The sample of top95 takes it up to 0.43 s there, one of its puzzles 1 s of CPU alone (5 s at load 6).
    for files, seconds in (([str(SEEDS)], "1"), ([str(collection("top95")), "--sample", "12"], "10")):
        out_path = tmp_path / "records.jsonl"
        code = compare.main([*files, "--command", f"c={c_solver}", "--solver", "c", "--solver", "cpsat",
                             "--timeout", seconds, "--output", str(out_path)])
        out, err = capsys.readouterr()
        assert code == 0, out + err
        records = [json.loads(line) for line in out_path.read_text().splitlines()]
        mine = [r for r in records if r["method"] == "c"]
        assert mine and all(r["valid"] is not False and r["verdict"] != "disagreement" for r in records)
        answered = sum(r["status"] in ("solved", "unsatisfiable") for r in mine)
        assert answered >= len(mine) - 2  # plain backtracking gives up on the 16x16 and the 25x25
        assert all(set(r["extra"]) == {"nodes", "guesses", "backtracks", "usec"} for r in mine
                   if r["status"] != "gave_up")
        assert "usec" in out and "OK: every answer valid" in out


@pytest.mark.slow
def test_the_octave_example(capsys, tmp_path):
    if not shutil.which("octave-cli"):
        pytest.skip("octave is not installed (apt-get install octave)")
    octave = f"octave-cli -q --no-init-file --path {ROOT / 'examples' / 'octave'} --eval"
    path = tmp_path / "puzzles.txt"  # the 4x4s, two 9x9s, a puzzle with no solution, the 16x16 and the 25x25
    lines = [line for line in SEEDS.read_text().splitlines() if line and not line.startswith("#")]
    path.write_text("\n".join(lines[i] for i in (0, 1, 4, 5, 6, 10, 7, 8)) + "\n")
    code = compare.main([str(path), "--output", str(tmp_path / "r.jsonl"),
                         "--command", f"octave={octave} 'sudoku_stream; exit'",
                         "--command", f"octave-once:mode=once,input=matrix={octave} \"sudoku_once('{{file}}'); exit\"",
                         "--solver", "octave", "--solver", "octave-once", "--solver", "cpsat", "--timeout", "120"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    for method in ("octave", "octave-once"):
        assert sorted(r["status"] for r in records if r["method"] == method) == ["solved"] * 7 + ["unsatisfiable"]
        assert all(counter(r, "nodes") > 0 for r in records if r["method"] == method)
        # every size it claims, 25x25 included; naked singles solve the 16x16 and the 25x25, so MRV places
        # one value per blank and never backtracks
        for big in (lines[7], lines[8]):
            grid = Grid.parse(big.split()[0])
            (record,) = [r for r in records if r["method"] == method and r["puzzle"] == grid.line()]
            assert record["valid"] is True and counter(record, "nodes") == grid.values.count(0)
    assert "OK: every answer valid" in out


# -- puzzles of the Sudoku family: what a program declares it takes ---------------------------------------------
VARIANTS = [variants.JIGSAW9, variants.JIGSAW6, variants.JIGSAW5, variants.JIGSAW7, variants.X9, variants.WINDOKU9,
            variants.DISJOINT9, variants.X_WINDOKU9, variants.RECT6]


def test_a_line_or_matrix_program_takes_classic_grids_alone():
    line, matrix = Command("p", ("cat",)), Command("p", ("cat",), input="matrix")
    whole = Command("p", ("cat",), input="fpuzzles")
    for text in [*PUZZLES, "1...........4..."]:  # the seeds' 9x9s, a 4x4
        grid = Grid.parse(text)
        assert line.refuses(grid) == matrix.refuses(grid) == whole.refuses(grid) == ""
    for text in VARIANTS:
        grid = Grid.parse(text)
        assert whole.refuses(grid) == ""
        said = line.refuses(grid)
        assert said.startswith("input=line carries classic Sudoku (square boxes) only, not this ")
        assert grid.layout.variant in said or "2x3 boxes" in said
        assert matrix.refuses(grid).startswith("input=matrix carries")


@pytest.mark.parametrize("text", [PUZZLES[0], *VARIANTS])
def test_the_fpuzzles_input_is_the_whole_puzzle_on_one_line(text):
    grid = Grid.parse(text)
    sent = puzzle_text(grid, "fpuzzles")
    assert sent.endswith("\n") and "\n" not in sent[:-1]
    read, solution, _ = puzzle_of(json.loads(sent))
    assert read == grid and solution is None  # its houses and givens: nothing more, nothing less


@pytest.mark.parametrize("text", [variants.JIGSAW5, variants.JIGSAW7, variants.RECT6, variants.X9])
def test_an_answer_is_read_in_the_puzzles_houses(text):
    """On every side the project reads, 5x5 and 7x7 (no boxes) included, in either form."""
    grid = Grid.parse(text)
    solved, n = variants.SOLVED[text], grid.side
    matrix = "\n".join(" ".join(str(int(ch, 36)) for ch in solved[r * n:r * n + n]) for r in range(n))
    for answer in (f"{solved} nodes=3", matrix):
        outcome = parse_answer(answer, grid.layout)
        assert outcome.status is Status.SOLVED and outcome.solution is not None
        assert outcome.solution.line() == solved and grid.is_solved_by(outcome.solution)
    other = SOLVED if n != 9 else "1234341221434321"  # a 9x9 answer, or a 4x4 one to the 9x9
    with pytest.raises(ProtocolError, match=f"an answer for a {round(len(other) ** 0.5)}x\\d+ grid; the puzzle is "
                                            f"{n}x{n}"):
        parse_answer(other, grid.layout)


def test_a_run_not_made_is_counted_apart_from_the_times():
    stats = MethodStats("line")
    stats.add(RunResult(0, 0, Status.SOLVED, seconds=0.5), False)
    stats.add(RunResult(1, 0, Status.GAVE_UP, "not run: input=line carries classic Sudoku ...", seconds=0.0), False)
    stats.add(RunResult(2, 0, Status.GAVE_UP, "time", seconds=2.0), False)
    assert stats.run_seconds == [0.5, 2.0] and len(stats.seconds) == 3
    assert gave_up_text(stats.counts) == "2 (1 time, 1 not run)"


def mixed_file(tmp_path: Path, kinds: list[str] = VARIANTS) -> Path:
    """Two classic puzzles, then a puzzle of each variant, in the line form."""
    path = tmp_path / "mixed.txt"
    path.write_text("".join(f"{p}\n" for p in [*PUZZLES[:2], *kinds]))
    return path


def isomorph(text: str, turns: int, transpose: bool, digits: str) -> str:
    """A 9x9 puzzle in the line form transposed (when so), then turned a quarter clockwise `turns` times, its
    digit d renamed digits[d - 1]; its `r=` and `e=` maps moved with its cells. The same puzzle, for a symmetry
    of every house kind here: rows and columns go to columns and rows, regions and windows move with their maps,
    the two diagonals go to each other and disjoint groups to disjoint groups, and renaming digits changes no
    house. So its one solution is the original's moved the same way, and every clue is still needed."""
    def move(cells: str) -> str:
        rows = [list(cells[r * 9:r * 9 + 9]) for r in range(9)]
        if transpose:
            rows = [list(r) for r in zip(*rows, strict=True)]
        for _ in range(turns):
            rows = [list(r) for r in zip(*rows[::-1], strict=True)]
        return "".join(map("".join, rows))

    grid, *rest = text.split(";")
    named = grid.translate(str.maketrans("123456789", digits))
    return ";".join([move(named), *(part[:2] + move(part[2:]) if part[:2] in ("r=", "e=") else part for part in rest)])


# The variants as the Python example gets them. Its search (first cell with the fewest values, values ascending)
# takes 184,323 nodes on JIGSAW9 (2.3 s), 203,937 on X_WINDOKU9 (2.7 s), 45,089 on X9, 14,949 on WINDOKU9: on
# these isomorphs of them, 1,065, 2,308, 77 and 249, each with backtracks still. The same puzzles, every kind.
CHEAPER = {variants.JIGSAW9: (1, False, "783295461"), variants.X_WINDOKU9: (1, True, "812745936"),
           variants.X9: (2, False, "234567891"), variants.WINDOKU9: (1, True, "345678912")}
PY_VARIANTS = [isomorph(text, *CHEAPER[text]) if text in CHEAPER else text for text in VARIANTS]


@pytest.mark.slow
def test_a_line_program_is_not_run_on_a_variant(capsys, tmp_path, mark):
    """A program that reads lines gets the classic puzzles alone: a variant is recorded not run, why, and judged
    without it (no error, no failure, no disagreement); the report lists it apart."""
    out_path = tmp_path / "records.jsonl"
    code = compare.main([str(mixed_file(tmp_path)), "--jobs", "1", "--output", str(out_path), "--command",
                         f"prog={program('good')}", "--solver", "prog", "--solver", "cpsat", "--timeout", "20"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    mine = {r["puzzle"]: r for r in records if r["method"] == "prog"}
    assert [mine[Grid.parse(p).text()]["status"] for p in PUZZLES[:2]] == ["solved", "solved"]
    for text in VARIANTS:
        record = mine[Grid.parse(text).text()]
        assert (record["status"], record["valid"], record["disagrees"]) == ("gave_up", None, False)
        assert record["detail"].startswith("not run: input=line carries classic Sudoku (square boxes) only")
        assert record["verdict"] == "agree"  # cpsat's valid answer, alone
    assert f"{len(VARIANTS)} (9 not run)" in out
    assert f"Puzzles some methods did not run: they cannot take them (not a failure): {len(VARIANTS)}" in out
    assert "OK: every answer valid, the methods agree" in out
    assert nothing_left(mark, tmp_path)


EXAMPLE_PYTHON = f"{sys.executable} {ROOT / 'examples' / 'python' / 'fpuzzles_solver.py'}"


@pytest.mark.slow
@pytest.mark.parametrize("spec", [f"py:input=fpuzzles={EXAMPLE_PYTHON}",
                                  f"py:mode=once,input=fpuzzles={EXAMPLE_PYTHON}"])
def test_the_python_example_reads_fpuzzles_json(capsys, tmp_path, spec):
    """examples/python/fpuzzles_solver.py (the standard library alone) on classic puzzles and every variant,
    and on examples/jigsaw.jsonl, against CP-SAT: every answer valid, with its counters."""
    for path in (mixed_file(tmp_path, PY_VARIANTS), ROOT / "examples" / "jigsaw.jsonl"):
        out_path = tmp_path / "records.jsonl"
        code = compare.main([str(path), "--jobs", "1", "--output", str(out_path), "--command", spec,
                             "--solver", "py", "--solver", "cpsat", "--timeout", "60"])
        out, err = capsys.readouterr()
        assert code == 0, out + err
        records = [json.loads(line) for line in out_path.read_text().splitlines()]
        mine = [r for r in records if r["method"] == "py"]
        assert mine and all(r["status"] == "solved" and r["valid"] is True for r in mine)
        assert all(set(r["extra"]) == {"nodes", "guesses", "backtracks"} for r in mine)
        assert "OK: every answer valid, the methods agree" in out


@pytest.mark.slow
def test_the_c_example_reads_fpuzzles_json(c_solver, capsys, tmp_path):
    """examples/c/sudoku with input=fpuzzles: every variant solved and valid; on classic puzzles, the same
    counts as from their lines (the same search, whichever form the puzzle came in)."""
    out_path = tmp_path / "records.jsonl"
    code = compare.main([str(mixed_file(tmp_path)), str(ROOT / "examples" / "jigsaw.jsonl"), "--jobs", "1",
                         "--output", str(out_path), "--command", f"c:input=fpuzzles={c_solver}",
                         "--command", f"line={c_solver}", "--solver", "c", "--solver", "line", "--solver", "cpsat",
                         "--timeout", "20"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    by = {(r["method"], r["file"], r["line"]): r for r in records}
    mine = [r for r in records if r["method"] == "c"]
    assert len(mine) == 2 + len(VARIANTS) + 4 and all(r["valid"] is True for r in mine)
    for r in mine:
        line = by[("line", r["file"], r["line"])]
        if Grid.parse(r["puzzle"]).layout.is_classic:
            assert [r["extra"][k] for k in ("nodes", "guesses", "backtracks")] == \
                [line["extra"][k] for k in ("nodes", "guesses", "backtracks")]
        else:
            assert line["detail"].startswith("not run:")


@pytest.mark.slow
def test_the_octave_example_reads_fpuzzles_json(capsys, tmp_path):
    """examples/octave/sudoku_fpuzzles.m (jsondecode, then sudoku_solve in the puzzle's houses) on Jigsaws of
    5x5 to 9x9, an X, a disjoint and a 6x6 in rectangles, against CP-SAT; on a Killer, whose cages it does not
    read, it answers `unknown` (gave up) rather than solve another puzzle."""
    if not shutil.which("octave-cli"):
        pytest.skip("octave is not installed (apt-get install octave)")
    octave = f"octave-cli -q --no-init-file --path {ROOT / 'examples' / 'octave'} --eval"
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{p}\n" for p in (variants.X9, variants.DISJOINT9, variants.RECT6, variants.JIGSAW5,
                                               variants.JIGSAW7)))
    out_path = tmp_path / "r.jsonl"
    code = compare.main([str(path), str(ROOT / "examples" / "jigsaw.jsonl"), str(ROOT / "examples" / "killer.jsonl"),
                         "--output", str(out_path),
                         "--command", f"octave:input=fpuzzles={octave} 'sudoku_fpuzzles; exit'",
                         "--solver", "octave", "--solver", "cpsat", "--timeout", "120"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    mine = [r for r in records if r["method"] == "octave" and ";k=" not in r["puzzle"]]
    assert len(mine) == 9 and all(r["valid"] is True and counter(r, "nodes") > 0 for r in mine)
    killers = [r for r in records if ";k=" in r["puzzle"]]
    assert len(killers) == 8 and all(r["status"] == "gave_up" and r["detail"] == "incomplete"
                                     for r in killers if r["method"] == "octave")
    assert all(r["valid"] is True for r in killers if r["method"] == "cpsat")
    assert "OK: every answer valid" in out
