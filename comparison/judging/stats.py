"""Statistics: what each method did, per puzzle, in flat arrays, and the bounded summary of a run."""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from rich.markup import escape

from puzzles import BadEntry, Count, Status

from ..execution.result import RunResult
from .judge import FAILING_VERDICTS, LISTED_VERDICTS, FailureClass, Verdict

COMMON_COUNTERS = ("nodes", "guesses", "backtracks")
LISTED = 10  # lines of each list on screen before "N more"


class MethodStats:
    """What one method did, per puzzle, in flat arrays (no records kept)."""

    @property
    def no_guess_share(self) -> float | None:
        """The share of its valid solutions that needed no guess (tdoku's "no guess"), if it can tell."""
        solved = sum(self.solved)
        return self.counts["no_guess"] / solved if self.no_guess is not None and solved else None

    def __init__(self, label: str, no_guess: tuple[str, int] | None = None) -> None:
        self.label = label
        self.no_guess = no_guess  # (counter, at most): a solved run within it made no guess
        self.counts: Counter[str] = Counter()  # statuses, why it gave up, no guess
        self.failures: Counter[FailureClass] = Counter()  # the judge's failure classes of its runs
        self.seconds = array("d")  # NaN for a puzzle the method did not run (run_seconds leaves it out)
        self.solved = bytearray()  # 1 where the answer was a valid solution
        self.effort: dict[str, array[float]] = {}  # counter -> values aligned with seconds, NaN where not reported

    @property
    def run_seconds(self) -> list[float]:
        """The times of the runs the method made: its puzzles but those it could not take (not run)."""
        return present(self.seconds)

    def failed(self, classes: Collection[FailureClass]) -> int:
        """Its runs whose failure is of one of these classes."""
        return sum(self.failures[c] for c in classes)

    def add(self, result: RunResult, failure: FailureClass | None) -> None:
        """One run, and its failure class as the judge gave it (None: nothing went wrong)."""
        n = len(self.seconds)
        self.counts[result.status.value] += 1
        if result.gave_up_reason:
            self.counts[f"gave_up_{result.gave_up_reason}"] += 1
        if failure is not None:
            self.failures[failure] += 1
        if result.valid and self.no_guess is not None:
            counter, at_most = self.no_guess
            self.counts["no_guess"] += result.effort.get(counter, at_most + 1) <= at_most
        self.seconds.append(math.nan if result.not_run else result.seconds)  # a run never made took no time
        self.solved.append(result.valid is True)
        for name, value in result.effort.items():
            if name not in self.effort:
                self.effort[name] = array("d", [math.nan]) * n
            self.effort[name].append(value)
        for column in self.effort.values():
            if len(column) == n:
                column.append(math.nan)


def present(values: Iterable[float]) -> list[float]:
    return [v for v in values if not math.isnan(v)]


@dataclass
class Summary:
    """Everything the screen report needs, bounded in size."""

    stats: list[MethodStats]
    puzzles: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    notable: dict[str, list[str]] = field(default_factory=dict)  # kind -> first LISTED lines
    notable_count: Counter[str] = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)
    bad_count: int = 0
    confirmed: int = 0  # claims (no solution, unique) that only the certifier could settle, found true by it
    refuted: int = 0  # such claims it found false
    unchecked: int = 0  # such claims left unsettled: certification off, or the certifier gave up
    counted: Counter[Count] = field(default_factory=Counter)  # counting: the puzzles of each count the runs agree on
    candidates: Counter[str] = field(default_factory=Counter)  # --candidates: the puzzles of each kind (TrueCandidates)

    def note(self, kind: str, line: str) -> None:
        self.notable_count[kind] += 1
        lines = self.notable.setdefault(kind, [])
        if len(lines) < LISTED:
            lines.append(line)

    def add_candidates(self, puzzle: str, kind: str, gave_up: str | None) -> None:
        """A puzzle's true candidates found (--candidates): their kind counted (no solution, unique, several
        solutions, gave up), and why the search gave up listed with the puzzle."""
        self.candidates[kind] += 1
        if gave_up:
            self.note("candidates", f"{escape(puzzle)}: {escape(gave_up)}")

    def add_bad(self, entry: BadEntry) -> None:
        self.bad_count += 1
        if len(self.bad) < LISTED:
            self.bad.append(str(entry))

    @property
    def certified(self) -> int:
        """The claims the certifier settled, confirmed or refuted."""
        return self.confirmed + self.refuted

    @property
    def failed(self) -> bool:
        return any(self.verdicts[kind] for kind in FAILING_VERDICTS)

    @property
    def errors(self) -> int:
        """The methods' error records (a crash, junk output, a protocol error): failures of the software under
        test, though not of an answer; giving up on a budget is not one."""
        return sum(s.failures["error"] for s in self.stats)


def tally(summary: Summary, labels: Sequence[str], puzzle: str, results: Sequence[RunResult], verdict: Verdict,
          decorations: str = "", accepted: str = "") -> None:
    """A judged puzzle in the summary: its verdict, each method's result, and the lines worth listing (with the
    decorations it was read without, if any)."""
    summary.puzzles += 1
    summary.verdicts[verdict.kind] += 1
    summary.confirmed += verdict.confirmed
    summary.refuted += verdict.refuted
    summary.unchecked += verdict.unchecked
    if verdict.count is not None:
        summary.counted[verdict.count] += 1
    if verdict.kind in LISTED_VERDICTS:
        summary.note(verdict.kind, f"{escape(puzzle)}: {escape(verdict.note)}")
    failed: dict[str, list[str]] = {}  # error / gave_up / not_run -> "method (why)", one line per puzzle
    for i, result in enumerate(results):
        summary.stats[i].add(result, verdict.failures[i])
        why_not = result.not_run_reason
        if why_not is not None:  # listed apart: the method could not take the puzzle
            failed.setdefault("not_run", []).append(f"{labels[i]} ({why_not})")
        elif result.status in (Status.ERROR, Status.GAVE_UP):
            failed.setdefault(result.status.value, []).append(
                f"{labels[i]} ({result.detail})" if result.detail else labels[i])
    for status, methods in failed.items():
        summary.note(status, f"{escape(puzzle)}: {escape(', '.join(methods))}")
    if decorations:
        summary.note("decorations", f"{escape(puzzle)}: {escape(decorations)}")
    if accepted:
        summary.note("accepted", f"{escape(puzzle)}: {escape(accepted)}")
