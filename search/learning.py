"""Conflict-driven search: singles, and a nogood learned at every dead end (MiniSat's method).

The depth-first methods forget why a branch failed, so they meet the same
clash among a few placements again under every other choice made above it.
On the minimal 25x25 puzzles that is what defeats them. This method keeps
what each dead end teaches, as CDCL SAT solvers do, on the puzzle itself. It
is written in the shape and the vocabulary of MiniSat's Solver.cc, so that a
reader who knows one finds each part of the other by its name:

- Literals (`Lit`: `var`, `sign`, `neg`). A variable (`Var`) per cell and
  value, "the cell holds the value"; its positive literal is a placement, its
  negative one an exclusion. A decision is a trial placement, as in the other
  methods.
- The trail. Every assignment goes on it, with its level and its reason (a
  `Reason`: its kind, and the literals of its clause): none for a decision or
  a given (`NO_REASON`); an exclusion by a placement in one of its groups (the
  clause "not both"); the last value of a cell or the last place of a value in
  a unit (the group's clause "one of these"); locked candidates' (a crossing's
  clause); or a stored clause (a nogood, a solution's block). `reason_lits` reads the literals a
  reason rests on, all false, whatever its kind.
- `propagate`: the literals of the trail, in order, each through every
  propagator in turn (`Propagator`: Gecode's shape, each owning its watches,
  tables and queue, each deduction with the clause that explains it); at their
  fixpoint, the first propagator with a look waiting looks (`lookers`,
  cheapest first), and what it set is propagated in turn. The propagators:
  `Groups`, the houses' groups; `LockedCandidates`; `KillerCages`; `SumBounds`;
  `Leftovers`; `ConstraintLinks`; `ConstraintFilters`; `StoredClauses`. A placement excludes the other values
  of its cell and its value elsewhere in each of its houses (row, column,
  region, and a variant's extra houses); an exclusion leaves its groups (the
  cell, and the value in each of its houses: four in classic Sudoku) one place
  fewer, and a group with one place left places it (naked and hidden singles:
  `Groups`); the stored clauses watching the literal made false are visited
  (two watched literals: `StoredClauses`). These are the clauses of the
  complete encoding (formulations/cnf.py), so each step has a reason to trace
  back. With propagate=locked, locked candidates too (`LockedCandidates`),
  once singles are at their fixpoint, as the ladder applies a rung's rules: of two houses that
  cross in two cells or more (search/rules.py's `crossings`), a value whose
  places left in one lie in the crossing leaves the rest of the other (in
  classic Sudoku, a box and a line: pointing and claiming). Their reason is
  the clause "the value is somewhere in the first house outside the crossing,
  or not here", what the augmented encoding's triads give a SAT solver.
  On a Killer puzzle (`KillerCages`, a propagator only a layout with cages
  has), a placement excludes its value from its cages'
  other cells (an exclusion's reason, "not both"), and at singles' fixpoint
  each cage with a total whose candidates lost a value of its combinations is
  looked at (`KillerCages.look_at`): a value of a cell that no filling of the cage
  (different values from its cells' candidates, making one of its
  combinations: the kind's filter, puzzles.bits `supports`) puts there goes,
  and a cage with no filling is a conflict. The
  reason (CAGE_SUM) is the cage's candidates as they are: each placed cell's
  placement and each other cell's values gone that a combination holds, all
  false, one clause the cage's rule implies; a value no combination holds
  goes at the root, resting on nothing. With required=on (the default) the
  look then takes a value every combination left to the cage holds out of
  every cell outside the cage that shares a house with each of its places in
  the cage (`KillerCages.point`, as the Interactive Sudoku Solver's cages
  do), on the same clause, reason kind CAGE_HOUSE. The nogoods drawn through
  these reasons join what several cages, houses and decisions did: cdcl
  learns across cages. With hidden=on (the default below 16x16) a look first
  reads the cage's houses:
  a value some house places only in the cage's cells (`hidden_values`) is one
  the cage holds, so only the combinations that hold it are looked at; the
  reason (CAGE_HIDDEN) adds, for each hidden value without which the look
  would find more (`needed_values`), that house's other places of it, false.
  No literal of a house touches the cage, so such a look may meet a conflict
  that arose at a lower level: the search goes back there before the analysis.
  With redundant=45 (the default; a layout without cages has none) the 45
  rule's derived sums (puzzles/constraints/innies.py, `Sums`) are propagated
  too: a sum whose cells share houses as a cage (`KillerCages` again, reason
  kind DERIVED_SUM; past ROOM_FILLINGS combinations by `distinct_bounds`), the
  others by their bounds (`SumBounds`), each removal explained by the bounds it
  rests on (the exclusions below the others' least values, or above their
  greatest), lifted by the deduction's slack so that every literal is needed.
  On a Jigsaw of 12x12 and up it also keeps the law of leftovers (innies.py,
  `leftovers`) by a propagator of their own (`Leftovers`, reason kind
  LEFTOVER): a value in an area's cells outside the regions mostly inside it
  is in those regions' cells outside the area, and the reverse.
  On a puzzle with constraints (puzzles/constraints/: anti-knight, thermometers,
  ...; `ConstraintLinks`, only where there are some), a placement excludes from each
  cell a constraint links to it the values it forbids there (an exclusion's
  reason, "not both", as a house's), and at singles' fixpoint the cells that
  lost a value since are looked at (`ConstraintLinks.look`): each link from such a cell
  a is an arc of the constraint's filter (`Constraint.narrow`), and a value w
  of the linked cell b that no value left at a allows goes, with the reason
  (CONSTRAINT + the constraint's index) "b does not hold w, or a holds one of
  the values that allow it", fixed by the arc and w (`Links`). That is what
  narrows a thermometer to its bounds, and two values at a neighbour of a
  non-consecutive cell to the value between them.
- `analyze`: at a dead end the reasons are traced back along the trail to the
  first point every path to the clash passed through (the first unique
  implication point). That gives a nogood, stored as a clause; the search
  jumps back to the level where the clause forces its one free literal.
  Literals implied by the others are dropped (`redundant`: MiniSat's recursive
  minimisation), and two or more exclusions of lower levels made by one
  placement give way to "not that placement" (`shorten`).
- The VSIDS order (`VarOrder`, `bump`, `decay_activities`): each variable's activity
  grows when a conflict meets it and fades as conflicts go by; with bump=reasons
  (the default on Jigsaws of 16x16 and up) also when a nogood's literal rests on
  it (`bump_reasons_of`: reason-side bumping). The branching,
  a policy object the options choose (`Branching`, `policies`), picks the
  placement: with choose=mrv (the default but on Killers and Jigsaws of 16x16 and
  up, `Mrv`), MRV over the cells, as the seeds choose, and VSIDS within: of the
  cells with fewest values left, the most active value. With choose=vsids
  (`Vsids`; the default on Killers, with propagate=locked, and on Jigsaws of
  16x16 and up), MiniSat's rule: the most active free placement, whatever its
  cell (while no free placement has met a conflict, MRV's first value), from
  the order heap it keeps.
- The clause database (`add_nogood`, `nogoods`, `reduce_db`): stored nogoods
  are forgotten in part (glucose's rule): every few thousand conflicts, half
  of those whose literals span the most decision levels (LBD above 2) go,
  unless one is the reason of a present assignment.
- As in MiniSat, `Solver.search` runs one descent with an allowance of
  conflicts and says why it stopped. `run` (MiniSat's `solve`) decides what
  comes next: a restart, each descent's allowance given by the restarts'
  schedule, a policy object the options choose (`Schedule`): by default a
  Luby schedule (`Luby`: `unit` x 1 1 2 1 1 2 4 ... conflicts), as
  restart.py's cutoff=luby. The stored clauses and the activities are kept
  across restarts.
- Kissat's and CaDiCaL's policies, each an option, none the default (measured:
  docs/methods/cdcl.md). choose=modes alternates two modes within one search
  (`Modes`, the branching, and `ModeSchedule`, the schedule that switches it):
  focused (choose=mrv's rule, restarts of `unit`) and stable (choose=vsids's
  rule, a Luby schedule STABLE_UNIT times longer: reluctant doubling). The
  first lasts MODE_FIRST conflicts, the next as long, then 4, 4, 9, 9, ...
  times as many (Kissat's quadratic growth, counted here in conflicts); a
  descent stops at its mode's end and `run` restarts, where the schedule
  switches (`ModeSchedule.restarted`); clauses and activities are kept.
  restart=glucose (`Glucose`) restarts a (focused) descent once the fast moving
  average of the nogoods' LBD passes MARGIN times the slow one (`learned`,
  `due`). phase=on (`PhaseSaving`, around the rule of `choose`) is phase saving
  read for cells: a decision is a placement (the positive literal), so a cell's
  phase is the value it last held (`saved`, kept as `cancel_until` undoes it);
  the rule of `choose` picks the cell, the phase its value, while that is free.

MiniSat's names (Solver.h and Solver.cc of MiniSat 2.2), and this module's:

    MiniSat                               here
    Lit, Var, mkLit(x, sign)              Lit, Var, placement(x), exclusion(x)
    var(p), sign(p), ~p                   var(p), sign(p), neg(p)
    value(p): l_True, l_False, l_Undef    value[p]: TRUE, FALSE, UNDEF
    trail, trail_lim, qhead               trail, trail_lim, qhead
    decisionLevel(), newDecisionLevel()   decision_level(), new_decision_level()
    level(x), reason(x)                   level[x], reason[x]: a Reason (kind, lits)
    CRef_Undef                            NO_REASON (kind DECIDED)
    ca[reason(x)] read from c[1]          reason_lits(x)
    uncheckedEnqueue(p, from)             assign(p, reason)
    propagate()                           propagate(): each Propagator's propagate,
                                          then a look (Groups: the encoding's clauses,
                                          read by group; StoredClauses: two watched;
                                          LockedCandidates, KillerCages, ConstraintLinks)
    watches, attachClause(c)              StoredClauses: watches, attach(c, lits)
    ca (ClauseAllocator), Watcher{cref, blocker}  StoredClauses.arena, a watch's (place, blocker)
    analyze(confl, out_learnt, out_btlevel)  analyze(conflict) -> (nogood, back)
    pathC, out_learnt, p, index, seen     path, nogood, p, index (local, as there), seen
    abstractLevel(x)                      abstract_level(level[x])
    litRedundant(p, abstract_levels)      redundant(p, levels) (to_clear: the solver's)
    analyze_stack, analyze_toclear        stack, to_clear
    -                                     shorten (not MiniSat's: see analyze)
    cancelUntil(level)                    cancel_until(level)
    order_heap, pickBranchLit()           Vsids.order (a VarOrder), Branching.pick(s)
    varBumpActivity(x), varDecayActivity()  bump(x), decay_activities()
    var_inc, var_decay                    var_inc, var_decay
    learnt_clause, learnts                nogood (one drawn), nogoods (those stored)
    (a learnt clause stored, enqueued)    add_nogood(nogood, lbd)
    reduceDB(), locked(c)                 reduce_db() (glucose's rule), is_reason(c)
    search(nof_conflicts)                 search(allowance) -> Stop
    solve_()                              run(solver, solutions)
    luby(restart_inc, curr_restarts) * restart_first   Luby.allowance (the Schedule's)
    polarity[x] (phase saving)            PhaseSaving.saved[cell] (phase=on: a cell's last value)
    (MapleSAT's reason-side bumping)      bump_reasons_of(nogood) (bump=reasons)

Kissat's and CaDiCaL's names for the policies of choose=modes and restart=glucose:

    Kissat (CaDiCaL)                      here
    stable mode, focused mode             Modes.is_stable True, False (choose=modes)
    modeinit (stabilizeinit)              MODE_FIRST
    kissat_switch_search_mode (stabilizing)  ModeSchedule.restarted, at a restart in run
    reluctant doubling, reluctantint      the stable mode's Luby schedule, STABLE_UNIT x unit
    fast_glue, slow_glue (emagluefast, emaglueslow)  Glucose.fast, slow: FAST, SLOW (restart=glucose)
    restartmargin                         MARGIN
    phases.saved (phases)                 PhaseSaving.saved (phase=on)

(`is_reason` is MiniSat's locked(c): here "locked" names the rule, locked
candidates.) Minimisation is MiniSat 2.2.0's (ccmin_mode 2): `minimize` is
the loop of its analyze that drops literals, with the abstract levels, and
`redundant` its litRedundant (an explicit stack; a trace that reaches a level
none of the nogood's literals has is ruled out at once), with one change, as
later MiniSat versions do with seen_failed: a trace that fails leaves the
variables it marked NOT_IMPLIED, where 2.2.0 unmarks them, so that a later
trace stops there at once.

With solutions=2, a solution found is blocked by a clause (not all of its
search-placed values again) and the search goes on; a search that then runs out
proves the solution unique.

Effort (the meanings of depth_first.py, read for this search):
- nodes = guesses: values placed by decisions. Singles are at their fixpoint
  before each decision, so its cell always has another candidate left.
- backtracks: decisions undone by conflicts. A jump back undoes every decision
  above the level it returns to, not only the last.
- forced: values placed by propagation, in propagations that end without a
  conflict; eliminated (propagate=locked, a Killer puzzle, or one with
  constraints): candidates locked candidates, cages' sums and constraints'
  filters removed, counted alike.
- conflicts: dead ends met; learned: nogoods learned (one a conflict); restarts.

The narration for the trace (search/trace/) is `Narrator`, outside the
solver: the solver tells an `Observer`, when one is plugged in, what it did at
each step, in typed calls that carry all the narrator reads, and the narrator
tells them to the watch as the trace's steps, one typed call for each kind
(`NarratingWatch`). Tests plug in observers of their own to check each nogood
and each decision.

Counting bits: `popcount` (puzzles/bits.py, a table), as every compiled module
counts them; a one-bit mask's index, `bit_index` (there too: a de Bruijn multiplication).

Speed (compiled): literals and variables are fixed-width ints (`i64`), and the arrays
propagation and the analysis read at every step (values, levels, trail, marks, the
groups' places, the encoding's tables, a reason's literals) are native vectors
(`librt.vecs.vec`): items stored unboxed, read and written inline (see `Solver.assign`;
docs/results/compiled.md, "cdcl's hot arrays in native vectors": 0.47x the instructions). The
stored clauses lie in one such vector (`StoredClauses`), and the analysis keeps its stack and
marks in vectors of the solver's: no Python object is made or read per literal (docs/results/
cdcl.md, "Speed: conflicts a second").
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from functools import reduce
from itertools import accumulate
from operator import and_, or_
from typing import Any, Final, NamedTuple, Protocol, TypeAlias

from librt.vecs import append, pop, vec
from mypy_extensions import i32, i64, u8

from puzzles.bits import (
    bit_index,
    cage_supports,
    combination_supports,
    combinations_settled,
    every_kept,
    indices,
    popcount,
    required_values,
    residue_table,
    zeros,
)
from puzzles.conclusion import conclude
from puzzles.constraints import SEARCHED, Constraint, names
from puzzles.constraints.base import forbidding_values
from puzzles.constraints.innies import Leftover, derived_sums, leftovers, signed_sums
from puzzles.grid import Geometry, Grid, geometry, values_of
from puzzles.kept import kept
from puzzles.layouts import Layout
from puzzles.options import Option, contract, switch, whole_or
from puzzles.outcome import Budget, Outcome, Status

from .depth_first import BUDGET_SPENT, Limits, Stop, record
from .restart import luby_allowances
from .rules import crossings, sight
from .watch import Counters, NarratingWatch, watching

SEEN_LISTED: Final = 10  # a cage of up to so many cells keeps `Cages.seeing`'s answers in a list by the set of its
# cells asked about (1,024 items at most): a dictionary's lookup, its key boxed, cost some ten times a list's read
MODE_FIRST: Final = 1000  # choose=modes: the first focused mode lasts this many conflicts (Kissat's modeinit)
STABLE_UNIT: Final = 16  # choose=modes: the stable mode's Luby unit, this many times `unit` (reluctant doubling)
FAST: Final = 0.03  # restart=glucose: the fast moving average's weight of each nogood's LBD (Kissat's, CaDiCaL's)
SLOW: Final = 1e-5  # and the slow one's (both the plain mean while 1 / count is larger)
MARGIN: Final = 1.1  # a restart once fast > MARGIN * slow
RESTART_MIN: Final = 2  # and at least this many conflicts into the descent
UNLIMITED: Final = 1 << 62  # a descent's allowance of conflicts when the averages decide

# the side from which cage=auto looks at a cage in full: below it the combinations that fit settle 9x9 Killers in a
# fraction of the time, from it the full look settles more 16x16 ones in 10 s (docs/results/killer.md); from
# which hidden=auto is off (on the hard 9x9 Killers a house's hidden values shorten the search, on 16x16 ones they
# cost more than they save: docs/results/killer.md); and from which decay=auto is fast (on the hard 9x9 Killers the
# slow decay shortens the search, on 16x16 ones it lengthens the longest: docs/results/killer.md); and from which
# unit=auto is UNIT (on the hard 9x9 Killers restarts five times rarer shorten the search, on 16x16 ones they
# lengthen it: docs/results/killer.md)
FULL_CAGES_FROM: Final = 16
UNIT: Final = 100  # the Luby schedule's unit of conflicts (MiniSat's restart_first)
KILLER_UNIT: Final = 500  # unit=auto's on a Killer below FULL_CAGES_FROM

OPTIONS = {
    "propagate": Option("auto", "what propagation deduces, with its reasons: singles (naked and hidden), "
                        "or locked (and locked candidates: pointing and claiming); auto: locked on a Killer (a "
                        "puzzle whose cages' totals give the 45 rule's sums), singles on the others",
                        choices=("auto", "singles", "locked")),
    "unit": Option("auto", "conflicts allowed per unit of the Luby restart schedule (a whole number); auto: "
                   f"{KILLER_UNIT} on a Killer below {FULL_CAGES_FROM}x{FULL_CAGES_FROM} (its long searches restart "
                   f"less), {UNIT} on the others", convert=whole_or(1, "auto"), shape="auto|N"),
    "choose": Option("auto", "which placement a decision makes: mrv (of the cells with fewest values left, "
                     "the most active value: VSIDS breaks MRV's ties), vsids (the most active free "
                     "placement, MiniSat's rule), domwdeg (dom/wdeg, as the Interactive Sudoku Solver "
                     "chooses: the cell whose placements' activity, the conflicts it met, weighs most for its "
                     "values left, then its most active value), or modes (Kissat's and CaDiCaL's alternation: a "
                     "focused mode, mrv with Luby restarts of `unit`, and a stable mode, vsids with restarts "
                     f"{STABLE_UNIT} times rarer, switched after {MODE_FIRST} conflicts, then 1, 4, 4, 9, 9, "
                     "... times as many); auto: domwdeg on a Killer, vsids on a Jigsaw of 16x16 or more, mrv "
                     "on the others",
                     choices=("auto", "mrv", "vsids", "domwdeg", "modes")),
    "restart": Option("luby", "when a descent (of the focused mode, with choose=modes) restarts: luby (after "
                      "`unit` x 1 1 2 1 1 2 4 ... conflicts) or glucose (once the recent nogoods span more "
                      f"levels than those so far: a fast moving average of their LBD above {MARGIN} times a slow one)",
                      choices=("luby", "glucose")),
    "redundant": Option("45", "45: also the 45 rule's innie and outie sums of a Killer (puzzles/constraints/"
                        "innies.py), propagated with their reasons, so that the nogoods learn from them: a sum whose "
                        "cells share houses by its combinations, as a cage, the others by their bounds (a puzzle "
                        "without cages has none), and a Jigsaw's leftovers from 12x12 up (an area's cells outside "
                        "the regions mostly in it hold the values those regions hold outside it); "
                        "none: the cages and the houses alone", choices=("45", "none")),
    "cage": Option("auto", "a Killer cage's look (and a 45 rule's sum of different values): full (each value "
                   "some filling of the cage puts there: its combinations' matchings, arc consistency), or "
                   "combinations (the values of the combinations that fit the cells as a whole, a value one cell "
                   "alone can take that cell's: cheaper, weaker, as the Interactive Sudoku Solver looks); auto: "
                   f"full from {FULL_CAGES_FROM}x{FULL_CAGES_FROM} up, combinations below",
                   choices=("auto", "full", "combinations")),
    "bump": Option("auto", "which variables a conflict makes more active: met (those its analysis meets, MiniSat's "
                   "rule) or reasons (those too that the nogood's literals rest on: the variables of their reasons, "
                   "reason-side bumping, as MapleSAT's); auto: reasons on a Jigsaw of 16x16 or more, met on the "
                   "others", choices=("auto", "met", "reasons")),
    "required": switch(True, "a value every filling of a cage holds (a Killer cage's, or a 45 rule's sum of "
                       "different values) leaves every cell that shares a house with each of its places left in "
                       "the cage (as the Interactive Sudoku Solver's cages do)"),
    "hidden": Option("auto", "a value a house places only in a cage's cells is one the cage holds: on, its "
                     "look keeps only the combinations that hold it (a Killer cage's, or a 45 rule's sum of different "
                     "values), as the Interactive Sudoku Solver's sums read the rest of their house; off: the cage's "
                     f"cells alone; auto: on below {FULL_CAGES_FROM}x{FULL_CAGES_FROM}, off from it",
                     choices=("auto", "on", "off")),
    "phase": switch(False, "phase saving: a decision's cell gets the value it last held, while that is "
                    "still free (the rule of `choose` picks the cell)"),
    "decay": Option("auto", "how fast the activities (which `choose` reads) forget the conflicts: fast (each "
                    "conflict's bump 1 / 0.95 times the last's, MiniSat's) or slow (1 / 0.99 times: the last few "
                    f"hundred conflicts count about alike); auto: slow on a Killer below {FULL_CAGES_FROM}x"
                    f"{FULL_CAGES_FROM}, fast on the others", choices=("auto", "fast", "slow")),
}
COUNTERS = ("nodes", "guesses", "backtracks", "forced", "eliminated", "conflicts", "learned", "restarts")

VAR_DECAY: Final = 0.95  # VSIDS: the bump grows by 1 / 0.95 each conflict, so older bumps fade (MiniSat's)
SLOW_VAR_DECAY: Final = 0.99  # decay=slow: by 1 / 0.99, so the last few hundred conflicts count about alike
RESCALE: Final = 1e100  # all is scaled down once an activity passes this
FIRST_REDUCE: Final = 2000  # glucose: forget stored nogoods after 2000, 2300, 2600, ... conflicts
REDUCE_STEP: Final = 300
LEFTOVERS_FROM: Final = 12  # the side from which a Jigsaw's leftovers are kept (redundant=45)
KEEP_LBD: Final = 2  # stored nogoods spanning at most this many levels are kept for good
ROOM_FILLINGS: Final = 32  # redundant=45: a sum of different values with more combinations is looked at last
# redundant=45: a sum of different values of more cells is left out (16x16 and up: a 9x9's have at most 9). It lies in
# one house, whose other cells are (463 times in 499 on twenty 16x16 Killers) the cages wholly inside it, so it
# repeats what the house and they say, and its filter is the costliest (a look at a 13-cell sum took 4 to 12 times
# one at a cage of 3 or 4 cells); measured in docs/results/killer.md
ROOM_CELLS: Final = 9
ENDS_UP_TO: Final = 16  # the sides whose sums' bounds read a mask's least and greatest values from a table (`ends`)
TIME_CHECK: Final = 63  # read the clock every 64 decisions and every 64 conflicts


# -- literals (MiniSat's Lit) ----------------------------------------------------------------------
Var: TypeAlias = i64  # cell * n + (value - 1): "the cell holds the value"
Lit: TypeAlias = i64  # 2 * var (the placement) or 2 * var + 1 (the exclusion, "not")


def var(p: Lit) -> Var:
    """The variable of literal p."""
    return p >> 1


def value_of(x: Var, cell: i64, n: i64) -> i64:
    """Variable x's value index, x's cell (x // n, as `Solver.cell_of` holds it) known: x % n without a division."""
    return x - cell * n


def sign(p: Lit) -> bool:
    """True for a negative literal: an exclusion."""
    return (p & 1) == 1


def neg(p: Lit) -> Lit:
    """The negation of literal p."""
    return p ^ 1


def placement(x: Var) -> Lit:
    """The positive literal of variable x: its cell holds its value."""
    return 2 * x


def exclusion(x: Var) -> Lit:
    """The negative literal of variable x: its cell does not hold its value."""
    return 2 * x + 1


def native(lits: Sequence[Lit]) -> vec[i32]:
    """A copy of `lits` in a native vector of 32-bit items (a literal of 25x25 is below 2 ** 15), as
    reasons and the stored clauses keep them: half the memory, so more of them stay in the cache. Written
    as a comprehension, which mypyc builds item by item: `vec[i64](lits)` first asks the list for a
    buffer, and the error it gets back took 5% of cdcl's instructions on forum-hardest-1106 (callgrind)."""
    return vec[i32]([i32(q) for q in lits])


def listed(lits: vec[i32]) -> list[Lit]:
    """The literals of a native vector as a list: a conflict's clause, from an explanation built as a reason's."""
    return [i64(q) for q in lits]


# The value of a literal, kept per literal (a literal and its negation are set together).
UNDEF: Final = 0
TRUE: Final = 1
FALSE: Final = 2

# The kinds of reason: why a variable has its value (MiniSat's reason, a clause, told apart by what it is)
ReasonKind: TypeAlias = int
DECIDED: Final = 0  # a decision or a given: no reason (NO_REASON)
EXCLUDED: Final = 1  # excluded by placement p in one of its groups: the clause (not p or not x)
LAST_VALUE: Final = 2  # the last value left in its cell (a naked single): the cell's clause, one of its values
LAST_PLACE: Final = 3  # the last place left for a value in a unit (a hidden single): that clause, one of them
NOGOOD: Final = 4  # a stored nogood, learned at a conflict
LOCKED_CANDIDATES: Final = 5  # locked candidates: the value is in the group outside the crossing, or not here
SOLUTION_BLOCK: Final = 6  # a solution's block (solutions=2): not all of its search-placed values, kept for good
CAGE_SUM: Final = 7  # a Killer cage's sum: no filling of the cage puts the value here, its candidates as they are
# a sum the 45 rule derives (redundant=45): no filling puts the value here (a sum of different values, as a cage's), or
# the other cells' bounds leave no room for it (`SumBounds`)
DERIVED_SUM: Final = 8
# a Jigsaw's leftover (redundant=45; puzzles/constraints/innies.py `leftovers`, propagated by `Leftovers`): the value
# is in none of the cells of the leftover's other side, so not here either; or the other side holds it and this is
# the last cell of this side that may
LEFTOVER: Final = 9
# a value every filling of a cage holds leaves every cell that shares a house with each of its places left in the
# cage (`KillerCages.point`): the cage's candidates as they are, as its sum's reason, or not here
CAGE_HOUSE: Final = 10
# a Killer cage's look (or a 45 rule's sum of different values') with hidden=on, resting on a value some house places
# only in the cage (`KillerCages.hidden_values`): no combination that holds it puts the value here, the cage's
# candidates as they are and the house's other places of the hidden value gone, or not here
CAGE_HIDDEN: Final = 11
# a constraint's filter (puzzles/constraints/): no value a linked cell has left allows the value here; the kind of
# the layout's k-th constraint's removals is CONSTRAINT + k, so that the trace names the constraint
CONSTRAINT: Final = 12

# The marks of the analysis (`seen`)
UNSEEN: Final = 0
MARKED: Final = 1  # met by this analysis: in the nogood, resolved away, or shown to follow from the nogood
NOT_IMPLIED: Final = 2  # the minimisation found it does not follow from the nogood (kept for this nogood)


class Reason:
    """Why a literal is true: a clause all of whose other literals are false (MiniSat's reason, a
    clause reference). Its literals, `lits`, as its kind keeps them: an exclusion's, the one literal
    "not p" (the clause "not p or not x" is shared by everything p excludes: x's own is left out); a
    cage sum's, the cage's literals its look rested on (shared by every value the look removed, x's
    own left out, as an exclusion's); locked candidates', the group's placements outside the crossing (one
    reason a crossing, `Crossing.because`, x's own left out);
    a group's (LAST_VALUE, LAST_PLACE), all of the group's placements, x's among them; a stored
    clause's, in the stored clauses' arena: its reason is one of two shared ones (`STORED_NOGOOD`,
    `STORED_BLOCK`, whose `at` is STORED) and its place there is the solver's `reason_at[x]`, so
    that an implication by a stored clause does not touch its Clause. Read them with
    `Solver.reason_lits`. The encoding's reasons are made once, shared by every assignment they
    explain (`Encoding.excluded_by`, `Encoding.last_left`). The literals are kept in a native vector
    (a copy of the list given), as the trail is (see `Solver.assign`): the analysis and the watches
    read them in place, without a boxed int each; a reason made as the search goes builds its vector
    directly (`KillerCages.explain`, `SumBounds.bounds`), no list of boxed literals first."""

    def __init__(self, kind: ReasonKind, lits: vec[i32]) -> None:
        self.kind = kind
        self.lits = lits
        self.at: i64 = OWN  # OWN: its literals are `lits`; STORED: see above; a stored Clause's, its arena place


OWN: Final = -1  # a reason whose literals are its own `lits`
STORED: Final = -2  # the reason of an assignment a stored clause implied: its literals in the arena (Solver.reason_at)
NO_REASON: Final = Reason(DECIDED, vec[i32]())  # a decision's or a given's (MiniSat's CRef_Undef)


def stored_reason(kind: ReasonKind) -> Reason:
    """The reason shared by every assignment a stored clause of this kind implied."""
    reason = Reason(kind, vec[i32]())
    reason.at = STORED
    return reason


STORED_NOGOOD: Final = stored_reason(NOGOOD)
STORED_BLOCK: Final = stored_reason(SOLUTION_BLOCK)


class Clause(Reason):
    """A clause made as the search goes: a nogood or a solution's block. One of two literals or more is stored
    (`StoredClauses.attach`): its literals move to the stored clauses' arena, at `at` (`lits` is left empty),
    where the first two are the watched ones and, while it is the reason of an assignment, the literal it implies
    comes first; what it implies has a shared reason (`STORED_NOGOOD`, `STORED_BLOCK`) and its place
    (`Solver.reason_at`). A unit one is a reason itself, with its own `lits`."""

    def __init__(self, kind: ReasonKind, lits: list[Lit], lbd: int = 0) -> None:
        super().__init__(kind, native(lits))
        self.lbd = lbd  # literal block distance: how many decision levels its literals span
        self.deleted = False
        self.number: i64 = -1  # its number among the stored clauses, once attached (StoredClauses)


FORGOTTEN: Final = Clause(NOGOOD, [])  # the place of a forgotten clause among the stored ones (StoredClauses)


class Crossing:
    """A crossing of two houses (a line and a box in classic Sudoku), seen from the group of a value in one of them."""

    def __init__(self, inside: int, across: int, across_inside: int, outside: list[Lit]) -> None:
        # (native ints: a look reads them at each confined group)
        self.inside: i64 = inside  # the group's bits inside the crossing
        self.across: i64 = across  # the group of the same value in the other house
        self.across_inside: i64 = across_inside  # that group's bits inside the crossing: they stay
        self.outside = outside  # the group's placements outside the crossing: all false when it applies
        # the reason of every removal it makes across: "the value is in the group outside the crossing, or not
        # here", the removed placement's own literal left out (as an exclusion's), one for all of them
        self.because = Reason(LOCKED_CANDIDATES, native(outside))


class Encoding:
    """The complete encoding's clauses as propagation reads them, by group: a cell (its values), or a
    unit and a value (its cells). Of each group's variables one holds (at-least-one: a LAST_VALUE or
    LAST_PLACE reason) and a placement excludes the others (at-most-one: EXCLUDED). A group's places
    are a mask of n bits (n <= 25), so every mask the propagation touches is a machine word once
    compiled.

    group_lits:  per group, the placements of its variables, by their bit in the group's mask
    group_lit:   the same, flat: the placement of bit b of group g at g * n + b
    var_groups:  per variable, its groups (cell, row-value, column-value, region-value, then one for each
                 extra house of its cell), each with its bit there, g * 32 + b: those of x from var_start[x]
                 to var_start[x + 1] (four each in classic Sudoku)

    The tables propagation reads at every literal (group_lit, var_groups, var_start) hold 32-bit items: half
    the memory, so more of them stay in the cache.
    excluded_by: per variable, the reason of each exclusion its placement makes
    last_left:   per group, the reason of a value placed as the group's last place
    look:        with propagate=locked, per mask m, a bit (bit m & 7 of byte m >> 3): 1 if a group with
                 these places is to be looked at by locked candidates, two places or more, all inside one
                 crossing (4 MB at 25x25, built once per process for each layout). A bit a mask, not a
                 byte: 8 times smaller, as fast at 9x9 and no slower at 25x25 (measured: 0.82 to 1.04 of
                 the byte table's time); a test of the mask against its crossings, also tried, took 3
                 times as long as a look at 9x9
    crossings:   per group, its unit's crossings with other houses (none for a cell's group)
    """

    def __init__(self, geo: Geometry, locked: bool) -> None:
        n, cells = geo.side, geo.cells
        self.n = n
        self.group_lits: list[list[Lit]] = [[placement(cell * n + v) for v in range(n)] for cell in range(cells)]
        self.group_lits += [[placement(cell * n + v) for cell in unit] for unit in geo.units for v in range(n)]
        self.group_lit = vec[i32]([i32(q) for lits in self.group_lits for q in lits])
        self.first_house_group: i64 = cells  # a house's group of value v: first_house_group + house * n + v
        position = {(u, cell): k for u, unit in enumerate(geo.units) for k, cell in enumerate(unit)}
        var_groups: list[int] = []
        var_start: list[int] = [0]
        for cell in range(cells):
            for v in range(n):
                var_groups += [cell * 32 + v] + [(cells + unit * n + v) * 32 + position[unit, cell]
                                                 for unit in geo.units_of(cell)]
                var_start.append(len(var_groups))
        self.var_groups, self.var_start = vec[i32](var_groups), vec[i32](var_start)
        self.excluded_by = vec[Reason]([Reason(EXCLUDED, native([exclusion(x)])) for x in range(cells * n)])
        self.last_left = vec[Reason]([Reason(LAST_VALUE if g < cells else LAST_PLACE, native(lits))
                                      for g, lits in enumerate(self.group_lits)])
        look = bytearray(((1 << n) + 7) // 8 if locked else 0)
        self.crossings: list[list[Crossing]] = [[] for _ in self.group_lits]
        if locked:
            self.add_crossings(geo, look)
        self.look = bytes(look)

    def add_crossings(self, geo: Geometry, look: bytearray) -> None:
        """The crossings of search/rules.py, as each unit's value groups see them; the masks that call
        for a look marked in `look`."""
        t, n = crossings(geo), self.n
        bit = [{cell: 1 << k for k, cell in enumerate(unit)} for unit in geo.units]
        marked: set[tuple[int, ...]] = set()  # the shapes whose masks are marked
        for unit in range(len(geo.units)):
            for v in range(n):
                g = geo.cells + unit * n + v
                for s in t.of_unit[unit]:
                    first, second = t.first[s], t.second[s]
                    across = second if unit == first else first
                    rest = t.first_rest[s] if unit == first else t.second_rest[s]
                    self.crossings[g].append(Crossing(
                        sum(bit[unit][cell] for cell in t.cells[s]), geo.cells + across * n + v,
                        sum(bit[across][cell] for cell in t.cells[s]), [placement(cell * n + v) for cell in rest]))
                shape = tuple(c.inside for c in self.crossings[g])
                if shape not in marked:
                    marked.add(shape)
                    for m in confined_masks(shape):
                        look[m >> 3] |= 1 << (m & 7)


def confined_masks(shape: tuple[int, ...]) -> set[int]:
    """Each mask of two bits or more inside some crossing of `shape` (their bits)."""
    masks = set()
    for inside in shape:
        m = inside
        while m:  # every submask
            if m & (m - 1):
                masks.add(m)
            m = (m - 1) & inside
    return masks


@kept(8)  # a few houses' (classic Sudoku's sizes): a file of Jigsaws has its own a puzzle
def encoding(houses: Geometry, locked: bool) -> Encoding:
    """The encoding of a layout's houses: asked with the houses' own geometry (one object for every layout with
    those houses), so that every Killer of a file (each its own layout, its cages) shares one."""
    return Encoding(houses, locked)


Fillings: TypeAlias = "tuple[int, ...] | None"  # a room's value sets (masks), or None: any different values


def rows(lists: list[list[int]]) -> vec[vec[i64]]:
    """The lists as native vectors (compiled, a list's items would be unboxed at each read)."""
    return vec[vec[i64]]([vec[i64](items) for items in lists])


def held_by(scopes: list[list[int]], cells: int) -> vec[vec[i64]]:
    """Per cell (of `cells`), the numbers of the scopes that hold it, in order."""
    holders: list[list[int]] = [[] for _ in range(cells)]
    for k, scope in enumerate(scopes):
        for cell in scope:
            holders[cell].append(k)
    return rows(holders)


class Cages:
    """A layout's rules that keep a room (puzzles/constraints/: `Constraint.ROOMS`, a Killer's cages) as
    propagation reads them (built only for a layout that has some); "cage" below is such a rule.

    A cage's cells (its `scope`) hold different values: a placement excludes its value from the cage's other
    cells, the reason an exclusion's ("not both", EXCLUDED), as a house's. A cage whose values are some sets
    alone (its `fillings`: a Killer cage's with a total, the sets that sum to it) is also looked at
    (`KillerCages.look_at`) once singles are at their fixpoint, if an exclusion of one of the values its
    fillings hold has been propagated since (other than its last look's own: after a look every value left has a
    filling).

    cells:   per cage with fillings, its cells (the others have only the exclusions)
    combinations: per cage with fillings, the value sets it may hold (masks): its filter's
    values:  per cage with fillings, the values some filling of it holds (a mask): the only values
             whose absence from a cell tells anything about the cage, and so its reasons' only literals
    of_cell: per cell, the cages with fillings that hold it
    peers:   per cell, the other cells of every cage that holds it that share no house with it (a
             house's exclusions are made already)
    inside:  per cage with fillings, its cells as the geometry's `Sight` (search/rules.py) holds sets of cells,
             which `seeing` reads (`KillerCages.point`: the cells outside a cage that see every place of a value),
             each found once per layout, cage and set of its cells (`seen`: a cage of up to `SEEN_LISTED` cells
             keeps them in a list by the set, a larger one in a dictionary)
    """

    def __init__(self, n: int, geo: Geometry, rooms: list[tuple[tuple[int, ...], Fillings]]) -> None:
        """`rooms`: each rule's cells and its fillings (None: any different values)."""
        houses = geo.peers  # per cell, the cells that share a house with it
        scopes: list[list[int]] = []
        self.values = vec[i64]()
        self.common = vec[i64]()  # per cage with fillings, the values every one of its fillings holds (a mask)
        # (vectors of vectors, as the watches are: a list's item vector would be unboxed at each read)
        self.combinations = vec[vec[i64]]()
        for scope, fillings in rooms:
            if fillings is not None:
                scopes.append(list(scope))
                self.values = append(self.values, reduce(or_, fillings, 0))
                self.common = append(self.common, reduce(and_, fillings, reduce(or_, fillings, 0)))
                self.combinations = append(self.combinations, vec[i64]([c for c in fillings]))
        self.cells = rows(scopes)
        self.of_cell = held_by(scopes, n * n)
        joined: list[set[int]] = [set() for _ in range(n * n)]  # per cell, the cells of the rooms that hold it
        for scope, _ in rooms:
            for cell in scope:
                joined[cell].update(scope)
        self.peers = rows([sorted(joined[cell] - {cell} - set(houses[cell])) if joined[cell] else []
                           for cell in range(n * n)])
        self.sight = sight(geo)
        self.inside = vec[vec[i64]]([self.sight.within(cells) for cells in scopes])  # per cage, its cells in words
        self.seen: list[list[vec[i64] | None]] = [[None] * (1 << len(cells)) if len(cells) <= SEEN_LISTED else []
                                                  for cells in scopes]
        self.seen_large: list[dict[i64, vec[i64]]] = [{} for _ in scopes]
        # per cage with fillings, the houses it has two cells or more in, in pairs: the house's number and the
        # cage's places there (bit i: the house's i-th cell)
        self.units = rows([list(unit) for unit in geo.units])  # (native: an explanation reads a house's cells)
        self.housed = vec[vec[i64]]()
        for cells in scopes:
            inside: dict[int, int] = {}
            for cell in cells:
                for u in geo.units_of(cell):
                    inside[u] = inside.get(u, 0) | 1 << geo.units[u].index(cell)
            self.housed = append(self.housed, vec[i64]([x for u in sorted(inside) if inside[u] & (inside[u] - 1)
                                                        for x in (u, inside[u])]))
        # per cage with fillings, the cells outside it of each house in `housed`, in turn, each house's preceded by
        # how many they are (a value none of them can hold is one the house places in the cage)
        self.others = vec[vec[i64]]()
        for housed in self.housed:
            others: list[int] = []
            for j in range(0, len(housed), 2):
                unit, inside_mask = geo.units[housed[j]], housed[j + 1]
                outside = [unit[i] for i in range(len(unit)) if not inside_mask >> i & 1]
                others += [len(outside), *outside]
            self.others = append(self.others, vec[i64](others))

    def seeing(self, k: int, holding: i64) -> vec[i64]:
        """The cells outside cage k that share a house with each of its cells in `holding` (bit i: its i-th
        cell), in order; found once for each (`seen`: a cage's look asks the same of it again and again)."""
        table = self.seen[k]
        if len(table) > 0:
            answer = table[holding]
            if answer is None:
                answer = table[holding] = self.find_seeing(k, holding)
            return answer
        known = self.seen_large[k]
        found = known.get(holding)
        if found is None:
            found = known[holding] = self.find_seeing(k, holding)
        return found

    def find_seeing(self, k: int, holding: i64) -> vec[i64]:
        """What `seeing` answers, found anew."""
        cells = self.cells[k]
        places = vec[i64]([cells[i] for i in range(len(cells)) if holding >> i & 1])
        return self.sight.seeing_each(places, self.inside[k])


@kept(8)
def cage_rules(lay: Layout) -> Cages:
    n = lay.side
    return Cages(n, geometry(lay), [(rule.scope(), rule.fillings(n)) for rule in lay.constraints if rule.ROOMS])


class Sums:
    """The 45 rule's sums (puzzles/constraints/innies.py's `derived_sums`: a Killer's innies and outies) as
    propagation reads them, built only for a layout that has some (with redundant=45). A sum whose cells all share
    a house with each other holds different values: it is a room with the combinations of its total (`rooms`, kept
    as a cage is, by `KillerCages`); the others' values may repeat, and they are kept by their bounds (`SumBounds`).

    rooms:   the sums of different values, as `Cages`, with at most ROOM_FILLINGS combinations (of at most
             ROOM_CELLS cells: a larger one is left out)
    wide:    those with more, kept by `distinct_bounds` (cheaper than their combinations), looked at last;
             wide_totals: their totals
    cells:   per sum kept by its bounds, its cells (the 45 rule's, then innies less outies: `signed_sums`)
    totals:  per such sum, its total (an outie counting n + 1 less its value)
    plus:    per such sum, how many of its cells are added as they are (the others are outies)
    of_cell: per cell, the sums kept by their bounds that hold it
    """

    def __init__(self, lay: Layout) -> None:
        n, houses = lay.side, geometry(lay).peers
        seen = [set(peers) for peers in houses]
        rooms: list[tuple[tuple[int, ...], Fillings]] = []
        wide: list[tuple[tuple[int, ...], Fillings]] = []
        self.wide_totals: list[int] = []
        scopes: list[list[int]] = []
        totals: list[int] = []
        plus: list[int] = []
        for known in derived_sums(lay):
            if all(b in seen[a] for i, a in enumerate(known.cells) for b in known.cells[i + 1:]):
                if len(known.cells) > ROOM_CELLS:
                    continue
                fillings = known.fillings(n)
                if len(fillings) <= ROOM_FILLINGS:
                    rooms.append((known.cells, fillings))
                else:
                    wide.append((known.cells, fillings))
                    self.wide_totals.append(known.total)
            else:
                scopes.append(list(known.cells))
                totals.append(known.total)
                plus.append(len(known.cells))
        for signed in signed_sums(lay):  # innies less outies: an outie's value v read as n + 1 - v, added
            scopes.append([*signed.plus, *signed.minus])
            totals.append(signed.counted(n))
            plus.append(len(signed.plus))
        # (vectors: a list's items would be unboxed at each read of a look)
        self.cells = rows(scopes)
        self.totals = vec[i64](totals)
        self.plus = vec[i64](plus)
        self.rooms = Cages(n, geometry(lay), rooms)
        self.wide = Cages(n, geometry(lay), wide)
        self.of_cell = held_by(scopes, n * n)


@kept(8)
def sum_rules(lay: Layout) -> Sums:
    return Sums(lay)


# a value no combination of a cage holds leaves its cells, whatever else holds
CAGE_FACT: Final = Reason(CAGE_SUM, vec[i32]())


class Links:
    """A layout's constraints (puzzles/constraints/) as propagation reads them (built only for a layout that has
    some): their links, each a pair of cells (a, b) where a value v at a forbids the values `forbids[v]` at b.

    A placement at a excludes what it forbids at each linked cell, the reason an exclusion's ("not both",
    EXCLUDED), as a house's. Each link is also an *arc* of the constraint's filter (`Constraint.narrow`, read
    here link by link): a value w at b goes once none of the values a has left allows it. Its reason is fixed
    by the link and w: "b does not hold w, or a holds one of the values that allow it" (those all false), one
    clause the constraint implies, made once (an arc with no value allowing w removes it at the root, resting
    on nothing). Only *deep* values are looked at: those two values or more at a forbid (a value one value
    forbids goes only when a has that value alone, which singles place, and the placement excludes it).
    A cell's arcs are looked at (`ConstraintLinks.look`) once singles are at their fixpoint, if it lost a value
    since; every cell with arcs is looked at once at the start.

    out_cells:   per cell a, the cells b its links reach (several links between two cells joined)
    out_forbids: per cell a, per link k and value v, the values v forbids at b: at k * n + v - 1
    arcs:        per cell a, the arcs from it with a deep value (indices)
    arc_cell:    per arc, the cell b whose values it may remove
    arc_deep:    per arc, the deep values of b (a mask)
    arc_allow:   per arc and value w of b, the values of a that allow w: at arc * n + w - 1
    arc_reason:  per arc and value w of b, the reason of w's removal, alike
    """

    def __init__(self, lay: Layout) -> None:
        n, geo = lay.side, geometry(lay)
        full = (1 << n) - 1
        self.out_cells: list[list[int]] = [[b for b, _ in geo.links[a]] for a in range(n * n)]
        self.out_forbids: list[list[int]] = [[f[v] for _, f in geo.links[a] for v in range(1, n + 1)]
                                             for a in range(n * n)]
        self.arcs: list[list[int]] = [[] for _ in range(n * n)]
        self.arc_cell: list[int] = []
        self.arc_deep: list[int] = []
        self.arc_allow: list[int] = []
        self.arc_reason: list[Reason] = []
        for k, rule in enumerate(lay.constraints):
            for link in rule.links(n):
                forbidding = forbidding_values(link, n)
                deep = sum(1 << (w - 1) for w in range(1, n + 1) if popcount(forbidding[w - 1]) > 1)
                if not deep:
                    continue
                self.arcs[link.a].append(len(self.arc_cell))
                self.arc_cell.append(link.b)
                self.arc_deep.append(deep)
                for w in range(1, n + 1):
                    allow = full & ~forbidding[w - 1]
                    self.arc_allow.append(allow)
                    allowing = [placement(link.a * n + v - 1) for v in range(1, n + 1) if allow >> (v - 1) & 1]
                    self.arc_reason.append(Reason(CONSTRAINT + k, native(allowing)))


@kept(8)
def link_rules(lay: Layout) -> Links:
    return Links(lay)


class Waiting:
    """Things to look at again (cages, or cells whose links may narrow another), each once, in the order of their
    first change since the last look: `touch` when one changed, `next` to look at the first, `clear` after a
    conflict (the assignments that touched them are undone)."""

    def __init__(self, size: int) -> None:
        self.waiting = zeros(size)  # per thing, 1 while it waits
        # the things waiting, first touched first: `count` of them from `head` on, in a ring (each waits once at a
        # time, so `size` places hold them all; written in place, never appended to)
        self.order = zeros(max(size, 1))
        self.head: i64 = 0
        self.count: i64 = 0

    def pending(self) -> bool:
        return self.count > 0

    def touch(self, k: i64) -> None:
        if not self.waiting[k]:
            self.waiting[k] = 1
            at = self.head + self.count
            if at >= len(self.order):
                at -= len(self.order)
            self.order[at] = k
            self.count += 1

    def next(self) -> i64:
        """The first waiting (there is one): it waits no longer."""
        k = self.order[self.head]
        self.head += 1
        if self.head == len(self.order):
            self.head = 0
        self.count -= 1
        self.waiting[k] = 0
        return k

    def clear(self) -> None:
        while self.count > 0:
            self.next()


# -- propagators ------------------------------------------------------------------------------------
class Propagator:
    """One rule's propagation, as a Gecode propagator: what each literal of the trail implies at once
    (`propagate`, through the watches or tables it owns), and for a rule that looks further, what it
    deduces once the per-literal propagation is at its fixpoint (`look`, over the queue it owns: `pending`,
    `clear`). Each deduction goes on the trail with its explanation, the clause behind it (a `Reason`, all
    of whose other literals are false), made as it deduces, as MiniSat keeps a clause for each reason: the
    analysis reads it in place. Each propagator's `explain` (or its tables, made once) gives its clauses.
    `Solver.propagate` walks the propagators in order for each literal, then lets the first with a look
    pending look."""

    def start(self, s: Solver) -> None:
        """At the root, before the givens are propagated: what to look at once."""

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """What literal p of the trail implies at once: the clause made false at a conflict, else None."""
        return None

    def pending(self) -> bool:
        """Whether a look is waiting."""
        return False

    def look(self, s: Solver) -> list[Lit] | None:
        """At the fixpoint: looks until something is deduced (the per-literal propagation comes first
        again) or a conflict is found (its clause, every literal false)."""
        return None

    def clear(self) -> None:
        """After a conflict: nothing waits (the assignments that queued it are being undone)."""


class Queued(Propagator):
    """A propagator that looks over a queue of its own (`waiting`: cages, sums, rules or cells, the first touched
    first), each item's `look_at` in turn, until one deduces something (the per-literal propagation comes first
    again) or is a conflict (its clause, every literal false), after which nothing waits."""

    waiting: Waiting

    def pending(self) -> bool:
        return self.waiting.pending()

    def look(self, s: Solver) -> list[Lit] | None:
        waiting = self.waiting
        while waiting.pending():
            conflict = self.look_at(s, waiting.next())
            if conflict is not None:
                waiting.clear()
                return conflict
            if s.qhead < s.assigned:
                return None
        return None

    def look_at(self, s: Solver, k: int) -> list[Lit] | None:
        """Item k of the queue: what it deduces goes on the trail; the clause of a conflict, else None."""
        return None

    def clear(self) -> None:
        self.waiting.clear()


class Groups(Propagator):
    """The houses' groups (`Encoding`: a cell's values, a value's places in a unit): naked and hidden singles,
    the complete encoding's clauses read by group. A placement excludes the other variables of its groups
    (explained by "not both": `Encoding.excluded_by`); an exclusion leaves its groups one place fewer, a group
    with none left a conflict (its clause, "one of these") and a group with one left places it (explained by
    the group's clause: `Encoding.last_left`). A group left with two places or more, all inside a crossing, is
    handed to locked candidates when they are looked for (`locked`: they subscribe to the groups' narrowing)."""

    def __init__(self, enc: Encoding, locked: LockedCandidates | None) -> None:
        self.enc = enc
        self.locked = locked

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """Placement p: the other variables of its groups not yet false become so; a conflict if one of them
        is placed (the clause: not both). Exclusion p: its groups have one place fewer. A group with none
        left is a conflict (its clause: one of them); one with one place left places it (a naked single in
        a cell, a hidden single in a unit); one whose places all lie inside a crossing goes to locked
        candidates. (One method for both: it runs for every literal of the trail.)"""
        enc = self.enc
        x = var(p)
        if not sign(p):
            value, places, n, group_lit, var_groups = s.value, s.places, s.n, enc.group_lit, enc.var_groups
            because = enc.excluded_by[x]
            for k in range(i64(enc.var_start[x]), i64(enc.var_start[x + 1])):
                g = i64(var_groups[k])
                others = places[g >> 5] & ~(1 << (g & 31))
                g >>= 5
                while others:
                    low = others & -others
                    others ^= low
                    q = i64(group_lit[g * n + bit_index(low)])
                    if value[q] == TRUE:
                        return [neg(p), neg(q)]
                    if value[q] == UNDEF:
                        s.assign(neg(q), because)
            return None
        # (an exclusion: four groups in classic Sudoku; the tables are read where they are, not held in locals,
        # each of which the compiled code would count a reference to)
        places = s.places  # (one reference counted a call: written in place, it was counted at each group)
        for k in range(i64(enc.var_start[x]), i64(enc.var_start[x + 1])):
            g = i64(enc.var_groups[k])
            bit = i64(1) << (g & 31)
            g >>= 5
            m = places[g] ^ bit
            places[g] = m
            if m == 0:
                return list(enc.group_lits[g])
            if m & (m - 1) == 0:
                q = i64(enc.group_lit[g * s.n + bit_index(m)])
                if s.value[q] == UNDEF:
                    s.assign(q, enc.last_left[g])
                    s.placed_now += 1
            elif self.locked is not None and enc.look[m >> 3] >> (m & 7) & 1:
                locked = self.locked
                locked.confined[locked.queued] = g
                locked.queued += 1
        return None


class LockedCandidates(Propagator):
    """propagate=locked: of two houses that cross in two cells or more (search/rules.py's `crossings`), a
    value whose places left in one lie in the crossing leaves the rest of the other. The houses' groups queue
    each group an exclusion leaves with its places all inside a crossing (`confined`: it subscribes to their
    narrowing, so it propagates nothing of its own per literal); the look, at singles' fixpoint, empties the
    group across it outside the crossing, each removal explained by the crossing's reason (`Crossing.because`)."""

    def __init__(self, enc: Encoding) -> None:
        self.enc = enc
        # groups whose places lie inside a crossing, in the order they came to: the first `queued` items (written in
        # place, as the trail: between two looks each exclusion queues each of its groups once at most)
        self.confined = zeros(len(enc.var_groups))
        self.queued: i64 = 0

    def pending(self) -> bool:
        return self.queued > 0

    def look(self, s: Solver) -> list[Lit] | None:
        """Each confined group whose places still all lie inside a crossing empties the group across it
        outside the crossing. Never a conflict: the group across keeps its places inside the crossing."""
        enc, value, places = self.enc, s.value, s.places
        confined = self.confined
        for i in range(self.queued):
            g = confined[i]
            m = places[g]
            if not m & (m - 1):
                continue  # a single by now (or none): its cell's value is placed, or a conflict is near
            for crossing in enc.crossings[g]:  # (a few: tested in turn, cheaper than a table of masks)
                if m & ~crossing.inside:
                    continue
                gone = places[crossing.across] & ~crossing.across_inside
                lits = enc.group_lits[crossing.across]
                while gone:
                    low = gone & -gone
                    gone ^= low
                    q = lits[bit_index(low)]
                    if value[q] == UNDEF:
                        s.assign(neg(q), crossing.because)
        self.queued = 0
        return None

    def clear(self) -> None:
        self.queued = 0


class KillerCages(Queued):
    """A Killer's cages (`Cages`): a placement excludes its value from its cages' other cells that share no
    house with it (explained by "not both", as a house's); a cage with a total whose candidates lost a value
    one of its combinations holds waits for a look, at singles' fixpoint (`look_at`): the cage filter
    (the kind's, puzzles.bits `supports`; with cage=combinations the cheaper, weaker `combination_supports`) says
    what each cell can still hold, and the rest goes, explained by the cage's candidates as they are (`explain`:
    either look's removals follow from them); a cage with no filling left is a conflict. With required=on a value
    every filling holds then leaves every cell outside the cage that sees all its places in it (`point`). With
    hidden=on the look keeps only the combinations that hold the values some house places only in the cage's cells
    (`hidden_values`), its reason the house's other places of each it needed (`needed_values`)."""

    def __init__(self, cages: Cages, n: int, kind: ReasonKind = CAGE_SUM, totals: list[int] | None = None,
                 cheap: bool = False, required: bool = False, hidden: bool = False) -> None:
        self.cages = cages
        self.points = required  # a value every filling holds leaves every cell that sees all its places in the cage
        self.hidden = hidden  # a value a house places only in the cage: the cage's combinations without it go
        # per cage, the values its cells held at its last look's end and the values every combination within them
        # holds (`point`)
        self.available = zeros(len(cages.cells))
        self.needed = zeros(len(cages.cells))
        self.n: i64 = n
        self.cheap = cheap  # cage=combinations: the combinations that fit (`combination_supports`), not the filter
        # with the cages' totals, the filter is `distinct_bounds` (cheaper, weaker: for sums with many combinations)
        self.wide = totals is not None
        self.totals: list[int] = [] if totals is None else totals
        self.kind = kind  # its reasons' (CAGE_SUM; DERIVED_SUM for the 45 rule's sums of different values)
        # a value no combination holds: no reason
        self.fact = CAGE_FACT if kind == CAGE_SUM else Reason(kind, vec[i32]())
        self.waiting = Waiting(len(cages.cells))  # the cages with a total to be looked at
        self.looked: list[Reason] = [NO_REASON] * len(cages.cells)  # per cage, its last removals' explanation
        # per cage, the fillings its filter found, kept across looks and backjumps (`cage_supports`' residues)
        self.residues = vec[vec[i64]]([residue_table(len(cells)) for cells in cages.cells])
        # per cage, the vectors its look writes (its cells' candidates, and the combinations' passes: `look_at`)
        self.masks = vec[vec[i64]]([zeros(len(cells)) for cells in cages.cells])
        self.one = vec[vec[i64]]([zeros(len(cells)) for cells in cages.cells])
        self.other = vec[vec[i64]]([zeros(len(cells)) for cells in cages.cells])
        # an explanation as `explain` writes it: room for a cage's every value and a house's places of each hidden one
        room: int = (max((len(cells) for cells in cages.cells), default=0) + n) * n
        self.explained = vec[i32]([0] * room)
        self.of_cell = cages.of_cell  # per cell, the cages that hold it and are looked at (`retire_houses`)

    def start(self, s: Solver) -> None:
        """Every cage with a total is looked at once at the root, givens or not."""
        for k in range(len(self.cages.cells)):
            self.waiting.touch(k)

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """A placement excludes its value from the other cells of its cages that share no house with it
        (the clause: not both), a conflict if one holds it; an exclusion of a value some combination of
        a cage holds leaves that cage to be looked at."""
        cages, n = self.cages, self.n
        x = var(p)
        cell = s.cell_of[x]
        v = value_of(x, cell, n)
        if not sign(p):
            value, because = s.value, s.enc.excluded_by[x]
            for other in cages.peers[cell]:
                q = placement(other * n + v)
                if value[q] == TRUE:
                    return [neg(p), neg(q)]
                if value[q] == UNDEF:
                    s.assign(neg(q), because)
            return None
        waiting = self.waiting
        for k in self.of_cell[cell]:
            # a look's own removals leave its cage with a filling for each value left: no need to look again; but
            # not `distinct_bounds`'s (a sum's bounds move as its cells lose values: its look must come again)
            if cages.values[k] >> v & 1 and not waiting.waiting[k] and (self.wide or s.reason[x] is not self.looked[k]):
                waiting.touch(k)
        return None

    def retire_houses(self, s: Solver) -> bool:
        """At level 0, once the root's propagation is done: a cage (here a 45 rule's sum of different values) that
        is a house's cells but those placed, with one combination, the values they leave, says what the house says.
        Looked at with the combinations that fit, on rows, columns and boxes alone (`Solver.retiring`), it can find
        nothing that singles and locked candidates, which come before it, have not found: it is looked at no more.
        (A whole house's, of all its values, is one.) Whether every one is."""
        cages, places = self.cages, s.places
        retired: set[int] = set()
        for k in range(len(cages.cells)):
            if len(cages.combinations[k]) != 1:
                continue
            held, housed = cages.combinations[k][0], cages.housed[k]
            for j in range(0, len(housed), 2):
                unit, inside = cages.units[housed[j]], housed[j + 1]
                if popcount(inside) == len(cages.cells[k]) and all(
                        inside >> i & 1 or placed_outside(places[unit[i]], held) for i in range(len(unit))):
                    retired.add(k)
        if retired:
            self.of_cell = vec[vec[i64]]([vec[i64]([k for k in ks if k not in retired]) for ks in cages.of_cell])
        return len(retired) == len(cages.cells)

    def look_at(self, s: Solver, k: int) -> list[Lit] | None:
        """Cage k's sum: each value of a cell that no filling of the cage puts there (the cage filter,
        `supports`) goes; a cage with no filling left is a conflict. Both explained by the cage's
        candidates as they are (`explain`)."""
        n, value, places, cages = self.n, s.value, s.places, self.cages
        cells, union = cages.cells[k], cages.values[k]
        for cell in cells:  # a value no combination holds goes at the root's first look, resting on nothing
            outside = places[cell] & ~union
            while outside:
                low = outside & -outside
                outside ^= low
                q = placement(cell * n + bit_index(low))
                if value[q] == UNDEF:
                    s.assign(neg(q), self.fact)
        masks = self.masks[k]  # (read by this look alone: written anew at each)
        for i in range(len(cells)):
            masks[i] = places[cells[i]] & union
        combinations = cages.combinations[k]
        # (the combinations that hold the hidden values)
        hidden: i64 = self.hidden_values(s, k) if self.hidden and not self.wide else 0
        found = (distinct_bounds(masks, self.totals[k]) if self.wide
                 else combinations_settled(masks, combinations, hidden, self.one[k], self.other[k]) if self.cheap
                 else cage_supports(masks, combinations, self.residues[k], hidden))
        # the explanation names only the hidden values without which the look would find more (`needed_values`)
        if not found[0]:  # no filling: no value kept anywhere
            needed = needed_values(masks, combinations, hidden, found, self.cheap) if hidden else 0
            return listed(self.explain(s, k, needed))
        because: Reason | None = None
        named: i64 = hidden
        for i in range(len(cells)):
            gone = masks[i] & ~found[i]
            while gone:
                low = gone & -gone
                gone ^= low
                q = placement(cells[i] * n + bit_index(low))
                if value[q] == UNDEF:
                    if because is None:  # one explanation for every value this look removes
                        named = needed_values(masks, combinations, hidden, found, self.cheap) if hidden else 0
                        because = self.looked[k] = Reason(CAGE_HIDDEN if named else self.kind,
                                                          self.explain(s, k, named))
                    s.assign(neg(q), because)
        if self.points and not self.wide:  # (the values every filling holds as the look's reason has them)
            return self.point(s, k, found, because, named)
        return None

    def hidden_values(self, s: Solver, k: int) -> i64:
        """The values some house places only in cage k's cells (each of its places left in the house is one of
        the cage's): the cage holds each of them, so a combination without one of them is none of its fillings."""
        places, others = s.places, self.cages.others[k]
        values = self.cages.values[k] & ~self.cages.common[k]  # (a value every filling holds: no news)
        hidden: i64 = 0
        i: i64 = 0
        while i < len(others):  # house by house: the values its cells outside the cage can hold, together
            end = i + 1 + others[i]
            outside: i64 = 0
            for j in range(i + 1, end):
                outside |= places[others[j]]
            hidden |= values & ~outside
            i = end
        return hidden

    def point(self, s: Solver, k: int, found: vec[i64], because: Reason | None, hidden: i64) -> list[Lit] | None:
        """The values every combination of cage k that its cells' values left can hold holds (so every filling),
        each with two places or more in the cage: every cell outside it that shares a house with each of them
        (`Cages.seeing`) loses it, explained by the cage's candidates as the look found them (the clause of its
        removals, `because`'s literals), or not here. A placed one among them is a conflict (that clause)."""
        n, value = self.n, s.value
        available: i64 = 0
        for m in found:
            available |= m
        combinations = self.cages.combinations[k]
        if hidden:  # (of the combinations that hold the hidden values)
            required = required_values(available, combinations, hidden)
        else:
            if available != self.available[k]:  # (what every combination within them holds, kept till they change)
                self.available[k] = available
                self.needed[k] = required_values(available, combinations)
            required = self.needed[k]
        pointed: Reason | None = None
        while required:
            low = required & -required
            required ^= low
            v = bit_index(low)
            holding: i64 = 0  # the cage's cells that may hold v (bit i: its i-th cell)
            for i in range(len(found)):
                if found[i] & low:
                    holding |= i64(1) << i
            if not holding & (holding - 1):
                continue  # one place: the look left it that value alone
            for cell in self.cages.seeing(k, holding):
                q = placement(cell * n + v)
                if value[q] != FALSE:
                    if pointed is None:
                        pointed = Reason(CAGE_HOUSE, because.lits if because is not None
                                         else self.explain(s, k, hidden))
                    if value[q] == TRUE:
                        return [neg(q), *listed(pointed.lits)]
                    s.assign(neg(q), pointed)
        return None

    def explain(self, s: Solver, k: int, hidden: i64 = 0) -> vec[i32]:
        """The literals cage k's candidates rest on, all false: of each placed cell, its placement; of
        each other cell, its values gone that some combination of the cage holds (the others tell
        nothing about the cage). With these false, the cage's cells have at most the candidates they
        have now, so what `supports` found of them follows: the clause is implied by the cage's rule.
        With `hidden` values (`hidden_values`), for each the placements of it in a house that hides it in the
        cage, outside the cage: with these false too, the cage holds it."""
        n, value, places, cages = self.n, s.value, s.places, self.cages
        union = cages.values[k]
        lits = self.explained  # (written in place, then copied at its size: an append is a call)
        size: i64 = 0
        if hidden:
            housed = cages.housed[k]
            for j in range(0, len(housed), 2):
                first, inside, unit = s.enc.first_house_group + housed[j] * n, housed[j + 1], cages.units[housed[j]]
                left = hidden
                while left:
                    low = left & -left
                    left ^= low
                    v = bit_index(low)
                    if not places[first + v] & ~inside:
                        hidden ^= low  # (one house's account of it is enough)
                        for i in range(len(unit)):
                            if not inside >> i & 1:
                                lits[size] = i32(placement(unit[i] * n + v))
                                size += 1
        for cell in cages.cells[k]:
            m = places[cell]
            if m and m & (m - 1) == 0 and value[placement(cell * n + bit_index(m))] == TRUE:
                lits[size] = i32(exclusion(cell * n + bit_index(m)))
                size += 1
                continue
            gone = union & ~m
            while gone:
                low = gone & -gone
                gone ^= low
                lits[size] = i32(placement(cell * n + bit_index(low)))
                size += 1
        return lits[:size]


class SumBounds(Queued):
    """The 45 rule's sums whose values may repeat (`Sums`), kept by their bounds: a value v of a cell goes when the
    other cells' least values leave less than v of the total (v + their least > the total), or their greatest more
    (v + their greatest < the total); the cells' least values summing above the total, or their greatest below it,
    are a conflict. An exclusion of a cell's least or greatest value leaves its sums to be looked at, at singles'
    fixpoint. The explanation is the bounds the deduction rests on, as the exclusions that made them (`at_least`,
    `at_most`): of each other cell, its values below its least (above its greatest), all false; lifted, as linear
    constraints' explanations are in lazy clause generation: the slack the deduction does not need weakens the
    bounds it names, and each value of slack drops one literal. Innies less outies are read alike, an outie of value
    v counting n + 1 - v: its least is n + 1 less its greatest value."""

    def __init__(self, sums: Sums, n: int) -> None:
        self.sums = sums
        self.n: i64 = n
        self.waiting = Waiting(len(sums.cells))  # the sums to be looked at
        self.ends = ends(n) if n <= ENDS_UP_TO else vec[i64]()  # each mask's least and greatest, read (none: computed)

    def start(self, s: Solver) -> None:
        """Every sum is looked at once at the root."""
        for k in range(len(self.sums.cells)):
            self.waiting.touch(k)

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """An exclusion of a cell's least or greatest value (its places already without it: the groups come first)
        leaves the cell's sums to be looked at; a placement's exclusions follow it on the trail."""
        if not sign(p):
            return None
        x, n = var(p), self.n
        cell = s.cell_of[x]
        bit: i64 = 1 << value_of(x, cell, n)
        m: i64 = s.places[cell]
        if bit < (m & -m) or bit > m:
            waiting = self.waiting
            for k in self.sums.of_cell[cell]:
                if not waiting.waiting[k]:  # (most wait already: no call)
                    waiting.touch(k)
        return None

    def look_at(self, s: Solver, k: int) -> list[Lit] | None:
        """Sum k's bounds: each cell keeps the values the others' least and greatest leave room for. A cell past
        the sum's `plus` first counts as n + 1 less its value (an outie of innies less outies): its least is
        n + 1 less its greatest value, and the values it loses are read mirrored."""
        n, places, ends = self.n, s.places, self.ends
        cells = self.sums.cells[k]
        plus: i64 = self.sums.plus[k]
        total: i64 = self.sums.totals[k]
        low: i64 = 0
        high: i64 = 0
        spread: i64 = 0  # the widest cell's greatest less its least
        for i in range(len(cells)):
            m: i64 = places[cells[i]]
            lo: i64
            hi: i64
            if len(ends) > 0:
                lo, hi = ends[m] & 255, ends[m] >> 8
            else:
                lo, hi = least(m), greatest(m)
            spread = max(spread, hi - lo)
            if i < plus:
                low += lo
                high += hi
            else:
                low += n + 1 - hi
                high += n + 1 - lo
        if low > total:
            return listed(self.at_least(s, cells, plus, -1, low - total - 1))
        if high < total:
            return listed(self.at_most(s, cells, plus, -1, total - high - 1))
        if spread <= total - low and spread <= high - total:
            return None  # no cell's range reaches past what the others leave it: nothing to remove
        for i in range(len(cells)):
            cell = cells[i]
            m = places[cell]
            lo = least(m)
            hi = greatest(m)
            if i >= plus:
                lo, hi = n + 1 - hi, n + 1 - lo
            most = total - (low - lo)  # what it holds at most, the others at their least (at least lo: no conflict)
            gone: i64 = 0
            if most < hi:
                if i < plus:
                    gone = m >> most << most
                    first = least(gone)
                else:
                    gone = m & ((1 << (n - most)) - 1)
                    first = n + 1 - greatest(gone)
                because = Reason(DERIVED_SUM, self.at_least(s, cells, plus, i, first + low - lo - total - 1))
                self.exclude(s, cell, gone, because)
            fewest = total - (high - hi)  # what it holds at least, the others at their greatest (at most hi)
            if fewest > lo:
                if i < plus:
                    gone = m & ((1 << (fewest - 1)) - 1)
                    last = greatest(gone)
                else:
                    gone = m >> (n + 1 - fewest) << (n + 1 - fewest)
                    last = n + 1 - least(gone)
                because = Reason(DERIVED_SUM, self.at_most(s, cells, plus, i, total - last - (high - hi) - 1))
                self.exclude(s, cell, gone, because)
        return None

    def exclude(self, s: Solver, cell: int, gone: i64, because: Reason) -> None:
        """The cell's values in `gone` excluded (those still free), each for the one reason."""
        n, value = self.n, s.value
        while gone:
            bit = gone & -gone
            gone ^= bit
            q = placement(cell * n + bit_index(bit))
            if value[q] == UNDEF:
                s.assign(neg(q), because)

    def at_least(self, s: Solver, cells: vec[i64], plus: i64, skip: int, slack: i64) -> vec[i32]:
        """The literals that make each cell but the skip-th count at least its least, all false (its values below
        it excluded; an outie's above n + 1 less it), the bounds lowered by `slack` in all, the first cells' first."""
        return self.bounds(s, cells, plus, skip, slack, True)

    def at_most(self, s: Solver, cells: vec[i64], plus: i64, skip: int, slack: i64) -> vec[i32]:
        """The literals that make each cell but the skip-th count at most its greatest, all false (its values above
        it excluded; an outie's below n + 1 less it), the bounds raised by `slack` in all, the first cells' first."""
        return self.bounds(s, cells, plus, skip, slack, False)

    def bounds(self, s: Solver, cells: vec[i64], plus: i64, skip: int, slack: i64, floors: bool) -> vec[i32]:
        """`at_least` (floors) or `at_most`: a cell's floor is its values below its least (an outie's ceiling)."""
        n, places = self.n, s.places
        lits = vec[i32](capacity=len(cells) * n)  # (the most it may hold: see `KillerCages.explain`)
        for j in range(len(cells)):
            if j == skip:
                continue
            cell = cells[j]
            if (j < plus) == floors:
                lo = least(places[cell])
                cut = min(slack, lo - 1)
                slack -= cut
                for w in range(lo - cut - 1):
                    lits = append(lits, i32(placement(cell * n + w)))
            else:
                hi = greatest(places[cell])
                cut = min(slack, n - hi)
                slack -= cut
                for w in range(hi + cut, n):
                    lits = append(lits, i32(placement(cell * n + w)))
        return lits


def distinct_bounds(doms: vec[i64], total: int) -> vec[i64]:
    """Per cell of a sum of different values (its candidates in `doms`), the values v that the other cells' values
    (as many different ones, from the union of their candidates, v aside) can complete to `total`: between the sum
    of the fewest least and of the fewest greatest; all 0 when a cell keeps none. Weaker than `supports` (it reads
    the others' candidates as one set), and cheaper with many combinations. (Its masks in native vectors: a list's
    item of 16 bits or more is an object made anew at each change.)"""
    count: i64 = len(doms)
    after = zeros(count + 1)  # the union of the masks from i on
    for i in range(count - 1, -1, -1):
        after[i] = after[i + 1] | doms[i]
    kept = zeros(count)
    need: i64 = count - 1  # the other cells' values, as many different ones
    before: i64 = 0
    read: i64 = -1  # the `others` whose least and greatest below were summed (most cells' others are the same)
    low: i64 = 0
    high: i64 = 0
    nth_least: i64 = 0
    nth_greatest: i64 = 64
    up: i64 = 0
    down: i64 = 0
    for i in range(count):
        others = before | after[i + 1]
        m = doms[i]
        before |= m
        if popcount(others) < need:
            return zeros(count)
        if others != read:
            # the sum of the others' `need` least values and the greatest of those, and of their `need` greatest
            # values and the least of those; `up` and `down` are the values left past them (0: none)
            read = others
            low, high, nth_least, nth_greatest = 0, 0, 0, 64
            up, down = others, others
            for _step in range(need):
                nth_least = least(up)
                low += nth_least
                up &= up - 1
                nth_greatest = greatest(down)
                high += nth_greatest
                down ^= i64(1) << (nth_greatest - 1)
        while m:
            bit = m & -m
            m ^= bit
            v = least(bit)
            fewest, most = low, high  # with v aside: v among those least (greatest) gives way to the next
            if others & bit:
                if not up:
                    continue  # the others hold no more values than they need, v among them
                if v <= nth_least:
                    fewest += least(up) - v
                if v >= nth_greatest:
                    most += greatest(down) - v
            if fewest <= total - v <= most:
                kept[i] |= bit
        if not kept[i]:
            return zeros(count)
    return kept


def needed_values(masks: vec[i64], combinations: vec[i64], hidden: i64, found: vec[i64], cheap: bool) -> i64:
    """Of the `hidden` values a cage's look held its combinations to (its cells' candidates `masks`), those its filter
    (`cheap`: `combination_supports`, else `cage_supports`) needs to find no more than `found`: each in turn is left
    out while the filter without it finds the same. A value that no combination within the cells lacks (holding the
    rest) is left out unread: the filter without it reads the same combinations."""
    available: i64 = 0
    for m in masks:
        available |= m
    left = hidden
    while left:
        low = left & -left
        left ^= low
        fewer = hidden & ~low
        if not lacking(available, combinations, fewer, low):
            hidden = fewer
            continue
        again = (combination_supports(masks, combinations, fewer) if cheap
                 else cage_supports(masks, combinations, vec[i64](), fewer))
        if every_kept(found, again):
            hidden = fewer
    return hidden


def placed_outside(m: i64, held: i64) -> bool:
    """Whether a cell's candidates `m` are one value, not among `held` (at level 0, after propagation: placed)."""
    return m != 0 and not m & (m - 1) and not m & held


def lacking(available: i64, combinations: vec[i64], must: i64, value: i64) -> bool:
    """Whether some combination within `available` holds the values of `must` but not `value` (a bit): one the
    filter reads without `value` among those it must hold, and not with it."""
    return any(not c & ~available and not must & ~c and not c & value for c in combinations)


def least(m: i64) -> i64:
    """The least value of mask m (not 0)."""
    return bit_index(m & -m) + 1


@kept(4)
def ends(n: int) -> vec[i64]:
    """Per mask of n bits, its least value and 256 times its greatest (`least`, `greatest`; 0 for the empty mask):
    a sum's bounds read them, up to ENDS_UP_TO bits (a table of 65,536 items at 16x16)."""
    return vec[i64]([0] + [least(m) + (greatest(m) << 8) for m in range(1, 1 << n)])


def greatest(m: i64) -> i64:
    """The greatest value of mask m (not 0, at most 32 bits): its highest bit, spread to every bit below it and
    read back alone (compiled, shifts and `bit_index`, where int.bit_length() is a call through a boxed int)."""
    m |= m >> 1
    m |= m >> 2
    m |= m >> 4
    m |= m >> 8
    m |= m >> 16
    return bit_index(m ^ (m >> 1)) + 1


class ConstraintLinks(Queued):
    """A puzzle's constraints (puzzles/constraints/), read as their links (`Links`): a placement excludes
    from each linked cell the values it forbids there (explained by "not both", as a house's); an exclusion
    leaves its cell's arcs to be looked at, at singles' fixpoint: an arc's value w at the linked cell goes
    when no value left at the cell allows it, explained by the arc's clause for w (`explain`)."""

    def __init__(self, links: Links, n: int) -> None:
        self.links = links
        self.n: i64 = n
        self.waiting = Waiting(n * n)  # the cells whose arcs are to be looked at

    def start(self, s: Solver) -> None:
        """Every cell with arcs is looked at once at the root."""
        for cell in range(self.n * self.n):
            if self.links.arcs[cell]:
                self.waiting.touch(cell)

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """A placement excludes from each linked cell the values it forbids there (the clause: not both),
        a conflict if one holds one; an exclusion leaves its cell's arcs to be looked at."""
        links, value, n = self.links, s.value, self.n
        x = var(p)
        cell = s.cell_of[x]
        v = value_of(x, cell, n)
        if sign(p):
            if links.arcs[cell]:
                self.waiting.touch(cell)
            return None
        because = s.enc.excluded_by[x]
        forbids = links.out_forbids[cell]
        for k, other in enumerate(links.out_cells[cell]):
            gone: i64 = forbids[k * n + v] & s.places[other]
            while gone:
                low = gone & -gone
                gone ^= low
                q = placement(other * n + bit_index(low))
                if value[q] == TRUE:
                    return [neg(p), neg(q)]
                if value[q] == UNDEF:
                    s.assign(neg(q), because)
        return None

    def look_at(self, s: Solver, a: int) -> list[Lit] | None:
        """Cell a's arcs: each removes the deep values of its other cell that no value left at a allows; a
        conflict if one of them is placed."""
        links, value, places, n = self.links, s.value, s.places, self.n
        left: i64 = places[a]
        for arc in links.arcs[a]:
            b = links.arc_cell[arc]
            m: i64 = places[b] & links.arc_deep[arc]
            while m:
                low = m & -m
                m ^= low
                w = bit_index(low)
                if left & links.arc_allow[arc * n + w]:
                    continue
                q = placement(b * n + w)
                because = self.explain(arc, w)
                if value[q] == TRUE:
                    return [neg(q), *(i64(r) for r in because.lits)]
                if value[q] == UNDEF:
                    s.assign(neg(q), because)
        return None

    def explain(self, arc: int, w: i64) -> Reason:
        """Why value w + 1 leaves the arc's other cell: "it is not there, or the arc's cell holds one of the
        values that allow it", made once for the arc and the value (`Links.arc_reason`)."""
        return self.links.arc_reason[arc * self.n + w]


def filtered_rules(lay: Layout) -> list[tuple[int, Constraint]]:
    """The layout's constraints that `ConstraintFilters` keeps, with their indices: every one that states no links
    and no room (`ROOMS`: the room propagator keeps those, a Killer cage's, a renban's): an arrow's sum, ...)."""
    return [(k, rule) for k, rule in enumerate(lay.constraints)
            if not rule.LINKED and not rule.HOUSE and not rule.ROOMS]


class ConstraintFilters(Queued):
    """A puzzle's constraints that state no links and no other propagator keeps (puzzles/constraints/:
    `filtered_rules`), each kept by its filter (`Constraint.narrow`): a rule whose cells' literals changed waits for
    a look, at singles' fixpoint; the filter, on its cells' candidates as they are, removes what no filling of it
    gives, each removal explained by the values its other cells lost (`Removal.because`: those placements, all
    false, a clause the rule implies); a cell it leaves with nothing, a placed one among them, is a conflict (its
    own values gone joined to that clause)."""

    def __init__(self, lay: Layout, n: int) -> None:
        self.rules = filtered_rules(lay)
        self.n: i64 = n
        self.of_cell = held_by([list(rule.scope()) for _, rule in self.rules], n * n)
        self.masks = [0] * (n * n)  # the masks the filter reads (its cells' places, set before each look)
        self.waiting = Waiting(len(self.rules))

    def start(self, s: Solver) -> None:
        """Every rule is looked at once at the root."""
        for i in range(len(self.rules)):
            self.waiting.touch(i)

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """A literal of a cell leaves the cell's rules to be looked at."""
        for i in self.of_cell[s.cell_of[var(p)]]:
            self.waiting.touch(i)
        return None

    def look_at(self, s: Solver, i: int) -> list[Lit] | None:
        """Rule i's filter on its cells' places: each value it removes goes, explained by its removal's reason."""
        k, rule = self.rules[i]
        n, value, masks = self.n, s.value, self.masks
        full: i64 = (1 << n) - 1
        for cell in rule.scope():
            masks[cell] = s.places[cell]
        for removal in rule.narrow(masks, n):
            because = [placement(d * n + w) for d, lost in removal.because for w in indices(lost)]
            cell, left = removal.cell, masks[removal.cell]
            gone = removal.mask & left
            if gone == left:  # nothing left: it holds a value it lost, or the reason fails
                return [placement(cell * n + w) for w in indices(full & ~left)] + because
            reason: Reason | None = None
            for w in indices(gone):
                q = placement(cell * n + w)
                if value[q] == UNDEF:
                    if reason is None:
                        reason = Reason(CONSTRAINT + k, native(because))
                    s.assign(neg(q), reason)
        return None


class Leftovers(Propagator):
    """The law of leftovers (redundant=45 on a Jigsaw of 12x12 and up; puzzles/constraints/innies.py `leftovers`):
    a value in a cell of one side of a leftover is in some cell of its other side, both ways. Read as the clauses
    "not v here, or v there, or there ..." would be by unit propagation, each side and value at once (a side's
    clauses all share their "there" part): an exclusion that leaves a side's cells without v excludes v from
    the other side's (a conflict where one holds it), or, with one cell of it left, places v there when the
    other side holds v; a placement in a side asks the same of the other side. Each deduction is explained by
    the one clause it stands for (reason kind LEFTOVER).

    Per side and value, the side's cells where the value is not excluded are a mask among the solver's places
    (from `base`: group base + side * n + v), so that they come back with the groups' at a jump back, and an
    exclusion costs a bit, not a look at the side. The exclusions a side left without a value makes share one
    reason, made once per side and value (`emptied`): made at each, its list of boxed literals took an eighth of
    a 16x16 Jigsaw's time.

    cells:      every side's cells, side after side (a leftover's two sides at 2k and 2k + 1: a side's other is
                its number xor 1), from side_start[side] to side_start[side + 1]
    cell_side:  per cell, each side that holds it with the cell's bit there, side * 32 + bit, from
                cell_start[cell] to cell_start[cell + 1]"""

    def __init__(self, found: tuple[Leftover, ...], n: int, base: int) -> None:
        self.n: i64 = n
        self.base: i64 = base
        self.sides = [side for leftover in found for side in (leftover.inside, leftover.outside)]
        self.cells = vec[i32]([i32(cell) for side in self.sides for cell in side])
        self.side_start = vec[i32]([i32(k) for k in accumulate((len(side) for side in self.sides), initial=0)])
        holding: list[list[int]] = [[] for _ in range(n * n)]
        for k, side in enumerate(self.sides):
            for bit, cell in enumerate(side):
                holding[cell].append(k * 32 + bit)
        self.cell_side = vec[i32]([i32(e) for held in holding for e in held])
        self.cell_start = vec[i32]([i32(k) for k in accumulate((len(held) for held in holding), initial=0)])
        # per side and value, the reason of the exclusions a side left without the value makes (made once)
        self.emptied = [Reason(LEFTOVER, native(self.side_lits(side, v, -1))) for side in range(len(self.sides))
                        for v in range(n)]

    def masks(self) -> list[int]:
        """The masks' first values, per side and value: every cell of the side."""
        return [(1 << len(side)) - 1 for side in self.sides for _ in range(self.n)]

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """Placement p: each side of its cell's leftovers asks the other side for its value. Exclusion p: each
        such side loses a place for its value, and tells the other side when it has one left, or none."""
        x = var(p)
        n, places = self.n, s.places
        cell = s.cell_of[x]
        v = value_of(x, cell, n)
        for k in range(i64(self.cell_start[cell]), i64(self.cell_start[cell + 1])):
            e = i64(self.cell_side[k])
            side = e >> 5
            if sign(p):
                g = self.base + side * n + v
                m = places[g] = places[g] & ~(i64(1) << (e & 31))
                if m & (m - 1) == 0:
                    conflict = self.lost(s, side, v, m)
                    if conflict is not None:
                        return conflict
            else:
                m = places[self.base + (side ^ 1) * n + v]
                if m & (m - 1) == 0:
                    conflict = self.needs(s, side ^ 1, v, m, p)
                    if conflict is not None:
                        return conflict
        return None

    def needs(self, s: Solver, side: i64, v: i64, m: i64, because: Lit) -> list[Lit] | None:
        """Value v is placed in a cell of the other side (`because`, that placement) and the side has one place
        for it left (its mask m), or none: it goes there, or a conflict. (`propagate` asks on a placement, `lost`
        on an exclusion that left the side so.)"""
        if m == 0:
            return [neg(because), *self.side_lits(side, v, -1)]
        last = i64(self.cells[i64(self.side_start[side]) + bit_index(m)])
        q = placement(last * self.n + v)
        if s.value[q] == UNDEF:
            s.assign(q, Reason(LEFTOVER, native([q, neg(because), *self.side_lits(side, v, last)])))
            s.placed_now += 1
        return None

    def lost(self, s: Solver, side: i64, v: i64, m: i64) -> list[Lit] | None:
        """The side has one place left for value v (its mask m), or none. With none, v leaves the other side (a
        conflict where it is placed there); with one, v goes there if the other side holds v."""
        value, cells, n = s.value, self.cells, self.n
        other = side ^ 1
        if m == 0:
            because = self.emptied[side * n + v]  # (x's own literal left out)
            for k in range(i64(self.side_start[other]), i64(self.side_start[other + 1])):
                q = placement(i64(cells[k]) * n + v)
                if value[q] == TRUE:
                    return self.needs(s, side, v, m, q)
                if value[q] == UNDEF:
                    s.assign(neg(q), because)
            return None
        if value[placement(i64(cells[i64(self.side_start[side]) + bit_index(m)]) * n + v)] != UNDEF:
            return None  # its last place is settled: nothing to look for
        for k in range(i64(self.side_start[other]), i64(self.side_start[other + 1])):
            held = placement(i64(cells[k]) * n + v)
            if value[held] == TRUE:
                return self.needs(s, side, v, m, held)
        return None

    def side_lits(self, side: i64, v: i64, but: i64) -> list[Lit]:
        """The placements of value v in the side's cells, but cell `but`'s."""
        cells, n = self.cells, self.n
        return [placement(i64(cells[k]) * n + v) for k in range(i64(self.side_start[side]),
                                                                 i64(self.side_start[side + 1]))
                if i64(cells[k]) != but]


class StoredClauses(Propagator):
    """The clauses stored as the search goes (nogoods, solutions' blocks), each its own explanation, visited
    through the two literals each watches (MiniSat's watches): when one of them is made false, the clause
    watches another literal not false, or implies its other watched one, or is a conflict.

    Their literals lie one clause after the other in one native vector, `arena` (MiniSat's ClauseAllocator):
    at a clause's place, its number (in `clauses`, its Clause) times two, plus one for a solution's block, its
    size, then its literals, the two watched first (and while it is the reason of an assignment, the literal it
    implies first). A literal's watches are a native vector of pairs, a clause's place and a literal of it
    (MiniSat's Watcher: the clause and its blocker), with the count of its items in use beside it (`used`): a
    visit that moves watches away shortens the list by that count, and a new watch takes the room left after
    them, where the vector cut item by item took 3% of a 16x16 Jigsaw's time. Both hold 32-bit items, as
    MiniSat's do: against 64-bit ones, the same search in 8% fewer instructions and 11% fewer misses of the
    first cache (a minimal 16x16 Jigsaw, 17,775 conflicts; cachegrind, 2026-11-30). A visit reads the blocker
    first, and a clause whose blocker is true is passed by unread; else its literals are read in one place, as
    machine words. What a clause implies gets a shared reason and the clause's place (`Solver.reason_at`): its
    Clause is not read. `forget` takes the clauses reduce_db marked out of the watches and the arena, all
    at once (MiniSat's cleanAll and its garbage collection), so that the visit never meets a forgotten one."""

    def __init__(self, literals: int) -> None:
        self.clauses = vec[Clause]()  # by number, every clause attached (a forgotten one's place: FORGOTTEN)
        self.arena = vec[i32]()  # per clause: 2 x its number (+ 1: a block), its size, its literals
        # per literal, the clauses watching it, visited when it is made false: (place, blocker) pairs
        self.watches = vec[vec[i32]]([vec[i32]() for _ in range(literals)])
        # per literal, the items of its watches in use (those after them are spare room: a visit that moves
        # watches away shortens the list by this count alone, and a watch added reuses the room)
        self.used = vec[i64]([0] * literals)

    def attach(self, clause: Clause, lits: vec[i32]) -> None:
        """Store a clause of these literals (two or more) and watch its first two, each with the other as its
        blocker. Its literals are read from the arena from now on (`Clause.at`; its own `lits` left empty)."""
        number = clause.number = len(self.clauses)
        self.clauses = append(self.clauses, clause)
        at = clause.at = len(self.arena)
        arena = append(append(self.arena, i32(2 * number + (clause.kind == SOLUTION_BLOCK))), i32(len(lits)))
        for q in lits:
            arena = append(arena, q)
        self.arena = arena
        clause.lits = vec[i32]()
        self.watch(i64(lits[0]), at, i64(lits[1]))
        self.watch(i64(lits[1]), at, i64(lits[0]))

    def watch(self, p: Lit, at: i64, blocker: Lit) -> None:
        """The clause at `at` watches literal p: it is visited when p is made false."""
        ws, used = self.watches[p], self.used[p]
        if used < len(ws):
            ws[used] = i32(at)
            ws[used + 1] = i32(blocker)
        else:
            self.watches[p] = append(append(ws, i32(at)), i32(blocker))
        self.used[p] = used + 2

    def forget(self, gone: list[Clause], s: Solver) -> None:
        """The clauses `gone`, marked deleted (none the reason of a present assignment), leave the watches
        (the others' order kept), the arena (the others moved down, their order kept, and the solver's
        `reason_at` with them) and their numbers' places."""
        clauses, arena, watches = self.clauses, self.arena, self.watches
        kept = vec[i32](capacity=len(arena))
        at: i64 = 0
        while at < len(arena):  # each clause's header gives way to its new place, or -1
            head, size = arena[at], arena[at + 1]
            c = clauses[i64(head) >> 1]
            if c.deleted:
                arena[at] = -1
            else:
                c.at = len(kept)
                arena[at] = i32(c.at)
                kept = append(append(kept, head), size)
                for k in range(at + 2, at + 2 + i64(size)):
                    kept = append(kept, arena[k])
            at += 2 + i64(size)
        used = self.used
        for p in range(len(watches)):
            ws = watches[p]
            end: i64 = used[p]
            j: i64 = 0
            for i in range(0, end, 2):
                moved_to = arena[i64(ws[i])]
                if moved_to >= 0:
                    ws[j] = moved_to
                    ws[j + 1] = ws[i + 1]
                    j += 2
            used[p] = j
        reason, reason_at = s.reason, s.reason_at
        trail = s.trail
        for i in range(s.assigned):
            q = trail[i]
            if reason[var(q)].at == STORED:
                reason_at[var(q)] = i64(arena[reason_at[var(q)]])
        self.arena = kept
        for c in gone:
            clauses[c.number] = FORGOTTEN

    def propagate(self, s: Solver, p: Lit) -> list[Lit] | None:
        """The stored clauses watching the literal p made false (MiniSat's two watched literals): each
        finds another literal not false to watch, or implies its other watched one, or is a conflict."""
        false_lit = neg(p)
        end: i64 = self.used[false_lit]
        if end == 0:
            return None
        ws, value, arena = self.watches[false_lit], s.value, self.arena
        i: i64 = 0
        j: i64 = 0
        while i < end:
            at, blocker = i64(ws[i]), i64(ws[i + 1])
            i += 2
            if value[blocker] == TRUE:  # satisfied: passed by, the clause unread
                ws[j] = ws[i - 2]
                ws[j + 1] = ws[i - 1]
                j += 2
                continue
            first = i64(arena[at + 2])
            if first == false_lit:  # the false literal second
                first = i64(arena[at + 3])
                arena[at + 2] = i32(first)
                arena[at + 3] = i32(false_lit)
            if value[first] == TRUE:
                ws[j] = ws[i - 2]
                ws[j + 1] = i32(first)
                j += 2
                continue
            moved = False
            for k in range(at + 4, at + 2 + i64(arena[at + 1])):
                q = i64(arena[k])
                if value[q] != FALSE:  # a new literal to watch
                    arena[at + 3] = i32(q)
                    arena[k] = i32(false_lit)
                    self.watch(q, at, first)
                    moved = True
                    break
            if moved:
                continue
            ws[j] = ws[i - 2]
            ws[j + 1] = i32(first)
            j += 2
            if value[first] == FALSE:  # every literal false
                while i < end:
                    ws[j] = ws[i]
                    j += 1
                    i += 1
                self.used[false_lit] = j
                return [i64(arena[k]) for k in range(at + 2, at + 2 + i64(arena[at + 1]))]
            s.reason_at[var(first)] = at
            s.assign(first, STORED_BLOCK if arena[at] & 1 else STORED_NOGOOD)
            if not sign(first):
                s.placed_now += 1
        self.used[false_lit] = j
        return None


def cleared(ws: vec[i64]) -> vec[i64]:
    """An empty vector with room for as many items as `ws` holds (popping each, to keep its room, cost more)."""
    return vec[i64](capacity=len(ws))


class VarOrder:
    """MiniSat's order heap: the free variables by activity, most active first (ties to the lowest
    variable), with each variable's place in the heap so that a bump moves it up at once. The heap and the
    places are native vectors: a bump's climb reads and writes machine words, not boxed ints."""

    def __init__(self, activity: vec[float]) -> None:
        self.activity = activity  # (the solver's: its items change in place)
        self.heap: vec[i64] = vec[i64]([x for x in range(len(activity))])  # every activity 0: already a heap
        self.index: vec[i64] = vec[i64]([x for x in range(len(activity))])  # per variable, its place, or -1

    def before(self, x: Var, y: Var) -> bool:
        ax, ay = self.activity[x], self.activity[y]
        return ax > ay or (ax == ay and x < y)

    def top(self) -> Var:
        return self.heap[0] if len(self.heap) > 0 else -1

    def insert(self, x: Var) -> None:
        if self.index[x] < 0:
            self.index[x] = len(self.heap)
            self.heap = append(self.heap, x)
            self.up(self.index[x])

    def remove_top(self) -> Var:
        heap, index = self.heap, self.index
        x = heap[0]
        heap, last = pop(heap)
        self.heap = heap
        index[x] = -1
        if len(heap) > 0:
            heap[0] = last
            index[last] = 0
            self.down(0)
        return x

    def increased(self, x: Var) -> None:
        """x's activity grew: it may rise."""
        if self.index[x] >= 0:
            self.up(self.index[x])

    def up(self, i: i64) -> None:
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

    def down(self, i: i64) -> None:
        heap, index = self.heap, self.index
        x: i64 = heap[i]
        size: i64 = len(heap)
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

    def rebuild(self, free: list[Var]) -> None:
        """The heap anew, of these variables (after the activities were scaled down)."""
        for x in self.heap:
            self.index[x] = -1
        self.heap = vec[i64]()
        for x in free:
            self.insert(x)


class Assigned(NamedTuple):
    """An assignment as an observer is told it: the literal made true, and the kind of its reason."""

    lit: Lit
    kind: ReasonKind


# Which rule chose a decision's placement, as an observer is told it
ChoiceRule: TypeAlias = int
MRV_THEN_VSIDS: Final = 0  # choose=mrv: of the cells with fewest values left, the most active value
VSIDS: Final = 1  # choose=vsids: the most active free placement
MRV_FIRST: Final = 2  # choose=vsids, while no free placement has met a conflict: MRV's first value
PHASE: Final = 3  # phase saving: the value the rule's cell last held
DOMWDEG: Final = 4  # choose=domwdeg: the cell whose values' activity weighs most for its values left


class Observer(Protocol):
    """What a watch of the solver is told, when one is plugged in (the trace's narrator, or a test),
    each call right after the step it names. Levels are decision levels, as the step left them."""

    def started(self, grid: Grid, counters: Counters) -> None:
        """The search starts from `grid` (its givens are on the trail, not yet propagated)."""

    def givens_clash(self, conflict: list[Lit]) -> None:
        """The givens' propagation made every literal of `conflict` false: no solution."""

    def propagated(self, level: int, assigned: list[Assigned]) -> None:
        """A propagation ended without a conflict. `assigned`: the trail from the literal it started
        from (a decision, a given, a nogood's or a block's literal) to its end, in order."""

    def chose(self, level: int, x: Var, left: int, by: ChoiceRule) -> None:
        """A decision is to place x; its cell has the values of mask `left` (bit v - 1: value v)."""

    def decided(self, level: int, x: Var) -> None:
        """x is placed, the decision of the new `level`."""

    def conflict(self, level: int, conflict: list[Lit]) -> None:
        """The search's propagation made every literal of `conflict` false (counted)."""

    def analyzed(self, conflict: list[Lit], nogood: list[Lit], back: int) -> None:
        """The analysis of `conflict` drew `nogood`, to jump back to level `back` (not yet taken)."""

    def backjumped(self, level: int, nogood: list[Lit], lbd: int) -> None:
        """Back at `level`, where the stored nogood made its first literal true."""

    def solution(self, level: int) -> None:
        """Every cell is placed."""

    def blocked(self) -> None:
        """After a solution, back to level 0; its block is stored next."""

    def restarted(self) -> None:
        """Back to level 0, for the next descent."""


# -- branching and restarts: the policies ------------------------------------------------------------
class Branching:
    """Which placement a decision makes (MiniSat's pickBranchLit), one object a solve, chosen by the
    options (`policies`): `pick` the variable (-1 when every cell is placed) and `chosen_by` the rule that
    picked it (told to an observer). It is told what it may keep up to date: each activity bumped
    (`bumped`), each rescaling (`rescaled`), the trail undone from a point (`undone`)."""

    def attach(self, s: Solver) -> None:
        """The solver it picks for, once, before the search: what it keeps is sized here."""

    def pick(self, s: Solver) -> Var:
        return fewest_left(s)

    def chosen_by(self, s: Solver, x: Var) -> ChoiceRule:
        return MRV_THEN_VSIDS

    def bumped(self, x: Var) -> None:
        """x's activity grew."""

    def rescaled(self) -> None:
        """Every activity was scaled down."""

    def undone(self, s: Solver, start: int) -> None:
        """The trail from `start` is being undone (its values already UNDEF, the trail not yet cut)."""


def fewest_left(s: Solver) -> Var:
    """MRV over the cells, VSIDS within: of the cells with fewest values left, the value most active (ties
    to the lowest cell, then value); -1 when every cell is placed."""
    n, places, activity = s.n, s.places, s.activity
    best: i64 = -1
    most = -1.0
    fewest: i64 = n + 1
    for cell in range(n * n):
        m = places[cell]
        if m & (m - 1) == 0:  # placed (one value left), its bits not counted
            continue
        left: i64 = popcount(m)
        if left > fewest:  # not among the fewest
            continue
        if left < fewest:  # fewer than any cell before it: the best so far is among its values
            best, most, fewest = -1, -1.0, left
        best, most = most_active(activity, n, cell, m, best, most)
    return best


def most_active(activity: vec[float], n: i64, cell: i64, m: i64, best: i64, most: float) -> tuple[i64, float]:
    """Of the cell's values in mask m, the variable more active than `most` (`best`'s), the first of the most active;
    `best` and `most` if none is."""
    while m:
        low = m & -m
        m ^= low
        x = cell * n + bit_index(low)
        if activity[x] > most:
            best, most = x, activity[x]
    return best, most


class Mrv(Branching):
    """choose=mrv (the default but on Killers): MRV over the cells, VSIDS within (`fewest_left`). It keeps
    nothing."""


class Vsids(Branching):
    """choose=vsids, MiniSat's rule: the most active free placement, whatever its cell, from the order heap
    it keeps (`VarOrder`); while no free placement has met a conflict, MRV's first value."""

    def __init__(self) -> None:
        self.order = VarOrder(vec[float]())

    def attach(self, s: Solver) -> None:
        self.order = VarOrder(s.activity)

    def pick(self, s: Solver) -> Var:
        order, value = self.order, s.value
        while order.top() >= 0 and value[placement(order.top())] != UNDEF:
            order.remove_top()
        if order.top() >= 0 and s.activity[order.top()] > 0:
            return order.top()
        # no free variable has met a conflict: MRV's, which with every activity 0 is the first value of the
        # first cell with fewest
        return fewest_left(s)

    def chosen_by(self, s: Solver, x: Var) -> ChoiceRule:
        return VSIDS if s.activity[x] else MRV_FIRST

    def bumped(self, x: Var) -> None:
        self.order.increased(x)

    def rescaled(self) -> None:
        self.order.rebuild([x for x in self.order.heap])  # (ties may appear where the smallest fall to 0)

    def undone(self, s: Solver, start: int) -> None:
        trail, order = s.trail, self.order
        for i in range(s.assigned - 1, start - 1, -1):
            order.insert(var(trail[i]))

    def rebuild(self, s: Solver) -> None:
        """The heap anew, of the free variables (entering the stable mode: the focused one kept none)."""
        value = s.value
        self.order.rebuild([x for x in range(len(s.activity)) if value[placement(x)] == UNDEF])


class DomWdeg(Branching):
    """choose=domwdeg: dom/wdeg (Boussemart, Hemery, Lecoutre and Sais 2004), as the Interactive Sudoku Solver
    chooses its cells: of the cells with two values or more, the one whose weight (the activity of all its
    placements, free or not: the conflicts it met) is greatest for its values left (ties to the lowest cell), then
    its most active value (ties to the lowest); while no free cell has met a conflict, MRV's (`fewest_left`). Each
    cell's weight is kept as its placements are bumped and rescaled: summed again at the next pick, once however
    many of its placements a conflict bumped."""

    def __init__(self) -> None:
        self.activity = vec[float]()
        self.weight = vec[float]()  # per cell, the activity of its placements
        # the cells bumped or rescaled since the last pick, each once: the first `stales` items (written in place)
        self.stale = vec[i64]()
        self.stales: i64 = 0
        self.marked = vec[u8]()  # per cell, 1 while it is stale
        self.cell_of = vec[i64]()  # the solver's (per variable, its cell)
        self.n: i64 = 0

    def attach(self, s: Solver) -> None:
        self.activity, self.n, self.cell_of = s.activity, s.n, s.cell_of
        self.weight = vec[float]([0.0] * (s.n * s.n))
        self.marked = vec[u8]([0] * (s.n * s.n))
        self.stale = zeros(s.n * s.n)

    def pick(self, s: Solver) -> Var:
        stale, marked = self.stale, self.marked
        for i in range(self.stales):
            self.weigh(stale[i])
            marked[stale[i]] = 0
        self.stales = 0
        n, places, activity, weight = self.n, s.places, self.activity, self.weight
        chosen: i64 = -1
        heaviest = 0.0
        for cell in range(n * n):
            m = places[cell]
            if m & (m - 1) == 0:  # placed (one value left)
                continue
            score = weight[cell] / popcount(m)
            if score > heaviest:
                chosen, heaviest = cell, score
        if chosen < 0:
            return fewest_left(s)
        return most_active(activity, n, chosen, places[chosen], -1, -1.0)[0]

    def chosen_by(self, s: Solver, x: Var) -> ChoiceRule:
        return DOMWDEG if self.weight[self.cell_of[x]] else MRV_THEN_VSIDS

    def bumped(self, x: Var) -> None:
        self.mark(self.cell_of[x])

    def rescaled(self) -> None:
        for cell in range(len(self.weight)):
            self.mark(cell)

    def mark(self, cell: i64) -> None:
        """The cell's weight is stale: it is summed again at the next pick."""
        if not self.marked[cell]:
            self.marked[cell] = 1
            self.stale[self.stales] = cell
            self.stales += 1

    def weigh(self, cell: i64) -> None:
        """The cell's weight anew, its placements' activities summed in order (the same float, however often)."""
        total = 0.0
        for x in range(cell * self.n, cell * self.n + self.n):
            total += self.activity[x]
        self.weight[cell] = total


class Modes(Branching):
    """choose=modes: Kissat's and CaDiCaL's two modes, focused (`Mrv`) then stable (`Vsids`), alternated
    by the schedule (`ModeSchedule`, at a restart: `switch`). The mode in force picks and keeps."""

    def __init__(self) -> None:
        self.focused = Mrv()
        self.stable = Vsids()
        self.current: Branching = self.focused
        self.is_stable = False

    def attach(self, s: Solver) -> None:
        self.stable.attach(s)

    def pick(self, s: Solver) -> Var:
        return self.current.pick(s)

    def chosen_by(self, s: Solver, x: Var) -> ChoiceRule:
        return self.current.chosen_by(s, x)

    def bumped(self, x: Var) -> None:
        self.current.bumped(x)

    def rescaled(self) -> None:
        self.current.rescaled()

    def undone(self, s: Solver, start: int) -> None:
        self.current.undone(s, start)

    def switch(self, s: Solver) -> None:
        """The other mode; entering the stable one, its heap is built anew of the free variables."""
        self.is_stable = not self.is_stable
        if self.is_stable:
            self.current = self.stable
            self.stable.rebuild(s)
        else:
            self.current = self.focused


class PhaseSaving(Branching):
    """phase=on: the rule picks the cell, and the value the cell last held is placed instead, while free
    (a cell's phase, `saved`, kept as the trail is undone: walking back, the first of a conflict's two
    placements in one cell counts)."""

    def __init__(self, rule: Branching) -> None:
        self.rule = rule
        self.saved: list[int] = []  # per cell, the variable it last held (its placement undone), or -1
        self.by_phase = False  # whether the last pick took the saved value

    def attach(self, s: Solver) -> None:
        self.rule.attach(s)
        self.saved = [-1] * (s.n * s.n)

    def pick(self, s: Solver) -> Var:
        x = self.rule.pick(s)
        self.by_phase = False
        if x >= 0:
            y = self.saved[x // s.n]
            if y >= 0 and y != x and s.value[placement(y)] == UNDEF:
                self.by_phase = True
                return y
        return x

    def chosen_by(self, s: Solver, x: Var) -> ChoiceRule:
        return PHASE if self.by_phase else self.rule.chosen_by(s, x)

    def bumped(self, x: Var) -> None:
        self.rule.bumped(x)

    def rescaled(self) -> None:
        self.rule.rescaled()

    def undone(self, s: Solver, start: int) -> None:
        self.rule.undone(s, start)
        trail, n = s.trail, s.n
        for i in range(s.assigned - 1, start - 1, -1):
            p = trail[i]
            if not p & 1:  # a placement undone: its cell's phase
                self.saved[(p >> 1) // n] = p >> 1


class Schedule:
    """When a descent stops for a restart, one object a solve, chosen by the options (`policies`):
    `allowance`, the conflicts `run` allows the next descent; `due`, asked by `Solver.search` before each
    decision, whether the descent stops before its allowance is spent. It is told each nogood's LBD
    (`learned`) and each restart (`restarted`)."""

    def allowance(self, s: Solver) -> int:
        return UNLIMITED

    def due(self, s: Solver, spent: int) -> bool:
        return False

    def learned(self, s: Solver, lbd: int) -> None:
        """A nogood spanning `lbd` levels was stored."""

    def restarted(self, s: Solver) -> None:
        """Back at level 0, before the next descent."""


class Luby(Schedule):
    """restart=luby (the default): `unit` x 1 1 2 1 1 2 4 ... conflicts a descent, as restart.py's cutoff=luby."""

    def __init__(self, unit: int) -> None:
        self.allowances = luby_allowances(unit)

    def allowance(self, s: Solver) -> int:
        return next(self.allowances)


class Glucose(Schedule):
    """restart=glucose: a descent restarts once the nogoods learned lately span more levels than those so
    far: the fast moving average of their LBD above `margin` times the slow one, at least RESTART_MIN
    conflicts into the descent."""

    def __init__(self) -> None:
        self.fast, self.slow = 0.0, 0.0
        self.margin = MARGIN  # (here so that a test can make restarts come sooner)

    def due(self, s: Solver, spent: int) -> bool:
        return spent >= RESTART_MIN and self.fast > self.margin * self.slow

    def learned(self, s: Solver, lbd: int) -> None:
        """The moving averages take in a nogood's LBD (the plain mean of those so far while it weighs each
        more: the averages start unbiased)."""
        count = float(s.learned)
        self.fast += max(FAST, 1.0 / count) * (lbd - self.fast)
        self.slow += max(SLOW, 1.0 / count) * (lbd - self.slow)


class ModeSchedule(Schedule):
    """choose=modes: each mode its schedule (the focused one `restart`'s, the stable one Luby's, STABLE_UNIT
    times longer: reluctant doubling), and a descent stops at its mode's end too, where the restart
    switches the mode: for as many conflicts as the mode before it, 1, 1, 4, 4, 9, 9, ... times the first
    mode's (Kissat's quadratic growth, in conflicts here)."""

    def __init__(self, modes: Modes, focused: Schedule, unit: int) -> None:
        self.modes, self.focused, self.stable = modes, focused, Luby(unit * STABLE_UNIT)
        self.mode_end = self.mode_first = MODE_FIRST  # the conflicts at which the present mode ends; the first's
        self.switches = 0  # how many modes have ended

    def allowance(self, s: Solver) -> int:
        allowance = (self.stable if self.modes.is_stable else self.focused).allowance(s)
        return max(0, min(allowance, self.mode_end - s.conflicts - 1))

    def due(self, s: Solver, spent: int) -> bool:
        return not self.modes.is_stable and self.focused.due(s, spent)  # (the stable mode: Luby's alone)

    def learned(self, s: Solver, lbd: int) -> None:
        self.focused.learned(s, lbd)

    def restarted(self, s: Solver) -> None:
        if s.conflicts >= self.mode_end:
            self.switches += 1
            self.modes.switch(s)
            k = (self.switches + 1) // 2 + 1
            self.mode_end = s.conflicts + self.mode_first * k * k


def policies(choose: str = "mrv", restart: str = "luby", phase: bool = False,
             unit: int = UNIT) -> tuple[Branching, Schedule]:
    """The branching and the restarts' schedule the options choose (`choose`, `restart`, `phase`, `unit`)."""
    focused: Schedule = Glucose() if restart == "glucose" else Luby(unit)
    branching: Branching
    schedule: Schedule
    if choose == "modes":
        modes = Modes()
        branching, schedule = modes, ModeSchedule(modes, focused, unit)
    else:
        branching, schedule = (Vsids() if choose == "vsids" else DomWdeg() if choose == "domwdeg"
                               else Mrv()), focused
    return (PhaseSaving(branching) if phase else branching), schedule


class Solver:
    """The assignment with its trail and reasons, the propagators, the stored clauses, the activities and the
    policies (branching, restarts) of one solve."""

    def __init__(self, grid: Grid, limits: Limits, locked: bool = False, observer: Observer | None = None,
                 branching: Branching | None = None, schedule: Schedule | None = None, derived: bool = False,
                 kept: tuple[Leftover, ...] = (), cage: str = "full", bump_reasons: bool = False,
                 required: bool = False, hidden: bool = False, var_decay: float = VAR_DECAY) -> None:
        self.grid, self.limits, self.observer = grid, limits, observer
        n = grid.side
        self.n: i64 = n
        variables = n * n * n
        self.enc = enc = encoding(geometry(grid.layout.houses), locked)
        # the assignment (the arrays of small ints are native vectors: see `assign`)
        self.value = vec[u8]([UNDEF] * (2 * variables))  # per literal: TRUE, FALSE or UNDEF
        self.level = vec[i64]([0] * variables)
        self.reason = vec[Reason]([NO_REASON] * variables)
        self.reason_at = vec[i64]([0] * variables)  # where a stored clause that implied x lies in the arena
        self.cell_of = vec[i64]([x // n for x in range(variables)])  # per variable, its cell (read, not divided)
        # every literal made true, in order: the first `assigned` items (written in place: a variable is set once at
        # most, so the variables' number is room enough; an append and a pop each cost more)
        self.trail = zeros(variables)
        self.assigned: i64 = 0
        self.trail_lim: list[int] = []  # where each decision level begins on the trail
        self.qhead: i64 = 0  # the trail up to here is propagated
        # the groups' places: per group, the mask of its variables not excluded by a propagated literal (then the
        # leftovers' masks, per side and value: `Leftovers`)
        leftovers = Leftovers(kept, n, len(enc.group_lits)) if kept else None  # (its masks after the groups')
        self.places = vec[i64]([(1 << n) - 1] * len(enc.group_lits) + (leftovers.masks() if leftovers else []))
        self.saved_places: list[vec[i64]] = []  # as each decision level found them
        # the propagators, in the order each literal meets them, and those that look at the fixpoint, in the
        # order they look (cheapest first); a layout without cages or constraints has none of theirs
        # (native vectors: compiled, an item is read without the check of its class a list's item needs, which
        # took 2% of cdcl's instructions on forum-hardest-1106, callgrind)
        self.clauses = StoredClauses(2 * variables)
        locked_candidates = LockedCandidates(enc) if locked else None
        cheap = cage == "combinations"  # (the cages' look and the 45 rule's sums of different values')
        cages = KillerCages(cage_rules(grid.layout), n, cheap=cheap, required=required, hidden=hidden) \
            if any(rule.ROOMS for rule in grid.layout.constraints) else None
        links = ConstraintLinks(link_rules(grid.layout), n) if any(grid.geometry.links) else None
        filters = ConstraintFilters(grid.layout, n) if filtered_rules(grid.layout) else None
        sums = sum_rules(grid.layout) if derived and cages is not None else None  # (redundant=45)
        bounds = SumBounds(sums, n) if sums is not None and len(sums.cells) > 0 else None
        rooms = KillerCages(sums.rooms, n, DERIVED_SUM, cheap=cheap, required=required, hidden=hidden) \
            if sums is not None and len(sums.rooms.cells) > 0 else None
        wide = KillerCages(sums.wide, n, DERIVED_SUM, sums.wide_totals) \
            if sums is not None and len(sums.wide.cells) > 0 else None
        # the 45 rule's sums of different values that only repeat a house, looked at no more after the root
        # (`retire_houses`): with the combinations that fit and locked candidates, they find nothing more, where the
        # houses are rows, columns and square boxes alone (there a cell outside a house that sees two of its cells
        # shares one house with both, a crossing of locked candidates; a diagonal or a Jigsaw region breaks that)
        self.retiring = rooms if cheap and locked_candidates is not None and grid.layout.houses.is_classic else None
        self.propagators = vec[Propagator]([q for q in (Groups(enc, locked_candidates), cages, rooms, wide, bounds,
                                                        leftovers, links, filters, self.clauses) if q is not None])
        self.lookers = vec[Propagator]([q for q in (locked_candidates, links, cages, rooms, bounds, wide, filters)
                                        if q is not None])
        self.nogoods: list[Clause] = []  # the stored nogoods (the solutions' blocks are kept apart, for good)
        # VSIDS's activities (which the branching reads)
        self.activity = vec[float]([0.0] * variables)
        self.var_inc = 1.0
        self.bump_reasons = bump_reasons  # bump=reasons: also the variables the nogood's literals rest on
        self.bumped_at = vec[i64]([0] * variables)  # per variable, the last conflict that bumped it
        # the policies: which placement a decision makes, and when a descent stops for a restart
        self.branching = branching if branching is not None else Mrv()
        self.schedule = schedule if schedule is not None else Luby(UNIT)
        self.branching.attach(self)
        # the analysis
        self.seen = vec[u8]([UNSEEN] * variables)
        self.excluded = vec[i64]([0] * variables)  # per placement, how many of a nogood's literals it excluded
        self.stack = vec[i64]([0] * variables)  # the trace of `redundant` (MiniSat's analyze_stack)
        self.met = vec[i64]()  # shorten's placements met
        self.learnt = zeros(variables + 1)  # the nogood an analysis draws, its first items (each variable once at most)
        # the variables the minimisation marked (MiniSat's analyze_toclear): the first `clearing` items (written in
        # place: each variable is marked once at most)
        self.to_clear = zeros(variables)
        self.clearing: i64 = 0
        self.stamps = vec[i64]([0] * (n * n + 1))  # per decision level, the last `lbd` count that met it
        self.stamp: i64 = 0
        self.next_reduce, self.reductions = FIRST_REDUCE, 0
        # effort
        self.nodes = self.backtracks = self.forced = self.eliminated = 0
        self.conflicts = self.learned = self.restarts = 0
        self.placed_now: i64 = 0
        # VSIDS's constants, here so that a test can make the rescaling happen early
        self.var_decay = var_decay
        self.rescale_limit = RESCALE

    # -- the assignment --------------------------------------------------------------------------
    def decision_level(self) -> int:
        return len(self.trail_lim)

    def assign(self, p: Lit, reason: Reason) -> None:
        """Make literal p true at the present level, for this reason (MiniSat's uncheckedEnqueue).

        The trail, the values, the levels, the marks of the analysis and the groups' places are
        native vectors (`librt.vecs.vec` of i64 or u8), not lists: compiled, an item is read and
        written in place, where a list's is a call and a boxed int (an allocation above 256, as most
        literals and masks are). The trail is written in place, its first `assigned` items in use."""
        x = var(p)
        value = self.value  # (one reference counted for both writes)
        value[p] = TRUE
        value[neg(p)] = FALSE
        self.level[x] = len(self.trail_lim)
        self.reason[x] = reason
        self.trail[self.assigned] = p
        self.assigned += 1

    def reason_lits(self, x: Var) -> list[Lit]:
        """The literals the reason of x's value rests on, all false: its clause's, x's own left out
        (MiniSat reads them from c[1]); none for a decision. `analyze` reads them in place (`lits_of`)."""
        lits, start, stop = self.lits_of(x)
        return [i64(lits[k]) for k in range(start, stop) if var(i64(lits[k])) != x]

    def lits_of(self, x: Var) -> tuple[vec[i32], i64, i64]:
        """Where the literals of x's reason are: items start to stop of a native vector, the reason's own
        `lits` or, for a stored clause, the stored clauses' arena (read in place, not copied)."""
        r = self.reason[x]
        if r.at != STORED:
            return r.lits, 0, len(r.lits)
        arena, at = self.clauses.arena, self.reason_at[x]
        return arena, at + 2, at + 2 + i64(arena[at + 1])

    def start(self) -> bool:
        """The givens at level 0, propagated; False when they clash. Each propagator is told of the start
        first (every cage with a total, every cell with arcs, is looked at once there, givens or not)."""
        n, observer = self.n, self.observer
        for cell, v in enumerate(self.grid.values):
            if v and self.value[placement(cell * n + v - 1)] == UNDEF:
                self.assign(placement(cell * n + v - 1), NO_REASON)  # a clash shows in the propagation
        for propagator in self.propagators:
            propagator.start(self)
        if observer is not None:
            observer.started(self.grid, self.counters)
        conflict = self.propagate()
        if conflict is not None:
            if observer is not None:
                observer.givens_clash(conflict)
            return False
        if self.retiring is not None and self.retiring.retire_houses(self):  # (then nothing is left of them to ask)
            self.propagators = vec[Propagator]([q for q in self.propagators if q is not self.retiring])
            self.lookers = vec[Propagator]([q for q in self.lookers if q is not self.retiring])
        if observer is not None:
            observer.propagated(0, self.assigned_since(0))
        return True

    def trail_now(self) -> list[Lit]:
        """The literals made true, in order (for an observer: the trail's items past `assigned` are stale)."""
        return [p for p in self.trail[:self.assigned]]

    def assigned_since(self, start: int) -> list[Assigned]:
        """The trail from `start`, each literal with the kind of its reason (for an observer)."""
        reason = self.reason
        return [Assigned(p, reason[var(p)].kind) for p in self.trail[start:self.assigned]]

    # -- propagation -------------------------------------------------------------------------------
    def propagate(self) -> list[Lit] | None:
        """Every literal of the trail not yet propagated, in order, through every propagator in turn; at
        their fixpoint, the first looker with a look waiting looks, and the literals it set are propagated
        in their turn; to a fixpoint: the clause made false (all its literals false) at a conflict, else
        None. What the looks remove is counted as `eliminated`."""
        self.placed_now = 0  # values placed by this propagation (singles, stored clauses)
        eliminated: i64 = 0
        propagators, lookers = self.propagators, self.lookers
        while True:
            while self.qhead < self.assigned:
                p = self.trail[self.qhead]
                self.qhead += 1
                for propagator in propagators:
                    conflict = propagator.propagate(self, p)
                    if conflict is not None:  # (the rest of the trail stays unpropagated: undone next)
                        for other in propagators:
                            other.clear()
                        for other in lookers:  # (locked candidates' queue is filled by the groups)
                            other.clear()
                        return conflict
            looked = False
            for looker in lookers:
                if looker.pending():
                    before = self.assigned
                    conflict = looker.look(self)
                    if conflict is not None:
                        return conflict
                    eliminated += self.assigned - before
                    looked = True
                    break
            if not looked:
                break
        self.forced += self.placed_now
        self.eliminated += eliminated
        return None

    def cancel_until(self, level: int) -> None:
        """Take back every assignment above decision level `level` (MiniSat's cancelUntil); the groups'
        places come back as that level's next decision found them. The branching is told."""
        if self.decision_level() <= level:
            return
        value, trail = self.value, self.trail
        start: i64 = self.trail_lim[level]
        for i in range(self.assigned - 1, start - 1, -1):
            p = trail[i]
            value[p] = UNDEF
            value[neg(p)] = UNDEF
        self.branching.undone(self, start)
        self.assigned = start
        del self.trail_lim[level:]
        self.qhead = start
        self.places = self.saved_places[level]
        del self.saved_places[level:]


    # -- the analysis -------------------------------------------------------------------------------
    def highest_level(self, conflict: list[Lit]) -> int:
        """The highest decision level among a conflict's literals."""
        level, top = self.level, 0
        for p in conflict:
            top = max(top, level[var(p)])
        return top

    def analyze(self, conflict: list[Lit]) -> tuple[vec[i64], int]:
        """The nogood drawn from a conflict at the present level, its first literal the one it forces
        (the negation of the first unique implication point), and the level to jump back to."""
        seen, level, trail = self.seen, self.level, self.trail
        depth: i64 = self.decision_level()
        nogood = self.learnt  # its first `size` items (written in place), the first literal set at the end
        size: i64 = 1
        path: i64 = 0  # literals of the present level met and not yet resolved
        # what is met next (lits[start:stop]), and whose reason it is (the conflict: no one's); native ints, as
        # lits_of gives them (a name's first value sets its type: a plain int would be boxed at each read)
        lits = native(conflict)
        start: i64 = 0
        stop: i64 = len(conflict)
        resolved: i64 = -1
        index: i64 = self.assigned - 1
        while True:
            for k in range(start, stop):  # each false literal met once: marked and bumped; one of the present
                q = i64(lits[k])  # level is to be resolved, one of a lower level goes into the nogood (level 0's
                x = var(q)
                if x != resolved and seen[x] == UNSEEN and level[x] > 0:  # are facts: they go)
                    seen[x] = MARKED
                    self.bump(x)
                    if level[x] >= depth:
                        path += 1
                    else:
                        nogood[size] = q
                        size += 1
            while seen[var(trail[index])] == UNSEEN:  # the next marked assignment back on the trail
                index -= 1
            p = trail[index]
            index -= 1
            resolved = var(p)
            seen[resolved] = UNSEEN
            path -= 1
            if path == 0:  # p: the first unique implication point
                break
            # resolved away: what it rests on is met instead, reason_lits(resolved) read in place (its own
            # literal skipped above): a copy for each took 5-7% longer on forum-hardest-1106 (measured)
            lits, start, stop = self.lits_of(resolved)
        nogood[0] = neg(p)
        nogood = nogood[:self.minimize(self.shorten(size))]
        if self.bump_reasons:
            self.bump_reasons_of(nogood)
        back: i64 = 0
        if len(nogood) > 1:  # the second watched literal: one of the highest level left
            top: i64 = 1
            for k in range(2, len(nogood)):
                if level[var(nogood[k])] > level[var(nogood[top])]:
                    top = k
            nogood[1], nogood[top] = nogood[top], nogood[1]
            back = level[var(nogood[1])]
        return nogood, back

    def bump_reasons_of(self, nogood: vec[i64]) -> None:
        """bump=reasons: each variable a literal of the nogood rests on (its reason's other literals, level 0's
        aside) bumped, unless the nogood holds it or the analysis met it (each is bumped once a conflict).
        Reason-side bumping (Liang, Ganesh, Poupart and Czarnecki, SAT 2016): what made the nogood's literals
        false is where the conflict came from too (docs/results/cdcl.md)."""
        marks, level = self.bumped_at, self.level
        conflict: i64 = self.conflicts  # (counted before its analysis: `bump` marks each variable with it)
        for k in range(len(nogood)):
            marks[var(nogood[k])] = conflict
        for k in range(len(nogood)):
            lits, start, stop = self.lits_of(var(nogood[k]))
            for i in range(start, stop):
                y = var(i64(lits[i]))
                if marks[y] != conflict and level[y] > 0:
                    self.bump(y)  # (which marks y with this conflict)

    def shorten(self, size: i64) -> i64:
        """Two or more exclusions of lower levels made by one placement give way to "not that
        placement": the nogood's resolvent on their reasons, weaker but shorter, and it forces the same
        literal at the same level. (The minimisation then drops those exclusions: each follows from
        the placement.) The nogood (`learnt`'s first `size` items) with those placements' negations added, in the
        order first met: its size now."""
        reason, seen, excluded, nogood = self.reason, self.seen, self.excluded, self.learnt
        met = cleared(self.met)  # each "not p" (an exclusion's reason) the nogood's rest on, first met first
        for k in range(1, size):
            q = nogood[k]
            r = reason[var(q)]
            if not sign(q) and r.kind == EXCLUDED:
                not_p = i64(r.lits[0])
                if excluded[var(not_p)] == 0:
                    met = append(met, not_p)
                excluded[var(not_p)] += 1
        for not_p in met:
            if excluded[var(not_p)] > 1 and seen[var(not_p)] == UNSEEN:
                seen[var(not_p)] = MARKED
                nogood[size] = not_p
                size += 1
            excluded[var(not_p)] = 0
        self.met = met
        return size

    def minimize(self, size: i64) -> i64:
        """The nogood (`learnt`'s first `size` items) without the literals that follow from its others (MiniSat
        2.2.0's recursive minimisation, the loop of its analyze), those kept moved forward in place: its size now.
        Every mark of the analysis cleared."""
        level, reason, seen, nogood = self.level, self.reason, self.seen, self.learnt
        levels: i64 = 0  # the nogood's abstract levels
        to_clear = self.to_clear
        for k in range(1, size):
            levels |= abstract_level(level[var(nogood[k])])
            to_clear[k - 1] = var(nogood[k])
        self.clearing = size - 1
        kept: i64 = 1
        for k in range(1, size):
            q = nogood[k]
            r = reason[var(q)]
            if r.kind == EXCLUDED and seen[var(i64(r.lits[0]))] == MARKED:
                continue  # excluded by a placement whose negation the nogood holds (`shorten`'s): `redundant`'s
                # first step, without the trace (half of the literals it is asked about, on a hard Killer)
            if r.kind == DECIDED or not self.redundant(q, levels):
                nogood[kept] = q
                kept += 1
        for k in range(self.clearing):
            seen[to_clear[k]] = UNSEEN
        return kept

    def redundant(self, p: Lit, levels: i64) -> bool:
        """Whether false literal p of a nogood follows from the nogood's other literals (MiniSat's
        litRedundant): its reasons, traced back, end in them or at level 0. A trace that reaches a
        decision, a literal already found not to follow, or a level of none of the nogood's literals
        (`levels`, its abstract levels, rules most of those out at once) fails. What it marks is added
        to `to_clear` (MiniSat's analyze_toclear; the trace's own stack, `stack`, its analyze_stack)."""
        seen, level, reason, stack = self.seen, self.level, self.reason, self.stack
        stack[0] = p
        size: i64 = 1  # the stack's items in use (each variable goes on it once at most: it is marked)
        to_clear = self.to_clear
        top = clearing = self.clearing
        while size > 0:
            size -= 1
            x = var(stack[size])
            lits, start, stop = self.lits_of(x)  # reason_lits(x) read in place (x's own literal skipped)
            for k in range(start, stop):
                q = i64(lits[k])
                y = var(q)
                if y == x or seen[y] == MARKED or level[y] == 0:
                    continue  # in the nogood, already traced, or a fact
                if seen[y] == UNSEEN and reason[y].kind != DECIDED and levels & abstract_level(level[y]):
                    seen[y] = MARKED
                    stack[size] = q
                    size += 1
                    to_clear[clearing] = y
                    clearing += 1
                    continue
                for i in range(top, clearing):  # not implied: nor (to be safe) is anything on the way
                    seen[to_clear[i]] = NOT_IMPLIED
                self.clearing = clearing
                return False
        self.clearing = clearing
        return True

    # -- VSIDS ----------------------------------------------------------------------------------------
    def bump(self, x: Var) -> None:
        """A conflict met x: more active (MiniSat's varBumpActivity)."""
        self.activity[x] = self.activity[x] + self.var_inc
        self.bumped_at[x] = self.conflicts
        self.branching.bumped(x)

    def decay_activities(self) -> None:
        """After a conflict: later bumps count more, so older ones fade (MiniSat's varDecayActivity);
        all is scaled down before floats lose the order (an activity is at most 20 bumps)."""
        self.var_inc *= 1 / self.var_decay
        if self.var_inc > self.rescale_limit:
            activity = self.activity
            for x in range(len(activity)):
                activity[x] = activity[x] / self.rescale_limit
            self.var_inc /= self.rescale_limit
            self.branching.rescaled()

    # -- the clause database --------------------------------------------------------------------------
    def add_nogood(self, nogood: vec[i64], lbd: int) -> None:
        """Store a nogood whose first literal is free and the rest false, and make that literal true."""
        self.learned += 1
        if len(nogood) > 1:
            clause = Clause(NOGOOD, [], lbd)
            self.clauses.attach(clause, vec[i32]([i32(q) for q in nogood]))
            self.nogoods.append(clause)
            self.reason_at[var(nogood[0])] = clause.at
            self.assign(nogood[0], STORED_NOGOOD)
        else:  # (a unit one, at level 0, is a fact: nothing to watch)
            self.assign(nogood[0], Clause(NOGOOD, [nogood[0]], lbd))

    def is_reason(self, c: Clause) -> bool:
        """Whether c is the reason of a present assignment, so that it may not go (MiniSat's
        locked(c))."""
        p = i64(self.clauses.arena[c.at + 2])
        return self.value[p] == TRUE and self.reason[var(p)].at == STORED and self.reason_at[var(p)] == c.at

    def reduce_db(self) -> None:
        """Glucose's rule: half of the stored nogoods spanning more than KEEP_LBD levels go, those
        spanning the most first, but no clause that is the reason of a present assignment."""
        candidates = [c for c in self.nogoods if c.lbd > KEEP_LBD and not self.is_reason(c)]
        candidates.sort(key=lbd_of, reverse=True)
        gone = candidates[:len(candidates) // 2]
        for c in gone:
            c.deleted = True
        self.nogoods = [c for c in self.nogoods if not c.deleted]
        self.clauses.forget(gone, self)

    # -- the search -------------------------------------------------------------------------------------
    def new_decision_level(self) -> None:
        """A new level begins here on the trail; the groups' places are kept as it finds them (a copy
        undoes what propagation at this level and above does to them, without a walk)."""
        self.trail_lim.append(self.assigned)
        self.saved_places.append(self.places[:])

    def decide(self, x: Var) -> None:
        """A decision: a new level, where x's value is placed."""
        self.nodes += 1
        self.new_decision_level()
        self.assign(placement(x), NO_REASON)

    def search(self, allowance: int) -> Stop:
        """One descent from level 0 until a solution, a proof there is none (left), `allowance`
        conflicts, or the budget's end."""
        limits, observer = self.limits, self.observer
        spent = 0
        while True:
            start = self.qhead
            conflict = self.propagate()
            if conflict is not None:
                self.conflicts += 1
                spent += 1
                if observer is not None:
                    observer.conflict(self.decision_level(), conflict)
                # a look that reads what no literal of this level touched (a house's hidden values, hidden=on) may
                # meet a conflict that arose lower down: the search first goes back to its literals' highest level
                top = self.highest_level(conflict)
                if top < self.decision_level():
                    self.backtracks += self.decision_level() - top
                    self.cancel_until(top)
                if self.decision_level() == 0:
                    return Stop.EXHAUSTED
                nogood, back = self.analyze(conflict)
                if observer is not None:
                    observer.analyzed(conflict, list(nogood), back)
                lbd = self.lbd(nogood)
                self.backtracks += self.decision_level() - back
                self.cancel_until(back)
                self.add_nogood(nogood, lbd)
                if observer is not None:
                    observer.backjumped(back, list(nogood), lbd)
                self.decay_activities()
                self.schedule.learned(self, lbd)
                if not self.conflicts & TIME_CHECK and time.perf_counter() > limits.deadline:
                    return Stop.TIME
                continue
            if observer is not None:
                observer.propagated(self.decision_level(), self.assigned_since(start))
            if spent > allowance or self.schedule.due(self, spent):
                return Stop.ALLOWANCE
            if self.conflicts >= self.next_reduce:
                self.reductions += 1
                self.next_reduce = self.conflicts + FIRST_REDUCE + REDUCE_STEP * self.reductions
                self.reduce_db()
            x = self.branching.pick(self)
            if x < 0:
                if observer is not None:
                    observer.solution(self.decision_level())
                return Stop.SOLUTION
            if self.nodes >= limits.nodes:
                return Stop.NODES
            if not self.nodes & TIME_CHECK and time.perf_counter() > limits.deadline:
                return Stop.TIME
            if observer is not None:
                observer.chose(self.decision_level(), x, self.places[x // self.n], self.branching.chosen_by(self, x))
            self.decide(x)
            if observer is not None:
                observer.decided(self.decision_level(), x)

    def lbd(self, nogood: vec[i64]) -> int:
        """Literal block distance: how many decision levels a clause's literals span (each level counted
        once: marked with this count's stamp, glucose's permDiff)."""
        level, stamps = self.level, self.stamps
        self.stamp += 1
        stamp = self.stamp
        count = 0
        for q in nogood:
            at = level[var(q)]
            if stamps[at] != stamp:
                stamps[at] = stamp
                count += 1
        return count

    def restart(self) -> None:
        """Back to level 0, what was learned kept."""
        self.cancel_until(0)
        self.restarts += 1
        if self.observer is not None:
            self.observer.restarted()

    def solution_so_far(self) -> bytes:
        """The values placed, a byte a cell (0: none yet); a solution once every variable is set."""
        n = self.n
        values = bytearray(n * n)
        trail = self.trail
        for i in range(self.assigned):
            p = trail[i]
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
            self.observer.blocked()
        if not lits:
            return False
        clause = Clause(SOLUTION_BLOCK, lits)  # kept for good: not among the nogoods reduce_db may forget
        if len(lits) == 1:
            self.assign(lits[0], clause)
        else:
            self.clauses.attach(clause, clause.lits)
        return True

    def counters(self) -> dict[str, int]:
        counters = {"nodes": self.nodes, "guesses": self.nodes, "backtracks": self.backtracks, "forced": self.forced}
        if len(self.lookers) > 0:  # (locked candidates, a Killer's cages, constraints)
            counters["eliminated"] = self.eliminated
        return counters | {"conflicts": self.conflicts, "learned": self.learned, "restarts": self.restarts}


def abstract_level(level: i64) -> i64:
    """A level's bit in a set of levels kept as one word (MiniSat's abstractLevel): its number mod 32.
    Two levels with one bit may be told apart by a slower look, never the reverse."""
    return 1 << (level & 31)


def lbd_of(c: Clause) -> int:
    return c.lbd


class Told(NamedTuple):
    """A placement or a removal propagation made, as the watch is told it (level 0's again after a restart)."""

    placed: bool  # a value placed, or a candidate removed
    cell: int
    value: int
    rule: str


# The rule the trace names for what an assignment's reason deduced; a decision (told as a try) and a
# placement's own exclusions (implied, as the trace says) are not told as steps.
REASON_NAMES: Final = {LAST_VALUE: "naked single", LAST_PLACE: "hidden single", NOGOOD: "learned clause",
                LOCKED_CANDIDATES: "locked candidates", SOLUTION_BLOCK: "learned clause", CAGE_SUM: "cage sum",
                DERIVED_SUM: "45 rule", LEFTOVER: "law of leftovers", CAGE_HOUSE: "cage's required value",
                CAGE_HIDDEN: "house's value hidden in a cage"}
CHOSEN_BY: Final = {
    MRV_THEN_VSIDS: "MRV, then VSIDS: of the cells with fewest values left, the most active value",
    VSIDS: "VSIDS: the most active placement not yet false",
    MRV_FIRST: "MRV: no free placement has met a conflict; the first value of a cell with fewest",
    PHASE: "phase saving: the value the cell last held",
    DOMWDEG: "dom/wdeg: the cell whose conflicts weigh most for its values left, its most active value",
}


class Narrator:
    """The solver's steps told to the watch (search/trace/ records one) in the trace's vocabulary: what propagation
    placed and what it removed that no placement explains, each decision with the choice behind it,
    each dead end, jump back, solution and restart. It reads nothing but what the solver tells it."""

    def __init__(self, watch: NarratingWatch) -> None:
        self.watch = watch
        self.n = 0  # the grid's side, once started
        self.constraints: list[str] = []  # the puzzle's constraints' names, once started: a filter's removals name it
        self.root: list[Told] = []  # what level 0 holds beyond the givens: told again after a restart

    def started(self, grid: Grid, counters: Counters) -> None:
        self.n = grid.side
        self.constraints = names(grid.layout.constraints, grid.side)
        self.watch.narrated(grid, counters)

    def givens_clash(self, conflict: list[Lit]) -> None:
        self.watch.narrated_dead_end(0, None, "the givens clash")

    def propagated(self, level: int, assigned: list[Assigned]) -> None:
        """The values singles and stored clauses placed, and the exclusions no placement explains
        (locked candidates', cages', constraints' filters', stored clauses'), in trail order."""
        n = self.n
        for p, kind in assigned:
            rule = REASON_NAMES.get(kind) if kind < CONSTRAINT else self.constraints[kind - CONSTRAINT]
            if rule is None:
                continue  # a decision, a given, or a placement's exclusion
            step = Told(not sign(p), var(p) // n, var(p) % n + 1, rule)
            if level == 0:
                self.root.append(step)
            self.tell(step, max(level - 1, 0), path=False)

    def chose(self, level: int, x: Var, left: int, by: ChoiceRule) -> None:
        """Which cell a decision fills, the values it has left, and the rule that chose."""
        self.watch.narrated_choice(level, x // self.n, values_of(left), CHOSEN_BY[by])

    def decided(self, level: int, x: Var) -> None:
        self.watch.narrated_decision(level - 1, x // self.n, x % self.n + 1)

    def conflict(self, level: int, conflict: list[Lit]) -> None:
        self.watch.narrated_dead_end(max(level - 1, 0), "conflict", "a clause has every literal false")

    def analyzed(self, conflict: list[Lit], nogood: list[Lit], back: int) -> None:
        pass

    def backjumped(self, level: int, nogood: list[Lit], lbd: int) -> None:
        self.watch.narrated_backjump(level, len(nogood))

    def solution(self, level: int) -> None:
        self.watch.narrated_solution(level)

    def blocked(self) -> None:
        self.watch.narrated_block()

    def restarted(self) -> None:
        self.watch.narrated_restart()
        for step in self.root:
            self.tell(step, 0, path=True)

    def tell(self, step: Told, depth: int, path: bool) -> None:
        """A placement or a removal propagation made (`path`: told again after a restart)."""
        if step.placed:
            self.watch.narrated_placement(depth, step.cell, step.value, step.rule, path)
        else:
            self.watch.narrated_removal(depth, step.cell, step.value, step.rule, path)


class Finish(NamedTuple):
    """How a run ended: its status, why it gave up (if it did), and the solutions found."""

    status: Status
    detail: str
    found: list[bytes]


def run(solver: Solver, solutions: int) -> Finish:
    """MiniSat's `solve`: descents, each with the allowance of conflicts the solver's schedule gives it, a
    restart between them (the schedule told: with choose=modes it may switch the mode there), until
    `solutions` solutions, a proof there are no more, or the budget's end."""
    found: list[bytes] = []
    if not solver.start():
        return Finish(Status.UNSATISFIABLE, "", found)
    schedule = solver.schedule
    while True:
        allowance = schedule.allowance(solver)  # (a solution's block goes on within the same descent's)
        while (stop := solver.search(allowance)) is Stop.SOLUTION:
            record(found, solver.solution_so_far())
            if len(found) >= solutions or not solver.block():  # (no block: the givens force this one)
                return Finish(Status.SOLVED, "", found)
        if stop is Stop.EXHAUSTED:
            return Finish(Status.SOLVED if found else Status.UNSATISFIABLE, "", found)
        if stop in BUDGET_SPENT:
            return Finish(Status.GAVE_UP, BUDGET_SPENT[stop], found)
        solver.restart()
        schedule.restarted(solver)


@contract("cdcl", OPTIONS, knows=SEARCHED)
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Singles with learned nogoods, MRV and VSIDS, and Luby restarts (MiniSat's method on the puzzle)."""
    watch = watching.get()
    solver = configured(grid, options, Limits.of(budget, started), None if watch is None else Narrator(watch))
    status, detail, found = run(solver, solutions)
    return conclude(grid, found, solutions, status, detail, solver.counters(), started)


def configured(grid: Grid, options: dict[str, Any], limits: Limits, observer: Observer | None) -> Solver:
    """The solver `solve` runs on this puzzle with these options (every one given), told to `observer`: `auto`'s
    choices made for the puzzle."""
    # `auto`'s choices: what searches Killers best (docs/results/killer.md) and large Jigsaws (docs/results/cdcl.md);
    # a layout without cages is not asked for its derived sums (kept per layout: not every Jigsaw's)
    killer = any(rule.ROOMS for rule in grid.layout.constraints) and bool(derived_sums(grid.layout))
    jigsaw = not grid.layout.box_height
    large_jigsaw = jigsaw and grid.side >= 16
    # a Jigsaw's leftovers: on 16x16 Jigsaws half the conflicts, on 12x12 ones half the time; on 9x9 and 10x10 ones a
    # quarter of the nodes, but finding them takes longer than the search saved (docs/results/cdcl.md)
    kept = leftovers(grid.layout) if options["redundant"] == "45" and jigsaw and grid.side >= LEFTOVERS_FROM else ()
    large = grid.side >= FULL_CAGES_FROM

    def chosen(name: str, auto: str) -> str:
        """The option's value as given, or `auto`'s choice for this puzzle."""
        return str(options[name]) if options[name] != "auto" else auto

    choose = chosen("choose", "domwdeg" if killer else "vsids" if large_jigsaw else "mrv")
    propagate = chosen("propagate", "locked" if killer else "singles")
    cage = chosen("cage", "full" if large else "combinations")
    bump = chosen("bump", "reasons" if large_jigsaw else "met")
    hidden = chosen("hidden", "off" if large else "on")
    decay = chosen("decay", "slow" if killer and not large else "fast")
    unit = options["unit"] if options["unit"] != "auto" else KILLER_UNIT if killer and not large else UNIT
    branching, schedule = policies(choose, options["restart"], options["phase"], unit)
    return Solver(grid, limits, locked=propagate == "locked", observer=observer, branching=branching,
                  schedule=schedule, derived=options["redundant"] == "45", kept=kept,
                  cage=cage, bump_reasons=bump == "reasons", required=options["required"],
                  hidden=hidden == "on", var_decay=SLOW_VAR_DECAY if decay == "slow" else VAR_DECAY)
