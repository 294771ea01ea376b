"""Killer puzzles shared in SudoCue's long Killer format or the forums' short one, as the forums and other solvers
keep them (the Interactive Sudoku Solver's collection of "extreme Killers" among them), read into the project's line
form:

    python benchmarks/sudocue_killers.py OUT.txt --iss DIR      (every such puzzle of ISS's data/collections.js)
    python benchmarks/sudocue_killers.py OUT.txt --iss DIR --collection MATHEMAGIC_KILLERS
                                                                (the Killers of one of its collections)
    python benchmarks/sudocue_killers.py OUT.txt --from FILE    (one Killer string a line, a name after it)
    python compare.py OUT.txt

The format (SudoCue, http://www.sudocue.net/forum/viewtopic.php?f=1&t=519; the Interactive Sudoku Solver reads it
too): `3x3:` then `d` for a Killer X (both diagonals) or nothing, then `:k:`, then the 81 cells in reading order,
separated by colons, each the number 256 x its cage's total + the cage's number (0: the cell is in no cage), then
a last colon. A cell holds no given. The short format (the enjoysudoku forum's "understandable snarfable Killer
cages"; ISS reads it too): 81 characters in reading order, a cage's first cell its total (1 to 9 as a digit, 10 to
35 as A to Z, 36 to 45 as a to j; 0 for a cage without a total, whose values differ) and each other cell an arrow
to a neighbour in its cage (< > ^ v, and ` ' , . for the diagonals up-left, up-right, down-left, down-right).
Where ISS's collection gives a puzzle's solution, it is checked against the puzzle as read: a line `# ... solution
is not valid` says where it is not (the puzzle is still written).
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
# one of ISS's collections (`export const NAME = new PuzzleCollection(...)`), and a string quoted in it
COLLECTION = re.compile(r"^export const (\w+) = new PuzzleCollection\((.*?)(?=^export |\Z)", re.S | re.M)
QUOTED = re.compile(r"'((?:[^'\\\n]|\\.)*)'")
# the short format: each cell an arrow to a neighbour in its cage (the step to it), or its cage's total
ARROWS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0), "`": (-1, -1), "'": (-1, 1), ",": (1, -1), ".": (1, 1)}
SHORT = re.compile(r"[0-9A-Za-j<>^v`',.]{81}")


class KillerFormatError(ValueError):
    """A string that is not a long Killer of SudoCue's format, and why."""


def is_short(text: str) -> bool:
    """Whether a string is written in the short format (81 of its characters, an arrow among them)."""
    return SHORT.fullmatch(text.strip()) is not None and any(ch in ARROWS for ch in text)


def puzzle_of(text: str) -> Grid:
    """The Killer a SudoCue long Killer string, or a short one, describes. KillerFormatError (or PuzzleError, from
    the layout's own checks) says why a string is not one."""
    if is_short(text):
        return short_puzzle(text.strip())
    found = PREFIX.match(text.strip())
    if found is None:
        raise KillerFormatError("not a long Killer string: it starts with 3x3::k: (or 3x3:d:k: for a Killer X); "
                                "nor a short one: 81 characters, totals and arrows")
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


def short_puzzle(text: str) -> Grid:
    """The Killer of a short string (`is_short`): each cell's cage is the one its arrows lead to."""
    step: list[int] = []  # per cell, the cell its arrow points to (itself: a cage's first cell)
    for cell, ch in enumerate(text):
        row, col = divmod(cell, SIDE)
        down, right = ARROWS.get(ch, (0, 0))
        if not (0 <= row + down < SIDE and 0 <= col + right < SIDE):
            raise KillerFormatError(f"cell {cell + 1}: its arrow {ch} points out of the grid")
        step.append(cell + down * SIDE + right)
    cages: dict[int, list[int]] = {}
    for cell in range(SIDE * SIDE):
        first, hops = cell, 0
        while step[first] != first:
            first, hops = step[first], hops + 1
            if hops > SIDE * SIDE:
                raise KillerFormatError(f"cell {cell + 1}: its arrows go round in a loop")
        cages.setdefault(first, []).append(cell)
    killer: list[Cage] = []
    for first, cells in cages.items():
        ch = text[first]
        total = int(ch) if ch.isdigit() else ord(ch) - ord("A") + 10 if ch.isupper() else ord(ch) - ord("a") + 36
        killer.append(Cage(tuple(cells), total or None))  # 0: a cage without a total (its values different)
    return Grid(family(SIDE, constraints=killer), bytes(SIDE * SIDE))


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


def from_collection(folder: Path, name: str) -> list[tuple[str, str, str | None]]:
    """(name, Killer string, solution or None) of each Killer string, long or short, of one of ISS's collections,
    named after the collection and its place there; a solution is the 81 digits that follow its string."""
    source = (folder / "data" / "collections.js").read_text(encoding="utf-8")
    bodies = dict(COLLECTION.findall(source))
    if name not in bodies:
        raise KillerFormatError(f"no collection {name} in {folder / 'data' / 'collections.js'}; its collections: "
                                + ", ".join(bodies))
    strings = [re.sub(r"\\(.)", r"\1", text) for text in QUOTED.findall(bodies[name])]
    found: list[tuple[str, str, str | None]] = []
    for i, text in enumerate(strings):
        if PREFIX.match(text) or is_short(text):
            after = strings[i + 1] if i + 1 < len(strings) else ""
            solution = after if re.fullmatch(r"[1-9]{81}", after) else None
            found.append((f"{name.lower()}-{len(found) + 1}", text, solution))
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
    source.add_argument("--from", dest="lines", type=Path, help="a file of Killer strings, long or short, one a line")
    parser.add_argument("--collection", help="with --iss: the Killers of this collection of its (an exported "
                        "PuzzleCollection, such as MATHEMAGIC_KILLERS), not its named entries")
    args = parser.parse_args(argv)
    if args.collection and not args.iss:
        parser.error("--collection reads one of ISS's collections: give --iss too")
    try:
        entries = (from_collection(args.iss, args.collection) if args.collection else from_iss(args.iss) if args.iss
                   else from_file(args.lines))
    except (OSError, KillerFormatError) as exc:
        parser.error(str(exc))
    origin = (f"the Interactive Sudoku Solver's data/collections.js ({args.iss})"
              + (f", collection {args.collection}" if args.collection else "") if args.iss else str(args.lines))
    lines = [f"# Killer strings (SudoCue's long format, or the short one) from {origin}"
             " (benchmarks/sudocue_killers.py)"]
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
