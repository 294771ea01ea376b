"""The SAT formulation's rungs: four encodings, unit propagation alone, probing, and guesses per solver."""
from __future__ import annotations

from math import comb
from pathlib import Path

import pytest
from fixtures import ROW_COLUMN_UNSAT, SEED000, SEED001, SEED002_MULTI, pattern, rung_settles, scattered

from formulations import SOLVERS
from formulations.cnf import (
    ENCODINGS,
    build_layout_clauses,
    decode,
    encode,
    givens,
    house_clauses,
    layout_clauses,
    variables,
)
from formulations.pysat_solvers import BACKENDS, FREE_DECISIONS, load
from puzzles.grid import Grid, classic
from puzzles.outcome import Budget, GaveUp, Status

SAT = SOLVERS["sat"]

# Puzzles built to need one rule each (givens removed from a random isomorph of a full grid while
# the rung, and it alone, still settles it); `rung_settles` below checks what each needs.
NEEDS = {
    "naked": "68..1....9..3..6...4.2....7....7.1.9..69..4..13....8..35.....9........64...8.7...",
    "singles": "68.....4....3.5....4......7....7.1.9..6.3....1.....87.35....7.....1...64...8.7...",
    "locked": "...1...........241...567....75.3.9.......4....832.....5.........92.7...6...68.3..",
}
# What unit propagation does on each encoding: minimal and natural place naked singles, complete
# also hidden singles, augmented also locked candidates.
RUNG = {"minimal": "naked", "natural": "naked", "complete": "singles", "augmented": "locked"}
RUNGS = ("naked", "singles", "locked")


def project_seeds() -> list[tuple[str, Grid]]:
    path = Path(__file__).resolve().parents[1] / "puzzles" / "seeds.txt"
    entries = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            text, _, name = line.strip().partition(" ")
            grid = Grid.parse(text)
            if not grid.conflicts():
                entries.append((name, grid))
    return entries


# -- the models ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_clause_and_variable_counts_by_formula(box: int) -> None:
    n = box * box
    pairs, triad_pairs = comb(n, 2), comb(box, 2)
    expected = {
        "minimal": n * n + 3 * n * n * pairs,  # at least one per cell; pairwise at most one per unit-value
        "natural": n * n * (1 + pairs) + 3 * n * n * pairs,  # + pairwise at most one per cell
        "complete": 4 * n * n * (1 + pairs),  # exactly one per cell and per unit-value
        # exactly one per cell; 2*n*box segments x n values, each a triad defined by box + 1 clauses;
        # exactly one triad per line-value (2n lines) and per box-value (twice: rows, columns)
        "augmented": n * n * (1 + pairs) + 2 * n * n * box * (box + 1) + 4 * n * n * (1 + triad_pairs),
    }
    for encoding in ENCODINGS:
        assert len(layout_clauses(classic(box), encoding)) == expected[encoding], encoding
        literals = {abs(lit) for clause in layout_clauses(classic(box), encoding) for lit in clause}
        assert literals == set(range(1, variables(classic(box), encoding) + 1)), encoding
    assert variables(classic(box), "augmented") == n**3 + 2 * n * n * box


# two Killers of classic 4x4 houses, their cages their own (tests/test_killer_seen.py's and test_killer_search.py's)
KILLERS_4 = ("................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3", "................;k=aacbeecbdffbddgg:3,9,5,7,7,5,4")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_killers_of_the_same_houses_share_their_houses_clauses(encoding: str) -> None:
    """A layout's clauses are its houses' then its cages'; the houses' are built once for both Killers (the same
    clauses), and a Jigsaw's, drawn for a puzzle, afresh each time."""
    first, second = (Grid.parse(text).layout for text in KILLERS_4)
    houses = house_clauses(classic(2), encoding)
    for build in (layout_clauses, build_layout_clauses):
        made = [build(lay, encoding) for lay in (first, second)]
        for clauses in made:
            assert list(clauses[:len(houses)]) == houses and len(clauses) > len(houses)
        assert all(a is b for a, b in zip(made[0][:len(houses)], made[1][:len(houses)], strict=True))
        assert made[0][len(houses):] != made[1][len(houses):]
    jigsaw = Grid.parse("." * 16 + ";r=1112122233343444").layout
    assert not jigsaw.box_height
    again = [build_layout_clauses(jigsaw, encoding) for _ in range(2)]
    assert again[0] == again[1] == tuple(house_clauses(jigsaw, encoding))
    assert not any(a is b for a, b in zip(*again, strict=True))


def test_size_in_info_and_default_encode_unchanged() -> None:
    puzzle = Grid.parse(SEED000)
    for encoding in ENCODINGS:
        outcome = SAT(puzzle, encoding=encoding)
        assert outcome.info["encoding"] == encoding
        assert outcome.info["variables"] == variables(classic(3), encoding)
        assert outcome.info["clauses"] == len(layout_clauses(classic(3), encoding)) + puzzle.givens
    nvars, clauses = encode(puzzle)  # benchmarks/versus_pycosat.py and the DIMACS export read this
    assert nvars == 729 and len(clauses) == (81 + 243) * 37 + puzzle.givens
    assert [9 * 3 + 7] in clauses  # row 1, column 4 holds 7: var(c, v) = c*n + v
    solution = SAT(puzzle).solution
    triads = range(730, variables(classic(3), "augmented") + 1)
    model = [c * 9 + v for c, v in enumerate(solution.values)] + list(triads)
    assert decode(puzzle, model) == solution  # triad variables are not cell-values


# -- solving and agreeing ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_solves_every_box_size_checked_cell_by_cell(encoding: str) -> None:
    for box, keep in ((2, 0.4), (3, 0.5), (4, 0.7)):
        puzzle = scattered(box, keep)
        outcome = SAT(puzzle, Budget(seconds=60), encoding=encoding, solutions=2)
        assert outcome.status is Status.SOLVED, (box, outcome.detail)
        assert puzzle.solution_problems(outcome.solution) == []
    for line in (SEED001, SEED000):
        puzzle = Grid.parse(line)
        assert puzzle.solution_problems(SAT(puzzle, encoding=encoding).solution) == []


@pytest.mark.slow
@pytest.mark.parametrize("incremental", ["off", "on"])
def test_encodings_agree_on_the_seeds_file(incremental: str) -> None:
    for label, puzzle in project_seeds():
        answers = set()
        for encoding in ENCODINGS:
            outcome = SAT(puzzle, Budget(seconds=60), encoding=encoding, incremental=incremental, solutions=2)
            assert outcome.status in (Status.SOLVED, Status.UNSATISFIABLE), (label, encoding, outcome.detail)
            if outcome.solved:
                assert puzzle.solution_problems(outcome.solution) == [], (label, encoding)
            answers.add((outcome.status, outcome.unique, outcome.solution if outcome.unique else None))
        assert len(answers) == 1, (label, answers)
        status, unique, _ = answers.pop()
        assert (status is Status.UNSATISFIABLE) == ("no-solution" in label), label
        assert unique is (None if "no-solution" in label else "multiple" not in label), label


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_multi_solution_and_unsatisfiable(encoding: str) -> None:
    for incremental in ("off", "on", "on"):  # twice on the kept solver: the blocking clause was retired
        outcome = SAT(Grid.parse(SEED002_MULTI), encoding=encoding, incremental=incremental, solutions=2)
        assert outcome.status is Status.SOLVED and outcome.unique is False, incremental
        for solutions in (1, 2):
            refuted = SAT(Grid.parse(ROW_COLUMN_UNSAT), encoding=encoding, incremental=incremental, solutions=solutions)
            assert refuted.status is Status.UNSATISFIABLE


@pytest.mark.slow
@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_every_encoding_agrees_on_multi_solution_and_unsatisfiable_puzzles_of_every_box_size(box: int) -> None:
    # An almost empty grid has many solutions; a row whose last blank can hold only a value its column
    # has already has none (the 9x9 cases above, for every box size).
    n = box * box
    sparse = [v if c < n else 0 for c, v in enumerate(pattern(box))]  # the first row given
    clash = [*range(1, n), 0] + [0] * (n - 1) + [n] + [0] * (n * n - 2 * n)  # row 1 leaves n; column n has n
    for encoding in ENCODINGS:
        many = SAT(Grid(classic(box), bytes(sparse)), Budget(seconds=120), encoding=encoding, solutions=2)
        assert many.status is Status.SOLVED and many.unique is False, (box, encoding)
        assert Grid(classic(box), bytes(sparse)).solution_problems(many.solution) == []
        for search in ("on", "off"):
            refuted = SAT(Grid(classic(box), bytes(clash)), Budget(seconds=120), encoding=encoding, search=search)
            assert refuted.status is Status.UNSATISFIABLE, (box, encoding, search)


@pytest.mark.slow
def test_each_encoding_solves_a_25x25_checked_cell_by_cell() -> None:
    puzzle = scattered(5, 0.8)
    for encoding in ENCODINGS:
        outcome = SAT(puzzle, Budget(seconds=120), encoding=encoding)
        assert outcome.status is Status.SOLVED, (encoding, outcome.detail)
        assert puzzle.solution_problems(outcome.solution) == [], encoding
        assert outcome.solution.values == bytes(pattern(5))  # the grid it was scattered from, cell by cell


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_propagation_alone_on_a_kept_solver_is_propagation_on_a_fresh_one(encoding: str) -> None:
    # compare.py --ladder runs unit propagation with incremental=on: no search, so nothing is learnt
    # and each puzzle meets the bare clauses, even after searches on a kept solver of the same process.
    learnt = sum(SAT(Grid.parse(line), encoding=encoding, incremental="on", solutions=2).effort["conflicts"]
                 for line in (SEED001, SEED002_MULTI, NEEDS["locked"]))
    assert learnt > 0  # a kept solver of this process has searched, and learnt
    for line in [*NEEDS.values(), SEED001, SEED000, SEED002_MULTI, ROW_COLUMN_UNSAT] * 2:
        for probe in ("off", "on"):
            fresh = SAT(Grid.parse(line), encoding=encoding, search="off", probe=probe)
            kept = SAT(Grid.parse(line), encoding=encoding, search="off", probe=probe, incremental="on")
            assert (kept.status, kept.solution, kept.info.get("unassigned")) == \
                (fresh.status, fresh.solution, fresh.info.get("unassigned")), (line, probe)


def test_kept_solver_is_left_as_it_was() -> None:
    puzzle = Grid.parse(SEED002_MULTI)
    first = SAT(puzzle, incremental="on", solutions=2)
    # The first solution, given in full, is still a solution to the kept solver.
    full = SAT(first.solution, incremental="on", solutions=2)
    assert full.status is Status.SOLVED and full.solution == first.solution and full.unique is True


# -- unit propagation alone ---------------------------------------------------------


def test_built_puzzles_need_exactly_their_rule() -> None:
    for need, line in NEEDS.items():
        puzzle = Grid.parse(line)
        settled = {rung for rung in RUNGS if rung_settles(puzzle, rung)}
        assert settled == set(RUNGS[RUNGS.index(need):]), need


@pytest.mark.parametrize("need", list(NEEDS))
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_propagation_alone_settles_exactly_what_its_rung_does(encoding: str, need: str) -> None:
    puzzle = Grid.parse(NEEDS[need])
    should = RUNGS.index(need) <= RUNGS.index(RUNG[encoding])
    outcome = SAT(puzzle, encoding=encoding, search="off", solutions=2)
    assert outcome.effort["decisions"] == 0 and outcome.effort["guesses"] == 0
    if should:
        assert outcome.status is Status.SOLVED and outcome.unique is True
        assert puzzle.solution_problems(outcome.solution) == []
        assert outcome.info["unassigned"] == 0
    else:
        assert outcome.status is Status.GAVE_UP and outcome.detail == GaveUp.INCOMPLETE
        assert outcome.info["unassigned"] > 0
    # One solution asked for: solved alike, uniqueness not claimed.
    one = SAT(puzzle, encoding=encoding, search="off")
    assert one.status is outcome.status and one.unique is None


def test_propagation_refutes_and_probing_goes_further() -> None:
    for encoding in ENCODINGS:
        assert SAT(Grid.parse(ROW_COLUMN_UNSAT), encoding=encoding, search="off").status is Status.UNSATISFIABLE
    stuck = SAT(Grid.parse(SEED001), search="off")
    probed = SAT(Grid.parse(SEED001), search="off", probe="on")
    assert probed.status is Status.GAVE_UP and probed.info["probes"] > 0
    assert 0 < probed.info["unassigned"] < stuck.info["unassigned"]
    assert probed.info["probe_failed"] > 0
    # seed 003: probing alone settles it, where propagation alone is stuck.
    seed003 = Grid.parse(".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.")
    assert SAT(seed003, search="off").status is Status.GAVE_UP
    settled = SAT(seed003, search="off", probe="on")
    assert settled.status is Status.SOLVED and seed003.solution_problems(settled.solution) == []
    searched = SAT(seed003, probe="on")
    assert searched.solution == settled.solution and searched.effort["guesses"] == 0


def test_solver_without_propagate_is_refused_up_front() -> None:
    for options in ({"search": "off"}, {"probe": "on"}):
        outcome = SAT(Grid.parse(SEED000), solver="lingeling", **options)
        assert outcome.status is Status.ERROR and "lingeling" in outcome.detail
        assert SAT.check(**options, solver="lingeling") is not None
    assert SAT.check(search="off", solver="cadical195") is None
    # Lingeling counts assumptions as decisions: a kept solver could not tell its guesses.
    assert "incremental" in str(SAT.check(incremental="on", solver="lingeling"))


# -- guesses: decisions that were real choices, per solver ------------------------------


def test_free_decisions_known_for_every_solver() -> None:
    assert set(FREE_DECISIONS) == set(BACKENDS)
    assert SAT.no_guess == ("guesses", 0)


@pytest.mark.parametrize("solver", BACKENDS)
def test_guesses_zero_where_propagation_settles(solver: str) -> None:
    for need, encodings in (("naked", ENCODINGS), ("singles", ("complete", "augmented")), ("locked", ("augmented",))):
        puzzle = Grid.parse(NEEDS[need])
        for encoding in encodings:
            for incremental in ("off", "on") if solver != "lingeling" else ("off",):
                for solutions in (1, 2):
                    outcome = SAT(puzzle, solver=solver, encoding=encoding, incremental=incremental,
                                  solutions=solutions)
                    assert outcome.status is Status.SOLVED, (need, encoding)
                    effort = outcome.effort
                    assert effort["guesses"] == 0, (need, encoding, incremental, solutions, effort)
                    assert effort["decisions"] == FREE_DECISIONS[solver], (need, encoding, effort)


@pytest.mark.parametrize("solver", [s for s in BACKENDS if FREE_DECISIONS[s]])
def test_guesses_counted_where_search_is_needed(solver: str) -> None:
    # The MiniSat family decides on these. (CaDiCaL may settle a puzzle with no decision counted
    # by its lucky-phase and probing passes, so its guesses are a lower bound.)
    for line in (SEED001, NEEDS["locked"]):
        outcome = SAT(Grid.parse(line), solver=solver)
        assert outcome.effort["guesses"] > 0
        assert outcome.effort["decisions"] == outcome.effort["guesses"] + FREE_DECISIONS[solver]


@pytest.mark.parametrize("solver", [s for s in BACKENDS if s != "lingeling"])
def test_rules_loaded_directly_make_the_same_solver(solver: str) -> None:
    """pysat_solvers.load's C-level loop hands over the clauses append_formula would, in the same order: same search."""
    import pysolvers
    from pysat.solvers import Solver

    from formulations.pysat_solvers import _ADD_CLAUSE

    function, handle = _ADD_CLAUSE[solver]  # the direct path exists for this solver, not the fallback
    assert callable(getattr(pysolvers, function)) and getattr(Solver(name=solver).solver, handle) is not None
    puzzle = Grid.parse("005300000800000020070010500400005300010070006003200080060500009004000030000009700")
    runs = []
    for direct in (True, False):
        sat = Solver(name=solver)
        load(sat, solver, layout_clauses(classic(3)), direct=direct)
        sat.append_formula([[lit] for lit in givens(puzzle)])
        assert sat.solve() is True
        runs.append((decode(puzzle, sat.get_model()), sat.accum_stats()))
        sat.delete()
    assert runs[0] == runs[1]
    assert puzzle.solution_problems(runs[0][0]) == []
