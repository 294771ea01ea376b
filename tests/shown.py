"""The outputs the documentation shows, made by the code: each page block that follows a marker
`<!-- shown: NAME -->` is the whole text of the commands of SHOWN[NAME], run from the repository's root.

    python tests/shown.py                    check every block against a fresh run (tests/test_shown_outputs.py)
    python tests/shown.py --write [NAME...]  write the blocks again from fresh runs

A block is a fenced code block: for each command, `$ COMMAND` and then what it printed (standard output and
standard error, as a terminal shows them). What differs from one run to the next is masked before two texts
are compared, never in the page: times, which build of the searches runs (compare.py's first line), and the
counts a run reached before the clock stopped it.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
MARKER = re.compile(r"^<!-- shown: ([\w-]+) -->$")
MASK = "#"


@dataclass(frozen=True)
class Step:
    """One command of a block: `command` as the page shows it; `argv` what runs (default: the command split,
    `python` being this interpreter, and a console script its module run by it, so that this checkout's code runs
    whether installed or not), `{out}` in it a scratch folder the page calls `.` and `{python}` this
    interpreter (for a pipeline, run by `sh -c`); or, with `file`, the file of that name the commands before it
    wrote (the page shows `cat FILE`)."""

    command: str
    argv: tuple[str, ...] = ()
    file: str | None = None
    status: int = 0  # its exit status


@dataclass(frozen=True)
class Shown:
    name: str
    steps: tuple[Step, ...]
    mask: Callable[[str], str] = field(default=lambda text: text)
    slow: bool = False  # a second or more: left out of the fast tier (-m "not slow")


@dataclass(frozen=True)
class Block:
    page: Path
    name: str
    start: int  # the index of its first line of content (after the opening fence)
    text: str


# --- masks: what a rerun may change ----------------------------------------------------------------------------

FIRST_LINE_TIMES = re.compile(r" in [0-9.]+ s wall, (\d+ workers?) \(\d+% busy\)")
TIME_HEADER = re.compile(r"( s| ms|/s|per minute)$")


def masked_compare(text: str) -> str:
    """compare.py's report: each table row as its cells joined by '|' (widths follow the numbers), the columns of
    times masked, and the effort of a method stopped by the clock (its counts reached depend on the machine);
    the first line's wall time and busy share, the build that ran, and each list of puzzles in a sorted order
    (they come in the order the puzzles finish)."""
    lines: list[str] = []
    timed: set[int] = set()
    clocked: set[str] = set()  # methods that gave up on time
    header: list[str] = []
    row_method = ""
    for line in text.splitlines():
        line = FIRST_LINE_TIMES.sub(lambda m: f" in {MASK} s wall, {m.group(1)} ({MASK}% busy)", line)
        line = re.sub(r"^kernels: .*", f"kernels: {MASK}", line)
        if line[:1] in "┏┡└╭╰━─":
            continue
        if line.startswith("┃"):
            header = [c.strip() for c in line.strip("┃").split("┃")]
            timed = {i for i, c in enumerate(header) if TIME_HEADER.search(c)}
            line = "|".join(header)
        elif line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            row_method = cells[0] or row_method
            if "gave up (why)" in header and "time" in cells[header.index("gave up (why)")]:
                clocked.add(cells[0])
            effort = header[:1] == ["method"] and "nodes" in header
            cells = [MASK if c and (i in timed or (effort and i > 0 and row_method in clocked)) else c
                     for i, c in enumerate(cells)]
            line = "|".join(cells)
        lines.append(line.rstrip())
    return "\n".join(sorted_lists(lines)) + "\n"


def sorted_lists(lines: list[str]) -> list[str]:
    """Each run of indented lines (a list of puzzles) in sorted order."""
    result: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("  "):
            run.append(line)
            continue
        result += sorted(run)
        run = []
        result.append(line)
    return result[:-1]


def masked_generate(text: str) -> str:
    """The generator's CSV: the `seconds` column masked."""
    out = []
    seconds = None
    for line in text.splitlines():
        cells = line.split(",")
        if "seconds" in cells:
            seconds = cells.index("seconds")
        elif seconds is not None and len(cells) > seconds:
            cells[seconds] = MASK
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def masked_fuzz(text: str) -> str:
    """The fuzzer's report: its table as masked_compare reads tables (the per-minute column and row times), and
    the seconds the whole run took."""
    masked = masked_compare(re.sub(r"puzzles \(\d+ s\)", f"puzzles ({MASK} s)", text))
    masked = re.sub(r"^├.*\n", "", masked, flags=re.M)  # the rule above the per-minute row, as wide as its numbers
    return re.sub(r"^per minute\|.*$", lambda m: "|".join(MASK if i else c for i, c in enumerate(m[0].split("|"))),
                  masked, flags=re.M)


# --- the outputs shown -----------------------------------------------------------------------------------------

def trace(name: str, command: str) -> Shown:
    return Shown(name, (Step(command),))


CANDIDATES = "grep seed002 puzzles/seeds.txt | sudoku-check --candidates -"
SEED003_ALONE = "grep seed003 puzzles/seeds.txt | python compare.py - --solver backtracking --solver mrv"
LOGIC = "python3 examples/python/logic_solver.py"
STEPS_SHRINK = f"grep seed001 puzzles/seeds.txt | sudoku-check - --steps '{LOGIC} --bug pair' --shrink"
TOP95_52 = ".........9......84.623...5....6...453...1...6...9...7....1.....4.5..2....3.8....9"

SHOWN = {shown.name: shown for shown in (
    Shown("seeds-run", (Step("python compare.py"),), masked_compare, slow=True),
    Shown("seed003-alone", (Step(SEED003_ALONE, ("sh", "-c", SEED003_ALONE.replace("python", "{python}"))),),
          masked_compare, slow=True),
    Shown("family-run", (Step("python compare.py puzzles/family.txt --nodes 1000000 --timeout 60"),), masked_compare,
          slow=True),
    Shown("killer-run", (Step("python compare.py examples/killer.jsonl --nodes 1000000 --timeout 60"),),
          masked_compare, slow=True),
    Shown("check-seeds", (Step("sudoku-check puzzles/seeds.txt", status=1),)),
    Shown("check-candidates",
          (Step(CANDIDATES, ("sh", "-c", CANDIDATES.replace("sudoku-check", "{python} -m commands.check"))),)),
    trace("trace-backtracking-4x4", "sudoku-trace puzzles/seeds.txt:13 --solver backtracking --compact"),
    trace("trace-mrv-seed000", "sudoku-trace puzzles/seeds.txt:5 --solver mrv --compact"),
    trace("trace-locked-seed001", "sudoku-trace puzzles/seeds.txt:7 --solver mrv:propagate=locked "
          "--max-steps 28"),
    trace("trace-diff-seed001", "sudoku-trace puzzles/seeds.txt:7 --solver mrv:propagate=singles "
          "--solver mrv:propagate=locked --diff"),
    trace("trace-jigsaw", "sudoku-trace examples/jigsaw.jsonl:4 --solver mrv:propagate=singles "
          "--max-steps 12"),
    trace("trace-cdcl-conflict", f"sudoku-trace '{TOP95_52}' --solver cdcl --compact --max-steps 46"),
    trace("trace-cdcl-seed001", "sudoku-trace puzzles/seeds.txt:7 --solver cdcl --compact --max-steps 40"),
    Shown("own-solver-fpuzzles", (Step(
        "python compare.py examples/jigsaw.jsonl --solver mine --solver cpsat --solver mrv --command "
        "'mine:input=fpuzzles=python3 examples/python/fpuzzles_solver.py'"),), masked_compare, slow=True),
    Shown("generate-minimal", (
        Step("sudoku-generate --minimal --box 3 --count 3 --seed 1 --output minimal.csv",
             ("sudoku-generate", "--minimal", "--box", "3", "--count", "3", "--seed", "1",
              "--output", "{out}/minimal.csv")),
        Step("cat minimal.csv", file="minimal.csv")), masked_generate),
    Shown("fuzz-planted", (
        Step("python compare.py --fuzz --limit 21 --registry tests.planted --solver corrupt --solver liar "
             "--box 2 --box 3 --seed 1 --jobs 2 --timeout 5 --output failures.txt",
             ("python", "compare.py", "--fuzz", "--limit", "21", "--registry", "tests.planted", "--solver", "corrupt",
              "--solver", "liar", "--box", "2", "--box", "3", "--seed", "1", "--jobs", "2", "--timeout", "5",
              "--output", "{out}/failures.txt"), status=1),
        Step("cat failures.txt", file="failures.txt")), masked_fuzz, slow=True),
    Shown("steps-sound", (Step(f"sudoku-check puzzles/seeds.txt --steps '{LOGIC}'", status=1),), slow=True),
    Shown("steps-planted", (Step(f"sudoku-check puzzles/seeds.txt --steps '{LOGIC} --bug pair'", status=1),),
          slow=True),
    Shown("steps-shrink", (Step(STEPS_SHRINK, ("sh", "-c", STEPS_SHRINK.replace("sudoku-check",
                                                                              "{python} -m commands.check")),
                                status=1),), slow=True),
    Shown("generate-constraints", (
        Step("sudoku-generate --variant thermometer --side 6 --minimal --count 2 --seed 1"),
        Step("sudoku-generate --variant killer+antiknight --side 6 --minimal --seed 1")), slow=True),
    Shown("fuzz-constraints", (
        Step("python compare.py --fuzz --limit 16 --variant thermometer@6 --registry tests.planted --solver "
             "blind-constraints --seed 1 --jobs 2 --timeout 5 --output failures.txt",
             ("python", "compare.py", "--fuzz", "--limit", "16", "--variant", "thermometer@6", "--registry",
              "tests.planted", "--solver", "blind-constraints", "--seed", "1", "--jobs", "2", "--timeout", "5",
              "--output", "{out}/failures.txt"), status=1),
        Step("cat failures.txt", file="failures.txt")), masked_fuzz, slow=True),
)}


# --- running them, and the blocks of the pages -----------------------------------------------------------------

# each console script of pyproject.toml run as its module: `sudoku-trace` is `python -m commands.trace`
SCRIPT = re.compile(r'^(sudoku-[\w-]+) = "(commands\.\w+):main"$', re.M)
SCRIPTS = dict(SCRIPT.findall((ROOT / "pyproject.toml").read_text(encoding="utf-8")))

def run(shown: Shown) -> tuple[str, list[str]]:
    """The block's text from fresh runs, and each command that did not end with the exit status expected."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # standard output and error in the order a terminal shows them
    text, wrong = "", []
    with tempfile.TemporaryDirectory() as scratch:
        for step in shown.steps:
            text += f"$ {step.command}\n"
            if step.file is not None:
                text += (Path(scratch) / step.file).read_text(encoding="utf-8").replace(scratch + os.sep, "")
                continue
            argv = [sys.executable if a == "python" else
                    a.replace("{out}", scratch).replace("{python}", shlex.quote(sys.executable))
                    for a in (step.argv or tuple(shlex.split(step.command)))]
            if argv[0] in SCRIPTS:
                argv = [sys.executable, "-m", SCRIPTS[argv[0]], *argv[1:]]
            done = subprocess.run(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=600, check=False)
            text += done.stdout.replace(scratch + os.sep, "")
            if done.returncode != step.status:
                wrong.append(f"{step.command}: exit status {done.returncode}, not {step.status}")
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n", wrong


def blocks(pages: list[Path] = PAGES) -> Iterator[Block]:
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        for k, line in enumerate(lines):
            found = MARKER.match(line)
            if not found:
                continue
            if k + 1 >= len(lines) or not lines[k + 1].startswith("```"):
                raise ValueError(f"{page.relative_to(ROOT)}:{k + 1}: a shown marker is followed by a fenced block")
            end = lines.index("```", k + 2)
            yield Block(page, found.group(1), k + 2, "".join(f"{line}\n" for line in lines[k + 2:end]))


def difference(shown: Shown, page_text: str, fresh: str) -> str:
    """'' when the page's block is what the commands print now, times and the like masked; else a diff."""
    a, b = shown.mask(page_text), shown.mask(fresh)
    if a == b:
        return ""
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "the page", "a fresh run"))


def write(block: Block, fresh: str) -> None:
    lines = block.page.read_text(encoding="utf-8").splitlines(keepends=True)
    end = lines.index("```\n", block.start)
    lines[block.start:end] = fresh.splitlines(keepends=True)
    block.page.write_text("".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these outputs (default: every one)")
    parser.add_argument("--write", action="store_true", help="write the blocks from fresh runs")
    args = parser.parse_args()
    names = args.names or list(SHOWN)
    failed = 0
    for name in names:
        fresh, wrong = run(SHOWN[name])
        for line in wrong:
            print(f"{name}: {line}", file=sys.stderr)
            failed += 1
        # later blocks first, so that a block written does not move the lines of those still to write
        for block in sorted((b for b in blocks() if b.name == name), key=lambda b: (str(b.page), -b.start)):
            where = f"{block.page.relative_to(ROOT)}:{block.start}"
            if args.write:
                write(block, fresh)
                print(f"{name}: written to {where}")
            elif diff := difference(SHOWN[name], block.text, fresh):
                print(f"{name}: {where} differs from a fresh run:\n{diff}")
                failed += 1
            else:
                print(f"{name}: {where} holds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
