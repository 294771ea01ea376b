"""Killer puzzles shared in SudoCue's long Killer format, as the forums and other solvers keep them (the Interactive
Sudoku Solver's collection of "extreme Killers" among them), read into the project's line form:

    python benchmarks/sudocue_killers.py OUT.txt --iss DIR      (every such puzzle of ISS's data/collections.js)
    python benchmarks/sudocue_killers.py OUT.txt --from FILE    (one Killer string a line, a name after it)
    python compare.py OUT.txt

The format (SudoCue, http://www.sudocue.net/forum/viewtopic.php?f=1&t=519; the Interactive Sudoku Solver reads it
too): `3x3:` then `d` for a Killer X (both diagonals) or nothing, then `:k:`, then the 81 cells in reading order,
separated by colons, each the number 256 x its cage's total + the cage's number (0: the cell is in no cage), then
a last colon. A cell holds no given. Where ISS's collection gives a puzzle's solution, it is checked against the
puzzle as read: a line `# ... solution is not valid` says where it is not (the puzzle is still written).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzles import Grid, PuzzleError  # noqa: E402
from puzzles.constraints.killer import Cage  # noqa: E402
from puzzles.layouts import family  # noqa: E402

SIDE = 9
PREFIX = re.compile(r"3x3:(d?):k:")
# an entry of ISS's collections: its name, then (before the next entry's name) its input and perhaps its solution
ENTRY = re.compile(r"name:\s*'((?:[^'\\]|\\.)*)'(.*?)(?=name:\s*'|\Z)", re.S)
INPUT = re.compile(r"input:\s*'(3x3:d?:k:[0-9:]*)'")
SOLUTION = re.compile(r"solution:\s*'([1-9]{81})'")


class KillerFormatError(ValueError):
    """A string that is not a long Killer of SudoCue's format, and why."""


def puzzle_of(text: str) -> Grid:
    """The Killer a SudoCue long Killer string describes. KillerFormatError (or PuzzleError, from the layout's own
    checks) says why a string is not one."""
    found = PREFIX.match(text.strip())
    if found is None:
        raise KillerFormatError("not a long Killer string: it starts with 3x3::k: (or 3x3:d:k: for a Killer X)")
    parts = text.strip()[found.end():].split(":")
    if parts and parts[-1] == "":
        parts.pop()
    if len(parts) != SIDE * SIDE:
        raise KillerFormatError(f"{len(parts)} cells, not {SIDE * SIDE}")
    cages: dict[int, tuple[int, list[int]]] = {}
    for cell, part in enumerate(parts):
        if not part.isdigit():
            raise KillerFormatError(f"cell {cell + 1}: {part!r} is not a number")
        total, number = divmod(int(part), 256)
        if not total:
            continue
        held = cages.setdefault(number, (total, []))
        if held[0] != total:
            raise KillerFormatError(f"cage {number}: totals {held[0]} and {total}")
        held[1].append(cell)
    lay = family(SIDE, diagonals="+-" if found.group(1) else "",
                 constraints=[Cage(tuple(cells), total) for total, cells in cages.values()])
    return Grid(lay, bytes(SIDE * SIDE))


def name_of(text: str) -> str:
    """A name as the line form keeps it: one word."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "unnamed"


def from_iss(folder: Path) -> list[tuple[str, str, str | None]]:
    """(name, Killer string, solution or None) of every entry of ISS's collections whose input is a long Killer."""
    source = (folder / "data" / "collections.js").read_text(encoding="utf-8")
    found: list[tuple[str, str, str | None]] = []
    for name, body in ENTRY.findall(source):
        given = INPUT.search(body)
        if given is not None:
            solution = SOLUTION.search(body)
            found.append((name, given.group(1), solution.group(1) if solution else None))
    return found


def from_file(path: Path) -> list[tuple[str, str, str | None]]:
    """(name, Killer string, None) of each line of a file: the string, then its name (the line's number if none)."""
    found: list[tuple[str, str, str | None]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            text, _, name = line.strip().partition(" ")
            found.append((name or f"line-{number}", text, None))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the puzzle file to write (line form)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--iss", type=Path, help="a checkout of the Interactive Sudoku Solver: its collections")
    source.add_argument("--from", dest="lines", type=Path, help="a file of long Killer strings, one a line")
    args = parser.parse_args(argv)
    try:
        entries = from_iss(args.iss) if args.iss else from_file(args.lines)
    except OSError as exc:
        parser.error(str(exc))
    origin = f"the Interactive Sudoku Solver's data/collections.js ({args.iss})" if args.iss else str(args.lines)
    lines = [f"# long Killer strings (SudoCue's format) from {origin} (benchmarks/sudocue_killers.py)"]
    read = 0
    for name, text, solution in entries:
        try:
            grid = puzzle_of(text)
        except (KillerFormatError, PuzzleError) as exc:
            lines.append(f"# not read: {name}: {exc}")
            continue
        if solution is not None:
            problems = grid.solution_problems(Grid(grid.layout, bytes(int(ch) for ch in solution)))
            if problems:
                lines.append(f"# {name}: its solution is not valid: {'; '.join(problems)}")
        lines.append(f"{grid.text()} {name_of(name)}")
        read += 1
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.out}: {read} puzzles, {sum(line.startswith('# not read') for line in lines)} not read")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
