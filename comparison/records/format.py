"""Records: one per (puzzle, method), typed in memory (Record), as dicts (what the Python API yields), CSV or
JSON lines.

The one place of the record format: its fields and their types, a record made from a judged run (Records), its
line in the file (Record.row, written by RecordWriter, csv_value) and a line read back (read_records, typed,
Record.of_row) as the run made it."""
from __future__ import annotations

import contextlib
import csv
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

from puzzles import BadEntry, Count, Layout, Status

from ..core.errors import UsageError
from ..core.selected import Selected
from ..core.stream import Puzzle
from ..execution.result import RunResult
from ..judging.judge import FailureClass, Judged, Verdict, VerdictKind, failure_of
from ..judging.stats import COMMON_COUNTERS

RECORD_FIELDS = ("file", "line", "name", "isomorph", "rating", "method", "status", "detail", "puzzle", "solution",
                 "unique", "seconds", "valid", "problems", "verdict", "note", "disagrees")
# each field's type, for reading a CSV file's texts back; the counters are whole numbers
INTEGERS, FLOATS, BOOLEANS = ("line", "isomorph"), ("rating", "seconds"), ("unique", "valid", "disagrees")
JSON = ("extra", "info")  # JSON text in a CSV file, an object in JSON lines
TEXTS = ("file", "name", "method", "status", "detail", "puzzle", "solution", "problems", "verdict", "note")
COUNT = "count"  # a counting run's column (solutions=N, N > 2), after `unique`: "7", or "10+" for at least 10
CANDIDATES = "candidates"  # a run with --candidates: the puzzle's true candidates (making/candidates.py's text)
RECORD_KEYS = {*INTEGERS, *FLOATS, *BOOLEANS, *TEXTS, *JSON, COUNT, CANDIDATES}
BAD_ENTRY = "bad_entry"  # the status of a bad entry's record


def counter_columns(selected: Sequence[Selected]) -> list[str]:
    """The union of the methods' declared counters, the common ones first."""
    declared = [c for s in selected for c in s.method.counters]
    return list(dict.fromkeys([c for c in COMMON_COUNTERS if c in declared] + declared))


@dataclass(frozen=True)
class Record:
    """One method's run on one puzzle as judged, or a bad entry: what the page, the ladder and compare.py read.

    Its fields are the file's (RECORD_FIELDS), as the run wrote them (a field the file leaves empty is None), its
    counters, and what the file does not say as such: whether the method ran (`not_run`), the judge's failure
    class, and the puzzle's layout. `row` is its line in the records file; `of_row` a line read back.
    """

    file: str
    line: int
    status: Status | None  # None: a bad entry, its `detail` saying why
    detail: str | None = None
    name: str | None = None
    isomorph: int | None = None
    rating: float | None = None
    method: str | None = None  # the method's label; None for a bad entry
    puzzle: str | None = None  # the line form
    solution: str | None = None
    unique: bool | None = None
    seconds: float | None = None
    valid: bool | None = None
    problems: str | None = None
    verdict: VerdictKind | None = None
    note: str | None = None
    disagrees: bool | None = None
    count: Count | None = None  # a counting run's (the `count` column); None in a run that does not count
    candidates: str | None = None  # the puzzle's true candidates (TrueCandidates.text), with --candidates
    counters: Mapping[str, int] = field(default_factory=dict)  # those that are the run's counter columns, in order
    extra: Mapping[str, int] = field(default_factory=dict)  # the method's other counters
    info: Mapping[str, Any] = field(default_factory=dict)  # the other facts the method reported
    not_run: str | None = None  # why the method did not run (it cannot take the puzzle); None when it ran
    failure: FailureClass | None = None  # what went wrong with the run, by the judge (None: nothing, or unjudged)
    layout: Layout | None = None  # the puzzle's, when it was run here (a record read back has none)

    @property
    def bad_entry(self) -> bool:
        return self.status is None

    @property
    def effort(self) -> dict[str, int]:
        """Every counter of the run: its counter columns, then the others."""
        return {**self.counters, **self.extra}

    def row(self, fields: Sequence[str]) -> dict[str, Any]:
        """The record as its line in the file (and the Python API's dict): `fields` (Records.fields) in order."""
        row: dict[str, Any] = dict.fromkeys(fields)
        row.update(file=self.file, line=self.line, name=self.name, isomorph=self.isomorph, rating=self.rating,
                   method=self.method, status=BAD_ENTRY if self.status is None else self.status.value,
                   detail=self.detail, puzzle=self.puzzle, solution=self.solution, unique=self.unique,
                   seconds=self.seconds, valid=self.valid, problems=self.problems, verdict=self.verdict,
                   note=self.note, disagrees=self.disagrees)
        if COUNT in row:
            row[COUNT] = None if self.count is None else str(self.count)
        if CANDIDATES in row:
            row[CANDIDATES] = self.candidates
        row.update(self.counters)
        row["extra"] = dict(self.extra) or None
        row["info"] = dict(self.info) or None
        return row

    @classmethod
    def of_row(cls, row: Mapping[str, Any]) -> Record:
        """A record read back (read_records): whether the method ran, and the judge's failure class, found again
        from what the file keeps (its status and detail; whether the run disagrees); no layout."""
        if row["status"] == BAD_ENTRY:
            return cls(row["file"], row["line"], None, detail=row.get("detail"))
        result = run_result(0, row)
        # the counter columns set, as the file holds them (whole numbers, as the run wrote them)
        counters = cast("dict[str, int]", {k: v for k, v in row.items() if k not in RECORD_KEYS
                                           and isinstance(v, int | float) and not isinstance(v, bool)})
        return cls(row["file"], row["line"], result.status, detail=row.get("detail"), name=row.get("name"),
                   isomorph=row.get("isomorph"), rating=row.get("rating"), method=row.get("method"),
                   puzzle=row.get("puzzle"), solution=row.get("solution"), unique=row.get("unique"),
                   seconds=row.get("seconds"), valid=row.get("valid"), problems=row.get("problems"),
                   verdict=cast("VerdictKind | None", row.get("verdict")), note=row.get("note"),
                   disagrees=row.get("disagrees"), count=result.count, candidates=row.get(CANDIDATES),
                   counters=counters, extra=row.get("extra") or {},
                   info=row.get("info") or {}, not_run=result.not_run_reason,
                   failure=failure_of(result, bool(row["disagrees"])))


class Records:
    """Makes the records: RECORD_FIELDS, a column per declared counter, `extra` for any other counter, and
    `info` for the other facts the method reported (the Outcome's info, its JSON-able part: check.facts)."""

    def __init__(self, counters: Sequence[str], counting: bool = False, candidates: bool = False) -> None:
        """`counting`: the run counts solutions (solutions=N, N > 2), so its records have a `count` column;
        `candidates`: the run finds each puzzle's true candidates, a `candidates` column after the solution."""
        self.counters = list(counters)
        fields = list(RECORD_FIELDS)
        if counting:
            fields.insert(fields.index("unique") + 1, COUNT)
        if candidates:
            fields.insert(fields.index("solution") + 1, CANDIDATES)
        self.fields = [*fields, *self.counters, "extra", "info"]

    def of_judged(self, judged: Judged, selected: Sequence[Selected], candidates: str | None = None) -> list[Record]:
        """A judged puzzle's records, one a method, in the run's order (each with the puzzle's true `candidates`,
        when the run finds them)."""
        verdict = judged.verdict
        return [self.run_record(judged.puzzle, selected[i], result, verdict, i, candidates)
                for i, result in enumerate(judged.results)]

    def run_record(self, puzzle: Puzzle, selected: Selected, result: RunResult, verdict: Verdict,
                   index: int, candidates: str | None = None) -> Record:
        """The record of the run of the method at `index` (its failure class the verdict's, if it gives any)."""
        effort = result.effort
        return Record(puzzle.file, puzzle.line, result.status, detail=result.detail, name=puzzle.name,
                      isomorph=puzzle.isomorph, rating=puzzle.rating, method=selected.label, puzzle=puzzle.grid.text(),
                      solution=result.solution, unique=result.unique if selected.asks_more else None,
                      seconds=round(result.seconds, 6), valid=result.valid, problems="; ".join(result.problems),
                      verdict=verdict.kind, note=verdict.note, disagrees=index in verdict.disagree,
                      count=result.count if selected.counting else None, candidates=candidates,
                      counters={c: effort[c] for c in self.counters if c in effort},
                      extra={k: v for k, v in effort.items() if k not in self.counters}, info=result.info,
                      not_run=result.not_run_reason,
                      failure=verdict.failures[index] if verdict.failures else None, layout=puzzle.grid.layout)

    def bad_record(self, entry: BadEntry) -> Record:
        return Record(entry.file, entry.line, None, entry.reason)

    def row(self, record: Record) -> dict[str, Any]:
        """The record as its line in this run's file, and as the Python API yields it."""
        return record.row(self.fields)


class RecordWriter:
    """Records as CSV or JSON lines, flushed as puzzles finish.

    A write that fails (a full disk, a failing device) does not raise: the writer stops and says why in
    `failed`; the run reads that and stops with a clear error. A file is cut back to its last whole puzzle
    then (its size at the last flush that went through), so it holds exactly the `held` records counted:
    a puzzle's records written in part, or a record cut off, by a write or a flush that failed halfway (and by
    closing after it, which flushes what was buffered), are not left in it.
    """

    def __init__(self, path: str, fmt: str, fields: Sequence[str], append: bool = False, kept: int = 0) -> None:
        """`append`: after the records already in the file (--resume), which has their header already; `kept`:
        how many records it holds."""
        self.path, self.fmt, self.fields = path, fmt, list(fields)
        self.failed: str | None = None  # why writing stopped
        self.kept = kept  # records the file held before this writer's
        self.written = 0  # records written and flushed
        self.pending = 0  # records written since the last flush
        self.handle: IO[str] = open(path, "a" if append else "w", newline="",  # noqa: SIM115  # closed by close()
                                    encoding="utf-8")
        self.regular = os.path.isfile(path)  # a file that can be cut back (not a pipe, not a device)
        self.whole = self.size()  # the file's size after its last whole puzzle
        self.csv = csv.DictWriter(self.handle, self.fields) if fmt == "csv" else None
        if self.csv and self.handle.tell() == 0:
            self.guarded(self.csv.writeheader)
            self.flush()

    @property
    def held(self) -> int:
        """The records the file holds: those it kept, and this writer's that went through."""
        return self.kept + self.written

    def size(self) -> int:
        return os.stat(self.path).st_size if self.regular else 0

    def guarded(self, action: Callable[[], object]) -> None:
        if self.failed is not None:
            return
        try:
            action()
        except OSError as exc:
            self.failed = f"writing {self.path} failed ({exc.strerror or exc})"
            with contextlib.suppress(OSError):  # the buffer that failed fails again on close, or goes in part
                self.handle.close()
            self.cut_back()

    def cut_back(self) -> None:
        """The file back to its last whole puzzle: what a failed write or flush left of the next one goes."""
        if not self.regular:
            return
        try:
            if os.stat(self.path).st_size > self.whole:
                os.truncate(self.path, self.whole)
        except OSError as exc:
            self.failed = (f"{self.failed}; cutting it back to its last whole puzzle failed too "
                           f"({exc.strerror or exc}): --resume drops what follows it")

    def write_record(self, record: Record) -> None:
        """A record of this run, as its line."""
        self.write(record.row(self.fields))

    def write(self, record: dict[str, Any]) -> None:
        """A line as it is (a record's row, or a kept one: --resume rewrites the file)."""
        if self.csv is not None:
            row = {k: csv_value(v) for k, v in record.items()}
            self.guarded(lambda: self.csv.writerow(row) if self.csv is not None else None)
        else:
            line = json.dumps(record) + "\n"
            self.guarded(lambda: self.handle.write(line))
        self.pending += 1

    def flush(self) -> None:
        """After a puzzle's records (all of them: the file is cut back to here if a later write fails)."""
        self.guarded(self.handle.flush)
        if self.failed is None:
            self.written, self.pending = self.written + self.pending, 0
            with contextlib.suppress(OSError):  # the file removed while written: nothing to cut back
                self.whole = self.size()

    def close(self) -> None:
        self.flush()
        self.guarded(self.handle.close)


def csv_value(value: Any) -> Any:
    """A record's value as its CSV text (typed() reads it back)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value)
    return value


def run_result(index: int, record: Mapping[str, Any]) -> RunResult:
    """A record back as the result it was made from (the puzzle's id in the run is not kept: 0)."""
    counters = {k: v for k, v in record.items() if k not in RECORD_KEYS and v is not None}
    effort = {**counters, **(record.get("extra") or {})}
    problems = [record["problems"] or "invalid"] if record["valid"] is False else []
    count = record.get(COUNT)
    return RunResult(0, index, Status(record["status"]), record["detail"] or "", record["solution"] or None,
                     record["unique"], float(record["seconds"] or 0.0), effort, problems, record.get("info") or {},
                     count=None if count is None else Count.parse(count))


def failure_of_record(record: Mapping[str, Any]) -> FailureClass | None:
    """The judge's failure class of the run a record read back keeps (the file keeps whether it disagrees, not the
    class)."""
    return failure_of(run_result(0, record), bool(record["disagrees"]))


def read_records(path: Path, fmt: str, fields: Sequence[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of each whole record in the file, typed as the run made it; the last record, when
    cut off (no newline after it), is left out. UsageError for anything else that is not a record of this run."""
    cut = ends_cut(path)
    # surrogateescape: a byte that is not UTF-8 (a record cut inside a character) is marked, not fatal: the last
    # line is dropped anyway, any other is reported by its number
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as handle:
        rows = json_rows(handle, fields) if fmt == "jsonl" else csv_rows(handle, path, fields)
        previous: Row | None = None
        for row in rows:
            if previous is not None:
                yield previous.whole(path)
            previous = row
        if previous is not None and not cut:
            yield previous.whole(path)


def ends_cut(path: Path) -> bool:
    """Whether the file's last line has no newline: a record cut off by a crash."""
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell() == 0:
            return False
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


@dataclass
class Row:
    """A record read, or why the line is not one (an error unless it is the last line, cut off)."""

    number: int
    record: dict[str, Any] | None
    problem: str = ""

    def whole(self, path: Path) -> tuple[int, dict[str, Any]]:
        if self.record is None:
            raise UsageError(f"--resume: {path}, line {self.number}: {self.problem}")
        return self.number, self.record


NOT_UTF8 = re.compile("[\udc80-\udcff]")  # what surrogateescape makes of a byte that is not UTF-8
STATUSES = {status.value for status in Status} | {BAD_ENTRY}


def checked(number: int, record: Any, fields: Sequence[str]) -> Row:
    """The record, if it is one this run writes: every field, a known status, text that was UTF-8."""
    if not isinstance(record, dict) or not set(fields) <= record.keys():
        return Row(number, None, "not a record of compare.py (fields missing)")
    if record["status"] not in STATUSES:
        return Row(number, None, f"not a record of compare.py (status {record['status']!r})")
    if any(isinstance(value, str) and NOT_UTF8.search(value) for value in record.values()):
        return Row(number, None, "not UTF-8 text")
    return Row(number, record)


def json_rows(handle: Any, fields: Sequence[str]) -> Iterator[Row]:
    for number, line in enumerate(handle, 1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        yield checked(number, record, fields)


def csv_rows(handle: Any, path: Path, fields: Sequence[str]) -> Iterator[Row]:
    reader = csv.reader(handle)
    header = next(reader, None)
    if header != list(fields):
        raise UsageError(f"--resume: {path}: its columns are not those of this run's records")
    for row in reader:
        number = reader.line_num
        if len(row) != len(fields):
            yield Row(number, None, f"{len(row)} fields, not {len(fields)}")
            continue
        try:
            yield checked(number, typed(dict(zip(fields, row, strict=True))), fields)
        except (ValueError, KeyError) as exc:
            yield Row(number, None, f"not a record of compare.py ({exc})")


def typed(row: dict[str, str]) -> dict[str, Any]:
    """A CSV row's texts as the values the run wrote (csv_value the other way)."""
    record: dict[str, Any] = {}
    for name, text in row.items():
        if text == "":
            record[name] = None
        elif name in TEXTS or name in (COUNT, CANDIDATES):
            record[name] = text
        elif name in BOOLEANS:
            record[name] = {"true": True, "false": False}[text]
        elif name in FLOATS:
            record[name] = float(text)
        elif name in JSON:
            record[name] = json.loads(text)
        else:  # line, isomorph, and the counters
            record[name] = int(text)
    return record
