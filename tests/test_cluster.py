"""compare.py on a real Dask cluster on 127.0.0.1: a local one (--cluster local:2), and a scheduler and a worker
started with Dask's own commands. The records are those of the local pool; a hanging solver is killed on the
Dask worker; a Dask worker killed in mid-run costs no puzzle; nothing is left behind in /proc."""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures import MARK, PUZZLES, alive, all_pids, eventually, json_of, lines_in, marked, signalled_child, stat_fields

import compare

ROOT = Path(__file__).resolve().parents[1]
needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="needs the cluster extra (dask[distributed])")
linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
NINE = [p for p in PUZZLES if len(p) == 81]  # seeds.txt's 9x9 puzzles: unique, multiple and no solution


def environment(mark: str) -> dict[str, str]:
    return {**os.environ, MARK: mark, "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}


def compare_py(tmp_path: Path, mark: str, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(ROOT / "compare.py"), *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment(mark), cwd=tmp_path)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_run(rows: list[dict]) -> dict[tuple, dict]:
    keyed = {(r["file"], r["line"], r["isomorph"], r["method"]): r for r in rows}
    assert len(keyed) == len(rows), "a run recorded twice"
    return keyed


def kill_left(mark: str) -> None:
    for pid in marked(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(NINE) + "\n")
    return path


# the one test here that starts no cluster and tries to reach none: every other one is marked cluster and slow
def test_without_the_extra_cluster_is_a_usage_error_saying_what_to_install(puzzle_file, capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else real(name, *a))
    assert compare.main([str(puzzle_file), "--cluster", "local:2"]) == 2
    assert "--cluster needs Dask distributed: pip install 'sudoku-search[cluster]'" in capsys.readouterr().err


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@pytest.mark.parametrize("argv, message", [
    (["--cluster", "local:0"], "say local:N with N worker processes"),
    (["--cluster", "local:2", "--jobs", "2"], "--jobs is for the local pool"),
    (["--cluster", "tcp://127.0.0.1:1"], "cannot reach the scheduler"),
])
def test_a_bad_cluster_is_a_usage_error(puzzle_file, capsys, argv, message, monkeypatch):
    monkeypatch.setattr("comparison.execution.cluster.CONNECT_SECONDS", 1)
    assert compare.main([str(puzzle_file), "--solver", "mrv", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@linux
def test_a_local_cluster_gives_the_records_of_the_local_pool_and_leaves_nothing(tmp_path, puzzle_file):
    solvers = ["--solver", "mrv", "--solver", "mrv:propagate=singles", "--solver", "astar", "--solver", "sat"]
    runs = {}
    mark = uuid.uuid4().hex
    try:
        for name, how in (("pool", ["--jobs", "2"]), ("cluster", ["--cluster", "local:2"])):
            output = tmp_path / f"{name}.jsonl"
            process = compare_py(tmp_path, mark, str(puzzle_file), *solvers, *how, "--solutions", "2",
                                 "--output", str(output))
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, out + err
            runs[name] = by_run(records(output))
            if name == "cluster":
                # the first line wraps where its file's name puts it (a longer tmp_path under pytest-xdist)
                assert "2 workers on the Dask cluster local:2" in " ".join(out.split())
        assert eventually(lambda: not marked(mark)), f"processes left behind: {marked(mark)}"
    finally:
        kill_left(mark)
    pool, cluster = runs["pool"], runs["cluster"]
    assert pool.keys() == cluster.keys()
    assert sum(r["status"] != "bad_entry" for r in pool.values()) == 4 * (len(NINE) - 1)  # one is a bad entry
    assert {r["verdict"] for r in pool.values()} >= {"agree", "multiple_solutions", "unsatisfiable"}
    for key, record in pool.items():
        other = cluster[key]
        for field in ("status", "solution", "unique", "valid", "verdict", "disagrees"):
            assert other[field] == record[field], (key, field)
        if key[3] != "sat":  # the hand-written searches are deterministic: their counters and rules too
            for counter in ("nodes", "guesses", "backtracks", "info"):
                assert other[counter] == record[counter], (key, counter)
        else:  # the Outcome's info travels with the result: the model's size
            assert (other["info"]["variables"], other["info"]["clauses"]) == (
                record["info"]["variables"], record["info"]["clauses"]), key


def dask_worker_pids(parent: int) -> list[int]:
    """The Dask worker processes that a local cluster in `parent` forked: its only children (the methods run
    in children of theirs)."""
    found = []
    for pid in all_pids():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == parent and alive(pid):
            found.append(pid)
    return found


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@linux
def test_a_dask_worker_killed_mid_run_costs_no_puzzle(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(NINE * 4) + "\n")
    output = tmp_path / "records.jsonl"
    mark = uuid.uuid4().hex
    try:
        process = compare_py(tmp_path, mark, str(path), "--registry", "misbehaving", "--solver", "dawdler",
                             "--solver", "good", "--cluster", "local:2", "--output", str(output))
        assert eventually(lambda: lines_in(output) >= 2, 120), "never got going"
        workers = dask_worker_pids(process.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, out + err
        rows = records(output)
        assert len(by_run(rows)) == 2 * 4 * (len(NINE) - 1) + 4  # each method once on every puzzle; bad entries
        assert all(r["status"] != "error" for r in rows)
        assert eventually(lambda: not marked(mark)), f"processes left behind: {marked(mark)}"
    finally:
        kill_left(mark)


@pytest.fixture
def scheduler_and_worker(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`dask scheduler` and `dask worker` as processes of their own; their address and mark."""
    mark = uuid.uuid4().hex
    info = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": environment(mark)}
    scheduler = signalled_child([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                 "--scheduler-file", str(info)], **quiet)  # ended by SIGTERM
    worker = None
    try:
        address = json_of(info)["address"]  # once the scheduler has written its file whole
        worker = signalled_child([*dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                  "--host", "127.0.0.1"], **quiet)
        yield address, mark
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        assert eventually(lambda: not marked(mark)), f"processes left behind: {marked(mark)}"
        kill_left(mark)


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@linux
def test_a_hanging_solver_is_killed_on_a_dask_worker_and_the_run_goes_on(tmp_path, scheduler_and_worker):
    address, mark = scheduler_and_worker
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(NINE[:2]) + "\n")
    output = tmp_path / "records.jsonl"
    process = compare_py(tmp_path, mark, str(path), "--registry", "misbehaving", "--solver", "sleeper",
                         "--solver", "good", "--timeout", "1", "--cluster", address, "--output", str(output))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, out + err
    assert "on the Dask cluster" in out
    rows = records(output)
    assert [(r["method"], r["status"], r["detail"]) for r in rows] == [
        ("sleeper", "gave_up", "time (killed)"), ("good", "solved", "")] * 2
    # The Dask worker lives on, and nothing of the run with it: the processes that ran the sleepers (each leads
    # a process group of its own, with its watchdog) are gone; Dask's own are in this test's group.
    assert eventually(lambda: not outside_my_group(marked(mark))), outside_my_group(marked(mark))


def outside_my_group(pids: list[int]) -> list[int]:
    return [pid for pid in pids if (fields := stat_fields(pid)) is not None and fields[2] != str(os.getpgrp())]


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@linux
def test_a_scheduler_with_no_worker_is_a_usage_error_not_a_wait(tmp_path):
    mark = uuid.uuid4().hex
    info = tmp_path / "scheduler.json"
    scheduler = signalled_child([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                 "--no-dashboard", "--scheduler-file", str(info)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=environment(mark))  # ended by SIGTERM
    try:
        address = json_of(info)["address"]  # once the scheduler has written its file whole
        path = tmp_path / "puzzles.txt"
        path.write_text(NINE[0] + "\n")
        process = compare_py(tmp_path, mark, str(path), "--solver", "mrv", "--cluster", address)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 2, out + err
        assert "has no worker" in err and f"dask worker {address}" in err and "Traceback" not in err, out + err
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=20)
    assert eventually(lambda: not marked(mark)), f"processes left behind: {marked(mark)}"


@pytest.mark.cluster
@pytest.mark.slow
@needs_dask
@linux
def test_a_local_cluster_freezes_what_lives_for_the_run_and_thaws_it_at_the_end():
    import gc

    from comparison.execution.cluster import Cluster
    from puzzles import Budget

    before = gc.get_freeze_count()
    cluster = Cluster("local:1", [], Budget(), 10.0)
    try:
        assert gc.get_freeze_count() > before  # the scheduler's and client's state, out of the collector's sight
        frozen = cluster.client.run(gc.get_freeze_count)
        assert len(frozen) == 1 and all(count > 0 for count in frozen.values())  # the forked worker's inheritance
    finally:
        cluster.close()
    assert gc.get_freeze_count() == 0  # the collector's again once the run is over
