"""`sudoku-check --steps PROGRAM`: a logic solver run on a puzzle and its every step checked (making/steps.py), and
a puzzle on which it is unsound shrunk to a 1-minimal one on which it still is (making/shrink.py).

The program is started for each puzzle, as the solver protocol's once mode starts it (docs/reference/protocol.md):
the puzzle's whole line on its standard input (its values, then the words of its houses and rules for a puzzle
of the Sudoku family), then the end of its input; it writes its steps and its final line (docs/reference/steps.md)
and exits with status 0. It leads a process group of its own and is killed with its children when its time is
up (comparison/execution/external.py's Program, as compare.py runs a --command program).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from making.candidates import PROPAGATIONS, TrueCandidates, true_candidates
from making.shrink import shrink
from making.steps import StepsCheck, Verdict, check_steps
from puzzles.grid import Grid

from ..execution.external import Overrun, Program, ProtocolError
from ..execution.processes import mark_run

TIMEOUT = 10.0  # seconds a program has for one puzzle


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

    def shrunk(self, grid: Grid, found: StepsCheck) -> tuple[Grid, StepsCheck]:
        """A puzzle on which the program is unsound (`found`) shrunk to a 1-minimal one on which it still is, by the
        same technique (any step, when the one found names none); and the check of the small one."""
        technique = found.step.technique if found.step is not None else ""

        def fails(grids: Sequence[Grid]) -> list[bool]:
            return [same_failure(self.check(g), technique) for g in grids]
        small = shrink(grid, fails)
        return small, self.check(small)


def same_failure(found: StepsCheck, technique: str) -> bool:
    """Whether a check is unsound at a step of this technique ('' : of any)."""
    return found.verdict is Verdict.UNSOUND and (not technique or (found.step is not None
                                                                    and found.step.technique == technique))
