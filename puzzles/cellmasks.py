"""The candidate engine on per-cell masks, with snapshots: the engine of every search with a rung of inference.

`CellMasks` holds the same candidates as `Candidates` (puzzles/candidates.py; it is built from
one), each empty cell's candidates as one mask of n bits (value v is bit v-1; n is at most 25),
with one mask per unit of the values placed in it. Every mask is held within a machine word (63
bits): compiled (mypyc), an operation on it is one native instruction, where one wide bitset of the
cells per value (81 bits at 9x9, 625 at 25x25) is a boxed Python int that each operation allocates
anew. So the hot loops below (singles, the fewest candidates, a placement) read and write lists of
small masks, and a cell's candidates are one read.

Its undo is a snapshot: `mark()` copies the masks and the values, and `restore(mark)` puts them
back, so whatever changed since (placements, eliminated candidates, inference) is taken back
exactly, with no trail. It also removes candidates without placing a value (`eliminate`), which
the per-unit masks of `Candidates` cannot take back; the rungs above singles (search/inference.py)
need that. A state kept apart from the engine (A*'s frontier) is `save()`d as bytes.

Killer cages: a placement also takes the value from the cell's cage-mates and narrows every cage of the cell to
its room (puzzles/candidates.py's `Rooms`: the values that can still bring it to its total), so the masks
stay exactly the candidates `Candidates` reads; the room follows from the cell values, so a snapshot holds it.

Rules kept by their filter (puzzles/candidates.py's `Scopes`: an arrow, a quadruple): a placement narrows each empty
cell of the cell's rules to what the rule allows given the values placed in its scope, as `Candidates` reads it.

Constraints (puzzles/constraints/): a placement takes from each linked cell what the value forbids there
(`Geometry.links`), as `Candidates` reads it from the linked cells' values.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterable

from .bits import popcount
from .candidates import Candidates, Rooms, Scopes
from .grid import Grid

# A CellMasks state, for `restore`: every cell's candidate mask, the cell values, every unit's placed values, the
# empty count, the cells left with one candidate or none since singles last looked, the units changed since singles
# read them
Snapshot = tuple[list[int], list[int], list[int], int, list[int], list[bool]]
MASKS = "I" if array("I").itemsize >= 4 else "L"  # the array type code `save` writes the masks with: 32 bits or more


class CellMasks:
    """The candidates of a partly filled grid, a mask of n bits per cell.

    `cand[c]` holds the values empty cell c may take (0 for a filled cell), `values[c]` its value
    (0 for a blank), `used[u]` the values placed in unit u, `left` the number of empty cells;
    `pending` the empty cells whose candidates fell to one or none since singles last looked (a
    naked single arises only so); `changed[u]`: a cell of unit u lost a candidate since singles
    last read the unit (only then can it hold a new hidden single). The candidates are the same as
    `Candidates` computes (built from it); only the storage differs.
    """

    __slots__ = ("cand", "cells", "changed", "col_of", "extra", "extra_of", "full", "layout", "left", "linked",
                 "links", "peers", "pending", "region_of", "roomed", "rooms", "row_of", "scoped", "scopes", "side",
                 "units", "units_of", "used", "values")

    def __init__(self, grid: Grid) -> None:
        engine = Candidates(grid)  # validates the givens and computes the candidates
        geo = grid.geometry
        self.layout, self.side, self.cells, self.full = grid.layout, geo.side, geo.cells, geo.full
        self.peers, self.units = geo.peers, geo.units
        self.units_of = [geo.units_of(cell) for cell in range(geo.cells)]
        self.row_of, self.col_of, self.region_of = list(geo.row_of), list(geo.col_of), list(geo.region_of)
        self.extra_of = geo.extra_of
        self.extra = bool(grid.layout.extras)  # whether any cell lies in an extra house (never in classic Sudoku)
        self.roomed = engine.roomed  # whether some rule keeps a room (a Killer's cages)
        self.rooms: Rooms = engine.rooms
        self.scoped = engine.scoped  # whether some rule is kept by its filter (an arrow)
        self.scopes: Scopes = engine.scopes
        self.linked = engine.linked  # whether the layout has constraints (puzzles/constraints/)
        self.links = geo.links
        self.values = list(grid.values)
        self.cand = [0 if v else engine.candidates(cell) for cell, v in enumerate(grid.values)]
        self.used = [0] * len(geo.units)
        for u, unit in enumerate(geo.units):
            for cell in unit:
                if grid.values[cell]:
                    self.used[u] |= 1 << (grid.values[cell] - 1)
        self.left = sum(1 for v in grid.values if not v)
        self.pending = [cell for cell, m in enumerate(self.cand) if not grid.values[cell] and not m & (m - 1)]
        self.changed = [True] * len(geo.units)

    # -- its own undo -------------------------------------------------------------
    def mark(self) -> Snapshot:
        """The present state, for `restore`."""
        return self.cand[:], self.values[:], self.used[:], self.left, self.pending[:], self.changed[:]

    def restore(self, mark: Snapshot) -> None:
        """Back to the state of `mark`, exactly."""
        cand, values, used, self.left, pending, changed = mark
        self.cand, self.values, self.used = cand[:], values[:], used[:]
        self.pending, self.changed = pending[:], changed[:]

    def save(self) -> bytes:
        """The present state, apart from the engine, for `load`: the cell values, a byte per unit
        for whether singles must read it again, then the candidate masks (a few hundred bytes at 9x9)."""
        return bytes(self.values) + bytes(self.changed) + array(MASKS, self.cand).tobytes()

    def load(self, saved: bytes) -> None:
        """Back to a state `save` gave, in any order. The values, the masks and the units to read come
        back as they were; the cells singles must look at are every empty cell with one candidate or
        none, in row-major order (where `save` came after singles, as A*'s do, there is none)."""
        cells, units = self.cells, len(self.units)
        values = self.values = list(saved[:cells])
        self.changed = [flag != 0 for flag in saved[cells:cells + units]]
        cand = self.cand = array(MASKS, saved[cells + units:]).tolist()
        used = self.used = [0] * units
        row_of, col_of, region_of = self.row_of, self.col_of, self.region_of
        left = 0
        pending = self.pending = []
        for cell in range(cells):
            v = values[cell]
            if v:
                bit = 1 << (v - 1)
                used[row_of[cell]] |= bit
                used[col_of[cell]] |= bit
                used[region_of[cell]] |= bit
                for u in self.extra_of[cell]:
                    used[u] |= bit
            else:
                left += 1
                m = cand[cell]
                if not m & (m - 1):
                    pending.append(cell)
        self.left = left

    # -- reading ----------------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The candidate mask of a cell (value v = bit v-1); 0 for a filled cell."""
        return self.cand[cell]

    def state(self) -> bytes:
        """The cell values (one byte a cell, 0 = blank), row-major."""
        return bytes(self.values)

    def masks(self) -> list[int]:
        """Every cell's candidate mask (0 for a filled cell), as the rules read a grid."""
        return self.cand[:]

    def fewest(self) -> tuple[int, int]:
        """The first empty cell (row-major) with the fewest candidates, and its candidates;
        (-1, 0) when the grid is full."""
        cand, values = self.cand, self.values
        best, best_count = -1, 1 << 30
        for cell in range(self.cells):
            if values[cell]:
                continue
            k = popcount(cand[cell])
            if k < best_count:
                best, best_count = cell, k
                if k == 0:
                    break
        return (best, cand[best]) if best >= 0 else (-1, 0)

    def fewest_from(self, cells: list[int], start: int = 0, enough: int = 0) -> tuple[int, int]:
        """As `Candidates.fewest_from`: the position in `cells` (from `start` on, filled cells
        skipped) of the first empty cell with `enough` candidates or fewer, else of the first with
        the fewest, and its candidates; (-1, 0) when none is empty."""
        cand, values = self.cand, self.values
        best, best_mask, best_count = -1, 0, 1 << 30
        for i in range(start, len(cells)):
            cell = cells[i]
            if values[cell]:
                continue
            m = cand[cell]
            k = popcount(m)
            if k < best_count:
                best, best_mask, best_count = i, m, k
                if k <= enough:
                    break
        return best, best_mask

    def fewest_all(self, cells: list[int]) -> tuple[int, list[int]]:
        """As `Candidates.fewest_all`: the fewest candidate count among the empty cells of `cells`,
        and every empty cell that has it, in list order (only the first when it is 0); (-1, [])
        when none is empty."""
        cand, values = self.cand, self.values
        best_count, ties = 1 << 30, []
        for cell in cells:
            if values[cell]:
                continue
            k = popcount(cand[cell])
            if k < best_count:
                best_count, ties = k, [cell]
                if k == 0:
                    break
            elif k == best_count:
                ties.append(cell)
        return (best_count, ties) if ties else (-1, ties)

    def cells_with(self, count: int) -> list[int]:
        """The empty cells with exactly `count` candidates, row-major."""
        cand, values = self.cand, self.values
        return [cell for cell in range(self.cells) if not values[cell] and popcount(cand[cell]) == count]

    def cells_by_count(self) -> list[tuple[int, list[int]]]:
        """The empty cells grouped by their candidate count, fewest first: (count, the cells with
        that many, row-major) for each count some empty cell has; [] when the grid is full."""
        groups: dict[int, list[int]] = {}
        cand, values = self.cand, self.values
        for cell in range(self.cells):
            if not values[cell]:
                groups.setdefault(popcount(cand[cell]), []).append(cell)
        return sorted(groups.items())

    def units_touched(self, cells: Iterable[int]) -> list[int]:
        """The units (indices into the geometry's units) that hold one of `cells`, in order."""
        touched = [False] * len(self.units)
        units_of = self.units_of
        for cell in cells:
            for u in units_of[cell]:
                touched[u] = True
        return [u for u, hit in enumerate(touched) if hit]

    def live_total(self) -> int:
        """The candidates of all empty cells together, or -1 when an empty cell has none left (A*'s h)."""
        cand, values = self.cand, self.values
        total = 0
        for cell in range(self.cells):
            if not values[cell]:
                k = popcount(cand[cell])
                if not k:
                    return -1
                total += k
        return total

    def solved_by_singles(self, hidden: bool = True) -> bool:
        """Whether singles alone fill the grid from here: naked and hidden singles, or naked singles
        alone (`hidden=False`). A puzzle they fill has one solution, found without a guess. The
        singles placed stay placed."""
        return self.singles(hidden) >= 0 and not self.left

    # -- changing ---------------------------------------------------------------
    def assign(self, cell: int, value: int) -> None:
        """Write `value` into an empty cell that allows it; its peers lose the value."""
        self.fill(cell, 1 << (value - 1))
        self.left -= 1

    def fill(self, cell: int, bit: int) -> None:
        """Write the value of `bit` into an empty cell, and take it from its peers (`left` is the
        caller's to count)."""
        cand, used, pending, changed = self.cand, self.used, self.pending, self.changed
        row_of, col_of, region_of, extra = self.row_of, self.col_of, self.region_of, self.extra
        self.values[cell] = bit.bit_length()
        cand[cell] = 0
        for peer in self.peers[cell]:
            m = cand[peer]
            if m & bit:
                m ^= bit
                cand[peer] = m
                if not m & (m - 1):
                    pending.append(peer)  # a naked single now, or a dead end
                changed[row_of[peer]] = changed[col_of[peer]] = changed[region_of[peer]] = True
                if extra:
                    for u in self.extra_of[peer]:
                        changed[u] = True
        for u in self.units_of[cell]:
            used[u] |= bit
            changed[u] = True
        if self.roomed:
            self.fill_rooms(cell)
        if self.linked:
            self.fill_links(cell, bit.bit_length())
        if self.scoped:
            self.fill_scopes(cell)

    def fill_links(self, cell: int, value: int) -> None:
        """`value` was written into `cell`: each cell a constraint links to it loses what the value forbids
        there."""
        cand, pending, changed, units_of = self.cand, self.pending, self.changed, self.units_of
        for other, forbids in self.links[cell]:
            m = cand[other]
            if m & forbids[value]:  # an empty cell (a filled one's mask is 0) that loses a value
                m &= ~forbids[value]
                cand[other] = m
                if not m & (m - 1):
                    pending.append(other)  # a naked single now, or a dead end
                for u in units_of[other]:
                    changed[u] = True

    def fill_rooms(self, cell: int) -> None:
        """A value was written into `cell`: the cells of its rules with a room (its cages) keep only what each has
        room for (the value itself leaves them, and any value that could no longer bring a cage to its total)."""
        rooms, cand, values, pending, changed, units_of = (
            self.rooms, self.cand, self.values, self.pending, self.changed, self.units_of)
        for k in rooms.rooms_of[cell]:
            room = rooms.room(k, rooms.used(k, values))
            for mate in rooms.cells[k]:
                m = cand[mate]
                if m & ~room:  # an empty cell (a filled one's mask is 0) that loses a value
                    m &= room
                    cand[mate] = m
                    if not m & (m - 1):
                        pending.append(mate)  # a naked single now, or a dead end
                    for u in units_of[mate]:
                        changed[u] = True

    def fill_scopes(self, cell: int) -> None:
        """A value was written into `cell`: the empty cells of its rules kept by their filter keep only what each
        rule allows them given the values placed in it."""
        scopes, cand, values, pending, changed, units_of = (
            self.scopes, self.cand, self.values, self.pending, self.changed, self.units_of)
        for k, _ in scopes.of_cell[cell]:
            for mate, allowed in zip(scopes.cells[k], scopes.allowed(k, values), strict=True):
                m = cand[mate]
                if m & ~allowed:  # an empty cell (a filled one's mask is 0) that loses a value
                    m &= allowed
                    cand[mate] = m
                    if not m & (m - 1):
                        pending.append(mate)  # a naked single now, or a dead end
                    for u in units_of[mate]:
                        changed[u] = True

    def eliminate(self, cell: int, mask: int) -> None:
        """Remove the values of `mask` from an empty cell's candidates (a rule above singles proved
        the cell cannot take them); `restore` puts them back."""
        m = self.cand[cell] & ~mask
        self.cand[cell] = m
        if not m & (m - 1):
            self.pending.append(cell)
        for u in self.units_of[cell]:
            self.changed[u] = True

    def force_singles(self) -> int:
        """Place naked and hidden singles to a fixpoint; the number placed, or -1 on a
        contradiction (`restore` takes the placements back)."""
        return self.singles()

    def force_naked_singles(self) -> int:
        """Place naked singles alone to a fixpoint (the ladder's `naked` rung); as `force_singles`."""
        return self.singles(hidden=False)

    def singles(self, hidden: bool = True) -> int:
        """Place naked and hidden singles to a fixpoint; the number placed, or -1 on a
        contradiction (a cell with no candidate, a value with no place in a unit, or two
        singles that clash). Singles are sound and monotone, so the fixpoint, and the
        count, do not depend on the order in which they are found.

        Naked singles first, each cell as its candidates fall to one (`pending`: a cell can only
        become one so); once none is left, hidden singles (a value with one place left in a unit:
        a bit seen once in the unit's masks), in every unit changed since singles last read it.
        Rounds go on until neither finds one. `hidden=False`: naked singles alone (a value with
        no place left in a unit is then no contradiction either).
        """
        cand, values, used, full, units, pending, changed = (
            self.cand, self.values, self.used, self.full, self.units, self.pending, self.changed)
        forced = 0
        while self.left:
            placed = 0
            while pending:
                cell = pending.pop()
                if values[cell]:
                    continue  # filled since
                m = cand[cell]  # one candidate, or none: none left, or an earlier single took its last
                if not m:
                    return -1
                self.fill(cell, m)
                placed += 1
            if not placed and hidden:
                for u, unit in enumerate(units):
                    if not changed[u]:
                        continue  # as it was when last read: no single in it
                    once = twice = 0
                    for cell in unit:
                        m = cand[cell]
                        twice |= once & m
                        once |= m
                    if (once | used[u]) != full:
                        return -1  # some value has no place left in this unit
                    changed[u] = False  # read; a placement below marks it again
                    lone = once & ~twice
                    while lone:
                        bit = lone & -lone
                        lone ^= bit
                        for cell in unit:
                            if cand[cell] & bit:
                                self.fill(cell, bit)
                                placed += 1
                                break
                        else:
                            return -1  # an earlier single of this unit took its only cell
            if not placed:
                break
            self.left -= placed
            forced += placed
        return forced
