"""Runs compare.py the same fixed ways and keeps what it wrote, timings masked, so that two versions of the code
can be diffed: a refactoring that changes no behaviour leaves every file byte-identical.

    python benchmarks/same_behaviour.py OUT_DIR [--data DIR]      (DIR: the collections' folder, default where
                                                                  puzzles/data.py finds top95)
    diff -r BEFORE_DIR AFTER_DIR

Each case is one compare.py command line: its records (CSV or JSON lines), its report on standard output, its
standard error and its exit status, each a file of OUT_DIR. Masked, as they differ from run to run: a record's
`seconds` and every fact of its `info` whose name ends in `seconds`; in the report, the wall time and the busy
share of the first line and every table column of times (a header ending in ` s`, ` ms` or `/s`). Records
come in the order their puzzles finish, and so do the report's lists of puzzles: both are sorted.
"""
from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from puzzles import data  # noqa: E402

MASK = "#"
TIME_HEADER = re.compile(r"( s| ms|/s)$")
# SAT's failed-literal probing (PySAT's propagate on each literal) counts a few propagations more or fewer from one
# run to the next on some puzzles of top95: measured on main, twice the same command.
UNSTABLE = (("probe=on", "propagations"),)
DATA = ["DATA"]  # the shared data's folder, as named on the command line: masked, to compare two checkouts
FIRST_LINE_TIMES = re.compile(r"in [0-9.]+ s wall, (\d+) workers? \(\d+% busy\)")


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    output: str | None = None  # the --output file's suffix, when the case writes records


def cases(data: Path) -> list[Case]:
    top95 = str(data / "9x9" / "top95.txt")
    bounded = ("--nodes", "20000", "--timeout", "30")
    return [
        Case("seeds-all", ("--jobs", "1", *bounded), "csv"),
        Case("seeds-two-jsonl", ("--jobs", "2", "--solutions", "2", "--isomorphs", "2", "--seed", "3", *bounded,
                                 "--solver", "mrv:propagate=singles", "--solver", "cdcl", "--solver", "sat",
                                 "--solver", "cpsat", "--solver", "backtracking"), "jsonl"),
        Case("top95-sample", (top95, "--sample", "12", "--seed", "1", "--jobs", "2", *bounded,
                              "--solver", "mrv:propagate=singles", "--solver", "mrv", "--solver", "cdcl",
                              "--solver", "sat", "--solver", "cpsat", "--solver", "restart:cutoff=luby",
                              "--solver", "backtracking"), "csv"),
        Case("top95-limit-jsonl", (top95, "--limit", "6", "--jobs", "1", *bounded), "jsonl"),
        Case("ladder-seeds", ("--ladder", "--jobs", "1"), "csv"),
        Case("ladder-top95", (top95, "--ladder", "--limit", "8", "--jobs", "2"), "jsonl"),
        Case("no-certify", ("--jobs", "1", "--no-certify", "--solver", "mrv", "--solver", "cdcl"), "csv"),
        Case("misbehaving", ("--jobs", "1", "--limit", "3", "--timeout", "2", "--registry", "tests.misbehaving",
                             "--solver", "good", "--solver", "false_unsat", "--solver", "raiser",
                             "--solver", "text_solution", "--solver", "huge_counter", "--solver", "odd_info"), "csv"),
        # the Sudoku family and Killer: every default method, the ladder, the proof of uniqueness
        Case("family-all", ("puzzles/family.txt", "--jobs", "2", *bounded), "jsonl"),
        Case("family-ladder", ("puzzles/family.txt", "--ladder", "--jobs", "2"), "csv"),
        Case("killer-all", ("examples/killer.jsonl", "--jobs", "2", "--solutions", "2", *bounded), "csv"),
        Case("jigsaw-some", ("examples/jigsaw.jsonl", "--jobs", "1", "--solutions", "2", *bounded,
                             "--solver", "mrv:propagate=locked", "--solver", "cdcl", "--solver", "sat",
                             "--solver", "mip"), "jsonl"),
        Case("list", ("--list",)),
        Case("usage-format", ("--format", "csv",)),
        Case("usage-resume", ("--resume",)),
        Case("usage-ladder-solver", ("--ladder", "--solver", "mrv")),
        Case("usage-unknown-solver", ("--solver", "nosuch")),
        Case("usage-bad-option", ("--solver", "mrv:propagate=never")),
        Case("usage-missing-file", ("no/such/file.txt",)),
        Case("usage-reference", ("--reference", "nosuch", "--solver", "mrv")),
        Case("usage-watch", ("--watch", "3")),
    ]


def run(case: Case, out: Path, work: Path) -> None:
    args = list(case.args)
    records = work / f"{case.name}.{case.output}" if case.output else None
    if records is not None:
        records.unlink(missing_ok=True)
        args += ["--output", str(records)]
    done = subprocess.run([sys.executable, "compare.py", *args], cwd=ROOT, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, check=False)
    save(out, case, done.returncode, done.stdout, done.stderr, records)


def save(out: Path, case: Case, status: int, stdout: str, stderr: str, records: Path | None) -> None:
    def masked_paths(text: str) -> str:
        work = str(records.parent) if records is not None else "WORK"
        return text.replace(work, "WORK").replace(DATA[0], "DATA").replace(str(ROOT), "ROOT")
    (out / f"{case.name}.status").write_text(f"{status}\n")
    (out / f"{case.name}.report").write_text(masked_report(masked_paths(stdout)))
    (out / f"{case.name}.stderr").write_text(masked_paths(stderr))
    if records is not None and records.exists():
        text = masked_paths(records.read_text())
        lines = masked_csv(text) if case.output == "csv" else [masked_json(line) for line in text.splitlines()]
        lines = lines[:1] + sorted(lines[1:]) if case.output == "csv" else sorted(lines)
        (out / f"{case.name}.{case.output}").write_text("".join(line + "\n" for line in lines))


def resume_case(out: Path, work: Path, data: Path) -> None:
    """--resume: a whole run, its records cut in the middle of a puzzle's (as a crash leaves them), resumed."""
    records = work / "resume.csv"
    records.unlink(missing_ok=True)
    Path(f"{records}.settings.json").unlink(missing_ok=True)
    common = [str(data / "9x9" / "top95.txt"), "--limit", "9", "--jobs", "1", "--nodes", "20000", "--timeout", "30",
              "--solver", "mrv:propagate=singles", "--solver", "cdcl", "--output", str(records)]
    for step, extra in (("first", []), ("resumed", ["--resume"])):
        if step == "resumed":  # the header, three puzzles' records and one of the fourth's, the last cut short
            lines = records.read_text().splitlines(keepends=True)
            records.write_text("".join(lines[:8]) + lines[8][:20])
        done = subprocess.run([sys.executable, "compare.py", *common, *extra], cwd=ROOT, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, check=False)
        save(out, Case(f"resume-{step}", (), "csv"), done.returncode, done.stdout, done.stderr, records)
    settings = json.loads(Path(f"{records}.settings.json").read_text())
    text = json.dumps(settings, indent=1, sort_keys=True).replace(str(work), "WORK").replace(DATA[0], "DATA")
    text = text.replace(str(ROOT), "ROOT")
    (out / "resume.settings.json").write_text(text + "\n")


def masked_csv(text: str) -> list[str]:
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        return text.splitlines()
    lines = [text.splitlines()[0]]
    for row in rows:
        buffer = io.StringIO()
        masked = masked_record(dict(row), info=json.loads(row["info"]) if row.get("info") else None)
        csv.writer(buffer, lineterminator="").writerow(masked.values())
        lines.append(buffer.getvalue())
    return lines


def masked_json(line: str) -> str:
    record = json.loads(line)
    return json.dumps(masked_record(record, record.get("info")))


def masked_record(record: dict[str, Any], info: Any) -> dict[str, Any]:
    """The record with its times masked, and the counts that vary from run to run (see UNSTABLE)."""
    if "seconds" in record:
        record["seconds"] = MASK
    if isinstance(info, dict):
        info = {k: MASK if k.endswith("seconds") else v for k, v in info.items()}
        record["info"] = info if isinstance(record.get("info"), dict) else json.dumps(info)
    for method, field in UNSTABLE:
        if method in str(record.get("method")) and record.get(field) not in (None, ""):
            record[field] = MASK
    return record


CUT = re.compile(r"^  \.\.\. [\d,]+ more$")  # the last line of a list the report cut short


def masked_report(text: str) -> str:
    """The report without its times: table rows become cells joined by '|', the time columns masked."""
    lines, timed = [], set()
    for line in text.splitlines():
        line = FIRST_LINE_TIMES.sub(lambda m: f"in # s wall, {m.group(1)} workers (#% busy)", line)
        if line[:1] in "┏┡└╭╰━─":
            continue
        if line.startswith("┃"):
            cells = [c.strip() for c in line.strip("┃").split("┃")]
            timed = {i for i, c in enumerate(cells) if TIME_HEADER.search(c)}
            line = "|".join(cells)
        elif line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            line = "|".join(MASK if i in timed and c else c for i, c in enumerate(cells))
        lines.append(line.rstrip())
    return "".join(line + "\n" for line in sorted_lists(lines))


def sorted_lists(lines: list[str]) -> list[str]:
    """Each run of indented lines (a list of puzzles, in the order they finished) sorted. A list cut short (its
    last line `... N more`) names the first puzzles met, which depends on the order the workers finished them: only
    how many it names is kept."""
    result: list[str] = []
    for indented, run in itertools.groupby(lines, key=lambda line: line.startswith("  ")):
        part = list(run)
        cut = [line for line in part if CUT.match(line)]
        if indented and cut:
            result += [f"  ({len(part) - len(cut)} named: the first met)", *cut]
        else:
            result += sorted(part) if indented else part
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write the outputs to (created)")
    parser.add_argument("--data", type=Path, help="the collections' folder (default: where puzzles/data.py "
                        "finds top95)")
    args = parser.parse_args()
    if args.data is None:
        try:
            args.data = data.locate("top95").parents[1]
        except data.DataError as exc:
            raise SystemExit(f"same_behaviour: {exc}") from None
    args.out.mkdir(parents=True, exist_ok=True)
    DATA[0] = str(args.data)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for case in cases(args.data):
            run(case, args.out, work)
            print(case.name, (args.out / f"{case.name}.status").read_text().strip())
        resume_case(args.out, work, args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
