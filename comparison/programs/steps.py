"""`sudoku-check --steps PROGRAM`: a logic solver run on a puzzle and its every step checked (making/steps.py), and
a puzzle on which it is unsound shrunk to a 1-minimal one on which it still is (making/shrink.py).

`compare.py --fuzz DURATION --steps 'PROGRAM ARGS'` fuzzes it: puzzles of the fuzzer's kinds (unique,
several-solution, unsatisfiable, near-empty, nearly-full, minimal, hard: comparison/programs/fuzz.py) at each box
size asked for (--box; default 2 and 3: a logic solver's steps on 16x16 puzzles take seconds each), in turn, each
checked step by step against its true candidates; the first puzzle of each kind of failure (an unsound step of each
technique, a protocol error, out of time) shrunk, when unsound, to a 1-minimal puzzle on which it is unsound so
again, and written to --output under a Reproduce line (`sudoku-check FILE --steps ...`) that finds it again.

The program is started for each puzzle, as the solver protocol's once mode starts it (docs/reference/protocol.md):
the puzzle's whole line on its standard input (its values, then the words of its houses and rules for a puzzle
of the Sudoku family), then the end of its input; it writes its steps and its final line (docs/reference/steps.md)
and exits with status 0. It leads a process group of its own and is killed with its children when its time is
up (comparison/execution/external.py's Program, as compare.py runs a --command program).
"""
from __future__ import annotations

import itertools
import random
import re
import shlex
import shutil
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from making.candidates import PROPAGATIONS, TrueCandidates, true_candidates
from making.minimal import givens_of
from making.shrink import shrink
from making.steps import StepsCheck, Verdict, check_steps
from making.variants import Variant
from puzzles.grid import Grid
from puzzles.words import plural

from ..execution.external import Overrun, Program, ProtocolError
from ..execution.processes import mark_run

TIMEOUT = 10.0  # seconds a program has for one puzzle


def program_argv(text: str) -> tuple[str, ...]:
    """--steps 'PROGRAM ARGS' split as a shell would; ValueError saying why it cannot be run (no program, an
    unclosed quote, a program not found or not executable)."""
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:  # an unclosed quote
        raise ValueError(f"--steps: cannot split the command: {exc}") from None
    if not argv:
        raise ValueError("--steps: no program given")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"--steps: program {argv[0]!r} not found, or not executable")
    return argv


@dataclass(frozen=True)
class StepsProgram:
    """A logic solver as `--steps` names it: its program and arguments, its time a puzzle, and the SAT budget of
    each puzzle's true candidates."""

    argv: tuple[str, ...]
    timeout: float = TIMEOUT
    propagations: int = PROPAGATIONS

    def output(self, grid: Grid) -> str:
        """The program's whole output on this puzzle; Overrun past its time, ProtocolError (or OSError: it cannot
        be started) when it ends otherwise than with status 0."""
        mark_run()  # the processes it starts and leaves behind come back here, to be killed with it
        program = Program(self.argv, stdin=True)
        try:
            program.send(grid.text() + "\n")
            program.close_input()
            output = program.rest(time.perf_counter() + self.timeout)
            how = program.end()
            if program.process.returncode != 0:
                raise ProtocolError(f"the program ended ({how}){program.stderr_tail()}")
            return output.decode(errors="replace")
        finally:
            program.kill()

    def check(self, grid: Grid, truth: TrueCandidates | None = None) -> StepsCheck:
        """Its steps on this puzzle checked against the puzzle's true candidates (computed when not given)."""
        try:
            output = self.output(grid)
        except Overrun:
            return StepsCheck(Verdict.TIME, 0, f"no end within {self.timeout:g} s (killed)")
        except (ProtocolError, OSError) as exc:
            return StepsCheck(Verdict.MALFORMED, 0, str(exc))
        return check_steps(grid, output, truth if truth is not None else true_candidates(grid, self.propagations))

    def shrunk(self, grid: Grid, found: StepsCheck, deadline: float | None = None) -> tuple[Grid, StepsCheck]:
        """A puzzle on which the program is unsound (`found`) shrunk to a 1-minimal one on which it still is, by the
        same technique (any step, when the one found names none); and the check of the small one. Past the
        `deadline` (time.monotonic's) no smaller puzzle is tried: the shrink ends with the puzzle as small as it got."""
        technique = found.step.technique if found.step is not None else ""

        def fails(grids: Sequence[Grid]) -> list[bool]:
            if deadline is not None and time.monotonic() >= deadline:
                return [False] * len(grids)
            return [same_failure(self.check(g), technique) for g in grids]
        small = shrink(grid, fails)
        return small, self.check(small)


def same_failure(found: StepsCheck, technique: str) -> bool:
    """Whether a check is unsound at a step of this technique ('' : of any)."""
    return found.verdict is Verdict.UNSOUND and (not technique or (found.step is not None
                                                                    and found.step.technique == technique))


# -- compare.py --fuzz --steps ------------------------------------------------------------------------------------
FAILED = (Verdict.UNSOUND, Verdict.MALFORMED, Verdict.TIME)  # what a program fails by (sudoku-check's exit status 1)
STEPS_BOXES = (2, 3)  # the box sizes fuzzed when none is asked for


@dataclass(frozen=True)
class StepsFailure:
    """A failure found: the check on the puzzle as shrunk (the puzzle found, for a failure other than unsound), the
    puzzle made, its kind, and whether the shrink ran to its end."""

    found: StepsCheck
    puzzle: Grid
    found_on: Grid
    kind: str
    minimal: bool = True

    @property
    def key(self) -> tuple[Verdict, str]:
        return self.found.verdict, self.found.step.technique if self.found.step is not None else ""

    def shrunk(self) -> str:
        if self.puzzle == self.found_on:
            return f"not shrunk ({plural(len(givens_of(self.puzzle)), 'clue')})"
        return (f"shrunk to {plural(len(givens_of(self.puzzle)), 'clue')} (from {len(givens_of(self.found_on)):,})"
                + ("" if self.minimal else ", not 1-minimal: the time was up"))


@dataclass
class StepsFuzzer:
    """A logic solver's steps on made puzzles, each checked against its true candidates; the first failure of each
    kind (an unsound step of each technique, a protocol error, out of time) kept, an unsound one shrunk."""

    program: StepsProgram
    variants: Sequence[Variant]
    rng: random.Random
    deadline: float | None = None  # time.monotonic()'s end of the run
    tried: Counter[tuple[str, Variant]] = field(default_factory=Counter)
    verdicts: Counter[Verdict] = field(default_factory=Counter)
    steps: int = 0  # steps checked, over every puzzle
    failing: Counter[tuple[Verdict, str]] = field(default_factory=Counter)  # puzzles of each kind of failure
    failures: list[StepsFailure] = field(default_factory=list)
    seconds: float = 0.0
    on_found: Callable[[StepsFailure], None] | None = None

    def time_up(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    @property
    def plan(self) -> list[tuple[str, Variant]]:
        from .fuzz import kinds_for  # the fuzzer's kinds, as compare.py --fuzz makes them
        return [(kind, size) for size in self.variants for kind in kinds_for(size)]

    @property
    def puzzles(self) -> int:
        return sum(self.tried.values())

    def round(self, count: int) -> None:
        from .fuzz import MADE
        start = self.rng.randrange(1000)  # where in the cycle of (kind, size) this round begins
        for kind, size in itertools.islice(itertools.cycle(self.plan), start, start + count):
            if self.time_up():
                return
            started = time.perf_counter()
            grid = MADE[kind].make(size.layout(self.rng), self.rng)
            checked = self.program.check(grid, true_candidates(grid, self.program.propagations))
            self.seconds += time.perf_counter() - started
            if self.time_up() and checked.verdict is Verdict.TIME:  # stopped with the run, not by its own fault
                return
            self.tried[kind, size] += 1
            self.verdicts[checked.verdict] += 1
            self.steps += checked.steps
            if checked.verdict in FAILED:
                self.failed(kind, grid, checked)

    def failed(self, kind: str, grid: Grid, checked: StepsCheck) -> None:
        key = (checked.verdict, checked.step.technique if checked.step is not None else "")
        self.failing[key] += 1
        if self.failing[key] > 1:
            return
        failure = StepsFailure(checked, grid, grid, kind)
        if checked.verdict is Verdict.UNSOUND:
            small, again = self.program.shrunk(grid, checked, self.deadline)
            failure = StepsFailure(again if again.verdict is Verdict.UNSOUND else checked, small, grid, kind,
                                   not self.time_up())
        self.failures.append(failure)
        if self.on_found is not None:
            self.on_found(failure)


REPOSITORY = Path(__file__).resolve().parents[2]


def reproduce_line(path: str, steps: str, timeout: float) -> str:
    """The shell command that checks the program's steps on the failing puzzles again: sudoku-check in a checkout
    (`python -m commands.check`, PYTHONPATH naming the checkout when it is not the working folder)."""
    prefix = "" if Path.cwd().resolve() == REPOSITORY else f"PYTHONPATH={shlex.quote(str(REPOSITORY))} "
    words = [path, "--steps", steps] + (["--timeout", f"{timeout:g}"] if timeout != TIMEOUT else [])
    return prefix + "python -m commands.check " + " ".join(shlex.quote(word) for word in words)


def steps_failure_lines(fuzzer: StepsFuzzer, steps: str, path: str) -> list[str]:
    """The failing puzzles as a puzzle file: a comment on each failure, then its puzzle and a name."""
    shrunk = ", an unsound step shrunk to a 1-minimal puzzle" + ("" if all(f.minimal for f in fuzzer.failures) else
                                                                  " where the time allowed")
    lines = [f"# compare.py --fuzz --steps: {plural(len(fuzzer.failures), 'distinct failure')}"
             + (shrunk if fuzzer.failures else "") + f", in {plural(fuzzer.puzzles, 'puzzle')}"]
    if fuzzer.failures:
        lines.append(f"# Reproduce: {reproduce_line(path, steps, fuzzer.program.timeout)}")
    for i, failure in enumerate(fuzzer.failures, 1):
        verdict, technique = failure.key
        lines.append(f"# {failure.found.describe()[:240]}; found on a {failure.kind} puzzle of "
                     f"{plural(len(givens_of(failure.found_on)), 'clue')}"
                     + ("" if failure.minimal else "; not 1-minimal: the time was up"))
        name = re.sub(r"[^A-Za-z0-9]+", "-", f"{verdict.value} {technique}".strip())
        lines.append(f"{failure.puzzle.text()} fuzz-{i}-{name}")
    return lines


def steps_fuzz_main(steps: str, program: StepsProgram, variants: Sequence[Variant], duration: float | None,
                    limit: int | None, seed: int, output: str | None, console: Console) -> int:
    """compare.py --fuzz --steps: the exit status (0 nothing found, 1 a failure found, 130 Ctrl-C)."""
    fuzzer = StepsFuzzer(program, variants, random.Random(seed))

    def found(failure: StepsFailure) -> None:
        console.print(f"[bold red]found[/] {failure.found.verdict.value} on a {failure.kind} "
                      f"{failure.puzzle.side}x{failure.puzzle.side} puzzle, {failure.shrunk()}")
        if output:
            write_steps_failures(output, fuzzer, steps)
    fuzzer.on_found = found
    started = time.monotonic()
    fuzzer.deadline = None if duration is None else started + duration
    status = 0
    try:
        while not fuzzer.time_up() and (limit is None or fuzzer.puzzles < limit):
            fuzzer.round(ROUND if limit is None else min(ROUND, limit - fuzzer.puzzles))
    except KeyboardInterrupt:
        status = 130
    steps_report(console, fuzzer, time.monotonic() - started, interrupted=status == 130)
    if output:
        write_steps_failures(output, fuzzer, steps)
        console.print(f"Failing puzzles written to {output}" if fuzzer.failures
                      else f"No failure: {output} holds none")
    elif fuzzer.failures:
        console.print("Failing puzzles (--output FILE.txt keeps them):")
        console.print("\n".join(steps_failure_lines(fuzzer, steps, "FILE.txt")), markup=False, highlight=False,
                      soft_wrap=True)
    return status or (1 if fuzzer.failures else 0)


ROUND = 7  # puzzles between two looks at the limit


def write_steps_failures(path: str, fuzzer: StepsFuzzer, steps: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(steps_failure_lines(fuzzer, steps, path)) + "\n")


def steps_report(console: Console, fuzzer: StepsFuzzer, seconds: float, interrupted: bool = False) -> None:
    console.print(f"Puzzles the steps were checked on ({' '.join(fuzzer.program.argv)}), by kind and size")
    table = Table()
    table.add_column("kind")
    for size in fuzzer.variants:
        table.add_column(size.label, justify="right")
    kinds = list(dict.fromkeys(kind for kind, _ in fuzzer.plan))
    for kind in kinds:
        table.add_row(kind, *(f"{fuzzer.tried[kind, size]:,}" for size in fuzzer.variants))
    console.print(table)
    per_minute = fuzzer.puzzles / fuzzer.seconds * 60 if fuzzer.seconds else 0.0
    verdicts = ", ".join(f"{fuzzer.verdicts[v]:,} {v.value}" for v in Verdict if fuzzer.verdicts[v])
    console.print(f"Checks: {verdicts or 'none'}; {fuzzer.steps:,} steps checked; {per_minute:,.1f} puzzles a minute",
                  highlight=False)
    for (verdict, technique), count in sorted(fuzzer.failing.items(), key=lambda item: item[0][0].value):
        what = f"{verdict.value}{f' ({technique})' if technique else ''}"
        console.print(f"[bold red]{what} on {plural(count, 'puzzle')}[/]", highlight=False)
    tried = f"{plural(fuzzer.puzzles, 'puzzle')} ({seconds:,.0f} s)"
    if interrupted:
        console.print(f"[yellow]Interrupted after {tried}[/]")
        return
    said = (f"[bold red]FAILED: {plural(len(fuzzer.failures), 'distinct failure')}" if fuzzer.failures
            else "[green]OK: every step sound")
    console.print(f"{said} in {tried}[/]")
