"""compare.py --fuzz: solvers with planted bugs (tests/planted.py) are found within a fixed number of puzzles, and
each failing puzzle is shrunk to a 1-minimal one that reproduces the failure through compare.py itself."""
from __future__ import annotations

import dataclasses
import itertools
import random
import shlex
import subprocess
import sys
from pathlib import Path

import planted
import pytest

import compare
from comparison.core.errors import UsageError
from comparison.execution.result import RunResult
from comparison.judging.judge import OWN_FAILURES, failure_of
from comparison.programs.fuzz import parse_duration, trusted_label
from making.kinds import KINDS, without_constraints
from making.shrink import relabelled, remove_clues, shrink, smallest_forms
from making.variants import variant
from puzzles import Grid, Status, classic
from puzzles.formats import read_puzzles
from puzzles.layouts import layout


def failures(path) -> list[tuple[str, str, Grid]]:
    """(method, class, puzzle) of each failure the fuzzer wrote, from its comment and the line after it."""
    lines = path.read_text().splitlines()
    found = []
    for comment, line in itertools.pairwise(lines):
        if comment.startswith("# ") and not line.startswith("#"):
            method, _, rest = comment[2:].partition(": ")
            found.append((method, rest.split(" (")[0], Grid.parse(line.split()[0])))
    return found


def fewer(grid: Grid) -> list[Grid]:
    out = []
    for cell, value in enumerate(grid.values):
        if value:
            values = bytearray(grid.values)
            values[cell] = 0
            out.append(grid.with_values(bytes(values)))
    return out


def run_compare(tmp_path, name: str, grids: list[Grid], method: str) -> int:
    path = tmp_path / name
    path.write_text("".join(f"{g.text()}\n" for g in grids))  # a variant's houses written after its symbols
    return compare.main([str(path), "--registry", "planted", "--solver", method, "--solver", "cpsat", "--jobs", "1"])


@pytest.mark.slow
@pytest.mark.parametrize("methods, sizes, limit, expected", [
    # on 4x4 (the same run on 4x4 and 9x9, shrunk alike, is the guide's shown block fuzz-planted)
    (["corrupt", "liar"], ["--box", "2"], 7, {("corrupt", "invalid answer"), ("liar", "false unsat")}),
    (["crasher"], ["--box", "2", "--box", "3"], 8, {("crasher", "error")}),
    (["blind-regions"], ["--variant", "jigsaw@6"], 21, {("blind-regions", "invalid answer")}),
    (["blind-diagonal"], ["--variant", "x@6"], 14, {("blind-diagonal", "invalid answer")}),
])
def test_planted_bugs_are_found_and_shrunk_to_a_1_minimal_puzzle_that_reproduces(tmp_path, capsys, methods, sizes,
                                                                                   limit, expected):
    out = tmp_path / "failures.txt"
    # one worker: what is found and how it shrinks is the same with more (a fuzz run's own workers are
    # tests/test_fuzz_probe.py's; a crash among two, tests/test_processes.py's), and each batch forks one worker less
    argv = ["--fuzz", "--limit", str(limit), "--registry", "planted", "--seed", "1", "--jobs", "1",
            "--timeout", "5", "--output", str(out), *sizes]
    for method in methods:
        argv += ["--solver", method]
    assert compare.main(argv) == 1
    report = capsys.readouterr().out
    assert f"FAILED: {len(expected)} distinct failure" in report and f"in {limit} puzzles" in report
    found = failures(out)
    assert {(m, c) for m, c, _ in found} == expected
    assert list(read_puzzles(out))  # a puzzle file compare.py reads, comments and all
    for method, kind, grid in found:
        given = {(c // grid.side, v) for c, v in enumerate(grid.values) if v}  # (row, value) of each clue
        if method == "corrupt":  # exactly the condition: a 2 in the first row and a 3 in the last
            assert given == {(0, 2), (grid.side - 1, 3)}
        elif method == "liar":  # exactly the first and the last cells
            assert [c for c, v in enumerate(grid.values) if v] == [0, grid.side**2 - 1]
        elif method.startswith("blind"):  # the variant kept, and its answer wrong only in the houses ignored
            ignored = ("region 1", "region 2") if method == "blind-regions" else ("diagonal -",)
            assert grid.layout.variant == ("jigsaw" if method == "blind-regions" else "x") and grid.side == 6
            answer = planted.SOLVERS[method](grid).solution
            problems = grid.solution_problems(answer)
            assert problems and all(p.endswith(ignored) for p in problems)
        else:
            assert grid.box == 3 and not any(grid.values)
        # it reproduces through compare.py (1: invalid or a disagreement; 3: an error record) ...
        assert run_compare(tmp_path, "one.txt", [grid], method) == (3 if kind == "error" else 1)
        # ... and is 1-minimal: with any one clue less, every answer is valid and the methods agree
        if any(grid.values):
            assert run_compare(tmp_path, "fewer.txt", fewer(grid), method) == 0
    comments = [line for line in out.read_text().splitlines() if line.startswith("# ") and ": " in line]
    assert any("cpsat:solutions=2 (trusted) says:" in line for line in comments)


DROPPED = ["thermometer@6", "antiknight@6", "difference@6", "ratio@6", "xv@6", "odd@6", "even@6", "palindrome@6",
           "minimum@6", "whispers@6", "renban@6", "arrow@6", "quadruple@6", "littlekiller@6", "columnindexer@6",
           "regionsumline@6", "nabner@6", "zipperline@6", "doublearrow@6", "betweenline@6", "lockout@6", "sandwich@6",
           "xsum@6", "skyscraper@6", "difference+negative@6", "slowthermometer@6", "clone@6", "maximum@6",
           "modularline@6", "entropicline@6", "pencilmarks@6", "rowindexer@6", "boxindexer@6", "antiking@6",
           "nonconsecutive@6"]


@pytest.mark.slow
@pytest.mark.parametrize("size", DROPPED)
def test_a_solver_that_drops_the_constraints_is_found_shrunk_and_reproduced(tmp_path, capsys, monkeypatch, size):
    """Rule-minimal puzzles (unique with their constraints, several solutions without) among the kinds made; the
    planted solver that drops the constraints answers with a grid that breaks them, shrunk to the few clues and
    constraints that still show it; the Reproduce line fails again. For the first kind the line runs as written, in
    a shell (a second Python, a second import of everything: a second of CPU); for the others its arguments run here,
    in compare.main: what differs from kind to kind is the failures file and the arguments the line gives, not the
    shell (which tests/test_fuzz_probe.py also runs, with a --registry module from outside the repository). Eight
    puzzles are one of each kind the fuzzer makes, the one rule-minimal puzzle among them (each kind's seed-1 round
    finds its failure there)."""
    out = tmp_path / "failures.txt"
    argv = ["--fuzz", "--limit", "8", "--variant", size, "--registry", "planted", "--solver", "blind-constraints",
            "--seed", "1", "--jobs", "1", "--timeout", "5", "--output", str(out)]
    assert compare.main(argv) == 1
    report = capsys.readouterr().out
    assert "│ rule-minimal " in report and "FAILED: 1 distinct failure in 8 puzzles" in report
    [(method, kind, grid)] = failures(out)
    assert (method, kind) == ("blind-constraints", "invalid answer") and grid.layout.constraints
    answer = planted.SOLVERS[method](grid).solution
    assert grid.solution_problems(answer) and Grid(without_constraints(grid.layout), grid.values).solution_problems(
        answer) == []  # wrong by the constraints alone
    # 1-minimal: any clue, or any constraint, taken away and the planted solver is right
    lay = grid.layout
    smaller = [*fewer(grid), *(Grid(layout(lay.side, lay.regions, lay.extras,
                                           [c for c in lay.constraints if c != dropped]), grid.values)
                               for dropped in lay.constraints)]
    assert run_compare(tmp_path, "smaller.txt", smaller, method) == 0
    [line] = [line[len("# Reproduce: "):] for line in out.read_text().splitlines() if line.startswith("# Reproduce")]
    capsys.readouterr()
    if size == DROPPED[0]:
        rerun = subprocess.run(line.replace(" python ", f" {shlex.quote(sys.executable)} ", 1), shell=True,
                               capture_output=True, text=True, check=False)
        assert rerun.returncode == 1 and "invalid answer" in rerun.stdout
    else:
        words = shlex.split(line)
        assert words[:3] == [f"PYTHONPATH={Path(planted.__file__).parent}", "python", "compare.py"], line
        assert compare.main(words[3:]) == 1 and "invalid answer" in capsys.readouterr().out


def test_the_fuzzer_over_a_right_method_finds_nothing(tmp_path, capsys):
    out = tmp_path / "none.txt"
    assert compare.main(["--fuzz", "--limit", "7", "--solver", "mrv:propagate=singles", "--box", "2", "--jobs", "1",
                         "--output", str(out)]) == 0
    report = capsys.readouterr().out
    assert "OK: no failure in 7 puzzles" in report
    for kind in ("unique", "several", "unsat", "near-empty", "nearly-full", "minimal", "hard"):
        assert kind in report
    assert failures(out) == []


def test_delta_debugging_reaches_a_1_minimal_puzzle():
    """A failure that needs three given clues (any values) among many: ddmin keeps exactly those three."""
    rng = random.Random(4)
    needed = {3, 40, 77}
    grid = Grid(classic(3), bytes(rng.randint(1, 9) if rng.random() < 0.7 or c in needed else 0 for c in range(81)))
    tested: list[int] = []

    def fails(grids):
        tested.append(len(grids))
        return [all(g.values[c] for c in needed) for g in grids]
    small = remove_clues(grid, fails)
    assert [c for c, v in enumerate(small.values) if v] == sorted(needed)
    assert sum(tested) < 81 * 3  # halves first: far fewer tests than one clue at a time, repeatedly
    assert shrink(grid, fails).values.count(0) == 78


def test_the_smallest_form_relabels_and_moves_clues_first():
    grid = Grid.parse("...." "...." "..4." "...2")
    assert relabelled(grid).line()[:16] == "...." "...." "..1." "...2"
    forms = smallest_forms(grid)
    assert forms[0].values[0] == 1  # a clue moved to the first cell, numbered 1
    assert all(sorted(f.values) == sorted(relabelled(grid).values) for f in forms)


def test_failure_classes_and_durations():
    """The judge's failure class of one run (comparison/judging/judge.py), which the fuzzer hunts."""
    def run(status: Status = Status.SOLVED, **fields: object) -> RunResult:
        return RunResult(0, 0, status, **fields)  # type: ignore[arg-type]
    assert failure_of(run(solution="1"), disagrees=False) is None
    assert failure_of(run(solution="1", problems=["two 1s in row 1"]), disagrees=False) == "invalid answer"
    assert failure_of(run(Status.UNSATISFIABLE), disagrees=True) == "false unsat"
    assert failure_of(run(solution="1", unique=True), disagrees=True) == "false unique"
    assert failure_of(run(solution="1", unique=False), disagrees=True) == "false not-unique"
    assert failure_of(run(solution="1"), disagrees=True) == "disagreement"
    assert failure_of(run(Status.ERROR, detail="crashed"), disagrees=False) == "error"
    assert failure_of(run(Status.GAVE_UP, detail="time (killed)"), disagrees=False) == "budget overrun"
    assert failure_of(run(Status.GAVE_UP, detail="time"), disagrees=False) is None
    # the classes a run has by itself are its class whatever the others say: the shrink checks them on it alone
    own = [run(solution="1", problems=["two 1s in row 1"]), run(Status.ERROR, detail="crashed"),
           run(Status.GAVE_UP, detail="time (killed)")]
    assert {failure_of(r, disagrees=True) for r in own} == {failure_of(r, disagrees=False) for r in own} \
        == OWN_FAILURES
    assert [parse_duration(t) for t in ("90", "90s", "5m", "1.5h")] == [90, 90, 300, 5400]
    with pytest.raises(ValueError):
        parse_duration("soon")
    assert trusted_label("cpsat") == "cpsat:solutions=2"
    assert trusted_label("sat:solver=cadical195,solutions=1") == "sat:solver=cadical195,solutions=2"


def test_a_shrink_checks_a_failure_of_the_run_itself_on_that_run_alone(monkeypatch, capsys):
    """An invalid answer is checked without the trusted method and the certifier (their answers change nothing),
    a false unsat with them; each check says the same as a whole run would."""
    import comparison.programs.fuzz as fuzz
    asked: list[tuple[list[str], bool]] = []

    def recording(grids, settings, *args, **kwargs):
        asked.append((list(settings.methods), kwargs.get("certify", True)))
        return run_batch(grids, settings, *args, **kwargs)
    run_batch = fuzz.run_batch
    monkeypatch.setattr(fuzz, "run_batch", recording)
    settings = fuzz.FuzzSettings(duration=None, limit=1, output=None, methods=("corrupt", "liar"), command=(),
                                 registry=("planted",), timeout=5, nodes=None, solutions=1, jobs=2, seed=1,
                                 against="cpsat", variants=(), boxes=(2,)).settings
    fuzzer = fuzz.Fuzzer(settings, "cpsat:solutions=2", [variant("classic", 4)], random.Random(1))
    try:
        corrupted, liar = Grid.parse("2.............3."), Grid.parse("1..............2")
        right = Grid.parse("...............1")
        assert fuzzer.fails("corrupt", "invalid answer")([corrupted, right]) == [True, False]
        assert fuzzer.fails("liar", "false unsat")([liar, right]) == [True, False]
        assert asked == [(["corrupt"], False), (["liar", "cpsat:solutions=2"], True)]
        assert fuzzer.fails("corrupt", "invalid answer")([corrupted]) == [True]  # one run, fewer than --jobs 2
        assert capsys.readouterr().err == ""  # a batch made in memory caps its workers quietly
        [whole] = fuzzer.run([corrupted], ["corrupt"])  # the whole run's word, trusted method and certifier
        assert whole is not None and whole.failure("corrupt") == "invalid answer"
    finally:
        fuzzer.workers.close()


def test_fuzz_usage_errors(capsys):
    assert compare.main(["--fuzz"]) == 2
    assert "--fuzz needs a DURATION" in capsys.readouterr().err
    assert compare.main(["--fuzz", "soon"]) == 2
    assert compare.main(["--fuzz", "1m", "--against", "nosuch"]) == 2
    assert "unknown method 'nosuch'" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1m", "--resume", "--output", "x.txt"]) == 2
    assert "--resume is not for a fuzz run" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1m", "--output", "x.csv"]) == 2
    assert "name it .txt" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1m", "--variant", "hyper"]) == 2
    assert "--variant hyper: unknown variant 'hyper'" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1m", "--variant", "windoku@16"]) == 2
    assert "--variant windoku@16: windoku's extra regions are defined on 9x9 grids" in capsys.readouterr().err
    assert compare.main(["--fuzz", "1m", "--variant", "jigsaw@six"]) == 2
    assert "the side after @ is a number" in capsys.readouterr().err


def test_a_fuzz_runs_settings_are_read_once_each_of_its_own_type():
    """compare.py turns --fuzz's flags into one typed record (FuzzSettings): the duration in seconds, each variant
    a Variant, once; the output named as given; a Python caller building it gets the command line's refusals."""
    args = compare.build_parser().parse_args(["--fuzz", "5m", "--variant", "jigsaw@6", "--variant", "x",
                                              "--variant", "jigsaw@6", "--box", "2", "--output", "./f.txt"])
    asked = compare.fuzz_settings(args)
    assert asked.duration == 300 and asked.limit is None and asked.output == "./f.txt"
    assert asked.variants == (variant("jigsaw", 6), variant("x", 9))
    assert asked.sizes == [variant("classic", 4), variant("jigsaw", 6), variant("x", 9)]
    assert asked.settings.methods is None and asked.settings.timeout == 10.0
    with pytest.raises(UsageError, match="--fuzz needs a DURATION"):
        dataclasses.replace(asked, duration=None)
    with pytest.raises(UsageError, match=r"name it \.txt"):
        dataclasses.replace(asked, output="f.jsonl")
    alone = compare.fuzz_settings(compare.build_parser().parse_args(["--fuzz", "--limit", "3"]))
    assert alone.duration is None and [size.label for size in alone.sizes] == ["4x4", "9x9", "16x16"]


@pytest.mark.parametrize("argv, refusal", [
    (["--box", "3"], "--box is for a fuzz run (--fuzz)"),
    (["--against", "sat", "--box", "2"], "--against, --box is for a fuzz run (--fuzz)"),
    (["--ladder", "--solver", "mrv", "--solutions", "2"], "--ladder runs its own rungs (one solution, a node budget of "
     "1), so it takes no --solver, --solutions"),
    (["--ladder", "--box", "2"], "so it takes no --box"),
    (["--variant", "x"], "--variant is for a fuzz run (--fuzz)"),
    (["--fuzz", "1m", "puzzles/seeds.txt", "--isomorphs", "2"], "FILE, --isomorphs is not for a fuzz run"),
])
def test_each_program_refuses_the_flags_it_has_no_use_for(capsys, argv, refusal):
    """One table (commands/flags.py) says which of compare.py's flags a run, --ladder and --fuzz take."""
    assert compare.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and refusal in err


def test_without_output_each_shrunk_failure_is_printed(capsys):
    """Found, shrunk and shown: the lines --output would hold, and the kernels line first, as every run."""
    argv = ["--fuzz", "--limit", "14", "--registry", "planted", "--seed", "4", "--jobs", "1", "--box", "2",
            "--solver", "liar", "--solver", "mrv"]
    assert compare.main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("kernels: ")
    shown = out[out.index("Failing puzzles (--output FILE.txt keeps them):") + 1:]
    tests = shlex.quote(str(Path(planted.__file__).resolve().parent))  # outside the working folder: PYTHONPATH
    assert shown[1] == f"# Reproduce: PYTHONPATH={tests} python compare.py FILE.txt --registry planted --solver liar " \
                       "--solver cpsat --timeout 10"
    assert shown[2].startswith("# liar: false unsat (it said unsatisfiable); cpsat:solutions=2 (trusted) says:")
    puzzle, name = shown[3].split()
    assert name == "fuzz-1-liar-false-unsat"
    grid = Grid.parse(puzzle)
    assert [c for c, v in enumerate(grid.values) if v] == [0, 15]  # exactly the liar's condition: first and last


def test_ignoring_one_region_alone_never_shows():
    """The rows and the other regions leave the last region every value: a solver blind to one region is right
    (the reason the planted bug ignores two)."""
    one = planted.blind(lambda geo: {2 * geo.side})
    made = variant("jigsaw", 6)
    rng = random.Random(5)
    for kind in ("near-empty", "several", "unique"):
        for _ in range(4):
            grid = KINDS[kind].make(made.layout(rng), rng)
            answer = one(grid).solution
            assert answer is not None and grid.solution_problems(answer) == []


@pytest.mark.slow
def test_a_method_that_keeps_giving_up_on_a_kind_at_a_size_is_cut_back_there(capsys):
    """quitter gives up on every 9x9 puzzle: after three in a row on a kind it is no longer run on that kind (two
    of each kind a round: cut on each in the second round, not run in the third), mrv still is."""
    argv = ["--fuzz", "--limit", "42", "--registry", "planted", "--seed", "1", "--jobs", "1", "--box", "3",
            "--solver", "quitter", "--solver", "mrv"]
    assert compare.main(argv) == 0
    report = capsys.readouterr().out
    kinds = "unique, several, unsat, near-empty, nearly-full, minimal, hard"
    assert f"quitter: cut back at 9x9 on {kinds} puzzles after 3 give-ups in a row on each, not run on the 14 " \
           "made since" in report
    assert "mrv: cut back" not in report and "OK: no failure in 42 puzzles" in report
    rows = {line.split("│")[1].strip(): line for line in report.splitlines() if line.startswith("│")}
    assert "per minute" in rows  # the puzzles per minute at each size
    # alone, once it is cut on every kind no more puzzles are made: the run stops after two rounds
    assert compare.main(argv[:-2]) == 0
    report = capsys.readouterr().out
    assert f"9x9: no more {kinds} puzzles made once every method under test was cut back on them" in report
    assert "the run stops here" in report and "OK: no failure in 28 puzzles" in report
