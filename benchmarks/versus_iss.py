#!/usr/bin/env python3
"""The project's methods against the Interactive Sudoku Solver, puzzle by puzzle, on the same puzzles.

    python benchmarks/versus_iss.py FILE ... [--iss DIR] [--solver NAME[:key=value,...] ...] [--timeout S]
        [--repeat K] [--limit K]

The peer: the Interactive Sudoku Solver (ISS, https://github.com/sigh/Interactive-Sudoku-Solver, MIT, in
JavaScript: propagators for each constraint, an optimizer that derives the constraints a puzzle implies (the 45
rule's innies and outies, hidden cages) before its search, and a cell choice weighted by conflicts). It runs in
node, headless, from a checkout of ISS: `--iss DIR` or the environment variable ISS_DIR (`git clone
https://github.com/sigh/Interactive-Sudoku-Solver`; nothing to build). benchmarks/iss_driver.mjs loads ISS's
own modules from the checkout and stays up for the whole run (warm), answering one puzzle at a time: each puzzle
is handed to it as f-puzzles JSON (puzzles/fpuzzles.py), which the driver turns into ISS's constraint string.
Without a checkout, or without node (`apt-get install nodejs`), one line says ISS is skipped and the methods run
alone; a checkout the driver cannot load is a one-line error (exit 2).

Every side proves uniqueness: each method runs with `solutions=2`, and ISS looks for a second solution after its
first (as its own `SimpleSolver.uniqueSolution` does). A side settles a puzzle when it finds its solution and
proves it unique (or finds two) within `--timeout` seconds. Every side is called in one loop on each puzzle,
the side that goes first rotated from puzzle to puzzle, so that the machine's noise falls on all alike; each
side is first run once, untimed, on the file's first puzzle reflected in its diagonal (as hard, but another
layout: a method keeps what it read of a layout for its process, and no timed puzzle's model is built by then).
Every answer is checked cell by cell against the puzzle's rules and givens, and against the other sides': the
same verdict (unique or not) and, for a unique puzzle, the same solution. A wrong answer or a disagreement stops
the run (exit 1).

What is timed: a method's call (its model built and its search, as compare.py times it); ISS's own clock, in
node, around its reading of the constraint string, its model building (its handlers and its optimizer) and its
search for two solutions: the driver's translation of the f-puzzles object and the pipe are not timed. A puzzle
that ISS does not answer within the budget (and a second) is a give-up at the budget: the driver is stopped and
started afresh for the next puzzle, and warmed again on the first puzzle it answered in time, outside any timing.

It prints, for each file, each side's settled count, its median, mean and max seconds a puzzle (a give-up counts
its time, about the budget; a puzzle a side could not take, "not run", counts none), each method's median and mean
as a multiple of ISS's (ahead where below 1; given when ISS ran on every puzzle), and ISS's median model building
alone. Default methods: on a file with Killer cages `cdcl`, `mrv:propagate=killer`
(the fastest hand-written rung on Killers) and `cpsat:redundant=45` (CP-SAT with the 45 rule's sums, the best
formulation there); on other files `cdcl`, `mrv:propagate=locked` and `cpsat`.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from benchmarks.turns import in_turn  # noqa: E402
from commands.flags import positive  # noqa: E402
from comparison.core.errors import UsageError  # noqa: E402
from comparison.core.selected import Selected  # noqa: E402
from comparison.run.methods import load_registry, parse_solver  # noqa: E402
from puzzles import Budget, Entry, Grid, PuzzleError, PuzzleFileError, Status, data, kernels, read_puzzles  # noqa: E402
from puzzles.constraints.killer import cages_in  # noqa: E402
from puzzles.fpuzzles import json_line  # noqa: E402
from puzzles.isomorph import transposed  # noqa: E402
from puzzles.kept import fresh  # noqa: E402

ISS_ENV = "ISS_DIR"
ISS_URL = "https://github.com/sigh/Interactive-Sudoku-Solver"
DRIVER = Path(__file__).resolve().with_name("iss_driver.mjs")
KILLER_SOLVERS = ("cdcl", "mrv:propagate=killer", "cpsat:redundant=45")
OTHER_SOLVERS = ("cdcl", "mrv:propagate=locked", "cpsat")
GRACE = 1.0  # seconds past the budget before a silent driver is stopped: the pipe, the JSON, node's collector
LOADING = 120.0  # seconds node may take to start and load ISS's modules
REFUSED = "cannot give ISS this puzzle"  # the driver's words for a puzzle it cannot turn into ISS's constraints


@dataclass(frozen=True)
class Answer:
    """One side's run on one puzzle: its seconds, its first solution, and its verdict once settled: True (the
    solution is unique), False (a second exists), None (not settled: gave up, not run, or an error; `detail`)."""

    seconds: float
    solution: Grid | None = None
    unique: bool | None = None
    detail: str = ""
    guesses: int | None = None
    setup: float | None = None  # ISS's model building alone

    @property
    def settled(self) -> bool:
        return self.unique is not None or (self.solution is None and self.detail == "no solution")


@dataclass(frozen=True)
class Side:
    """A contestant: its name in the report and how it answers a puzzle; the peer is ISS."""

    name: str
    solve: Callable[[Grid], Answer]
    peer: bool = False


@dataclass
class Figures:
    """One side's answers on one file, in the file's order (a puzzle's time the median of its repeats)."""

    side: Side
    seconds: list[float] = field(default_factory=list)
    settled: int = 0
    guesses: list[int] = field(default_factory=list)
    setup: list[float] = field(default_factory=list)
    unsettled: dict[str, int] = field(default_factory=dict)  # why, and how often


class IssError(Exception):
    """A driver that does not start or stops unasked: one line, ISS's or node's own words."""


# -- the methods -------------------------------------------------------------------------------------------------

def method_side(chosen: Selected, timeout: float) -> Side:
    """A method of the project as a side: called with the budget and `solutions=2`."""
    budget = Budget(seconds=timeout)

    def run(grid: Grid) -> Answer:
        fresh()  # as compare.py: each side's time includes its model of a puzzle drawn for itself
        started = time.perf_counter()
        outcome = chosen.method(grid, budget, **chosen.options)
        seconds = time.perf_counter() - started
        guesses = outcome.effort.get("guesses")
        if outcome.status is Status.UNSATISFIABLE:
            return Answer(seconds, detail="no solution", guesses=guesses)
        if outcome.status is Status.ERROR:
            return Answer(seconds, detail=f"error: {outcome.detail}")
        unique = outcome.unique if outcome.status is Status.SOLVED else None
        return Answer(seconds, outcome.solution, unique, "" if unique is not None else outcome.detail or "gave up",
                      guesses)

    return Side(chosen.label, run)


# -- ISS ---------------------------------------------------------------------------------------------------------

class Iss:
    """ISS's driver in node: started on the first puzzle, kept up (warm) for all, restarted after a give-up."""

    def __init__(self, checkout: Path, node: str, timeout: float) -> None:
        self.command = [node, str(DRIVER), str(checkout)]
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.said: collections.deque[str] = collections.deque(maxlen=20)  # the driver's last lines on stderr
        self.draining: threading.Thread | None = None
        self.warm: Grid | None = None
        self.restarts = 0

    def _start(self) -> subprocess.Popen[str]:
        try:
            process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as exc:
            raise IssError(f"cannot start node: {exc.strerror}") from None
        self.lines = queue.Queue()
        assert process.stdout is not None and process.stderr is not None
        self.said = collections.deque(maxlen=20)
        threading.Thread(target=self._read, args=(process.stdout, self.lines), daemon=True).start()
        self.draining = threading.Thread(target=self._drain, args=(process.stderr, self.said), daemon=True)
        self.draining.start()
        self.process = process
        try:
            ready = self.lines.get(timeout=LOADING)
        except queue.Empty:
            self.close()
            raise IssError(f"the driver did not load ISS within {LOADING:g} s") from None
        if ready is None:
            raise self._ended(process)
        return process

    @staticmethod
    def _read(stream: IO[str], lines: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)  # the driver has ended

    @staticmethod
    def _drain(stream: IO[str], said: collections.deque[str]) -> None:
        """Reads stderr as it comes, so that a driver that logs much never blocks on a full pipe."""
        for line in stream:
            if line.strip():
                said.append(line.strip())

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()  # the driver this object started, by its own handle
            self.process.wait()
            self.process = None

    def _ended(self, process: subprocess.Popen[str]) -> IssError:
        process.wait()
        if self.draining is not None:
            self.draining.join(timeout=10)  # its last words read
        said = list(self.said)
        self.process = None
        if not said:
            return IssError(f"the driver stopped (exit {process.returncode}) and said nothing")
        return IssError(said[-1].removeprefix("iss_driver: "))

    def ask(self, grid: Grid) -> dict[str, Any]:
        """The driver's answer to one puzzle, or {} when it gave none within the budget (it is then stopped)."""
        process = self.process or self._start()
        assert process.stdin is not None
        try:
            process.stdin.write(json_line(grid) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise self._ended(process) from None
        try:
            line = self.lines.get(timeout=self.timeout + GRACE)
        except queue.Empty:
            self.close()
            self.restarts += 1
            return {}
        if line is None:
            raise self._ended(process)
        found: dict[str, Any] = json.loads(line)
        return found

    def run(self, grid: Grid) -> Answer:
        if self.process is None and self.warm is not None:  # restarted after a give-up: warmed again, untimed
            self.ask(self.warm)
        found = self.ask(grid)
        if self.warm is None and found and "seconds" in found and found["seconds"] <= self.timeout:
            self.warm = grid  # the first puzzle answered in time: what a restarted driver is warmed with
        if not found:
            return Answer(self.timeout, detail="time (stopped)")
        if "error" in found:
            refused = str(found["error"])
            if refused.startswith(REFUSED):  # a rule the driver cannot state to ISS: no attempt, so no failure
                return Answer(0.0, detail=f"not run: {refused.removeprefix(REFUSED + ': ')}")
            return Answer(0.0, detail=f"error: {refused}")
        seconds = float(found["seconds"])
        values = found["solution"]
        solution = None if values is None else grid.with_values([v or 0 for v in values])
        guesses, setup = found.get("guesses"), float(found["setup_seconds"])
        if seconds > self.timeout:  # answered, but past the budget every method keeps to
            return Answer(seconds, solution, None, "time", guesses, setup)
        if solution is None:
            return Answer(seconds, None, None, "no solution", guesses, setup)
        return Answer(seconds, solution, bool(found["unique"]), "", guesses, setup)


def node_program() -> str | None:
    return os.environ.get("NODE") or shutil.which("node") or shutil.which("nodejs")


# -- the loop ----------------------------------------------------------------------------------------------------

def puzzles_in(path: Path, limit: int | None) -> list[tuple[int, Grid]]:
    """(line, puzzle) of the file's first `limit` puzzles."""
    found = [(entry.line, entry.grid) for entry in read_puzzles(path) if isinstance(entry, Entry)]
    return found[:limit] if limit is not None else found


def warm_up_puzzle(first: Grid) -> Grid:
    """What each side is first run on, untimed: the first puzzle reflected in its diagonal, as hard, on a layout of
    its own, so that no timed puzzle's model is built by then (a method keeps what it read of a layout for its
    process); the first puzzle itself where its rules cannot be reflected."""
    try:
        return transposed(first)
    except PuzzleError:
        return first


def check(path: Path, line: int, grid: Grid, answers: Sequence[tuple[str, Answer]]) -> None:
    """Every solution valid; every settled side's verdict the same, and one solution for a unique puzzle."""
    for name, answer in answers:
        if answer.detail.startswith("error"):
            raise SystemExit(f"{path}:{line}: {name}: {answer.detail}")
        if answer.solution is not None and grid.solution_problems(answer.solution):
            raise SystemExit(f"{path}:{line}: {name} gave a wrong answer: "
                             f"{'; '.join(grid.solution_problems(answer.solution))}")
    settled = [(name, answer) for name, answer in answers if answer.settled]
    for (name, answer), (other, theirs) in itertools.pairwise(settled):
        if (answer.unique, answer.solution is None) != (theirs.unique, theirs.solution is None):
            raise SystemExit(f"{path}:{line}: {name} and {other} disagree: {verdict(answer)} against "
                             f"{verdict(theirs)}")
        if answer.unique and theirs.unique and answer.solution != theirs.solution:
            raise SystemExit(f"{path}:{line}: {name} and {other} each prove a different solution unique")


def verdict(answer: Answer) -> str:
    return "no solution" if answer.solution is None else "unique" if answer.unique else "two solutions or more"


def compare_file(path: Path, sides: Sequence[Side], limit: int | None, repeat: int) -> tuple[int, list[Figures]]:
    """Every side on every puzzle, `repeat` times, in one loop, the first side rotated, every answer checked.
    Returns the number of puzzles and each side's figures."""
    puzzles = puzzles_in(path, limit)
    if not puzzles:
        raise SystemExit(f"{path}: no puzzle to time")
    figures = [Figures(side) for side in sides]
    warm = warm_up_puzzle(puzzles[0][1])
    for side in sides:  # warm up: imports, node's start and tables built once are not a puzzle's
        side.solve(warm)
    turn = 0
    for line, grid in puzzles:
        runs: dict[str, list[Answer]] = {figure.side.name: [] for figure in figures}
        for _ in range(repeat):
            for figure in in_turn(figures, turn):
                runs[figure.side.name].append(figure.side.solve(grid))
            turn += 1
            check(path, line, grid, [(name, answers[-1]) for name, answers in runs.items()])
        for figure in figures:
            answers = runs[figure.side.name]
            if not any(a.detail.startswith("not run") for a in answers):  # no attempt: no time
                figure.seconds.append(statistics.median(a.seconds for a in answers))
            if all(a.settled for a in answers):
                figure.settled += 1
            else:
                why = next(a.detail for a in answers if not a.settled)
                figure.unsettled[why] = figure.unsettled.get(why, 0) + 1
            if all(a.guesses is not None for a in answers):
                figure.guesses.append(int(statistics.median(a.guesses or 0 for a in answers)))
            setups = [a.setup for a in answers if a.setup is not None]
            if setups:
                figure.setup.append(statistics.median(setups))
    return len(puzzles), figures


# -- the report --------------------------------------------------------------------------------------------------

def seconds_text(t: float) -> str:
    return f"{t:.4f}" if t < 10 else f"{t:.2f}"


def report(name: str, count: int, figures: Sequence[Figures], timeout: float) -> list[str]:
    puzzles = f"{count:,} puzzle{'' if count == 1 else 's'}"
    lines = [f"{name}: {puzzles}, uniqueness proved by every side, {timeout:g} s a side a puzzle"]
    width = max(len(f.side.name) for f in figures)
    peer = next((f for f in figures if f.side.peer and len(f.seconds) == count), None)  # ISS, if it ran on all
    ratio_head = "  median, mean vs ISS" if peer else ""
    lines.append(f"  {'side':{width}}  {'settled':>9}  {'median s':>9}  {'mean s':>9}  {'max s':>9}{ratio_head}")
    for figure in figures:
        times = figure.seconds
        if not times:
            lines.append(f"  {figure.side.name:{width}}  {f'0/{count}':>9}  not run")
            continue
        median, mean = statistics.median(times), statistics.fmean(times)
        cells = "  ".join(f"{seconds_text(t):>9}" for t in (median, mean, max(times)))
        ratio = ""
        if peer is not None and figure is not peer:
            ratio = (f"  {median / statistics.median(peer.seconds):.2f}x, "
                     f"{mean / statistics.fmean(peer.seconds):.2f}x")
        settled = f"{figure.settled}/{count}"
        lines.append(f"  {figure.side.name:{width}}  {settled:>9}  {cells}{ratio}")
    for figure in figures:
        if figure.unsettled:
            why = ", ".join(f"{n} {reason}" for reason, n in sorted(figure.unsettled.items()))
            lines.append(f"  {figure.side.name}: not settled: {why}")
    counted = [f for f in figures if f.guesses and len(f.guesses) == count]
    if counted:
        lines.append("  guesses a puzzle, median: " + ", ".join(
            f"{f.side.name} {statistics.median(f.guesses):,.0f}" for f in counted))
        # what a guess costs: every puzzle's guesses over every puzzle's time (a search's speed, not its size)
        timed = [f for f in counted if len(f.seconds) == count and sum(f.seconds) > 0]
        if timed:
            lines.append("  guesses a second, the puzzles together: " + ", ".join(
                f"{f.side.name} {sum(f.guesses) / sum(f.seconds):,.0f}" for f in timed))
    if peer is not None and peer.setup:  # ISS's
        lines.append(f"  ISS's reading and model building alone (in its time): median "
                     f"{statistics.median(peer.setup) * 1000:.1f} ms")
    return lines


def default_solvers(path: Path, limit: int | None) -> tuple[str, ...]:
    has_cages = any(cages_in(grid.layout.constraints) for _, grid in puzzles_in(path, limit))
    return KILLER_SOLVERS if has_cages else OTHER_SOLVERS


def methods(specs: Sequence[str], timeout: float) -> list[Side]:
    registry = load_registry([spec.partition(":")[0] for spec in specs])
    chosen = [parse_solver(spec, registry, 2, Budget(seconds=timeout)) for spec in specs]
    labels = [c.label for c in chosen]
    if len(set(labels)) < len(labels):
        raise UsageError(f"--solver {next(x for x in labels if labels.count(x) > 1)} is given twice")
    return [method_side(c, timeout) for c in chosen]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="puzzle files (or collections' names)")
    parser.add_argument("--iss", metavar="DIR", default=os.environ.get(ISS_ENV) or None,
                        help=f"a checkout of {ISS_URL} (default: ${ISS_ENV}; neither: ISS is skipped)")
    parser.add_argument("--solver", action="append", help="a method and its options; given again, another "
                        f"(default: {', '.join(KILLER_SOLVERS)} on Killers; {', '.join(OTHER_SOLVERS)} else)")
    parser.add_argument("--timeout", type=positive(float), default=10.0, help="seconds a side a puzzle (default 10)")
    parser.add_argument("--repeat", type=positive(int), default=1,
                        help="runs of each side on each puzzle, interleaved; a puzzle's time is their median "
                        "(default 1)")
    parser.add_argument("--limit", type=positive(int), help="only the first K puzzles of each file")
    args = parser.parse_args(argv)

    iss: Iss | None = None
    node = node_program()
    if not args.iss:
        print(f"ISS: skipped, no checkout given (git clone {ISS_URL}, then --iss DIR or {ISS_ENV}=DIR)")
    elif node is None:
        print("ISS: skipped, node is not installed (apt-get install nodejs, or NODE=PROGRAM)")
    else:
        iss = Iss(Path(args.iss), node, args.timeout)
    print(kernels.BUILD.line())  # first: which build of the searches runs, as compare.py says it
    print("The project's methods against ISS, both proving uniqueness: seconds a puzzle, every side in "
          "one loop, the first side rotated; ISS's time its own (reading, model building, search), warm")
    try:
        for file in args.files:
            path = Path(data.resolve(file))
            specs = args.solver or default_solvers(path, args.limit)
            sides = methods(specs, args.timeout)
            if iss is not None:
                sides.append(Side("ISS", iss.run, peer=True))
            count, figures = compare_file(path, sides, args.limit, args.repeat)
            print("\n".join(report(path.name, count, figures, args.timeout)))
            if iss is not None and iss.restarts:
                print(f"  (ISS's driver restarted {iss.restarts} times, after give-ups)")
                iss.restarts = 0
    except UsageError as exc:
        parser.error(str(exc))
    except (PuzzleFileError, data.DataError) as exc:
        print(f"versus_iss: {exc}", file=sys.stderr)
        return 2
    except IssError as exc:
        print(f"versus_iss: ISS ({args.iss}): {exc}", file=sys.stderr)
        return 2
    finally:
        if iss is not None:
            iss.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
