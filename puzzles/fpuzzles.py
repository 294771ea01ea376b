"""f-puzzles, the Sudoku family's exchange format: a puzzle as a JSON object, or as a link that carries one
(LZ-String's base64 form of the JSON, after `?load=`).

An object has a `size` (the side), a `grid` of `size` rows of cells (`value`, `given`, `region`), and optional
`title`, `author`, `ruleset` and `solution` (every cell's value, row-major). Only a cell's given value is part
of the puzzle: a value without `given` is a solver's entry, and pencil marks are a solver's notes.

What is read: the Sudoku family of houses (puzzles/layouts.py), on a grid of side 4 to 25: its regions (the
side's boxes, or each cell's `region`, 0-based, for a Jigsaw), `diagonal+` and `diagonal-` (true: that
diagonal is a house), `extraregion` (a list of `{"cells": ["R1C1", ...]}`, each a house of n cells) and
`disjointgroups` (true); Killer cages, `killercage` (a list of `{"cells": [...], "value": "17"}`, the
total a string as f-puzzles writes it, absent for a cage without one; its outline and font colours are the
drawing's); and the fields of the constraints puzzles/constraints/ knows (its __init__.py's
table), each kind reading and writing its own. Anything else an f-puzzles object can hold (arrows, little killer
sums, ...) is refused with its name: a solver that ignored a rule would solve a different puzzle. A cosmetic
element (text, a circle, a line, a cosmetic cage) is refused as well, since a puzzle's rules may give it a meaning,
unless the caller chooses to ignore decorations (`decorations="ignore"`). A solver's settings and notes
(`disabledlogic`, `truecandidatesoptions`, `successMessage`, a cell's pencil marks and colours) are read and ignored.
A SudokuPad link (puzzles/sudokupad.py) is read as the f-puzzles object it carries or amounts to.

Each field is read as the type it must have and refused otherwise, never taken for another: a flag (`diagonal+`,
`diagonal-`, `disjointgroups`, the flag of a constraint of the whole grid, a cell's `given`) is true, false or
null, so `1`, `1.0` or `"true"` is refused by name rather than read as false, which would drop a rule or a given
(`1 in (None, True, False)` is true in Python).
"""
from __future__ import annotations

import itertools
import json
import re
import urllib.parse
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from . import constraints as registry  # the kinds of constraint, by name
from . import sudokupad
from .grid import Grid
from .layouts import (
    BOX_SHAPE,
    MAX_SIDE,
    MIN_SIDE,
    Layout,
    PuzzleError,
    boxes,
    cell_names,
    family,
)
from .words import json_type, quoted

ABOUT = ("title", "author", "ruleset")  # words about the puzzle, no rule
# a solver's settings and a setter's message (f-puzzles' and its successors'), read and ignored: none is a rule
SETTINGS = ("disabledlogic", "truecandidatesoptions", "successMessage")
DECORATIONS = sudokupad.DECORATIONS  # what a reader does with a cosmetic element: refuse it, or ignore it
COSMETIC = ("text", "circle", "rectangle", "line", "cage")  # drawn only, but the ruleset may give them a meaning
# f-puzzles' other rules (and those its successors' exports add), refused as "a constraint"; any other field is
# "an unknown field" (`source`, `version`): refused all the same, since nothing says it holds no rule
# (the constraints the project reads are puzzles/constraints/'s, their fields `registry.FIELDS`)
CONSTRAINTS = ("clock", "sum")
# a solver's marks and colours, not the puzzle's
CELL_NOTES = ("centerPencilMarks", "cornerPencilMarks", "candidates", "c", "cArray", "highlight")
LINK = re.compile(r"[?&]load=(?P<payload>[^&#\s]*)")
PAYLOAD = re.compile(r"[A-Za-z0-9+/=$-]{16,}")  # LZ-String's base64 (f-puzzles links may swap + for -)
# the houses a bool sets (the diagonals, the disjoint groups): true, false or null, nothing else, said before the cells
FLAGS = registry.HOUSE_FLAGS


ACCEPT_IT = sudokupad.ACCEPT_IT


def check_accepted(names: Collection[str]) -> None:
    """ValueError unless every name is a field the readers would refuse as unknown: one they read (`size`, a
    constraint's), one that holds a rule they do not read, or a drawing (--decorations says what to do with those)
    cannot be accepted and ignored."""
    for name in names:
        if not name or name != name.strip() or "," in name:
            raise ValueError(f"{name!r} is not a field's name")
        if name in ("size", "grid", "solution", *ABOUT, *SETTINGS, *registry.FIELDS) or name in sudokupad.READ:
            raise ValueError(f"field {quoted(name)} is read by this project: there is nothing to accept")
        if name in CONSTRAINTS:
            raise ValueError(
                f"field {quoted(name)} holds a rule (a constraint the project does not read): ignoring it would "
                "solve a different puzzle")
        if name in COSMETIC or name in sudokupad.DRAWINGS:
            raise ValueError(f"field {quoted(name)} is a drawing: --decorations ignore reads a puzzle without its "
                             "drawings")


class FPuzzlesError(PuzzleError):
    """An f-puzzles object or link that is not a puzzle the project reads; the message says why."""


def is_link(text: str) -> bool:
    """Whether `text` is an f-puzzles link (`...?load=...`) or a bare payload (a long base64 word, not a puzzle)."""
    if LINK.search(text) is not None or sudokupad.is_link(text):
        return True
    if PAYLOAD.fullmatch(text) is None:
        return False
    try:
        Grid.parse(text)
    except PuzzleError:
        pass
    else:
        return False
    try:
        decoded = _decoded(text)
    except FPuzzlesError:  # no library to tell with: a link, whose every entry will say why it cannot be read
        return True
    return decoded.lstrip().startswith(("{", "["))  # a puzzle of the wrong length is not a payload


def lz_string() -> Any:
    """The py-lzstring module, imported only when a link is read or written; FPuzzlesError in one line when the
    module of that name is not py-lzstring's (the PyPI package `lzstring` installs one of the same name, whose
    functions have other names) or there is none."""
    try:
        import lzstring
    except ImportError:
        raise FPuzzlesError("reading an f-puzzles link needs the py-lzstring package, which is not installed "
                            "(pip install py-lzstring)") from None
    if not all(callable(getattr(lzstring, f, None)) for f in ("decompress_from_base64", "compress_to_base64")):
        raise FPuzzlesError("reading an f-puzzles link needs the py-lzstring package, and the module `lzstring` "
                            f"here ({getattr(lzstring, '__file__', None) or 'no file'}) is another package's, "
                            "perhaps PyPI's `lzstring`: pip uninstall lzstring, then pip install --force-reinstall "
                            "py-lzstring")
    return lzstring


def _decoded(payload: str) -> str:
    """The text a payload carries ('' when it is not LZ-String's base64)."""
    lzstring = lz_string()
    try:
        decoded = lzstring.decompress_from_base64(payload.replace(" ", "+"))
    except Exception:  # any malformed payload: what the library raises is its own
        return ""
    return decoded if isinstance(decoded, str) else ""


def object_of_link(text: str, decorations: str = "refuse", accepted: Collection[str] = ()) -> dict[str, Any]:
    """The JSON object a link (or its bare payload) carries, or that a SudokuPad link amounts to (puzzles/sudokupad.py;
    `decorations`: what it does with SudokuPad's drawings; `accepted`: the unknown fields it reads and ignores);
    FPuzzlesError if it carries none."""
    if sudokupad.is_link(text):
        try:
            form, decoded = sudokupad.contents(text, _decoded)
            if form == "fpuzzles":
                return object_of_json(decoded, "the link's payload")
            return sudokupad.object_of_scl(sudokupad.scl_value(decoded), decorations, accepted)
        except sudokupad.SudokuPadError as exc:
            raise FPuzzlesError(str(exc)) from None
    found = LINK.search(text)
    payload = urllib.parse.unquote(found["payload"]) if found else text
    if not payload:
        raise FPuzzlesError("an f-puzzles link with nothing after `load=`: it carries no puzzle")
    decoded = _decoded(payload)
    if not decoded:
        raise FPuzzlesError("not an f-puzzles link: its payload is not LZ-String's base64")
    return object_of_json(decoded, "the link's payload")


def object_of_json(text: str, what: str = "the line") -> dict[str, Any]:
    """A JSON object from text; FPuzzlesError saying where it breaks (not the whole text)."""
    return _object(parsed(text, what), what)


def _object(found: Any, what: str) -> dict[str, Any]:
    """A JSON value as an f-puzzles object; FPuzzlesError saying what it is instead."""
    if isinstance(found, list):
        raise FPuzzlesError(f"{what} is a JSON array, not an f-puzzles object: a file holds one object a line, or "
                            "one object")
    if not isinstance(found, dict):
        raise FPuzzlesError(f"{what} is JSON but not an f-puzzles object (a {type(found).__name__})")
    return found


def parsed(text: str, what: str = "the line") -> Any:
    """JSON text's value; FPuzzlesError saying where it breaks (its column, not the whole text), or why it cannot
    be read: nested past Python's stack, a number int() refuses."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FPuzzlesError(f"{what} is not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise FPuzzlesError(f"{what} is JSON nested too deeply to read (an f-puzzles object nests 4 deep)") from None
    except ValueError:  # a number of more than 4,300 digits: int() refuses it
        raise FPuzzlesError(f"{what} is JSON holding a number of more than 4,300 digits, which Python does not "
                            "read") from None


def puzzle_of(puzzle: Mapping[str, Any], decorations: str = "refuse",
              accepted: Collection[str] = ()) -> tuple[Grid, Grid | None, str]:
    """The grid of an f-puzzles object, its solution if it gives a whole one, and its title (its name);
    `decorations="ignore"` reads it without its cosmetic elements (`refuse`, the default, refuses the first);
    the `accepted` fields (check_accepted) are read and ignored where they would be refused as unknown."""
    size = puzzle.get("size")
    if not isinstance(size, int) or isinstance(size, bool):
        raise FPuzzlesError("an f-puzzles object needs a whole number `size`")
    if not MIN_SIDE <= size <= MAX_SIDE:
        raise FPuzzlesError(f"size {size}: the project reads sides {MIN_SIDE} to {MAX_SIDE}")
    refuse_rules(puzzle, decorations, accepted)
    values, regions = givens_of(puzzle.get("grid"), size)
    try:
        lay = family(size, regions, constraints=constraints_of(puzzle, size))
    except RecursionError:  # a Python object nested past the stack (a JSON text's is refused by parsed())
        raise FPuzzlesError("an f-puzzles object nested too deeply to read") from None
    except FPuzzlesError:
        raise
    except PuzzleError as exc:
        raise FPuzzlesError(str(exc)) from None
    grid = Grid(lay, bytes(values))
    conflicts = grid.conflicts()
    if conflicts:
        raise FPuzzlesError(f"invalid puzzle: {', '.join(conflicts)}")
    title = puzzle.get("title")
    return grid, solution_of(puzzle.get("solution"), lay), title.strip() if isinstance(title, str) else ""


def constraints_of(puzzle: Mapping[str, Any], size: int) -> list[registry.Constraint]:
    """The constraints the object's fields state (puzzles/constraints/: each kind reads its own field);
    FPuzzlesError naming the field, the entry and why."""
    try:
        return registry.of_fields(puzzle, size)
    except ValueError as exc:
        raise FPuzzlesError(str(exc)) from None


def _empty(value: Any) -> bool:
    """Whether a field's value says nothing: null, false, an empty string, list or object; never a number (0 is
    not false here: `1 in (None, True, False)` is true in Python, and so is `0 in (False,)`)."""
    return value is None or value is False or (isinstance(value, (str, list, dict)) and not value)


def drawn_from_read_rules(puzzle: Mapping[str, Any], entries: Any) -> bool:
    """Whether a cosmetic field's entries are all f-puzzles' own drawings of rules the puzzle states in fields the
    project reads: f-puzzles draws some constraints for SudokuPad as lines, cages and texts marked
    `"fromConstraint": "German Whispers"`, beside the constraint's own field (`whispers`). Such a drawing is the rule
    said twice, not a rule of its own; one whose rule's field is missing or not read stays a cosmetic element."""
    held = [field for field in registry.FIELDS if not _empty(puzzle.get(field))]

    def drawn(entry: Any) -> bool:
        title = entry.get("fromConstraint") if isinstance(entry, dict) else None
        said = str(title).lower().replace(" ", "") if isinstance(title, str) else ""
        return bool(said) and any(said == field or said.endswith(field) for field in held)

    return isinstance(entries, list) and all(drawn(entry) for entry in entries)


def refuse_rules(puzzle: Mapping[str, Any], decorations: str = "refuse", accepted: Collection[str] = ()) -> None:
    """FPuzzlesError naming the first field that holds a rule (or a drawing, unless `decorations` is "ignore", or
    a field unknown to the project, unless it is `accepted`) the project does not read."""
    if decorations not in DECORATIONS:
        raise ValueError(f"decorations must be one of {', '.join(DECORATIONS)}, not {decorations!r}")
    skipped = ("size", "grid", "solution", *ABOUT, *SETTINGS, *registry.FIELDS,
               *(COSMETIC if decorations == "ignore" else ()), *accepted)
    for key, value in puzzle.items():
        if key in skipped or _empty(value):
            continue
        if key in COSMETIC and drawn_from_read_rules(puzzle, value):
            continue
        if key in COSMETIC:
            raise FPuzzlesError(f"f-puzzles field {quoted(key)} (a cosmetic element, which the rules may give a "
                                "meaning): not read by this project, and a solver that ignored it would solve a "
                                f"different puzzle if the rules give it one; {sudokupad.IGNORE_IT}")
        if key in CONSTRAINTS:
            raise FPuzzlesError(f"f-puzzles field {quoted(key)} (a constraint): not read by this project, and a "
                                "solver that ignored it would solve a different puzzle")
        raise FPuzzlesError(f"f-puzzles field {quoted(key)} (an unknown field): not read by this project, and a solver "
                            f"that ignored it might solve a different puzzle; {ACCEPT_IT.format(name=key)}")
    for key in FLAGS:  # a bool only if it is one: `1`, `1.0` or `"true"` refused, never read as false
        value = puzzle.get(key)
        if value is not None and not isinstance(value, bool):
            raise FPuzzlesError(f"`{key}` must be true or false, not {json_type(value)} {quoted(value)}")


def givens_of(rows: Any, size: int) -> tuple[list[int], list[int] | None]:
    """The given values of an f-puzzles `grid`, row-major (0 = blank), and each cell's region when the cells
    give them (None: the side's boxes)."""
    if not isinstance(rows, list) or len(rows) != size or not all(isinstance(r, list) and len(r) == size
                                                                  for r in rows):
        raise FPuzzlesError(f"`grid` must be {size} rows of {size} cells")
    values: list[int] = []
    regions: list[int | None] = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            where = f"R{r + 1}C{c + 1}"
            if not isinstance(cell, dict):
                raise FPuzzlesError(f"cell {where} is not an object")
            known = ("value", "given", "region", *CELL_NOTES, *registry.CELL_FIELDS)  # a kind reads its own
            unknown = [k for k in cell if k not in known and not _empty(cell[k])]
            if unknown:
                raise FPuzzlesError(f"cell {where}: field {quoted(unknown[0])} is not read by this project")
            region = cell.get("region")
            if region is not None and (not isinstance(region, int) or isinstance(region, bool)
                                       or not 0 <= region < size):
                raise FPuzzlesError(f"cell {where}: region {quoted(region)} is not 0 to {size - 1}")
            regions.append(region)
            value, flag = cell.get("value"), cell.get("given")
            if flag is not None and not isinstance(flag, bool):  # `1` or `"true"` is no flag: never a note
                raise FPuzzlesError(f"cell {where}: `given` must be true or false, not {json_type(flag)} "
                                    f"{quoted(flag)}")
            given = flag is True and value is not None
            if given and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= size):
                raise FPuzzlesError(f"cell {where}: a given must be a value 1 to {size}, not {quoted(value)}")
            values.append(value if given and isinstance(value, int) else 0)
    if all(region is None for region in regions):
        if size not in BOX_SHAPE:
            raise FPuzzlesError(f"a {size}x{size} grid has no boxes: its cells must give their regions")
        return values, None
    default = boxes(size).regions if size in BOX_SHAPE else None
    missing = [i for i, region in enumerate(regions) if region is None]
    if missing and default is None:
        raise FPuzzlesError(f"cell {cell_names(missing[:1], size)} has no region, and a {size}x{size} grid has "
                            "no boxes to take it from")
    return values, [default[i] if region is None and default is not None else region or 0
                    for i, region in enumerate(regions)]


def solution_of(solution: Any, lay: Layout) -> Grid | None:
    """The object's `solution` as a grid when it gives every cell; None when it is absent or partial."""
    n = lay.side
    if not isinstance(solution, list) or len(solution) != n * n:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in solution):
        return None
    return Grid(lay, bytes(solution))


def object_of(grid: Grid, title: str = "", solution: Grid | None = None) -> dict[str, Any]:
    """A grid as an f-puzzles object: its regions given cell by cell only when they are not the side's boxes
    (as f-puzzles draws them by default), its extra houses, cages and constraints under their f-puzzles names."""
    n, lay = grid.side, grid.layout
    own_regions = n not in BOX_SHAPE or lay.regions != boxes(n).regions

    def cell(i: int) -> dict[str, Any]:
        v = grid.values[i]
        found: dict[str, Any] = {"value": v, "given": True} if v else {}
        if own_regions:
            found["region"] = lay.regions[i]
        return found

    rows = [[cell(r * n + c) for c in range(n)] for r in range(n)]
    for i, fields in registry.cell_fields_of(lay.rules, n).items():
        rows[i // n][i % n] |= fields
    found: dict[str, Any] = {"size": n, "grid": rows}
    found |= registry.fields_of(lay.rules, n)
    if title:
        found["title"] = title
    if solution is not None:
        found["solution"] = list(solution.values)
    return found


def json_line(grid: Grid, title: str = "", solution: Grid | None = None) -> str:
    """A grid as one line of f-puzzles JSON (a .jsonl file holds one a line)."""
    return json.dumps(object_of(grid, title, solution), separators=(",", ":"))


def link_of(puzzle: Mapping[str, Any], site: str = "f-puzzles") -> str:
    """The link that loads this object in f-puzzles, or with `site="sudokupad"` in SudokuPad (its `fpuzzles`
    form, the f-puzzles payload behind SudokuPad's prefix)."""
    lzstring = lz_string()
    payload: str = lzstring.compress_to_base64(json.dumps(puzzle, separators=(",", ":")))
    if site not in ("f-puzzles", "sudokupad"):
        raise ValueError(f"site must be f-puzzles or sudokupad, not {site!r}")
    return ("https://sudokupad.app/fpuzzles" if site == "sudokupad" else "https://www.f-puzzles.com/?load=") + payload


def read_objects(lines: Iterator[tuple[int, str]], decorations: str = "refuse",
                 accepted: Collection[str] = ()) -> Iterator[tuple[int, dict[str, Any] | FPuzzlesError]]:
    """The objects of an f-puzzles file's content lines, each with the line it starts on: a JSON object a line
    or a link a line, streamed; or, when the first line is not a whole object, one JSON object over every line
    (a .json file written over several lines), a syntax error in it reported at its own line. A file whose first
    line is broken but whose other lines are objects each is JSON lines still: its first line is one bad entry."""
    first = next(lines, None)
    if first is None:
        return
    number, text = first
    if text.strip().startswith(("{", "[")) and not _whole(text):
        held = [first, *lines]
        try:
            found = json.loads("".join(rest for _, rest in held))
        except json.JSONDecodeError as exc:
            if not any(_is_entry(rest) for _, rest in held[1:]):
                yield held[min(exc.lineno, len(held)) - 1][0], FPuzzlesError(
                    f"the file is not JSON ({exc.msg} at column {exc.colno})")
                return
            lines = iter(held[1:])  # JSON lines after all: each line on its own, the first too
        except (RecursionError, ValueError):  # nested too deeply, or a number int() refuses: said line by line
            lines = iter(held[1:])
        else:
            try:
                yield number, _object(found, "the file")
            except FPuzzlesError as exc:
                yield number, exc
            return
    for number, text in itertools.chain([first], lines):
        line = text.strip()
        try:
            word = line.split()[0]
            json_or_link = line.startswith(("{", "[")) or LINK.search(line) or PAYLOAD.fullmatch(word) or \
                sudokupad.is_link(word)
            if not json_or_link:
                raise FPuzzlesError("the line is neither an f-puzzles object (JSON, from `{` to `}`) nor an f-puzzles "
                                    "link")
            yield number, (object_of_json(line) if line.startswith(("{", "[")) else
                           object_of_link(word, decorations, accepted))
        except FPuzzlesError as exc:
            yield number, exc
        except Exception as exc:  # a defect of this project's reader: one bad entry, never the end of the run
            yield number, FPuzzlesError(unexpected(exc))


def _whole(text: str) -> bool:
    """Whether a line is a whole JSON value (or fails for a reason of its own, which its entry will say)."""
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    except (RecursionError, ValueError):
        return True
    return True


def _is_entry(text: str) -> bool:
    """Whether a line is an entry of a file of JSON lines: a whole f-puzzles object (one with a `size`) or a link."""
    line = text.strip()
    if not line.startswith("{"):
        return LINK.search(line) is not None
    try:
        found = json.loads(line)
    except (RecursionError, ValueError):
        return False
    return isinstance(found, dict) and "size" in found


def unexpected(exc: BaseException) -> str:
    """A bad entry's reason when a reader raised what it never should: the entry is skipped, the run goes on."""
    return (f"not read: the reader failed on it ({type(exc).__name__}: {quoted(str(exc), 80)}), a defect of this "
            "project: please report it")
