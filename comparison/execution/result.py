"""One method's run on one puzzle: the record that goes from the worker to the judge, the stats and the records."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from puzzles import GAVE_UP_REASONS, Count, Status
from puzzles.outcome import NOT_RUN as NOT_RUN  # the contract's words for a run the method could not make
from puzzles.outcome import not_run as not_run
from puzzles.outcome import not_run_reason


@dataclass(slots=True)
class RunResult:
    """What one run of one method on one puzzle came to, checked in the worker.

    `solution` is the line form of a valid-looking answer; `problems` says why
    it is not a valid solution of the puzzle (empty when it is). Counters are
    whole numbers that fit in 64 bits; `info` is the JSON-able part of the
    Outcome's info (check.facts), for the records.
    """

    puzzle: int  # the puzzle's id in the run
    method: int  # the method's index among the runners
    status: Status
    detail: str = ""  # why it gave up (one of GAVE_UP_REASONS) or the error message
    solution: str | None = None
    unique: bool | None = None
    seconds: float = 0.0
    effort: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    # On the way from a worker to its pool alone (pool.py), never in a record: a streaming program's answer
    # that more output may yet make an error (provisional), and what became of the one before (settles: None
    # if there was none, '' if it holds, else the error of the puzzle it answered).
    provisional: bool = False
    settles: str | None = None
    count: Count | None = None  # with solutions=N, N > 2: how many solutions it found (exact, or at least)

    @property
    def valid(self) -> bool | None:
        """True for a valid solution, False for an invalid one, None when nothing was solved."""
        return None if self.status is not Status.SOLVED else not self.problems

    @property
    def not_run_reason(self) -> str | None:
        """Why the method did not run, for it could not take the puzzle (see NOT_RUN); None when it ran. The one
        place a run's detail is read for it: a record holds the answer, typed (records/format.py's Record)."""
        return not_run_reason(self.status, self.detail)

    @property
    def not_run(self) -> bool:
        """Whether the method could not take the puzzle, and so did not run."""
        return self.not_run_reason is not None

    @property
    def gave_up_reason(self) -> str | None:
        """Why it gave up, as one of the contract's reasons, or NOT_RUN ('other' for anything else); None if it
        did not."""
        if self.status is not Status.GAVE_UP:
            return None
        return self.detail if self.detail in GAVE_UP_REASONS else NOT_RUN if self.not_run else "other"
