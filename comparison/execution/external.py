"""A solver written in any language: a program that speaks protocol 1 (docs/reference/protocol.md).

`--command NAME[:mode=once,input=matrix|fpuzzles]='program and its arguments'` makes a Method
whose solve sends the puzzle to the program and reads its answer. The input form is what
the program declares it takes: `line` and `matrix` carry a classic grid's values alone, so
a puzzle of the Sudoku family (a Jigsaw, an X, ...) is not run on such a program: its
record says so and why (`gave_up`, "not run: ..."), no error and no failure; `fpuzzles`
carries the whole puzzle, houses and all, as one line of f-puzzles JSON. In streaming mode
(the default) a worker keeps one program across puzzles, so start-up is paid once.
The budget is enforced here: a program that overruns is killed with its children (it
leads a process group of its own, see processes.py) and started again for the next
puzzle. A program that ends, or writes something that is not an answer, is that
puzzle's error, with the first error line and the tail of its standard error (the first says why, the
last what happened next); it is started again too.

A streaming program's answer is provisional (`owed`) until its next exchange or its end: output that comes
after an answer and before the next puzzle is sent, or before the program exits once its input is closed
(`settle`), is a second answer to the puzzle it followed, whose run the worker's pool then marks an error
(`settlement`, pool.py). A line read for the next puzzle that repeats the last answer word for word is
asked again of a new program, given this puzzle alone: if its answer differs, the line was the last
puzzle's second answer, and this puzzle is judged on the new program's answer.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzles import Budget, GaveUp, Grid, Method, Outcome, PuzzleError, Status
from puzzles.conclusion import COUNTING
from puzzles.fpuzzles import json_line
from puzzles.grid import Layout
from puzzles.layouts import words_of_layout
from puzzles.options import how_many

from .processes import adopt_program, exit_reason, kill_orphans, program_child, program_environment, release_program
from .result import not_run

PROTOCOL = 1
MODES, INPUTS = ("streaming", "once"), ("line", "matrix", "fpuzzles")
WHOLE_PUZZLE = ("fpuzzles",)  # input forms that carry a puzzle's houses: any puzzle; the others, classic grids
FILE = "{file}"  # in a once-mode command: replaced by the path of a file holding the puzzle
STDERR_TAIL = 1000  # characters of a program's standard error kept for its error records
EXIT_GRACE = 0.5  # seconds a program that closed its output has to exit before it is killed
SPEC = re.compile(r"(?P<name>[^:=,\s]+)(?::(?P<options>\w+=\w+(?:,\w+=\w+)*))?=(?P<command>.*)", re.DOTALL)
COUNTER = re.compile(r"[A-Za-z_]\w*=[+-]?\d+")


@dataclass(frozen=True)
class Command:
    """An external solver as `--command` gives it: its name, program and arguments, mode and input form."""

    name: str
    argv: tuple[str, ...]
    mode: str = "streaming"
    input: str = "line"

    @classmethod
    def parse(cls, spec: str) -> Command:
        """`NAME[:mode=streaming|once,input=line|matrix|fpuzzles]=PROGRAM ARGS...`; ValueError says what is wrong."""
        match = SPEC.fullmatch(spec.strip())
        if match is None:
            raise ValueError("expected NAME[:mode=streaming|once,input=line|matrix|fpuzzles]='program and its "
                             "arguments'")
        options = dict(part.split("=") for part in (match["options"] or "").split(",") if part)
        for key, value in options.items():
            choices = {"mode": MODES, "input": INPUTS}.get(key)
            if choices is None:
                raise ValueError(f"unknown option {key!r} (options: mode, input)")
            if value not in choices:
                raise ValueError(f"{key}={value}: {key} is {' or '.join(choices)}")
        try:
            argv = tuple(shlex.split(match["command"]))
        except ValueError as exc:  # an unclosed quote
            raise ValueError(f"cannot split the command: {exc}") from None
        if not argv:
            raise ValueError("no program given after '='")
        command = cls(match["name"], argv, options.get("mode", "streaming"), options.get("input", "line"))
        if FILE in command.line and command.mode != "once":
            raise ValueError(f"{FILE} needs mode=once (a streaming program reads its puzzles from standard input)")
        if shutil.which(argv[0]) is None:
            raise ValueError(f"program {argv[0]!r} not found, or not executable")
        return command

    @property
    def line(self) -> str:
        return shlex.join(self.argv)

    def method(self) -> Method:
        return Method(External(self), f"external program ({self.mode}, {self.input} input): {self.line}")

    def refuses(self, grid: Grid) -> str:
        """Why the program cannot take this puzzle ('' when it can): its input form carries a classic grid's
        values alone, and this puzzle has other houses (a Jigsaw's regions, diagonals, ...) or cages it would drop."""
        if self.input in WHOLE_PUZZLE or grid.layout.is_classic:
            return ""
        lay, n = grid.layout, grid.side
        kind = f"Sudoku in {lay.box_height}x{lay.box_width} boxes" if lay.variant == "classic" else lay.variant
        return (f"input={self.input} carries classic Sudoku (square boxes) only, not this {n}x{n} {kind}; "
                "input=fpuzzles carries every house and cage")


class Overrun(Exception):
    """The program did not answer within the budget."""


class ProtocolError(Exception):
    """The program ended, or wrote something that is not an answer: the message says which."""


class Program:
    """One run of the program: its process, leading its own process group, its pipes and its stderr tail."""

    def __init__(self, argv: Sequence[str], stdin: bool) -> None:
        # preexec_fn is safe here: the worker that starts a program runs no other thread
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, bufsize=0, preexec_fn=program_child, env=program_environment())
        adopt_program(self.process.pid)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.out, self.err = self.process.stdout.fileno(), self.process.stderr.fileno()
        self.poll = select.poll()
        for fd in (self.out, self.err):
            self.poll.register(fd, select.POLLIN)
        self.buffer = bytearray()  # output read but not yet taken
        self.stderr = ""  # its last STDERR_TAIL characters
        self.stderr_head = ""  # its first STDERR_TAIL characters: the line that says why is often the first
        self.eof = False

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text.encode())
        except OSError:  # it has closed its input or ended: reading its answer will say so
            pass

    def close_input(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()

    def pending(self) -> bool:
        """Whether it wrote something that nobody asked for (read now, so that it shows in the error)."""
        self._read(0.0)
        return bool(self.buffer)

    def line(self, deadline: float) -> bytes:
        """Its next line of output, without the newline; Overrun past the deadline, ProtocolError if it ends."""
        while (end := self.buffer.find(b"\n")) < 0:
            self._wait(deadline)
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return line

    def rest(self, deadline: float) -> bytes:
        """All its output up to its end (once mode)."""
        while not self.eof:
            self._read(max(0.0, deadline - time.perf_counter()))
            if not self.eof and time.perf_counter() >= deadline:
                raise Overrun
        return bytes(self.buffer)

    def _wait(self, deadline: float) -> None:
        if self.eof:
            partial = f" after a partial line {self.buffer.decode(errors='replace')!r:.80}" if self.buffer else ""
            raise ProtocolError(f"the program ended ({self.end()}) before its answer{partial}")
        now = time.perf_counter()
        if now >= deadline:
            raise Overrun
        self._read(deadline - now)

    def _read(self, seconds: float) -> None:
        """Whatever output and standard error come within `seconds` (inf: until something comes)."""
        timeout = None if math.isinf(seconds) else math.ceil(seconds * 1000)
        for fd, _ in self.poll.poll(timeout):
            data = os.read(fd, 65536)
            if fd == self.out:
                self.buffer += data
                self.eof = self.eof or not data
            else:
                text = data.decode(errors="replace")
                if len(self.stderr_head) < STDERR_TAIL:
                    self.stderr_head = (self.stderr_head + text)[:STDERR_TAIL]
                self.stderr = (self.stderr + text)[-STDERR_TAIL:]
            if not data:
                self.poll.unregister(fd)

    def end(self) -> str:
        """How it ended, once its output is closed: it has a moment to exit before it is killed."""
        deadline = time.perf_counter() + EXIT_GRACE
        while self.process.poll() is None and time.perf_counter() < deadline:
            self._read(0.01)  # its last words on stderr
        self._read(0.0)
        return exit_reason(self.process.poll()) if self.process.poll() is not None else "closed its output"

    def kill(self) -> None:
        """The program goes with its whole group (its children too), reaped, its pipes closed."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        release_program(self.process.pid)
        kill_orphans()  # what it started and left its group (setsid), come back to this worker
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()

    def stderr_tail(self) -> str:
        """'; stderr: FIRST ERROR LINE | ... | LAST LINES', or '' when it wrote nothing there."""
        last = [line.strip() for line in self.stderr.strip().splitlines()[-3:]]
        first = first_error_line(self.stderr_head)
        shown = ([first, "..."] if first and first not in last else []) + last
        return f"; stderr: {' | '.join(shown)}" if last else ""


class External:
    """The solve of a --command method: one program per worker (streaming) or one per puzzle (once)."""

    def __init__(self, command: Command) -> None:
        self.command = command
        self.program: Program | None = None  # the streaming program, started on the first puzzle
        self.owed = False  # its last answer came from the program still running: more output would be a 2nd one
        self.last_answer = b""  # that answer, as it came
        # set by each call: what became of the answer owed before it (None: none was owed; '': nothing wrong;
        # else the error of the puzzle that answer was to)
        self.settlement: str | None = None

    def check_options(self, options: dict[str, Any], budget: Budget | None) -> None:
        """Called before any run (Method.check): protocol 1 gives a program no node budget to keep."""
        if budget is not None and budget.nodes is not None:
            raise ValueError("an external program gets no node budget (protocol 1): leave out --nodes")

    def __call__(self, grid: Grid, budget: Budget = Budget(), **options: Any) -> Outcome:
        started = time.perf_counter()
        self.settlement = None
        refused = self.command.refuses(grid)
        if how_many(options.get("solutions", 1)) >= COUNTING:  # protocol 1: one answer, no count
            refused = f"{self.command.name} is a program that gives one answer: it cannot count solutions"
        if refused:  # nothing is sent: the program would solve another puzzle than this one
            return Outcome(Status.GAVE_UP, detail=not_run(refused), seconds=time.perf_counter() - started)
        deadline = budget.deadline(started)
        try:
            text = self._once(grid, deadline) if self.command.mode == "once" else self._streaming(grid, deadline)
            outcome = parse_answer(text.decode(errors="replace"), grid.layout)
        except Overrun:
            self.stop()
            return Outcome(Status.GAVE_UP, detail=GaveUp.TIME.value, seconds=time.perf_counter() - started)
        except (ProtocolError, OSError) as exc:  # OSError: it cannot be started
            detail = f"{exc}{self.program.stderr_tail() if self.program is not None else ''}"
            self.stop()
            return Outcome(Status.ERROR, detail=detail, seconds=time.perf_counter() - started)
        finally:
            if self.command.mode == "once":
                self.stop()
        outcome.seconds = time.perf_counter() - started
        if self.program is not None:  # streaming: the answer holds unless more output comes before the next puzzle
            self.owed, self.last_answer = True, text
        return outcome

    def _streaming(self, grid: Grid, deadline: float) -> bytes:
        """Send the puzzle to the worker's program (started on the first puzzle, or again after a failure)."""
        owed, self.owed = self.owed, False
        if self.program is not None and self.program.pending():  # written after its last answer, unasked
            self.settlement = second_answer(self.program.buffer, self.program)
            self.stop()
        elif owed:
            self.settlement = ""
        text = self._ask(grid, deadline)
        if owed and not self.settlement and text == self.last_answer:
            # The last answer again, word for word: this puzzle's own, or a late second answer to the last one?
            # A new program, given this puzzle alone, says.
            suspect = self.program
            assert suspect is not None
            self.program = None
            try:
                fresh = self._ask(grid, deadline)
            finally:
                suspect.kill()
            if fresh != text:
                self.settlement = second_answer(text, suspect)
            text = fresh
        return text

    def _ask(self, grid: Grid, deadline: float) -> bytes:
        """Send the puzzle to the program (started first if there is none), and read its answer."""
        if self.program is None:
            self.program = Program(self.command.argv, stdin=True)
        self.program.send(puzzle_text(grid, self.command.input))
        return answer_lines(self.program, grid.side, deadline)

    def settle(self) -> str | None:
        """At the end of a worker's run: its input closed, what the program writes before it ends is a second
        answer to the last puzzle (then that puzzle's error, returned); '' if nothing, None if no answer was owed.
        The program goes either way."""
        if not self.owed or self.program is None:
            return None
        self.owed = False
        program = self.program
        program.close_input()
        try:
            output = program.rest(time.perf_counter() + EXIT_GRACE)
        except Overrun:  # it does not end at the end of its input: it is killed, as it would be anyway
            output = bytes(program.buffer)
        detail = second_answer(output, program) if output else ""
        self.stop()
        return detail

    def _once(self, grid: Grid, deadline: float) -> bytes:
        """Start the program on this puzzle (on its standard input, or in the file {file} names), read it all."""
        text = puzzle_text(grid, self.command.input)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", prefix="puzzle-") as handle:
            handle.write(text)
            handle.flush()
            by_file = any(FILE in arg for arg in self.command.argv)
            argv = [arg.replace(FILE, handle.name) for arg in self.command.argv]
            program = self.program = Program(argv, stdin=not by_file)
            if not by_file:
                program.send(text)
                program.close_input()
            output = program.rest(deadline)
            how = program.end()
        if program.process.returncode != 0:
            raise ProtocolError(f"the program ended ({how})")
        return output

    def stop(self) -> None:
        if self.program is not None:
            self.program.kill()
            self.program = None


def second_answer(output: bytes | bytearray, program: Program) -> str:
    """The error of a puzzle whose answer the program followed with more output, unasked."""
    return (f"it wrote more than one answer to this puzzle; after it: {output.decode(errors='replace')!r:.80}"
            f"{program.stderr_tail()}")


def first_error_line(text: str) -> str:
    """The first line of `text` that speaks of an error (else its first line), stripped: usually the cause."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")


def puzzle_text(grid: Grid, form: str) -> str:
    """The puzzle as the program reads it: one line of symbols, one line of f-puzzles JSON, or `side` lines of
    numbers with 0 for a blank."""
    if form == "line":
        return grid.line() + "\n"
    if form == "fpuzzles":
        return json_line(grid) + "\n"
    side = grid.side
    return "".join(" ".join(map(str, grid.values[r * side:(r + 1) * side])) + "\n" for r in range(side))


def answer_lines(program: Program, side: int, deadline: float) -> bytes:
    """One answer of a streaming program: one line, or `side` lines when its first line holds several numbers."""
    first = program.line(deadline)
    lines = [first]
    numbers = [w for w in first.split() if b"=" not in w]
    if len(numbers) > 1 and all(w.isdigit() for w in numbers):  # a matrix row, not a line or a word
        lines += [program.line(deadline) for _ in range(side - 1)]
    return b"\n".join(lines)


def parse_answer(text: str, lay: Layout) -> Outcome:
    """An answer (line or matrix form, `unsat` or `unknown`, then `name=integer` counters) to a puzzle of this
    layout, as an Outcome: a solution is read in the puzzle's houses."""
    words = text.split()
    effort: dict[str, int] = {}
    while words and "=" in words[-1]:
        if not COUNTER.fullmatch(words[-1]):
            raise ProtocolError(f"{words[-1]!r:.40} is not a counter (name=integer)")
        name, value = words.pop().split("=")
        effort[name] = int(value)
    effort = dict(reversed(effort.items()))  # in the order the program wrote them
    if words == ["unsat"]:
        return Outcome(Status.UNSATISFIABLE, effort=effort)
    if words == ["unknown"]:
        return Outcome(Status.GAVE_UP, effort=effort, detail=GaveUp.INCOMPLETE.value)
    side, houses = lay.side, words_of_layout(lay)
    try:
        if len(words) == 1:  # the puzzle's houses after the symbols when it has its own (of its size alone)
            whole = len(words[0]) == side * side and houses
            solution = Grid.parse(f"{words[0]};{houses}" if whole else words[0])
        elif words and all(w.isdigit() for w in words):
            values = [int(w) for w in words]
            solution = Grid.from_values(values, lay if len(values) == side * side else None)
        else:
            raise PuzzleError("neither a grid, unsat nor unknown")
    except PuzzleError as exc:
        raise ProtocolError(f"not an answer: {text.strip()!r:.100} ({exc})") from None
    if solution.side != side:
        raise ProtocolError(f"an answer for a {solution.side}x{solution.side} grid; the puzzle is {side}x{side}")
    return Outcome(Status.SOLVED, solution, effort)
