"""The candidates stored per value: one bitset of cells for each value (the fast path).

`Bitboards` holds the same candidates as `Candidates` (it is built from one)
the other way round: `boards[v-1]` has bit c set when empty cell c may take
value v. One integer operation then answers a question about a whole value at
once: where v may still go in a unit (`boards[v-1] & unit`), which cells have
one candidate left (bit-sliced counting across the boards). That makes it the
fast path for naked and hidden singles.

Its undo is a snapshot: `mark()` copies the 2n+1 integers of the state and
`restore(mark)` puts them back, so whatever changed since (placements,
eliminated candidates, inference) is taken back exactly, with no trail.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .candidates import Candidates
from .grid import Grid, geometry

BITS_OF_BYTE = tuple(tuple(j for j in range(8) if byte >> j & 1) for byte in range(256))  # the set bits of a byte

# A Bitboards state: its boards, placed and empty, and the boards of the singles fixpoint it grew from
BoardsMark = tuple[list[int], list[int], int, "list[int] | None"]


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
    """The candidates of a partly filled grid, one bitboard per value.

    `boards[v-1]` has bit c set when empty cell c may take value v; `placed[v-1]`
    holds the cells that hold v; `empty` holds the empty cells. The candidates
    are the same as `Candidates` computes (built from it); only the storage differs.
    """

    __slots__ = ("boards", "box", "cell_units", "empty", "peer_masks", "placed", "planes", "settled", "side",
                 "since", "unit_masks")

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
        # `since`: the boards of a singles fixpoint the present state grew from (by placements and
        # eliminations only), or None; `settled`: the present state is such a fixpoint itself.
        self.since: list[int] | None = None
        self.settled = False

    # -- its own undo -------------------------------------------------------------
    def mark(self) -> BoardsMark:
        """The present state, for `restore`."""
        boards = self.boards[:]
        if self.settled:
            self.since = boards  # the next propagation only looks at what changes from here
        return boards, self.placed[:], self.empty, self.since

    def restore(self, mark: BoardsMark) -> None:
        """Back to the state of `mark`, exactly."""
        boards, placed, self.empty, self.since = mark
        self.boards, self.placed = boards[:], placed[:]
        self.settled = False  # `since` still holds its fixpoint: a new mark keeps it

    # -- reading ----------------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The candidate mask of a cell (value v = bit v-1); 0 for a filled cell."""
        m = 0
        for i, b in enumerate(self.boards):
            if b >> cell & 1:
                m |= 1 << i
        return m

    def state(self) -> bytes:
        """The cell values (one byte a cell, 0 = blank), row-major."""
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
        count, cells, _ = self._fewest()
        if count < 0:
            return -1, 0
        cell = (cells & -cells).bit_length() - 1  # the lowest bit: first in row-major order
        return cell, self.candidates(cell)

    def fewest_from(self, cells: list[int], start: int = 0, enough: int = 0) -> tuple[int, int]:
        """As `Candidates.fewest_from`: the position in `cells` (from `start` on) of the first
        empty cell with `enough` candidates or fewer, else of the first with the fewest, and its
        candidates; (-1, 0) when none is empty. `cells[start:]` must hold every empty cell."""
        count, wanted, planes = self._fewest()
        if count < 0:
            return -1, 0
        for k in range(count + 1, enough + 1):  # the scan stops at any count up to `enough`
            wanted |= self._with_count(planes, k)
        for i in range(start, len(cells)):
            if wanted >> cells[i] & 1:
                return i, self.candidates(cells[i])
        raise ValueError("an empty cell is not in the list")

    def fewest_all(self, cells: list[int]) -> tuple[int, list[int]]:
        """As `Candidates.fewest_all`: the fewest candidate count, and the empty cells of `cells`
        that have it in list order (only the first when it is 0); (-1, []) when the grid is full.
        `cells` must hold every empty cell."""
        count, wanted, _ = self._fewest()
        if count < 0:
            return -1, []
        ties = [cell for cell in cells if wanted >> cell & 1]
        return count, ties[:1] if count == 0 else ties

    def fewest_cells(self) -> tuple[int, int]:
        """The fewest candidate count of an empty cell, and the bitboard of the cells that
        have it; (-1, 0) when the grid is full."""
        count, cells, _ = self._fewest()
        return count, cells

    def cells_with(self, count: int) -> int:
        """The bitboard of the empty cells with exactly `count` candidates."""
        _, _, planes = self._fewest()
        return self._with_count(planes, count)

    def cells_by_count(self) -> list[tuple[int, int]]:
        """The empty cells grouped by their candidate count, fewest first: (count, bitboard of the
        cells with that many) for each count some empty cell has; [] when the grid is full."""
        count, cells, planes = self._fewest()
        if count < 0:
            return []
        groups = [(count, cells)]
        rest = self.empty & ~cells
        for k in range(count + 1, self.side + 1):
            if not rest:
                break
            cells = self._with_count(planes, k)
            if cells:
                groups.append((k, cells))
                rest &= ~cells
        return groups

    def _fewest(self) -> tuple[int, int, list[int]]:
        """The fewest candidate count of an empty cell, the bitboard of the cells that have it,
        and the count planes; (-1, 0, planes) when the grid is full.

        The boards are added bit-sliced: plane j holds bit j of every cell's candidate
        count, so one pass over the boards counts all cells at once; the cells with
        exactly k candidates are then an AND of planes.
        """
        empty = self.empty
        planes = [0] * self.planes
        if not empty:
            return -1, 0, planes
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
                return k, cells, planes
        raise AssertionError("every empty cell has some count")  # pragma: no cover

    def _with_count(self, planes: list[int], k: int) -> int:
        """The empty cells with exactly k candidates."""
        cells = self.empty
        for j, plane in enumerate(planes):
            cells &= plane if k >> j & 1 else ~plane
            if not cells:
                break
        return cells

    # -- changing ---------------------------------------------------------------
    def assign(self, cell: int, value: int) -> None:
        """Write `value` into an empty cell that allows it; its peers lose the value."""
        bit = 1 << cell
        keep = ~bit
        i = value - 1
        self.placed[i] |= bit
        self.empty &= keep
        boards = self.boards
        boards[i] &= ~self.peer_masks[cell]
        self.boards = [b & keep for b in boards]
        self.settled = False

    def eliminate(self, cell: int, mask: int) -> None:
        """Remove the values of `mask` from an empty cell's candidates (a rule above singles proved
        the cell cannot take them); `restore` puts them back."""
        keep = ~(1 << cell)
        boards = self.boards
        while mask:
            low = mask & -mask
            boards[low.bit_length() - 1] &= keep
            mask ^= low
        self.settled = False

    def force_singles(self) -> int:
        """Place naked and hidden singles to a fixpoint, from the last fixpoint marked; the number
        placed, or -1 on a contradiction (`restore` takes the placements back)."""
        placed = self.singles(self.since)
        self.settled = placed >= 0
        return placed

    def force_naked_singles(self) -> int:
        """Place naked singles alone to a fixpoint (the ladder's `naked` rung); as `force_singles`."""
        return self.singles(None, hidden=False)

    def masks(self) -> list[int]:
        """Every cell's candidate mask at once (0 for a filled cell), as the rules read a grid."""
        cells = self.side * self.side
        out = [0] * cells
        size, bits_of = (cells + 7) // 8, BITS_OF_BYTE
        for i, board in enumerate(self.boards):
            bit = 1 << i
            base = 0
            for byte in board.to_bytes(size, "little"):  # a byte at a time: fewer big-int operations
                if byte:
                    for j in bits_of[byte]:
                        out[base + j] |= bit
                base += 8
        return out

    def masks_since(self, boards: Sequence[int], masks: Sequence[int]) -> tuple[list[int], int]:
        """As `masks`, from the masks of an earlier state whose boards were `boards`: only the
        candidates that changed since are looked at. Also the bitboard of the cells that changed."""
        out = list(masks)
        changed = 0
        bits_of = BITS_OF_BYTE
        size = (self.side * self.side + 7) // 8
        for i, (now, then) in enumerate(zip(self.boards, boards, strict=True)):
            diff = now ^ then
            if not diff:
                continue
            changed |= diff
            bit = 1 << i
            if diff.bit_count() <= 8:
                while diff:
                    low = diff & -diff
                    out[low.bit_length() - 1] ^= bit
                    diff ^= low
                continue
            base = 0
            for byte in diff.to_bytes(size, "little"):
                if byte:
                    for j in bits_of[byte]:
                        out[base + j] ^= bit
                base += 8
        return out, changed

    def units_touched(self, cells: int) -> list[int]:
        """The units (indices into the geometry's units) that hold one of the `cells` (a bitboard)."""
        return [u for u, unit in enumerate(self.unit_masks) if unit & cells]

    def live_total(self, cells: Sequence[int] = ()) -> int:
        """The candidates of all empty cells together, or -1 when an empty cell has none left
        (A*'s h; `cells` is for the signature `Candidates` has: every empty cell counts)."""
        union = total = 0
        for board in self.boards:
            union |= board
            total += board.bit_count()
        return -1 if self.empty & ~union else total

    def singles(self, since: list[int] | None = None, hidden: bool = True) -> int:
        """Place naked and hidden singles to a fixpoint; the number placed, or -1 on a
        contradiction (a cell with no candidate, a value with no place in a unit, or two
        singles that clash). Singles are sound and monotone, so the fixpoint, and the
        count, do not depend on the order in which they are found.

        `since`: the boards of an earlier fixpoint this state grew from (e.g. the state
        before a search placement). A unit where a value's places did not change since
        then cannot hold a hidden single of it, so only changed units are looked at.
        `hidden=False`: naked singles alone (a value with no place left in a unit is then
        no contradiction either: only hidden-single reasoning sees it).
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
            elif not hidden:
                break
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
