"""What a newcomer's probe of the fuzzer found (issue 42) and Ctrl-C swallowed by CP-SAT (issue 43, item 8): a fuzz
run keeps its duration whatever the methods' budgets, its Reproduce line reproduces, an interrupted run says so,
every CP-SAT solver leaves SIGINT to Python, restart says when its cap of restarts was the reason, and the counts
of the fuzzer and the reports agree with their nouns."""
from __future__ import annotations

import os
import random
import re
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
from fixtures import eventually, interrupted, signalled_child

import compare
from commands import data as data_command
from commands import generate
from comparison.core.settings import Settings
from comparison.programs import fuzz
from comparison.programs.fuzz import Failure, Fuzzer, failure_lines
from comparison.report.terminal import gave_up_text, verdict_words
from making.certify import repeating_other, solutions
from making.kinds import KILLER_KINDS
from making.variants import variant
from puzzles import Grid, Status

ROOT = Path(__file__).resolve().parent.parent
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

# A --registry module of a method that sleeps on every 9x9 puzzle, keeping its budget (it sleeps no longer than
# it), and is right on the others.
SLEEPY = '''
import time
from puzzles import Budget, GaveUp, Method, Outcome, Status
from search import SOLVERS as SEARCH

SLEEP = {sleep}


def sleepy(grid, budget=Budget(), solutions=1, **options):
    if grid.side == 9:
        time.sleep(min(SLEEP, budget.seconds or SLEEP))
        return Outcome(Status.GAVE_UP, effort={{"nodes": 0}}, detail=GaveUp.TIME.value)
    return SEARCH["mrv"](grid, budget, solutions=solutions, propagate="singles")


SOLVERS = {{"sleepy": Method(sleepy, "sleeps on 9x9 puzzles, within its budget", counters=SEARCH["mrv"].counters)}}
'''

# A --registry module of a method wrong only under a small node budget: it claims "no solution" when its budget
# is 300 nodes or fewer, and is right otherwise (so a rerun without the budget finds nothing).
BUDGETED = '''
from puzzles import Budget, Method, Outcome, Status
from search import SOLVERS as SEARCH


def budget_liar(grid, budget=Budget(), solutions=1, **options):
    if budget.nodes is not None and budget.nodes <= 300:
        return Outcome(Status.UNSATISFIABLE, effort={"nodes": 1})
    return SEARCH["mrv"](grid, budget, solutions=solutions, propagate="singles")


SOLVERS = {"budget-liar": Method(budget_liar, "claims no solution under a node budget of 300 or fewer",
                                 counters=SEARCH["mrv"].counters)}
'''


def session_processes(session: int) -> list[int]:
    """The processes left in a session (Linux's /proc): a worker, a watchdog, a method's child."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[3]) == session:  # after the command: state, ppid, pgrp, session
            found.append(int(stat.parent.name))
    return found


# -- A: a fuzz run keeps its duration --------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes left from /proc (Linux)")
def test_a_fuzz_run_ends_at_its_duration_whatever_the_methods_budgets(tmp_path):
    """--fuzz 3s with a method that sleeps 600 s on each 9x9 puzzle within its budget of 900 s: the round in flight
    is cut short at the duration, its runs stopped, no process left. The bound is the duration plus a minute for
    starting up on a loaded machine; a run that waited for its rounds (the old clock) would take 600 s."""
    duration, sleep = 3, 600
    (tmp_path / "sleepy.py").write_text(SLEEPY.format(sleep=sleep))
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "compare.py"), "--fuzz", f"{duration}s", "--registry", "sleepy", "--solver",
         "sleepy", "--box", "2", "--box", "3", "--timeout", "900", "--jobs", "2", "--seed", "1"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        out, err = process.communicate(timeout=duration + 60)
    finally:
        if process.poll() is None:  # the old behaviour: stop it and everything it started
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert time.monotonic() - started < duration + 60 < sleep
    assert process.returncode == 0, out + err
    assert "The time was up: the runs of the last" in out and "were stopped, not counted" in out
    assert re.search(r"OK: no failure in \d+ puzzles? \(\d+ s\)", out), out
    assert "Traceback" not in err
    # the workers' watchdogs end with their groups, just after the parent
    assert eventually(lambda: not session_processes(process.pid)), session_processes(process.pid)


def test_a_round_cut_short_keeps_the_puzzles_judged_and_drops_the_rest(monkeypatch):
    """The puzzles whose runs the deadline stopped are not counted as tried, nor judged; those judged are."""
    made = [variant("classic", 4), variant("classic", 9)]
    fuzzer = Fuzzer(Settings(methods=["mrv"]), "cpsat:solutions=2", made, random.Random(1))
    real_run = Fuzzer.run

    def run(self, grids, labels):  # the 9x9 puzzles' runs stopped by the deadline, the 4x4 ones judged
        judged = real_run(self, [g for g in grids if g.side == 4], labels)
        return [judged.pop(0) if g.side == 4 else None for g in grids]
    monkeypatch.setattr(Fuzzer, "run", run)
    fuzzer.round(14)  # seven kinds at each size
    assert sum(count for (_, size), count in fuzzer.tried.items() if size.side == 4) == 7
    assert sum(count for (_, size), count in fuzzer.tried.items() if size.side == 9) == 0
    assert fuzzer.unjudged == 7 and fuzzer.puzzles == 7


# -- B: the Reproduce line reproduces ---------------------------------------------------------------------------

@pytest.mark.slow
def test_the_reproduce_line_reproduces_a_failure_found_under_a_node_budget(tmp_path):
    """A method wrong only under --nodes 300, from a --registry module outside the repository: the line the fuzzer
    prints carries the budget and the module's folder, and run as it is (no PYTHONPATH of ours) it fails the same
    way; without its --nodes it would print OK."""
    (tmp_path / "budgeted.py").write_text(BUDGETED)
    failures = tmp_path / "failures.txt"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # `python`: this one
    found = subprocess.run([sys.executable, "compare.py", "--fuzz", "--limit", "7", "--registry", "budgeted",
                            "--solver", "budget-liar", "--nodes", "300", "--box", "2", "--seed", "1", "--jobs", "2",
                            "--output", str(failures)], cwd=ROOT, capture_output=True, text=True,
                           env={**env, "PYTHONPATH": str(tmp_path)})
    assert found.returncode == 1, found.stdout + found.stderr
    [line] = [line.removeprefix("# Reproduce: ") for line in failures.read_text().splitlines()
              if line.startswith("# Reproduce: ")]
    assert line.startswith(f"PYTHONPATH={shlex.quote(str(tmp_path))} python compare.py {failures} ")
    assert " --nodes 300" in line and " --solver budget-liar --solver cpsat " in line
    rerun = subprocess.run(["bash", "-c", line], cwd=ROOT, capture_output=True, text=True, env=env)
    assert rerun.returncode == 1, rerun.stdout + rerun.stderr
    assert "Disagreements" in rerun.stdout and "OK" not in rerun.stdout
    assert "budget-liar" in rerun.stdout and "Traceback" not in rerun.stderr
    without = subprocess.run(["bash", "-c", line.replace(" --nodes 300", "")], cwd=ROOT, capture_output=True,
                             text=True, env=env)
    assert without.returncode == 0 and "OK: every answer valid" in without.stdout  # what the old line did


def test_the_reproduce_line_names_the_failing_methods_budgets_and_solutions():
    rerun = fuzz.Rerun(["mine"], ["prog=./prog --fast", "other=./other"], "sat:solver=cadical195", 2.5, 300, 2,
                       ["/some where"])
    line = rerun.line("out dir/failures.txt", ["prog", "mrv:propagate=singles"])
    assert line == ("PYTHONPATH='/some where' python compare.py 'out dir/failures.txt' --registry mine "
                    "--command 'prog=./prog --fast' --solver prog --solver mrv:propagate=singles "
                    "--solver sat:solver=cadical195 --timeout 2.5 --nodes 300 --solutions 2")
    assert fuzz.import_folder("pytest") is None  # installed: found without PYTHONPATH
    import planted  # noqa: F401  (imported from the tests' folder, as pytest puts it on sys.path)

    assert fuzz.import_folder("planted") == str(ROOT / "tests")  # beside the tests: PYTHONPATH needs it


# -- C and D: Ctrl-C ----------------------------------------------------------------------------------------

def test_an_interrupted_fuzz_run_says_so_and_how_many_puzzles_it_tried(capsys, monkeypatch):
    rounds = []
    real_round = Fuzzer.round

    def round_then_ctrl_c(self, count):
        if rounds:
            raise KeyboardInterrupt
        rounds.append(count)
        real_round(self, count)
    monkeypatch.setattr(Fuzzer, "round", round_then_ctrl_c)
    assert compare.main(["--fuzz", "--limit", "28", "--solver", "mrv:propagate=singles", "--box", "2",
                         "--jobs", "1"]) == 130
    out = capsys.readouterr().out
    assert re.search(r"Interrupted after 14 puzzles \(\d+ s\): no failure found so far", out), out
    assert "OK" not in out


@pytest.mark.slow
def test_ctrl_c_stops_a_fuzz_run_with_its_summary(tmp_path):
    """SIGINT once a failure was found (the line that says so is the cue, not a sleep): exit 130, the summary of
    what was tried, the failure shown."""
    process = signalled_child([sys.executable, "compare.py", "--fuzz", "10m", "--registry", "tests.planted",
                               "--solver", "liar", "--box", "2", "--jobs", "1", "--seed", "4"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def found() -> bool:  # the cue: the line that says a failure was found
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("found liar: false unsat"):
                return True
        return False
    rest, err = interrupted(process, found)
    out = "".join(lines) + rest
    assert process.returncode == 130, out + err
    assert re.search(r"Interrupted after [1-9][\d,]* puzzles? \(\d+ s\): 1 distinct failure found so far", out), out
    assert "# liar: false unsat" in out and "Traceback" not in err


def test_every_cp_sat_solver_leaves_sigint_to_python(monkeypatch):
    """CP-SAT catches SIGINT by default and returns UNKNOWN, which making/certify.py's repeating_other took for a
    time-out: a Ctrl-C in the fuzzer's process swallowed. Each solve, the formulation's and the certifier's, runs
    with catch_sigint_signal off."""
    from ortools.sat.python import cp_model

    import formulations

    seen: list[bool] = []
    real_solve = cp_model.CpSolver.solve

    def solve(self, *args, **kwargs):
        seen.append(self.parameters.catch_sigint_signal)
        return real_solve(self, *args, **kwargs)
    monkeypatch.setattr(cp_model.CpSolver, "solve", solve)
    assert formulations.SOLVERS["cpsat"](Grid.parse(TOP95_FIRST), solutions=2).status is Status.SOLVED
    rng = random.Random(1)
    killer = KILLER_KINDS["killer"].make(variant("killer", 4).layout(rng), rng)
    repeating_other(killer, solutions(killer, 1)[0])
    assert len(seen) >= 3 and not any(seen)
    # and no CP-SAT solver is made elsewhere than by cpsat.cp_solver, in the modules compare.py's process runs
    for folder in ("formulations", "making", "comparison", "puzzles", "search", "commands"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "CpSolver()" in text:
                assert path == ROOT / "formulations" / "cpsat.py" and text.count("CpSolver()") == 1, path


# -- E: restart's cap ---------------------------------------------------------------------------------------

def test_restart_says_when_its_cap_of_restarts_was_the_reason(tmp_path, capsys):
    import search

    out = search.SOLVERS["restart"](Grid.parse(TOP95_FIRST), max_restarts=0)  # solvable: the cap alone stops it
    assert out.status is Status.GAVE_UP and out.detail == "max_restarts"
    assert gave_up_text(Counter({"gave_up": 2, "gave_up_max_restarts": 1, "gave_up_time": 1})) == \
        "2 (1 time, 1 max_restarts)"  # a reason of its own in the report's "gave up (why)" column
    path = tmp_path / "one.txt"
    path.write_text(TOP95_FIRST + "\n")
    assert compare.main([str(path), "--solver", "restart:max_restarts=0", "--solver", "mrv", "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert "1 (1 max_restarts)" in report and "restart:max_restarts=0 (max_restarts)" in report


# -- F: words -----------------------------------------------------------------------------------------------

def test_counts_agree_with_their_nouns():
    one = Grid.parse("1" + "." * 15)
    failure = Failure("liar", "false unsat", one, one, "unique", "it said unsatisfiable", "a unique solution")
    assert failure.shrunk() == "shrunk to 1 clue (from 1)"
    cut = Failure("liar", "false unsat", one, one, "unique", "", "", minimal=False)
    assert cut.shrunk() == "shrunk to 1 clue (from 1), not 1-minimal: the time was up"
    fuzzer = Fuzzer(Settings(methods=["liar"]), "cpsat:solutions=2", [variant("classic", 4)],
                    random.Random(1), failures=[failure])
    rerun = fuzz.Rerun([], [], "cpsat", 10.0, None, 1)
    lines = failure_lines(fuzzer, rerun, "f.txt")
    assert lines[0] == "# compare.py --fuzz: 1 distinct failure, each shrunk to a 1-minimal puzzle."
    assert lines[2].endswith("found on a unique puzzle of 1 clue")
    assert verdict_words(Counter({"agree": 1, "disagreement": 3})) == "1 agree, 3 disagreements"
    assert verdict_words(Counter({"disagreement": 1, "unsolved": 2})) == "1 disagreement, 2 unsolved"


def test_sudoku_data_list_prints_no_markdown(capsys):
    assert data_command.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "Project Euler" in out and "`" not in out


def test_generate_help_names_killer_among_the_variants(capsys):
    try:
        generate.main(["--help"])
    except SystemExit:
        pass
    help_text = " ".join(capsys.readouterr().out.split())
    variant_help = help_text[help_text.index("--variant NAME a variant"):help_text.index("--count COUNT how")]
    assert "killer" in variant_help, textwrap.shorten(variant_help, 200)
