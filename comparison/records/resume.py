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

The inputs are the same files when their real paths are (the settings keep them, `paths`), whatever the names
they were given by: `/data/f.txt` then `f.txt` from /data. The records name a puzzle's file as the run was given
it, so the kept ones are renamed as this run names it (the file rewritten whole, and its settings written
anew): a reader finds each input under one name, this run's, and the kept puzzles are not run again.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from puzzles import BadEntry

from ..core.errors import UsageError
from ..core.stream import where
from ..judging.judge import Claims, Verdict, VerdictKind, settled_count
from ..judging.stats import Summary, tally
from .format import BAD_ENTRY, Record, RecordWriter, ends_cut, failure_of_record, read_records, run_result
from .recheck import rechecked

Key = tuple[str, int, int]  # a puzzle's file, line and isomorph


def settings_path(output: str) -> Path:
    return Path(output + ".settings.json")


def real_paths(files: Sequence[str]) -> list[str]:
    """Each input file's real path, the same file's by whatever name; standard input, `-`, as it is."""
    return [name if name == "-" else os.path.realpath(name) for name in files]


def renaming(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """The earlier run's names of the inputs this run names otherwise (old name -> new name): the same files,
    place by place, by their real paths. Settings written before the real paths were kept give names only,
    taken as names from here."""
    was, now = old.get("files"), new["files"]
    if not isinstance(was, list) or len(was) != len(now) or not all(isinstance(name, str) for name in was):
        return {}
    paths = old.get("paths")
    if not isinstance(paths, list) or len(paths) != len(was):
        paths = real_paths(was)
    renamed: dict[str, str] = {}
    for name, new_name, path, new_path in zip(was, now, paths, new["paths"], strict=True):
        if name != new_name and path == new_path and name != "-" and renamed.setdefault(name, new_name) != new_name:
            return {}  # one name for two of this run's: not the same inputs
    return renamed


def renamed_settings(old: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
    """The earlier run's settings with its inputs named as this run names them."""
    if not renamed:
        return old
    digests = old.get("contents")
    return {**old, "files": [renamed.get(name, name) for name in old["files"]],
            "contents": {renamed.get(name, name): digest for name, digest in digests.items()}
            if isinstance(digests, dict) else digests}


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
        temporary.unlink(missing_ok=True)  # a full disk leaves it empty, or cut short: of no use to anyone
        print(f"compare.py: warning: cannot write {path} ({exc.strerror or exc}): the records cannot be resumed",
              file=sys.stderr)


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    found = []
    for key in new:
        was, now = old.get(key), new[key]
        if was == now or key == "paths":  # the real paths make two names one file (renaming), not a difference
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
class KeptRecords:
    """What an output file already holds, kept: the puzzles judged (file, line, isomorph), the bad entries."""

    path: str
    puzzles: set[Key] = field(default_factory=set)
    bad: set[tuple[str, int]] = field(default_factory=set)
    records: int = 0
    dropped: int = 0


def resume(output: str, fmt: str, identity: dict[str, Any], labels: Sequence[str], fields: Sequence[str],
           certify: bool, summary: Summary, on_kept: Callable[[list[Record]], None] | None = None
           ) -> KeptRecords | None:
    """Check FILE against this run's `identity` (what settings.json holds), keep its judged puzzles (replayed
    into `summary` as if judged by the methods of `labels`, and each group of records to `on_kept`: the --html
    page), drop the rest from it; None when there is no FILE yet (the run starts afresh). UsageError when it
    cannot be resumed."""
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
    old = old if isinstance(old, dict) else {}
    renamed = renaming(old, identity)
    changed = differences(renamed_settings(old, renamed), identity)
    if changed:
        raise UsageError(f"--resume: {output} was written with other settings: {'; '.join(changed)}")
    complete, incomplete, stale = judged_puzzles(path, fmt, fields, labels, renamed)
    kept = KeptRecords(output)
    rewrite = path.with_name(path.name + ".resuming")
    writer = RecordWriter(str(rewrite), fmt, fields) if incomplete or stale or renamed or ends_cut(path) else None
    for name, new_name in renamed.items():
        print(f"compare.py: note: --resume: the records of {name} name it {new_name} now, as this run does",
              file=sys.stderr)
    try:
        for group in groups(records_of(path, fmt, fields, renamed)):
            if group[0]["status"] != BAD_ENTRY:
                group = stale.get(key(group[0]), group)
            record = group[0]
            if record["status"] == BAD_ENTRY:
                kept.bad.add((record["file"], record["line"]))
                summary.add_bad(BadEntry(record["file"], record["line"], record["detail"] or ""))
            elif key(record) in complete:
                kept.puzzles.add(key(record))
                replay(summary, labels, group, certify)
            else:
                kept.dropped += len(group)
                continue
            kept.records += len(group)
            if on_kept is not None:
                on_kept([Record.of_row(record) for record in group])
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


def key(record: dict[str, Any]) -> Key:
    return record["file"], record["line"], record["isomorph"]


def records_of(path: Path, fmt: str, fields: Sequence[str], renamed: dict[str, str]
               ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The file's records (read_records), each input named as this run names it."""
    for number, record in read_records(path, fmt, fields):
        if record["file"] in renamed:
            record["file"] = renamed[record["file"]]
        yield number, record


def judged_puzzles(path: Path, fmt: str, fields: Sequence[str], labels: Sequence[str], renamed: dict[str, str],
                   ) -> tuple[set[Key], int, dict[Key, list[dict[str, Any]]]]:
    """The puzzles with exactly one record a method, judged (not interrupted); how many puzzles are not; and
    the judged ones whose records no longer hold, checked and judged again (recheck.py), with their records anew."""
    seen: dict[Key, Counter[str]] = {}
    interrupted: set[Key] = set()
    stale: dict[Key, list[dict[str, Any]]] = {}
    wanted = Counter(labels)
    for group in groups(records_of(path, fmt, fields, renamed)):
        if group[0]["status"] == BAD_ENTRY:
            continue
        methods = seen.setdefault(key(group[0]), Counter())
        methods.update(record["method"] for record in group)
        if any(record["verdict"] == "interrupted" for record in group):
            interrupted.add(key(group[0]))
        elif methods == wanted:
            checked = rechecked(group, labels)
            if checked is not group:
                stale[key(group[0])] = checked
    complete = {k for k, methods in seen.items() if methods == wanted and k not in interrupted}
    return complete, len(seen) - len(complete), {k: group for k, group in stale.items() if k in complete}


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


def replay(summary: Summary, labels: Sequence[str], group: list[dict[str, Any]], certify: bool) -> None:
    """A kept puzzle's records in the summary, as if it had been judged in this run.

    The records do not say which claims the certifier settled; those that only it could settle count as
    refuted when their method disagrees, else as confirmed when certification is on (a certificate that gave up
    is not told apart), and as unchecked when it is off.
    """
    by_label = {r["method"]: r for r in group}
    ordered = [by_label[label] for label in labels]
    results = [run_result(i, r) for i, r in enumerate(ordered)]
    claims = Claims.of(results, {r.solution for r in results if r.valid and r.solution})
    disagree = frozenset(i for i, r in enumerate(ordered) if r["disagrees"])
    refuted = sum(1 for i in (claims.lone_unsat, claims.lone_unique) if i is not None and i in disagree)
    confirmed, refuted, unchecked = (claims.lone - refuted, refuted, 0) if certify else (0, 0, claims.lone)
    first = ordered[0]
    kind = cast(VerdictKind, first["verdict"] or "")  # as the run wrote it: a judged puzzle's records hold its verdict
    counts = [r.count for i, r in enumerate(results) if r.count is not None and i not in disagree]
    verdict = Verdict(kind, first["note"] or "", disagree, unchecked, confirmed, refuted,
                      failures=tuple(failure_of_record(r) for r in ordered), count=settled_count(counts))
    tally(summary, labels, where(first["file"], first["line"], first["name"] or "", first["isomorph"]),
          results, verdict)



