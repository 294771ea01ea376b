"""What the HTML report keeps of a run's records as they come: compact columns, and the notable puzzles whole.

The terminal's Summary keeps no record; the page needs a little more: which puzzle each run was (for the
spread over isomorphs and the rating), whether it settled its puzzle (for PAR-2), and the grids of the
puzzles that went wrong. A run is a few numbers here, whatever the file's length.
"""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from making.candidates import marks_of
from puzzles import Status

from ...judging.judge import LISTED_VERDICTS
from ...records.format import Record

NOTABLE_KINDS = ("invalid", "disagreement", "error", "gave_up", "not_run", "multiple_solutions")  # the loudest first
NOTABLE_KEPT = 12  # puzzles kept whole for each kind (their grids are drawn)
CANDIDATE_KINDS = ("unique", "several solutions", "no solution", "gave up")  # of a puzzle's true candidates


@dataclass
class MethodRuns:
    """One method's runs, a column each, aligned: the puzzle (its index in the book), time, settled, counters."""

    label: str
    puzzle: array[int] = field(default_factory=lambda: array("q"))
    seconds: array[float] = field(default_factory=lambda: array("d"))  # NaN where the method did not run
    settled: bytearray = field(default_factory=bytearray)  # a valid solution, or "no solution", that nothing refuted
    effort: dict[str, array[float]] = field(default_factory=dict)  # NaN where a run did not report the counter

    def add(self, puzzle: int, record: Record) -> None:
        n = len(self.seconds)
        self.puzzle.append(puzzle)
        self.seconds.append(math.nan if record.not_run is not None else float(record.seconds or 0.0))  # never made
        settled = record.failure is None and (record.valid is True or record.status is Status.UNSATISFIABLE)
        self.settled.append(settled)
        for name, value in record.effort.items():
            if name not in self.effort:
                self.effort[name] = array("d", [math.nan]) * n
            self.effort[name].append(float(value))
        for column in self.effort.values():
            if len(column) == n:
                column.append(math.nan)


@dataclass(frozen=True)
class PuzzleKey:
    file: str
    line: int
    isomorph: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Notable:
    """A puzzle that went wrong somewhere, kept whole: its grid and every method's record."""

    kind: str
    key: PuzzleKey
    name: str
    puzzle: str
    verdict: str
    note: str
    records: list[Record]


@dataclass(frozen=True)
class Marked:
    """A puzzle whose true candidates (--candidates) the page draws as pencil marks."""

    key: PuzzleKey
    name: str
    puzzle: str
    kind: str  # of CANDIDATE_KINDS
    marks: list[str]  # each cell's (making.candidates.marks_of)


def candidates_kind(marks: Sequence[str]) -> str:
    """What a puzzle's true candidates say of its solutions (making.candidates.TrueCandidates.kind), read from
    its marks."""
    if any(m.endswith("?") for m in marks):
        return "gave up"
    if not any(marks):
        return "no solution"
    return "unique" if all(len(m) == 1 for m in marks) else "several solutions"


class RunBook:
    """The records of a run, as the report needs them; `add` each batch the run yields."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        self.methods = {label: MethodRuns(label) for label in labels}
        self.keys: list[PuzzleKey] = []
        self.index: dict[PuzzleKey, int] = {}
        self.ratings: array[float] = array("d")  # per puzzle; NaN where the file gives none
        self.notable: dict[str, list[Notable]] = {kind: [] for kind in NOTABLE_KINDS}
        self.notable_count: Counter[str] = Counter()
        self.bad: list[str] = []
        self.bad_count = 0
        self.candidates: Counter[str] = Counter()  # --candidates: the puzzles of each kind
        self.marked: list[Marked] = []  # the first NOTABLE_KEPT puzzles with more than one candidate somewhere

    def add(self, records: Iterable[Record]) -> None:
        groups: dict[PuzzleKey, list[Record]] = {}
        for record in records:
            if record.bad_entry:
                self.bad_count += 1
                if len(self.bad) < NOTABLE_KEPT:
                    self.bad.append(f"{record.file}:{record.line}: {record.detail}")
                continue
            if record.verdict == "interrupted":  # never judged: the terminal's summary leaves it out too
                continue
            groups.setdefault(PuzzleKey(record.file, record.line, record.isomorph or 0), []).append(record)
        for key, group in groups.items():
            self.add_puzzle(key, group)

    def add_puzzle(self, key: PuzzleKey, records: list[Record]) -> None:
        if key not in self.index:
            self.index[key] = len(self.keys)
            self.keys.append(key)
            rating = records[0].rating
            self.ratings.append(float(rating) if isinstance(rating, int | float) else math.nan)
        puzzle = self.index[key]
        for record in records:
            if record.method in self.methods:
                self.methods[record.method].add(puzzle, record)
        first = records[0]
        if first.candidates is not None:
            self.add_candidates(key, first)
        kind = notable_kind(records)
        if kind is not None:
            self.notable_count[kind] += 1
            kept = self.notable[kind]
            if len(kept) < NOTABLE_KEPT:
                first = records[0]
                kept.append(Notable(kind, key, first.name or "", first.puzzle or "", first.verdict or "",
                                    first.note or "", records))

    def add_candidates(self, key: PuzzleKey, record: Record) -> None:
        """A puzzle's true candidates counted by kind, and kept to be drawn when they say more than a solution."""
        marks = marks_of(record.candidates or "")
        kind = candidates_kind(marks)
        self.candidates[kind] += 1
        if kind in ("several solutions", "gave up") and len(self.marked) < NOTABLE_KEPT:
            self.marked.append(Marked(key, record.name or "", record.puzzle or "", kind, marks))

    @property
    def rated(self) -> bool:
        return any(not math.isnan(r) for r in self.ratings)


def notable_kind(records: Sequence[Record]) -> str | None:
    """Why a puzzle's records are worth drawing: its verdict, else a run that failed, gave up, or was not run
    (its method could not take the puzzle)."""
    verdict = records[0].verdict
    if verdict in LISTED_VERDICTS:
        return str(verdict)
    statuses = {"not_run" if r.not_run is not None else r.status.value if r.status is not None else None
                for r in records}
    return next((kind for kind in ("error", "gave_up", "not_run") if kind in statuses), None)
