"""--resume: a run goes on where an earlier one stopped, from the records its output file holds.

Records are plain CSV or JSON lines that pandas reads as they are, so a run's settings are not in the
file: they go beside it, in FILE.settings.json, written when the run starts. Resuming, the settings of
the new run must be those of the file (the same inputs, methods, budget, solutions, sample, seed,
isomorphs...), else the run is refused with a message naming each difference.

The unit kept is a judged puzzle: its records, one a method, with their verdict. A puzzle whose records
are not all there (a run interrupted before its verdict, records cut off by a crash, the last record cut
in the middle of its line) is dropped from the file and run again whole, since its verdict needs all its
methods. Bad entries are kept too, and not recorded twice. The kept records are replayed into the
summary, so that the report covers the whole file.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzles import BadEntry, Status

from .judge import Claims, Verdict
from .methods import UsageError
from .recheck import rechecked
from .records import RecordWriter
from .result import RunResult
from .tracker import tally, where

if TYPE_CHECKING:
    from .run import Comparison

INTEGERS, FLOATS, BOOLEANS = ("line", "isomorph"), ("rating", "seconds"), ("unique", "valid", "disagrees")
JSON = ("extra", "info")  # JSON text in a CSV file, an object in JSON lines
TEXTS = ("file", "name", "method", "status", "detail", "puzzle", "solution", "problems", "verdict", "note")
BAD_ENTRY = "bad_entry"


def settings_path(output: str) -> Path:
    return Path(output + ".settings.json")


def identity(comparison: Comparison, fmt: str) -> dict[str, Any]:
    """What makes the records of two runs the same records: everything but how many workers ran them."""
    s = comparison.settings
    return {"files": comparison.files, "input_format": s.input_format,
            "methods": sorted(sel.label for sel in comparison.selected), "commands": s.command or [],
            "timeout": s.timeout, "nodes": s.nodes, "solutions": s.solutions, "limit": s.limit, "sample": s.sample,
            "seed": s.seed, "isomorphs": s.isomorphs, "certify": s.certify, "format": fmt,
            "fields": comparison.records.fields, "contents": contents(comparison.files)}


def contents(files: Sequence[str]) -> dict[str, str | None]:
    """Each input file's digest, so that records of puzzles since changed are not kept (a record is keyed by
    file and line); None for standard input or a file that cannot be read, which is not checked."""
    digests: dict[str, str | None] = {}
    for name in files:
        digest = hashlib.sha256()
        try:
            with open(name, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            digests[name] = digest.hexdigest()[:32]
        except OSError:  # "-", or a file the run will report as unreadable itself
            digests[name] = None
    return digests


def write_settings(output: str, settings: dict[str, Any]) -> None:
    """FILE.settings.json beside the records (replaced whole: a crash leaves the old one or the new one)."""
    if not Path(output).is_file():  # records sent to a pipe or a device: nothing to resume from
        return
    path = settings_path(output)
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        print(f"compare.py: warning: cannot write {path} ({exc.strerror or exc}): the records cannot be resumed",
              file=sys.stderr)


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    found = []
    for key in new:
        was, now = old.get(key), new[key]
        if was == now:
            continue
        if key == "contents" and isinstance(was, dict):
            changed = [name for name, digest in now.items() if name in was and was[name] != digest]
            found += [f"{name} has changed since the records were written" for name in changed]
            if changed:
                continue
        if key == "fields" and isinstance(was, list):
            added, gone = [f for f in now if f not in was], [f for f in was if f not in now]
            found.append("record fields " + "; ".join(
                [*([f"new: {', '.join(added)}"] if added else []), *([f"gone: {', '.join(gone)}"] if gone else [])]
                or ["in another order"]) + " (written by another version of compare.py)")
            continue
        found.append(f"{key} {was!r} in the file, {now!r} now")
    return found


@dataclass
class Kept:
    """What an output file already holds, kept: the puzzles judged (file, line, isomorph), the bad entries."""

    path: str
    puzzles: set[tuple[str, int, int]] = field(default_factory=set)
    bad: set[tuple[str, int]] = field(default_factory=set)
    records: int = 0
    dropped: int = 0


def resume(output: str, fmt: str, comparison: Comparison,
           on_kept: Callable[[list[dict[str, Any]]], None] | None = None) -> Kept | None:
    """Check FILE against this run's settings, keep its judged puzzles (replayed into the summary, and each
    group of records to `on_kept`: the --html page), drop the rest from it; None when there is no FILE yet (the
    run starts afresh). UsageError when it cannot be resumed."""
    path = Path(output)
    if not path.exists() or path.stat().st_size == 0:
        return None
    if not path.is_file():
        raise UsageError(f"--resume: {output} is not a file")
    side = settings_path(output)
    try:
        old = json.loads(side.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--resume: {output} has no {side.name} beside it, so its settings are unknown; "
                         "name another --output, or remove the file to start again") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"--resume: cannot read {side} ({exc})") from None
    new = identity(comparison, fmt)
    changed = differences(old if isinstance(old, dict) else {}, new)
    if changed:
        raise UsageError(f"--resume: {output} was written with other settings: {'; '.join(changed)}")
    labels = [s.label for s in comparison.selected]
    fields = comparison.records.fields
    complete, incomplete = judged_puzzles(path, fmt, fields, labels)
    kept = Kept(output)
    rewrite = path.with_name(path.name + ".resuming")
    stale = any(rechecked(group, labels, run_result) is not group  # a kept answer that no longer holds
                for group in groups(read_records(path, fmt, fields)) if key(group[0]) in complete)
    writer = RecordWriter(str(rewrite), fmt, fields) if incomplete or stale or ends_cut(path) else None
    try:
        for group in groups(read_records(path, fmt, fields)):
            if group[0]["status"] != BAD_ENTRY and key(group[0]) in complete:
                group = rechecked(group, labels, run_result)  # checked and judged again: see recheck.py
            record = group[0]
            if record["status"] == BAD_ENTRY:
                kept.bad.add((record["file"], record["line"]))
                comparison.summary.add_bad(BadEntry(record["file"], record["line"], record["detail"] or ""))
            elif key(record) in complete:
                kept.puzzles.add(key(record))
                replay(comparison, labels, group)
            else:
                kept.dropped += len(group)
                continue
            kept.records += len(group)
            if on_kept is not None:
                on_kept(group)
            if writer is not None:
                for record in group:
                    writer.write(record)
        if writer is not None:  # the file without what was dropped, replaced whole, in one step
            writer.close()
            if writer.failed:
                raise UsageError(f"--resume: {writer.failed}")
            os.replace(rewrite, path)
    finally:
        rewrite.unlink(missing_ok=True)
    return kept


def key(record: dict[str, Any]) -> tuple[str, int, int]:
    return record["file"], record["line"], record["isomorph"]


def judged_puzzles(path: Path, fmt: str, fields: Sequence[str],
                   labels: Sequence[str]) -> tuple[set[tuple[str, int, int]], int]:
    """The puzzles with exactly one record a method, judged (not interrupted); how many puzzles are not."""
    seen: dict[tuple[str, int, int], Counter[str]] = {}
    interrupted: set[tuple[str, int, int]] = set()
    for _, record in read_records(path, fmt, fields):
        if record["status"] == BAD_ENTRY:
            continue
        seen.setdefault(key(record), Counter())[record["method"]] += 1
        if record["verdict"] == "interrupted":
            interrupted.add(key(record))
    wanted = Counter(labels)
    complete = {k for k, methods in seen.items() if methods == wanted and k not in interrupted}
    return complete, len(seen) - len(complete)


def groups(records: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[list[dict[str, Any]]]:
    """Records of one puzzle (a bad entry alone) together, as the run wrote them."""
    group: list[dict[str, Any]] = []
    for _, record in records:
        if group and (record["status"] == BAD_ENTRY or group[0]["status"] == BAD_ENTRY or key(record) != key(group[0])):
            yield group
            group = []
        group.append(record)
    if group:
        yield group


def replay(comparison: Comparison, labels: Sequence[str], group: list[dict[str, Any]]) -> None:
    """A kept puzzle's records in the summary, as if it had been judged in this run.

    The records do not say which claims the certifier settled; those that only it could settle count as
    certified when certification is on (a certificate that gave up is not told apart), else as unchecked.
    """
    by_label = {r["method"]: r for r in group}
    ordered = [by_label[label] for label in labels]
    results = [run_result(i, r) for i, r in enumerate(ordered)]
    lone = Claims.of(results, {r.solution for r in results if r.valid and r.solution}).lone
    certify = comparison.settings.certify
    first = ordered[0]
    verdict = Verdict(first["verdict"] or "", first["note"] or "",
                      frozenset(i for i, r in enumerate(ordered) if r["disagrees"]),
                      unchecked=0 if certify else lone, certified=lone if certify else 0)
    tally(comparison.summary, labels, where(first["file"], first["line"], first["name"] or "", first["isomorph"]),
          results, verdict)


def run_result(index: int, record: dict[str, Any]) -> RunResult:
    """A record back as the result it was made from (the puzzle's id in the run is not kept: 0)."""
    counters = {k: v for k, v in record.items() if k not in RECORD_KEYS and v is not None}
    effort = {**counters, **(record.get("extra") or {})}
    problems = [record["problems"] or "invalid"] if record["valid"] is False else []
    return RunResult(0, index, Status(record["status"]), record["detail"] or "", record["solution"] or None,
                     record["unique"], float(record["seconds"] or 0.0), effort, problems, record.get("info") or {})


RECORD_KEYS = {*INTEGERS, *FLOATS, *BOOLEANS, *TEXTS, *JSON}


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
    """A CSV row's texts as the values the run wrote (RecordWriter's csv_value the other way)."""
    record: dict[str, Any] = {}
    for name, text in row.items():
        if text == "":
            record[name] = None
        elif name in TEXTS:
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
