"""Puzzles with constraints beyond houses and cages (puzzles/constraints/), for the tests of every layer, and a
brute force that states each kind's rule from its definition.

The brute force knows nothing of the kinds' links, their filters or the engines: a knight's move is two steps one
way and one the other, a king's diagonal move one each way, neighbours share an edge, and a thermometer's values
rise from its bulb, a Killer cage holds different values summing to its total, a white dot's two values differ by
its value, a black dot's one is its value times the other, an X's or a V's sum to 10 or 5, a negative rule's
undotted neighbours keep none of its kind's relations, an odd cell's value is odd, a palindrome reads the same both
ways, neighbours along a whispers line differ by its value or more, a slow thermometer's values never fall from its
bulb, a clone's counterparts hold one value, a minimum (maximum) cell holds less (more) than each neighbour not of
its kind, three cells in a row along a modular (entropic) line hold three remainders by 3 (low, middle and high
values). It reads the houses as tests/variant_grids.py does, from the layout's fields. What it finds is what "a
solution of this puzzle" means, whatever the code under test does.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import product

from variant_grids import peers

from puzzles import Grid
from puzzles.constraints.base import Constraint
from puzzles.constraints.killer import Cage, cages_in
from puzzles.layouts import Layout


def _apart(a: int, b: int, n: int) -> tuple[int, int]:
    return abs(a // n - b // n), abs(a % n - b % n)


@cache
def _near(n: int, cell: int) -> tuple[tuple[int, int, int], ...]:
    """The other cells at most two rows and two columns away, each with its rows and columns apart: every cell a
    neighbour, a king's or a knight's move reaches (the brute force asks for each placement: one list a cell)."""
    return tuple((other, *_apart(cell, other, n)) for other in range(n * n)
                 if other != cell and max(_apart(cell, other, n)) <= 2)


# the kinds whose rule concerns only the cells it names (`cell`, `cells`, `pill`, `line`, `clones`): another
# cell's value never breaks it; every other kind (anti-knight, negative, minimum ...) is asked about every cell
NAMING = {"pencilmarks", "odd", "even", "difference", "ratio", "xv", "palindrome", "whispers", "slowthermometer",
          "clone", "modularline", "entropicline", "renban", "arrow", "quadruple", "littlekiller", "thermometer"}


@cache
def _concerning(lay: Layout, cell: int) -> tuple[tuple[Cage, ...], tuple[Constraint, ...], tuple[Constraint, ...]]:
    """The layout's cages holding the cell, its rules that may concern the cell (cages aside: NAMING), and its dots:
    computed once a layout and cell, as the brute force places values millions of times."""
    def named(rule: Constraint) -> set[int]:
        found: set[int] = set()
        for field in ("cell", "cells", "pill", "line", "clones"):
            held = getattr(rule, field, ())
            found.update((held,) if isinstance(held, int) else held)
        return found

    cages = tuple(cage for cage in cages_in(lay.constraints) if cell in cage.cells)
    rules = tuple(rule for rule in lay.constraints if rule.KIND not in NAMING or cell in named(rule))
    return cages, rules, tuple(rule for rule in lay.constraints if rule.KIND in DOTS)


def breaks(lay: Layout, values: Sequence[int], cell: int) -> bool:
    """Whether the value in `cell` breaks a constraint of the layout, or a Killer cage of it, with a filled cell
    (blanks are 0). A cage holds no value twice, and its values sum to its total (no more while it has blanks)."""
    n, v = lay.side, values[cell]
    cages, rules, dots = _concerning(lay, cell)
    for cage in cages:
        if cell in cage.cells:
            held = [values[c] for c in cage.cells if values[c]]
            full = len(held) == len(cage.cells)
            if held.count(v) > 1 or (cage.total is not None and (sum(held) > cage.total or
                                                                 (full and sum(held) != cage.total))):
                return True
    for rule in rules:
        if rule.KIND == "killer":  # a cage: above
            continue
        if rule.KIND == "pencilmarks":  # the cell holds one of its marks
            if cell == rule.cell and not rule.marks >> (v - 1) & 1:  # type: ignore[attr-defined]
                return True
            continue
        if rule.KIND in ("odd", "even"):  # a cell's parity
            if cell == rule.cell and v % 2 != (rule.KIND == "odd"):  # type: ignore[attr-defined]
                return True
            continue
        if rule.KIND in DOTS:  # two neighbours' values keep the dot's relation
            if cell in rule.cells:  # type: ignore[attr-defined]
                other = sum(rule.cells) - cell  # type: ignore[attr-defined]
                if values[other] and not DOTS[rule.KIND](v, values[other], rule.value):  # type: ignore[attr-defined]
                    return True
            continue
        if rule.KIND == "negative":  # every dot of the kind given: an undotted pair keeps no such relation
            kind = rule.rule  # type: ignore[attr-defined]
            family = [k for k in DOTS if FAMILY[k] == FAMILY[kind]]
            dotted = {frozenset(d.cells) for d in dots if d.KIND in family}  # type: ignore[attr-defined]
            forbidden = set(NEGATED[kind]) | {d.value for d in dots if kind == d.KIND}  # type: ignore[attr-defined]
            for other, dr, dc in _near(n, cell):
                if values[other] and dr + dc == 1 and frozenset((cell, other)) not in dotted \
                        and any(DOTS[kind](v, values[other], x) for x in forbidden):
                    return True
            continue
        if rule.KIND == "palindrome":  # the line reads the same both ways
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:
                other = line[len(line) - 1 - line.index(cell)]
                if values[other] and values[other] != v:
                    return True
            continue
        if rule.KIND == "whispers":  # neighbours along the line differ by at least its value
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:
                i = line.index(cell)
                least = rule.value  # type: ignore[attr-defined]
                if any(0 <= j < len(line) and values[line[j]] and abs(values[line[j]] - v) < least
                       for j in (i - 1, i + 1)):
                    return True
            continue
        if rule.KIND == "slowthermometer":  # values never fall from the bulb along the line
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:
                i = line.index(cell)
                if any(values[other] and (j - i) * (values[other] - v) < 0 for j, other in enumerate(line)):
                    return True
            continue
        if rule.KIND == "clone":  # each cell of one group holds its counterpart's value in the other
            for a, b in zip(rule.cells, rule.clones, strict=True):  # type: ignore[attr-defined]
                other = b if cell == a else a if cell == b else None
                if other is not None and values[other] and values[other] != v:
                    return True
            continue
        if rule.KIND in ("minimum", "maximum"):  # less (more) than each neighbour not of its kind
            centre = rule.cell  # type: ignore[attr-defined]
            if sum(_apart(cell, centre, n)) > 1:  # neither the cell nor a neighbour of it
                continue
            own = {c.cell for c in lay.constraints if c.KIND == rule.KIND}  # type: ignore[attr-defined]
            for other, dr, dc in _near(n, cell):
                if dr + dc == 1 and centre in (cell, other) and values[other] \
                        and not ({cell, other} - {centre}) <= own:
                    low, high = (v, values[other]) if cell == centre else (values[other], v)
                    if (low >= high) if rule.KIND == "minimum" else (low <= high):
                        return True
            continue
        if rule.KIND in ("modularline", "entropicline"):  # three cells in a row: three classes
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:
                i = line.index(cell)
                for start in range(max(0, i - 2), min(i, len(line) - 3) + 1):
                    kinds = [CLASS[rule.KIND](values[c], n) for c in line[start:start + 3] if values[c]]
                    if len(set(kinds)) < len(kinds):
                        return True
            continue
        if rule.KIND == "renban":  # different values, a run of consecutive ones (no more apart than it is long)
            line = rule.cells  # type: ignore[attr-defined]
            held = [values[c] for c in line if values[c]]
            if cell in line and (len(set(held)) < len(held) or max(held) - min(held) >= len(line)):
                return True
            continue
        if rule.KIND == "arrow":  # the line's values sum to the number the circle's digits make, for some filling
            pill, line = rule.pill, rule.line  # type: ignore[attr-defined]
            if cell in pill + line:
                blanks = sum(1 for c in line if not values[c])
                low, high = sum(values[c] for c in line) + blanks, sum(values[c] for c in line) + blanks * n
                digits = [[values[c]] if values[c] else range(1, n + 1) for c in pill]
                if not any(low <= int("".join(map(str, number))) <= high for number in product(*digits)):
                    return True
            continue
        if rule.KIND == "quadruple":  # its four cells hold every listed value, as often as listed
            held = [values[c] for c in rule.cells if values[c]]  # type: ignore[attr-defined]
            missing = sum(max(0, rule.values.count(v) - held.count(v)) for v in set(rule.values))  # type: ignore[attr-defined]
            if cell in rule.cells and missing > 4 - len(held):  # type: ignore[attr-defined]
                return True
            continue
        if rule.KIND == "littlekiller":  # the diagonal's values sum to the clue: some 1..n in its blanks reach it
            line = rule.cells  # type: ignore[attr-defined]
            blanks = sum(1 for c in line if not values[c])
            placed = sum(values[c] for c in line)
            if cell in line and not placed + blanks <= rule.sum <= placed + n * blanks:  # type: ignore[attr-defined]
                return True
            continue
        if rule.KIND == "thermometer":
            line = rule.cells  # type: ignore[attr-defined]
            if cell in line:  # values rise along the line: one d steps after another holds at least d more
                i = line.index(cell)
                if any(values[other] and (j - i) * (values[other] - v) < (j - i) ** 2
                       for j, other in enumerate(line) if j != i):
                    return True
            continue
        for other, dr, dc in _near(n, cell):
            w = values[other]
            if not w:
                continue
            if rule.KIND == "antiknight" and {dr, dc} == {1, 2} and v == w:
                return True
            if rule.KIND == "antiking" and dr == dc == 1 and v == w:
                return True
            if rule.KIND == "nonconsecutive" and dr + dc == 1 and abs(v - w) == 1:
                return True
    return False


# the dots' relations between two neighbours' values, by their definitions: a white dot's difference, a black dot's
# ratio, an X's or a V's sum; the values a negative rule of the kind forbids beyond its dots'; the dots a negative
# rule exempts together
DOTS = {"difference": lambda v, w, x: abs(v - w) == x, "ratio": lambda v, w, x: v == x * w or w == x * v,
        "xv": lambda v, w, x: v + w == x}
NEGATED = {"difference": (1,), "ratio": (2,), "xv": (5, 10)}
FAMILY = {"difference": "kropki", "ratio": "kropki", "xv": "xv"}
# a value's class along a modular line (its remainder by 3) and an entropic one (low, middle, high: a 4x4's 1, 2-3, 4)
CLASS = {"modularline": lambda v, n: v % 3,
         "entropicline": lambda v, n: (v - 1) * 3 // n if n % 3 == 0 else (0 if v == 1 else 2 if v == n else 1)}


# the solutions enumerated (in order, no rng) by puzzle line: (the first ones found, whether they are all of them).
# Many tests ask the brute force for the same puzzles' solutions: one enumeration a puzzle per process.
ENUMERATED: dict[str, tuple[list[list[int]], bool]] = {}


def solutions(grid: Grid, limit: int = 10**6, rng: random.Random | None = None) -> Iterator[list[int]]:
    """The solutions of a puzzle with constraints, up to `limit`: cells filled in reading order, each value checked
    against its houses and every constraint as defined above. With `rng`, values in a random order."""
    if rng is not None:
        return search(grid, limit, rng)
    key = grid.text()
    found, whole = ENUMERATED.get(key, ([], False))
    if len(found) < limit and not whole:
        found = list(search(grid, limit))
        ENUMERATED[key] = found, len(found) < limit
    return iter([list(s) for s in found[:limit]])


def search(grid: Grid, limit: int, rng: random.Random | None = None) -> Iterator[list[int]]:
    """The enumeration itself (`solutions`)."""
    lay, n = grid.layout, grid.side
    near = peers(lay)
    values = list(grid.values)
    if any(v and (any(values[p] == v for p in near[c]) or breaks(lay, values, c)) for c, v in enumerate(values)):
        return
    blanks = [c for c, v in enumerate(values) if not v]
    found = 0

    def fill(k: int) -> Iterator[list[int]]:
        nonlocal found
        if k == len(blanks):
            found += 1
            yield list(values)
            return
        cell = blanks[k]
        choices = list(range(1, n + 1))
        if rng is not None:
            rng.shuffle(choices)
        taken = {values[p] for p in near[cell]}  # the values its houses hold already
        for v in choices:
            if v in taken:
                continue
            values[cell] = v
            if not breaks(lay, values, cell):
                yield from fill(k + 1)
            values[cell] = 0
            if found >= limit:
                return

    yield from fill(0)


def count(grid: Grid, limit: int = 2) -> int:
    return sum(1 for _ in solutions(grid, limit))


@cache
def unique_puzzle(text: str, seed: int) -> tuple[Grid, Grid]:
    """A puzzle of the empty grid `text` (its words say its layout) with one solution, and that solution: a random
    solution by the brute force, then givens taken away in random order while it still finds one solution only
    (so each given left is needed)."""
    empty = Grid.parse(text)
    rng = random.Random(seed)
    solution = empty.with_values(next(solutions(empty, 1, rng)))
    values = list(solution.values)
    order = list(range(len(values)))
    rng.shuffle(order)
    for cell in order:
        kept, values[cell] = values[cell], 0
        if count(solution.with_values(values)) > 1:
            values[cell] = kept
    return solution.with_values(values), solution


DOTTED = "125346436125241653653214562431314562"  # a 6x6 solution, whose every dot the negative puzzles give


def every_dot(solution: str, family: str) -> str:
    """The words of every dot of a family a full grid has: Kropki, a black dot where one value is double the other,
    else a white dot where they differ by 1; XV, an X or a V where they sum to 10 or 5."""
    n = round(len(solution) ** 0.5)
    white, black, xv = [], [], []
    for a in range(n * n):
        for b in (a + 1, a + n):
            if b >= n * n or (b == a + 1 and b % n == 0):
                continue
            v, w, pair = int(solution[a]), int(solution[b]), f"R{a // n + 1}C{a % n + 1}-R{b // n + 1}C{b % n + 1}"
            if v == 2 * w or w == 2 * v:
                black.append(pair)
            elif abs(v - w) == 1:
                white.append(pair)
            if v + w in (5, 10):
                xv.append(pair + (":X" if v + w == 10 else ":V"))
    return f";kw={','.join(white)};kb={','.join(black)}" if family == "kropki" else f";xv={','.join(xv)}"


# Empty grids with constraints, small enough to enumerate: each kind alone, on 4x4 and 6x6, and together (a 6x6
# Jigsaw, X or diagonal with anti-knight, anti-king or non-consecutive has no solution, nor a 4x4 with anti-king or
# non-consecutive: the brute force says so). The negative ones give every dot of DOTTED.
EMPTY = {
    "antiknight-6": "." * 36 + ";antiknight",
    "antiking-6": "." * 36 + ";antiking",
    "nonconsecutive-6": "." * 36 + ";nonconsecutive",
    "thermometer-4": "." * 16 + ";th=R1C1,R2C2,R3C3;th=R4C1,R3C1",
    "thermometer-6": "." * 36 + ";th=R1C1,R1C2,R2C3,R3C3;th=R6C6,R5C6,R4C5",
    "antiking+thermometer-6": "." * 36 + ";antiking;th=R2C2,R3C2,R4C3",
    "antiknight-4": "." * 16 + ";antiknight",
    "antiknight+thermometer-6": "." * 36 + ";antiknight;th=R1C1,R1C2,R1C3",
    "nonconsecutive+thermometer-6": "." * 36 + ";nonconsecutive;th=R1C1,R2C1,R3C1",
    "difference+ratio-4": "." * 16 + ";kw=R1C1-R1C2,R2C3-R3C3:2;kb=R4C1-R4C2,R2C1-R2C2",
    "difference+ratio-6": "." * 36 + ";kw=R1C1-R1C2,R3C3-R3C4,R5C2-R6C2:3;kb=R2C5-R2C6,R4C4-R5C4:3",
    "ratio+negative-6": "." * 36 + ";" + every_dot(DOTTED, "kropki").split(";")[2] + ";negative=ratio",
    "xv-4": "." * 16 + ";xv=R1C1-R1C2:V,R3C3-R3C4:V",
    "xv-6": "." * 36 + ";xv=R1C1-R1C2:X,R2C4-R3C4:V,R5C5-R5C6:X",
    "xv+negative-6": "." * 36 + every_dot(DOTTED, "xv") + ";negative=xv",
    "odd+even-4": "." * 16 + ";odd=R1C1,R2C3;even=R4C4,R3C2",
    "odd+even-6": "." * 36 + ";odd=R1C1,R2C3,R6C6;even=R4C4,R3C2,R1C6",
    "antiknight+odd+even-6": "." * 36 + ";antiknight;odd=R1C1;even=R6C6",
    "palindrome-4": "." * 16 + ";pal=R1C1,R2C2,R3C3",
    "whispers-4": "." * 16 + ";gw=R1C1,R1C2,R2C3,R3C3",
    "whispers-6": "." * 36 + ";gw=R1C1,R1C2,R1C3,R2C4,R3C4;gw=R6C6,R5C6,R4C5,R4C4:2",
    "slowthermometer-4": "." * 16 + ";sth=R1C1,R2C2,R3C3,R4C3",
    "slowthermometer-6": "." * 36 + ";sth=R1C1,R1C2,R2C3,R2C4,R3C5,R3C6",
    "clone-4": "." * 16 + ";cl=R1C1,R1C2=R3C3,R3C4",
    "clone-6": "." * 36 + ";cl=R1C1,R2C1,R3C1=R2C4,R3C4,R4C4;cl=R5C2,R5C3=R6C5,R6C6",
    "minimum+maximum-4": "." * 16 + ";min=R1C1,R3C3;max=R2C2",
    "minimum+maximum-6": "." * 36 + ";min=R1C1,R1C2,R4C5;max=R6C6,R3C3,R2C5",  # R1C1, R1C2 not compared
    "modularline-4": "." * 16 + ";mod=R1C1,R2C2,R3C3,R4C4",
    "modularline-6": "." * 36 + ";mod=R1C1,R1C2,R2C3,R3C3,R4C4;mod=R6C1,R5C2,R6C3",
    "entropicline-4": "." * 16 + ";ent=R4C1,R3C2,R2C3,R1C4",
    "entropicline-6": "." * 36 + ";ent=R6C6,R5C6,R4C5,R3C4,R2C4,R1C3",
    "pencilmarks-4": "." * 16 + ";pm=R1C1:12,R2C3:34,R4C4:2",
    "pencilmarks-6": "." * 36 + ";pm=R1C1:135,R1C2:46,R2C2:46,R3C5:12,R6C6:6,R5C1:25,R1C4:123",
    "palindrome-6": "." * 36 + ";pal=R1C1,R2C2,R3C3,R3C4,R4C5;pal=R6C1,R5C2,R4C3,R4C4,R5C5",
    "renban-4": "." * 16 + ";rb=R1C1,R2C2,R3C3;rb=R4C1,R4C2",
    "renban-6": "." * 36 + ";rb=R1C1,R1C2,R2C3,R3C3;rb=R6C6,R5C5,R4C4",
    "arrow-4": "." * 16 + ";ar=R1C1:R2C2,R3C3;ar=R4C4:R3C2",
    "quadruple-4": "." * 16 + ";qd=R1C1:1,2;qd=R3C3:4",
    "quadruple-6": "." * 36 + ";qd=R2C3:1,1;qd=R4C4:2,5,6;qd=R5C1:3",
    "littlekiller-4": "." * 16 + ";lk=R0C2:DR:5;lk=R5C2:UR:4",
    "littlekiller-6": "." * 36 + ";lk=R0C3:DL:4;lk=R7C6:UL:16;lk=R0C4:DR:9",
    "arrow-6": "." * 36 + ";ar=R1C1:R1C2,R1C3;ar=R6C6:R5C5,R4C4,R3C4;ar=R3C1,R4C1:R5C1,R6C1,R6C2,R6C3",
}


def puzzles() -> list[tuple[str, Grid, Grid]]:
    """(name, a unique puzzle, its solution) for every grid of EMPTY (seed 1)."""
    return [(name, *unique_puzzle(text, 1)) for name, text in EMPTY.items()]


def several(name: str) -> Grid:
    """The unique puzzle of `name` with its givens but the first three taken away: several solutions."""
    grid, _ = unique_puzzle(EMPTY[name], 1)
    values = list(grid.values)
    for cell in [c for c, v in enumerate(values) if v][:3]:
        values[cell] = 0
    return grid.with_values(values)
