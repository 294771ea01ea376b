"""The Killer kind's maker (`Cage.MAKES`): cage layouts over a full grid, drawn at random, made unique, made
cage-minimal; making/kinds.py's Killer kinds of puzzle are made with it.

Pure algorithms, as making/minimal.py is: whether cages (and givens) leave a full grid S its only solution is the
caller's `Other` (making/certify.py's `CageCertifier`, SAT in practice), which returns a second solution or
None. This module only decides which cages to draw, split, merge or strip of their totals.

Drawing (`random_cages`): the cells in random order; each cell not caged yet starts a cage whose size is drawn
from SIZES (1 to 5 cells, 2 to 4 most often) and grows one random neighbour at a time (a cell that shares an
edge with the cage, is caged by no other and holds a value of S the cage does not hold yet) until it has its
size or no neighbour fits. A cage that could not grow past one cell joins a neighbouring cage that can take it
(no repeat, at most MAX_CAGE + 1 cells) when there is one. Each cage's total is S's sum over its cells. So
the cages partition the grid, each is connected, repeats no value of S and sums right: S is a solution.

Made unique (`made_unique`): while a second solution T exists, a cell where T differs from S is drawn. With
givens allowed, S's value there becomes a given. Otherwise the cage holding the cell is split: into two
connected parts, the cell's part summing differently under S and under T (T then breaks a total), the most
even such split drawn at random; when no two-part split does, the cell becomes a cage of its own and the rest
of the cage its connected pieces. T breaks the new totals either way, and each split adds a cage, so the loop
ends (at worst with every cell a cage of its own, which is S itself). When the oracle cannot tell within its
budget (`Undecided`: a 16x16 Killer of 5-cell cages and no givens can take SAT minutes), one of the largest
cages is split evenly (`tighter`) and the oracle asked again: smaller cages, more for propagation to go on.

Cage-minimal (`cage_minimal`): passes over the cages and givens, in random order, until a pass changes nothing.
A cage is first merged into a neighbouring cage (one sharing an edge with it, their union repeating no value of
S and holding at most `merged_largest` cells; the merged total is the sum of the two, or none when either has
none) if the puzzle stays unique with the two replaced by their union; else its total is dropped (the cage
stays, holding only its no-repeat rule) if the puzzle stays unique. A given is taken away if the puzzle stays
unique. A pass that changes nothing has tried every such merge, every total and every given, so what is
returned is unique and: merging any cage with any neighbour it can be merged with, dropping any cage's total,
or taking away any given leaves a second solution. Unlike taking clues away (making/minimal.py), a merge is
no weakening (the union's no-repeat rule is new), so one pass does not settle it: passes go on to the fixpoint.
Cages are never deleted outright: every cell stays in a cage, as in a printed Killer.

Whether a change keeps the puzzle unique is the caller's `Unique`, which may not know (making/certify.py gives
each check a conflict budget: a near-minimal 9x9 Killer with no givens can take SAT seconds to find its second
solution); a change it cannot prove harmless is not made, so what is returned is unique, and every merge, total
and given it keeps was either proved needed or left undecided (the certifier counts those: none in most 9x9
puzzles, see the guide's figures).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from ..grid import Grid, Layout
from ..layouts import layout, reachable
from . import unmade
from .base import adjacent, connected
from .killer import Cage, cages_in

SIZES = {1: 1, 2: 4, 3: 4, 4: 3, 5: 2}  # a drawn cage's size: weight
MAX_CAGE = max(SIZES)
MERGED_LARGEST = 9  # cage-minimal merges stop at this many cells (at most the side)

# A second solution of the puzzle of these cages and S's values at these cells (givens), or None when S is its
# only one.
Other = Callable[[Sequence[Cage], Sequence[int]], Grid | None]
# Whether these cages and S's values at these cells leave S the only solution (False when it cannot tell).
Unique = Callable[[Sequence[Cage], Sequence[int]], bool]


def random_cages(solution: Grid, rng: random.Random) -> list[Cage]:
    """Cages drawn at random over a full grid (the module's docstring says how), in row-major order of their
    first cell."""
    n, values = solution.side, solution.values
    around = adjacent(n)
    cage_of = [-1] * (n * n)
    members: list[list[int]] = []
    order = list(range(n * n))
    rng.shuffle(order)
    sizes, weights = list(SIZES), list(SIZES.values())
    for start in order:
        if cage_of[start] >= 0:
            continue
        size = rng.choices(sizes, weights)[0]
        cells, held = [start], {values[start]}
        cage_of[start] = len(members)
        while len(cells) < size:
            fits = sorted({m for c in cells for m in around[c] if cage_of[m] < 0 and values[m] not in held})
            if not fits:
                break
            cell = rng.choice(fits)
            cells.append(cell)
            held.add(values[cell])
            cage_of[cell] = len(members)
        members.append(cells)
    for k, cells in enumerate(members):
        if len(cells) == 1 and SIZES[1] < rng.choices(weights, weights)[0]:  # mostly joined, now and then kept
            _join(k, members, cage_of, values, around)
    return ordered(Cage(tuple(sorted(cells)), sum(values[c] for c in cells)) for cells in members if cells)


def _join(k: int, members: list[list[int]], cage_of: list[int], values: bytes,
          around: tuple[tuple[int, ...], ...]) -> None:
    """A cage of one cell joined to the smallest neighbouring cage that can take it (in place)."""
    [cell] = members[k]
    hosts = sorted({cage_of[m] for m in around[cell]} - {k},
                   key=lambda h: (len(members[h]), h))
    for host in hosts:
        if len(members[host]) <= MAX_CAGE and values[cell] not in {values[c] for c in members[host]}:
            members[host].append(cell)
            cage_of[cell] = host
            members[k] = []
            return


def ordered(cages: Iterable[Cage]) -> list[Cage]:
    """Cages in row-major order of their first cell (their cells ascending): the order a puzzle lists them."""
    return sorted(cages, key=lambda cage: cage.cells)


def total_of(cells: Sequence[int], grid: Grid) -> int:
    return sum(grid.values[c] for c in cells)


def made_unique(solution: Grid, cages: Sequence[Cage], other: Other, rng: random.Random,
                givens: bool = False) -> tuple[list[Cage], list[int]]:
    """The cages (and, with `givens`, givens) made to leave `solution` its only solution (the module's docstring
    says how): (cages, the cells given)."""
    cages, given = list(cages), list[int]()
    while True:
        try:
            second = other(cages, given)
        except Undecided:  # too loose for SAT to settle soon: one of the largest cages split evenly, and again
            cages = tighter(cages, solution, rng)
            continue
        if second is None:
            break
        differ = [c for c, (a, b) in enumerate(zip(solution.values, second.values, strict=True)) if a != b]
        cell = rng.choice(differ)
        if givens:
            given.append(cell)
            continue
        [cage] = [cage for cage in cages if cell in cage.cells]
        cages.remove(cage)
        cages = ordered([*cages, *split(cage, cell, solution, second, rng)])
    return cages, sorted(given)


class Undecided(Exception):
    """The oracle could not tell within its budget whether the cages leave the solution unique."""


def tighter(cages: Sequence[Cage], solution: Grid, rng: random.Random) -> list[Cage]:
    """The cages with one of the largest split into two connected parts as even as can be (totals from `solution`):
    more to go on for a solver that could not settle the puzzle."""
    around = adjacent(solution.side)
    largest = max(len(cage.cells) for cage in cages)
    if largest < 2:
        raise ValueError("cages of one cell each are the solution itself: nothing left to split")
    cage = rng.choice([c for c in cages if len(c.cells) == largest])
    cells = cage.cells
    halves = []
    for mask in range(1, (1 << len(cells)) - 1):
        part = [c for i, c in enumerate(cells) if mask >> i & 1]
        rest = [c for c in cells if c not in part]
        if connected(set(part), around) and connected(set(rest), around):
            halves.append((abs(len(part) - len(rest)), part, rest))
    even = min(h[0] for h in halves)
    _, part, rest = rng.choice([h for h in halves if h[0] == even])
    return ordered([*(c for c in cages if c != cage), *(Cage(tuple(p), total_of(p, solution)) for p in (part, rest))])


def split(cage: Cage, cell: int, solution: Grid, second: Grid, rng: random.Random) -> list[Cage]:
    """The cage cut into connected pieces with totals from `solution`, which `second` (a solution of the cage,
    differing from `solution` at `cell`) breaks: two parts when some even split does it, else the cell alone and
    the rest's pieces."""
    if cage.total is None or len(cage.cells) < 2:
        raise ValueError(f"a cage without a total or of one cell cannot be split to exclude a solution: {cage}")
    around = adjacent(solution.side)
    cells = cage.cells
    splits: list[tuple[int, list[int], list[int]]] = []
    for mask in range(1, (1 << len(cells)) - 1):
        part = [c for i, c in enumerate(cells) if mask >> i & 1]
        rest = [c for c in cells if c not in part]
        if cell in part and connected(set(part), around) and connected(set(rest), around) \
                and total_of(part, solution) != total_of(part, second):
            splits.append((abs(len(part) - len(rest)), part, rest))
    if splits:
        even = min(s[0] for s in splits)
        _, part, rest = rng.choice([s for s in splits if s[0] == even])
        pieces = [part, rest]
    else:
        pieces = [[cell], *components([c for c in cells if c != cell], around)]
    return [Cage(tuple(sorted(p)), total_of(p, solution)) for p in pieces]


def components(cells: Sequence[int], around: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """The connected pieces of some cells (neighbours sharing an edge), each sorted."""
    left, pieces = set(cells), []
    while left:
        todo = [min(left)]
        piece = set(todo)
        left -= piece
        while todo:
            for m in around[todo.pop()]:
                if m in left:
                    left.discard(m)
                    piece.add(m)
                    todo.append(m)
        pieces.append(sorted(piece))
    return pieces


def merged(a: Cage, b: Cage) -> Cage:
    """The union of two cages; its total the sum of theirs, or none when either has none."""
    total = None if a.total is None or b.total is None else a.total + b.total
    return Cage(tuple(sorted(a.cells + b.cells)), total)


def mergeable(cages: Sequence[Cage], cage: Cage, solution: Grid, largest: int) -> list[Cage]:
    """The cages that share an edge with `cage` and can be merged with it: no value of `solution` twice in the
    union, at most `largest` cells."""
    around = adjacent(solution.side)
    touching = {m for c in cage.cells for m in around[c]} - set(cage.cells)
    held = {solution.values[c] for c in cage.cells}
    return [other for other in cages if other != cage and touching & set(other.cells)
            and len(cage.cells) + len(other.cells) <= largest
            and not held & {solution.values[c] for c in other.cells}]


def cage_minimal(solution: Grid, cages: Sequence[Cage], givens: Sequence[int], unique: Unique, rng: random.Random,
                 merged_largest: int = MERGED_LARGEST) -> tuple[list[Cage], list[int]]:
    """A unique puzzle's cages and givens made cage-minimal (the module's docstring says exactly what that is):
    (cages, the cells given)."""
    cages, given = ordered(cages), sorted(givens)
    largest = min(merged_largest, solution.side)
    changed = True
    while changed:
        changed = False
        order: list[Cage | int] = [*cages, *given]
        rng.shuffle(order)
        for item in order:
            if isinstance(item, int):
                fewer = [g for g in given if g != item]
                if unique(cages, fewer):
                    given, changed = fewer, True
                continue
            if item not in cages:
                continue  # merged into another this pass
            found = _removed(item, cages, given, solution, unique, rng, largest)
            if found is not None:
                cages, changed = found, True
    return cages, given


def _removed(cage: Cage, cages: list[Cage], given: list[int], solution: Grid, unique: Unique, rng: random.Random,
             largest: int) -> list[Cage] | None:
    """The cages with `cage` merged into a neighbour, else with its total dropped, while the puzzle stays unique;
    None when neither keeps it unique."""
    rest = [c for c in cages if c != cage]
    neighbours = mergeable(cages, cage, solution, largest)
    rng.shuffle(neighbours)
    for neighbour in neighbours:
        fewer = ordered([*(c for c in rest if c != neighbour), merged(cage, neighbour)])
        if unique(fewer, given):
            return fewer
    if cage.total is not None:
        weaker = ordered([*rest, Cage(cage.cells, None)])
        if unique(weaker, given):
            return weaker
    return None


def killer_layout(houses: Layout, cages: Sequence[Cage]) -> Layout:
    """The Killer layout of some houses (a Layout; its cages replaced, its constraints kept) and cages, in the
    puzzle's order."""
    return layout(houses.side, houses.regions, houses.extras, [*ordered(cages), *unmade(houses.constraints)])


def without_cages(lay: Layout) -> Layout:
    """The layout without its cages, its houses and constraints kept."""
    return killer_layout(lay, ()) if cages_of(lay) else lay


def killer_puzzle(solution: Grid, cages: Sequence[Cage], givens: Sequence[int] = ()) -> Grid:
    """The puzzle of these cages over `solution`'s houses, its givens `solution`'s values at `givens`."""
    values = bytearray(len(solution.values))
    for c in givens:
        values[c] = solution.values[c]
    return Grid(killer_layout(solution.layout, cages), bytes(values))


def cages_of(lay: Layout) -> list[Cage]:
    """A layout's cages, in its order."""
    return list(cages_in(lay.constraints))


def without_total(cage: Cage) -> Cage:
    """The cage with its total dropped, its no-repeat rule kept."""
    return Cage(cage.cells, None)


def totals_near(cage: Cage, side: int) -> list[int]:
    """The totals 1 to 3 away from the cage's that its cells can still sum to (none for a cage without one)."""
    low, high = reachable(side, len(cage.cells))
    return [t for d in (1, 2, 3) for t in (cage.total - d, cage.total + d) if low <= t <= high] \
        if cage.total is not None else []


def with_total(cage: Cage, total: int) -> Cage:
    """The cage over the same cells with another total."""
    return Cage(cage.cells, total)
