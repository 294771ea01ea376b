"""Conflict-driven search: singles, and a nogood learned at every dead end (MiniSat's method).

The depth-first methods forget why a branch failed, so they meet the same
clash among a few placements again under every other choice made above it.
On the minimal 25x25 puzzles that is what defeats them. This method keeps
what each dead end teaches, as CDCL SAT solvers do, on the puzzle itself:

- A variable per cell and value: "the cell holds the value". The search places
  values: a decision is a trial placement, as in the other methods.
- Propagation is singles reasoning, with the reason of each deduction kept. A
  placed value leaves its cell's other values and its peers. A cell with one
  value left, or a unit with one place left for a value, gets it (naked and
  hidden singles). The rule behind each step is a clause of the complete
  encoding (formulations/sat.py), so each step has a reason to trace back.
  With propagate=locked, locked candidates too: a value whose places left in a
  box all lie in one line leaves the rest of that line (pointing), and one
  whose places left in a line all lie in one box leaves the rest of that box
  (claiming), looked at once singles are at their fixpoint, as the ladder
  applies a rung's rules. Its reason is the clause "the value is somewhere in
  the box (or line) outside the crossing, or not here", what the augmented
  encoding's triads give a SAT solver.
- At a dead end the reasons are traced back to the first point every path to
  the clash passed through (the first unique implication point). That gives a
  nogood: a set of placements and exclusions that cannot all hold. It is
  learned as a clause, and the search jumps back to the level where the clause
  forces its one free literal.
- Which placement next: MRV over the cells, as the seeds choose, and VSIDS
  within. Each variable's activity grows when a conflict meets it and fades as
  conflicts go by; of the cells with fewest values left, the most active value
  is placed. With choose=vsids, MiniSat's rule: the most active free placement,
  whatever its cell (while no free placement has met a conflict, MRV's first value).
- As in MiniSat, `Learner.search` runs one descent with an allowance of
  conflicts and says why it stopped. `solve` decides what comes next: a
  restart on a Luby schedule (`unit` x 1 1 2 1 1 2 4 ... conflicts), as
  restart.py's cutoff=luby. The clauses learned and the activities are kept
  across restarts.
- Learned clauses are forgotten in part (glucose's rule): every few thousand
  conflicts, half of those whose literals span the most decision levels
  (LBD above 2) go, unless one is the reason of a present assignment.

With solutions=2, a solution found is blocked by a clause (not all of its
search-placed values again) and the search goes on; a search that then runs out
proves the solution unique.

Effort (the meanings of depth_first.py, read for this search):
- nodes = guesses: values placed by decisions. Singles are at their fixpoint
  before each decision, so its cell always has another candidate left.
- backtracks: decisions undone by conflicts. A jump back undoes every decision
  above the level it returns to, not only the last.
- forced: values placed by propagation, in propagations that end without a
  conflict; eliminated (propagate=locked): candidates locked candidates removed,
  counted alike.
- conflicts: dead ends met; learned: clauses learned (one a conflict); restarts.
"""
from __future__ import annotations

import heapq
import itertools
import operator
import time
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple, Protocol, cast

from puzzles.conclusion import conclude
from puzzles.grid import Grid, geometry
from puzzles.options import Option, contract, whole
from puzzles.outcome import Budget, Outcome, Status

from .depth_first import BUDGET_SPENT, Limits, Stop, record, watching
from .restart import luby_allowances
from .rules import crossings

OPTIONS = {
    "propagate": Option("singles", "what propagation deduces, with its reasons: singles (naked and hidden), "
                        "or locked (and locked candidates: pointing and claiming)", choices=("singles", "locked")),
    "unit": Option(100, "conflicts allowed per unit of the Luby restart schedule", convert=whole(1)),
    "choose": Option("mrv", "which placement a decision makes: mrv (of the cells with fewest values left, "
                     "the most active value: VSIDS breaks MRV's ties) or vsids (the most active free "
                     "placement, MiniSat's rule)", choices=("mrv", "vsids")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "forced", "eliminated", "conflicts", "learned", "restarts")

DECAY = 1 / 0.95  # VSIDS: the bump grows by this each conflict, so older bumps fade (MiniSat's 0.95)
RESCALE = 1e100  # all is scaled down once the bump passes this: an activity is at most 20 bumps (1 / (1 - 0.95))
FIRST_REDUCE, REDUCE_STEP = 2000, 300  # glucose: forget learned clauses after 2000, 2300, 2600, ... conflicts
KEEP_LBD = 2  # learned clauses spanning at most this many levels are kept for good
TIME_CHECK = 63  # read the clock every 64 decisions and every 64 conflicts

# A literal is 2*var (the cell holds the value) or 2*var+1 (it does not); var = cell*n + value-1.
# Its value: TRUE, FALSE, or 0 (unassigned), a byte a literal (the propagation writes 1 and 2).
TRUE, FALSE = 1, 2
FREE = bytes([1] + [0] * 255)  # a translation of the values: 1 for unassigned, else 0
# The reason of an assignment: None (a decision, a given), a literal >= 0 (the placement that
# excluded it), -1-g (group g had one place left: a single), the learned clause that implied it
# (a list), or the clause of locked candidates that excluded it (a tuple, its own literal first).
# The exclusions a placement makes are most of the assignments, and they are kept off the trail:
# the analysis places each right after its placement (all it depends on), and undoing copies
# back the values as the level found them.
Reason = int | list[int] | tuple[int, ...] | None


class Narrated(Protocol):
    """What a watch of this search is told (search/trace.py's Recorder): where it starts, and
    each step as an event of the trace's vocabulary."""

    def narrated(self, grid: Grid, counters: Callable[[], dict[str, int]]) -> None: ...
    def emit(self, kind: str, depth: int, cell: int | None = None, value: int | None = None,
             rule: str | None = None, **detail: Any) -> None: ...


Step = tuple[str, int, int, str]  # an inference step: place or remove, cell, value, rule


Others = tuple[tuple[int, int, int, int, int, int], ...]  # per variable: three of its groups, each with its bit


class Tables(NamedTuple):
    """The complete encoding's clauses as the propagation reads them, by group: a cell (its values),
    or a unit and a value (its cells). Each group's variables: at least one holds (at-least-one),
    and a placement makes the others of its groups false (at-most-one).

    groups:     per group, the positive literals of its variables, in the order of its mask's bits
    literal_at: per group, its literals by their bit in the mask (a mask of one bit reads its literal)
    groups_of:  per variable, its four groups (cell, row-value, column-value, box-value), each with its bit
    excludes:   per variable, what its placement empties, group by group: the group, the variable's
                bit in it, and per variable the other three groups (with bits) of those it excludes
                there: the placement sets the group's own mask, each exclusion updates its three others
    """

    groups: tuple[tuple[int, ...], ...]
    literal_at: tuple[dict[int, int], ...]
    groups_of: tuple[tuple[int, int, int, int, int, int, int, int], ...]
    excludes: tuple[tuple[tuple[int, int, Others], ...], ...]


@cache
def _tables(box: int) -> Tables:
    geo = geometry(box)
    n = geo.side
    literal = list(range(2 * n * n * n))  # one int object per literal, shared by every group
    groups = [tuple(literal[2 * (cell * n + v)] for v in range(n)) for cell in range(geo.cells)]
    groups += [tuple(literal[2 * (cell * n + v)] for cell in unit) for unit in geo.units for v in range(n)]
    cells = geo.cells
    position = {(u, cell): k for u, unit in enumerate(geo.units) for k, cell in enumerate(unit)}  # bit in its group
    of_var = tuple(
        (cell, 1 << v,
         cells + geo.row_of[cell] * n + v, 1 << position[geo.row_of[cell], cell],
         cells + geo.col_of[cell] * n + v, 1 << position[geo.col_of[cell], cell],
         cells + geo.box_of[cell] * n + v, 1 << position[geo.box_of[cell], cell])
        for cell in range(cells) for v in range(n))
    others = [cast(Others, tuple(entry[:2 * k] + entry[2 * k + 2:] for entry in of_var)) for k in range(4)]
    excludes = tuple(tuple((entry[2 * k], entry[2 * k + 1], others[k]) for k in range(4)) for entry in of_var)
    literal_at = tuple({1 << k: lit for k, lit in enumerate(group)} for group in groups)
    return Tables(tuple(groups), literal_at, of_var, excludes)


Link = tuple[int, int, int, tuple[int, ...]]  # see Locks.links


class Locks(NamedTuple):
    """Locked candidates as the propagation reads them, on the groups of a unit and a value, from
    search/rules.py's crossings of a line and a box (b cells each).

    look:   per mask, 1 if it calls for a look at its group: one place left or none, and (for
            locked candidates) every place left inside one crossing (a byte a mask, read in the
            hottest loop: 32 MB at 25x25, built once per process for each box size and rule;
            with singles alone it is the one-place-or-none test, read the same way)
    links:  per group, its crossings: the bits of the group inside it; the group across it (the
            same value in the box, or the line); that group's bits inside it, which stay; and the
            literals of the group outside it, all false when the link applies: the reason
    inside: per group, a table from a mask of two places or more to the links whose crossing
            holds all of it (shared by the groups whose crossings have the same bits; a cell's is empty)
    """

    look: bytearray
    links: tuple[tuple[Link, ...], ...]
    inside: tuple[dict[int, tuple[int, ...]], ...]


@cache
def _locks(box: int, locked: bool) -> Locks:
    geo = geometry(box)
    n, cells = geo.side, geo.cells
    groups = _tables(box).groups
    look = bytearray(1 << n)
    for k in [0] + [1 << k for k in range(n)]:
        look[k] = 1
    if not locked:
        return Locks(look, ((),) * len(groups), ({},) * len(groups))
    t = crossings(box)
    bit = [{cell: 1 << k for k, cell in enumerate(unit)} for unit in geo.units]

    def bits(unit: int, among: tuple[int, ...]) -> int:
        return sum(bit[unit][cell] for cell in among)

    def link(unit: int, s: int, v: int) -> Link:
        """Crossing s seen from the group of `unit` and value v (the unit is its line or its box)."""
        line, box_unit = t.line_of[s], geo.box_of[t.cells[s][0]]  # (a line's unit is its index)
        across = box_unit if unit == line else line
        rest = t.line_rest[s] if unit == line else t.box_rest[s]
        return (bits(unit, t.cells[s]), cells + across * n + v, bits(across, t.cells[s]),
                tuple(2 * (cell * n + v) for cell in rest))

    def table(shape: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """Each mask of two bits or more inside some crossing of `shape`, to the crossings holding it."""
        masks = set()
        for inside_bits in shape:
            m = inside_bits
            while m:  # every submask
                if m & (m - 1):
                    masks.add(m)
                m = (m - 1) & inside_bits
        return {m: tuple(i for i, inside_bits in enumerate(shape) if not m & ~inside_bits) for m in masks}

    links: list[tuple[Link, ...]] = [()] * cells
    inside: list[dict[int, tuple[int, ...]]] = [{}] * cells
    tables: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
    for unit in range(3 * n):
        for v in range(n):
            links.append(tuple(link(unit, s, v) for s in t.of_unit[unit]))
            shape = tuple(link_bits for link_bits, *_ in links[-1])
            if shape not in tables:
                tables[shape] = table(shape)
                for m in tables[shape]:
                    look[m] = 1
            inside.append(tables[shape])
    return Locks(look, tuple(links), tuple(inside))


class Learner:
    """The assignment, its trail and reasons, the learned clauses and the activities of one solve."""

    def __init__(self, grid: Grid, limits: Limits, locked: bool = False, vsids: bool = False) -> None:
        self.grid, self.limits, self.locked, self.vsids = grid, limits, locked, vsids
        n = self.n = grid.side
        variables = n * n * n
        self.tables = tables = _tables(grid.box)
        self.groups, self.groups_of = tables.groups, tables.groups_of
        self.locks = _locks(grid.box, locked)
        self.value = bytearray(2 * variables)  # per literal: TRUE, FALSE or 0 (unassigned)
        self.level = [0] * variables
        self.reason: list[Reason] = [None] * variables
        self.trail: list[int] = []  # the literals made true, in order
        self.starts: list[int] = []  # where each decision level begins on the trail
        # the literals made true whose consequences are still to be drawn: the placements, and the
        # exclusions that a learned clause watches or that `assign` made (the propagation's own
        # exclusions update their groups as they are made)
        self.todo: list[int] = []
        self.open = [(1 << n) - 1] * len(self.groups)  # per group, the mask of its variables not false
        # the masks and the values as each decision found them: undone by a copy back (so the
        # exclusions a placement makes need no entry on the trail)
        self.opened: list[list[int]] = []
        self.valued: list[bytearray] = []
        self.short: list[int] = []  # groups an exclusion left with a mask to look at (locks.look)
        self.watches: list[list[list[int]] | None] = [None] * (2 * variables)  # a list once one is watched
        self.learnts: list[list[int]] = []
        self.lbd: dict[int, int] = {}  # id of a learned clause -> its literal block distance
        self.activity = [0.0] * variables
        self.bump_by = 1.0
        # the variables free for a decision that have met a conflict, most active first:
        # (-activity, var); an entry whose activity is not the variable's any more is stale and
        # skipped. The others (activity 0) come after them in the order of the variables: they are
        # found in the values. A variable of some activity without a live entry while it is set
        # above level 0 (picked, or met by a conflict) is parked by its level, to be queued again
        # when that level is undone.
        # (With choose=mrv there is no queue: every variable counts as parked, and none is ever listed.)
        self.queue: list[tuple[float, int]] = []  # filled once the givens are propagated
        self.parked: list[list[int]] = [[]]  # per level
        self.is_parked = bytearray(variables) if vsids else bytearray(b"\1") * variables  # 1: in a parked list
        # marks of the analysis, and a spare: 1 met; 2 on a placement, while the walk back runs, that
        # marked exclusions of it wait; 2 in the minimisation, shown not to follow from the nogood
        self.seen = bytearray(variables + 1)
        self.next_reduce, self.reductions = FIRST_REDUCE, 0
        self.nodes = self.backtracks = self.forced = self.eliminated = 0
        self.conflicts = self.learned = self.restarts = 0
        # a watch (search.trace), told each step; the trail up to `shown` is told, and what level 0
        # holds beyond the givens is kept, to be told again after a restart
        self.watch = cast("Narrated | None", watching.get())
        self.shown = 0
        self.root: list[Step] = []

    # -- assigning --------------------------------------------------------------------------
    def assign(self, lit: int, reason: Reason) -> None:
        """Make `lit` true at the present level. (The propagation writes its own placements and
        exclusions inline; those exclusions go neither on the trail nor, unless a learned clause
        watches them, on `todo`.)"""
        value, var = self.value, lit >> 1
        value[lit], value[lit ^ 1] = TRUE, FALSE
        self.level[var], self.reason[var] = len(self.starts), reason
        self.trail.append(lit)
        self.todo.append(lit)  # an exclusion too: the learned clauses watching it, when it is taken
        if lit & 1:  # an exclusion: its groups have one place fewer, and may hold a single now
            open_, look = self.open, self.locks.look
            g0, b0, g1, b1, g2, b2, g3, b3 = self.groups_of[var]
            for g, bit in ((g0, b0), (g1, b1), (g2, b2), (g3, b3)):
                m = open_[g] = open_[g] ^ bit
                if look[m]:
                    self.short.append(g)

    def start(self) -> bool:
        """The givens at level 0, propagated; False when they clash."""
        n = self.n
        for cell, v in enumerate(self.grid.values):
            if v:
                self.assign(2 * (cell * n + v - 1), None)  # a clash shows in the propagation
        if self.watch is not None:
            self.watch.narrated(self.grid, self.counters)
            self.shown = len(self.trail)  # the givens: the trace starts from them
        if self.propagate() is not None:
            self.tell("dead_end", reason="the givens clash")
            return False
        self.show()
        self.requeue()
        return True

    def propagate(self) -> list[int] | None:
        """Singles (and locked candidates) and learned clauses to a fixpoint from what is to do; the
        clause made false (its literals all false) on a conflict, else None."""
        value, level, reason, trail, open_ = self.value, self.level, self.reason, self.trail, self.open
        groups, literal_at, excludes, watches = self.groups, self.tables.literal_at, self.tables.excludes, self.watches
        look, _, inside = self.locks
        depth = len(self.starts)
        placed = eliminated = 0
        short = self.short
        todo = self.todo
        confined: list[int] = []  # groups whose places all lie inside a crossing, to look at after singles
        q = 0
        while True:
            if q == len(todo):  # singles (and learned clauses) are at their fixpoint
                if not confined:
                    break
                eliminated += self.lock(confined)  # locked candidates: what they exclude is to do
                confined.clear()
                continue
            p = todo[q]
            q += 1
            if not p & 1:  # a placement: the other variables of its four groups, not false yet, become so
                for g, bit, other in excludes[p >> 1]:
                    m = open_[g] ^ bit  # read now: a variable in two of them (a row and a box) goes once
                    if not m:
                        continue
                    open_[g] = bit  # the group's own mask; each one excluded updates its three others
                    at = literal_at[g]
                    while m:
                        low = m & -m
                        m ^= low
                        w = at[low]
                        if value[w]:  # not false, as its bit is open: placed, so two placements clash
                            return self.clash([p ^ 1, w ^ 1])
                        value[w] = 2  # FALSE: off the trail (undone with the values' copy), right after p
                        value[w | 1] = 1
                        var = w >> 1
                        level[var] = depth
                        reason[var] = p
                        if watches[w]:
                            todo.append(w | 1)
                        h1, c1, h2, c2, h3, c3 = other[var]  # unrolled: the hottest loop
                        k = open_[h1] = open_[h1] ^ c1
                        if look[k]:
                            short.append(h1)
                        k = open_[h2] = open_[h2] ^ c2
                        if look[k]:
                            short.append(h2)
                        k = open_[h3] = open_[h3] ^ c3
                        if look[k]:
                            short.append(h3)
            if short:  # a group with one place left fills it (a naked or hidden single); none: a conflict
                for g in short:
                    m = open_[g]
                    if not m:
                        return self.clash(list(groups[g]))
                    if m & (m - 1):  # its places all inside a crossing: once singles are done
                        if m in inside[g]:
                            confined.append(g)
                        continue
                    w = literal_at[g][m]
                    if not value[w]:
                        value[w] = 1
                        value[w | 1] = 2
                        var = w >> 1
                        level[var] = depth
                        reason[var] = -1 - g
                        trail.append(w)
                        todo.append(w)
                        placed += 1
                short.clear()
            # the learned clauses that watch the literal just made false (MiniSat's two watches)
            ws = watches[p ^ 1]
            if not ws:
                continue
            false = p ^ 1
            i = j = 0
            end = len(ws)
            while i < end:
                c = ws[i]
                i += 1
                if not c:
                    continue  # forgotten: drop the watch
                if c[0] == false:
                    c[0], c[1] = c[1], false
                first = c[0]
                if value[first] == 1:
                    ws[j] = c
                    j += 1
                    continue
                for k in range(2, len(c)):
                    if value[c[k]] != 2:  # not FALSE
                        c[1], c[k] = c[k], false
                        watched = watches[c[1]]
                        if watched is None:
                            watches[c[1]] = [c]
                        else:
                            watched.append(c)
                        break
                else:
                    ws[j] = c
                    j += 1
                    if value[first] == 2:
                        ws[j:] = ws[i:end]
                        return self.clash(c)
                    self.assign(first, c)  # (an exclusion's groups are updated now, its watches later)
                    if not first & 1:
                        placed += 1
            del ws[j:]
        todo.clear()
        self.forced += placed
        self.eliminated += eliminated
        return None

    def lock(self, confined: list[int]) -> int:
        """Locked candidates: each group of `confined` whose places still all lie inside a crossing
        empties the group across it outside the crossing, each exclusion with its clause (the group's
        literals outside the crossing, all false) and put on `todo`; how many it excluded. It runs at
        the singles' fixpoint, so none of them is placed: that placement would have emptied the group."""
        value, open_, literal_at = self.value, self.open, self.tables.literal_at
        _, links, inside = self.locks
        excluded = 0
        for g in confined:
            m = open_[g]
            for i in inside[g].get(m, ()):  # (m may be a single by now: then no crossing is listed)
                _, across, keep, rest = links[g][i]
                gone = open_[across] & ~keep
                at = literal_at[across]
                while gone:
                    low = gone & -gone
                    gone ^= low
                    w = at[low]
                    assert not value[w], "a placement left a value in its own line or box"
                    self.assign(w | 1, (w | 1, *rest))
                    excluded += 1
        return excluded

    def clash(self, clause: list[int]) -> list[int]:
        """A conflict: the propagation stops; `clause` has every literal false."""
        self.todo.clear()
        self.short.clear()
        return clause

    def undo_to(self, depth: int) -> None:
        """Take back every assignment above decision level `depth`."""
        if len(self.starts) <= depth:
            return
        start = self.starts[depth]
        value = self.value
        value[:] = self.valued[depth]  # the values as the next level found them
        del self.valued[depth:]
        self.open = self.opened[depth]  # and the groups' masks
        del self.opened[depth:]
        # the variables parked above `depth` are free again: candidates for a decision again
        # (choose=vsids: with mrv none is ever parked, and there is no queue)
        is_parked, queue, activity, push = self.is_parked, self.queue, self.activity, heapq.heappush
        for parked in self.parked[depth + 1:] if self.vsids else ():
            for var in parked:
                push(queue, (-activity[var], var))
                is_parked[var] = 0
        del self.parked[depth + 1:]
        del self.trail[start:]
        del self.starts[depth:]
        if len(queue) > 4 * len(activity):  # mostly stale entries: rebuild
            self.requeue()
        self.shown = min(self.shown, start)

    # -- learning -----------------------------------------------------------------------------
    def because(self, var: int) -> list[int] | tuple[int, ...]:
        """The clause that implied the value of `var`: its literal of `var` true, the others false."""
        why = self.reason[var]
        if isinstance(why, (list, tuple)):
            return why  # a learned clause, or locked candidates' one
        assert why is not None
        if why >= 0:
            return (why ^ 1, 2 * var + 1)  # "not both": the placement that excluded it
        return self.groups[-1 - why]  # its group, the others all excluded

    def analyse(self, conflict: list[int] | tuple[int, ...]) -> tuple[list[int], int]:
        """The nogood learned from a conflict at the present level (its first literal the one it
        forces), and the level to jump back to."""
        seen, level, trail, activity, is_parked = self.seen, self.level, self.trail, self.activity, self.is_parked
        reason, parked = self.reason, self.parked
        bump_by = self.bump_by
        depth = len(self.starts)
        learnt = [0]
        pending = 0  # literals of the present level still to be resolved
        # the marked exclusions of the present level kept off the trail, by the placement that made
        # them: they are resolved when the walk back reaches it (mark 2 on it says they wait)
        waiting: dict[int, list[int]] = {}
        index = len(trail) - 1
        lits = conflict
        var = spare = len(seen) - 1  # a spare mark: no variable's
        while True:
            for q in lits:  # the literal of `var` itself is skipped: it is still marked
                v = q >> 1
                if not seen[v] & 1 and level[v] > 0:  # (a placement's mark 2 may be on it)
                    seen[v] |= 1
                    activity[v] += bump_by  # a conflict met it: more active (its queue entry is stale now,
                    if not is_parked[v]:  # and as it is set, it is parked, to be queued again when taken back)
                        is_parked[v] = 1
                        parked[level[v]].append(v)
                    if level[v] >= depth:
                        pending += 1
                        if not q & 1 and type(why := reason[v]) is int and why >= 0:  # excluded by a placement
                            u = why >> 1
                            if seen[u] & 2:
                                waiting[u].append(v)
                            else:
                                seen[u] |= 2
                                waiting[u] = [v]
                    else:
                        learnt.append(q)
            seen[var] = 0  # resolved
            while not seen[trail[index] >> 1]:  # the next marked assignment back on the trail
                index -= 1
            p = trail[index]
            var = p >> 1
            if seen[var] & 2:  # marked exclusions wait on this placement: they come right after it
                seen[var] ^= 2
                excluded = waiting.pop(var)
                if pending == 1:  # the one left: the first unique implication point
                    var = excluded[0]
                    p = 2 * var + 1
                    break
                for v in excluded:
                    seen[v] = 0
                pending -= len(excluded)
                lits = (p ^ 1,)  # resolved on their reasons, (not p, not v): p is marked in their place
                var = spare
                continue
            index -= 1
            pending -= 1
            if not pending:
                break
            lits = self.because(var)
        seen[var] = 0
        learnt[0] = p ^ 1
        # two or more exclusions of lower levels made by one placement give way to "not that
        # placement" (the nogood's resolvent on their reasons: shorter and weaker, but it forces the
        # same literal at the same level): the minimisation below drops them, as it does any
        # exclusion whose placement is in the nogood
        by_placement: dict[int, int] = {}
        for q in learnt[1:]:
            if not q & 1 and type(why := reason[q >> 1]) is int and why >= 0:
                by_placement[why] = by_placement.get(why, 0) + 1
        for u, excluded_by_u in by_placement.items():
            if excluded_by_u > 1 and not seen[u >> 1]:
                seen[u >> 1] = 1
                learnt.append(u ^ 1)
        # a literal implied by the others adds nothing: drop it (MiniSat's recursive minimisation)
        cleared = [q >> 1 for q in learnt[1:]]
        levels = 0
        for v in cleared:
            levels |= 1 << (level[v] & 31)
        kept = [learnt[0]]
        for q in learnt[1:]:
            why = reason[q >> 1]
            if why is None:
                kept.append(q)  # a decision
            elif type(why) is int and why >= 0:  # excluded by a placement: implied if the placement is
                u = why >> 1  # (implied's first step, taken here: most literals end at it)
                if seen[u] == 1:  # (u is of q's level: above 0, and one of the nogood's)
                    continue
                if seen[u] == 2 or reason[u] is None or not self.implied(q, levels, cleared):
                    kept.append(q)
            elif not self.implied(q, levels, cleared):
                kept.append(q)
        for v in cleared:
            seen[v] = 0
        back = 0
        if len(kept) > 1:
            top = max(range(1, len(kept)), key=lambda k: level[kept[k] >> 1])
            kept[1], kept[top] = kept[top], kept[1]
            back = level[kept[1] >> 1]
        return kept, back

    def implied(self, lit: int, levels: int, cleared: list[int]) -> bool:
        """Whether the false literal `lit` of a nogood follows from the nogood's other literals: its
        reasons, traced back, end in them or at level 0. `levels` (one bit per level of the nogood)
        rules out at once a trace that reaches another level. Marks: 1 in the nogood or shown to
        follow from it, 2 shown not to (kept for the rest of this nogood: each is traced once).
        What it marks is added to `cleared`."""
        seen, level, reason = self.seen, self.level, self.reason
        stack = [lit]
        top = len(cleared)
        while stack:
            q = stack.pop()
            for r in self.because(q >> 1):  # the literal of q itself is skipped: it is marked
                var = r >> 1
                mark = seen[var]
                if mark == 1 or not level[var]:
                    continue
                if not mark and reason[var] is not None and levels >> (level[var] & 31) & 1:
                    seen[var] = 1
                    stack.append(r)
                    cleared.append(var)
                    continue
                for var in cleared[top:]:  # not implied: nor (to be safe) is anything on the way
                    seen[var] = 2
                return False
        return True

    def fade(self) -> None:
        """After a conflict: later bumps count more, so older ones fade; all is scaled down before
        floats lose the order."""
        self.bump_by *= DECAY
        if self.bump_by > RESCALE:
            self.activity[:] = [a / RESCALE for a in self.activity]
            self.bump_by /= RESCALE
            self.requeue()

    def requeue(self) -> None:
        """The queue rebuilt with a live entry for each free variable of some activity, and the
        parked lists, from the present values, levels and decisions (choose=vsids)."""
        if not self.vsids:
            return
        free = self.value[::2].translate(FREE)  # a byte a variable: 1 if not set
        activity, level, is_parked = self.activity, self.level, self.is_parked
        variables = range(len(free))
        compress = itertools.compress
        # (no activity before the first conflict)
        self.queue[:] = [(-activity[v], v) for v in compress(variables, free) if activity[v]] if self.conflicts else []
        heapq.heapify(self.queue)
        is_parked[:] = bytes(len(free))  # in place: held by callers
        self.parked = [[] for _ in range(len(self.starts) + 1)]
        if self.starts:  # the variables set above level 0 are parked
            for v in compress(variables, map(operator.not_, free)):
                if level[v] and activity[v]:
                    self.parked[level[v]].append(v)
                    is_parked[v] = 1

    def watch_first_two(self, clause: list[int]) -> None:
        """Watch the first two literals of a clause."""
        for lit in clause[:2]:
            watching = self.watches[lit]
            if watching is None:
                self.watches[lit] = [clause]
            else:
                watching.append(clause)

    def learn(self, learnt: list[int], lbd: int) -> None:
        """Keep a clause whose first literal is free and the rest false, and make that literal true."""
        self.learned += 1
        if len(learnt) == 1:
            self.assign(learnt[0], None)  # at level 0: a fact
            return
        self.watch_first_two(learnt)
        self.learnts.append(learnt)
        self.lbd[id(learnt)] = lbd
        self.assign(learnt[0], learnt)

    def forget(self) -> None:
        """Glucose's rule: half of the learned clauses spanning more than KEEP_LBD levels go, those
        spanning the most first, but no clause that is the reason of a present assignment."""
        lbd, reason, value = self.lbd, self.reason, self.value

        def locked(c: list[int]) -> bool:
            return value[c[0]] == 1 and reason[c[0] >> 1] is c

        candidates = [c for c in self.learnts if lbd[id(c)] > KEEP_LBD and not locked(c)]
        candidates.sort(key=lambda c: lbd[id(c)], reverse=True)
        for c in candidates[:len(candidates) // 2]:
            del lbd[id(c)]
            c.clear()  # the watches drop it when they next meet it
        self.learnts = [c for c in self.learnts if c]

    # -- the search ---------------------------------------------------------------------------
    def pick(self) -> int:
        """The variable a decision places (choose=mrv or vsids), or -1 when every cell is placed."""
        return self.most_active() if self.vsids else self.fewest_left()

    def fewest_left(self) -> int:
        """MRV over the cells, VSIDS within: of the cells with fewest values left, the value most
        active (ties to the lowest cell, then value)."""
        n, open_, activity = self.n, self.open, self.activity
        left = bytes(map(int.bit_count, itertools.islice(open_, n * n)))  # a placed cell has 1: singles
        for fewest in range(2, n + 1):  # are at their fixpoint
            cell = left.find(fewest)
            if cell >= 0:
                break
        else:
            return -1
        best, most = -1, -1.0
        while cell >= 0:
            m, base = open_[cell], cell * n
            while m:
                low = m & -m
                m ^= low
                var = base + low.bit_length() - 1
                if activity[var] > most:
                    best, most = var, activity[var]
            cell = left.find(fewest, cell + 1)
        return best

    def most_active(self) -> int:
        """The free variable of highest activity (ties to the lowest index); while no free one has
        met a conflict, MRV's. If it has met a conflict, its entry is left on top of the queue, for the
        decision to take."""
        queue, value, activity, level = self.queue, self.value, self.activity, self.level
        while queue:
            minus, var = queue[0]
            if -minus != activity[var]:
                heapq.heappop(queue)  # stale
                continue
            if not value[2 * var]:
                return var
            heapq.heappop(queue)
            if level[var]:  # (set at level 0, it is set for good)
                self.is_parked[var] = 1
                self.parked[level[var]].append(var)
        # no free variable has met a conflict: MRV's, which with every activity 0 is the first value
        # of the first cell with fewest
        return self.fewest_left()

    def decide(self, var: int) -> None:
        """A decision: a new level, where `var`'s value is placed; with choose=vsids the variable, if
        it has met a conflict, is parked there (its entry taken off the queue)."""
        self.nodes += 1
        self.starts.append(len(self.trail))
        self.opened.append(self.open[:])
        self.valued.append(self.value[:])
        if self.vsids and self.activity[var]:
            heapq.heappop(self.queue)
            self.is_parked[var] = 1
            self.parked.append([var])
        else:
            self.parked.append([])
        self.assign(2 * var, None)

    def search(self, allowance: int) -> Stop:
        """One descent from level 0 until a solution, a proof there is none (left), `allowance`
        conflicts, or the budget's end."""
        limits = self.limits
        spent = 0
        while True:
            conflict = self.propagate()
            if conflict is not None:
                self.conflicts += 1
                spent += 1
                self.tell("dead_end", rule="conflict", reason="a clause has every literal false")
                if not self.starts:
                    return Stop.EXHAUSTED
                learnt, back = self.analyse(conflict)
                lbd = len({self.level[q >> 1] for q in learnt})
                self.backtracks += len(self.starts) - back
                self.undo_to(back)
                self.tell("backtrack", back, counted=True, learned=len(learnt))
                self.learn(learnt, lbd)
                self.fade()
                if not self.conflicts & TIME_CHECK and time.perf_counter() > limits.deadline:
                    return Stop.TIME
                continue
            self.show()
            if spent > allowance:
                return Stop.ALLOWANCE
            if self.conflicts >= self.next_reduce:
                self.reductions += 1
                self.next_reduce = self.conflicts + FIRST_REDUCE + REDUCE_STEP * self.reductions
                self.forget()
            var = self.pick()
            if var < 0:
                self.tell("solution", len(self.starts))
                return Stop.SOLUTION
            if self.nodes >= limits.nodes:
                return Stop.NODES
            if not self.nodes & TIME_CHECK and time.perf_counter() > limits.deadline:
                return Stop.TIME
            if self.watch is not None:
                self.chose(var)
            self.decide(var)
            if self.watch is not None:
                cell, v = divmod(var, self.n)
                self.tell("try", len(self.starts) - 1, cell, v + 1, guess=True)
                self.shown = len(self.trail)

    def chose(self, var: int) -> None:
        """Tell the watch which cell a decision fills, and the values it has left."""
        cell = var // self.n
        left = self.open[cell]
        values = [k + 1 for k in range(self.n) if left >> k & 1]
        if not self.vsids:
            by = "MRV, then VSIDS: of the cells with fewest values left, the most active value"
        elif self.activity[var]:
            by = "VSIDS: the most active placement not yet false"
        else:
            by = "MRV: no free placement has met a conflict; the first value of a cell with fewest"
        self.tell("choose", len(self.starts), cell, candidates=len(values), values=values, by=by)

    def restart(self) -> None:
        """Back to level 0, what was learned kept; a watch sees the way back to it again."""
        self.undo_to(0)
        self.restarts += 1
        self.tell("restart", 0)
        for kind, cell, value, rule in self.root:
            self.tell(kind, 0, cell, value, rule, path=True)

    def solution_so_far(self) -> bytes:
        """The values placed, a byte a cell (0: none yet); a solution once every variable is set."""
        n = self.n
        values = bytearray(n * n)
        for lit in self.trail:
            if not lit & 1:
                cell, v = divmod(lit >> 1, n)
                values[cell] = v + 1
        return bytes(values)

    def block(self) -> bool:
        """After a solution: a clause that not all of its search-placed values hold again, and back
        to level 0. False when it has none: every value was forced by the givens."""
        n, level = self.n, self.level
        clause = [2 * (cell * n + v - 1) + 1 for cell, v in enumerate(self.solution_so_far())
                  if level[cell * n + v - 1] > 0]
        self.undo_to(0)
        self.tell("backtrack", 0, counted=False)
        if not clause:
            return False
        if len(clause) == 1:
            self.assign(clause[0], None)
        else:
            self.watch_first_two(clause)  # kept for good: not a learned clause
        return True

    def counters(self) -> dict[str, int]:
        counters = {"nodes": self.nodes, "guesses": self.nodes, "backtracks": self.backtracks, "forced": self.forced}
        if self.locked:
            counters["eliminated"] = self.eliminated
        return counters | {"conflicts": self.conflicts, "learned": self.learned, "restarts": self.restarts}

    # -- what a watch is told -------------------------------------------------------------------
    def tell(self, kind: str, depth: int | None = None, cell: int | None = None, value: int | None = None,
             rule: str | None = None, **detail: Any) -> None:
        if self.watch is not None:
            self.watch.emit(kind, max(len(self.starts) - 1, 0) if depth is None else depth, cell, value, rule,
                            **detail)

    def show(self) -> None:
        """Tell the watch what propagation added to the trail since it was last told, in trail
        order: the values singles and learned clauses placed, and the exclusions that no
        placement before them explains: locked candidates' and learned clauses'. (A placement's
        own exclusions are not on the trail: they are implied, as the trace says.)"""
        if self.watch is None:
            return
        n, trail, reason, value = self.n, self.trail, self.reason, self.value
        placed_at = {lit >> 1: i for i, lit in enumerate(trail) if not lit & 1 and i >= self.shown}
        for i in range(self.shown, len(trail)):
            lit = trail[i]
            var = lit >> 1
            why = reason[var]
            cell, v = divmod(var, n)
            if not lit & 1:
                if why is None:
                    continue  # a decision: told as a try
                rule = "learned clause" if not isinstance(why, int) else \
                    "naked single" if -1 - why < n * n else "hidden single"
                step: Step = ("place", cell, v + 1, rule)
            else:
                if any(value[w] == 1 and placed_at.get(w >> 1, -1) < i
                       for g in self.groups_of[var][::2] for w in self.groups[g] if w >> 1 != var):
                    continue  # a placement before it in the trail excludes it already
                rule = "locked candidates" if isinstance(why, tuple) else "learned clause"  # (or a unit one,
                step = ("remove", cell, v + 1, rule)  # or a solution's block)
            if not self.starts:
                self.root.append(step)
            kind, cell, shown_value, rule = step
            self.tell(kind, None, cell, shown_value, rule)
        self.shown = len(trail)


@contract("cdcl", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Singles with learned nogoods, MRV and VSIDS, and Luby restarts (MiniSat's method on the puzzle)."""
    learner = Learner(grid, Limits.of(budget, started), locked=options["propagate"] == "locked",
                      vsids=options["choose"] == "vsids")
    found: list[bytes] = []

    def end(status: Status, detail: str = "") -> Outcome:
        return conclude(grid, found, solutions, status, detail, learner.counters(), started)

    if not learner.start():
        return end(Status.UNSATISFIABLE)
    for allowance in luby_allowances(options["unit"]):
        while (stop := learner.search(allowance)) is Stop.SOLUTION:
            record(found, learner.solution_so_far())
            if len(found) >= solutions:
                return end(Status.SOLVED)
            if not learner.block():
                return end(Status.SOLVED)  # no other solution: the givens force this one
        if stop is Stop.EXHAUSTED:
            return end(Status.SOLVED if found else Status.UNSATISFIABLE)
        if stop in BUDGET_SPENT:
            return end(Status.GAVE_UP, BUDGET_SPENT[stop])
        learner.restart()
    raise AssertionError("the Luby schedule never ends")  # pragma: no cover
