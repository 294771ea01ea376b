"""Records: one per (puzzle, method), as CSV or JSON lines."""
from __future__ import annotations

import csv
import json
from typing import IO, Any, Sequence

from puzzles import BadEntry

from .judge import Result, Verdict
from .methods import Selected
from .stats import COMMON_COUNTERS
from .stream import Puzzle

RECORD_FIELDS = ("file", "line", "name", "isomorph", "method", "status", "detail", "solution", "unique",
                 "seconds", "valid", "problems", "verdict", "note", "disagrees")


def counter_columns(selected: Sequence[Selected]) -> list[str]:
    """The union of the methods' declared counters, the common ones first."""
    declared = [c for s in selected for c in s.method.counters]
    return list(dict.fromkeys([c for c in COMMON_COUNTERS if c in declared] + declared))


class RecordWriter:
    """One record per (puzzle, method), as CSV or JSON lines, flushed as puzzles finish."""

    def __init__(self, path: str, fmt: str, counters: Sequence[str]) -> None:
        self.fmt, self.counters = fmt, list(counters)
        self.fields = [*RECORD_FIELDS, *self.counters, "extra"]
        self.handle: IO[str] = open(path, "w", newline="", encoding="utf-8")
        self.csv = csv.DictWriter(self.handle, self.fields) if fmt == "csv" else None
        if self.csv:
            self.csv.writeheader()

    def write(self, record: dict[str, Any]) -> None:
        if self.csv:
            self.csv.writerow({k: csv_value(v) for k, v in record.items()})
        else:
            self.handle.write(json.dumps(record) + "\n")

    def run_record(self, puzzle: Puzzle, selected: Selected, result: Result, verdict: Verdict,
                   disagrees: bool) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=puzzle.file, line=puzzle.line, name=puzzle.name, isomorph=puzzle.isomorph,
                      method=selected.label, status=result.status, detail=result.detail,
                      solution=result.solution, unique=result.unique if selected.asks_two else None,
                      seconds=round(result.seconds, 6), valid=result.valid, problems="; ".join(result.problems),
                      verdict=verdict.kind, note=verdict.note, disagrees=disagrees)
        extra = {k: v for k, v in result.effort.items() if k not in self.counters}
        record.update((k, v) for k, v in result.effort.items() if k in self.counters)
        record["extra"] = extra or None
        return record

    def bad_record(self, entry: BadEntry) -> dict[str, Any]:
        record: dict[str, Any] = dict.fromkeys(self.fields)
        record.update(file=entry.file, line=entry.line, status="bad_entry", detail=entry.reason)
        return record

    def flush(self) -> None:
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value)
    return value
