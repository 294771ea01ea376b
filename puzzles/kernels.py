"""Compiled or interpreted: which build of the searches this run uses, decided before any of it loads.

The hot modules (`MODULES`) are plain typed Python; `pip install -e .` also compiles them with mypyc
(setup.py) into C extensions that sit beside their sources, and records in `MANIFEST` the sha256 of
each source it compiled. Python would load such an extension in preference to its .py, so this module,
imported first by the packages' `__init__`, decides once per run which build may load:

- compiled:    every extension is there and each source is byte for byte the one it was built from;
- interpreted: SUDOKU_SEARCH_COMPILED=0 is set (for profiling, the trace, a debugger), or there is no
               compiled build (the install could not compile), or a source changed since the build
               (an edit, a git pull): then every listed module runs from its .py, with a one-line note.

All or nothing: modules compiled together call each other natively, so one stale module makes the whole
set run interpreted. Hashes, not modification times: a fresh clone gives every file a new mtime.
Standard library only: setup.py reads `MODULES` and `manifest()` from this file before anything is installed.
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Literal

# What mypyc compiles: the searches and the engines they run on, and the watch protocol they call. Not the
# trace (it watches the search from outside), not comparison/ or formulations/ (they wait on processes and
# solvers, not on Python), not the __init__ files (this module must run before any compiled one loads).
MODULES = (
    "puzzles.bits", "puzzles.layouts", "puzzles.grid", "puzzles.candidates", "puzzles.cellmasks",
    "search.engine", "search.rules", "search.inference", "search.depth_first", "search.weighted",
    "search.backtracking", "search.mrv", "search.restart", "search.astar", "search.learning",
)
GROUP = "puzzles.compiled"  # the shared library the compiled modules live in: puzzles/compiled__mypyc.*.so
ROOT = Path(__file__).resolve().parent.parent  # where the packages sit
MANIFEST = Path(__file__).resolve().parent / "kernels-manifest.json"  # written by setup.py's build
SWITCH = "SUDOKU_SEARCH_COMPILED"  # 0: run every module interpreted
REBUILD = "pip install -e ."
NOTED = "SUDOKU_SEARCH_KERNELS_NOTED"  # set once the note is printed: worker processes inherit it


@dataclass(frozen=True)
class Build:
    """Which build this run uses, and why (the reason is what compare.py prints after the mode)."""

    mode: Literal["compiled", "interpreted"]
    # "mypyc", "mypyc, profile-guided", "SUDOKU_SEARCH_COMPILED=0", "no compiled build", "stale: ... changed since
    # the build; ..."
    why: str

    @property
    def compiled(self) -> bool:
        return self.mode == "compiled"

    def line(self) -> str:
        """What compare.py prints first: `kernels: compiled (mypyc)`."""
        return f"kernels: {self.mode} ({self.why})"


def source_of(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def relative(module: str) -> str:
    """The source's path as the manifest and the notes name it: search/learning.py."""
    return "/".join(module.split(".")) + ".py"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(root: Path, modules: Sequence[str] = MODULES, guided: bool = False) -> dict[str, object]:
    """What setup.py records after a build that compiled every module: each source's sha256, the extension
    suffix it was built for, and whether a training's profile guided the compiler (SUDOKU_SEARCH_GUIDED=1)."""
    return {"built": True, "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0], "guided": guided,
            "sources": {relative(module): digest(source_of(module, root)) for module in modules}}


def failed(why: str) -> dict[str, object]:
    """What setup.py records when it could not compile: the install goes on, interpreted."""
    return {"built": False, "why": why}


def extension_of(module: str, root: Path = ROOT) -> Path:
    """Where this Python looks for the module's compiled build: search/mrv.cpython-311-x86_64-linux-gnu.so."""
    return root.joinpath(*module.split(".")).with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0])


def decide(environ: Mapping[str, str] = os.environ, root: Path = ROOT, recorded: Path = MANIFEST) -> Build:
    """Compiled, only when allowed, built for this Python, and built from the sources as they are now."""
    if environ.get(SWITCH, "").strip() == "0":
        return Build("interpreted", f"{SWITCH}=0")
    try:
        record = json.loads(recorded.read_text())
    except (OSError, ValueError):
        return Build("interpreted", "no compiled build")
    if not isinstance(record, dict) or not record.get("built"):
        why = record.get("why") if isinstance(record, dict) else None
        return Build("interpreted", f"no compiled build: {why}" if why else "no compiled build")
    sources = record.get("sources")
    if not isinstance(sources, dict) or record.get("ext_suffix") != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return Build("interpreted", f"no compiled build for this Python; build one with {REBUILD}")
    for module in (*MODULES, f"{GROUP}__mypyc"):
        if not extension_of(module, root).is_file():
            return Build("interpreted", f"no compiled build: {extension_of(module, root).name} is missing; "
                          f"rebuild with {REBUILD}")
    for module in MODULES:
        name = relative(module)
        source = source_of(module, root)
        if name not in sources or not source.is_file() or digest(source) != sources[name]:
            return Build("interpreted", f"stale: {name} changed since the build; rebuild with {REBUILD}")
    return Build("compiled", "mypyc, profile-guided" if record.get("guided") is True else "mypyc")


class SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads each listed module from its .py, even where a compiled extension sits beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path or ():
            source = Path(entry) / leaf
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def install() -> Build:
    """Decide once per process, before any listed module is imported; when interpreted, make every listed
    module load from source, and say why once per run (worker processes inherit NOTED and stay quiet)."""
    already = [module for module in MODULES if module in sys.modules]
    assert not already, f"puzzles.kernels must be imported before {already}"
    status = decide()
    if not status.compiled:
        sys.meta_path.insert(0, SourcesFirst())
        if REBUILD in status.why and not os.environ.get(NOTED):  # a build that no longer fits: say so
            print(f"sudoku-search: running interpreted, {status.why}", file=sys.stderr)
            os.environ[NOTED] = "1"
    return status


def loaded() -> dict[str, bool]:
    """Of the listed modules imported so far, which run compiled (an extension module, not a .py)."""
    return {name: not str(getattr(sys.modules[name], "__file__", "")).endswith(".py")
            for name in MODULES if name in sys.modules}


# Decided when the packages import this module; setup.py reads it under another name, to build, not to run.
BUILD = install() if __name__ == "puzzles.kernels" else Build("interpreted", "not imported as puzzles.kernels")
