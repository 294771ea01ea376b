"""Records: one per (puzzle, method), as dicts (what the Python API yields), CSV or JSON lines."""
from __future__ import annotations

import contextlib
import csv
import json
from collections.abc import Callable, Sequence
from typing import IO, Any

from puzzles import BadEntry

from ..execution.result import RunResult
from ..judging.judge import Verdict
from ..judging.stats import COMMON_COUNTERS
from ..methods import Selected
from ..stream import Puzzle

RECORD_FIELDS = ("file", "line", "name", "isomorph", "rating", "method", "status", "detail", "puzzle", "solution",
                 "unique", "seconds", "valid", "problems", "verdict", "note", "disagrees")


def counter_columns(selected: Sequence[Selected]) -> list[str]:
    """The union of the methods' declared counters, the common ones first."""
    declared = [c for s in selected for c in s.method.counters]
    return list(dict.fromkeys([c for c in COMMON_COUNTERS if c in declared] + declared))


class Records:
    """Makes the records: RECORD_FIELDS, a column per declared counter, `extra` for any other counter, and
    `info` for the other facts the method reported (the Outcome's info, its JSON-able part: check.facts)."""

    def __init__(self, counters: Sequence[str]) -> None:
        self.counters = list(counters)
        self.fields = [*RECORD_FIELDS, *self.counters, "extra", "info"]

    def run_record(self, puzzle: Puzzle, selected: Selected, result: RunResult, verdict: Verdict,
                   disagrees: bool) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=puzzle.file, line=puzzle.line, name=puzzle.name, isomorph=puzzle.isomorph,
                      rating=puzzle.rating, method=selected.label, status=result.status.value, detail=result.detail,
                      puzzle=puzzle.grid.line(), solution=result.solution,
                      unique=result.unique if selected.asks_two else None,
                      seconds=round(result.seconds, 6), valid=result.valid, problems="; ".join(result.problems),
                      verdict=verdict.kind, note=verdict.note, disagrees=disagrees)
        extra = {k: v for k, v in result.effort.items() if k not in self.counters}
        record.update((k, v) for k, v in result.effort.items() if k in self.counters)
        record["extra"] = extra or None
        record["info"] = result.info or None
        return record

    def bad_record(self, entry: BadEntry) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=entry.file, line=entry.line, status="bad_entry", detail=entry.reason)
        return record


class RecordWriter:
    """Records as CSV or JSON lines, flushed as puzzles finish.

    A write that fails (a full disk, a failing device) does not raise: the writer stops, keeps
    what it had written, and says why in `failed`; the run reads that and stops with a clear error.
    """

    def __init__(self, path: str, fmt: str, fields: Sequence[str], append: bool = False) -> None:
        """`append`: after the records already in the file (--resume), which has their header already."""
        self.path, self.fmt, self.fields = path, fmt, list(fields)
        self.failed: str | None = None  # why writing stopped
        self.written = 0  # records written and flushed
        self.pending = 0  # records written since the last flush
        self.handle: IO[str] = open(path, "a" if append else "w", newline="",  # noqa: SIM115  # closed by close()
                                    encoding="utf-8")
        self.csv = csv.DictWriter(self.handle, self.fields) if fmt == "csv" else None
        if self.csv and self.handle.tell() == 0:
            self.guarded(self.csv.writeheader)

    def guarded(self, action: Callable[[], object]) -> None:
        if self.failed is not None:
            return
        try:
            action()
        except OSError as exc:
            self.failed = f"writing {self.path} failed ({exc.strerror or exc})"
            with contextlib.suppress(OSError):  # the buffer that failed fails again on close: lost either way
                self.handle.close()

    def write(self, record: dict[str, Any]) -> None:
        if self.csv is not None:
            row = {k: csv_value(v) for k, v in record.items()}
            self.guarded(lambda: self.csv.writerow(row) if self.csv is not None else None)
        else:
            line = json.dumps(record) + "\n"
            self.guarded(lambda: self.handle.write(line))
        self.pending += 1

    def flush(self) -> None:
        self.guarded(self.handle.flush)
        if self.failed is None:
            self.written, self.pending = self.written + self.pending, 0

    def close(self) -> None:
        self.flush()
        self.guarded(self.handle.close)


def csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value)
    return value
