"""One source, two builds (puzzles/kernels.py, setup.py): a stale compiled build is never used, the switch runs
everything interpreted, and both builds give the same outcomes, counter for counter."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from puzzles import kernels
from puzzles.data import collection, find
from tests import kernels_identity as identity
from tests.kernels_identity import PINNED, PUBLIC, cases, shard_of, spec_of

ROOT = Path(__file__).resolve().parents[1]
NOTE = "sudoku-search: running interpreted, stale: search/mrv.py changed since the build; rebuild with pip install -e ."


def fresh_build() -> bool:
    """A compiled build of the sources as they are (whatever this run was asked to use)."""
    return kernels.decide(environ={}).compiled


needs_build = pytest.mark.skipif(not fresh_build(), reason="no compiled build of these sources (pip install -e .)")


def without_switch(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (kernels.SWITCH, kernels.NOTED)}
    return {**env, **extra}


# -- deciding, on a made-up build -----------------------------------------------------------------------

def copy_sources(root: Path) -> None:
    for module in kernels.MODULES:
        source = kernels.source_of(module, root)
        source.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(kernels.source_of(module), source)


def fake_build(root: Path, record: dict[str, object] | None, extensions: bool = True) -> Path:
    """Empty files where the extensions go, and the manifest (the sources are in place)."""
    if extensions:
        for module in (*kernels.MODULES, f"{kernels.GROUP}__mypyc"):
            kernels.extension_of(module, root).touch()
    manifest = root / "kernels-manifest.json"
    if record is not None:
        manifest.write_text(json.dumps(record))
    return manifest


def test_without_a_build_or_with_a_failed_one_it_runs_interpreted(tmp_path):
    copy_sources(tmp_path)
    manifest = fake_build(tmp_path, None, extensions=False)
    assert kernels.decide({}, tmp_path, manifest) == kernels.Build("interpreted", "no compiled build")
    manifest = fake_build(tmp_path, kernels.failed("the C build failed (CompileError: command '/bin/false')"))
    status = kernels.decide({}, tmp_path, manifest)
    assert status.line() == ("kernels: interpreted (no compiled build: the C build failed "
                             "(CompileError: command '/bin/false'))")


def test_a_build_of_these_sources_runs_compiled_unless_switched_off(tmp_path):
    copy_sources(tmp_path)
    manifest = fake_build(tmp_path, kernels.manifest(tmp_path))
    assert kernels.decide({}, tmp_path, manifest).line() == "kernels: compiled (mypyc)"
    assert kernels.decide({"SUDOKU_SEARCH_COMPILED": "1"}, tmp_path, manifest).compiled
    switched = kernels.decide({"SUDOKU_SEARCH_COMPILED": "0"}, tmp_path, manifest)
    assert switched.line() == "kernels: interpreted (SUDOKU_SEARCH_COMPILED=0)"


def test_a_profile_guided_build_says_so_and_is_judged_as_any_other(tmp_path):
    """SUDOKU_SEARCH_GUIDED=1's build (setup.py) records that a profile guided it: the first line says so; the
    switch and a changed source make it interpreted as they make any build."""
    copy_sources(tmp_path)
    manifest = fake_build(tmp_path, kernels.manifest(tmp_path, guided=True))
    assert kernels.decide({}, tmp_path, manifest).line() == "kernels: compiled (mypyc, profile-guided)"
    assert not kernels.decide({"SUDOKU_SEARCH_COMPILED": "0"}, tmp_path, manifest).compiled
    edited = kernels.source_of("search.mrv", tmp_path)
    edited.write_text(edited.read_text() + "\n")
    assert kernels.decide({}, tmp_path, manifest).line().startswith("kernels: interpreted (stale: search/mrv.py")


def test_one_changed_byte_or_one_missing_extension_makes_it_all_interpreted(tmp_path):
    copy_sources(tmp_path)
    manifest = fake_build(tmp_path, kernels.manifest(tmp_path))
    learning = kernels.source_of("search.learning", tmp_path)
    learning.write_bytes(learning.read_bytes() + b"\n")
    assert kernels.decide({}, tmp_path, manifest).line() == (
        "kernels: interpreted (stale: search/learning.py changed since the build; rebuild with pip install -e .)")
    fake_build(tmp_path, kernels.manifest(tmp_path))  # rebuilt: compiled again
    assert kernels.decide({}, tmp_path, manifest).compiled
    kernels.extension_of("search.mrv", tmp_path).unlink()
    assert "mrv" in kernels.decide({}, tmp_path, manifest).why and not kernels.decide({}, tmp_path, manifest).compiled
    fake_build(tmp_path, {**kernels.manifest(tmp_path), "ext_suffix": ".cpython-39-x86_64-linux-gnu.so"})
    assert kernels.decide({}, tmp_path, manifest).why.startswith("no compiled build for this Python")


# -- a real copy of the build, edited -------------------------------------------------------------------

PROBE = """
import json, multiprocessing, sys
import search, search.mrv
from puzzles import Grid, kernels
from search import SOLVERS

def in_a_worker(queue):
    import search.mrv
    from puzzles import kernels
    queue.put(kernels.BUILD.line())

if __name__ == "__main__":
    queue = multiprocessing.get_context("spawn").Queue()
    worker = multiprocessing.get_context("spawn").Process(target=in_a_worker, args=(queue,))
    worker.start()
    worker_line = queue.get(timeout=60)
    worker.join()
    seed000 = Grid.parse("000702000100040007650000094470801062000000000580209013860000075900060008000908000")
    print(json.dumps({"line": kernels.BUILD.line(), "loaded": kernels.loaded(), "worker": worker_line,
                      "edit": getattr(search.mrv, "EDITED", None), "nodes": SOLVERS["mrv"](seed000).effort["nodes"],
                      "mrv": search.mrv.__file__}))
"""


def run_copy(copy: Path, **env: str) -> tuple[dict[str, object], str]:
    (copy / "probe.py").write_text(PROBE)
    done = subprocess.run([sys.executable, "probe.py"], cwd=copy, capture_output=True, text=True, timeout=120,
                          env=without_switch(PYTHONPATH=str(copy), **env))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


@pytest.fixture
def built_copy(tmp_path: Path) -> Path:
    """The packages with their compiled build and its manifest, copied elsewhere."""
    for package in ("puzzles", "search"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.slow
@needs_build
def test_an_edited_source_runs_interpreted_with_one_note(built_copy):
    as_built, quiet = run_copy(built_copy)
    assert as_built["line"] == as_built["worker"] == "kernels: compiled (mypyc)", quiet
    assert all(as_built["loaded"].values()) and len(as_built["loaded"]) == len(kernels.MODULES)
    assert str(as_built["mrv"]).startswith(str(built_copy)) and as_built["edit"] is None and quiet == ""

    mrv = built_copy / "search" / "mrv.py"
    mrv.write_text(mrv.read_text() + '\nEDITED = "the edited source runs"\n')
    edited, note = run_copy(built_copy)
    assert edited["edit"] == "the edited source runs"  # the .py ran, not the extension beside it
    assert edited["line"] == edited["worker"] == f"kernels: interpreted ({NOTE.split(', ', 1)[1]})"
    assert not any(edited["loaded"].values()) and len(edited["loaded"]) == len(kernels.MODULES)  # all or nothing
    assert note.splitlines() == [NOTE]  # once per run: the worker process stays quiet
    assert edited["nodes"] == as_built["nodes"] == 51


@needs_build
@pytest.mark.slow
def test_the_switch_runs_every_module_interpreted(built_copy):
    switched, quiet = run_copy(built_copy, SUDOKU_SEARCH_COMPILED="0")
    assert switched["line"] == switched["worker"] == "kernels: interpreted (SUDOKU_SEARCH_COMPILED=0)"
    assert not any(switched["loaded"].values()) and quiet == ""
    assert switched["nodes"] == 51


def test_ci_runs_the_compiled_build():
    """CI machines have a C compiler: a CI run that ended up interpreted is a broken build, not a fallback."""
    if os.environ.get("CI", "").lower() != "true":
        pytest.skip("not CI (CI=true): an interpreted run is allowed here")
    assert kernels.BUILD.compiled, kernels.BUILD.line()
    assert all(kernels.loaded().values())


def test_this_run_loads_what_its_status_says():
    import search  # noqa: F401  (every listed module)

    loaded = kernels.loaded()
    assert set(loaded) == set(kernels.MODULES)
    assert all(compiled is kernels.BUILD.compiled for compiled in loaded.values())


# -- the same outcomes from both ------------------------------------------------------------------------

# The runs in shards, each compared on its own: side by side on the suite's workers, the slowest test is a shard.
SHARDS = 2


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_compiled_and_interpreted_give_identical_outcomes(tmp_path, shard):
    """Every method, every option value, under node budgets: statuses, solutions, counters and info alike."""
    public = "public" if all(find(collection(name)) for name in PUBLIC) else ""
    sides = {}
    for name, switch in (("compiled", {}), ("interpreted", {kernels.SWITCH: "0"})):
        out = tmp_path / f"{name}.json"
        process = subprocess.Popen([sys.executable, str(ROOT / "tests" / "kernels_identity.py"), str(out), public,
                                    f"{shard}/{SHARDS}"],
                                   cwd=ROOT, env=without_switch(PYTHONPATH=str(ROOT), **switch),
                                   stderr=subprocess.PIPE, text=True)
        sides[name] = (process, out)
    results = {}
    for name, (process, out) in sides.items():
        _, err = process.communicate(timeout=900)
        assert process.returncode == 0, err
        results[name] = json.loads(out.read_text())
    compiled, interpreted = results["compiled"], results["interpreted"]
    assert compiled["kernels"] == "kernels: compiled (mypyc)" and all(compiled["loaded"].values())
    assert interpreted["kernels"] == "kernels: interpreted (SUDOKU_SEARCH_COMPILED=0)"
    assert not any(interpreted["loaded"].values())
    assert compiled["runs"].keys() == interpreted["runs"].keys()
    differ = [key for key, run in compiled["runs"].items() if run != interpreted["runs"][key]]
    assert not differ, (len(differ), differ[:5], [(compiled["runs"][k], interpreted["runs"][k]) for k in differ[:2]])
    assert len(compiled["runs"]) > (100 + (150 if public else 0)) // SHARDS
    mine = {c.key for c in shard_of(cases(bool(public)), f"{shard}/{SHARDS}")}
    assert mine == compiled["runs"].keys()
    for method, options, name, counter, value in PINNED:  # the pinned figures, in both builds, in their shard
        key = f"pinned {spec_of(method, options)} @ {name}"
        for side in (compiled, interpreted):
            run = side["runs"].get(key)
            assert (run is None) is (key not in mine), key
            assert run is None or (run["status"] == "solved" and run["effort"][counter] == value), (key, run)
    if not public:
        pytest.skip(f"compared on the seeds only: `sudoku-data fetch {' '.join(PUBLIC)}` adds the public collections")


def test_the_runs_compared_are_a_fresh_choice_among_the_full_sets():
    """The runs compared are chosen from the full set (tests/kernels_identity.py choose): the choice names only runs
    the full set makes, and it is fresh (every method spec and every puzzle in it); a method gaining an option, or
    the set a puzzle, asks for the choice to be made again (until then, what it has not seen runs whole)."""
    public = all(find(collection(name)) for name in PUBLIC)
    chosen = identity.chosen_keys()
    every = {case.key for case in identity.every_case(public)}
    names = {name for name, _grid, _nodes in identity.puzzles(public)}
    specs = {key: identity.spec_and_puzzle(key)[0] for key in every | chosen}
    assert {key for key in chosen if identity.spec_and_puzzle(key)[1] in names} <= every
    assert {specs[key] for key in every} == {specs[key] for key in chosen}, \
        "make the choice again: SUDOKU_SEARCH_COMPILED=0 python tests/kernels_identity.py choose"
    if public:
        assert names == {identity.spec_and_puzzle(key)[1] for key in chosen}
        assert len(cases(True)) == len(chosen) < len(every) / 3


def test_the_shards_make_every_case_once_the_pinned_figures_included():
    every = cases(False)
    shards = [shard_of(every, f"{i}/{SHARDS}") for i in range(SHARDS)]
    assert sorted(c.key for s in shards for c in s) == sorted(c.key for c in every)
    assert {c.key for c in every} >= {f"pinned {spec_of(m, o)} @ {n}" for m, o, n, _c, _v in PINNED}
