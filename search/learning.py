"""Conflict-driven search: singles, and a nogood learned at every dead end (MiniSat's method).

The depth-first methods forget why a branch failed, so they meet the same
clash among a few placements again under every other choice made above it.
On the minimal 25x25 puzzles that is what defeats them. This method keeps
what each dead end teaches, as CDCL SAT solvers do, on the puzzle itself. It
is written in the shape and the vocabulary of MiniSat's Solver.cc, so that a
reader who knows one finds each part of the other by its name:

- Literals (`var`, `sign`, `neg`). A variable per cell and value, "the cell
  holds the value"; its positive literal is a placement, its negative one an
  exclusion. A decision is a trial placement, as in the other methods.
- The trail. Every assignment goes on it, with its level and its reason: a
  decision (or a given), an exclusion by a placement in one of its groups (the
  clause "not both"), the last place of a group (the group's clause "one of
  these"), or a stored clause (learned, or locked candidates').
- `propagate`: the literals of the trail, in order, each with what it implies.
  A placement excludes the other values of its cell and its value elsewhere in
  its row, column and box; an exclusion leaves its four groups (the cell, and
  the value in each unit) one place fewer, and a group with one place left
  places it (naked and hidden singles); the learned clauses watching the
  literal made false are visited (two watched literals). These are the clauses
  of the complete encoding (formulations/sat.py), so each step has a reason to
  trace back. With propagate=locked, locked candidates too, once singles are at
  their fixpoint, as the ladder applies a rung's rules: a value whose places
  left in a box all lie in one line leaves the rest of that line (pointing),
  and one whose places left in a line all lie in one box leaves the rest of
  that box (claiming). Their reason is the clause "the value is somewhere in
  the box (or line) outside the crossing, or not here", what the augmented
  encoding's triads give a SAT solver.
- `analyze`: at a dead end the reasons are traced back along the trail to the
  first point every path to the clash passed through (the first unique
  implication point). That gives a nogood, learned as a clause; the search
  jumps back to the level where the clause forces its one free literal.
  Literals implied by the others are dropped (`redundant`: MiniSat's recursive
  minimisation), and two or more exclusions of lower levels made by one
  placement give way to "not that placement" (`shorten`).
- The VSIDS order (`VarOrder`, `bump`, `decay_activities`): each variable's activity
  grows when a conflict meets it and fades as conflicts go by. `pick_branch`:
  with choose=mrv (the default), MRV over the cells, as the seeds choose, and
  VSIDS within: of the cells with fewest values left, the most active value.
  With choose=vsids, MiniSat's rule: the most active free placement, whatever
  its cell (while no free placement has met a conflict, MRV's first value).
- The clause database (`learn`, `reduce_db`): learned clauses are forgotten in
  part (glucose's rule): every few thousand conflicts, half of those whose
  literals span the most decision levels (LBD above 2) go, unless one is the
  reason of a present assignment.
- As in MiniSat, `Solver.search` runs one descent with an allowance of
  conflicts and says why it stopped. `solve` decides what comes next: a
  restart on a Luby schedule (`unit` x 1 1 2 1 1 2 4 ... conflicts), as
  restart.py's cutoff=luby. The clauses learned and the activities are kept
  across restarts.

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

The narration for the trace (search/trace/) is `Narrator`, outside the
solver: the solver tells an `Observer`, when one is plugged in, what it did at
each step, and the narrator turns that into the trace's events. Tests plug in
observers of their own to check each nogood and each decision.
"""
from __future__ import annotations

import time
from functools import cache
from typing import Any, Final, NamedTuple, Protocol

from puzzles.conclusion import conclude
from puzzles.grid import Grid, geometry, values_of
from puzzles.options import Option, contract, whole
from puzzles.outcome import Budget, Outcome, Status

from .depth_first import BUDGET_SPENT, Limits, Stop, record
from .restart import luby_allowances
from .rules import crossings
from .watch import Watch, watching

OPTIONS = {
    "propagate": Option("singles", "what propagation deduces, with its reasons: singles (naked and hidden), "
                        "or locked (and locked candidates: pointing and claiming)", choices=("singles", "locked")),
    "unit": Option(100, "conflicts allowed per unit of the Luby restart schedule", convert=whole(1)),
    "choose": Option("mrv", "which placement a decision makes: mrv (of the cells with fewest values left, "
                     "the most active value: VSIDS breaks MRV's ties) or vsids (the most active free "
                     "placement, MiniSat's rule)", choices=("mrv", "vsids")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "forced", "eliminated", "conflicts", "learned", "restarts")

VAR_DECAY: Final = 0.95  # VSIDS: the bump grows by 1 / 0.95 each conflict, so older bumps fade (MiniSat's)
RESCALE: Final = 1e100  # all is scaled down once an activity passes this
FIRST_REDUCE: Final = 2000  # glucose: forget learned clauses after 2000, 2300, 2600, ... conflicts
REDUCE_STEP: Final = 300
KEEP_LBD: Final = 2  # learned clauses spanning at most this many levels are kept for good
TIME_CHECK: Final = 63  # read the clock every 64 decisions and every 64 conflicts


# -- literals (MiniSat's Lit) ----------------------------------------------------------------------
# A variable is cell * n + (value - 1): "the cell holds the value". Its literals are 2 * var (the
# placement) and 2 * var + 1 (the exclusion, "not").

def var(p: int) -> int:
    """The variable of literal p."""
    return p >> 1


def sign(p: int) -> bool:
    """True for a negative literal: an exclusion."""
    return (p & 1) == 1


def neg(p: int) -> int:
    """The negation of literal p."""
    return p ^ 1


def placement(x: int) -> int:
    """The positive literal of variable x: its cell holds its value."""
    return 2 * x


def exclusion(x: int) -> int:
    """The negative literal of variable x: its cell does not hold its value."""
    return 2 * x + 1


# The value of a literal, kept per literal (a literal and its negation are set together).
UNDEF: Final = 0
TRUE: Final = 1
FALSE: Final = 2

# Why a variable has its value: the kind of its reason, and what the reason is.
DECIDED: Final = 0  # a decision or a given: no reason
EXCLUDED: Final = 1  # excluded by the placement `reason_arg` in one of its groups: the clause (not p or not x)
LAST_PLACE: Final = 2  # the last place left in group `reason_arg`: the group's clause (one of its variables)
BY_CLAUSE: Final = 3  # implied by the stored clause `reason_clause` (its literal first, the others false)

# The origins of a stored clause
LEARNED: Final = 0
LOCKED: Final = 1  # locked candidates' exclusion
BLOCKING: Final = 2  # a solution's block (solutions=2), kept for good

# The marks of the analysis (`seen`)
UNSEEN: Final = 0
MARKED: Final = 1  # met by this analysis: in the nogood, resolved away, or shown to follow from the nogood
NOT_IMPLIED: Final = 2  # the minimisation found it does not follow from the nogood (kept for this nogood)


class Clause:
    """A stored clause: learned, locked candidates', or a solution's block. In a clause that is the
    reason of an assignment, the literal it implies comes first; the first two are the watched ones."""

    def __init__(self, lits: list[int], origin: int, lbd: int = 0) -> None:
        self.lits = lits
        self.origin = origin
        self.lbd = lbd  # literal block distance: how many decision levels its literals span
        self.deleted = False


class Crossing:
    """A crossing of a line and a box (b cells), seen from the group of a value in one of them."""

    def __init__(self, inside: int, across: int, across_inside: int, outside: list[int]) -> None:
        self.inside = inside  # the group's bits inside the crossing
        self.across = across  # the group of the same value in the other unit (the box, or the line)
        self.across_inside = across_inside  # that group's bits inside the crossing: they stay
        self.outside = outside  # the group's placements outside the crossing: all false when it applies


class Encoding:
    """The complete encoding's clauses as propagation reads them, by group: a cell (its values), or a
    unit and a value (its cells). Of each group's variables one holds (at-least-one: `LAST_PLACE`)
    and a placement excludes the others (at-most-one: `EXCLUDED`). A group's places are a mask of
    n bits (n <= 25), so every mask the propagation touches is a machine word once compiled.

    group_lits:  per group, the placements of its variables, by their bit in the group's mask
    var_groups:  per variable, its four groups (cell, row-value, column-value, box-value): 4 * var + k
    var_bits:    per variable, its bit in each of those groups, alike
    look:        per mask, 1 if a group with these places is to be looked at by locked candidates:
                 two places or more, all inside one crossing (a byte a mask: 32 MB at 25x25, built once
                 per process for each box size)
    crossings:   per group, its crossings with the other kind of unit (none for a cell's group)
    inside:      per group, from a mask of two places or more to the crossings that hold all of it
    """

    def __init__(self, box: int, locked: bool) -> None:
        geo = geometry(box)
        n, cells = geo.side, geo.cells
        self.n = n
        self.group_lits: list[list[int]] = [[placement(cell * n + v) for v in range(n)] for cell in range(cells)]
        self.group_lits += [[placement(cell * n + v) for cell in unit] for unit in geo.units for v in range(n)]
        position = {(u, cell): k for u, unit in enumerate(geo.units) for k, cell in enumerate(unit)}
        self.var_groups: list[int] = []
        self.var_bits: list[int] = []
        for cell in range(cells):
            for v in range(n):
                self.var_groups += [cell] + [cells + unit * n + v for unit in geo.units_of(cell)]
                self.var_bits += [1 << v] + [1 << position[unit, cell] for unit in geo.units_of(cell)]
        look = bytearray(1 << n)
        self.crossings: list[list[Crossing]] = [[] for _ in self.group_lits]
        self.inside: list[dict[int, list[int]]] = [{} for _ in self.group_lits]
        if locked:
            self.add_crossings(box, look)
        self.look = bytes(look)

    def add_crossings(self, box: int, look: bytearray) -> None:
        """The crossings of search/rules.py, as each unit's value groups see them; the masks that call
        for a look marked in `look`."""
        geo, t, n = geometry(box), crossings(box), self.n
        bit = [{cell: 1 << k for k, cell in enumerate(unit)} for unit in geo.units]
        tables: dict[tuple[int, ...], dict[int, list[int]]] = {}
        for unit in range(3 * n):
            for v in range(n):
                g = geo.cells + unit * n + v
                for s in t.of_unit[unit]:
                    line, box_unit = t.line_of[s], geo.box_of[t.cells[s][0]]
                    across = box_unit if unit == line else line
                    rest = t.line_rest[s] if unit == line else t.box_rest[s]
                    self.crossings[g].append(Crossing(
                        sum(bit[unit][cell] for cell in t.cells[s]), geo.cells + across * n + v,
                        sum(bit[across][cell] for cell in t.cells[s]), [placement(cell * n + v) for cell in rest]))
                shape = tuple(c.inside for c in self.crossings[g])
                if shape not in tables:
                    tables[shape] = holding(shape)
                    for m in tables[shape]:
                        look[m] = 1
                self.inside[g] = tables[shape]


def holding(shape: tuple[int, ...]) -> dict[int, list[int]]:
    """Each mask of two bits or more inside some crossing of `shape` (their bits), to the crossings
    that hold all of it."""
    masks = set()
    for inside in shape:
        m = inside
        while m:  # every submask
            if m & (m - 1):
                masks.add(m)
            m = (m - 1) & inside
    return {m: [i for i, inside in enumerate(shape) if not m & ~inside] for m in sorted(masks)}


@cache
def encoding(box: int, locked: bool) -> Encoding:
    return Encoding(box, locked)


class VarOrder:
    """MiniSat's order heap: the free variables by activity, most active first (ties to the lowest
    variable), with each variable's place in the heap so that a bump moves it up at once."""

    def __init__(self, activity: list[float]) -> None:
        self.activity = activity
        self.heap: list[int] = list(range(len(activity)))  # every activity 0: already a heap
        self.index: list[int] = list(range(len(activity)))  # per variable, its place in the heap, or -1

    def before(self, x: int, y: int) -> bool:
        ax, ay = self.activity[x], self.activity[y]
        return ax > ay or (ax == ay and x < y)

    def top(self) -> int:
        return self.heap[0] if self.heap else -1

    def insert(self, x: int) -> None:
        if self.index[x] < 0:
            self.index[x] = len(self.heap)
            self.heap.append(x)
            self.up(self.index[x])

    def remove_top(self) -> int:
        heap, index = self.heap, self.index
        x = heap[0]
        last = heap.pop()
        index[x] = -1
        if heap:
            heap[0] = last
            index[last] = 0
            self.down(0)
        return x

    def increased(self, x: int) -> None:
        """x's activity grew: it may rise."""
        if self.index[x] >= 0:
            self.up(self.index[x])

    def up(self, i: int) -> None:
        heap, index = self.heap, self.index
        x = heap[i]
        while i > 0:
            parent = (i - 1) >> 1
            if not self.before(x, heap[parent]):
                break
            heap[i] = heap[parent]
            index[heap[i]] = i
            i = parent
        heap[i] = x
        index[x] = i

    def down(self, i: int) -> None:
        heap, index = self.heap, self.index
        x, size = heap[i], len(heap)
        while 2 * i + 1 < size:
            child = 2 * i + 1
            if child + 1 < size and self.before(heap[child + 1], heap[child]):
                child += 1
            if not self.before(heap[child], x):
                break
            heap[i] = heap[child]
            index[heap[i]] = i
            i = child
        heap[i] = x
        index[x] = i

    def rebuild(self, free: list[int]) -> None:
        """The heap anew, of these variables (after the activities were scaled down)."""
        for x in self.heap:
            self.index[x] = -1
        self.heap = []
        for x in free:
            self.insert(x)


class Observer(Protocol):
    """What a watch of the solver is told, when one is plugged in (the trace's narrator, or a test):
    each call comes after the step it names, with the solver's state as that step left it."""

    def started(self, solver: Solver) -> None: ...
    def propagated(self, solver: Solver) -> None: ...
    def chose(self, solver: Solver, x: int) -> None: ...
    def decided(self, solver: Solver, x: int) -> None: ...
    def conflict(self, solver: Solver, lits: list[int]) -> None: ...
    def analyzed(self, solver: Solver, conflict: list[int], learnt: list[int], back: int) -> None: ...
    def learned(self, solver: Solver, learnt: list[int], lbd: int) -> None: ...
    def solution(self, solver: Solver) -> None: ...
    def blocked(self, solver: Solver) -> None: ...
    def restarted(self, solver: Solver) -> None: ...


class Solver:
    """The assignment with its trail and reasons, the learned clauses and the activities of one solve."""

    def __init__(self, grid: Grid, limits: Limits, locked: bool = False, vsids: bool = False,
                 observer: Observer | None = None) -> None:
        self.grid, self.limits, self.locked, self.vsids, self.observer = grid, limits, locked, vsids, observer
        n = self.n = grid.side
        variables = n * n * n
        self.enc = enc = encoding(grid.box, locked)
        # the assignment
        self.value = [UNDEF] * (2 * variables)  # per literal: TRUE, FALSE or UNDEF
        self.level = [0] * variables
        self.reason_kind = [DECIDED] * variables
        self.reason_arg = [0] * variables  # the placement that excluded it, or the group it was last in
        self.reason_clause: list[Clause | None] = [None] * variables
        self.trail: list[int] = []  # every literal made true, in order
        self.trail_lim: list[int] = []  # where each decision level begins on the trail
        self.qhead = 0  # the trail up to here is propagated
        # the groups' places: per group, the mask of its variables not excluded by a propagated literal
        self.places = [(1 << n) - 1] * len(enc.group_lits)
        self.saved_places: list[list[int]] = []  # as each decision level found them
        self.confined: list[int] = []  # groups whose places lie inside a crossing, for locked candidates
        # the clauses: per literal, the clauses watching it (visited when it is made false)
        self.watches: list[list[Clause] | None] = [None] * (2 * variables)  # (None until one watches it)
        self.learnts: list[Clause] = []
        # VSIDS
        self.activity = [0.0] * variables
        self.var_inc = 1.0
        self.order = VarOrder(self.activity if vsids else [])  # (choose=mrv reads no heap)
        # the analysis
        self.seen = [UNSEEN] * variables
        self.learnt: list[int] = []  # the nogood being drawn, and the literals of the present level in it
        self.path = 0
        self.next_reduce, self.reductions = FIRST_REDUCE, 0
        # effort
        self.nodes = self.backtracks = self.forced = self.eliminated = 0
        self.conflicts = self.learned = self.restarts = 0
        self.placed_now = 0
        # VSIDS's constants, here so that a test can make the rescaling happen early
        self.var_decay = VAR_DECAY
        self.rescale_limit = RESCALE

    # -- the assignment --------------------------------------------------------------------------
    def decision_level(self) -> int:
        return len(self.trail_lim)

    def assign(self, p: int, kind: int, arg: int = 0, clause: Clause | None = None) -> None:
        """Make literal p true at the present level, for the reason given (MiniSat's uncheckedEnqueue)."""
        x = var(p)
        self.value[p] = TRUE
        self.value[neg(p)] = FALSE
        self.level[x] = len(self.trail_lim)
        self.reason_kind[x] = kind
        self.reason_arg[x] = arg
        if clause is not None:  # (else the kind says there is none: a stale one is never read)
            self.reason_clause[x] = clause
        self.trail.append(p)

    def reason_of(self, x: int) -> list[int]:
        """The literals of the clause that implied x's value, but for x's own: all false."""
        if self.reason_kind[x] == EXCLUDED:
            return [neg(self.reason_arg[x])]
        return [q for q in self.reason_clause_lits(x) if var(q) != x]

    def start(self) -> bool:
        """The givens at level 0, propagated; False when they clash."""
        n = self.n
        for cell, v in enumerate(self.grid.values):
            if v and self.value[placement(cell * n + v - 1)] == UNDEF:
                self.assign(placement(cell * n + v - 1), DECIDED)  # a clash shows in the propagation
        if self.observer is not None:
            self.observer.started(self)
        conflict = self.propagate()
        if conflict is not None:
            if self.observer is not None:
                self.observer.conflict(self, conflict)
            return False
        if self.observer is not None:
            self.observer.propagated(self)
        return True

    # -- propagation -------------------------------------------------------------------------------
    def propagate(self) -> list[int] | None:
        """Every literal of the trail not yet propagated, in order, with what it implies (and locked
        candidates at singles' fixpoint), to a fixpoint: the clause made false (all its literals
        false) at a conflict, else None."""
        trail = self.trail
        self.placed_now = 0  # values placed by this propagation (narrow_groups, propagate_clauses)
        eliminated = 0
        while True:
            while self.qhead < len(trail):
                p = trail[self.qhead]
                self.qhead += 1
                conflict = self.exclude_others(p) if not sign(p) else self.narrow_groups(p)
                if conflict is None:
                    conflict = self.propagate_clauses(p)
                if conflict is not None:  # (the rest of the trail stays unpropagated: undone next)
                    self.confined.clear()
                    return conflict
            if not self.confined:
                break
            eliminated += self.locked_candidates()
        self.forced += self.placed_now
        self.eliminated += eliminated
        return None

    def exclude_others(self, p: int) -> list[int] | None:
        """Placement p: the other variables of its four groups not yet false become so; a conflict if
        one of them is placed (the clause: not both)."""
        enc, value, places = self.enc, self.value, self.places
        x = var(p)
        for k in range(4 * x, 4 * x + 4):
            g = enc.var_groups[k]
            others = places[g] & ~enc.var_bits[k]
            lits = enc.group_lits[g]
            while others:
                low = others & -others
                others ^= low
                q = lits[low.bit_length() - 1]
                if value[q] == TRUE:
                    return [neg(p), neg(q)]
                if value[q] == UNDEF:
                    self.assign(neg(q), EXCLUDED, p)
        return None

    def narrow_groups(self, p: int) -> list[int] | None:
        """Exclusion p: its four groups have one place fewer. A group with none left is a conflict
        (its clause: one of them); one with one place left places it (a naked single in a cell, a
        hidden single in a unit); one whose places all lie inside a crossing is for locked candidates."""
        enc, value, places = self.enc, self.value, self.places
        x = var(p)
        for k in range(4 * x, 4 * x + 4):
            g = enc.var_groups[k]
            m = places[g] = places[g] ^ enc.var_bits[k]
            if m == 0:
                return list(enc.group_lits[g])
            if m & (m - 1) == 0:
                q = enc.group_lits[g][m.bit_length() - 1]
                if value[q] == UNDEF:
                    self.assign(q, LAST_PLACE, g)
                    self.placed_now += 1
            elif enc.look[m]:
                self.confined.append(g)
        return None

    def propagate_clauses(self, p: int) -> list[int] | None:
        """The stored clauses watching the literal p made false (MiniSat's two watched literals): each
        finds another literal not false to watch, or implies its other watched one, or is a conflict."""
        false_lit = neg(p)
        ws = self.watches[false_lit]
        if ws is None:
            return None
        value = self.value
        i = j = 0
        end = len(ws)
        while i < end:
            c = ws[i]
            i += 1
            if c.deleted:
                continue  # forgotten: its watch goes
            lits = c.lits
            if lits[0] == false_lit:  # the false literal second
                lits[0], lits[1] = lits[1], false_lit
            first = lits[0]
            if value[first] == TRUE:
                ws[j] = c
                j += 1
                continue
            moved = False
            for k in range(2, len(lits)):
                if value[lits[k]] != FALSE:  # a new literal to watch
                    lits[1], lits[k] = lits[k], false_lit
                    self.watch(lits[1], c)
                    moved = True
                    break
            if moved:
                continue
            ws[j] = c
            j += 1
            if value[first] == FALSE:  # every literal false
                while i < end:
                    ws[j] = ws[i]
                    j += 1
                    i += 1
                del ws[j:]
                return list(lits)
            self.assign(first, BY_CLAUSE, 0, c)
            if not sign(first):
                self.placed_now += 1
        del ws[j:]
        return None

    def locked_candidates(self) -> int:
        """At singles' fixpoint: each confined group whose places still all lie inside a crossing
        empties the group across it outside the crossing, each exclusion with its clause (the group's
        placements outside the crossing, all false, or not this one). How many it excluded."""
        enc, value, places = self.enc, self.value, self.places
        excluded = 0
        for g in self.confined:
            for i in enc.inside[g].get(places[g], []):  # (the mask may be a single by now: none listed)
                crossing = enc.crossings[g][i]
                gone = places[crossing.across] & ~crossing.across_inside
                lits = enc.group_lits[crossing.across]
                while gone:
                    low = gone & -gone
                    gone ^= low
                    q = lits[low.bit_length() - 1]
                    if value[q] == UNDEF:
                        self.assign(neg(q), BY_CLAUSE, 0, Clause([neg(q), *crossing.outside], LOCKED))
                        excluded += 1
        self.confined.clear()
        return excluded

    def cancel_until(self, level: int) -> None:
        """Take back every assignment above decision level `level` (MiniSat's cancelUntil); the groups'
        places come back as that level's next decision found them."""
        if self.decision_level() <= level:
            return
        value, trail = self.value, self.trail
        start = self.trail_lim[level]
        for i in range(len(trail) - 1, start - 1, -1):
            p = trail[i]
            value[p] = UNDEF
            value[neg(p)] = UNDEF
            if self.vsids:
                self.order.insert(var(p))
        del trail[start:]
        del self.trail_lim[level:]
        self.qhead = start
        self.places = self.saved_places[level]
        del self.saved_places[level:]

    # -- the analysis -------------------------------------------------------------------------------
    def analyze(self, conflict: list[int]) -> tuple[list[int], int]:
        """The nogood learned from a conflict at the present level, its first literal the one it forces
        (the negation of the first unique implication point), and the level to jump back to."""
        seen, level, trail = self.seen, self.level, self.trail
        self.learnt = [0]  # its first literal is set at the end
        self.path = 0  # literals of the present level met and not yet resolved
        for q in conflict:
            self.meet(q)
        index = len(trail) - 1
        while True:
            while seen[var(trail[index])] == UNSEEN:  # the next marked assignment back on the trail
                index -= 1
            p = trail[index]
            index -= 1
            seen[var(p)] = UNSEEN
            self.path -= 1
            if self.path == 0:  # p: the first unique implication point
                break
            self.meet_reason(var(p))  # resolved away: what it rests on is met instead
        learnt = self.learnt
        learnt[0] = neg(p)
        self.shorten(learnt)
        learnt = self.minimize(learnt)
        back = 0
        if len(learnt) > 1:  # the second watched literal: one of the highest level left
            top = 1
            for k in range(2, len(learnt)):
                if level[var(learnt[k])] > level[var(learnt[top])]:
                    top = k
            learnt[1], learnt[top] = learnt[top], learnt[1]
            back = level[var(learnt[1])]
        return learnt, back

    def meet(self, q: int) -> None:
        """A false literal met by the analysis, once: marked and bumped; one of the present level is
        to be resolved, one of a lower level goes into the nogood (level 0's are facts: they go)."""
        x = var(q)
        if self.seen[x] == UNSEEN and self.level[x] > 0:
            self.seen[x] = MARKED
            self.bump(x)
            if self.level[x] >= self.decision_level():
                self.path += 1
            else:
                self.learnt.append(q)

    def meet_reason(self, x: int) -> None:
        """Each literal of the reason of x's value but x's own (all false), met: `reason_of`, read in
        place."""
        if self.reason_kind[x] == EXCLUDED:
            self.meet(neg(self.reason_arg[x]))
        else:
            for q in self.reason_clause_lits(x):
                if var(q) != x:
                    self.meet(q)

    def shorten(self, learnt: list[int]) -> None:
        """Two or more exclusions of lower levels made by one placement give way to "not that
        placement": the nogood's resolvent on their reasons, weaker but shorter, and it forces the same
        literal at the same level. (The minimisation then drops those exclusions: each follows from
        the placement.)"""
        count: dict[int, int] = {}
        for q in learnt[1:]:
            x = var(q)
            if not sign(q) and self.reason_kind[x] == EXCLUDED:
                count[self.reason_arg[x]] = count.get(self.reason_arg[x], 0) + 1
        for u, excluded in count.items():
            if excluded > 1 and self.seen[var(u)] == UNSEEN:
                self.seen[var(u)] = MARKED
                learnt.append(neg(u))

    def minimize(self, learnt: list[int]) -> list[int]:
        """The nogood without the literals that follow from its others (MiniSat's recursive
        minimisation); every mark of the analysis cleared."""
        levels = 0  # one bit per level of the nogood (a level's bit is its number mod 32)
        for q in learnt[1:]:
            levels |= 1 << (self.level[var(q)] & 31)
        to_clear = [var(q) for q in learnt[1:]]
        kept = [learnt[0]]
        for q in learnt[1:]:
            if self.reason_kind[var(q)] == DECIDED or not self.redundant(q, levels, to_clear):
                kept.append(q)
        for x in to_clear:
            self.seen[x] = UNSEEN
        return kept

    def redundant(self, p: int, levels: int, to_clear: list[int]) -> bool:
        """Whether false literal p of a nogood follows from the nogood's other literals: its reasons,
        traced back, end in them or at level 0. `levels` rules out at once a trace that reaches another
        level. What it marks is added to `to_clear`."""
        stack = [p]
        top = len(to_clear)
        while stack:
            x = var(stack.pop())
            if self.reason_kind[x] == EXCLUDED:
                follows = self.traced(neg(self.reason_arg[x]), levels, stack, to_clear)
            else:  # (x's own literal is among them: it is marked, so it passes)
                follows = all(self.traced(r, levels, stack, to_clear) for r in self.reason_clause_lits(x))
            if not follows:
                for y in to_clear[top:]:  # not implied: nor (to be safe) is anything on the way
                    self.seen[y] = NOT_IMPLIED
                return False
        return True

    def traced(self, r: int, levels: int, stack: list[int], to_clear: list[int]) -> bool:
        """A false literal met by the minimisation's trace: whether it may still follow from the
        nogood (in it, at level 0, or implied at one of its levels: then traced further)."""
        x = var(r)
        if self.seen[x] == MARKED or self.level[x] == 0:
            return True
        if self.seen[x] == UNSEEN and self.reason_kind[x] != DECIDED and (levels >> (self.level[x] & 31)) & 1:
            self.seen[x] = MARKED
            stack.append(r)
            to_clear.append(x)
            return True
        return False

    def reason_clause_lits(self, x: int) -> list[int]:
        """The literals of the clause that implied x's value, x's own among them: the group's (the last
        place) or the stored clause's. (Read in place: a placement's exclusion has no list of its own.)"""
        if self.reason_kind[x] == LAST_PLACE:
            return self.enc.group_lits[self.reason_arg[x]]
        clause = self.reason_clause[x]
        assert self.reason_kind[x] == BY_CLAUSE and clause is not None
        return clause.lits

    # -- VSIDS ----------------------------------------------------------------------------------------
    def bump(self, x: int) -> None:
        """A conflict met x: more active (MiniSat's varBumpActivity)."""
        self.activity[x] = self.activity[x] + self.var_inc
        if self.vsids:
            self.order.increased(x)

    def decay_activities(self) -> None:
        """After a conflict: later bumps count more, so older ones fade (MiniSat's varDecayActivity);
        all is scaled down before floats lose the order (an activity is at most 20 bumps)."""
        self.var_inc *= 1 / self.var_decay
        if self.var_inc > self.rescale_limit:
            activity = self.activity
            for x in range(len(activity)):
                activity[x] = activity[x] / self.rescale_limit
            self.var_inc /= self.rescale_limit
            if self.vsids:  # (ties may appear where the smallest fall to 0: the heap is rebuilt)
                self.order.rebuild(list(self.order.heap))

    def pick_branch(self) -> int:
        """The variable a decision places (choose=mrv or vsids), or -1 when every cell is placed."""
        if self.vsids:
            order, value = self.order, self.value
            while order.top() >= 0 and value[placement(order.top())] != UNDEF:
                order.remove_top()
            if order.top() >= 0 and self.activity[order.top()] > 0:
                return order.top()
            # no free variable has met a conflict: MRV's, which with every activity 0 is the first
            # value of the first cell with fewest
        return self.fewest_left()

    def fewest_left(self) -> int:
        """MRV over the cells, VSIDS within: of the cells with fewest values left, the value most
        active (ties to the lowest cell, then value)."""
        n, places, activity = self.n, self.places, self.activity
        best, most, fewest = -1, -1.0, n + 1
        for cell in range(n * n):
            m = places[cell]
            left = values_in(m)
            if left < 2 or left > fewest:  # placed (one value left), or not among the fewest
                continue
            if left < fewest:  # fewer than any cell before it: the best so far is among its values
                best, most, fewest = -1, -1.0, left
            while m:
                low = m & -m
                m ^= low
                x = cell * n + low.bit_length() - 1
                if activity[x] > most:
                    best, most = x, activity[x]
        return best

    # -- the clause database --------------------------------------------------------------------------
    def attach(self, clause: Clause) -> None:
        """Watch a clause's first two literals."""
        self.watch(clause.lits[0], clause)
        self.watch(clause.lits[1], clause)

    def watch(self, p: int, clause: Clause) -> None:
        """`clause` watches literal p: it is visited when p is made false."""
        ws = self.watches[p]
        if ws is None:
            self.watches[p] = [clause]
        else:
            ws.append(clause)

    def learn(self, learnt: list[int], lbd: int) -> None:
        """Keep a clause whose first literal is free and the rest false, and make that literal true."""
        self.learned += 1
        clause = Clause(learnt, LEARNED, lbd)
        if len(learnt) > 1:  # (a unit one, at level 0, is a fact: nothing to watch)
            self.attach(clause)
            self.learnts.append(clause)
        self.assign(learnt[0], BY_CLAUSE, 0, clause)

    def is_reason(self, c: Clause) -> bool:
        """Whether c is the reason of a present assignment (then it may not go)."""
        x = var(c.lits[0])
        return self.value[c.lits[0]] == TRUE and self.reason_kind[x] == BY_CLAUSE and self.reason_clause[x] is c

    def reduce_db(self) -> None:
        """Glucose's rule: half of the learned clauses spanning more than KEEP_LBD levels go, those
        spanning the most first, but no clause that is the reason of a present assignment."""
        candidates = [c for c in self.learnts if c.lbd > KEEP_LBD and not self.is_reason(c)]
        candidates.sort(key=lbd_of, reverse=True)
        for c in candidates[:len(candidates) // 2]:
            c.deleted = True  # the watches drop it when they next meet it
        self.learnts = [c for c in self.learnts if not c.deleted]

    # -- the search -------------------------------------------------------------------------------------
    def new_decision_level(self) -> None:
        """A new level begins here on the trail; the groups' places are kept as it finds them (a copy
        undoes what propagation at this level and above does to them, without a walk)."""
        self.trail_lim.append(len(self.trail))
        self.saved_places.append(self.places[:])

    def decide(self, x: int) -> None:
        """A decision: a new level, where x's value is placed."""
        self.nodes += 1
        self.new_decision_level()
        self.assign(placement(x), DECIDED)

    def search(self, allowance: int) -> Stop:
        """One descent from level 0 until a solution, a proof there is none (left), `allowance`
        conflicts, or the budget's end."""
        limits, observer = self.limits, self.observer
        spent = 0
        while True:
            conflict = self.propagate()
            if conflict is not None:
                self.conflicts += 1
                spent += 1
                if observer is not None:
                    observer.conflict(self, conflict)
                if self.decision_level() == 0:
                    return Stop.EXHAUSTED
                learnt, back = self.analyze(conflict)
                if observer is not None:
                    observer.analyzed(self, conflict, learnt, back)
                lbd = self.lbd(learnt)
                self.backtracks += self.decision_level() - back
                self.cancel_until(back)
                self.learn(learnt, lbd)
                if observer is not None:
                    observer.learned(self, learnt, lbd)
                self.decay_activities()
                if not self.conflicts & TIME_CHECK and time.perf_counter() > limits.deadline:
                    return Stop.TIME
                continue
            if observer is not None:
                observer.propagated(self)
            if spent > allowance:
                return Stop.ALLOWANCE
            if self.conflicts >= self.next_reduce:
                self.reductions += 1
                self.next_reduce = self.conflicts + FIRST_REDUCE + REDUCE_STEP * self.reductions
                self.reduce_db()
            x = self.pick_branch()
            if x < 0:
                if observer is not None:
                    observer.solution(self)
                return Stop.SOLUTION
            if self.nodes >= limits.nodes:
                return Stop.NODES
            if not self.nodes & TIME_CHECK and time.perf_counter() > limits.deadline:
                return Stop.TIME
            if observer is not None:
                observer.chose(self, x)
            self.decide(x)
            if observer is not None:
                observer.decided(self, x)

    def lbd(self, learnt: list[int]) -> int:
        """Literal block distance: how many decision levels a clause's literals span."""
        return len({self.level[var(q)] for q in learnt})

    def restart(self) -> None:
        """Back to level 0, what was learned kept."""
        self.cancel_until(0)
        self.restarts += 1
        if self.observer is not None:
            self.observer.restarted(self)

    def solution_so_far(self) -> bytes:
        """The values placed, a byte a cell (0: none yet); a solution once every variable is set."""
        n = self.n
        values = bytearray(n * n)
        for p in self.trail:
            if not sign(p):
                values[var(p) // n] = var(p) % n + 1
        return bytes(values)

    def block(self) -> bool:
        """After a solution: a clause that not all of its search-placed values hold again, and back
        to level 0. False when it has none: every value was forced by the givens."""
        n = self.n
        lits = [exclusion(cell * n + v - 1) for cell, v in enumerate(self.solution_so_far())
                if self.level[cell * n + v - 1] > 0]
        self.cancel_until(0)
        if self.observer is not None:
            self.observer.blocked(self)
        if not lits:
            return False
        clause = Clause(lits, BLOCKING)  # kept for good: not a learned clause
        if len(lits) == 1:
            self.assign(lits[0], BY_CLAUSE, 0, clause)
        else:
            self.attach(clause)
        return True

    def counters(self) -> dict[str, int]:
        counters = {"nodes": self.nodes, "guesses": self.nodes, "backtracks": self.backtracks, "forced": self.forced}
        if self.locked:
            counters["eliminated"] = self.eliminated
        return counters | {"conflicts": self.conflicts, "learned": self.learned, "restarts": self.restarts}


BITS_IN: Final = bytes(bin(m).count("1") for m in range(1 << 13))  # how many bits each 13-bit mask holds


def values_in(mask: int) -> int:
    """How many bits a mask of at most 26 bits holds (two looks in a table)."""
    return BITS_IN[mask & 0x1FFF] + BITS_IN[mask >> 13]


def lbd_of(c: Clause) -> int:
    return c.lbd


Step = tuple[str, int, int, str]  # a step told to the watch: place or remove, cell, value, rule


class Narrator:
    """The solver's steps told to the watch (search/trace/ records one) in the trace's vocabulary: what propagation
    placed and what it removed that no placement explains, each decision with the choice behind it,
    each dead end, jump back, solution and restart."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.shown = 0  # the trail up to here is told
        self.root: list[Step] = []  # what level 0 holds beyond the givens: told again after a restart

    def tell(self, solver: Solver, kind: str, depth: int | None = None, cell: int | None = None,
             value: int | None = None, rule: str | None = None, **detail: Any) -> None:
        self.watch.emit(kind, max(solver.decision_level() - 1, 0) if depth is None else depth, cell, value, rule,
                        **detail)

    def started(self, solver: Solver) -> None:
        self.watch.narrated(solver.grid, solver.counters)
        self.shown = len(solver.trail)  # the givens: the trace starts from them

    def propagated(self, solver: Solver) -> None:
        """What propagation added to the trail since it was last told, in trail order: the values
        singles and stored clauses placed, and the exclusions no placement explains (locked
        candidates', learned clauses'). A placement's own exclusions are implied, as the trace says."""
        n = solver.n
        for i in range(self.shown, len(solver.trail)):
            p = solver.trail[i]
            x = var(p)
            kind, cell, value = solver.reason_kind[x], x // n, x % n + 1
            if kind in (DECIDED, EXCLUDED):
                continue  # a decision (told as a try), or a placement's exclusion
            clause = solver.reason_clause[x]
            if kind == LAST_PLACE:
                rule = "naked single" if solver.reason_arg[x] < n * n else "hidden single"
            else:
                rule = "locked candidates" if clause is not None and clause.origin == LOCKED else "learned clause"
            step: Step = ("remove" if sign(p) else "place", cell, value, rule)
            if solver.decision_level() == 0:
                self.root.append(step)
            self.tell(solver, step[0], None, cell, value, rule)
        self.shown = len(solver.trail)

    def chose(self, solver: Solver, x: int) -> None:
        """Which cell a decision fills, the values it has left, and the rule that chose."""
        n, depth = solver.n, solver.decision_level()
        cell = x // n
        left = solver.places[cell]
        values = values_of(left)
        if not solver.vsids:
            by = "MRV, then VSIDS: of the cells with fewest values left, the most active value"
        elif solver.activity[x]:
            by = "VSIDS: the most active placement not yet false"
        else:
            by = "MRV: no free placement has met a conflict; the first value of a cell with fewest"
        self.tell(solver, "choose", depth, cell, candidates=len(values), values=values, by=by)

    def decided(self, solver: Solver, x: int) -> None:
        self.tell(solver, "try", solver.decision_level() - 1, x // solver.n, x % solver.n + 1, guess=True)
        self.shown = len(solver.trail)

    def conflict(self, solver: Solver, lits: list[int]) -> None:
        if solver.conflicts == 0:  # (the search counts a conflict before it tells it)
            self.tell(solver, "dead_end", reason="the givens clash")
        else:
            self.tell(solver, "dead_end", rule="conflict", reason="a clause has every literal false")

    def analyzed(self, solver: Solver, conflict: list[int], learnt: list[int], back: int) -> None:
        pass

    def learned(self, solver: Solver, learnt: list[int], lbd: int) -> None:
        self.shown = min(self.shown, len(solver.trail) - 1)  # the literal it forces is to be told
        self.tell(solver, "backtrack", solver.decision_level(), counted=True, learned=len(learnt))

    def solution(self, solver: Solver) -> None:
        self.tell(solver, "solution", solver.decision_level())

    def blocked(self, solver: Solver) -> None:
        self.shown = min(self.shown, len(solver.trail))
        self.tell(solver, "backtrack", 0, counted=False)

    def restarted(self, solver: Solver) -> None:
        self.shown = min(self.shown, len(solver.trail))
        self.tell(solver, "restart", 0)
        for kind, cell, value, rule in self.root:
            self.tell(solver, kind, 0, cell, value, rule, path=True)


class Finish(NamedTuple):
    """How a run ended: its status, why it gave up (if it did), and the solutions found."""

    status: Status
    detail: str
    found: list[bytes]


def run(solver: Solver, solutions: int, unit: int) -> Finish:
    """MiniSat's `solve`: descents with a Luby schedule of conflict allowances, a restart between
    them, until `solutions` solutions, a proof there are no more, or the budget's end."""
    found: list[bytes] = []
    if not solver.start():
        return Finish(Status.UNSATISFIABLE, "", found)
    for allowance in luby_allowances(unit):
        while (stop := solver.search(allowance)) is Stop.SOLUTION:
            record(found, solver.solution_so_far())
            if len(found) >= solutions or not solver.block():  # (no block: the givens force this one)
                return Finish(Status.SOLVED, "", found)
        if stop is Stop.EXHAUSTED:
            return Finish(Status.SOLVED if found else Status.UNSATISFIABLE, "", found)
        if stop in BUDGET_SPENT:
            return Finish(Status.GAVE_UP, BUDGET_SPENT[stop], found)
        solver.restart()
    raise AssertionError("the Luby schedule never ends")  # pragma: no cover


@contract("cdcl", OPTIONS)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Singles with learned nogoods, MRV and VSIDS, and Luby restarts (MiniSat's method on the puzzle)."""
    watch = watching.get()
    solver = Solver(grid, Limits.of(budget, started), locked=options["propagate"] == "locked",
                    vsids=options["choose"] == "vsids", observer=None if watch is None else Narrator(watch))
    status, detail, found = run(solver, solutions, options["unit"])
    return conclude(grid, found, solutions, status, detail, solver.counters(), started)
