"""search/: the pinned counters of the seeds, hand-derived counters, the Outcome contract."""
from __future__ import annotations

import pytest
from fixtures import (
    ALL,
    COMPLETE,
    D4,
    INKALA,
    N9,
    P4,
    Q4,
    SEED000,
    SEED001,
    SEED001_UNSAT,
    SEED002_MULTI,
    SEED003,
    TOP95_FIRST,
    counters,
    run,
)

from puzzles import Budget, Grid, Status, classic
from search import SOLVERS
from search.backtracking import RowMajor
from search.depth_first import Descent, Effort, Limits, Stop
from search.restart import luby

# -- the seeds' own counts -------------------------------------------------------

def test_seed000_mrv_makes_51_placements_without_a_backtrack():
    # The seed reports 52 iterations: its loop counts the start as one.
    out = run("mrv", SEED000)
    assert out.status is Status.SOLVED
    assert counters(out, "nodes", "guesses", "backtracks") == (51, 0, 0)


def test_seed001_mrv_with_its_open_list_makes_444_placements():
    # Seed 001's Python MRV removes the chosen cell from its list of open cells and appends
    # the cells it steps back over at the end; it reports 444 steps, each one a placement.
    out = run("mrv-requeue", SEED001)
    assert out.status is Status.SOLVED
    assert out.effort["nodes"] == 444


@pytest.mark.slow
def test_seed003_backtracking_makes_1027695_placements():
    out = run("backtracking", SEED003)
    assert out.status is Status.SOLVED
    assert out.effort["nodes"] == 1_027_695


# -- hand-derived counters --------------------------------------------------------
#


def test_p4_backtracking_by_hand():
    # Row-major order 0 1 2 4 8, values ascending:
    #  1. cell 0 = 2 (guess: 3, 4 untried)   2. cell 1 = 3 (its only candidate)
    #     cell 2: row {2,3,1}, column {4,1,3}: nothing left -> undo cell 1 (backtrack 1),
    #     cell 1 has no other value -> undo cell 0 (backtrack 2)
    #  3. cell 0 = 3 (guess: 4 untried); cell 1: row {3,1} + column {1,4,2}: nothing -> undo cell 0 (backtrack 3)
    #  4. cell 0 = 4 (its last alternative: not a guess)   5. cell 1 = 3   6. cell 2 = 2
    #  7. cell 4 = 2   8. cell 8 = 3: solved.
    # With solutions=2 the search undoes the solution path (not backtracks: it led somewhere),
    # finds every cell on it out of values, and stops: unique.
    out = run("backtracking", P4)
    assert counters(out, "nodes", "guesses", "backtracks") == (8, 2, 3)
    out = run("backtracking", P4, solutions=2)
    assert out.unique is True and counters(out, "nodes", "guesses", "backtracks") == (8, 2, 3)


@pytest.mark.parametrize("variant", ["mrv", "mrv-swap", "mrv-requeue"])
def test_p4_mrv_by_hand(variant):
    # rowmajor: fewest first = cell 1 (1 candidate, first in row-major) = 3; then cell 0 has
    # {2,4} and cell 2 {2}: cell 2 = 2; then cell 0 {4} is first: = 4; cell 4 = 2; cell 8 = 3.
    # swap (tdoku): to-do [0 1 2 4 8]; depth 0 scans from cell 0 (3 candidates), stops at cell 1
    # (<= 1), swaps -> [1 0 2 4 8]; depth 1 scans cell 0 (2), stops at cell 2 -> [1 2 0 4 8];
    # depth 2: cell 0 has 1, stop at once; then 4, then 8. requeue: open [0 1 2 4 8], cell 1
    # leaves it, then cell 2, then cell 0, 4, 8 (no step back, so no cell rejoins).
    # Every way: 5 placements, all forced.
    out = run(variant, P4, solutions=2)
    assert out.unique is True
    assert counters(out, "nodes", "guesses", "backtracks") == (5, 0, 0)
    assert "forced" not in out.effort  # no inference, so the counter does not apply


@pytest.mark.parametrize("variant", ["mrv-singles", "mrv-singles-swap"])
def test_p4_singles_alone_solve_it(variant):
    # Cells 1 2 4 8 are naked singles at the start; then cell 0 has {4}: 5 forced, no node.
    out = run(variant, P4, solutions=2)
    assert out.unique is True
    assert counters(out, "nodes", "guesses", "backtracks", "forced") == (0, 0, 0, 5)


@pytest.mark.parametrize("variant", ["restart-luby", "restart-none"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_p4_restart_by_hand(variant, seed):
    # The fewest-candidates cells are always naked singles (cells 1 2 4 8, then cell 0 once
    # cells 1 and 2 are placed), so whichever the random choice, 5 forced placements and no dead end.
    out = run(variant, P4, seed=seed)
    assert out.status is Status.SOLVED
    assert counters(out, "nodes", "guesses", "backtracks", "restarts") == (5, 0, 0, 0)


def test_p4_astar_by_hand():
    # Candidate counts 3+1+1+1+1 = 7: root f = 0 + 7/4. Every state branches on a cell with
    # one candidate (k = 1): cell 1, then 2, 0, 4, 8, with totals left 5, 3, 2, 1, 0.
    # 6 states taken off (the last is the goal), 5 expanded, 6 pushed (root included),
    # never more than one on the frontier.
    out = run("astar", P4, solutions=2)
    assert out.unique is True
    assert counters(out, "nodes", "expanded", "generated", "frontier_peak") == (6, 5, 6, 1)


@pytest.mark.parametrize("variant", ["backtracking", "mrv", "mrv-swap", "mrv-requeue"])
def test_q4_depth_first_by_hand(variant):
    # Every cell has 2 candidates: cell 0 = 1 (guess); then cells 1, 8 have {2}, cell 9 {1}:
    # 3 forced placements, solved after 4 nodes. With solutions=2: the path is undone (no
    # backtrack), cell 0 = 2 (last alternative), 3 forced: 8 nodes, a second solution.
    out = run(variant, Q4)
    assert counters(out, "nodes", "guesses", "backtracks") == (4, 1, 0)
    out = run(variant, Q4, solutions=2)
    assert out.unique is False
    assert counters(out, "nodes", "guesses", "backtracks") == (8, 1, 0)


def test_q4_singles_by_hand():
    # No single at the start (each unit's two blanks share {1,2}); cell 0 = 1 is the one
    # node, then singles place 3 values. solutions=2: cell 0 = 2, 3 more forced.
    out = run("mrv-singles", Q4, solutions=2)
    assert out.unique is False
    assert counters(out, "nodes", "guesses", "backtracks", "forced") == (2, 1, 0, 6)


def test_q4_astar_by_hand():
    # root: total 8, f = 2. Expand (cell 0, k = 2): children 1 and 2, each g = 2 with totals
    # 4 (cells 1, 8 have one candidate, cell 9 two): f = 3, 3. Each then branches on cell 1
    # (k = 1, total 2, f = 3.5), then on cell 8 (total 1, f = 4.25), then on cell 9 (goal,
    # f = 5); equal f goes to the state pushed first, so the two branches alternate.
    # Taken off: root, 2 children, 2+2+2 deeper states, then the first goal: 8 nodes,
    # 7 expanded, 9 pushed, at most 2 on the frontier. solutions=2: the other goal, 9 nodes.
    out = run("astar", Q4)
    assert counters(out, "nodes", "expanded", "generated", "frontier_peak") == (8, 7, 9, 2)
    assert out.solution.line() == "1234341221434321"
    out = run("astar", Q4, solutions=2)
    assert out.unique is False
    assert counters(out, "nodes", "expanded", "generated", "frontier_peak") == (9, 7, 9, 2)


def test_n9_by_hand():
    # backtracking: cell 18 = 5 (guess); cell 19 then has nothing (row 3 lacks 6, column 2
    # lacks 5) -> undo (backtrack 1); cell 18 = 6 (last alternative); cells 19, 45, 49, 74 forced.
    out = run("backtracking", N9, solutions=2)
    assert out.unique is True
    assert counters(out, "nodes", "guesses", "backtracks") == (6, 1, 1)
    # mrv: cell 19 (first single) = 5, then cell 18 has {6} and is first: 5 placements, all forced.
    out = run("mrv", N9, solutions=2)
    assert counters(out, "nodes", "guesses", "backtracks") == (5, 0, 0)
    # singles: cells 19 45 49 74 are naked singles, then 18: no node.
    out = run("mrv-singles", N9, solutions=2)
    assert counters(out, "nodes", "forced") == (0, 5)
    # restart: the fewest cells are always naked singles, whatever the random choice.
    for seed in range(3):
        out = run("restart-none", N9, seed=seed)
        assert counters(out, "nodes", "guesses", "backtracks", "restarts") == (5, 0, 0, 0)
    # A*: totals 6 -> 4 -> 3 -> 2 -> 1 -> 0, k = 1 each time: a single path.
    out = run("astar", N9)
    assert counters(out, "nodes", "expanded", "generated", "frontier_peak") == (6, 5, 6, 1)


def test_d4_unsatisfiable_by_hand():
    # backtracking reaches cell 5 after cells 2, 3: cell 2 = 3 (guess), cell 3 = 4, cell 5
    # dead -> backtracks 1, 2; cell 2 = 4 (last), cell 3 = 3, cell 5 dead -> backtracks 3, 4.
    out = run("backtracking", D4)
    assert out.status is Status.UNSATISFIABLE
    assert counters(out, "nodes", "guesses", "backtracks") == (4, 1, 4)
    # MRV sees the dead cell first: proved with no placement.
    for variant in ("mrv", "mrv-swap", "mrv-requeue", "mrv-singles", "mrv-singles-swap", "restart-luby"):
        out = run(variant, D4)
        assert out.status is Status.UNSATISFIABLE, variant
        assert counters(out, "nodes", "guesses", "backtracks") == (0, 0, 0), variant
    # A*: the root is taken off and has no child.
    out = run("astar", D4)
    assert out.status is Status.UNSATISFIABLE
    assert counters(out, "nodes", "expanded", "generated", "frontier_peak") == (1, 1, 1, 1)
    # The seed's method restarts at every dead end and cannot prove anything.
    out = run("restart-none", D4, max_restarts=3)
    assert out.status is Status.GAVE_UP and out.detail == "max_restarts"
    assert counters(out, "nodes", "restarts") == (0, 3)


# -- one descent: why it stops ----------------------------------------------------

def test_a_descent_says_why_it_stopped():
    unlimited = Limits(float("inf"), float("inf"))
    # D4 with backtracking makes 4 backtracks (above): an allowance of 2 stops it at the third
    effort = Effort()
    assert Descent(RowMajor(Grid.parse(D4)), effort, unlimited, allowance=2).run() is Stop.ALLOWANCE
    assert (effort.nodes, effort.backtracks) == (4, 2)  # cell 2 = 4, cell 3 = 3, and cell 5 is dead again
    effort = Effort()
    assert Descent(RowMajor(Grid.parse(D4)), effort, unlimited).run() is Stop.EXHAUSTED
    assert effort.counters() == {"nodes": 4, "guesses": 1, "backtracks": 4}
    # Q4: a solution, resumed: the other one, then the tree is exhausted (the counts of the test above)
    strategy, effort = RowMajor(Grid.parse(Q4)), Effort()
    descent = Descent(strategy, effort, unlimited)
    solutions = []
    while (stop := descent.run()) is Stop.SOLUTION:
        solutions.append(strategy.engine.state())
    assert stop is Stop.EXHAUSTED and len(set(solutions)) == 2
    assert effort.counters() == {"nodes": 8, "guesses": 1, "backtracks": 0}
    # a node budget
    effort = Effort()
    assert Descent(RowMajor(Grid.parse(TOP95_FIRST)), effort, Limits(10, float("inf"))).run() is Stop.NODES
    assert effort.nodes == 10


# -- solve, agree, prove ----------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(COMPLETE))
def test_unsatisfiable_9x9_is_proved(variant):
    budget = Budget(nodes=2_000_000)
    assert run(variant, SEED001_UNSAT, budget).status is Status.UNSATISFIABLE


def test_unsatisfiable_9x9_defeats_the_seeds_restarts():
    out = run("restart-none", SEED001_UNSAT, max_restarts=50)
    assert out.status is Status.GAVE_UP and out.detail == "max_restarts"
    assert out.effort["restarts"] == 50


@pytest.mark.parametrize("variant", sorted(COMPLETE))
def test_seed002_has_more_than_one_solution(variant):
    out = run(variant, SEED002_MULTI, solutions=2)
    assert out.status is Status.SOLVED and out.unique is False


@pytest.mark.parametrize("variant", sorted(ALL))
def test_seed000_unique_and_agreed(variant):
    out = run(variant, SEED000, solutions=2)
    assert out.status is Status.SOLVED
    assert out.solution == run("mrv", SEED000).solution
    if variant != "restart-none":
        assert out.unique is True
    else:
        assert out.unique is None  # the seed's method cannot prove uniqueness
        assert out.detail.startswith("uniqueness not proved")


def test_first_solution_is_the_one_returned_with_two():
    for variant in COMPLETE:
        assert run(variant, SEED002_MULTI).solution == run(variant, SEED002_MULTI, solutions=2).solution, variant


@pytest.mark.parametrize("line", [
    "7F.4...3C..8..A...E...G..5....4..5B..E.....79C.88...F.....AD..1.........3....76F....17..D....3B5....A..5.4C.GD.....B....7.6F4..9AE5..2...B..6984...7..3......2...C..69...E3AB..1...8..7.2C.GE.3.C...7.96.......B...58G2C1.F.7..6.3..DA..4.968G2...4.............",
    ".H..CD..G4..P.6..J..21.78...3.NE.A...K.4.I.72....MDF.K.L.MO.....7.N.CA.39.......I1...J53.....4..E..H..2..9...BHAE...L...G.D......P..C...9G.....KD....6.CI...G.9...OME..B...28K7.7....5...C..H1..6EN....4....E8..D.BL.JPG..39.AH..F..G.M.6..7.2..A...I...P......KF.49O6..N.......1..3.B.L..A..G.FK...2D7.MP...27..3.5.L.C.EIM..N6...9......18.....J.LF..9.C.....G4.9.....27...HE.I..J.L5...C8G......6O...L..K...D5.PBM.C...93..J7.D.....HNG.34J.6N.H.K..F..I.1P.5ML......B...I1.A.6O..E3..J..NE..2...FL.B....9..1C...6E.....KF.....O.4.5J8.C...P.LO.I18.3J...D......6....FDGBL...18IC..6EA.J..53....5.N.H...D...C1...L...C.8.2.93.5EH...L..OMF.7GK",
], ids=["16x16", "25x25"])
def test_large_boxes_with_singles(line):
    for variant in ("mrv-singles", "mrv-singles-swap"):
        out = run(variant, line, solutions=2)
        assert out.status is Status.SOLVED and out.unique is True


def test_large_box_every_method_on_a_nearly_full_grid():
    # the 16x16 solution with its first row blanked: a few nodes for everyone
    full = run("mrv-singles", test_large_boxes_with_singles.pytestmark[0].args[1][0]).solution
    puzzle = Grid(classic(4), bytes(16) + full.values[16:])
    for variant in ALL:
        out = run(variant, puzzle, solutions=2)
        assert out.solution == full, variant


# -- budgets ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(ALL))
def test_node_budget_stops_every_method(variant):
    # cdcl finds INKALA's solution, and proves it unique, in 30 decisions or more (locked
    # candidates solve TOP95_FIRST with none): it gets 3
    puzzle, limit, solutions = (INKALA, 3, 2) if variant.startswith("cdcl") else (TOP95_FIRST, 10, 1)
    out = run(variant, puzzle, Budget(nodes=limit), solutions=solutions)
    assert out.status is Status.GAVE_UP and out.detail == "nodes"
    assert 0 < out.effort["nodes"] <= limit
    if variant.startswith(("astar", "restart")):
        return
    assert out.effort["nodes"] == limit  # the limit is exact for the depth-first searches (and cdcl)


@pytest.mark.parametrize("variant", sorted(ALL))
def test_time_budget_stops_every_method(variant):
    # the clock is read when the search first decides (locked candidates decide nothing on TOP95_FIRST)
    out = run(variant, INKALA if variant.startswith("cdcl") else TOP95_FIRST, Budget(seconds=0.0))
    assert out.status is Status.GAVE_UP and out.detail == "time"
    assert out.effort  # the counters so far come back


def test_time_budget_mid_search():
    out = run("backtracking", TOP95_FIRST, Budget(seconds=0.05))
    assert out.status is Status.GAVE_UP and out.detail == "time" and out.effort["nodes"] > 0


def test_budget_after_the_first_solution_keeps_it():
    first = run("mrv", SEED001).effort["nodes"]
    out = run("mrv", SEED001, Budget(nodes=first + 1), solutions=2)
    assert out.status is Status.SOLVED and out.unique is None
    assert out.detail == "uniqueness not proved: nodes"


# -- determinism --------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(ALL))
def test_same_input_same_counters(variant):
    a = run(variant, SEED002_MULTI, Budget(nodes=20_000), solutions=2)
    b = run(variant, SEED002_MULTI, Budget(nodes=20_000), solutions=2)
    assert (a.status, a.effort, a.solution, a.unique) == (b.status, b.effort, b.solution, b.unique)


def test_restart_seed_changes_the_run_but_not_the_answer():
    runs = [run("restart-luby", SEED001, seed=s, solutions=2) for s in range(4)]
    assert len({tuple(r.effort.values()) for r in runs}) > 1
    assert len({r.solution for r in runs}) == 1


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


# -- the contract: options and errors --------------------------------------------

def test_registry_documents_options_and_counters():
    assert set(SOLVERS) == {"backtracking", "mrv", "restart", "astar", "cdcl"}
    for method in SOLVERS.values():
        assert method.summary and method.counters and "solutions" in method.options
    assert "swap" in SOLVERS["mrv"].options["tie"] and "requeue" in SOLVERS["mrv"].options["tie"]
    assert "singles" in SOLVERS["mrv"].options["propagate"]
    assert set(SOLVERS["restart"].options) >= {"seed", "cutoff", "unit", "max_restarts"}
    assert set(SOLVERS["astar"].counters) == {"nodes", "expanded", "generated", "frontier_peak", "forced", "eliminated"}
    for name in ("mrv", "restart", "astar"):  # the ladder's rungs, for every method but the seeds' backtracking
        assert "alldiff" in SOLVERS[name].options["propagate"] and "probe" in SOLVERS[name].options["propagate"]


def test_string_options_are_converted():
    out = SOLVERS["restart"](Grid.parse(SEED002_MULTI), solutions="2", seed="7", cutoff="luby", unit="5")
    assert out.status is Status.SOLVED and out.unique is False
    out = SOLVERS["astar"](Grid.parse(SEED000), weight="1.5", heuristic="zero")
    assert out.status is Status.SOLVED


@pytest.mark.parametrize("name, options, message", [
    ("mrv", {"propagat": "singles"}, "unknown option 'propagat'"),
    ("mrv", {"propagate": "triples"}, "choose one of none, naked, singles, locked"),
    ("mrv", {"tie": 3}, "choose one of rowmajor, swap, requeue"),
    ("backtracking", {"seed": 1}, "unknown option 'seed'"),
    ("restart", {"seed": "x"}, "option seed='x'"),
    ("restart", {"seed": -1}, "option seed=-1"),
    ("restart", {"unit": 0}, "option unit=0"),
    ("astar", {"weight": "heavy"}, "option weight='heavy'"),
    ("astar", {"weight": -1}, "option weight=-1"),
    ("mrv", {"solutions": 0}, "option solutions=0"),
    ("mrv", {"solutions": "two"}, "option solutions='two'"),
])
def test_bad_options_are_error_outcomes(name, options, message):
    out = SOLVERS[name](Grid.parse(SEED000), **options)
    assert out.status is Status.ERROR and message in out.detail


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_duplicate_givens_are_an_error_outcome(name):
    out = SOLVERS[name](Grid.parse("7" + SEED000[1:]))
    assert out.status is Status.ERROR and "two 7s in row 1" in out.detail


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_full_grid_is_solved_with_no_search(name):
    full = run("mrv", SEED000).solution
    out = SOLVERS[name](full, solutions=2)
    assert out.status is Status.SOLVED and out.solution == full
    assert out.effort["nodes"] == (1 if name == "astar" else 0)
