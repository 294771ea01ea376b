"""The one driver of every formulation: budgets, uniqueness and the end of a solve.

A formulation is a model of one puzzle on one solver, in the pieces below
(`Formulation`); the driver does the rest, the same way for all of them:

    build the model (timed: info["build_seconds"])
    prepare (what a formulation does before search: the MIP's root LP, SAT's probing)
    solve once, with what is left of the budget
    on a solution: read it back; with solutions=2, exclude it and solve again
    counting (solutions=N, N > 2): the same, up to N; or, for a formulation whose solver enumerates
        (`solve_all`: CP-SAT), one solve that lists the solutions up to N
    conclude (puzzles.conclusion): solved, unique or not, unsatisfiable, gave up and why

Budgets: the time left and the node allowance left (the budget less the
formulation's node counter so far) go to every solve. A first solve always
starts, since a zero allowance may still settle a puzzle without search (in a
presolve, by propagation); a later one only with allowance left. A solve that
stopped at a limit without saying which is charged to the nodes when the node
counter has reached the budget, else to the clock.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from puzzles.conclusion import COUNTING, conclude
from puzzles.grid import Grid
from puzzles.outcome import Budget, GaveUp, Outcome, Status

# A budget is mapped into the backends' ranges: beyond these it is as good as none, and
# within them every backend takes it (threading.Timer's TIMEOUT_MAX, int64 milliseconds
# in pywraplp, 64-bit conflict counts in CP-SAT and PySAT).
MAX_SECONDS = 1e7  # about 116 days
MAX_COUNT = 2**62


@dataclass(frozen=True)
class Allowance:
    """What one solve may spend: seconds and nodes (in the formulation's node counter), inf when unlimited."""

    seconds: float
    nodes: float

    @property
    def timed(self) -> bool:
        return self.seconds != float("inf")

    @property
    def counted(self) -> bool:
        return self.nodes != float("inf")

    def backend_seconds(self) -> float:
        return min(max(self.seconds, 0.0), MAX_SECONDS)

    def backend_count(self) -> int:
        return int(min(max(self.nodes, 0), MAX_COUNT))


@dataclass(frozen=True)
class Answer:
    """How one solve ended.

    SOLVED: a solution, to read back (`forced`: no choice was made, so it is the only one);
    UNSATISFIABLE: none (none other than those excluded); GAVE_UP: a limit stopped it, `detail`
    the reason when the formulation knows it ("" leaves it to the driver); ERROR: `detail` says.
    """

    status: Status
    detail: str = ""
    forced: bool = False


FOUND = Answer(Status.SOLVED)
NONE = Answer(Status.UNSATISFIABLE)
STOPPED = Answer(Status.GAVE_UP)


class Formulation(Protocol):
    """One puzzle's model on one solver, in the pieces the driver drives."""

    info: dict[str, object]  # model size and the solver's own facts, reported in the Outcome
    node_counter: str  # the effort counter the node budget binds

    def prepare(self, allowance: Allowance) -> Answer | None:
        """Work before search (None: go on to search), or the Answer that ends the solve."""

    def solve_once(self, allowance: Allowance) -> Answer:
        """One call of the solver within the allowance."""

    def read(self) -> Grid:
        """The solution the last solve found."""

    def exclude(self, solution: Grid) -> None:
        """Forbid `solution`, so that the next solve finds another or none."""

    def solve_all(self, allowance: Allowance, limit: int) -> tuple[Answer, list[Grid]] | None:
        """One solve that lists the solutions, up to `limit`: UNSATISFIABLE once it has listed them all (none
        or some), SOLVED when it stopped at `limit`, GAVE_UP when a limit of the allowance stopped it first; None
        when this formulation counts by solving again with each solution excluded."""

    def effort(self) -> dict[str, int]:
        """The counters so far, every solve included."""

    def close(self) -> None:
        """Let go of the solver (called once, however the solve ended)."""


class Model:
    """A Formulation's defaults: nothing to prepare; subclasses give the rest."""

    info: dict[str, object]
    node_counter = "nodes"

    def prepare(self, allowance: Allowance) -> Answer | None:
        return None

    def solve_all(self, allowance: Allowance, limit: int) -> tuple[Answer, list[Grid]] | None:
        return None

    def close(self) -> None:
        return None


def drive(build: Callable[[], Formulation], grid: Grid, budget: Budget, solutions: int,
          started: float) -> Outcome:
    """Build a formulation and solve it within `budget`: one solution, or with solutions=2 the proof of
    uniqueness (a second solve with the first solution excluded)."""
    model = build()
    try:
        return _solve(model, grid, budget, solutions, started)
    finally:
        model.close()


def _solve(model: Formulation, grid: Grid, budget: Budget, solutions: int, started: float) -> Outcome:
    info = model.info
    info["build_seconds"] = time.perf_counter() - started
    deadline = budget.deadline(started)
    found: list[Grid] = []

    def allowance() -> Allowance:
        return Allowance(deadline - time.perf_counter(), budget.node_limit - model.effort()[model.node_counter])

    def end(answer: Answer) -> Outcome:
        status, detail = answer.status, answer.detail
        if status is Status.UNSATISFIABLE and found:
            status = Status.SOLVED  # none other than the one found
        if status is Status.GAVE_UP and not detail:
            spent = budget.nodes is not None and model.effort()[model.node_counter] >= budget.nodes
            detail = GaveUp.NODES if spent else GaveUp.TIME
        return conclude(grid, [g.values for g in found], solutions, status, detail, model.effort(), started, info)

    left = allowance()
    if left.seconds <= 0:
        return end(Answer(Status.GAVE_UP, GaveUp.TIME))
    prepared = model.prepare(left)
    if prepared is not None:
        return end(prepared)
    solver_seconds = 0.0
    if solutions >= COUNTING:
        t = time.perf_counter()
        listed = model.solve_all(allowance(), solutions)
        if listed is not None:
            answer, grids = listed
            info["solver_seconds"], info["solves"] = time.perf_counter() - t, 1
            found.extend(grids)
            return end(answer)
    for attempt in range(solutions):
        left = allowance()
        if left.seconds <= 0:
            return end(Answer(Status.GAVE_UP, GaveUp.TIME))
        if left.nodes <= 0 and attempt:
            return end(Answer(Status.GAVE_UP, GaveUp.NODES))
        t = time.perf_counter()
        answer = model.solve_once(left)
        solver_seconds += time.perf_counter() - t
        info["solver_seconds"] = solver_seconds
        info["solves"] = attempt + 1
        if answer.status is not Status.SOLVED:
            return end(answer)
        found.append(model.read())
        if len(found) == solutions or answer.forced or not grid.empty_cells():
            break  # enough; or forced, or a full grid: no other solution can exist
        model.exclude(found[-1])
    return end(FOUND)

