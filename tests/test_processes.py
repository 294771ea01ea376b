"""compare.py leaves no process behind: real signals on real runs of the misbehaving registry.

Every process of a run carries SUDOKU_RUN_MARK=<uuid> in its environment (forked
workers and their watchdogs share compare.py's, the methods' children inherit it);
after the run, /proc must show none of them alive, nor any child the forker started.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fixtures import MARK, PUZZLES, alive, all_pids, eventually, marked, signalled_child, stat_fields
from misbehaving import SLEEP, SOLVERS

import compare
from comparison.core.selected import Selected
from comparison.core.settings import Settings
from comparison.execution.pool import KeptPool, Pool
from comparison.run.batch import run_batch
from puzzles import Budget, Grid, Method, Outcome

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


# -- looking at processes -------------------------------------------------------------------------------
def in_group(pgid: int) -> list[int]:
    """The live processes of a process group."""
    return [pid for pid in all_pids() if (f := stat_fields(pid)) and f[2] == str(pgid) and alive(pid)]


# -- running compare.py ---------------------------------------------------------------------------------
@dataclass
class Run:
    process: subprocess.Popen
    mark: str
    pids_file: Path
    output: Path

    def grandchildren(self) -> list[int]:
        """The pids of the children the forker started."""
        return [int(line) for line in self.pids_file.read_text().split()] if self.pids_file.exists() else []

    def left(self) -> list[int]:
        return marked(self.mark) + [pid for pid in self.grandchildren() if alive(pid)]

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.output.read_text().splitlines()]


@pytest.fixture
def start(tmp_path):
    """Start compare.py on `count` puzzles with these solvers of the misbehaving registry; SIGKILL what is left."""
    runs: list[Run] = []

    def start_run(*solvers: str, count: int = 10, timeout: float = 0.2) -> Run:
        path = tmp_path / "puzzles.txt"
        path.write_text("\n".join(PUZZLES[:count]) + "\n")
        run = Run(None, uuid.uuid4().hex, tmp_path / "pids", tmp_path / "records.jsonl")  # type: ignore[arg-type]
        env = {**os.environ, MARK: run.mark, "MISBEHAVING_PIDS": str(run.pids_file),
               "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
        argv = [sys.executable, str(ROOT / "compare.py"), "--registry", "misbehaving",
                *[arg for name in solvers for arg in ("--solver", name)], str(path), "--timeout", str(timeout),
                "--jobs", "2", "--output", str(run.output)]
        run.process = signalled_child(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                      cwd=tmp_path)
        runs.append(run)
        return run

    yield start_run
    for run in runs:  # a failed test must not leave 600-second sleepers behind
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()
        for pid in run.left():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def forking_mid_run(run: Run) -> None:
    """Wait until a puzzle is recorded and the forker has a child alive: the run is well under way."""
    assert eventually(lambda: run.output.exists() and run.output.read_text().count("\n") >= 1
                      and any(alive(pid) for pid in run.grandchildren()), 120), "the run never got going"
    assert run.process.poll() is None, "the run ended too soon for the test"


def assert_nothing_left(run: Run) -> None:
    assert run.grandchildren(), "the forker never ran"
    assert eventually(lambda: not run.left()), f"processes left behind: {run.left()}"


def assert_well_formed(run: Run, finished: int) -> None:
    """The records already written are kept, whole, with every puzzle reported as finished among them."""
    records = run.records()
    assert records and all(r["method"] in ("forker", "good") for r in records)
    assert sum(r["verdict"] != "interrupted" for r in records) == 2 * finished


def finished_puzzles(out: str) -> int:
    summary = out.split("\n", 1)[1]  # after the first line, which says which build of the searches ran
    return int(summary.split(": ", 1)[1].split(" puzzle")[0])


# -- the cases ------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_mid_run_keeps_the_records_prints_the_summary_and_leaves_nothing(start, signum, status):
    run = start("forker", "good")
    forking_mid_run(run)
    run.process.send_signal(signum)
    out, err = run.process.communicate(timeout=30)
    assert run.process.returncode == status, out + err
    assert "(interrupted)" in out and "Traceback" not in err
    assert_well_formed(run, finished_puzzles(out))
    assert_nothing_left(run)


@pytest.mark.slow
def test_a_second_ctrl_c_ends_the_run_quietly(start):
    run = start("forker", "good")
    forking_mid_run(run)
    run.process.send_signal(signal.SIGINT)
    time.sleep(0.01)
    run.process.send_signal(signal.SIGINT)
    out, err = run.process.communicate(timeout=30)
    # 130, or ended by SIGINT itself: a second signal that lands while Python is finishing, after
    # the run returned, meets the default handler that Python's exit puts back (the test's 10 ms
    # can stretch that far on a loaded machine). A shell reports both as status 130.
    assert run.process.returncode in (130, -signal.SIGINT), out + err
    assert "Traceback" not in err
    assert run.records()  # whole lines: json.loads took every one
    assert_nothing_left(run)


AFTER_THE_RUN = """
import os, signal, sys
sys.path.insert(0, {root!r})
from comparison.execution.interrupts import stopped_by_signals

@stopped_by_signals
def run():
    os.kill(os.getpid(), signal.SIGINT)  # the first: the run stops, and reports
    return 0

status = run()
print("reported", status, flush=True)
os.kill(os.getpid(), signal.SIGINT)  # the second, once the run has returned: on the way out
print("not reached", flush=True)
sys.exit(status)
"""


def test_a_second_signal_after_the_run_returned_ends_it_quietly_too():
    # The race that a second Ctrl-C 10 ms after the first can lose on a loaded machine: the run
    # has already printed its summary and returned when the second one comes.
    done = subprocess.run([sys.executable, "-c", AFTER_THE_RUN.format(root=str(ROOT))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, done.stdout + done.stderr
    assert done.stdout == "reported 130\n"
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_sigkill_of_compare_ends_its_workers_and_their_children(start):
    run = start("forker", "good")
    forking_mid_run(run)
    assert len(marked(run.mark)) >= 5  # compare.py, and two workers with their watchdogs
    run.process.kill()
    run.process.communicate(timeout=30)
    assert_nothing_left(run)


def statuses_of_a_finished_run(run) -> list[str]:
    """The run waited for, its exit status (0, or 3 when a method crashed), and its records' statuses in order."""
    out, err = run.process.communicate(timeout=60)
    statuses = [r["status"] for r in run.records()]
    assert run.process.returncode == (3 if "error" in statuses else 0), out + err
    return statuses


@pytest.mark.slow
def test_a_forker_killed_on_overrun_takes_its_child_along(start):
    run = start("forker", "good", count=2)
    assert statuses_of_a_finished_run(run) == ["gave_up", "solved"] * 2
    assert len(run.grandchildren()) == 2
    assert_nothing_left(run)


@pytest.mark.slow
def test_a_normal_run_with_crashes_leaves_nothing(start):
    run = start("good", "exiter", count=3)
    assert statuses_of_a_finished_run(run) == ["solved", "error"] * 3
    assert eventually(lambda: not marked(run.mark)), f"processes left behind: {marked(run.mark)}"


# -- in this process: the pool, and a method that forks and then crashes --------------------------------
CHILDREN: Path | None = None  # where fork_then_exit writes its child's pid


def fork_then_exit(grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
    """Starts a child of its own, then ends the worker it runs in."""
    child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({SLEEP})"])
    assert CHILDREN is not None
    with open(CHILDREN, "a") as handle:
        handle.write(f"{child.pid}\n")
    os._exit(3)


def test_the_children_of_a_crashed_worker_go_with_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys.modules[__name__], "CHILDREN", tmp_path / "pids")
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(PUZZLES[:2]) + "\n")
    methods = {"good": SOLVERS["good"], "fork_then_exit": Method(fork_then_exit, "forks, then exits", {}, ())}
    try:
        assert compare.main([str(path), "--jobs", "2", "--output", str(tmp_path / "r.jsonl")], methods=methods) == 3
        children = [int(pid) for pid in (tmp_path / "pids").read_text().split()]
        assert len(children) == 2
        assert eventually(lambda: not any(alive(pid) for pid in children))
    finally:
        for pid in [int(p) for p in (tmp_path / "pids").read_text().split()] if (tmp_path / "pids").exists() else []:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_run_restores_the_signal_handlers_and_may_run_in_any_thread(tmp_path, capsys):
    path = tmp_path / "puzzles.txt"
    path.write_text(PUZZLES[0] + "\n")
    argv, methods = [str(path), "--jobs", "1"], {"good": SOLVERS["good"]}
    before = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
    assert compare.main(argv, methods=methods) == 0
    assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == before
    statuses: list[int] = []  # signal handlers can be set in the main thread only: elsewhere none is
    thread = threading.Thread(target=lambda: statuses.append(compare.main(argv, methods=methods)))
    thread.start()
    thread.join(timeout=60)
    assert statuses == [0]


# compare.py with a signal sent at its first fork, from the parent's side of it (os.register_at_fork: where a
# handler's exception would be ignored, as CPython ignores an at-fork callback's)
SIGNAL_AT_FORK = """
import os, signal, sys
import compare
sent = []
def at_fork():
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.{name})
os.register_at_fork(after_in_parent=at_fork)
sys.exit(compare.main([sys.argv[1], "--solver", "mrv", "--jobs", "1", "--output", sys.argv[2]]))
"""


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_that_comes_while_a_worker_is_forked_stops_the_run(tmp_path, signum, status):
    """Not lost in the fork: the worker is started with the signals held, and the run then stops on it."""
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(PUZZLES[:3]) + "\n")
    code = SIGNAL_AT_FORK.format(name=signal.Signals(signum).name)
    done = subprocess.run([sys.executable, "-c", code, str(path), str(tmp_path / "r.csv")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == status, done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr


# A process of its own: the subreaper it becomes takes in orphans for the rest of its life.
CHILDREN_SEEN = """
import json, os, subprocess, threading, time
from comparison.execution.processes import become_subreaper, by_parent, children
started = [subprocess.Popen(["sleep", "60"])]
listed, ran = threading.Event(), threading.Event()
def start_one():
    started.append(subprocess.Popen(["sleep", "60"]))
    ran.set()
    listed.wait()  # alive while the lists are read: its child is in its own
threading.Thread(target=start_one).start()
ran.wait()
gone = threading.Thread(target=lambda: started.append(subprocess.Popen(["sleep", "60"])))
gone.start()
gone.join()  # its child is now the process's, its thread gone
become_subreaper()
subprocess.run(["sh", "-c", "sleep 60 & exit 0"], check=True)  # the sleep, orphaned, comes here
deadline = time.monotonic() + 60
while len(by_parent(os.getpid())) < 4 and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps([sorted(children()), sorted(by_parent(os.getpid())), [p.pid for p in started]]))
listed.set()
for pid in by_parent(os.getpid()):
    os.kill(pid, 9)
"""


def test_the_children_are_those_whose_parent_this_process_is():
    """`children` reads the threads' lists of children: the same as every process's parent read in /proc, with a
    child of a thread still running, a child of a thread since gone and an orphan taken in as their subreaper."""
    out = subprocess.run([sys.executable, "-c", CHILDREN_SEEN], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True).stdout
    listed, by_parent, started = json.loads(out)
    assert len(listed) == 4 and listed == by_parent
    assert set(started) < set(listed)  # and the fourth is the orphan


def pool(jobs: int) -> Pool:
    return Pool(jobs, [Selected("good", SOLVERS["good"], {})], Budget(seconds=1), 2.0)


def test_pool_close_leaves_no_worker_nor_watchdog():
    workers = pool(2)
    groups = [w.process.pid for w in workers.workers]
    assert all(eventually(lambda g=g: len(in_group(g)) == 2) for g in groups)  # the worker and its watchdog
    workers.close()
    assert eventually(lambda: not any(in_group(g) for g in groups))


def test_a_failed_start_leaves_no_worker(monkeypatch):
    started: list[int] = []
    original = Pool._start

    def start_once(self: Pool) -> Any:
        if started:
            raise OSError("fork failed")
        worker = original(self)
        started.append(worker.process.pid)
        return worker

    monkeypatch.setattr(Pool, "_start", start_once)
    with pytest.raises(OSError, match="fork failed"):
        pool(2)
    assert eventually(lambda: not alive(started[0]) and not in_group(started[0]))


@pytest.mark.slow
def test_a_kept_pool_serves_the_batches_of_the_same_runs_and_goes_when_closed():
    """The fuzzer's shrink runs batch after batch of the same methods: one pool's workers serve them all, another
    set of methods gets workers of its own, and a batch cut short by its deadline leaves no pool kept."""
    grids = [Grid.parse(p) for p in PUZZLES[:3]]
    methods = {"good": SOLVERS["good"], "also": SOLVERS["good"]}
    kept = KeptPool()
    settings = Settings(methods=["good"], timeout=5, jobs=2)

    def workers() -> list[int]:
        assert kept.pool is not None
        return [w.process.pid for w in kept.pool.workers]

    def solved(judged: list[list[Any]]) -> list[bytes]:
        return [Grid.parse(runs[0].of("good").solution).values for runs in judged]

    first = run_batch(grids, settings, methods, certify=False, workers=kept)
    used = workers()
    again = run_batch(grids[::-1], settings, methods, certify=False, workers=kept)
    assert workers() == used  # the same processes, not forked again
    assert solved(again) == solved(first)[::-1]
    for grid, answer in zip(grids, solved(first), strict=True):  # each a solution of its puzzle, cell by cell
        assert all(a and g in (0, a) for g, a in zip(grid.values, answer, strict=True))
        assert not Grid(grid.layout, answer).conflicts()
    run_batch(grids, dataclasses.replace(settings, methods=["good", "also"]), methods, certify=False, workers=kept)
    other = workers()
    assert not set(other) & set(used)
    assert eventually(lambda: not any(in_group(g) for g in used))  # the first pool went as the second came
    run_batch(grids, settings, methods, certify=False, workers=kept, deadline=time.monotonic() - 1)
    assert kept.pool is None
    assert eventually(lambda: not any(in_group(g) for g in other))
    run_batch(grids, settings, methods, certify=False, workers=kept)
    last = workers()
    kept.close()
    assert kept.pool is None and eventually(lambda: not any(in_group(g) for g in last))
