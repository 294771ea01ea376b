#!/usr/bin/env python3
"""Hand-written searches against PicoSAT and tdoku, puzzle by puzzle, on the same puzzles.

    python benchmarks/versus_pycosat.py [FILE ...] [--solver NAME[:key=value,...] ...] [--tdoku DIR]
        [--limit K] [--seed S | --literal]

The sides: each hand-written configuration (`--solver`, one or more); PicoSAT
(pycosat, in C) on the project's complete CNF (formulations/cnf.py: exactly one
value per cell and per unit-value, the givens as unit clauses), its shared
clauses built once per box size; and, given a checkout of tdoku
(https://github.com/t-dillon/tdoku, the fastest 9x9 solver, not on PyPI), its
solver `TdokuSolverDpllTriadSimd` called in this process through ctypes. All are
called in one loop on each puzzle, the side that goes first rotated from puzzle
to puzzle, so that the machine's noise falls on all alike; every answer is
checked cell by cell against the puzzle's rules and givens. Each side is first
run once, untimed, on the file's first puzzle, so that imports and tables built
once per process do not fall on a puzzle's time. Every side looks for one
solution. What is timed: a search's call of its method; PicoSAT's CNF built,
solved and decoded; tdoku's call alone (the puzzle's 81 characters made before
it and its solution decoded after it, as tdoku's own benchmark hands it text).

It prints each side's median, mean and max seconds per puzzle and the line of
its slowest puzzle; each hand-written configuration's median and mean as a
multiple of PicoSAT's and tdoku's (it is ahead where the multiple is below 1);
and the guesses a puzzle, median and mean, of tdoku (its `num_guesses`) and of
each configuration whose method counts `guesses` (docs/concepts/effort.md), as
each reports them. Default files: the collections top1465 and forum-hardest-1106
(`sudoku-data fetch top1465 forum-hardest-1106`).

tdoku: `--tdoku DIR` or the environment variable TDOKU_DIR names a checkout
(`git clone https://github.com/t-dillon/tdoku`). Its solver library (the sources
of CMakeLists.txt's `tdoku` target, src/solver_dpll_triad_simd.cc and
src/util.cc) is built once with the system C++ compiler (CXX, else c++) and
tdoku's own flags, `-O3 -march=native`, into a cache under the temporary
directory keyed by the sources, the compiler and the flags; a later run reuses
it. Without a checkout, one line says tdoku is skipped and PicoSAT runs alone
against the searches; a checkout that does not build is a one-line error (exit
2). tdoku solves classic 9x9 puzzles only: a file with any other is timed
without it, and the report says so.

Each puzzle is timed as one random isomorph of it (relabelled, rows and columns
permuted), the ones `compare.py FILE --isomorphs 1 --seed S` draws, as the
published figures (docs/reference/data.md) average over isomorphs: a file's own
orientation can favour one side. forum-hardest-1106 is written so that most
solutions' first row reads 123456789, so a search that places the lowest value
of the first free cell first starts right on it. `--literal` times the file as
written.
"""
from __future__ import annotations

import argparse
import ctypes
import hashlib
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from benchmarks.turns import in_turn  # noqa: E402
from commands.flags import positive  # noqa: E402
from comparison.core.errors import UsageError  # noqa: E402
from comparison.core.selected import Selected  # noqa: E402
from comparison.core.stream import puzzles_of  # noqa: E402
from comparison.run.methods import load_registry, parse_solver  # noqa: E402
from formulations.cnf import decode, encode  # noqa: E402
from puzzles import Budget, Entry, Grid, PuzzleFileError, data, read_puzzles  # noqa: E402
from puzzles.kept import fresh  # noqa: E402

try:  # once, not in the timed calls
    import pycosat  # the bench extra: pip install -e ".[bench]"
except ImportError:  # main says so before it times anything; the tests skip
    pycosat = None

DEFAULT_FILES = ["top1465", "forum-hardest-1106"]  # collections' names: puzzles/data.py finds their files
DEFAULT_SOLVER = "mrv:propagate=singles"

TDOKU_ENV = "TDOKU_DIR"
TDOKU_URL = "https://github.com/t-dillon/tdoku"
# CMakeLists.txt's `tdoku` library ("a gcc-linkable library with just the fast solver"), built as a shared
# library with the flags that CMakeLists.txt gives it (-O3 -march=native by default, C++14, -fno-exceptions
# -fno-rtti -fpic)
TDOKU_SOURCES = ("src/solver_dpll_triad_simd.cc", "src/util.cc")
TDOKU_FLAGS = ("-std=c++14", "-O3", "-march=native", "-fno-exceptions", "-fno-rtti", "-fPIC", "-shared")
TDOKU_SOLVE = "TdokuSolverDpllTriadSimd"
# tdoku writes a solution as 81 characters '1'-'9'; anything else reads as a blank, which the check reports
_VALUE_OF_BYTE = bytes(b - 48 if 49 <= b <= 57 else 0 for b in range(256))


@dataclass(frozen=True)
class Run:
    """One side's run on one puzzle: the seconds it took, its answer, and its guesses where it counts them."""

    seconds: float
    solution: Grid | None
    guesses: int | None = None


@dataclass(frozen=True)
class Side:
    """A contestant: its name in the report, how it solves a puzzle, and what its guesses are ('' if none)."""

    name: str
    solve: Callable[[Grid], Run]
    counter: str = ""
    hand_written: bool = False
    classic_only: bool = False  # solves classic 9x9 puzzles only


@dataclass
class Figures:
    """One side's runs on one file, in the file's order."""

    side: Side
    seconds: list[float] = field(default_factory=list)
    guesses: list[int] = field(default_factory=list)

    def slowest(self, lines: Sequence[int]) -> int:
        return lines[max(range(len(self.seconds)), key=self.seconds.__getitem__)]


@dataclass(frozen=True)
class Measured:
    """A file's figures: every side's, and the file's line of each puzzle."""

    lines: list[int]
    figures: list[Figures]
    left_out: str = ""  # why a side was left out of this file, if one was

    def of(self, name: str) -> Figures:
        return next(f for f in self.figures if f.side.name == name)


class TdokuError(Exception):
    """A checkout that gives no solver: one line, naming the directory."""


def pycosat_solve(grid: Grid) -> Grid | None:
    _, clauses = encode(grid)
    model = pycosat.solve(clauses)
    return None if isinstance(model, str) else decode(grid, model)


def pycosat_run(grid: Grid) -> Run:
    started = time.perf_counter()
    solution = pycosat_solve(grid)
    return Run(time.perf_counter() - started, solution)


PYCOSAT = Side("pycosat", pycosat_run)


def search_side(chosen: Selected) -> Side:
    """A hand-written configuration as a side: its method called with no budget, its `guesses` counter read."""

    def run(grid: Grid) -> Run:
        fresh()  # as compare.py: a Jigsaw's model built by each side, not shared
        started = time.perf_counter()
        outcome = chosen.method(grid, Budget(), **chosen.options)
        seconds = time.perf_counter() - started
        return Run(seconds, outcome.solution, outcome.effort.get("guesses"))

    return Side(chosen.label, run, "guesses", hand_written=True)


# -- tdoku ------------------------------------------------------------------------------------------------------

def compiler() -> str:
    found = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if not found:
        raise TdokuError("no C++ compiler found (c++, g++ or clang++; or set CXX)")
    return found


def build_tdoku(checkout: Path, cache: Path | None = None, say: Callable[[str], None] | None = None) -> Path:
    """tdoku's solver library built from the checkout, or the one built before from the same sources, compiler
    and flags. The cache is under the temporary directory unless one is given; `say` hears of a build."""
    if not checkout.is_dir():
        raise TdokuError(f"cannot build tdoku from {checkout}: no such directory")
    missing = [source for source in TDOKU_SOURCES if not (checkout / source).is_file()]
    if missing:
        raise TdokuError(f"cannot build tdoku from {checkout}: no {missing[0]} (is it a checkout of {TDOKU_URL}?)")
    cxx = compiler()
    key = hashlib.sha256("\0".join([cxx, *TDOKU_FLAGS]).encode())
    for path in sorted({*(checkout / s for s in TDOKU_SOURCES), *(checkout / "src").glob("*.h")}):
        key.update(path.name.encode() + b"\0" + path.read_bytes())
    folder = (cache or Path(tempfile.gettempdir()) / "sudoku-search-tdoku") / key.hexdigest()[:16]
    library = folder / "libtdoku.so"
    if library.is_file():
        return library
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"libtdoku.so.{os.getpid()}"  # renamed when whole: a run stopped midway leaves no library
    command = [cxx, *TDOKU_FLAGS, "-o", str(partial), *(str(checkout / s) for s in TDOKU_SOURCES)]
    if say is not None:
        say(f"tdoku: building its solver from {checkout} into {folder} (once)")
    try:
        built = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise TdokuError(f"cannot build tdoku from {checkout}: {cxx}: {exc.strerror}") from None
    if built.returncode != 0:
        partial.unlink(missing_ok=True)
        raise TdokuError(f"cannot build tdoku from {checkout}: {complaint(built.stderr or built.stdout)}")
    os.replace(partial, library)
    return library


def complaint(output: str) -> str:
    """The compiler's last error line (its last line where none says error: 'compilation terminated.' is not it)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    return (errors or lines or ["the compiler failed and said nothing"])[-1]


class Tdoku:
    """tdoku's solver, loaded from its library: `solve` finds one solution and counts tdoku's guesses."""

    def __init__(self, library: Path) -> None:
        try:
            solve = getattr(ctypes.CDLL(str(library)), TDOKU_SOLVE)
        except (OSError, AttributeError) as exc:
            raise TdokuError(f"cannot load tdoku's {TDOKU_SOLVE} from {library}: {exc}") from None
        # size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
        #                                 char *solution, size_t *num_guesses): the number of solutions found
        solve.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
                          ctypes.POINTER(ctypes.c_size_t)]
        solve.restype = ctypes.c_size_t
        self._solve = solve
        self._solution = ctypes.create_string_buffer(82)  # 81 cells written; made once, not in a timed call
        self._guesses = ctypes.c_size_t()

    def run(self, grid: Grid) -> Run:
        """One solution of a classic 9x9 puzzle: its 81 characters, '.' a blank, end with the NUL ctypes adds
        (a character below '.' at position 81 tells tdoku it is not a pencil-mark puzzle)."""
        puzzle = grid.line().encode("ascii")
        solution, guesses = self._solution, self._guesses
        started = time.perf_counter()
        found = self._solve(puzzle, 1, 0, solution, ctypes.byref(guesses))
        seconds = time.perf_counter() - started
        if not found:
            return Run(seconds, None, guesses.value)
        return Run(seconds, grid.with_values(solution.raw[:81].translate(_VALUE_OF_BYTE)), guesses.value)


def tdoku_side(checkout: Path) -> Side:
    return Side("tdoku", Tdoku(build_tdoku(checkout, say=print)).run, "num_guesses", classic_only=True)


def takes(side: Side, grid: Grid) -> bool:
    return not side.classic_only or (grid.side == 9 and grid.layout.is_classic)


# -- the loop ---------------------------------------------------------------------------------------------------

def compare_file(path: Path, sides: Sequence[Side], limit: int | None, seed: int | None) -> Measured:
    """Every side on every puzzle, in one loop, the first side rotated, every solution checked.
    Each puzzle is one random isomorph of the file's (drawn from `seed`), or the file's own when seed is None."""
    entries = enumerate(itertools.islice((e for e in read_puzzles(path) if isinstance(e, Entry)), limit))
    puzzles = list(puzzles_of(entries, None if seed is None else 1, seed or 0))
    if not puzzles:
        raise SystemExit(f"{path}: no puzzle to time")
    kept = [side for side in sides if all(takes(side, puzzle.grid) for puzzle in puzzles)]
    left_out = ", ".join(side.name for side in sides if side not in kept)
    figures = [Figures(side) for side in kept]
    for side in kept:  # warm up: imports, and tables built once per process, are not a puzzle's
        side.solve(puzzles[0].grid)
    for i, puzzle in enumerate(puzzles):
        for figure in in_turn(figures, i):
            run = figure.side.solve(puzzle.grid)
            if run.solution is None or puzzle.grid.solution_problems(run.solution):
                raise SystemExit(f"{path}:{puzzle.line}: {figure.side.name} gave no valid solution")
            figure.seconds.append(run.seconds)
            if run.guesses is not None:
                figure.guesses.append(run.guesses)
    why = f"{left_out}: left out, it solves classic 9x9 puzzles only" if left_out else ""
    return Measured([puzzle.line for puzzle in puzzles], figures, why)


# -- the report -------------------------------------------------------------------------------------------------

def summary(times: list[float]) -> tuple[float, float, float]:
    return statistics.median(times), statistics.fmean(times), max(times)


def report(name: str, measured: Measured) -> list[str]:
    lines = [f"{name}: {len(measured.lines):,} puzzles"]
    if measured.left_out:
        lines.append(f"  ({measured.left_out})")
    width = max(len(f.side.name) for f in measured.figures)
    lines.append(f"  {'seconds a puzzle':{width}}  {'median':>13}  {'mean':>13}  {'max':>13}  slowest")
    for figure in measured.figures:
        cells = "  ".join(f"{t * 1000:10.4f} ms" for t in summary(figure.seconds))
        lines.append(f"  {figure.side.name:{width}}  {cells}  line {figure.slowest(measured.lines)}")
    baselines = [f for f in measured.figures if not f.side.hand_written]
    for figure in (f for f in measured.figures if f.side.hand_written):  # its time as a multiple of each baseline's
        mine = summary(figure.seconds)
        multiples = "   ".join(
            f"{label} " + "  ".join(f"{mine[at] / summary(b.seconds)[at]:.2f}x {b.side.name}" for b in baselines)
            for label, at in (("median", 0), ("mean", 1)))
        lines.append(f"  {figure.side.name:{width}}  {multiples}")
    counted = [f for f in measured.figures if f.side.counter and len(f.guesses) == len(f.seconds)]
    if counted:
        lines.append(f"  {'guesses a puzzle':{width}}  {'median':>13}  {'mean':>13}")
        for figure in counted:
            guesses = f"{statistics.median(figure.guesses):13,.1f}  {statistics.fmean(figure.guesses):13,.1f}"
            lines.append(f"  {figure.side.name:{width}}  {guesses}  ({figure.side.counter})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="puzzle files or collections' names (default: top1465, "
                        "forum-hardest-1106)")
    parser.add_argument("--solver", action="append", help="a hand-written method and its options; given again, "
                        f"another (default {DEFAULT_SOLVER})")
    parser.add_argument("--tdoku", metavar="DIR", default=os.environ.get(TDOKU_ENV) or None,
                        help=f"a checkout of {TDOKU_URL}, its solver built once and called in-process "
                        f"(default: ${TDOKU_ENV}; neither: tdoku is skipped)")
    parser.add_argument("--limit", type=positive(int), help="only the first K puzzles of each file")
    oriented = parser.add_mutually_exclusive_group()
    oriented.add_argument("--seed", type=int, default=0, help="seed of the isomorphs (default 0)")
    oriented.add_argument("--literal", action="store_true", help="time the files' own puzzles, not isomorphs")
    args = parser.parse_args(argv)
    if pycosat is None:
        parser.error('pycosat is not installed: pip install -e ".[bench]"')
    specs: list[str] = args.solver or [DEFAULT_SOLVER]
    try:
        registry = load_registry([spec.partition(":")[0] for spec in specs])
        chosen = [parse_solver(spec, registry, 1, Budget()) for spec in specs]
    except UsageError as exc:
        parser.error(str(exc))
    labels = [c.label for c in chosen]
    if len(set(labels)) < len(labels):
        parser.error(f"--solver {next(x for x in labels if labels.count(x) > 1)} is given twice")

    sides = [*(search_side(c) for c in chosen), PYCOSAT]
    if args.tdoku:
        try:
            sides.append(tdoku_side(Path(args.tdoku)))
        except TdokuError as exc:
            print(f"versus_pycosat: {exc}", file=sys.stderr)
            return 2
    else:
        print(f"tdoku: skipped, no checkout given (git clone {TDOKU_URL}, then --tdoku DIR or {TDOKU_ENV}=DIR)")

    seed = None if args.literal else args.seed
    puzzles = "the files' own puzzles" if seed is None else f"a random isomorph of each puzzle, seed {seed}"
    baselines = " and ".join(side.name for side in sides if not side.hand_written)
    print(f"{', '.join(c.label for c in chosen)} against {baselines} (PicoSAT on the complete CNF): seconds per "
          f"puzzle, all in one loop, the first side rotated; {puzzles}")
    for file in args.files or DEFAULT_FILES:
        try:
            path = Path(data.resolve(file))
            measured = compare_file(path, sides, args.limit, seed)
        except (PuzzleFileError, data.DataError) as exc:  # read whole before any timing: nothing of it is lost
            print(f"versus_pycosat: {exc}", file=sys.stderr)
            return 2
        print("\n".join(report(path.name, measured)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
