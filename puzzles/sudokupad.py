"""SudokuPad links (sudokupad.app), each turned into the f-puzzles object it carries or amounts to, which the
f-puzzles reader (puzzles/fpuzzles.py) then reads: a puzzle reads the same from any of its links and from its
f-puzzles JSON.

A link is `https://sudokupad.app/` (or a subdomain of it, or app.crackingthecryptic.com; `/sudoku/` before the id and
`?puzzleid=ID` are read too) and a puzzle id, or the puzzle id alone:
- `fpuzzles<payload>` or `fpuz<payload>`: f-puzzles' JSON as LZ-String's base64, as an f-puzzles link carries it;
- `scl<payload>` or `ctc<payload>`: SudokuPad's own JSON as LZ-String's base64, the JSON itself or its "zipped" form
  (short keys, keys and `t`/`f` unquoted, empty objects left out: SudokuPad's puzzlezipper.js);
- any other id is a puzzle held on SudokuPad's server, refused in one line: this project reads no network.
A payload whose `//` a URL normaliser collapsed to `/` is repaired as SudokuPad repairs it: a slash put back where
the payload then decodes.

What an `scl` puzzle says is read where it carries a rule: its cells' values (the givens), its regions, its cages
(a cage SudokuPad marks `unique`, a Killer cage with its total or none; an extra region, `style: "extraregion"`; the
disjoint groups), its global rules (`global`: anti-knight, anti-king, non-consecutive, disjoint groups), the
diagonals drawn as lines from corner to corner, and its title, author, rules text and solution (its metadata, or
the cages that carry them as `title: ...`). A drawn line, arrow, overlay or underlay, a background image, or a cage
without SudokuPad's no-repeat flag, is a drawing whose rule only the rules text says: refused by name, or left out
when the caller chooses (`decorations="ignore"`). Any other field is refused as unknown.
"""
from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Callable, Collection, Iterator, Mapping
from itertools import combinations
from typing import Any

from . import constraints as registry
from .layouts import PuzzleError
from .words import json_type, quoted

DECORATIONS = ("refuse", "ignore")  # what a reader does with a drawing that may carry a rule
FORMS = {"fpuzzles": "fpuzzles", "fpuz": "fpuzzles", "scl": "scl", "ctc": "scl"}  # a puzzle id's prefix: its form
SITE = re.compile(r"(?:https?:/{1,2})?(?:[a-z0-9-]+\.)*(?:sudokupad\.app|crackingthecryptic\.com)"
                  r"(?::[0-9]+)?(?P<path>/[^?#\s]*)?(?P<query>\?[^#\s]*)?(?:#\S*)?", re.IGNORECASE)
PUZZLE_ID = re.compile(r"(?P<form>fpuzzles|fpuz|scl|ctc)(?P<payload>\S*)", re.DOTALL)
BARE = re.compile(r"(?:fpuzzles|fpuz|scl|ctc)[A-Za-z0-9+/=\\$%-]{16,}")  # a puzzle id alone, as datasets keep it
REPAIRS = 400  # the most payloads a collapsed link's repair tries (SudokuPad's own bound)
META = re.compile(r"([^: ]+):\s*(.+)", re.DOTALL)  # a cage that carries the puzzle's metadata: `title: ...`
# SudokuPad's zipped JSON: its short keys for the long ones (puzzlezipper.js's map), and its shortened values
SHORT_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
              "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays", "w": "width",
              "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded", "re": "regions",
              "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title", "te": "text",
              "d": "duration", "d2": "d"}
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
KEY = re.compile(r"(?<=[,{\[])([A-Za-z0-9]+):")
EMPTY = re.compile(r"(?<=[,\[])(?=[,}\]])|(?<=\{)(?=[,\]])")  # a slot with nothing in it: an object left out
ZIPPED_VALUES = ((re.compile(r"(?<=:)f(?=[,}\]])"), "false"), (re.compile(r"(?<=:)t(?=[,}\]])"), "true"),
                 (re.compile(r"(?<=:)#0(?=[,}\]])"), '"#000000"'), (re.compile(r"(?<=:)#F(?=[,}\]])"), '"#FFFFFF"'),
                 (re.compile(r"(?<=:)([0-9a-fA-F]{6})(?=[,}\]])"), r'"#\1"'))
COLOUR = re.compile(r"[0-9a-fA-F]{6}")
# what an scl object holds that says nothing of the rules: its id, the size it is drawn at, the app's settings
ABOUT = ("id", "cellSize", "settings", "metadata")
READ = (*ABOUT, "cells", "regions", "cages", "global")  # the fields read (ABOUT: read and ignored)
DRAWINGS = {"lines": "a drawn line", "arrows": "a drawn arrow", "overlays": "an overlay (a shape or text drawn over "
            "the grid)", "underlays": "an underlay (a shape or colour drawn under the grid)"}
# the kinds by SudokuPad's names for them (`Constraint.PAD`): a global rule's, a cage's type or style
PAD_KINDS = {name: kind for kind in registry.CONSTRAINT_KINDS.values() for name in kind.PAD}
WHY = "SudokuPad's format does not say which rule it is, and a solver that ignored it would solve a different puzzle"
# how a refused decoration is read after all, as the command lines and the Python readers say it
# how a field refused as unknown is read after all (puzzles.fpuzzles.check_accepted says which names may be)
ACCEPT_IT = "if it holds no rule, --accept-fields {name} reads the puzzle without it (accepted=('{name}',) from Python)"
IGNORE_IT = "if the rules give it no meaning, --decorations ignore reads the puzzle without it (decorations='ignore' " \
            "from Python)"
LEFT_OUT = {"lines": "drawn line", "arrows": "drawn arrow", "overlays": "overlay", "underlays": "underlay",
            "cages": "cage without a rule", "bgimage": "background image"}  # what a puzzle read so left out


class Converted(dict[str, Any]):
    """The f-puzzles object an scl puzzle amounts to, and what it left out, each drawing's SudokuPad key and how
    many (`decorations="ignore"`; none otherwise): the reader says so in every record of the puzzle. An attribute,
    not a field: the object's fields are f-puzzles' own, read as any f-puzzles object's."""

    def __init__(self, fields: Mapping[str, Any]) -> None:
        super().__init__(fields)
        self.left_out: dict[str, int] = {}
        self.accepted: list[str] = []  # the unknown fields read and ignored (`accepted`), in the puzzle's order


class SudokuPadError(PuzzleError):
    """A SudokuPad link or puzzle that is not one the project reads; the message says why."""


def is_link(text: str) -> bool:
    """Whether `text` is a SudokuPad link, or a SudokuPad puzzle id with its form's prefix (`scl...`)."""
    return SITE.fullmatch(text) is not None or BARE.fullmatch(text) is not None


def puzzle_id(text: str) -> str:
    """The puzzle id a SudokuPad link names (its path after the site, or its `puzzleid`), percent-decoded."""
    found = SITE.fullmatch(text)
    if found is None:
        return urllib.parse.unquote(text)
    query = urllib.parse.parse_qs((found["query"] or "?")[1:].replace("+", "%2B"))  # a + is base64's, no space
    path = (found["path"] or "").lstrip("/")
    named: list[str] = query.get("puzzleid") or [urllib.parse.unquote(path.removeprefix("sudoku/"))]
    return named[0]


def contents(text: str, decode: Callable[[str], str]) -> tuple[str, str]:
    """A SudokuPad link's form (`fpuzzles` or `scl`) and the text its payload carries (`decode`: LZ-String's
    base64 to text, '' when it is not); SudokuPadError when it carries none, in one line."""
    found = PUZZLE_ID.fullmatch(puzzle_id(text))
    if found is None:
        shown = puzzle_id(text) or text
        raise SudokuPadError(f"a SudokuPad puzzle id ({quoted(shown)}) names a puzzle held on SudokuPad's server, "
                             "and this project reads no network: give the puzzle's own link (one whose id starts "
                             "fpuzzles, fpuz, scl or ctc) or its f-puzzles JSON")
    form, payload = FORMS[found["form"]], found["payload"].replace(" ", "+")
    if not payload:
        raise SudokuPadError(f"a SudokuPad link with nothing after `{found['form']}`: it carries no puzzle")
    if payload.startswith("{"):  # SudokuPad reads JSON left uncompressed as it is
        return form, payload
    for candidate in repairs(payload):
        decoded = decode(candidate)
        if decoded and _reads(decoded, form):
            return form, decoded
    raise SudokuPadError(f"not a SudokuPad link: its `{found['form']}` payload is not LZ-String's base64 of a "
                         "puzzle" + (", even with a collapsed `//` put back" if "/" in payload else ""))


def repairs(payload: str) -> Iterator[str]:
    """The payload, then the payloads a URL normaliser may have made it from by collapsing `//` to `/`: one
    slash put back beside a lone one, then two, ... (at most REPAIRS in all)."""
    yield payload
    lone = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", payload)]
    tried = 1
    for count in range(1, len(lone) + 1):
        for chosen in combinations(lone, count):
            if tried >= REPAIRS:
                return
            tried += 1
            parts, last = [], 0
            for at in chosen:
                parts += [payload[last:at], "/"]
                last = at
            yield "".join(parts) + payload[last:]


def _reads(decoded: str, form: str) -> bool:
    """Whether decoded text is what a payload of this form carries: a JSON object (for scl, perhaps zipped)."""
    try:
        found = json.loads(decoded)
    except (ValueError, RecursionError):
        if form != "scl":
            return False
        try:
            found = json.loads(unzipped(decoded))
        except (ValueError, RecursionError):
            return False
    return isinstance(found, dict)


def unzipped(text: str) -> str:
    """SudokuPad's zipped JSON as JSON (the text unchanged when it is JSON already); ValueError when the keys it
    maps clash."""
    if '"' not in text:  # zipped quotes: strings in single quotes, a quote inside one escaped
        text = text.replace("\\'", "\x00").replace("'", '"').replace("\x00", "'")
    strings: list[str] = []

    def held(found: re.Match[str]) -> str:
        strings.append(found.group())
        return f'"\x01{len(strings) - 1}\x01"'

    text = STRING.sub(held, text)  # the strings kept out of every rewrite below
    text = EMPTY.sub("{}", KEY.sub(r'"\1":', text))
    for pattern, value in ZIPPED_VALUES:
        text = pattern.sub(value, text)
    text = re.sub(r'"\x01([0-9]+)\x01"', lambda m: strings[int(m[1])], text)
    return json.dumps(_long_keys(json.loads(text)))


def _long_keys(value: Any) -> Any:
    """A zipped JSON value with its keys long again and its bare colours (`"a0b0c0"`) given their `#`."""
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        found: dict[str, Any] = {}
        for key, item in value.items():
            long = SHORT_KEYS.get(key) or str(key)
            if long in found:
                raise ValueError(f"the zipped key {quoted(key)} and {quoted(long)} clash")
            found[long] = _long_keys(item)
        return found
    return f"#{value}" if isinstance(value, str) and COLOUR.fullmatch(value) else value


def scl_value(text: str) -> Any:
    """The JSON value an scl payload carries, zipped or not; SudokuPadError saying why it cannot be read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise SudokuPadError("the link's SudokuPad JSON is nested too deeply to read") from None
    except ValueError:
        pass
    try:
        return json.loads(unzipped(text))
    except RecursionError:
        raise SudokuPadError("the link's SudokuPad JSON is nested too deeply to read") from None
    except ValueError as exc:
        raise SudokuPadError(f"the link's payload is neither SudokuPad's JSON nor its zipped form ({exc})") from None


def object_of_scl(puzzle: Any, decorations: str = "refuse", accepted: Collection[str] = ()) -> Converted:
    """The f-puzzles object an scl puzzle amounts to (see the module's docstring for what is read), with the
    drawings it left out and the `accepted` unknown fields it read and ignored; SudokuPadError naming what
    cannot be read and why."""
    if decorations not in DECORATIONS:
        raise ValueError(f"decorations must be one of {', '.join(DECORATIONS)}, not {decorations!r}")
    if not isinstance(puzzle, dict):
        raise SudokuPadError(f"the link's SudokuPad JSON is {json_type(puzzle)}, not a puzzle (an object)")
    for key in puzzle:
        if key not in (*READ, *DRAWINGS, *accepted) and not _empty(puzzle[key]):
            raise SudokuPadError(f"SudokuPad field {quoted(key)} (an unknown field): not read by this project, and a "
                                 "solver that ignored it might solve a different puzzle; " + ACCEPT_IT.format(name=key))
    side, cells = _cells(puzzle.get("cells"))
    found = Converted(cells)
    found.accepted = [key for key in puzzle if key in accepted and not _empty(puzzle[key])]
    _regions(puzzle.get("regions"), side, found["grid"])
    meta = _metadata(puzzle.get("metadata"))
    _cages(_listed(puzzle, "cages"), side, found, meta, decorations)
    _globals(_listed(puzzle, "global"), found)
    if not _empty(meta.get("bgimage")):
        if decorations == "refuse":
            raise SudokuPadError(f"SudokuPad metadata `bgimage`, a background image drawn under the grid: {WHY}; "
                                 f"{IGNORE_IT}")
        found.left_out["bgimage"] = 1
    for key, what in DRAWINGS.items():
        for index, drawn in enumerate(_listed(puzzle, key)):
            if key == "lines" and _diagonal(drawn, side, found):
                continue
            if decorations == "refuse":
                raise SudokuPadError(f"SudokuPad `{key}` entry {index + 1}, {what}: {WHY}; {IGNORE_IT}")
            found.left_out[key] = found.left_out.get(key, 0) + 1
    for name, field in (("title", "title"), ("author", "author"), ("rules", "ruleset")):
        if isinstance(meta.get(name), str):
            found[field] = meta[name]
    solution = meta.get("solution")
    if isinstance(solution, str) and len(solution) == side * side and solution.isdigit():
        found["solution"] = [int(v) for v in solution]  # a partial one (`.`, `?`) is none, as in f-puzzles
    return found


def _empty(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, (str, list, dict)) and not value)


def _listed(puzzle: Mapping[str, Any], key: str) -> list[Any]:
    found = puzzle.get(key)
    if found is None:
        return []
    if not isinstance(found, list):
        raise SudokuPadError(f"SudokuPad `{key}` must be a list, not {json_type(found)} {quoted(found)}")
    return found


def _cells(rows: Any) -> tuple[int, dict[str, Any]]:
    """The side of a square grid of `cells` and the f-puzzles object of its givens."""
    if not isinstance(rows, list) or not rows or not all(isinstance(row, list) for row in rows):
        raise SudokuPadError("SudokuPad `cells` must be rows of cells")
    side = len(rows)
    uneven = next((r for r, row in enumerate(rows) if len(row) != side), None)
    if uneven is not None:
        raise SudokuPadError(f"a grid of {side} rows whose row {uneven + 1} has {len(rows[uneven])} cells: the "
                             "project reads square grids")
    grid: list[list[dict[str, Any]]] = []
    for r, row in enumerate(rows):
        grid.append([])
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise SudokuPadError(f"cell R{r + 1}C{c + 1} is not an object")
            value = cell.get("value")
            if value is None or value == "" or cell.get("given") is False:  # a solver's entry, not a given
                grid[-1].append({})
                continue
            number = int(value) if isinstance(value, str) and value.isdigit() else value
            if not isinstance(number, int) or isinstance(number, bool):
                raise SudokuPadError(f"cell R{r + 1}C{c + 1}: its value {quoted(value)} is not a digit")
            grid[-1].append({"value": number, "given": True})
    return side, {"size": side, "grid": grid}


def _cell(point: Any, side: int, what: str) -> tuple[int, int]:
    if not (isinstance(point, list) and len(point) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                   for v in point)):
        raise SudokuPadError(f"{what}: a cell must be [row, column], not {quoted(point)}")
    r, c = point
    if not (0 <= r < side and 0 <= c < side):
        raise SudokuPadError(f"{what}: cell {quoted(point)} is outside the {side}x{side} grid")
    return r, c


def _regions(regions: Any, side: int, grid: list[list[dict[str, Any]]]) -> None:
    """Each cell's region (0-based, in `regions`' order) set on the f-puzzles grid."""
    if not isinstance(regions, list) or not regions:
        raise SudokuPadError("a SudokuPad puzzle without `regions`: the project reads puzzles of the Sudoku family, "
                             "whose regions are drawn")
    for index, region in enumerate(regions):
        if not isinstance(region, list):
            raise SudokuPadError(f"SudokuPad region {index + 1} must be a list of cells")
        for point in region:
            r, c = _cell(point, side, f"region {index + 1}")
            if "region" in grid[r][c]:
                raise SudokuPadError(f"cell R{r + 1}C{c + 1} is in regions {grid[r][c]['region'] + 1} and "
                                     f"{index + 1}")
            grid[r][c]["region"] = index
    missing = next((f"R{r + 1}C{c + 1}" for r in range(side) for c in range(side) if "region" not in grid[r][c]),
                   None)
    if missing:
        raise SudokuPadError(f"cell {missing} is in no region: the project reads grids whose every cell is in one")


def _metadata(meta: Any) -> dict[str, Any]:
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise SudokuPadError(f"SudokuPad `metadata` must be an object, not {json_type(meta)}")
    return dict(meta)


def _cages(cages: list[Any], side: int, found: Converted, meta: dict[str, Any], decorations: str) -> None:
    """The cages that carry a rule as f-puzzles fields (Killer cages, extra regions, disjoint groups), and those
    that carry metadata into `meta` (the first of each name)."""
    killer = registry.CONSTRAINT_KINDS[registry.KILLER].FIELD
    for index, cage in enumerate(cages):
        what = f"SudokuPad cage {index + 1}"
        if not isinstance(cage, dict):
            raise SudokuPadError(f"{what} is not an object")
        value = cage.get("value")
        tagged = META.fullmatch(value) if isinstance(value, str) else None
        if tagged is not None:
            meta.setdefault(tagged[1], tagged[2])
            continue
        points = cage.get("cells") or []
        if not points:
            continue  # a cage of no cells draws nothing and holds nothing
        if not isinstance(points, list):
            raise SudokuPadError(f"{what}: `cells` must be a list")
        cells = [f"R{r + 1}C{c + 1}" for r, c in (_cell(p, side, what) for p in points)]
        unique, style = cage.get("unique"), cage.get("style")
        kind = PAD_KINDS.get(str(cage.get("type"))) or PAD_KINDS.get(str(style))
        if kind is not None and kind.FIELD in registry.HOUSE_FLAGS:
            found[kind.FIELD] = True  # the groups SudokuPad draws as cages: the rule `global` names
        elif kind is not None:  # a house of its own: an extra region
            if unique is False or len(cells) != side:
                raise SudokuPadError(f"{what}, an extra region of {len(cells)} cells" +
                                     (" whose digits may repeat" if unique is False else "") +
                                     f": the project reads extra regions of {side} different values")
            found.setdefault(kind.FIELD, []).append({"cells": cells})
        elif unique is True:
            found.setdefault(killer, []).append({"cells": cells} | _total(cage, what))
        elif unique is False and not _empty(value):
            raise SudokuPadError(f"{what}, a cage with the value {quoted(value)} whose digits may repeat: not read "
                                 "by this project, and a solver that ignored it would solve a different puzzle")
        elif cage.get("hidden") is True and _empty(value):
            continue  # drawn nowhere and holding nothing (SudokuPad's cage of cells in no region of f-puzzles')
        elif decorations == "refuse":
            raise SudokuPadError(f"{what}, a cage SudokuPad does not mark as a Killer cage (no `unique`): {WHY}; "
                                 f"{IGNORE_IT}")
        else:
            found.left_out["cages"] = found.left_out.get("cages", 0) + 1


def _total(cage: Mapping[str, Any], what: str) -> dict[str, str]:
    """A Killer cage's total as f-puzzles writes it (`{"value": "17"}`), or none."""
    for key in ("sum", "value"):
        total = cage.get(key)
        if total is None or total == "":
            continue
        if isinstance(total, int) and not isinstance(total, bool) and total >= 0:
            return {"value": str(total)}
        if isinstance(total, str) and total.strip().isdigit():
            return {"value": total.strip()}
        raise SudokuPadError(f"{what}: its {key} {quoted(total)} is not a whole number, so no Killer total")
    return {}


def _globals(rules: list[Any], found: dict[str, Any]) -> None:
    """SudokuPad's global rules as f-puzzles' flags: a rule of the whole grid the project knows, by its name."""
    for rule in rules:
        kind = PAD_KINDS.get(rule) if isinstance(rule, str) else None
        if kind is not None and (kind.GLOBAL or kind.FIELD in registry.HOUSE_FLAGS):
            found[kind.FIELD] = True
        else:
            raise SudokuPadError(f"SudokuPad global rule {quoted(rule)}: not read by this project, and a solver that "
                                 "ignored it would solve a different puzzle")


def _diagonal(line: Any, side: int, found: dict[str, Any]) -> bool:
    """Whether a drawn line is a diagonal of the grid, corner to corner (so it is set as f-puzzles' diagonal)."""
    points = line.get("wayPoints") if isinstance(line, dict) else None
    if not isinstance(points, list) or len(points) < 2 or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                        for v in p) for p in points):
        return False
    rows = [r for r, _ in points]
    if min(rows) not in (0, 0.5) or max(rows) not in (side - 0.5, side):  # from the top edge to the bottom one
        return False
    for sign, total in (("-", None), ("+", side)):  # r == c; r + c == side
        if all((r == c) if total is None else (r + c == total) for r, c in points):
            found[f"diagonal{sign}"] = True
            return True
    return False
