"""The readers' grammar as hypothesis strategies: f-puzzles objects and line-form puzzles, valid and broken, field by
field and type by type, each with what it says (the givens, cages and extra houses a reader must keep).

An f-puzzles object is built over a full grid (the side's boxes, or its rows as regions on a side without boxes), so
that its givens and its cages' totals agree with each other unless a field was broken on purpose. Every field is
drawn either well formed or as another JSON type (bool, int, float, string, null, list, object: a dimension of its
own, since `1 in (None, True, False)` is true in Python), or malformed (a cell name with unicode digits, a total in
`²`, a region out of range). A line-form puzzle is its symbols and its words (r=, x, d+, d-, e=, dg, k=, and the
constraints' antiknight, antiking, nonconsecutive and th=), each drawn whole or broken (a symbol out of range, a
unicode digit, a word twice, a total past int(), a thermometer's cell twice or outside the grid).

Constraints are drawn so that the full grid keeps them: a thermometer's cells are cells of a row in the order of
their values (they rise along it), and a given that would break a rule of the whole grid with an earlier given is
left blank (`clashes`, the rules as defined, knowing nothing of the project's).

`Said` is what the input says, counted as a careless reader might read it (a flag said if truthy): a reader that
returns a puzzle must hold at least that.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from puzzles.constraints.killer import LETTERS as CAGE_LETTERS
from puzzles.layouts import BOX_SHAPE, SYMBOLS, box_regions

SIDES = (4, 5, 6, 9)  # with boxes (4, 6, 9) and without (5: its rows are its regions)
FLAGS = ("diagonal+", "diagonal-", "disjointgroups")
WHOLE_GRID = ("antiknight", "antiking", "nonconsecutive")  # the rules of the whole grid: a flag, a word
THERMOMETER_DRAWING = ("baseC", "outlineC", "fontC")  # a thermometer entry's colours: the drawing's
ODD_DIGITS = "²³٣१０"  # digits str.isdigit takes that int() refuses or that are not ASCII
DOTLESS_I = "\u0131"  # its upper case is "I", a symbol of sides 18 and up: no symbol of a puzzle
ODD_SYMBOLS = ODD_DIGITS + DOTLESS_I + "QZz!;=:"  # symbols no puzzle uses


@dataclass(frozen=True)
class Said:
    """What an input says, read as a careless reader might: a reader that returns a puzzle holds at least this."""

    givens: int
    cages: int
    diagonals: frozenset[str]  # "+" and "-"
    extra_regions: int
    disjoint: bool
    rules: frozenset[str] = frozenset()  # the rules of the whole grid said (WHOLE_GRID)
    thermometers: int = 0  # different thermometer lines said


def clashes(solution: list[int], side: int, rules: set[str], cell: int, givens: set[int]) -> bool:
    """Whether the solution's value at `cell` breaks a rule of the whole grid with a given already placed: a
    knight's or a king's move apart and equal, or sharing an edge and consecutive."""
    r, c = divmod(cell, side)
    for other in givens:
        dr, dc = abs(other // side - r), abs(other % side - c)
        v, w = solution[cell], solution[other]
        if ("antiknight" in rules and {dr, dc} == {1, 2} and v == w) or \
                ("antiking" in rules and dr == dc == 1 and v == w) or \
                ("nonconsecutive" in rules and dr + dc == 1 and abs(v - w) == 1):
            return True
    return False


def rising_cells(side: int, solution: list[int]) -> st.SearchStrategy[list[int]]:
    """Two to four cells of a row in the order of their values in the full grid: a thermometer it keeps."""
    return st.tuples(st.integers(0, side - 1), st.lists(st.integers(0, side - 1), min_size=2, max_size=4,
                                                       unique=True)).map(
        lambda t: sorted((t[0] * side + c for c in t[1]), key=lambda cell: solution[cell]))


def json_value(kind: str) -> st.SearchStrategy[Any]:
    """A JSON value of one type."""
    return {
        "bool": st.booleans(),
        "int": st.sampled_from([0, 1, -1, 2, 3, 17, 10 ** 12]) | st.integers(-5, 40),
        "float": st.sampled_from([0.0, 1.0, 1.5, -0.0, 3.0, 1e300]),
        "string": st.sampled_from(["", "true", "false", "1", "0", "17", "²", " 3 ", "x", "null"]),
        "null": st.none(),
        "list": st.sampled_from([[], [1], [True], ["R1C1"], [{}]]),
        "object": st.sampled_from([{}, {"cells": []}, {"value": 1}, {"a": None}]),
    }[kind]


JSON_KINDS = ("bool", "int", "float", "string", "null", "list", "object")
ANY_JSON = st.sampled_from(JSON_KINDS).flatmap(json_value)


def weighted(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any] = ANY_JSON) -> st.SearchStrategy[Any]:
    """Mostly the usual value, sometimes any JSON value of any type."""
    return st.one_of(usual, usual, usual, odd)


def full_grid(side: int) -> list[int]:
    """A full grid valid in its rows, columns and regions (the side's boxes, or rows on a side without them)."""
    h, w = BOX_SHAPE.get(side, (1, side))
    return [(w * (r % h) + r // h + c) % side + 1 for r in range(side) for c in range(side)]


def regions_of(side: int) -> tuple[int, ...]:
    h, w = BOX_SHAPE.get(side, (1, side))
    return box_regions(side, h, w)


def name(cell: int, side: int) -> str:
    return f"R{cell // side + 1}C{cell % side + 1}"


def cage_cells(side: int) -> st.SearchStrategy[list[int]]:
    """Two or three cells side by side in a row (their values differ in any full grid)."""
    return st.tuples(st.integers(0, side - 1), st.integers(0, side - 3), st.integers(2, 3)).map(
        lambda t: [t[0] * side + t[1] + k for k in range(t[2])])


# -- f-puzzles -------------------------------------------------------------------------------------------------
BROKEN_FIELDS = ("size", "grid", "cell", "given", "value", "region", "flag", "extraregion", "killercage", "field",
                 "rule", "thermometer")


@st.composite
def fpuzzles_objects(draw: st.DrawFn) -> tuple[dict[str, Any], Said]:
    """An f-puzzles object and what it says: well formed, or with one field (BROKEN_FIELDS) of another type or
    malformed. Half of them are well formed, so that the reader's puzzles are checked as often as its refusals."""
    broken = draw(st.sampled_from(("none",) * len(BROKEN_FIELDS) + BROKEN_FIELDS))

    def odd(field: str, usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any] = ANY_JSON) -> Any:
        return draw(st.one_of(usual, usual, other) if broken == field else usual)

    def kept(field: str, value: Any, other: st.SearchStrategy[Any] = ANY_JSON) -> Any:
        """`value`, or when `field` is the broken one, a third of the time `other`'s: odd(field, just(value))
        with no draw where nothing is broken (a grid's cells are many draws otherwise)."""
        return odd(field, st.just(value), other) if broken == field else value

    side = draw(st.sampled_from(SIDES))
    solution = full_grid(side)
    regions = regions_of(side)
    own_regions = side not in BOX_SHAPE or broken == "region" or draw(st.booleans())
    flags = {rule: odd("rule", st.booleans() | st.none()) for rule in draw(st.lists(st.sampled_from(WHOLE_GRID),
                                                                                    max_size=2, unique=True))}
    rules = {rule for rule, value in flags.items() if value}  # said as a careless reader reads a flag: if truthy
    placed: set[int] = set()
    givens = 0
    rows: list[list[Any]] = []
    kinds = random.Random(draw(st.integers(0, 2**32 - 1)))  # each cell's kind: one draw for the grid, not one a cell
    for r in range(side):
        row: list[Any] = []
        for c in range(side):
            cell_index = r * side + c
            cell: dict[str, Any] = {}
            kind = kinds.choice(["blank", "blank", "given", "given", "note"])
            if kind == "given" and clashes(solution, side, rules, cell_index, placed):
                kind = "blank"
            if kind == "given":
                placed.add(cell_index)
                cell = {"value": kept("value", solution[cell_index]),
                        "given": kept("given", True)}
            elif kind == "note":
                cell = {"value": solution[cell_index], "given": odd("given", st.sampled_from([False, None]))}
            if broken == "cell" and draw(st.integers(0, side)) == 0:
                cell[draw(st.sampled_from(["color", "c", "centerPencilMarks", "value2"]))] = draw(ANY_JSON)
            flag, value = cell.get("given"), cell.get("value")
            givens += bool(flag) and value is not None
            if own_regions:
                cell["region"] = kept("region", regions[cell_index], ANY_JSON | st.integers(-1, side))
            row.append(cell)
        rows.append(row)
    puzzle: dict[str, Any] = {"size": odd("size", st.just(side), ANY_JSON | st.integers(-1, 30)), "grid": rows}
    if broken == "grid":  # a grid of the wrong shape, or not a grid
        puzzle["grid"] = draw(st.sampled_from([rows[:-1], [row[:-1] for row in rows], {}, None, "grid", [[]]]))
    diagonals: set[str] = set()
    disjoint = False
    for flag_name in FLAGS:
        if draw(st.booleans()):
            continue
        value = odd("flag", st.booleans() | st.none())
        puzzle[flag_name] = value
        if value and flag_name == "disjointgroups":
            disjoint = True
        elif value:
            diagonals.add(flag_name[-1])
    extra = 0
    if draw(st.integers(0, 3)) == 0 or broken == "extraregion":
        listed = draw(st.lists(extra_region(side, broken == "extraregion"), max_size=2))
        value = puzzle["extraregion"] = odd("extraregion", st.just(listed))
        extra = len(value) if isinstance(value, list) else bool(value)
    cages = 0
    if draw(st.booleans()) or broken == "killercage":
        listed = draw(st.lists(killer_cage(side, solution, broken == "killercage"), max_size=4))
        value = puzzle["killercage"] = odd("killercage", st.just(listed))
        cages = len(value) if isinstance(value, list) else bool(value)
    puzzle.update(flags)
    thermometers = 0
    if draw(st.integers(0, 2)) == 0 or broken == "thermometer":
        listed = draw(st.lists(thermometer(side, solution, broken == "thermometer"), max_size=3))
        value = puzzle["thermometer"] = odd("thermometer", st.just(listed))
        thermometers = len({tuple(line) for entry in value if isinstance(entry, dict)
                            for line in (entry.get("lines") if isinstance(entry.get("lines"), list) else [])
                            if isinstance(line, list)}) if isinstance(value, list) else bool(value)
    for extra_field in draw(st.lists(st.sampled_from(["title", "author", "solution", "source", "arrow", "text",
                                                      "version"]), max_size=2, unique=True)):
        usual = {"title": st.text(max_size=6), "author": st.just("someone"), "solution": st.just(solution)}.get(
            extra_field, st.sampled_from([None, False, [], {}, ""]))
        puzzle[extra_field] = odd("field", usual)
    return puzzle, Said(givens, cages, frozenset(diagonals), extra, disjoint, frozenset(rules), thermometers)


@st.composite
def thermometer(draw: st.DrawFn, side: int, solution: list[int], odd: bool = False) -> Any:
    """A `thermometer` entry: one or two lines the full grid keeps (a shared bulb or not), sometimes with its
    colours; or (when `odd`) broken: a cell named wrong, twice, outside the grid, a line too long, no lines, a field
    no thermometer has."""
    lines = [[name(c, side) for c in draw(rising_cells(side, solution))] for _ in range(draw(st.integers(1, 2)))]
    entry: dict[str, Any] = {"lines": lines}
    if draw(st.integers(0, 3)) == 0:
        entry[draw(st.sampled_from(THERMOMETER_DRAWING))] = draw(st.sampled_from(["#CFCFCF", "", None]) | ANY_JSON)
    broken = draw(st.sampled_from(["name", "unicode", "twice", "long", "lines", "line", "field", "type"])) \
        if odd else "no"
    if broken == "name":
        lines[0][-1] = draw(st.sampled_from(["R0C1", "R1C99", "X1", "R1C", "r1c1 ", "R" + "5" * 5000 + "C1", ""]))
    elif broken == "unicode":
        lines[0][0] = f"R{draw(st.sampled_from(ODD_DIGITS))}C1"
    elif broken == "twice":
        lines[0].append(lines[0][0])
    elif broken == "long":
        lines[0] = [name(c, side) for c in range(side + 1)]
    elif broken == "lines":
        entry["lines"] = draw(ANY_JSON)
    elif broken == "line":
        lines[0] = draw(ANY_JSON)
    elif broken == "field":
        entry[draw(st.sampled_from(["value", "cells", "bulb"]))] = draw(ANY_JSON)
    elif broken == "type":
        return draw(ANY_JSON)
    return entry


@st.composite
def extra_region(draw: st.DrawFn, side: int, odd: bool = False) -> Any:
    """An `extraregion` entry: a row's or a column's cells (a house of n cells), or (when `odd`) a broken one."""
    line = draw(st.integers(0, side - 1))
    cells = [line * side + k for k in range(side)] if draw(st.booleans()) else [k * side + line for k in range(side)]
    names = [name(c, side) for c in cells]
    broken = draw(st.sampled_from(["no", "short", "name", "type", "unicode"])) if odd else "no"
    if broken == "short":
        names = names[:-1]
    elif broken == "name":
        names[0] = draw(st.sampled_from(["R0C1", "R1C99", "X1", "R1C", "r1c1 ", "R" + "5" * 5000 + "C1"]))
    elif broken == "unicode":
        names[0] = f"R{draw(st.sampled_from(ODD_DIGITS))}C1"
    elif broken == "type":
        return {"cells": draw(ANY_JSON)}
    return {"cells": names}


@st.composite
def killer_cage(draw: st.DrawFn, side: int, solution: list[int], odd: bool = False) -> Any:
    """A `killercage` entry whose total is its cells' sum in the full grid, written as f-puzzles does (a string),
    or as a number, absent or empty; or (when `odd`) broken."""
    cells = draw(cage_cells(side))
    total = sum(solution[c] for c in cells)
    value = draw(st.sampled_from(["string", "string", "int", "absent", "empty"]
                                 + (["odd", "unicode", "long"] if odd else [])))
    entry: dict[str, Any] = {"cells": [name(c, side) for c in cells]}
    if value == "string":
        entry["value"] = str(total)
    elif value == "int":
        entry["value"] = total
    elif value == "empty":
        entry["value"] = draw(st.sampled_from(["", None]))
    elif value == "odd":
        entry["value"] = draw(ANY_JSON)
    elif value == "unicode":
        entry["value"] = draw(st.sampled_from(ODD_DIGITS))
    elif value == "long":
        entry["value"] = "1" * draw(st.sampled_from([7, 4400]))
    if draw(st.integers(0, 5)) == 0:
        entry[draw(st.sampled_from(["outlineC", "fontC"] + (["cage", "sum"] if odd else [])))] = draw(ANY_JSON)
    return entry


# -- the line form -----------------------------------------------------------------------------------------------
LINE_BROKEN = ("symbol", "length", "regions", "word", "twice", "cage", "thermometer")


@st.composite
def line_puzzles(draw: st.DrawFn) -> tuple[str, Said]:
    """A puzzle's line form (its symbols, then its words after `;`) and what it says: well formed, or with one
    part (LINE_BROKEN) broken. Half of them are well formed."""
    broken = draw(st.sampled_from(("none",) * len(LINE_BROKEN) + LINE_BROKEN))
    side = draw(st.sampled_from(SIDES))
    solution = full_grid(side)
    rules = set(draw(st.lists(st.sampled_from(WHOLE_GRID), max_size=2, unique=True)))
    symbols, placed = [], set()
    chosen = random.Random(draw(st.integers(0, 2**32 - 1)))  # each cell's symbol: one draw for the grid
    for cell, v in enumerate(solution):
        symbol = chosen.choice([".", ".", "0", "_", SYMBOLS[v - 1], SYMBOLS[v - 1], SYMBOLS[v - 1].lower()])
        if symbol not in "._0" and clashes(solution, side, rules, cell, placed):
            symbol = "."
        placed |= {cell} if symbol not in "._0" else set()
        symbols.append(symbol)
    if broken == "symbol":
        symbols[draw(st.integers(0, len(symbols) - 1))] = draw(st.sampled_from(ODD_SYMBOLS))
    elif broken == "length":
        if draw(st.booleans()):
            symbols.pop()
        else:
            symbols.append("1")
    givens = sum(1 for s in symbols if s not in ".0_")
    words: list[str] = []
    diagonals: set[str] = set()
    extra = cages = 0
    disjoint = False
    if side not in BOX_SHAPE or broken == "regions" or draw(st.booleans()):
        regions = "".join(SYMBOLS[k] for k in regions_of(side))
        if broken == "regions":
            regions = draw(st.sampled_from([regions[:-1], regions.replace("1", DOTLESS_I, 1), regions.replace("2", "0"),
                                            regions.replace("1", ".", 1), ""]))
        words.append("r=" + regions)
    for word in draw(st.lists(st.sampled_from(["x", "d+", "d-", "dg"]), max_size=2, unique=True)):
        if (word in ("d+", "d-") and "x" in words) or (word == "x" and {"d+", "d-"} & set(words)):
            continue  # said twice: broken == "twice" does that on purpose
        words.append(word)
        if word == "dg":
            disjoint = True
        else:
            diagonals |= {"+", "-"} if word == "x" else {word[1]}
    if draw(st.integers(0, 3)) == 0:  # a row as an extra region
        row = draw(st.integers(0, side - 1))
        words.append("e=" + "".join("1" if cell // side == row else "." for cell in range(side * side)))
        extra += 1
    for _ in range(draw(st.integers(0, 2)) + (broken == "cage")):
        word, count = draw(cage_word(side, solution, broken == "cage"))
        words.append(word)
        cages += count
    words += sorted(rules)
    lines = draw(st.lists(rising_cells(side, solution), max_size=2, unique_by=tuple))
    if broken == "thermometer":
        lines.append(draw(broken_line(side)))
    words += ["th=" + ",".join(name(c, side) if isinstance(c, int) else c for c in line) for line in lines]
    if broken == "word":
        words.append(draw(st.sampled_from(["zz", "r", "k=", "e=", "x=1", "D+", "d", "dg=1", "antiknights", "anti-king",
                                           "Nonconsecutive", "th", "th=", "TH=R1C1,R1C2", "th:R1C1,R1C2"])))
    if broken == "twice":  # a word said twice (a k= word's cages are added again: they are counted)
        for _ in range(2):
            word = draw(st.sampled_from(words or ["x"]))
            words.append(word)
            cages += word.startswith("k=") and ":" in word and len(word.partition(":")[2].split(","))
    if draw(st.integers(0, 5)) == 0:
        words.append("")  # `;;`: no word
    words = draw(st.permutations(words))
    text = "".join(symbols) + (";" + ";".join(words) if words else "")
    return text, Said(givens, cages, frozenset(diagonals), extra, disjoint, frozenset(rules), len(lines))


def broken_line(side: int) -> st.SearchStrategy[list[int | str]]:
    """A thermometer's cells broken: a cell twice, too many cells, a cell outside the grid or not a cell's name."""
    return st.sampled_from([
        [0, 1, 0], list(range(side + 1)), [0, f"R{side + 1}C1"], [0, "R0C1"], [0, "X"], [0, ""], [0, "R²C1"],
        [0, "R" + "5" * 5000 + "C1"], [0, "R1C1 R1C2"]])


@st.composite
def cage_word(draw: st.DrawFn, side: int, solution: list[int], odd: bool = False) -> tuple[str, int]:
    """A `k=` word of cages in different rows (their totals their cells' sums), or (when `odd`) a broken one, and
    how many cages it says."""
    rows = draw(st.lists(st.integers(0, side - 1), min_size=1, max_size=3, unique=True))
    cell_map = ["."] * (side * side)
    totals = []
    for letter, row in zip(CAGE_LETTERS, rows, strict=False):
        start = draw(st.integers(0, side - 2))
        cells = [row * side + start, row * side + start + 1]
        for c in cells:
            cell_map[c] = letter
        totals.append(draw(st.sampled_from([str(sum(solution[c] for c in cells))] * 4 + ["-"])))
    broken = draw(st.sampled_from(["total", "count", "letter", "colon"])) if odd else "no"
    if broken == "total":
        totals[0] = draw(st.sampled_from([*ODD_DIGITS, "", " 3", "1" * 4400, "x", "-3"]))
    elif broken == "count":
        totals = totals[:-1] if draw(st.booleans()) else [*totals, "3"]
    elif broken == "letter":
        cell_map[cell_map.index("a")] = draw(st.sampled_from("?ß1"))
    text = "".join(cell_map) + ("" if broken == "colon" else ":" + ",".join(totals))
    return "k=" + text, len(rows)


def as_json(puzzle: dict[str, Any]) -> str:
    """An object as one JSON line (NaN and the like as Python writes them)."""
    return json.dumps(puzzle, separators=(",", ":"))


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """Text with one edit a careless hand or a broken pipe makes: cut short, a character dropped, doubled or put in."""
    if not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    edit = draw(st.sampled_from(["cut", "drop", "double", "insert"]))
    if edit == "cut":
        return text[:at]
    if edit == "drop":
        return text[:at] + text[at + 1:]
    if edit == "double":
        return text[:at] + text[at] + text[at:]
    return text[:at] + draw(st.sampled_from(['{', '}', '[', ']', '"', ',', ':', '1', '²', 'e', '\\', ' '])) + text[at:]
