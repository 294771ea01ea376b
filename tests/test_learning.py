"""search/learning.py: the conflict-driven search, counted by hand and checked against brute force."""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable
from itertools import combinations

import pytest
from fixtures import D4, INKALA, KILLER_9, N9, P4, Q4, SEED001, blanked, counters, partial_grid, reference, run
from fixtures import SEED001_UNSAT as UNSAT9
from hypothesis import given, settings
from hypothesis import strategies as st
from variant_puzzles import JIGSAW9, JIGSAW16

from puzzles import Budget, Entry, Grid, Status, random_isomorph, read_puzzles
from puzzles.cellmasks import CellMasks
from puzzles.grid import geometry
from puzzles.options import parse
from search import SOLVERS
from search.depth_first import Limits
from search.learning import (
    DECIDED,
    EXCLUDED,
    FALSE,
    FORGOTTEN,
    LAST_PLACE,
    LAST_VALUE,
    LOCKED_CANDIDATES,
    MRV_FIRST,
    NOGOOD,
    OPTIONS,
    PHASE,
    SLOW_VAR_DECAY,
    SOLUTION_BLOCK,
    TRUE,
    UNDEF,
    UNSEEN,
    VAR_DECAY,
    VSIDS,
    Assigned,
    Encoding,
    Glucose,
    ModeSchedule,
    Narrator,
    Solver,
    configured,
    policies,
)
from search.learning import run as run_solver
from search.trace import trace


def cdcl(puzzle: str | Grid, budget: Budget = Budget(), **options):
    """A solve by cdcl, its solution checked cell by cell (test_search.run)."""
    return run("cdcl", puzzle, budget, **options)


class Quiet:
    """An observer of the solver that does nothing: the spies below override what they check, and read
    the solver's state as each step left it through `solver` (the run it watches, set by `watched`)."""

    solver: Solver

    def started(self, grid, counters): pass
    def givens_clash(self, conflict): pass
    def propagated(self, level, assigned): pass
    def chose(self, level, x, left, by): pass
    def decided(self, level, x): pass
    def conflict(self, level, conflict): pass
    def analyzed(self, conflict, nogood, back): pass
    def backjumped(self, level, nogood, lbd): pass
    def solution(self, level): pass
    def blocked(self): pass
    def restarted(self): pass


def watched(grid: Grid, observer: Quiet, budget: Budget = Budget(), solutions: int = 1, unit: int = 100,
            propagate: str = "singles", choose: str = "mrv", phase: bool = False, restart: str = "luby",
            bump: str = "met", var_decay: float = VAR_DECAY):
    """A run of the solver with an observer plugged in (what `solve` does, and the same counters);
    each solution found checked cell by cell against the givens and the rules. With choose=modes the
    first mode lasts 3 conflicts (not MODE_FIRST), so that a small puzzle's search switches modes."""
    branching, schedule = policies(choose, restart, phase, unit)
    solver = Solver(grid, Limits.of(budget, time.perf_counter()), locked=propagate == "locked", observer=observer,
                    branching=branching, schedule=schedule, bump_reasons=bump == "reasons", var_decay=var_decay)
    if isinstance(schedule, ModeSchedule):
        schedule.mode_first = schedule.mode_end = 3
    observer.solver = solver
    finish = run_solver(solver, solutions)
    for values in finish.found:
        assert grid.solution_problems(grid.with_values(list(values))) == []  # checked cell by cell
    return solver, finish


# P4, Q4, D4 and N9 are drawn in test_search.py.


def test_singles_alone_need_no_decision():
    # P4: cells 1 2 4 8 are naked singles at the start, then cell 0: 5 forced, no decision.
    # N9: cells 19 45 49 74 are singles, then 18. Both proved unique with nothing to block.
    for puzzle in (P4, N9):
        out = cdcl(puzzle, solutions=2)
        assert out.unique is True
        assert counters(out, "nodes", "guesses", "backtracks", "forced", "conflicts", "learned") == (0, 0, 0, 5, 0, 0)


def test_d4_is_refuted_by_the_givens():
    # Cell 5 sees 1 2 3 4: its group has no place left once the givens are propagated.
    out = cdcl(D4)
    assert out.status is Status.UNSATISFIABLE
    assert counters(out, "nodes", "conflicts", "learned") == (0, 0, 0)


def test_q4_by_hand():
    # Blanks 0 1 8 9, each {1,2}; no single at the start. Every activity is 0, so the first
    # decision is MRV's: every blank has two values left, so the first, cell 0 = 1 (node 1). Singles then place
    # cell 1 = 2, cell 8 = 2, cell 9 = 1 (forced 3): a solution.
    out = cdcl(Q4)
    assert counters(out, "nodes", "backtracks", "forced", "conflicts", "learned") == (1, 0, 3, 0, 0)
    assert out.solution.line() == "1234341221434321"
    # solutions=2: the clause "not cell 0 = 1, cell 1 = 2, cell 8 = 2 and cell 9 = 1 together"
    # blocks it, back to level 0. Cell 0 = 1 is again MRV's choice (node 2); singles
    # fill the rest as before and the blocking clause has every literal false: a conflict. All
    # four literals are of level 1; tracing back, every path passes through the decision, so
    # the nogood is "not cell 0 = 1" (learned 1), a fact at level 0 (backtracks 1). Cell 0
    # then has one value left: 2, and singles place cells 0 1 8 9 (forced 3 + 4 = 7): a second
    # solution, so not unique.
    out = cdcl(Q4, solutions=2)
    assert out.unique is False
    assert counters(out, "nodes", "guesses", "backtracks", "forced", "conflicts", "learned") == (2, 2, 1, 7, 1, 1)


def every_solution(grid: Grid, cap: int) -> list[bytes]:
    """The slow, obvious way: the blank cell whose filled peers leave it the fewest values tries each of them, and
    so on (row-major among equals; the fewest first, or a 9x9 of 57 blanks takes seconds to reach 300)."""
    values = bytearray(grid.values)
    geo = grid.geometry
    found: list[bytes] = []

    def allowed(cell: int) -> list[int]:
        return [v for v in range(1, grid.side + 1) if all(values[p] != v for p in geo.peers[cell])]

    def fill() -> None:
        if len(found) >= cap:
            return
        blanks = [c for c, v in enumerate(values) if not v]
        if not blanks:
            found.append(bytes(values))
            return
        cell = min(blanks, key=lambda c: len(allowed(c)))
        for v in allowed(cell):
            values[cell] = v
            fill()
            values[cell] = 0

    fill()
    return found


def holds(clause: list[int], solution: bytes, n: int) -> bool:
    """A clause (literals 2*var, "the cell holds the value", or 2*var+1, its negation; var =
    cell*n + value-1) is true in a full grid."""
    return any((solution[(lit >> 1) // n] == (lit >> 1) % n + 1) != bool(lit & 1) for lit in clause)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9), unit=st.sampled_from([1, 5]),
       propagate=st.sampled_from(["singles", "locked"]), choose=st.sampled_from(["mrv", "vsids", "modes"]))
def test_every_nogood_holds_in_every_solution_and_asserts_one_literal(box, seed, blank, unit, propagate, choose):
    # A nogood is learned from the puzzle's clauses alone (solutions=1: no blocking clause), so
    # every solution of the puzzle satisfies it. When it is learned, the search has jumped back
    # to the second-highest level among its literals: the first literal is free, the others false,
    # one of them at that level (the first unique implication point makes exactly one free).
    puzzle = blanked(box, seed, blank if box == 2 else blank * 0.7)
    n = puzzle.side
    learned: list[list[int]] = []

    class Spy(Quiet):
        def backjumped(self, level, learnt, lbd):  # (told once the clause is kept and its literal made true)
            solver = self.solver
            depth = solver.decision_level()
            assert level == depth
            assert solver.value[learnt[0]] == TRUE and solver.level[learnt[0] >> 1] == depth
            assert all(solver.value[lit] == FALSE for lit in learnt[1:])
            if len(learnt) > 1:
                assert solver.level[learnt[1] >> 1] == depth == max(solver.level[lit >> 1] for lit in learnt[1:])
            else:
                assert depth == 0
            assert lbd == len({solver.level[lit >> 1] for lit in learnt[1:]}) + 1
            learned.append(list(learnt))

    _, finish = watched(puzzle, Spy(), Budget(nodes=5_000), unit=unit, propagate=propagate, choose=choose)
    assert finish.status is Status.SOLVED
    solutions = [*every_solution(puzzle, cap=300), *finish.found]  # (all of them, up to 300)
    for clause in learned:
        assert all(holds(clause, s, n) for s in solutions), clause


def first_uip(solver: Solver, conflict: list[int]) -> tuple[int, set[int]]:
    """The slow, obvious way, from the implication graph of the present level and not from the
    trail's order: the first unique implication point is the assignment every path from the
    decision to the conflict passes through that lies closest to the conflict (each candidate is
    taken out in turn and the conflict looked for from the decision). Its true literal, and the
    literals of lower levels that the assignments between it and the conflict rest on."""
    depth, n = solver.decision_level(), solver.n
    value, level = solver.value, solver.level
    here = {var for var in range(n * n * n) if value[2 * var] != UNDEF and level[var] == depth}
    true = {var: 2 * var if value[2 * var] == TRUE else 2 * var + 1 for var in here}
    reasons = {var: solver.reason_lits(var) for var in here if solver.reason[var].kind != DECIDED}
    reasons[-1] = list(conflict)  # the conflict, a node of its own
    decision = solver.trail[solver.trail_lim[-1]] >> 1
    after: dict[int, set[int]] = {var: set() for var in here | {-1}}
    for var, clause in reasons.items():
        for q in clause:
            if q >> 1 in here:
                after[q >> 1].add(var)

    def reach(start: int, without: int | None = None) -> set[int]:
        found, todo = {start}, [start]
        while todo:
            for nxt in after[todo.pop()]:
                if nxt != without and nxt not in found:
                    found.add(nxt)
                    todo.append(nxt)
        return found

    dominators = [var for var in here if var == decision or -1 not in reach(decision, without=var)]
    uip = next(var for var in dominators if not any(w != var and w in reach(var) for w in dominators))
    cut: set[int] = set()
    seen, todo = {-1}, [-1]
    while todo:
        for q in reasons[todo.pop()]:
            var = q >> 1
            if var not in here:
                if level[var]:
                    cut.add(q)
            elif var != uip and var not in seen:
                seen.add(var)
                todo.append(var)
    return true[uip], cut


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), propagate=st.sampled_from(["singles", "locked"]),
       choose=st.sampled_from(["mrv", "vsids", "modes"]))
def test_every_nogood_is_the_first_unique_implication_point(seed, propagate, choose):
    # Every assignment is on the trail with its reason: the nogood must be the first UIP's, its
    # other literals among those the way from that point to the conflict rests on (minimisation
    # only drops some), or "not that placement" for two or more of them a placement excluded,
    # which then go.
    met = []

    def placements(solver: Solver, lits: Iterable[int]) -> Counter[int]:
        """How many of `lits` each placement excluded (the literals false by a placement's exclusion), by
        the placement's negation: the one literal such an exclusion rests on."""
        return Counter(solver.reason_lits(lit >> 1)[0] for lit in lits
                       if not lit & 1 and solver.reason[lit >> 1].kind == EXCLUDED)

    class Spy(Quiet):
        def analyzed(self, conflict, learnt, back):  # (the trail still as the conflict left it)
            solver = self.solver
            uip, cut = first_uip(solver, conflict)
            excluders = placements(solver, cut)
            assert learnt[0] == uip ^ 1
            assert set(learnt[1:]) <= cut | {not_u for not_u, k in excluders.items() if k > 1}
            assert len(set(learnt)) == len(learnt)
            kept = placements(solver, learnt[1:])
            assert all(k == 1 and not_u not in learnt for not_u, k in kept.items()), "exclusions of one placement go"
            assert all(mark == UNSEEN for mark in solver.seen), "the analysis leaves no mark behind"
            met.append(len(learnt))

    for puzzle, status in ((INKALA, Status.SOLVED), (UNSAT9, Status.UNSATISFIABLE)):
        met.clear()
        grid = random_isomorph(Grid.parse(puzzle), random.Random(seed))
        solver, finish = watched(grid, Spy(), propagate=propagate, choose=choose)
        # every conflict is analysed but the last of an unsatisfiable puzzle, met at level 0
        assert finish.status is status
        assert len(met) == solver.conflicts - (status is Status.UNSATISFIABLE)
    assert met  # UNSAT9 takes 7 conflicts or more under either rule


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), unit=st.sampled_from([1, 100]), propagate=st.sampled_from(["singles", "locked"]),
       rescale=st.booleans(), choose=st.sampled_from(["mrv", "vsids", "domwdeg", "modes"]), phase=st.booleans(),
       restart=st.sampled_from(["luby", "glucose"]), bump=st.sampled_from(["met", "reasons"]))
@pytest.mark.slow
def test_each_decision_is_the_variable_a_scan_of_them_all_finds(seed, unit, propagate, rescale, choose, phase, restart,
                                                                 bump):
    # choose=vsids: the queue holds the variables that have met a conflict, skips stale entries,
    # and parks those set above level 0, to queue them again when their level is undone; when none
    # of them is free, MRV chooses. choose=mrv: of the cells with fewest values left, the most
    # active value. choose=domwdeg: of the free cells, the one whose placements' activities (all of
    # them, summed in order) divided by its values left is greatest, ties to the lowest, then its most
    # active value; MRV's while no free cell has any activity. choose=modes: mrv's rule in the focused
    # mode, vsids' in the stable one (the heap built anew at each switch), the mode switched at restarts
    # after 3, 3, 12, 12, 27, ...
    # conflicts. The variable picked must be the one a scan of them all finds, also when the
    # activities are scaled down every few conflicts (rescale: the old ones fall to 0). With phase
    # saving, the value the rule's cell last held instead, while free: the spy keeps each cell's last
    # placement from the trail as it sees it (at each propagation and each conflict; a conflict's
    # propagation may have placed two values in a cell before it saw the clash: the first counts).
    grid = random_isomorph(Grid.parse(INKALA), random.Random(seed))
    picked = []
    last: dict[int, int] = {}  # per cell, the variable it last held
    mode = {"stable": choose == "vsids", "end": 3, "switches": 0}  # the mode as the spy reckons it

    class Spy(Quiet):
        def started(self, grid, counters):
            solver = self.solver
            if rescale:  # the bump grows 1e5-fold a conflict and the rescaling comes every few conflicts
                solver.var_decay, solver.rescale_limit = 1e-5, 1e50

        def saw(self):  # (a propagation that meets a conflict may place a cell twice: the first counts)
            for p in reversed(self.solver.trail_now()):
                if not p & 1:
                    last[(p >> 1) // self.solver.n] = p >> 1

        def propagated(self, level, assigned):
            self.saw()

        def conflict(self, level, conflict):
            self.saw()

        def restarted(self):
            if choose == "modes" and self.solver.conflicts >= mode["end"]:
                mode["switches"] += 1
                mode["stable"] = not mode["stable"]
                k = (mode["switches"] + 1) // 2 + 1
                mode["end"] = self.solver.conflicts + 3 * k * k

        def chose(self, level, x, left, by):
            solver = self.solver
            n, value, activity = solver.n, solver.value, solver.activity
            cells = {cell: range(cell * n, cell * n + n) for cell in range(n * n)}
            left = {cell: [var for var in vs if value[2 * var] == UNDEF]  # the free cells' values left
                    for cell, vs in cells.items() if not any(value[2 * var] == TRUE for var in vs)}
            free = [var for var in range(len(activity)) if value[2 * var] == UNDEF]
            assert sorted(free) == sorted(var for vs in left.values() for var in vs)
            weights = {cell: sum((activity[var] for var in cells[cell]), 0.0) / len(vs)  # dom/wdeg's, as it sums
                       for cell, vs in left.items()} if choose == "domwdeg" else {}
            if mode["stable"]:
                best = max(free, key=lambda var: (activity[var], -var))
                if not activity[best]:  # none has met a conflict: MRV's cell, its first value
                    best = min(left.values(), key=len)[0]  # (a dict keeps the cells' order: ties to the lowest)
            elif weights and max(weights.values()) > 0:
                heaviest = max(weights, key=lambda cell: (weights[cell], -cell))
                best = max(left[heaviest], key=lambda var: (activity[var], -var))
            else:
                fewest = min(map(len, left.values()))
                best = max((var for vs in left.values() if len(vs) == fewest for var in vs),
                           key=lambda var: (activity[var], -var))
            rule, saved = best, last.get(best // n, -1)
            if phase and saved in free:
                best = saved
            assert x == best
            assert (by == PHASE) == (best != rule)
            picked.append(x)

        def solution(self, level):
            assert all(value != UNDEF for value in self.solver.value)
            picked.append(-1)

    solver, finish = watched(grid, Spy(), solutions=2, unit=unit, propagate=propagate, choose=choose, phase=phase,
                             restart=restart, bump=bump)
    assert finish.status is Status.SOLVED and len(finish.found) == 1  # unique
    switches = solver.schedule.switches if isinstance(solver.schedule, ModeSchedule) else 0
    assert switches == mode["switches"]  # (0 but with choose=modes)
    assert picked.count(-1) == 1 and len(picked) == solver.nodes + 1  # a pick a decision, and the solution


@pytest.mark.parametrize("options, message", [
    ({"choose": "stable"}, "option choose='stable': choose one of auto, mrv, vsids, domwdeg, modes"),
    ({"restart": "geometric"}, "option restart='geometric': choose one of luby, glucose"),
    ({"phase": "saved"}, "option phase='saved': expected on or off"),
    ({"bump": "all"}, "option bump='all': choose one of auto, met, reasons"),
])
def test_the_policies_options_refuse_a_bad_value(options, message):
    # (the contract turns the OptionError into an error outcome that says it)
    out = SOLVERS["cdcl"](Grid.parse(Q4), **options)
    assert out.status is Status.ERROR and out.detail == f"cdcl: {message}"


@pytest.mark.parametrize("options", [{"choose": "modes"}, {"restart": "glucose"}, {"phase": "on"}, {"bump": "reasons"},
                                     {"choose": "modes", "restart": "glucose", "phase": "on", "propagate": "locked"}])
def test_each_policy_solves_and_proves_uniqueness(options):
    out = cdcl(SEED001, solutions=2, **options)
    assert out.status is Status.SOLVED and out.unique is True


@pytest.mark.parametrize("factor", [VAR_DECAY, SLOW_VAR_DECAY])
def test_each_conflicts_bump_is_the_last_ones_over_the_decay(factor):
    # The bump a conflict gives each variable its analysis meets (var_inc at its analysis) is the last conflict's
    # divided by the decay: 1 / 0.95 times with decay=fast, 1 / 0.99 with slow (the option's choice, tested in
    # test_killer_cdcl.py), counted from 1 at the first conflict (no rescaling comes this early).
    bumps = []

    class Spy(Quiet):
        def conflict(self, level, conflict):
            bumps.append(self.solver.var_inc)

    grid = random_isomorph(Grid.parse(INKALA), random.Random(0))
    solver, finish = watched(grid, Spy(), solutions=2, var_decay=factor)
    assert finish.status is Status.SOLVED and len(finish.found) == 1
    assert len(bumps) == solver.conflicts > 20
    expected = 1.0
    for bump in bumps:
        assert bump == pytest.approx(expected, rel=1e-9)
        expected /= factor


@pytest.mark.parametrize("choose", ["vsids", "mrv"])
def test_bump_reasons_bumps_once_each_variable_a_nogoods_literals_rest_on(choose):
    # At each conflict every activity the analysis raises grows by one bump (the var_inc of that conflict), none
    # by two. With bump=reasons the variables a nogood's literals rest on (their reasons' other literals, above
    # level 0), read from the trail before the jump back, are among them every time; with bump=met (MiniSat's
    # rule) some conflicts leave some of them as they were: the option changes what the search learns to prefer.
    missed = {"met": 0, "reasons": 0}  # conflicts that left a variable the nogood rests on unbumped

    class Spy(Quiet):
        def __init__(self, bump):
            self.bump = bump

        def conflict(self, level, conflict):
            self.before = list(self.solver.activity)
            self.inc = self.solver.var_inc

        def analyzed(self, conflict, nogood, back):
            solver = self.solver
            grown = {x: a - b for x, (a, b) in enumerate(zip(solver.activity, self.before, strict=True)) if a != b}
            assert all(abs(d - self.inc) <= 1e-9 * self.inc for d in grown.values())
            rest_on = {q >> 1 for p in nogood for q in solver.reason_lits(p >> 1) if solver.level[q >> 1] > 0}
            rest_on -= {p >> 1 for p in nogood}
            if not rest_on <= grown.keys():
                missed[self.bump] += 1

    for bump in ("met", "reasons"):
        conflicts = 0
        for seed in range(3):
            grid = random_isomorph(Grid.parse(INKALA), random.Random(seed))
            solver, finish = watched(grid, Spy(bump), solutions=2, choose=choose, bump=bump)
            assert finish.status is Status.SOLVED and len(finish.found) == 1  # unique, checked cell by cell
            conflicts += solver.conflicts
        assert conflicts > 20  # (enough for the comparison to mean something)
    assert missed["met"] > 0 and missed["reasons"] == 0


@pytest.mark.parametrize("choose", ["mrv", "vsids"])
def test_after_forgetting_each_stored_clause_is_watched_by_its_first_two_literals_alone(choose):
    # The watches read the way propagation reads them (each literal's first `used` items, pairs of a clause's place
    # and a blocker) hold, at each decision, every clause kept, once from each of its first two literals, and
    # nothing else, each blocker a literal of its clause; with the stored nogoods forgotten every few conflicts
    # (reduce_db brought forward), so that the watches are cut and moved while the search goes on.
    checked = {"decisions": 0, "forgotten": 0}

    class Spy(Quiet):
        def chose(self, level, x, left, by):
            solver = self.solver
            stored = solver.clauses
            arena = list(stored.arena)
            expected, blockers_ok = Counter(), True
            for clause in stored.clauses:
                if clause is not FORGOTTEN:
                    lits = arena[clause.at + 2:clause.at + 2 + arena[clause.at + 1]]
                    expected[(lits[0], clause.at)] += 1
                    expected[(lits[1], clause.at)] += 1
            found = Counter()
            for p, ws in enumerate(stored.watches):
                items = list(ws)[:stored.used[p]]
                for at, blocker in zip(items[0::2], items[1::2], strict=True):
                    found[(p, at)] += 1
                    size = arena[at + 1]
                    blockers_ok &= blocker in arena[at + 2:at + 2 + size]
            assert found == expected and blockers_ok
            checked["decisions"] += 1
            checked["forgotten"] = max(checked["forgotten"], sum(clause is FORGOTTEN for clause in stored.clauses))
            solver.next_reduce = min(solver.next_reduce, solver.conflicts + 3)  # forget again soon

    for seed in range(3):
        grid = random_isomorph(Grid.parse(INKALA), random.Random(seed))
        _, finish = watched(grid, Spy(), solutions=2, choose=choose)
        assert finish.status is Status.SOLVED and len(finish.found) == 1  # unique, checked cell by cell
    assert checked["decisions"] > 20 and checked["forgotten"] > 0


def test_auto_bumps_the_reasons_side_on_a_16x16_jigsaw_alone():
    # bump=auto: reasons on a Jigsaw of 16x16 or more; MiniSat's rule on a smaller Jigsaw, on classic Sudoku of
    # any size and on a Killer; either rule when asked for by name
    puzzles = {"16x16 Jigsaw": (JIGSAW16, True), "9x9 Jigsaw": (JIGSAW9, False), "9x9": (INKALA, False),
               "16x16": ("." * 256, False), "9x9 Killer": (KILLER_9, False)}
    for name, (text, expected) in puzzles.items():
        grid = Grid.parse(text)
        for asked, bumped in (({}, expected), ({"bump": "met"}, False), ({"bump": "reasons"}, True)):
            solver = configured(grid, parse(OPTIONS, asked), Limits(float("inf"), float("inf")), None)
            assert solver.bump_reasons is bumped, (name, asked)


@pytest.mark.parametrize("seed, choose", [(0, "mrv"), (1, "mrv"), (1, "vsids")])
def test_glucose_restarts_once_the_recent_nogoods_span_more_levels(seed, choose, collection):
    # restart=glucose: the fast and the slow moving averages of the nogoods' LBD, reckoned here from
    # what the observer is told; a descent restarts at its first decision after 2 conflicts or more
    # where the fast one is above `margin` times the slow one, and never before. (The margin is made
    # 1 here, from Kissat's 1.1, so that a 9x9 search restarts.)
    entries = [e for e in read_puzzles(collection("forum-hardest-1106")) if isinstance(e, Entry)]
    grid = random_isomorph(entries[7].grid, random.Random(seed))
    state = {"fast": 0.0, "slow": 0.0, "count": 0, "spent": 0}

    def due():
        return state["spent"] >= 2 and state["fast"] > state["slow"]

    class Spy(Quiet):
        def started(self, grid, counters):
            schedule = self.solver.schedule
            glucose = schedule.focused if isinstance(schedule, ModeSchedule) else schedule
            assert isinstance(glucose, Glucose)
            glucose.margin = 1.0

        def backjumped(self, level, nogood, lbd):
            state["count"] += 1
            state["spent"] += 1
            state["fast"] += max(0.03, 1.0 / state["count"]) * (lbd - state["fast"])
            state["slow"] += max(1e-5, 1.0 / state["count"]) * (lbd - state["slow"])

        def chose(self, level, x, left, by):
            assert not due()

        def restarted(self):
            assert due()
            state["spent"] = 0

    solver, finish = watched(grid, Spy(), solutions=2, choose=choose, restart="glucose")
    assert finish.status is Status.SOLVED and solver.restarts > 0


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.8),
       propagate=st.sampled_from(["singles", "locked"]))
def test_uniqueness_agrees_with_brute_force(box, seed, blank, propagate):
    puzzle = blanked(box, seed, blank if box == 2 else blank * 0.7)
    solutions = every_solution(puzzle, cap=2)
    out = cdcl(puzzle, solutions=2, unit=2, propagate=propagate)
    assert out.status is Status.SOLVED
    assert out.unique is (len(solutions) == 1)


@pytest.mark.parametrize("line, propagate", [(2, "singles"), (3, "singles"), (3, "locked")])
def test_minimal_16x16_puzzles(line, propagate, collection):
    path = collection("gecode-16x16")
    entries = [e for e in read_puzzles(path) if isinstance(e, Entry)]
    out = cdcl(entries[line].grid, Budget(seconds=60), solutions=2, propagate=propagate)
    assert out.status is Status.SOLVED and out.unique is True


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8))
def test_propagation_at_the_root_is_the_singles_fixpoint(box, seed, blank):
    # Before any decision, propagation is naked and hidden singles and nothing else: the values it
    # places and the candidates it leaves are those of the per-cell masks' singles (a fixpoint is unique).
    puzzle = blanked(box, seed, blank)
    n = puzzle.side
    learner = Solver(puzzle, Limits(float("inf"), float("inf")))
    consistent = learner.start()
    boards = CellMasks(puzzle)
    assert consistent is (boards.force_singles() >= 0)
    if not consistent:
        return
    assert learner.solution_so_far() == boards.state()
    for cell in range(n * n):
        if not boards.state()[cell]:
            free = sum(1 << v for v in range(n) if learner.value[2 * (cell * n + v)] == UNDEF)
            assert free == boards.candidates(cell), cell


@settings(max_examples=60, deadline=None)
@given(box=st.sampled_from([2, 3, 3, 4]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
       wrong=st.sampled_from([0, 0, 1, 2]))
def test_propagation_at_the_root_with_locked_candidates_is_the_ladders_locked_fixpoint(box, seed, blank, wrong):
    # propagate=locked before any decision: the candidates left (a placed cell: its value's bit)
    # are those of search/rules.py's fixpoint of singles and locked candidates, and a contradiction
    # is found exactly where that fixpoint finds one.
    grid = partial_grid(box, seed, blank, wrong)
    n = grid.side
    learner = Solver(grid, Limits(float("inf"), float("inf")), locked=True)
    consistent = learner.start()
    expected = reference(grid, "locked")
    assert consistent is (expected is not None)
    if expected is None:
        return
    left = [0 if grid.values[cell] else sum(1 << v for v in range(n) if learner.value[2 * (cell * n + v)] != FALSE)
            for cell in range(n * n)]
    assert left == expected


def test_locked_candidates_at_the_root_by_hand():
    # ....|23..|....|.... (4x4): no single at the start. Cells 4 5 hold 2 3, so box 0's 1 and 4
    # can only go in cells 0 1, both in row 0 (pointing): cells 2 and 3 lose 1 and 4 (eliminated
    # 4) and keep {2,3}. Nothing else is locked (box 2's 2 and 3 point into columns whose other
    # cells lack them already), and no single follows. Singles alone remove nothing of the sort.
    grid = Grid.parse("....23..........")
    left = {}
    for locked in (False, True):
        learner = Solver(grid, Limits(float("inf"), float("inf")), locked=locked)
        assert learner.start()
        left[locked] = [sum(1 << v for v in range(4) if learner.value[2 * (cell * 4 + v)] != FALSE)
                        for cell in range(4)]
        assert (learner.forced, learner.eliminated) == (0, 4 if locked else 0)
    assert left[False] == [0b1001, 0b1001, 0b1111, 0b1111]
    assert left[True] == [0b1001, 0b1001, 0b0110, 0b0110]


def test_q4_watched_by_hand():
    # The search of test_q4_by_hand as the trace tells it (search/trace/'s vocabulary).
    # Cell 0 = 1 excludes cell 0's 2 and the 1s of cells 1 and 8. Row 1's 2 is then left with
    # cell 1 alone, column 1's 2 with cell 8, column 2's 1 with cell 9: three hidden singles, in
    # the order their groups were left with one place. The solution is blocked, back to level 0
    # (not a counted backtrack); cell 0 = 1 again; the blocking clause is false: a conflict, a
    # jump back to level 0, and the nogood "not cell 0 = 1" removes 1 from cell 0, which then
    # has one value left (a naked single); its peers follow as hidden singles.
    traced = trace(Grid.parse(Q4), "cdcl:solutions=2")
    assert [(e.kind, e.depth, e.cell, e.value, e.rule) for e in traced.events] == [
        ("choose", 0, [0, 0], None, None), ("try", 0, [0, 0], 1, None),
        ("place", 0, [0, 1], 2, "hidden single"), ("place", 0, [2, 0], 2, "hidden single"),
        ("place", 0, [2, 1], 1, "hidden single"), ("solution", 1, None, None, None),
        ("backtrack", 0, None, None, None),
        ("choose", 0, [0, 0], None, None), ("try", 0, [0, 0], 1, None),
        ("dead_end", 0, None, None, "conflict"), ("backtrack", 0, None, None, None),
        ("remove", 0, [0, 0], 1, "learned clause"), ("place", 0, [0, 0], 2, "naked single"),
        ("place", 0, [0, 1], 1, "hidden single"), ("place", 0, [2, 0], 1, "hidden single"),
        ("place", 0, [2, 1], 2, "hidden single"), ("solution", 0, None, None, None)]
    assert [e.detail.get("counted") for e in traced.events if e.kind == "backtrack"] == [False, True]
    nodes = [e.counters["nodes"] for e in traced.events]
    assert nodes == [0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2]
    assert traced.counters == cdcl(Q4, solutions=2).effort


@pytest.mark.parametrize("puzzle, options, effort", [
    (SEED001, {}, (36, 33, 155, 33, 32)),
    (SEED001, {"propagate": "locked"}, (29, 27, 122, 26, 25)),
    (INKALA, {"propagate": "locked"}, (34, 33, 129, 32, 31)),
    (UNSAT9, {"choose": "vsids"}, (18, 18, 57, 17, 16)),
])
def test_the_counters_of_the_rewrite_are_pinned(puzzle, options, effort):
    # The rewrite in MiniSat's shape propagates the trail's literals in order (the old code updated a
    # group's places as each exclusion was made), so on a puzzle with conflicts the search differs
    # from the old one's; these are its figures (nodes, backtracks, forced, conflicts, learned) with
    # solutions=2, pinned so that any change to the search shows. Each nogood's soundness and first
    # UIP are checked above; here the search is held as it is.
    out = cdcl(puzzle, solutions=2, **options)
    assert counters(out, "nodes", "backtracks", "forced", "conflicts", "learned") == effort
    assert out.effort["guesses"] == out.effort["nodes"]


def test_reasons_of_q4_by_hand():
    # test_q4_by_hand's search, each assignment with the literals its reason rests on (literal 2 * var for
    # "cell = value", + 1 for "not"; var = cell * 4 + value - 1). Cell 0 = 1, the decision, rests on
    # nothing. Row 0's 2 is left with cell 1 alone: its reason is row 0's clause "2 is in cell 0, 1, 2 or
    # 3", so it rests on 2 being at none of cells 0, 2, 3 (literals 2, 18, 26). Column 0's 2 is left with
    # cell 8 (cells 0, 4, 12: 2, 34, 98), column 1's 1 with cell 9 (cells 1, 5, 13: 8, 40, 104). Then the
    # solution is blocked, and the nogood "not cell 0 = 1" (literal 1) is a unit clause: it rests on
    # nothing, and leaves cell 0 one value, 2, a naked single resting on cell 0's other values (0, 4, 6).
    # An exclusion made by a placement rests on that placement alone: "not cell 0 = 2" on cell 0 = 1.
    told: list[tuple[int, list[tuple[int, int, list[int]]]]] = []
    excluded: dict[int, list[int]] = {}

    class Spy(Quiet):
        def propagated(self, level, assigned):
            solver = self.solver
            told.append((level, [(p, kind, solver.reason_lits(p >> 1)) for p, kind in assigned if kind != EXCLUDED]))
            for p, kind in assigned:
                if kind == EXCLUDED:
                    excluded.setdefault(p, solver.reason_lits(p >> 1))

    watched(Grid.parse(Q4), Spy(), solutions=2)
    assert excluded[3] == [1]
    start, first, after_nogood = [(level, assigned) for level, assigned in told if assigned]  # (the givens first)
    assert first == (1, [(0, DECIDED, []), (10, LAST_PLACE, [2, 18, 26]), (66, LAST_PLACE, [2, 34, 98]),
                         (72, LAST_PLACE, [8, 40, 104])])
    level, assigned = after_nogood
    assert level == 0 and assigned[:2] == [(1, NOGOOD, []), (2, LAST_VALUE, [0, 4, 6])]
    assert start[0] == 0 and {kind for _, kind, _ in start[1]} == {DECIDED}  # Q4 has no single at the start


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 10**6), blank=st.floats(0.4, 0.9),
       propagate=st.sampled_from(["singles", "locked"]), choose=st.sampled_from(["mrv", "vsids", "modes"]))
def test_every_reason_is_a_clause_whose_other_literals_were_false_before(box, seed, blank, propagate, choose):
    # At each propagation an observer is told, each assignment it made rests on literals made false
    # before it on the trail, and they form with it a clause of its kind: an exclusion's, "not both" of
    # two placements sharing a group; a naked single's, the cell's values; a hidden single's, a unit's
    # places for the value; a stored clause's (a nogood, locked candidates'), a clause every solution
    # (found by brute force, up to 300) holds. What the observer is told is the trail's end, with each
    # reason's kind.
    grid = blanked(box, seed, blank if box == 2 else blank * 0.7)
    n, geo = grid.side, geometry(box)
    solutions = every_solution(grid, cap=300)
    checked: Counter[int] = Counter()

    class Spy(Quiet):
        def propagated(self, level, assigned):
            solver = self.solver
            trail = solver.trail_now()
            assert assigned == [(p, solver.reason[p >> 1].kind) for p in trail[len(trail) - len(assigned):]]
            where = {p: i for i, p in enumerate(trail)}
            for p, kind in assigned:
                x = p >> 1
                lits = solver.reason_lits(x)
                assert all(solver.value[q] == FALSE and where[q ^ 1] < where[p] for q in lits)
                cell, v = divmod(x, n)
                if kind == DECIDED:
                    assert lits == [] and not p & 1
                elif kind == EXCLUDED:
                    [q] = lits
                    other_cell, w = divmod(q >> 1, n)
                    assert p & 1 and q & 1
                    assert (other_cell == cell and w != v) or (w == v and other_cell in geo.peers[cell])
                elif kind == LAST_VALUE:
                    assert not p & 1 and sorted(lits) == [2 * (cell * n + w) for w in range(n) if w != v]
                elif kind == LAST_PLACE:
                    assert not p & 1
                    assert any(sorted(lits) == sorted(2 * (c * n + v) for c in unit if c != cell)
                               for unit in geo.units if cell in unit)
                else:  # (solutions=1: no solution's block, so every stored clause follows from the puzzle)
                    assert kind in (NOGOOD, LOCKED_CANDIDATES)
                    assert all(holds([p, *lits], s, n) for s in solutions)
                checked[kind] += 1

    _, finish = watched(grid, Spy(), Budget(nodes=3_000), unit=1, propagate=propagate, choose=choose)
    assert finish.status is Status.SOLVED and checked[EXCLUDED]


class Heard:
    """A watch that keeps what it is told: each call's name (narrated_ left off) and arguments."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def narrated(self, grid, counters):
        self.events.append(("narrated", grid.line(), counters()))

    def __getattr__(self, name):
        assert name.startswith("narrated_"), name
        return lambda *args: self.events.append((name.removeprefix("narrated_"), *args))


def test_the_narrator_tells_what_the_calls_carry():
    # No solver here: the narrator hears typed calls and tells the trace's steps from them alone. On a
    # 4x4 (var = cell * 4 + value - 1): a decision and a placement's exclusion are not told as steps;
    # var 5 placed as a hidden single is cell 1 = 2; var 6 excluded by locked candidates, cell 1 loses
    # 3. Depths are levels - 1. Level 0's steps are told again, as a path, after a restart.
    heard = Heard()
    narrator = Narrator(heard)
    narrator.started(Grid.parse(Q4), lambda: {"nodes": 7})
    narrator.propagated(1, [Assigned(0, DECIDED), Assigned(3, EXCLUDED), Assigned(10, LAST_PLACE),
                            Assigned(13, LOCKED_CANDIDATES)])
    narrator.propagated(0, [Assigned(4, LAST_VALUE), Assigned(15, NOGOOD), Assigned(25, SOLUTION_BLOCK)])
    narrator.chose(2, 9, 0b0101, VSIDS)
    narrator.decided(3, 9)
    narrator.conflict(3, [1, 3])
    narrator.backjumped(1, [1, 2, 3], 2)
    narrator.chose(0, 0, 0b0011, MRV_FIRST)
    narrator.solution(4)
    narrator.blocked()
    narrator.restarted()
    narrator.givens_clash([1, 3])
    assert heard.events == [
        ("narrated", Grid.parse(Q4).line(), {"nodes": 7}),
        ("placement", 0, 1, 2, "hidden single", False), ("removal", 0, 1, 3, "locked candidates", False),
        ("placement", 0, 0, 3, "naked single", False), ("removal", 0, 1, 4, "learned clause", False),
        ("removal", 0, 3, 1, "learned clause", False),
        ("choice", 2, 2, [1, 3], "VSIDS: the most active placement not yet false"),
        ("decision", 2, 2, 2),
        ("dead_end", 2, "conflict", "a clause has every literal false"),
        ("backjump", 1, 3),
        ("choice", 0, 0, [1, 2], "MRV: no free placement has met a conflict; the first value of a cell with fewest"),
        ("solution", 4),
        ("block",),
        ("restart",),
        ("placement", 0, 0, 3, "naked single", True), ("removal", 0, 1, 4, "learned clause", True),
        ("removal", 0, 3, 1, "learned clause", True),
        ("dead_end", 0, None, "the givens clash")]


@pytest.mark.parametrize("box", [2, 3, 4])
def test_the_masks_locked_candidates_looks_at_are_those_inside_a_crossing(box):
    # With propagate=locked, a group whose places (two or more) all lie where a line crosses a box is
    # looked at. The slow, obvious way: from the grid's units themselves, the places of each unit that
    # lie in another it crosses (b cells shared), and every mask of two or more of them.
    geo = geometry(box)
    n = geo.side
    inside = set()
    for unit in geo.units:
        for other in geo.units:
            shared = [k for k, cell in enumerate(unit) if cell in other]
            if len(shared) == box and other != unit:
                inside |= {sum(1 << k for k in some) for size in range(2, box + 1)
                           for some in combinations(shared, size)}
    enc = Encoding(geometry(box), locked=True)
    assert {m for m in range(1 << n) if enc.look[m >> 3] >> (m & 7) & 1} == inside
    assert len(enc.look) == max((1 << n) // 8, 1) and Encoding(geometry(box), locked=False).look == b""

