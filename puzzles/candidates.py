"""The candidate engine on per-unit masks: which values each empty cell may still take.

Values are bits: value v is bit v-1, so a cell's candidate set is an int and set operations are
integer bit operations.

The state kept is one bitmask per unit (row, column, region, extra house) of the values placed in
it. A cell's candidates are the values none of its units holds, read in O(1); placing or removing a
value updates one integer a unit (three in classic Sudoku; the extra houses of a variant are looked
at only when the layout has some, so classic grids pay one test for them). That is exact in both
directions, so a search steps back by removing what it placed: no undo copies of per-cell sets and
no re-scan of rows and columns.

It is one of the two engines (search/engine.py): the searches that place values and infer nothing
run on it, as do plain backtracking and the tools that only read candidates. `CellMasks`
(puzzles/cellmasks.py) holds the same candidates as one mask per cell, with snapshots for its undo:
the searches with a rung of inference run on that one, since a trail of placements cannot take back
a candidate removed without a placement, and it finds singles faster.

Its own undo is a trail: `assign` and `force_singles` record each placement, `mark()` is the trail's
length and `restore(mark)` removes what was placed since. (`place`, `remove`, `undo(trail, mark)`
and `singles(trail)` are the same operations on a trail the caller keeps.) A whole state is its
cell values: `save()` gives them, `load()` takes them back.

Rules with a room (`Rooms`, shared with `CellMasks`; puzzles/constraints/: `Constraint.ROOMS`, a Killer cage's): a
cage is not a house (it need not hold every value), so it has no unit mask; it has a *room*, the values its empty
cells may still take: those of some set of different values, none placed in the cage yet, that fills its empty
cells to its total (any value not in it, for a cage without a total; the kind's `room` says). A cell's candidates
are its houses' and its rules' rooms, so a value that would repeat in a
cage or leave its total out of reach is no candidate: plain backtracking never fills a cage wrongly, and a cage
left with no room empties its cells' candidates, the dead end every search already knows. The room is a pure
function of the cage's placed values (looked up, remembered per engine), kept per cage as they change; a layout
without cages never reads it (the `extra` test a cell read already makes).

Rules kept by their filter (`Scopes`; `Constraint.SCOPED`: an arrow's sum, a quadruple's values): neither pairs nor
a room, such a rule leaves each empty cell of its scope the values its filter keeps given the values placed in the
scope (the other empty cells any value): `Constraint.allowed`, a pure function of those values (looked up,
remembered per engine), kept per rule as they change. A cell's candidates are also within what each of its rules
allows, so the last cell of a scope filled leaves the rule kept, and a scope with no filling left empties a cell.

Constraints (puzzles/constraints/): each is a set of links, a value in one cell forbidding values in another, so a
cell's candidates also leave out what the values of the cells linked to it forbid (`Geometry.links_in`): read from
the cell values, they need no undo of their own. A grid filled from candidates keeps every constraint.
"""
from __future__ import annotations

from .bits import popcount
from .constraints import Constraint
from .grid import Geometry, Grid, PuzzleError
from .layouts import Layout


class Rooms:
    """A layout's rules that keep a room (puzzles/constraints/: `Constraint.ROOMS`, a Killer cage's), as the engines
    read them: each one's cells, each cell's rules, and `room(k, used)`, the values rule k's empty cells may still
    take when the values of `used` are placed in its cells (the rule's own `room`, remembered)."""

    __slots__ = ("cells", "memo", "rooms_of", "rules", "side")

    def __init__(self, lay: Layout) -> None:
        self.side = lay.side
        self.rules: list[Constraint] = [rule for rule in lay.constraints if rule.ROOMS]
        self.cells = [list(rule.scope()) for rule in self.rules]
        rooms_of: list[list[int]] = [[] for _ in range(lay.side * lay.side)]
        for k, cells in enumerate(self.cells):
            for cell in cells:
                rooms_of[cell].append(k)
        self.rooms_of = rooms_of
        self.memo: dict[int, int] = {}  # k << side | used -> the room

    def room(self, k: int, used: int) -> int:
        """The values rule k's empty cells may take, `used` (a mask) placed in its cells."""
        key = k << self.side | used
        known = self.memo.get(key, -1)
        if known >= 0:
            return known
        room = self.rules[k].room(used, self.side)
        self.memo[key] = room
        return room

    def used(self, k: int, values: list[int]) -> int:
        """The mask of the values placed in rule k's cells."""
        used = 0
        for cell in self.cells[k]:
            v = values[cell]
            if v:
                used |= 1 << (v - 1)
        return used


class Scopes:
    """A layout's rules kept by their filter (puzzles/constraints/: `Constraint.SCOPED`), as the engines read them:
    each one's cells, each cell's (rule, place in its scope) pairs, and `allowed(k, values)`, per cell of rule k's
    scope the values it may hold given the values placed there (the rule's own `allowed`, remembered)."""

    __slots__ = ("cells", "memo", "of_cell", "rules", "side")

    def __init__(self, lay: Layout) -> None:
        self.side = lay.side
        self.rules: list[Constraint] = [rule for rule in lay.constraints if rule.SCOPED]
        self.cells = [list(rule.scope()) for rule in self.rules]
        of_cell: list[list[tuple[int, int]]] = [[] for _ in range(lay.side * lay.side)]
        for k, cells in enumerate(self.cells):
            for i, cell in enumerate(cells):
                of_cell[cell].append((k, i))
        self.of_cell = of_cell
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}  # (k, the values held) -> what each cell may hold

    def allowed(self, k: int, values: list[int]) -> tuple[int, ...]:
        """Per cell of rule k's scope, the values it may hold given the values placed in its cells."""
        held = tuple(values[cell] for cell in self.cells[k])
        key = (k, *held)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self.rules[k].allowed(held, self.side)
        return known


class Candidates:
    """A partly filled grid with its candidate sets, changed in place."""

    __slots__ = ("allow", "blanks", "col_of", "extra", "extra_of", "full", "geometry", "linked", "links_in",
                 "region_of", "room", "roomed", "rooms", "row_of", "scoped", "scopes", "trail", "used", "values")

    def __init__(self, grid: Grid) -> None:
        geo = grid.geometry
        self.geometry: Geometry = geo
        self.full = geo.full
        self.row_of, self.col_of, self.region_of = geo.row_of, geo.col_of, geo.region_of
        self.extra_of = geo.extra_of
        self.linked = any(geo.links)  # whether its constraints link cells (their links: puzzles/constraints/)
        self.links_in = geo.links_in
        self.rooms = Rooms(grid.layout)
        self.roomed = len(self.rooms.rules) > 0  # whether some rule keeps a room (a Killer's cages)
        self.scopes = Scopes(grid.layout)
        self.scoped = len(self.scopes.rules) > 0  # whether some rule is kept by its filter (an arrow)
        # whether a cell's candidates are read beyond its row, column and region: an extra house, a room, a link, a
        # rule kept by its filter
        self.extra = bool(geo.layout.extras) or self.roomed or self.linked or self.scoped
        self.room = [self.rooms.room(k, 0) for k in range(len(self.rooms.rules))]  # per rule, what it can take
        self.values = list(grid.values)
        self.allow: list[tuple[int, ...]] = [()] * len(self.scopes.rules)  # per rule kept by its filter: `allowed`
        self.used = [0] * len(geo.units)
        for cell, v in enumerate(self.values):
            if v:
                bit = 1 << (v - 1)
                if not self._in_houses(cell) & bit:  # a unit holds v already: two equal givens
                    raise PuzzleError(f"invalid puzzle: {grid.conflicts()[0]}")
                self._mark(cell, bit)
        if self.roomed or self.linked or self.scoped:
            # a value twice in a cage, a cage whose givens pass its total, givens that break a constraint
            problems = grid.conflicts()
            if problems:
                raise PuzzleError(f"invalid puzzle: {problems[0]}")
            self._rooms_from_values()
        self.blanks = self.empty_cells()  # row-major: where `fewest()` and `live_total()` look
        self.trail: list[int] = []  # the cells `assign` and `force_singles` filled, in order

    def _rooms_from_values(self) -> None:
        """Every rule's room, read from the cell values."""
        rooms = self.rooms
        for k in range(len(self.room)):
            self.room[k] = rooms.room(k, rooms.used(k, self.values))
        for k in range(len(self.allow)):
            self.allow[k] = self.scopes.allowed(k, self.values)

    def load(self, saved: bytes) -> None:
        """Back to a state `save` gave: the cell values of a state of the same puzzle (e.g. one
        A*'s frontier kept). The state is trusted: it came from this engine's own placements.
        The trail starts again empty."""
        self.values = list(saved)
        used = self.used = [0] * len(self.used)
        row_of, col_of, region_of = self.row_of, self.col_of, self.region_of
        blanks = self.blanks = []
        for cell, v in enumerate(saved):
            if v:
                bit = 1 << (v - 1)
                used[row_of[cell]] |= bit
                used[col_of[cell]] |= bit
                used[region_of[cell]] |= bit
                for u in self.extra_of[cell]:
                    used[u] |= bit
            else:
                blanks.append(cell)
        if self.roomed or self.scoped:
            self._rooms_from_values()
        self.trail = []

    def save(self) -> bytes:
        """The present state for `load`: the cell values (the unit masks follow from them)."""
        return bytes(self.values)

    def _mark(self, cell: int, bit: int) -> None:
        used = self.used
        used[self.row_of[cell]] |= bit
        used[self.col_of[cell]] |= bit
        used[self.region_of[cell]] |= bit
        for u in self.extra_of[cell]:
            used[u] |= bit

    def _in_extras(self, cell: int) -> int:
        """The values a cell may not take beyond its row, column and region: those its extra houses hold, those
        outside the room of one of its cages, and those the values of the cells linked to it forbid."""
        used, m = self.used, 0
        for u in self.extra_of[cell]:
            m |= used[u]
        if self.roomed:
            room, full = self.room, self.full
            for k in self.rooms.rooms_of[cell]:
                m |= full & ~room[k]
        if self.linked:
            values = self.values
            for other, forbids in self.links_in[cell]:
                v = values[other]
                if v:
                    m |= forbids[v]
        if self.scoped:
            allow, full = self.allow, self.full
            for k, i in self.scopes.of_cell[cell]:
                m |= full & ~allow[k][i]
        return m

    def _in_houses(self, cell: int) -> int:
        """The values no house of the cell holds (its cages aside)."""
        used, m = self.used, 0
        for u in self.extra_of[cell]:
            m |= used[u]
        return self.full & ~(used[self.row_of[cell]] | used[self.col_of[cell]] | used[self.region_of[cell]] | m)

    def _rooms_changed(self, cell: int) -> None:
        """The cell's value was placed or removed: the rooms of its rules follow."""
        rooms, room, values = self.rooms, self.room, self.values
        for k in rooms.rooms_of[cell]:
            room[k] = rooms.room(k, rooms.used(k, values))

    def _scopes_changed(self, cell: int) -> None:
        """The cell's value was placed or removed: what its rules kept by their filter allow follows."""
        scopes, allow, values = self.scopes, self.allow, self.values
        for k, _ in scopes.of_cell[cell]:
            allow[k] = scopes.allowed(k, values)

    # -- reading ------------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The bitmask of values an empty cell may take under the rules: no house of it holds them, and each of
        its cages has room for them."""
        used = self.used
        m = self.full & ~(used[self.row_of[cell]] | used[self.col_of[cell]] | used[self.region_of[cell]])
        return m & ~self._in_extras(cell) if self.extra else m

    def allows(self, cell: int, value: int) -> bool:
        return bool(self.candidates(cell) >> (value - 1) & 1)

    def empty_cells(self) -> list[int]:
        """The empty cells, row-major."""
        return [c for c, v in enumerate(self.values) if not v]

    def fewest(self, cells: list[int] | None = None) -> tuple[int, int]:
        """The first cell of `cells` (all empty; without, every empty cell in row-major order) with
        the fewest candidates, and its candidates; (-1, 0) when there is none. A cell with no
        candidate ends the scan: that is a dead end whatever else holds."""
        cells = self.blanks if cells is None else cells
        i, mask = self.fewest_from(cells)
        return (cells[i], mask) if i >= 0 else (-1, 0)

    def fewest_from(self, cells: list[int], start: int = 0, enough: int = 0) -> tuple[int, int]:
        """The position in `cells` (from `start` on, filled cells skipped) of the first empty
        cell with the fewest candidates, and its candidates; (-1, 0) when none is empty.

        The scan stops at the first cell with `enough` candidates or fewer: 0 gives the
        plain first-fewest rule; tdoku's basic solver stops at 1.
        """
        values, used, full = self.values, self.used, self.full
        row_of, col_of, region_of, extra = self.row_of, self.col_of, self.region_of, self.extra
        best, best_mask, best_count = -1, 0, 1 << 30
        for i in range(start, len(cells)):
            cell = cells[i]
            if values[cell]:
                continue
            m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[region_of[cell]])
            if extra:
                m &= ~self._in_extras(cell)
            k = popcount(m)
            if k < best_count:
                best, best_mask, best_count = i, m, k
                if k <= enough:
                    break
        return best, best_mask

    def fewest_all(self, cells: list[int]) -> tuple[int, list[int]]:
        """The fewest candidate count among the empty cells of `cells`, and every empty cell
        that has it, in the given order ((-1, []) when none is empty). Stops early at 0."""
        values, used, full = self.values, self.used, self.full
        row_of, col_of, region_of, extra = self.row_of, self.col_of, self.region_of, self.extra
        best_count, ties = 1 << 30, []
        for cell in cells:
            if values[cell]:
                continue
            m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[region_of[cell]])
            k = popcount(m & ~self._in_extras(cell) if extra else m)
            if k < best_count:
                best_count, ties = k, [cell]
                if k == 0:
                    break
            elif k == best_count:
                ties.append(cell)
        return (best_count, ties) if ties else (-1, ties)

    def live_total(self) -> int:
        """The sum of the candidate counts of the empty cells, or -1 as soon as one of them has no
        candidate (a dead state: A* does not keep it)."""
        values, used, full = self.values, self.used, self.full
        row_of, col_of, region_of, extra = self.row_of, self.col_of, self.region_of, self.extra
        total = 0
        for cell in self.blanks:
            if values[cell]:
                continue
            m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[region_of[cell]])
            k = popcount(m & ~self._in_extras(cell) if extra else m)
            if not k:
                return -1
            total += k
        return total

    def masks(self) -> list[int]:
        """Every cell's candidate mask (0 for a filled cell)."""
        return [0 if v else self.candidates(cell) for cell, v in enumerate(self.values)]

    def state(self) -> bytes:
        """A compact copy of the cell values (one byte a cell)."""
        return bytes(self.values)

    def grid(self) -> Grid:
        return Grid(self.geometry.layout, bytes(self.values))

    # -- changing, on its own trail -------------------------------------------
    def mark(self) -> int:
        """The present state, for `restore`: the trail's length."""
        return len(self.trail)

    def restore(self, mark: int) -> None:
        """Back to the state of `mark`: remove every value placed since."""
        self.undo(self.trail, mark)

    def assign(self, cell: int, value: int) -> None:
        """`place`, recorded on the trail."""
        self.place(cell, value)
        self.trail.append(cell)

    def force_singles(self) -> int:
        """`singles` on the trail: the number of values placed, or -1 on a contradiction (the
        placements made so far stay on the trail, for `restore`)."""
        before = len(self.trail)
        if not self.singles(self.trail):
            return -1
        return len(self.trail) - before

    # -- changing, with a trail the caller keeps --------------------------------
    def place(self, cell: int, value: int) -> None:
        """Write `value` into an empty cell (the caller checked it is a candidate)."""
        self.values[cell] = value
        bit = 1 << (value - 1)
        used = self.used
        used[self.row_of[cell]] |= bit
        used[self.col_of[cell]] |= bit
        used[self.region_of[cell]] |= bit
        if self.extra:
            for u in self.extra_of[cell]:
                used[u] |= bit
            if self.roomed:
                self._rooms_changed(cell)
            if self.scoped:
                self._scopes_changed(cell)

    def remove(self, cell: int) -> None:
        """Clear a cell, giving its value back to its units."""
        keep = ~(1 << (self.values[cell] - 1))
        self.values[cell] = 0
        used = self.used
        used[self.row_of[cell]] &= keep
        used[self.col_of[cell]] &= keep
        used[self.region_of[cell]] &= keep
        if self.extra:
            for u in self.extra_of[cell]:
                used[u] &= keep
            if self.roomed:
                self._rooms_changed(cell)
            if self.scoped:
                self._scopes_changed(cell)

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
        row_of, col_of, region_of, extra = self.row_of, self.col_of, self.region_of, self.extra
        units = self.geometry.units
        place = self.place
        progress = True
        while progress:
            progress = False
            for cell, v in enumerate(values):
                if v:
                    continue
                m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[region_of[cell]])
                if extra:
                    m &= ~self._in_extras(cell)
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
                        m = full & ~(used[row_of[cell]] | used[col_of[cell]] | used[region_of[cell]])
                        if extra:
                            m &= ~self._in_extras(cell)
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
