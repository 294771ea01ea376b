"""Puzzles with constraints beyond houses and cages (puzzles/constraints/), for the tests of every layer, and a
brute force that states each kind's rule from its definition.

The brute force knows nothing of the kinds' links, their filters or the engines: a knight's move is two steps one way
and one the other, a king's diagonal move one each way, neighbours share an edge, and a thermometer's values rise
from its bulb, a Killer cage holds different values summing to its total, a white dot's two values differ by its
value, a black dot's one is its value times the other, an X's or a V's sum to 10 or 5, a negative rule's undotted
neighbours keep none of its kind's relations, an odd cell's value is odd, a palindrome reads the same both ways,
neighbours along a whispers line differ by its value or more, a slow thermometer's values never fall from its bulb, a
clone's counterparts hold one value, a minimum (maximum) cell holds less (more) than each neighbour not of its kind,
three cells in a row along a modular (entropic) line hold three remainders by 3 (low, middle and high values), any
two cells of a nabner line differ by 2 or more, the pairs around a zipper line's middle share one sum (its middle
cell's value), a double arrow's ends sum to the cells between them, a between line's cells lie strictly between its
ends' values and a lockout line's outside them (the ends so many apart), an indexer cell's value names a cell of its
row (a column indexer), column (a row indexer) or region (a box indexer: its cells in reading order) that holds the
indexer's own place there, a region-sum line's runs of cells in one region sum alike (while some are blank: some sum
lies within each run's bounds), a sandwich's row or column holds its 1 and its n once each with values summing to its
clue between them, an X-sum's first X values sum to its clue (X the first), a skyscraper's sees as many values taller
than all before. It reads the houses as tests/variant_grids.py does, from the layout's fields. What it finds is what
"a solution of this puzzle" means, whatever the code under test does.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

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
    neighbour, a king's or a knight's move reaches."""
    return tuple((other, *_apart(cell, other, n)) for other in range(n * n)
                 if other != cell and max(_apart(cell, other, n)) <= 2)


# the moves by rows and columns apart: a knight's two steps one way and one the other, a king's diagonal one each
# way, a neighbour's one step (sharing an edge)
MOVES = {"knight": lambda dr, dc: {dr, dc} == {1, 2}, "diagonal": lambda dr, dc: dr == dc == 1,
         "neighbour": lambda dr, dc: dr + dc == 1}


@cache
def _moves(n: int, cell: int, move: str) -> tuple[int, ...]:
    """The cells one move of the kind (MOVES) reaches from the cell: one tuple a cell and move, as the brute force
    asks at each placement."""
    return tuple(other for other, dr, dc in _near(n, cell) if MOVES[move](dr, dc))


# the kinds whose rule concerns only the cells it names (`cell`, `cells`, `pill`, `line`, `clones`): another
# cell's value never breaks it; a minimum's or maximum's concerns its cell and the cell's neighbours; every other
# kind (anti-knight, negative, indexers ...) is asked about every cell
NEIGHBOURING = {"minimum", "maximum"}
NAMING = {"pencilmarks", "odd", "even", "difference", "ratio", "xv", "palindrome", "whispers", "slowthermometer",
          "clone", "modularline", "entropicline", "renban", "arrow", "quadruple", "littlekiller", "thermometer",
          "nabner", "zipperline", "doublearrow", "betweenline", "lockout", "regionsumline", "sandwich", "xsum",
          "skyscraper"}

# A rule's check: whether the value in `cell` breaks it, given the other cells' values (blanks are 0). Each is asked
# only of the rules that may concern the cell (_concerning), a rule's fields as its kind's dataclass names them.
Broken = Callable[[Layout, Any, Sequence[int], int], bool]


@cache
def _concerning(lay: Layout, cell: int) -> tuple[tuple[Cage, ...], tuple[tuple[Broken, Any], ...]]:
    """The layout's cages holding the cell, and its rules that may concern the cell (cages aside: NAMING,
    NEIGHBOURING), each with its kind's check (a kind with none, a cage or a house, never breaks): computed once a
    layout and cell, as the brute force places values millions of times."""
    def named(rule: Constraint) -> set[int]:
        found: set[int] = set()
        for field in ("cell", "cells", "pill", "line", "clones"):
            held = getattr(rule, field, ())
            found.update((held,) if isinstance(held, int) else held)
        return found

    def concerns(rule: Any) -> bool:
        if rule.KIND in NAMING:
            return cell in named(rule)
        if rule.KIND in NEIGHBOURING:
            return sum(_apart(cell, rule.cell, lay.side)) <= 1
        return True

    cages = tuple(cage for cage in cages_in(lay.constraints) if cell in cage.cells)
    return cages, tuple((BROKEN[rule.KIND], rule) for rule in lay.constraints if rule.KIND in BROKEN and concerns(rule))


def breaks(lay: Layout, values: Sequence[int], cell: int) -> bool:
    """Whether the value in `cell` breaks a constraint of the layout, or a Killer cage of it, with a filled cell
    (blanks are 0). A cage holds no value twice, and its values sum to its total (no more while it has blanks)."""
    v = values[cell]
    cages, rules = _concerning(lay, cell)
    for cage in cages:
        held = [values[c] for c in cage.cells if values[c]]
        full = len(held) == len(cage.cells)
        if held.count(v) > 1 or (cage.total is not None and (sum(held) > cage.total or
                                                             (full and sum(held) != cage.total))):
            return True
    for broken, rule in rules:  # noqa: SIM110  (in the layout's order; a loop: no generator made each placement)
        if broken(lay, rule, values, cell):
            return True
    return False


def _pencilmarks_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """The cell holds one of its marks."""
    return bool(cell == rule.cell and not rule.marks >> (values[cell] - 1) & 1)


def _parity_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """An odd (even) cell's value is odd (even)."""
    return bool(cell == rule.cell and values[cell] % 2 != (rule.KIND == "odd"))


def _dot_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Two neighbours' values keep the dot's relation."""
    if cell in rule.cells:
        other = sum(rule.cells) - cell
        return bool(values[other]) and not DOTS[rule.KIND](values[cell], values[other], rule.value)
    return False


@cache
def _negated(lay: Layout, kind: str) -> tuple[set[frozenset[int]], set[int]]:
    """A negative rule of a dot kind: the pairs the layout's dots of its family exempt, and the values its relation
    may not hold elsewhere (the rule's own and its kind's dots')."""
    dots = [d for d in lay.constraints if d.KIND in DOTS]
    family = [k for k in DOTS if FAMILY[k] == FAMILY[kind]]
    dotted = {frozenset(d.cells) for d in dots if d.KIND in family}  # type: ignore[attr-defined]
    return dotted, set(NEGATED[kind]) | {d.value for d in dots if kind == d.KIND}  # type: ignore[attr-defined]


def _negative_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Every dot of the kind given: an undotted pair of neighbours keeps no such relation."""
    kind, v = rule.rule, values[cell]
    dotted, forbidden = _negated(lay, kind)
    return any(values[other] and frozenset((cell, other)) not in dotted
               and any(DOTS[kind](v, values[other], x) for x in forbidden)
               for other in _moves(lay.side, cell, "neighbour"))


def _palindrome_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """The line reads the same both ways."""
    line = rule.cells
    if cell in line:
        other = line[len(line) - 1 - line.index(cell)]
        return bool(values[other]) and values[other] != values[cell]
    return False


def _whispers_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Neighbours along the line differ by at least its value."""
    line = rule.cells
    if cell in line:
        i = line.index(cell)
        return any(0 <= j < len(line) and values[line[j]] and abs(values[line[j]] - values[cell]) < rule.value
                   for j in (i - 1, i + 1))
    return False


def _slow_thermometer_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Values never fall from the bulb along the line."""
    line = rule.cells
    if cell in line:
        i = line.index(cell)
        return any(values[other] and (j - i) * (values[other] - values[cell]) < 0 for j, other in enumerate(line))
    return False


def _thermometer_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Values rise along the line from the bulb: one d steps after another holds at least d more."""
    line = rule.cells
    if cell in line:
        i = line.index(cell)
        return any(values[other] and (j - i) * (values[other] - values[cell]) < (j - i) ** 2
                   for j, other in enumerate(line) if j != i)
    return False


def _clone_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Each cell of one group holds its counterpart's value in the other."""
    for a, b in zip(rule.cells, rule.clones, strict=True):
        other = b if cell == a else a if cell == b else None
        if other is not None and values[other] and values[other] != values[cell]:
            return True
    return False


@cache
def _cells_of(lay: Layout, kind: str) -> set[int]:
    """The cells of the layout's rules of a one-cell kind (its minimum cells, its maximum cells)."""
    return {c.cell for c in lay.constraints if kind == c.KIND}  # type: ignore[attr-defined]


def _extremum_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """A minimum (maximum) cell holds less (more) than each neighbour not of its kind."""
    centre, v = rule.cell, values[cell]
    if sum(_apart(cell, centre, lay.side)) > 1:  # neither the cell nor a neighbour of it
        return False
    own = _cells_of(lay, rule.KIND)
    for other in _moves(lay.side, cell, "neighbour"):
        if centre in (cell, other) and values[other] and not ({cell, other} - {centre}) <= own:
            low, high = (v, values[other]) if cell == centre else (values[other], v)
            if (low >= high) if rule.KIND == "minimum" else (low <= high):
                return True
    return False


def _trios_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Three cells in a row along a modular (entropic) line: three classes."""
    line, n = rule.cells, lay.side
    if cell in line:
        i = line.index(cell)
        for start in range(max(0, i - 2), min(i, len(line) - 3) + 1):
            kinds = [CLASS[rule.KIND](values[c], n) for c in line[start:start + 3] if values[c]]
            if len(set(kinds)) < len(kinds):
                return True
    return False


def _nabner_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Any two of its cells: neither the same value nor consecutive ones."""
    line = rule.cells
    return cell in line and any(values[c] and c != cell and abs(values[c] - values[cell]) < 2 for c in line)


def _line_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """A zipper, double arrow, between or lockout line: some filling of its blanks keeps it."""
    line = rule.cells
    return cell in line and not _kept(rule.KIND, tuple([values[c] for c in line]), lay.side, getattr(rule, "value", 0))


def _renban_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Different values, a run of consecutive ones (no more apart than it is long)."""
    line = rule.cells
    held = [values[c] for c in line if values[c]]
    return cell in line and (len(set(held)) < len(held) or max(held) - min(held) >= len(line))


def _arrow_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """The line's values sum to the number the circle's digits make, for some filling."""
    pill, line, n = rule.pill, rule.line, lay.side
    if cell in pill + line:
        blanks = sum(1 for c in line if not values[c])
        low, high = sum(values[c] for c in line) + blanks, sum(values[c] for c in line) + blanks * n
        digits = [[values[c]] if values[c] else range(1, n + 1) for c in pill]
        return not any(low <= int("".join(map(str, number))) <= high for number in product(*digits))
    return False


def _quadruple_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Its four cells hold every listed value, as often as listed."""
    held = [values[c] for c in rule.cells if values[c]]
    missing = sum(max(0, rule.values.count(v) - held.count(v)) for v in set(rule.values))
    return cell in rule.cells and missing > 4 - len(held)


def _little_killer_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """The diagonal's values sum to the clue: some 1..n in its blanks reach it."""
    line = rule.cells
    blanks = sum(1 for c in line if not values[c])
    placed = sum(values[c] for c in line)
    return cell in line and not placed + blanks <= rule.sum <= placed + lay.side * blanks


@cache
def _indexed(lay: Layout, kind: str, at: int) -> tuple[int, ...]:
    """The cells an indexer at `at` indexes, in order (INDEXED)."""
    return tuple(INDEXED[kind](lay, at))


def _indexer_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """The cell the indexer's value names holds the indexer's place."""
    at = rule.cell
    group = _indexed(lay, rule.KIND, at)
    if values[at]:
        named = group[values[at] - 1]
        return cell in (at, named) and bool(values[named]) and values[named] != group.index(at) + 1
    return False


@cache
def _runs(lay: Layout, line: tuple[int, ...]) -> tuple[list[int], ...]:
    """A line's runs of cells in one region (of the layout's), in order."""
    runs: list[list[int]] = []
    for c in line:
        if runs and lay.regions[runs[-1][-1]] == lay.regions[c]:
            runs[-1].append(c)
        else:
            runs.append([c])
    return tuple(runs)


def _region_sum_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """Its runs of cells in one region sum alike (while some are blank: some sum lies within each run's bounds)."""
    line, n = rule.cells, lay.side
    if cell in line:
        runs = _runs(lay, line)
        lows = [sum(values[c] or 1 for c in run) for run in runs]
        highs = [sum(values[c] or n for c in run) for run in runs]
        return len(runs) > 1 and max(lows) > min(highs)
    return False


def _seen_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """A clue outside the grid: what its row or column shows from it, for some filling."""
    return cell in rule.cells and _unseen(rule.KIND, tuple([values[c] for c in rule.cells]), lay.side, rule.value)


def _antiknight_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """No two cells a knight's move apart hold one value."""
    return any(values[other] and values[other] == values[cell] for other in _moves(lay.side, cell, "knight"))


def _antiking_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """No two cells a king's diagonal move apart hold one value."""
    return any(values[other] and values[other] == values[cell] for other in _moves(lay.side, cell, "diagonal"))


def _nonconsecutive_broken(lay: Layout, rule: Any, values: Sequence[int], cell: int) -> bool:
    """No two neighbours hold consecutive values."""
    return any(values[other] and abs(values[cell] - values[other]) == 1
               for other in _moves(lay.side, cell, "neighbour"))


def _sandwich_shows(line: Sequence[int], n: int, clue: int) -> bool:
    """The line holds one 1 and one n, and the values strictly between them sum to the clue."""
    ends = [i for i, w in enumerate(line) if w in (1, n)]
    return line.count(1) == line.count(n) == 1 and sum(line[ends[0] + 1:ends[1]]) == clue


def _xsum_shows(line: Sequence[int], n: int, clue: int) -> bool:
    """The first X values sum to the clue, X the first."""
    return sum(line[:line[0]]) == clue


def _skyscraper_shows(line: Sequence[int], n: int, clue: int) -> bool:
    """As many values as the clue are taller than every one before them."""
    return sum(1 for i, w in enumerate(line) if all(w > u for u in line[:i])) == clue


@cache
def _unseen(kind: str, line: tuple[int, ...], n: int, clue: int) -> bool:
    """Whether no filling of the line's blanks (any values 1 to n) shows the clue."""
    blanks = [i for i, w in enumerate(line) if not w]
    filled = list(line)
    for held in product(range(1, n + 1), repeat=len(blanks)):
        for i, w in zip(blanks, held, strict=True):
            filled[i] = w
        if SEEN[kind](filled, n, clue):
            return False
    return True


SEEN = {"sandwich": _sandwich_shows, "xsum": _xsum_shows, "skyscraper": _skyscraper_shows}


# the dots' relations between two neighbours' values, by their definitions: a white dot's difference, a black dot's
# ratio, an X's or a V's sum; the values a negative rule of the kind forbids beyond its dots'; the dots a negative
# rule exempts together
DOTS = {"difference": lambda v, w, x: abs(v - w) == x, "ratio": lambda v, w, x: v == x * w or w == x * v,
        "xv": lambda v, w, x: v + w == x}
NEGATED = {"difference": (1,), "ratio": (2,), "xv": (5, 10)}
FAMILY = {"difference": "kropki", "ratio": "kropki", "xv": "xv"}
# what an indexer indexes, its cells in order: a column indexer its row, a row indexer its column, a box indexer its
# region (in reading order)
INDEXED = {"columnindexer": lambda lay, at: [at // lay.side * lay.side + k for k in range(lay.side)],
           "rowindexer": lambda lay, at: [k * lay.side + at % lay.side for k in range(lay.side)],
           "boxindexer": lambda lay, at: [c for c in range(lay.side ** 2) if lay.regions[c] == lay.regions[at]]}
# a value's class along a modular line (its remainder by 3) and an entropic one (low, middle, high: a 4x4's 1, 2-3, 4)
CLASS = {"modularline": lambda v, n: v % 3,
         "entropicline": lambda v, n: (v - 1) * 3 // n if n % 3 == 0 else (0 if v == 1 else 2 if v == n else 1)}



def _zipper_kept(held: Sequence[int], n: int, _: int) -> bool:
    """Some total that each pair around the middle can sum to (a blank any value 1..n), the middle cell's value on
    an odd line."""
    k = len(held)
    pairs = [(held[i], held[k - 1 - i]) for i in range(k // 2)]
    middle = held[k // 2] if k % 2 else None
    return any(all(v + w == t if v and w else 1 <= t - (v or w) <= n if v or w else 2 <= t <= 2 * n for v, w in pairs)
               for t in (range(1, n + 1) if middle == 0 else [middle] if middle else range(2, 2 * n + 1)))


def _double_arrow_kept(held: Sequence[int], n: int, _: int) -> bool:
    """The ends' sum can equal the sum between them: each blank any value 1..n, each side's sum a range."""
    ends, between = [held[0], held[-1]], held[1:-1]
    def reach(vs: Sequence[int]) -> range:
        fixed, blanks = sum(vs), vs.count(0)
        return range(fixed + blanks, fixed + n * blanks + 1)
    return bool(set(reach(ends)) & set(reach(list(between))))


def _ends_kept(inside: bool) -> Callable[[Sequence[int], int, int], bool]:
    """A between line (`inside`: each cell between the ends strictly between their values) or a lockout line (the
    ends `value` or more apart, each cell between them outside their range, ends included): some pair of end values
    (a blank end any value) that the cells between keep (a blank one with some value left for it)."""
    def kept(held: Sequence[int], n: int, value: int) -> bool:
        ends = [[v] if v else range(1, n + 1) for v in (held[0], held[-1])]
        for v, w in product(*ends):
            low, high = min(v, w), max(v, w)
            if not inside and high - low < value:
                continue
            fits = [u for u in range(1, n + 1) if (low < u < high) == inside and not (not inside and u in (low, high))]
            if (inside and high - low < 2) or not all(u in fits if u else fits for u in held[1:-1]):
                continue
            return True
        return False
    return kept


LINE_KEPT = {"zipperline": _zipper_kept, "doublearrow": _double_arrow_kept, "betweenline": _ends_kept(True),
             "lockout": _ends_kept(False)}


@cache
def _kept(kind: str, held: tuple[int, ...], n: int, value: int) -> bool:
    """Whether some filling of the line's blanks keeps the line (LINE_KEPT): once a line's values, as for _unseen."""
    return LINE_KEPT[kind](held, n, value)


# each kind's check, by its rule's definition above (a kind not here, a cage's or a house's, never breaks)
BROKEN: dict[str, Broken] = {
    "pencilmarks": _pencilmarks_broken, "odd": _parity_broken, "even": _parity_broken, "difference": _dot_broken,
    "ratio": _dot_broken, "xv": _dot_broken, "negative": _negative_broken, "palindrome": _palindrome_broken,
    "whispers": _whispers_broken, "slowthermometer": _slow_thermometer_broken, "thermometer": _thermometer_broken,
    "clone": _clone_broken, "minimum": _extremum_broken, "maximum": _extremum_broken, "modularline": _trios_broken,
    "entropicline": _trios_broken, "nabner": _nabner_broken, "zipperline": _line_broken, "doublearrow": _line_broken,
    "betweenline": _line_broken, "lockout": _line_broken, "renban": _renban_broken, "arrow": _arrow_broken,
    "quadruple": _quadruple_broken, "littlekiller": _little_killer_broken, "columnindexer": _indexer_broken,
    "rowindexer": _indexer_broken, "boxindexer": _indexer_broken, "regionsumline": _region_sum_broken,
    "sandwich": _seen_broken, "xsum": _seen_broken, "skyscraper": _seen_broken, "antiknight": _antiknight_broken,
    "antiking": _antiking_broken, "nonconsecutive": _nonconsecutive_broken}

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


@cache
def _peers(lay: Layout) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers in its houses (variant_grids' `peers`): once a layout, as many searches share one."""
    return tuple(tuple(sorted(cells)) for cells in peers(lay))


def search(grid: Grid, limit: int, rng: random.Random | None = None) -> Iterator[list[int]]:
    """The enumeration itself (`solutions`)."""
    lay, n = grid.layout, grid.side
    near = _peers(lay)
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


# EMPTY's unique puzzles (seed 1) as `made_unique` makes them, read rather than made again in each of the suite's
# processes; tests/test_constraint_grids.py holds each line to what `made_unique` makes. After a change to EMPTY or to
# the brute force: `python tests/constraint_grids.py` writes the file again.
STORED = Path(__file__).with_name("constraint_puzzles.txt")


@cache
def stored() -> dict[tuple[str, int], tuple[Grid, Grid]]:
    """STORED's puzzles and solutions by (empty grid, seed): lines of the four, tab-separated."""
    kept = {}
    for line in STORED.read_text().splitlines():
        if line and not line.startswith("#"):
            text, seed, puzzle, solution = line.split("\t")
            kept[text, int(seed)] = Grid.parse(puzzle), Grid.parse(solution)
    return kept


@cache
def unique_puzzle(text: str, seed: int) -> tuple[Grid, Grid]:
    """`made_unique`'s puzzle and solution, read from STORED where it holds them."""
    return stored().get((text, seed)) or made_unique(text, seed)


def made_unique(text: str, seed: int) -> tuple[Grid, Grid]:
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
    "nabner-4": "." * 16 + ";nb=R1C1,R2C2;nb=R3C4,R4C3",
    "nabner-6": "." * 36 + ";nb=R1C1,R2C2,R3C2;nb=R6C6,R5C5",
    "zipperline-4": "." * 16 + ";zip=R1C1,R1C2,R2C2;zip=R4C1,R3C2,R3C3,R4C4",
    "zipperline-6": "." * 36 + ";zip=R1C1,R2C2,R3C3,R4C4,R5C5;zip=R6C1,R5C2,R4C2,R4C1",
    "doublearrow-4": "." * 16 + ";da=R1C1,R2C2,R3C3;da=R4C1,R3C1,R2C1",
    "doublearrow-6": "." * 36 + ";da=R1C1,R1C2,R1C3,R2C4;da=R6C6,R5C5,R4C4",
    "betweenline-4": "." * 16 + ";btw=R1C1,R2C2,R3C3;btw=R4C4,R4C3,R4C2",
    "betweenline-6": "." * 36 + ";btw=R1C1,R2C2,R3C3,R4C4;btw=R6C1,R6C2,R5C3",
    "lockout-4": "." * 16 + ";lo=R1C1,R2C2,R3C3;lo=R4C1,R3C2,R4C3",
    "lockout-6": "." * 36 + ";lo=R1C1,R2C2,R3C3,R4C4;lo=R6C1,R6C2,R5C3:4",
    "rowindexer+columnindexer+boxindexer-4": "." * 16 + ";ri=R2C1;ci=R1C3;bi=R4C4",
    "rowindexer+columnindexer+boxindexer-6": "." * 36 + ";ri=R1C2,R6C5;ci=R3C1,R3C6;bi=R2C2,R5C4",
    "jigsaw+boxindexer-4": "." * 16 + ";r=1112122233343444;bi=R1C1,R2C3",
    "regionsumline-4": "." * 16 + ";rsl=R1C1,R1C2,R1C3;rsl=R4C4,R3C3,R2C2",
    "regionsumline-6": "." * 36 + ";rsl=R1C2,R1C3,R1C4,R2C5;rsl=R3C3,R4C3,R4C4",
    "jigsaw+regionsumline-4": "." * 16 + ";r=1112122233343444;rsl=R1C4,R2C4,R1C3,R1C2",
    "arrow-6": "." * 36 + ";ar=R1C1:R1C2,R1C3;ar=R6C6:R5C5,R4C4,R3C4;ar=R3C1,R4C1:R5C1,R6C1,R6C2,R6C3",
    "sandwich-4": "." * 16 + ";sw=R5C1:2;sw=R2C0:3",
    "sandwich-6": "." * 36 + ";sw=R1C0:10;sw=R0C2:7;sw=R4C7:0",
    "xsum-4": "." * 16 + ";xs=R5C1:9;xs=R2C0:6",
    "xsum-6": "." * 36 + ";xs=R1C0:7;xs=R7C2:8;xs=R4C7:5",
    "skyscraper-4": "." * 16 + ";sky=R5C1:2;sky=R0C4:1",
    "skyscraper-6": "." * 36 + ";sky=R1C0:4;sky=R0C1:3;sky=R6C7:2",
}


@cache
def puzzles() -> tuple[tuple[str, Grid, Grid], ...]:
    """(name, a unique puzzle, its solution) for every grid of EMPTY (seed 1), as `unique_puzzle` gives them (read
    from STORED), once a process, for the modules that each ask for them."""
    return tuple((name, *unique_puzzle(text, 1)) for name, text in EMPTY.items())


def several(name: str) -> Grid:
    """The unique puzzle of `name` with its givens but the first three taken away: several solutions."""
    grid, _ = unique_puzzle(EMPTY[name], 1)
    values = list(grid.values)
    for cell in [c for c, v in enumerate(values) if v][:3]:
        values[cell] = 0
    return grid.with_values(values)


def write_stored() -> None:
    """STORED made again: EMPTY's unique puzzles (seed 1) as `made_unique` makes them."""
    lines = ["# tests/constraint_grids.py's EMPTY grids, each with its unique puzzle (seed 1) and its solution, as its",
             "# made_unique makes them; written by `python tests/constraint_grids.py`, held to it by",
             "# tests/test_constraint_grids.py"]
    for text in EMPTY.values():
        puzzle, solution = made_unique(text, 1)
        lines.append("\t".join((text, "1", puzzle.text(), solution.text())))
    STORED.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_stored()
