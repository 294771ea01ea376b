"""Mask arithmetic the compiled modules and the constraints share: how many values a candidate mask holds
(`popcount`: the one way every compiled module counts a mask's bits), and AllDifferent's filter (`alldiff_filter`,
Régin's method on native vectors, `alldiff_lost`: the houses' rung in search/rules.py, and a large cage's
combination in cdcl's looks) with a Killer cage's over its combinations (`supports`, the
arithmetic of puzzles/constraints/killer.py's filter: a cage of up to five cells has its matchings enumerated,
`matched`, the same values kept in less time), and a cheaper, weaker one (`combination_supports`: the values of
the combinations that fit the cells as a whole, without a matching; cdcl's `cage=combinations`).

`popcount` looks the mask up in a table of 13-bit counts, twice (masks have at most 25 bits: a 25x25
puzzle's values). Compiled by mypyc, int.bit_count() has no primitive: it is a method call through the
boxed int, where the table is two looks in a C array and `popcount` a native call from the other compiled
modules. Measured on a shared 2-core machine (load average 4 to 5), compiled:

- benchmarks/popcount.py (1,000 random masks of 9, 16 and 25 bits, medians of 15 to 21 timings, three
  runs): int.bit_count() 68 to 140 ns a mask, `popcount` 10 to 20 ns, the two looks written out 7 to
  13 ns, the loop alone 4 to 8 ns; about the same at every width.
- Solves, puzzle by puzzle against the build that called bit_count (alternating which went first; the
  counters equal): top95 with `mrv` 14.8 s -> 8.5 s in all (1.75x; median 1.64x a puzzle),
  `mrv:propagate=singles` 0.135 -> 0.095 s (1.42x), `mrv:propagate=locked` 1.03x, `astar` (its first
  30) 59.9 -> 52.3 s (1.14x; median 1.29x a puzzle); `cdcl` the same (it counted with this table before).
  `python compare.py top95 --solver mrv --solver cdcl --jobs 1`: 14.6 s -> 8.4 s wall (medians of three
  runs each, alternating).

Interpreted (SUDOKU_SEARCH_COMPILED=0: the trace, a profiler) the table is the slower way, a Python call
where bit_count is one C method: 240 to 420 ns a mask against 70 to 150 ns, and `mrv` on top95's first 30
puzzles 23.5 s -> 29.8 s. The compiled build is the one runs use, so the table is the one way.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from librt.vecs import append, pop, vec
from mypy_extensions import i64

BITS_IN: Final = bytes(bin(m).count("1") for m in range(1 << 13))  # how many bits each 13-bit mask holds


DE_BRUIJN: Final = 0x077CB531  # a de Bruijn sequence: the top 5 bits of its 32-bit multiples by 2 ** k differ


def one_bits() -> vec[i64]:
    """Per top 5 bits of the 32-bit product of 2 ** k and DE_BRUIJN, that k (k < 32)."""
    bits = [0] * 32
    for k in range(32):
        bits[(DE_BRUIJN << k) >> 27 & 31] = k
    return vec[i64]([k for k in bits])


ONE_BITS: Final = one_bits()


def bit_index(m: i64) -> i64:
    """The index of one-bit mask m (bit v - 1 for value v; at most 32 bits), read from its product with a de
    Bruijn sequence: compiled, a multiplication, a shift and a vector's item, where `int(m).bit_length() - 1` is
    two calls (4% of cdcl's instructions on forum-hardest-1106, callgrind), a remainder a division and
    `popcount(m - 1)` two table reads of a boxed-size int."""
    return ONE_BITS[(m * DE_BRUIJN) >> 27 & 31]


def popcount(mask: int) -> int:
    """How many bits a mask of at most 26 bits holds."""
    return BITS_IN[mask & 0x1FFF] + BITS_IN[mask >> 13]


def alldiff_filter(masks: Sequence[int], needed: int | None = None) -> list[int] | None:
    """A candidate leaves a cell when no way of giving each of the unit's empty cells a
    different needed value gives it that candidate (values outside `needed` all leave).

    A contradiction when there is no such way at all: in Sudoku a unit has exactly
    as many empty cells as values still to place, so each cell must get one and
    each value must be placed.

    Régin's method: find one perfect matching of cells to values; an other
    candidate w of a cell x can replace x's value v only if w's cell can move on in
    turn, along a chain of such moves that comes back to x's cell to take v. With
    the matched values as nodes and an edge v -> w whenever the cell holding v has
    candidate w, that is: v and w lie on a cycle, in one strongly connected
    component. The matching is perfect on both sides, so no value is free and
    the alternating paths from free values of the general algorithm do not occur.
    (`alldiff_lost` does it on native vectors, as a Killer cage's look calls it.)
    """
    if not masks:  # no cell: nothing lost, unless values are needed
        return None if needed else []
    lost = alldiff_lost(vec[i64]([mask for mask in masks]), union(masks) if needed is None else needed)
    return [mask for mask in lost] if len(lost) > 0 else None


def alldiff_lost(masks: vec[i64], needed: i64) -> vec[i64]:
    """`alldiff_filter` on native vectors of machine words (the walk boxes no int): per cell, the candidates it
    loses; empty when there is no way at all."""
    count: i64 = len(masks)
    if popcount(needed) != count or count == 0:  # (no cell: nothing to lose, said by `alldiff_filter`)
        return vec[i64]()
    domains = vec[i64]([mask & needed for mask in masks])
    value_of = _perfect_matching(domains)
    if len(value_of) == 0:
        return vec[i64]()
    successors = zeros(VALUES)
    for i in range(count):
        successors[bit_index(value_of[i])] = domains[i] ^ value_of[i]
    component = _strong_components(successors, needed)
    return vec[i64]([masks[i] & ~component[bit_index(value_of[i])] for i in range(count)])


VALUES: Final = 32  # values a mask may hold: its bit indices (at most 25: a 25x25 puzzle's)


def _perfect_matching(domains: vec[i64]) -> vec[i64]:
    """A different value for each cell, taken from its domain, as one bit a cell; empty if
    there is none. Each cell takes a value no cell holds yet if it can, else an augmenting
    path makes room (Kuhn's method)."""
    owner = vec[i64]([-1] * VALUES)  # value index -> the cell holding it
    value_of = zeros(len(domains))
    taken: i64 = 0
    for cell in range(len(domains)):
        free = domains[cell] & ~taken
        if free:
            bit = free & -free
            value_of[cell] = bit
            owner[bit_index(bit)] = cell
        else:
            bit = _augment(cell, domains, owner, value_of)
            if not bit:
                return vec[i64]()
        taken |= bit
    return value_of


def _augment(start: i64, domains: vec[i64], owner: vec[i64], value_of: vec[i64]) -> i64:
    """Give cell `start` a value by moving cells along an alternating path (breadth
    first) that ends at a value no cell holds; that value, or 0 if there is no path."""
    came = zeros(VALUES)  # value index -> the cell that reached it
    queue = vec[i64]([start])
    seen: i64 = 0
    head: i64 = 0
    while head < len(queue):  # the queue grows while it is read
        cell = queue[head]
        head += 1
        fresh = domains[cell] & ~seen
        seen |= fresh
        while fresh:
            bit = fresh & -fresh
            fresh ^= bit
            index = bit_index(bit)
            came[index] = cell
            holder = owner[index]
            if holder < 0:
                _shift(start, index, came, owner, value_of)
                return bit
            queue = append(queue, holder)
    return 0


def _shift(start: i64, index: i64, came: vec[i64], owner: vec[i64], value_of: vec[i64]) -> None:
    """Each cell on the path back from value `index` to `start` takes the value it reached."""
    while True:
        cell = came[index]
        previous = value_of[cell]
        value_of[cell] = i64(1) << index
        owner[index] = cell
        if cell == start:
            return
        index = bit_index(previous)


def _strong_components(successors: vec[i64], nodes: i64) -> vec[i64]:
    """For each node (a bit of `nodes`), the bitmask of its strongly connected component;
    `successors[v]` is the bitmask of v's successors. Tarjan's algorithm with explicit
    stacks, so that its depth is not Python's recursion depth; its tables native vectors of
    machine words (compiled, the walk boxes no int)."""
    size: i64 = len(successors)
    index = zeros(size)  # order of discovery, from 1
    low = zeros(size)
    component = zeros(size)
    unvisited: i64 = nodes
    on_stack: i64 = 0
    stack = vec[i64]()  # Tarjan's stack: visited nodes not yet in a component
    count: i64 = 0
    while unvisited:
        root: i64 = bit_index(unvisited & -unvisited)
        path = vec[i64]([root])  # the depth-first path ...
        todo = vec[i64]([successors[root]])  # ... and each of its nodes' successors left
        count += 1
        index[root] = count
        low[root] = count
        unvisited ^= 1 << root
        stack = append(stack, root)
        on_stack |= 1 << root
        while len(path) > 0:
            top: i64 = len(path) - 1
            v = path[top]
            back = todo[top] & on_stack  # successors on the stack: they only lower v's low
            while back:
                bit = back & -back
                back ^= bit
                u: i64 = bit_index(bit)  # its node: the index of a one-bit mask
                if index[u] < low[v]:
                    low[v] = index[u]
            fresh = todo[top] & unvisited  # a node already in a component is done with
            if fresh:
                bit = fresh & -fresh
                todo[top] = fresh ^ bit
                w: i64 = bit_index(bit)
                count += 1
                index[w] = count
                low[w] = count
                unvisited ^= bit
                stack = append(stack, w)
                on_stack |= bit
                path = append(path, w)
                todo = append(todo, successors[w])
                continue
            path, _v = pop(path)
            todo, _successors = pop(todo)
            if low[v] == index[v]:  # v is the root of a component: the stack down to v
                members: i64 = 0
                while True:
                    stack, w = pop(stack)
                    members |= 1 << w
                    if w == v:
                        break
                on_stack &= ~members
                rest = members
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    component[bit_index(bit)] = members
            if len(path) > 0 and low[v] < low[path[len(path) - 1]]:
                low[path[len(path) - 1]] = low[v]
    return component


def supports(domains: Sequence[int], combinations: Sequence[int] | None) -> list[int]:
    """Per cell of a Killer cage (its candidates in `domains`), the values some filling of the cage gives it:
    different values, one from each cell's candidates, making one of `combinations` (the value sets the cage may
    hold; None: any different values); all 0 when there is no filling. (puzzles/constraints/killer.py's filter;
    here, compiled, as its arithmetic is the cage rungs' hot loop.)

    Each combination is an all-different with exactly as many values as cells: `alldiff_filter` with the
    combination as the values needed says which candidates some perfect matching uses; a candidate stays if one
    combination's matchings use it. Without combinations, one cell is added per value more than the cells (each may
    take any value), which makes it such an all-different over every value the cells can take."""
    available = union(domains)
    count = len(domains)
    if combinations is None:
        spare = popcount(available) - count
        lost = alldiff_filter([*domains, *[available] * spare], available) if spare >= 0 else None
        return [0] * count if lost is None else [d & ~gone for d, gone in zip(domains, lost[:count], strict=True)]
    kept = cage_supports(vec[i64]([mask for mask in domains]), vec[i64]([c for c in combinations]), vec[i64]())
    return [mask for mask in kept]


def cage_supports(domains: vec[i64], combinations: vec[i64], residues: vec[i64], must: i64 = 0) -> vec[i64]:
    """`supports` of a cage with combinations, on native vectors of machine words (cdcl's looks call it so): the
    walk over the combinations boxes no int (a list's item of 16 bits or more is an object made anew at each
    change).

    `residues`, a cage's table of the fillings found by its earlier calls (`residue_table`; empty: none kept), kept
    between calls: a value whose filling is still whole (each of its values still its cell's candidate) is kept
    without a search (residual supports, as arc consistency keeps them), and every value of that filling with it;
    only the values left are searched for. The same values are kept as without.

    `must`: values the cage is known to hold (a mask): only the combinations that hold them all are read (and no
    residue, which may lack them)."""
    count: i64 = len(domains)
    available: i64 = 0
    for i in range(count):
        available |= domains[i]
    kept = zeros(count)
    table = residues if count <= ENUMERATED and not must else vec[i64]()
    walk = fewest_first(domains) if count <= ENUMERATED else vec[i64]()  # `matched`'s, made once for all combinations
    if len(table) > 0:
        still_whole(domains, table, kept)
        if every_kept(domains, kept):
            return kept
    for c in combinations:
        if c & ~available or must & ~c or not adds(domains, c, kept):
            continue  # a value of it no cell can take, one it lacks, a cell that can take none of it, or nothing new
        if count <= ENUMERATED:
            matched(domains, c, kept, table, walk)
        else:
            lost = alldiff_lost(domains, c)
            if len(lost) > 0:
                for i in range(count):
                    kept[i] |= domains[i] & c & ~lost[i]
        if every_kept(domains, kept):
            break  # every candidate kept: the other combinations can add nothing
    return kept


def combination_supports(domains: vec[i64], combinations: vec[i64], must: i64 = 0) -> vec[i64]:
    """A cheaper, weaker cage filter than `cage_supports` (cdcl's `cage=combinations`): per cell, the values of the
    combinations that fit the cells as a whole, without a matching. A combination fits when every cell can take one
    of its values and each of its values some cell can take; a value of it that one cell alone can take is that
    cell's in it (a cell with two such values: it does not fit), so that cell keeps only that value by it, and the
    others keep their candidates in it but the values so taken. Repeated until nothing more goes (what goes can
    leave a value to one cell alone), so that a look finds nothing the next would. Every value `cage_supports`
    keeps stays (a filling's combination fits, and each of its values is in its cell's part of it); all 0 when no
    combination fits. `must`: as `cage_supports`'s."""
    return combinations_settled(domains, combinations, must, zeros(len(domains)), zeros(len(domains)))


def combinations_settled(domains: vec[i64], combinations: vec[i64], must: i64, one: vec[i64],
                         other: vec[i64]) -> vec[i64]:
    """`combination_supports` written into `one` and `other` (each of the cells' number), in turn, pass by pass: the
    one that holds the answer is returned (`domains` is read, never written). A caller that keeps the two for its
    next looks makes no vector."""
    now = domains
    second = False
    while True:
        kept = other if second else one
        fit_into(now, combinations, must, kept)
        if every_kept(now, kept):
            return kept
        now = kept
        second = not second


def fit_into(domains: vec[i64], combinations: vec[i64], must: i64, kept: vec[i64]) -> None:
    """One pass of `combination_supports`, written into `kept`: per cell, the values it may take in the
    combinations that fit. (A value of a combination two cells can take is one two cells can take in it: which are
    alone is read once for all.)"""
    count: i64 = len(domains)
    available: i64 = 0  # the values one cell or more can take
    twice: i64 = 0  # and two or more
    for i in range(count):
        twice |= available & domains[i]
        available |= domains[i]
    lone = available & ~twice  # each taken by the one cell that can
    for i in range(count):
        kept[i] = 0
    for c in combinations:
        if c & ~available or must & ~c:
            continue  # a value of it no cell can take, or one it lacks
        alone = c & lone  # its values each taken by the one cell that can
        fits = True
        for i in range(count):
            m = domains[i] & c
            own = m & alone
            if not m or own & (own - 1):
                fits = False  # a cell that can take none of it, or two values no other can
                break
        if not fits:
            continue
        whole = True
        for i in range(count):
            own = domains[i] & alone
            kept[i] |= own if own else domains[i] & c & ~alone
            whole = whole and kept[i] == domains[i]
        if whole:
            break  # every candidate kept: the other combinations can add nothing


def adds(domains: vec[i64], combination: i64, kept: vec[i64]) -> bool:
    """Whether a combination may add to what `supports` keeps: every cell can take one of its values, and one
    can take a value of it not kept there yet (else its matchings, if any, add nothing)."""
    new = False
    for i in range(len(domains)):
        mask = domains[i] & combination
        if not mask:
            return False
        if mask & ~kept[i]:
            new = True
    return new


def required_values(available: i64, combinations: vec[i64], must: i64 = 0) -> i64:
    """The values every combination within `available` holds (a mask; every value of `available` when none is
    within it): of a cage whose cells hold only those values, the values each filling puts in some cell. `must`:
    as `cage_supports`'s."""
    required = available
    for c in combinations:
        if not c & ~available and not must & ~c:
            required &= c
    return required


def every_kept(domains: vec[i64], kept: vec[i64]) -> bool:
    """Whether every cell keeps all its candidates."""
    return all(kept[i] == domains[i] for i in range(len(domains)))


def residue_table(count: int) -> vec[i64]:
    """A cage's table of residues for `cage_supports`, none found yet: per cell and value (index cell << RESIDUE_BITS
    plus the value's bit index), the last filling found to give that cell that value, its cells' values' bit
    indices packed RESIDUE_BITS each, first cell lowest; -1 for none. Empty (no residues kept) for a cage of more
    than ENUMERATED cells, whose matchings Régin's method finds."""
    if count > ENUMERATED:
        return vec[i64]()
    return vec[i64]([-1] * (count << RESIDUE_BITS))


RESIDUE_BITS: Final = 5  # a value's bit index in a residue (at most 24: a 25x25 puzzle's values)


def still_whole(domains: vec[i64], residues: vec[i64], kept: vec[i64]) -> None:
    """Adds to `kept` the values of the fillings in `residues` still whole (each of their values still its cell's
    candidate): every value of such a filling is kept, each by it."""
    count: i64 = len(domains)
    for i in range(count):
        left = domains[i] & ~kept[i]
        while left:
            bit = left & -left
            left ^= bit
            filling = residues[(i << RESIDUE_BITS) + bit_index(bit)]
            if filling >= 0 and whole(filling, domains):
                for j in range(count):
                    kept[j] |= 1 << (filling >> (j * RESIDUE_BITS) & 31)


def whole(filling: i64, domains: vec[i64]) -> bool:
    """Whether each cell's value in a packed filling (`residue_table`) is still among its candidates."""
    return all(domains[j] >> (filling >> (j * RESIDUE_BITS) & 31) & 1 for j in range(len(domains)))


# Cages of at most this many cells have their matchings enumerated (`matched`, at most 5! = 120 of them a
# combination) rather than found by Régin's method (`alldiff_lost`), whose matching and components cost more
# on so few cells (and on 6 or 7 cells: docs/results/killer.md).
ENUMERATED: Final = 5


def fewest_first(domains: vec[i64]) -> vec[i64]:
    """`matched`'s table for these cells: three per cell, the last third the cells in the order the walk fills
    them, fewest candidates first (the fewer a cell's choices, the earlier a dead end shows; the values kept do not
    depend on the order)."""
    count: i64 = len(domains)
    walk = zeros(3 * count)
    for i in range(count):  # insertion by candidates (at most ENUMERATED cells)
        size = popcount(domains[i])
        at = i
        while at > 0 and popcount(domains[walk[2 * count + at - 1]]) > size:
            walk[2 * count + at] = walk[2 * count + at - 1]
            at -= 1
        walk[2 * count + at] = i
    return walk


def matched(domains: vec[i64], combination: i64, kept: vec[i64], residues: vec[i64], walk: vec[i64]) -> None:
    """Adds to `kept`, per cell, the values some matching of the cells to `combination`'s values gives it (each
    cell a different value of its domain, every value of the combination taken): every matching, depth first,
    until each cell keeps every value of the combination it has. A matching that keeps a value first is its
    residue (`residue_table`; none kept when `residues` is empty). Its tables are native vectors of machine
    words, the walk's own in `walk` (`fewest_first`, made by the caller once for all its combinations): the walk
    boxes no int and makes no vector."""
    count: i64 = len(domains)
    if popcount(combination) != count:
        return
    # at depth d the walk fills cell walk[2 * count + d]: walk[d] the value chosen there, walk[count + d] the
    # values still to try there
    order = 2 * count
    depth: i64 = 0
    used: i64 = 0
    walk[count] = domains[walk[order]] & combination
    while depth >= 0:
        m = walk[count + depth]
        if not m:
            depth -= 1
            if depth >= 0:
                used ^= walk[depth]
            continue
        bit = m & -m
        walk[count + depth] = m ^ bit
        walk[depth] = bit
        if depth + 1 < count:
            used |= bit
            depth += 1
            walk[count + depth] = domains[walk[order + depth]] & combination & ~used
            continue
        if len(residues) > 0:  # a matching: it is the residue of each value it keeps first
            filling: i64 = 0
            for d in range(count):
                filling |= bit_index(walk[d]) << (walk[order + d] * RESIDUE_BITS)
            for d in range(count):
                i = walk[order + d]
                if not kept[i] & walk[d]:
                    residues[(i << RESIDUE_BITS) + (filling >> (i * RESIDUE_BITS) & 31)] = filling
        done = True  # each cell keeps its value
        for d in range(count):
            i = walk[order + d]
            kept[i] |= walk[d]
            wanted = domains[i] & combination
            if kept[i] & wanted != wanted:
                done = False
        if done:
            break


def zeros(count: i64) -> vec[i64]:
    """A native vector of `count` zeros (made at its size, filled: no int boxed, no append)."""
    return vec[i64]([0] * count)


def union(masks: Iterable[int]) -> int:
    """The values of any of the masks, as one mask."""
    found = 0
    for mask in masks:
        found |= mask
    return found


def indices(mask: int) -> list[int]:
    """The positions of the set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
