"""The candidate engine: which values each empty cell may still take.

Every search uses this one engine, for every box size. Values are bits: value
v is bit v-1, so a cell's candidate set is an int and set operations are
integer bit operations.

The state kept is one bitmask per unit (row, column, box) of the values already
placed in it. A cell's candidates are the values none of its three units
holds, read in O(1); placing or removing a value updates three integers. That
is exact in both directions, so a search steps back by removing what it placed:
no undo copies of per-cell sets and no re-scan of rows and columns. (Keeping a
mask per cell instead would make placing touch 20 peers and removing recompute
them, for the same answers.)

`Bitboards` holds the same candidates the other way round, one bitset of cells
per value, built from a `Candidates`; it is the fast path for naked and hidden
singles, where whole units and whole values are asked about at once.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .grid import Geometry, Grid, PuzzleError, geometry


class Candidates:
    """A partly filled grid with its candidate sets, changed in place."""

    __slots__ = ("box_of", "col_of", "full", "geometry", "row_of", "used", "values")

    def __init__(self, grid: Grid) -> None:
        geo = grid.geometry
        self.geometry: Geometry = geo
        self.full = geo.full
        self.row_of, self.col_of, self.box_of = geo.row_of, geo.col_of, geo.box_of
        self.values = list(grid.values)
        self.used = [0] * len(geo.units)
        for cell, v in enumerate(self.values):
            if v:
                bit = 1 << (v - 1)
                if not self.candidates(cell) & bit:  # a unit holds v already: two equal givens
                    raise PuzzleError(f"invalid puzzle: {grid.conflicts()[0]}")
                self._mark(cell, bit)

    def load(self, values: bytes) -> None:
        """Reset to a compact state (bytes of cell values) of the same puzzle size, e.g. one
        an A* frontier kept. The state is trusted: it came from this engine's own placements."""
        self.values = list(values)
        used = self.used = [0] * len(self.used)
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        for cell, v in enumerate(values):
            if v:
                bit = 1 << (v - 1)
                used[row_of[cell]] |= bit
                used[col_of[cell]] |= bit
                used[box_of[cell]] |= bit

    def _mark(self, cell: int, bit: int) -> None:
        used = self.used
        used[self.row_of[cell]] |= bit
        used[self.col_of[cell]] |= bit
        used[self.box_of[cell]] |= bit

    # -- reading ------------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The bitmask of values an empty cell may take under the rules."""
        used = self.used
        return self.full & ~(used[self.row_of[cell]] | used[self.col_of[cell]] | used[self.box_of[cell]])

    def allows(self, cell: int, value: int) -> bool:
        return bool(self.candidates(cell) >> (value - 1) & 1)

    def empty_cells(self) -> list[int]:
        """The empty cells, row-major."""
        return [c for c, v in enumerate(self.values) if not v]

    def fewest(self, cells: list[int]) -> tuple[int, int]:
        """The cell of `cells` with the fewest candidates (the first such) and its candidates.

        Stops early at a cell with none: that is a dead end whatever else holds.
        """
        used, full = self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        best, best_mask, best_count = -1, 0, 1 << 30
        for cell in cells:
            m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])
            k = m.bit_count()
            if k < best_count:
                best, best_mask, best_count = cell, m, k
                if k == 0:
                    break
        return best, best_mask

    def fewest_from(self, cells: list[int], start: int = 0, enough: int = 0) -> tuple[int, int]:
        """The position in `cells` (from `start` on, filled cells skipped) of the first empty
        cell with the fewest candidates, and its candidates; (-1, 0) when none is empty.

        The scan stops at the first cell with `enough` candidates or fewer: 0 gives the
        plain first-fewest rule; tdoku's basic solver stops at 1.
        """
        values, used, full = self.values, self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        best, best_mask, best_count = -1, 0, 1 << 30
        for i in range(start, len(cells)):
            cell = cells[i]
            if values[cell]:
                continue
            m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])
            k = m.bit_count()
            if k < best_count:
                best, best_mask, best_count = i, m, k
                if k <= enough:
                    break
        return best, best_mask

    def fewest_all(self, cells: list[int]) -> tuple[int, list[int]]:
        """The fewest candidate count among the empty cells of `cells`, and every empty cell
        that has it, in the given order ((-1, []) when none is empty). Stops early at 0."""
        values, used, full = self.values, self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        best_count, ties = 1 << 30, []
        for cell in cells:
            if values[cell]:
                continue
            k = (full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])).bit_count()
            if k < best_count:
                best_count, ties = k, [cell]
                if k == 0:
                    break
            elif k == best_count:
                ties.append(cell)
        return (best_count, ties) if ties else (-1, ties)

    def live_total(self, cells: list[int]) -> int:
        """The sum of the candidate counts of the empty cells of `cells`, or -1 as soon as one
        of them has no candidate (a dead state: A* does not keep it)."""
        values, used, full = self.values, self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        total = 0
        for cell in cells:
            if values[cell]:
                continue
            k = (full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])).bit_count()
            if not k:
                return -1
            total += k
        return total

    def total_candidates(self, cells: list[int]) -> int:
        """The sum of the candidate counts of `cells` (A*'s heuristic sums this)."""
        used, full = self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        return sum(
            (full & ~(used[row_of[c]] | used[col_of[c]] | used[box_of[c]])).bit_count() for c in cells
        )

    def state(self) -> bytes:
        """A compact copy of the cell values (one byte a cell)."""
        return bytes(self.values)

    def grid(self) -> Grid:
        return Grid(self.geometry.box, bytes(self.values))

    # -- changing -----------------------------------------------------------
    def place(self, cell: int, value: int) -> None:
        """Write `value` into an empty cell (the caller checked it is a candidate)."""
        self.values[cell] = value
        bit = 1 << (value - 1)
        used = self.used
        used[self.row_of[cell]] |= bit
        used[self.col_of[cell]] |= bit
        used[self.box_of[cell]] |= bit

    def remove(self, cell: int) -> None:
        """Clear a cell, giving its value back to its units."""
        keep = ~(1 << (self.values[cell] - 1))
        self.values[cell] = 0
        used = self.used
        used[self.row_of[cell]] &= keep
        used[self.col_of[cell]] &= keep
        used[self.box_of[cell]] &= keep

    def undo(self, trail: list[int], mark: int) -> None:
        """Remove every value placed since the trail had length `mark`."""
        while len(trail) > mark:
            self.remove(trail.pop())

    def singles(self, trail: list[int]) -> bool:
        """Place naked and hidden singles until none is left.

        A naked single is an empty cell with one candidate; a hidden single is a
        value that only one cell of a unit can take. Every placement is appended
        to `trail` so that the caller can undo them. Returns False on a
        contradiction (a cell with no candidate, or a value with no place in
        some unit); the placements made so far stay on the trail.
        """
        values, used, full = self.values, self.used, self.full
        row_of, col_of, box_of = self.row_of, self.col_of, self.box_of
        units = self.geometry.units
        place = self.place
        progress = True
        while progress:
            progress = False
            for cell, v in enumerate(values):
                if v:
                    continue
                m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])
                if not m:
                    return False
                if not m & (m - 1):
                    place(cell, m.bit_length())
                    trail.append(cell)
                    progress = True
            for u, unit in enumerate(units):
                once = twice = 0
                for cell in unit:
                    if not values[cell]:
                        m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[box_of[cell]])
                        twice |= once & m
                        once |= m
                if (once | used[u]) != full:
                    return False  # some value has no place left in this unit
                hidden = once & ~twice & ~used[u]
                while hidden:
                    bit = hidden & -hidden
                    hidden ^= bit
                    for cell in unit:
                        if not values[cell] and self.candidates(cell) & bit:
                            place(cell, bit.bit_length())
                            trail.append(cell)
                            progress = True
                            break
                    else:
                        return False  # an earlier single of this unit took its only cell
        return True


# -- the same candidates, stored per value ------------------------------------

Snapshot = tuple[list[int], list[int], int]  # a Bitboards state: its boards, placed and empty

@cache
def _board_tables(box: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per cell, the bitboard of its peers; per unit, the bitboard of its cells (bit c = cell c);
    per cell, the bitboards of its row, column and box."""
    geo = geometry(box)
    peer_masks = tuple(sum(1 << p for p in peers) for peers in geo.peers)
    unit_masks = tuple(sum(1 << c for c in unit) for unit in geo.units)
    cell_units = tuple(tuple(unit_masks[u] for u in geo.units_of(c)) for c in range(geo.cells))
    return peer_masks, unit_masks, cell_units


class Bitboards:
    """The candidates of a partly filled grid, one bitboard per value: the fast path for singles.

    `boards[v-1]` has bit c set when empty cell c may take value v; `placed[v-1]`
    holds the cells that hold v; `empty` holds the empty cells. One integer
    operation then answers a question about a whole value at once: where v may
    still go in a unit (`boards[v-1] & unit`), which cells have one candidate
    left (bit-sliced counting across the boards). The candidates are the same
    as `Candidates` computes (built from it); only the storage differs. The
    search steps back by restoring a snapshot (2n+1 integers), not by a trail.
    """

    __slots__ = ("boards", "box", "cell_units", "empty", "peer_masks", "placed", "planes", "side", "unit_masks")

    def __init__(self, grid: Grid) -> None:
        engine = Candidates(grid)  # validates the givens and computes the candidates
        n = grid.side
        self.box, self.side = grid.box, n
        self.peer_masks, self.unit_masks, self.cell_units = _board_tables(grid.box)
        self.planes = n.bit_length()  # bits needed to count up to n candidates
        boards, placed, empty = [0] * n, [0] * n, 0
        for cell, v in enumerate(grid.values):
            bit = 1 << cell
            if v:
                placed[v - 1] |= bit
                continue
            empty |= bit
            m = engine.candidates(cell)
            while m:
                low = m & -m
                boards[low.bit_length() - 1] |= bit
                m ^= low
        self.boards, self.placed, self.empty = boards, placed, empty

    # -- snapshots ------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        return self.boards[:], self.placed[:], self.empty

    def restore(self, snap: Snapshot) -> None:
        boards, placed, self.empty = snap
        self.boards, self.placed = boards[:], placed[:]

    # -- reading ----------------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The candidate mask of a cell (value v = bit v-1); 0 for a filled cell."""
        m = 0
        for i, b in enumerate(self.boards):
            if b >> cell & 1:
                m |= 1 << i
        return m

    def values(self) -> bytes:
        """The cell values (0 = blank), row-major."""
        out = bytearray(self.side * self.side)
        for i, cells in enumerate(self.placed):
            while cells:
                low = cells & -cells
                out[low.bit_length() - 1] = i + 1
                cells ^= low
        return bytes(out)

    def fewest(self) -> tuple[int, int]:
        """The first empty cell (row-major) with the fewest candidates, and its candidates;
        (-1, 0) when the grid is full."""
        count, cells = self.fewest_cells()
        if count < 0:
            return -1, 0
        cell = (cells & -cells).bit_length() - 1  # the lowest bit: first in row-major order
        return cell, self.candidates(cell)

    def fewest_cells(self) -> tuple[int, int]:
        """The fewest candidate count of an empty cell, and the bitboard of the cells that
        have it; (-1, 0) when the grid is full.

        The boards are added bit-sliced: plane j holds bit j of every cell's candidate
        count, so one pass over the boards counts all cells at once; the cells with
        exactly k candidates are then an AND of planes.
        """
        empty = self.empty
        if not empty:
            return -1, 0
        planes = [0] * self.planes
        for b in self.boards:
            carry, j = b, 0
            while carry:
                t = planes[j] & carry
                planes[j] ^= carry
                carry, j = t, j + 1
        for k in range(self.side + 1):
            cells = empty
            for j, plane in enumerate(planes):
                cells &= plane if k >> j & 1 else ~plane
                if not cells:
                    break
            if cells:
                return k, cells
        raise AssertionError("every empty cell has some count")  # pragma: no cover

    # -- changing ---------------------------------------------------------------
    def place(self, cell: int, value: int) -> None:
        """Write `value` into an empty cell that allows it; its peers lose the value."""
        bit = 1 << cell
        keep = ~bit
        i = value - 1
        self.placed[i] |= bit
        self.empty &= keep
        boards = self.boards
        boards[i] &= ~self.peer_masks[cell]
        self.boards = [b & keep for b in boards]

    def singles(self, since: list[int] | None = None) -> int:
        """Place naked and hidden singles to a fixpoint; the number placed, or -1 on a
        contradiction (a cell with no candidate, a value with no place in a unit, or two
        singles that clash). Singles are sound and monotone, so the fixpoint, and the
        count, do not depend on the order in which they are found.

        `since`: the boards of an earlier fixpoint this state grew from (e.g. the state
        before a search placement). A unit where a value's places did not change since
        then cannot hold a hidden single of it, so only changed units are looked at.
        """
        peer_masks, unit_masks, cell_units, n = self.peer_masks, self.unit_masks, self.cell_units, self.side
        few = n // 3  # past this many changed cells, filtering the unit list is cheaper
        boards, placed, empty = self.boards, self.placed, self.empty
        if since is None:  # every cell counts as changed
            every = (1 << (n * n)) - 1
            since = [every ^ b for b in boards]
        seen = since
        forced = 0
        while empty:
            # naked singles: cells seen by exactly one board
            once = twice = 0
            for b in boards:
                twice |= once & b
                once |= b
            if empty & ~once:
                return -1
            single = once & ~twice
            found: list[tuple[int, int]] = []
            if single:
                for i in range(n):
                    s = single & boards[i]
                    if s:
                        found.append((i, s))
            else:
                # hidden singles: a value with one place left in a unit
                for i in range(n):
                    b = boards[i]
                    changed = seen[i] ^ b
                    if not changed:
                        continue
                    pl = placed[i]
                    if not b:
                        if pl.bit_count() != n:
                            return -1  # value i+1 fits nowhere, yet some unit lacks it
                        continue
                    masks: Sequence[int]
                    if changed.bit_count() <= few:
                        # a few cells changed: look at their own units (a repeat is harmless)
                        masks = []
                        while changed:
                            low = changed & -changed
                            masks += cell_units[low.bit_length() - 1]
                            changed ^= low
                    else:
                        masks = unit_masks  # most units changed: looking is as cheap as filtering
                    for m in masks:
                        p = b & m
                        if not p & (p - 1):
                            if p:
                                found.append((i, p))
                            elif not pl & m:
                                return -1  # value i+1 has no place left in this unit
                seen = boards[:]
                if not found:
                    break
            taken = 0  # the cells filled in this round; other boards drop them at its end
            for i, cells in found:
                cells &= ~placed[i]  # a hidden single seen from two units is placed once
                if not cells:
                    continue
                if cells & (taken | ~boards[i]):
                    return -1  # an earlier single took this cell or this value's place
                gone = cells
                c = cells
                while c:
                    low = c & -c
                    peers = peer_masks[low.bit_length() - 1]
                    if peers & cells:
                        return -1  # two cells of one unit forced to the same value
                    gone |= peers
                    c ^= low
                placed[i] |= cells
                taken |= cells
                boards[i] &= ~gone
            empty &= ~taken
            forced += taken.bit_count()
            keep = ~taken
            boards = [b & keep for b in boards]
            self.boards, self.empty = boards, empty
        self.boards, self.empty = boards, empty
        return forced
