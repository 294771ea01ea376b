"""Fault injection: compare.py against misbehaving solvers, careless command lines and failing devices.

Each test asserts the outcome a user sees: the exit status, the records written, the report's
lines, and that the user's files are untouched. The misbehaving solvers are tests/misbehaving.py.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures import SEED000, SEED001, SEED001_UNSAT, SEED002_MULTI, RefusingWrites
from hostile import AMBIGUOUS_AS_LINES, EXPECTED, make_hostile_files

import compare
from comparison.records import format as records
from comparison.run import comparison as comparison_run
from puzzles import Grid

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def puzzle_file(folder: Path, *lines: str, name: str = "p.txt") -> Path:
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys, *argv: object) -> tuple[int, str, str]:
    """compare.py in this process, with the project's registries and the misbehaving one."""
    code = compare.main([str(a) for a in argv] + ["--registry", "misbehaving"])
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_method(path: Path) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for record in jsonl(path):
        found.setdefault(record["method"], []).append(record)
    return found


# -- nothing lost, nothing destroyed ----------------------------------------------------------------
@pytest.mark.parametrize("how", ["same path", "symbolic link", "hard link", "relative name"])
def test_an_output_that_is_an_input_is_refused_before_anything_runs(tmp_path, capsys, monkeypatch, how):
    path = puzzle_file(tmp_path, SEED000, SEED001)
    before = path.read_bytes()
    output = {"same path": path, "symbolic link": tmp_path / "link.csv", "hard link": tmp_path / "hard.csv",
              "relative name": Path("sub/../p.txt")}[how]
    if how == "symbolic link":
        output.symlink_to(path)
    elif how == "hard link":
        os.link(path, output)
    elif how == "relative name":
        (tmp_path / "sub").mkdir()
        monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, path, "--solver", "sleeper", "--output", output, "--format", "csv")
    assert code == 2 and out == ""
    assert f"--output {output}: that is the input {path}; writing it would destroy it" in err
    assert path.read_bytes() == before


def test_an_output_that_is_standard_input_is_refused(tmp_path):
    path = puzzle_file(tmp_path, SEED000)
    before = path.read_bytes()
    with path.open("rb") as stdin:
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "-", "--solver", "mrv",
                               "--output", str(path), "--format", "jsonl"],
                              stdin=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "that is the input standard input" in done.stderr
    assert path.read_bytes() == before


def test_the_plot_may_not_be_an_input_nor_the_records(tmp_path, capsys):
    path = puzzle_file(tmp_path, SEED000, name="p.png")
    code, _, err = run(capsys, path, "--solver", "good", "--plot", path)
    assert code == 2 and "--plot" in err and "that is the input" in err
    records_path = tmp_path / "r.png"
    code, _, err = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", "good", "--output", records_path,
                       "--format", "csv", "--plot", records_path)
    assert code == 2 and "--output and --plot name the same file" in err


@pytest.mark.parametrize("option, value, message", [
    ("--plot", "nofolder/p.png", "--plot nofolder/p.png: no folder nofolder"),
    ("--plot", "p.txt", "--plot p.txt: name a .png, .pdf, .svg, .jpg, .jpeg file"),
    ("--output", "nofolder/r.csv", "--output nofolder/r.csv: no folder nofolder"),
    ("--output", ".", "--output .: is a folder"),
])
def test_output_paths_are_checked_before_the_run(tmp_path, capsys, monkeypatch, option, value, message):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    path = puzzle_file(tmp_path, SEED000)
    # sleeper would hold the run for a second and more: an answer this quick means nothing ran
    formats = ["--format", "csv"] if option == "--output" else []
    code, out, err = run(capsys, path, "--solver", "sleeper", "--timeout", "5", option, value, *formats)
    assert code == 2 and out == "" and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]


def test_a_run_that_found_only_bad_entries_is_not_ok(tmp_path, capsys):
    path = puzzle_file(tmp_path, "12345", SEED000.replace("0", "7", 1))
    code, out, err = run(capsys, path, "--solver", "good")
    assert code == 2
    report = out.split("\n", 1)[1]  # after the kernels line (whose SUDOKU_SEARCH_COMPILED holds an "OK")
    assert "Bad entries (skipped): 2" in report and "Nothing compared" in report and "OK" not in report
    assert "the input held only bad entries (2); nothing was compared" in err


def test_a_run_with_no_puzzle_at_all_is_not_ok(tmp_path, capsys):
    path = puzzle_file(tmp_path, "# only a comment")
    code, out, err = run(capsys, path, "--solver", "good")
    assert code == 2 and "OK" not in out.split("\n", 1)[-1] and "the input held no puzzle at all" in err


def test_a_full_disk_stops_the_run_keeps_what_was_written_and_still_reports(tmp_path, capsys, monkeypatch):
    lines = [SEED000, SEED001] * 10
    path = puzzle_file(tmp_path, *lines)
    out_path = tmp_path / "r.jsonl"
    real_open = open

    def cramped_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return RefusingWrites(handle, 3000) if str(file) == str(out_path) else handle

    monkeypatch.setattr(records, "open", cramped_open, raising=False)
    code, out, err = run(capsys, path, "--solver", "good", "--jobs", 1, "--output", out_path)
    assert code == 2
    assert f"writing {out_path} failed (No space left on device)" in err and "the run stopped there" in err
    kept = jsonl(out_path)  # every line kept is a whole record
    assert 0 < len(kept) < len(lines)
    assert f"the {len(kept)} records written before it are kept" in err
    assert "Methods: outcomes and time per puzzle" in out  # the summary is still printed


def test_a_failing_device_is_a_clear_error(tmp_path, capsys):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    path = puzzle_file(tmp_path, SEED000, SEED001)
    code, out, err = run(capsys, path, "--solver", "good", "--output", "/dev/full", "--format", "csv")
    assert code == 2 and "writing /dev/full failed (No space left on device)" in err
    assert "Traceback" not in err and "Puzzles:" in out


# -- every claim checked ------------------------------------------------------------------------------
def test_a_lone_unsatisfiable_claim_is_certified_and_refuted(tmp_path, capsys):
    out_path = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", "false_unsat", "--output", out_path)
    assert code == 1
    [record] = jsonl(out_path)
    assert record["verdict"] == "disagreement" and record["disagrees"] is True
    assert "false_unsat said unsatisfiable (cpsat, certifying, said unique)" in record["note"]
    assert "FAILED" in out


def test_a_true_lone_unsatisfiable_claim_is_certified_and_stands(tmp_path, capsys):
    code, out, _ = run(capsys, puzzle_file(tmp_path, SEED001_UNSAT), "--solver", "mrv")
    assert code == 0 and "Claims certified by cpsat: 1" in out and "1 unsatisfiable" in out


def test_two_methods_that_agree_on_unsatisfiable_need_no_certificate(tmp_path, capsys):
    code, out, _ = run(capsys, puzzle_file(tmp_path, SEED001_UNSAT), "--solver", "mrv", "--solver", "backtracking")
    assert code == 0 and "certified" not in out and "unchecked" not in out


def test_a_lone_uniqueness_claim_is_certified_and_refuted(tmp_path, capsys):
    out_path = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, puzzle_file(tmp_path, SEED002_MULTI), "--solver", "false_unique", "--solutions", 2,
                     "--output", out_path)
    assert code == 1
    [record] = jsonl(out_path)
    assert record["verdict"] == "disagreement" and record["unique"] is True
    assert "false_unique said unique (cpsat, certifying, said not unique)" in record["note"]


def test_a_run_with_one_method_alone_is_checked_too(tmp_path, capsys):
    code, out, _ = run(capsys, puzzle_file(tmp_path, SEED000, SEED001), "--solver", "mrv", "--solutions", 2)
    assert code == 0 and "Claims certified by cpsat: 2" in out


def test_certification_off_says_what_went_unchecked(tmp_path, capsys):
    code, out, _ = run(capsys, puzzle_file(tmp_path, SEED002_MULTI, SEED001_UNSAT), "--solver", "false_unique",
                       "--solutions", 2, "--no-certify")
    assert code == 0  # nothing refuted what nothing checked ...
    # ... and it says so: SEED002_MULTI's uniqueness claim and SEED001_UNSAT's no-solution claim
    assert "Claims unchecked: 2" in out and "certification is off (--no-certify)" in out
    assert "certified by" not in out


# -- what a solver returns is checked in the worker ------------------------------------------------------
@pytest.mark.parametrize("method, status, detail", [
    ("raiser", "error", "raised RuntimeError: boom"),
    ("garbage", "error", "returned 'solved!', not an Outcome"),
    ("huge_counter", "error", "bad effort counters: nodes=1e+30 is beyond 64 bits"),
    ("nan_counter", "error", "bad effort counters: nodes=nan is not a whole number"),
    ("fraction_counter", "error", "bad effort counters: nodes=2.5 is not a whole number"),
    ("exiter", "error", "the worker died (exit status 3)"),
    ("sleeper", "gave_up", "time (killed)"),
])
@pytest.mark.slow
def test_a_misbehaving_solver_is_its_own_error_record_and_the_run_goes_on(tmp_path, capsys, method, status,
                                                                          detail):
    out_path = tmp_path / "r.jsonl"
    code, out, err = run(capsys, puzzle_file(tmp_path, SEED000, SEED001), "--solver", method, "--solver", "good",
                         "--timeout", "1", "--output", out_path)
    # an error record fails the run with its own status and the verdict says how many; giving up does not
    assert code == (3 if status == "error" else 0), out + err
    assert ("FAILED: 2 error records" in out) is (status == "error")
    found = by_method(out_path)
    assert [(r["status"], r["detail"]) for r in found[method]] == [(status, detail)] * 2
    for record in found["good"]:
        puzzle = Grid.parse({1: SEED000, 2: SEED001}[record["line"]])
        assert record["valid"] is True and puzzle.solution_problems(Grid.parse(record["solution"])) == []
    assert "Traceback" not in err


def test_a_solution_of_the_wrong_type_is_an_invalid_answer(tmp_path, capsys):
    out_path = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", "text_solution", "--output", out_path)
    assert code == 1
    [record] = jsonl(out_path)
    assert record["valid"] is False and record["problems"] == "solved, but returned str, not a Grid"


def test_a_solver_that_changes_its_grid_changes_nothing_else(tmp_path, capsys):
    out_path = tmp_path / "r.jsonl"
    code, _, _ = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", "mutator", "--solver", "good",
                     "--jobs", 1, "--output", out_path)
    found = by_method(out_path)
    # mutator solved a blank grid: checked against the puzzle it was given, its answer breaks the givens
    assert code == 1 and found["mutator"][0]["valid"] is False
    assert "given" in found["mutator"][0]["problems"]
    # good ran next in the same worker, on the real puzzle
    good = found["good"][0]
    assert good["valid"] is True and Grid.parse(SEED000).solution_problems(Grid.parse(good["solution"])) == []


@pytest.mark.slow
def test_a_solver_that_prints_does_not_garble_the_report(tmp_path):
    path = puzzle_file(tmp_path, SEED000, SEED001)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), str(path), "--registry", "misbehaving",
                           "--solver", "printer", "--solver", "good"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "solving..." not in done.stdout and "progress: 50%" not in done.stdout
    kernels, summary = done.stdout.splitlines()[:2]  # first, which build of the searches runs
    assert kernels.startswith("kernels: ") and summary.startswith(f"{path}: 2 puzzles x 2 methods")
    assert "OK: every answer valid" in done.stdout


# -- every bad input a clear message -----------------------------------------------------------------------
@pytest.mark.parametrize("spec, nodes, message", [
    ("sat:solver=glucose4", "100", "solver=glucose4 does not keep to a conflict budget"),
    ("sat:solver=lingeling", None, "solver=lingeling cannot be stopped by a budget"),
    ("mip:backend=highs", "100", "the highs backend takes no node limit through pywraplp"),
    ("mip:backend=cbc,presolve=off", None, "the cbc backend takes no presolve switch"),
])
def test_a_budget_or_options_a_backend_cannot_keep_are_refused_up_front(tmp_path, capsys, spec, nodes, message):
    argv = [puzzle_file(tmp_path, SEED000), "--solver", spec] + (["--nodes", nodes] if nodes else [])
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize("spec", ["cpsat", "sat", "sat:solver=minisat22", "mip", "python-constraint", "mrv"])
def test_budgets_beyond_a_backends_range_are_mapped_into_it(tmp_path, capsys, spec):
    out_path = tmp_path / "r.jsonl"
    code, out, err = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", spec, "--timeout", "1e300",
                         "--nodes", str(10**30), "--output", out_path)
    assert code == 0, out + err
    [record] = jsonl(out_path)
    assert record["status"] == "solved" and record["valid"] is True
    assert "Traceback" not in err


def test_jobs_beyond_the_cores_or_the_work_are_capped_with_a_note(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(comparison_run, "usable_cores", lambda: 2)
    code, out, err = run(capsys, puzzle_file(tmp_path, SEED000, SEED001), "--solver", "good", "--jobs", 64)
    assert code == 0
    assert "compare.py: note: --jobs 64: this process may use 2 cores, so 2 workers run" in err
    assert "2 workers" in out.splitlines()[1]  # (after the kernels line)
    code, out, err = run(capsys, puzzle_file(tmp_path, SEED000), "--solver", "good", "--jobs", 2)
    assert "compare.py: note: --jobs 2: only 1 run to do, so 1 worker" in err
    assert "1 worker (" in out.splitlines()[1]


@pytest.mark.parametrize("source, message", [
    ("import sys\nsys.exit(3)\n", "cannot import it (SystemExit: 3)"),
    ("raise RuntimeError('half-written')\n", "cannot import it (RuntimeError: half-written)"),
    ("SOLVERS = {'mine': print}\n", "SOLVERS['mine'] is a builtin_function_or_method, not a puzzles.Method"),
    ("SOLVERS = {3: None}\n", "SOLVERS key 3 is not a method name"),
    ("SOLVERS = ['mine']\n", "it has no SOLVERS dict"),
])
def test_a_broken_registry_module_is_a_usage_error_naming_it(tmp_path, capsys, monkeypatch, source, message):
    name = f"broken_registry_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    code = compare.main([str(puzzle_file(tmp_path, SEED000)), "--registry", name])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == f"compare.py: error: --registry {name}: {message}" or message in err
    assert f"--registry {name}" in err and "Traceback" not in err


# -- hostile files, end to end ------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_every_hostile_file_gives_its_entries_its_bad_entries_or_one_clear_error(tmp_path, capsys, key):
    path = make_hostile_files(tmp_path)[key]
    expected = EXPECTED[key]
    out_path = tmp_path / "r.jsonl"
    code, out, err = run(capsys, path, "--solver", "good", "--output", out_path)
    assert "Traceback" not in err
    if expected.error is not None:  # refused before any run: nothing written, one line saying why
        assert code == 2 and out == ""
        assert err == f"compare.py: error: {expected.error.replace('FILE', str(path))}\n"
        return
    written = jsonl(out_path)
    bad = [(r["line"], r["detail"]) for r in written if r["status"] == "bad_entry"]
    solved = sorted((r["line"], r["solution"]) for r in written if r["status"] != "bad_entry")
    assert bad == list(expected.bad)
    assert [line for line, _ in solved] == [line for line, _, _ in expected.entries]
    for (_, solution), (_, puzzle, _) in zip(solved, expected.entries, strict=True):
        assert Grid.parse(puzzle).solution_problems(Grid.parse(solution)) == []
    assert code == (0 if expected.entries else 2)
    if expected.note:
        assert f"compare.py: note: {expected.note.replace('FILE', str(path))}" in err


def test_the_ambiguous_layout_is_read_as_lines_when_asked(tmp_path, capsys):
    path = make_hostile_files(tmp_path)["ambiguous_16"]
    out_path = tmp_path / "r.jsonl"
    code, _, err = run(capsys, path, "--solver", "good", "--input-format", "line", "--output", out_path)
    assert code == 0 and "note" not in err
    lines = sorted(r["line"] for r in jsonl(out_path))
    assert lines == [line for line, _, _ in AMBIGUOUS_AS_LINES.entries]


@pytest.mark.slow
@pytest.mark.parametrize("key", ["cr_only", "crlf", "mixed_endings", "bom_csv", "utf16_le"])
def test_a_hostile_file_gives_the_same_records_from_standard_input(tmp_path, key):
    path = make_hostile_files(tmp_path)[key]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}

    def records(*argv: str, stdin=None) -> list[tuple]:
        out_path = tmp_path / "r.jsonl"
        subprocess.run([sys.executable, str(ROOT / "compare.py"), *argv, "--solver", "mrv", "--output",
                        str(out_path)], stdin=stdin, capture_output=True, timeout=120, env=env, check=True)
        return sorted((r["line"], r["status"], r["solution"] or "") for r in jsonl(out_path))  # as they finished

    with path.open("rb") as stdin:
        piped = records("-", stdin=stdin)
    assert piped == records(str(path))
    assert sum(status != "bad_entry" for _, status, _ in piped) == EXPECTED[key].count
