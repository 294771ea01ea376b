"""Killer cages in the formulations (CP-SAT, the 0-1 MIP, python-constraint): every formulation and every option
that states cages, on small Killers cut from known solutions, checked cell by cell and against a slow obvious
count (every 4x4 grid enumerated; a plain backtracking count on 6x6 and 9x9)."""
from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest
from fixtures import SEED000, count_by_cpsat

from formulations import SOLVERS, cpsat, csp, mip
from formulations.constraints.cpsat import REDUNDANT, SUMS, allowed_tuples, table_rows
from formulations.export import export_text
from puzzles.constraints.innies import derived_sums
from puzzles.constraints.killer import Cage, cages_in
from puzzles.grid import Grid, PuzzleError, geometry
from puzzles.layouts import Layout, family
from puzzles.outcome import Outcome, Status

# Every formulation that knows cages, with every option value that changes how they are stated.
CPSAT = [{"model": model, "sums": sums, "redundant": redundant}
         for model, sums, redundant in product(("integer", "boolean"), SUMS, REDUNDANT)]
CONFIGS = ([("cpsat", opts) for opts in CPSAT]
           + [("mip", {"redundant": redundant}) for redundant in ("none", "45")]
           + [("python-constraint", {})])
IDS = [name + "".join(f"-{v}" for v in opts.values()) for name, opts in CONFIGS]
KNOW_CAGES = ("cpsat", "mip", "python-constraint")


# -- the slow obvious references ---------------------------------------------------------------------------------

def cages_hold(cages: tuple[Cage, ...], values: tuple[int, ...] | list[int]) -> bool:
    """Every cage's values differ and sum to its total (a full grid)."""
    for cage in cages:
        held = [values[c] for c in cage.cells]
        if len(set(held)) != len(held) or (cage.total is not None and sum(held) != cage.total):
            return False
    return True


@cache
def full_grids(houses: Layout) -> tuple[tuple[int, ...], ...]:
    """Every full grid of a layout's houses, by plain backtracking (288 for the 4x4 boxes)."""
    geo, n = geometry(houses), houses.side
    values = [0] * geo.cells
    found: list[tuple[int, ...]] = []

    def fill(c: int) -> None:
        if c == geo.cells:
            found.append(tuple(values))
            return
        for v in range(1, n + 1):
            if all(values[p] != v for p in geo.peers[c]):
                values[c] = v
                fill(c + 1)
        values[c] = 0

    fill(0)
    return tuple(found)


def brute_solutions(grid: Grid) -> list[tuple[int, ...]]:
    """The puzzle's solutions among every full grid of its houses: givens kept, cages held."""
    return [full for full in full_grids(grid.layout.houses)
            if all(not v or v == w for v, w in zip(grid.values, full, strict=True))
            and cages_hold(cages_in(grid.layout.constraints), full)]


def count_by_backtracking(grid: Grid, limit: int = 2) -> int:
    """Up to `limit` solutions, by backtracking cell by cell in row-major order: a value a peer holds is
    skipped, and a cage's partial sum must leave its other cells a reachable rest (slow, obvious, independent)."""
    geo, n, lay = grid.geometry, grid.side, grid.layout
    values = list(grid.values)
    cages_of = [[cage for cage in cages_in(lay.constraints) if c in cage.cells] for c in range(geo.cells)]
    count = 0

    def cage_ok(cage: Cage) -> bool:
        held = [values[c] for c in cage.cells if values[c]]
        if len(set(held)) != len(held):
            return False
        if cage.total is None:
            return True
        rest = len(cage.cells) - len(held)
        low = sum(range(1, rest + 1))
        high = sum(range(n - rest + 1, n + 1))
        return sum(held) + low <= cage.total <= sum(held) + high

    def fill(c: int) -> bool:
        nonlocal count
        if c == geo.cells:
            count += 1
            return count >= limit
        if grid.values[c]:
            return all(cage_ok(cage) for cage in cages_of[c]) and fill(c + 1)
        for v in range(1, n + 1):
            if any(values[p] == v for p in geo.peers[c]):
                continue
            values[c] = v
            if all(cage_ok(cage) for cage in cages_of[c]) and fill(c + 1):
                return True
        values[c] = 0
        return False

    fill(0)
    return count


# -- puzzles: a known solution cut into cages --------------------------------------------------------------------

def a_solution(houses: Layout, seed: int) -> list[int]:
    """A full grid of the houses, by backtracking with values in a random order."""
    geo, n = geometry(houses), houses.side
    rng = random.Random(seed)
    values = [0] * geo.cells

    def fill(c: int) -> bool:
        if c == geo.cells:
            return True
        for v in rng.sample(range(1, n + 1), n):
            if all(values[p] != v for p in geo.peers[c]):
                values[c] = v
                if fill(c + 1):
                    return True
        values[c] = 0
        return False

    assert fill(0)
    return values


def cut(solution: list[int], side: int, seed: int, largest: int) -> list[Cage]:
    """The solution's cells cut into connected cages of 1..largest cells holding different values, each with
    the solution's sum as its total."""
    rng = random.Random(seed)
    free = set(range(side * side))
    cages = []
    for start in rng.sample(range(side * side), side * side):
        if start not in free:
            continue
        cells, size = [start], rng.randint(1, largest)
        free.discard(start)
        while len(cells) < size:
            near = [d for c in cells for d in neighbours(c, side)
                    if d in free and solution[d] not in {solution[e] for e in cells}]
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return cages


def neighbours(c: int, side: int) -> list[int]:
    r, k = divmod(c, side)
    return [rr * side + kk for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
            if 0 <= rr < side and 0 <= kk < side]


def killer(cages: list[Cage], side: int, givens: dict[int, int] | None = None, diagonals: str = "") -> Grid:
    values = [0] * side * side
    for c, v in (givens or {}).items():
        values[c] = v
    return Grid(family(side, diagonals=diagonals, constraints=cages), bytes(values))


def solve(name: str, opts: dict[str, str], grid: Grid, solutions: int = 2) -> Outcome:
    out = SOLVERS[name](grid, solutions=solutions, **opts)
    assert out.status is not Status.ERROR, out.detail
    if out.solution is not None:
        assert grid.solution_problems(out.solution) == []  # houses, givens and cages, cell by cell
    return out


def assert_agrees(out: Outcome, solutions: list[tuple[int, ...]]) -> None:
    """The outcome says what the reference found: none, the only one, or one of several."""
    if not solutions:
        assert out.status is Status.UNSATISFIABLE, out.detail
        return
    assert out.status is Status.SOLVED, out.detail
    assert out.solution is not None and tuple(out.solution.values) in solutions
    assert out.unique is (len(solutions) == 1)


def loosened(cages: list[Cage], solution: list[int], side: int, seed: int) -> list[Cage]:
    """The cages with every third one's total dropped (only its repeats forbidden), and two more cages laid
    over them (overlapping), of two or three touching cells with different values and the solution's sum."""
    rng = random.Random(seed)
    cages = [Cage(cage.cells, None) if i % 3 == 2 else cage for i, cage in enumerate(cages)]
    for _ in range(2):
        cells = [rng.randrange(side * side)]
        while len(cells) < rng.randint(2, 3):
            near = [d for d in neighbours(cells[-1], side)
                    if d not in cells and solution[d] not in {solution[e] for e in cells}]
            if not near:
                break
            cells.append(rng.choice(near))
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return cages


def killers(side: int, seeds: range, largest: int) -> list[tuple[str, Grid]]:
    """Killers cut from random solutions: Killer-X on odd seeds, givens on some, loose and overlapping cages
    on every third."""
    found = []
    for seed in seeds:
        diagonals = "+-" if seed % 2 else ""
        solution = a_solution(family(side, diagonals=diagonals), seed)
        cages = cut(solution, side, seed, largest=largest + seed % 2)
        if seed % 3 == 0:
            cages = loosened(cages, solution, side, seed)
        givens = {c: solution[c] for c in random.Random(seed).sample(range(side * side), seed % 3)}
        label = f"{side}x{side}-{seed}{'-x' if diagonals else ''}-{len(givens)}g{'-loose' if seed % 3 == 0 else ''}"
        found.append((label, killer(cages, side, givens, diagonals)))
    return found


# 4x4 Killers (boxes and Killer-X); their solutions counted by enumerating every grid run from one to dozens,
# so the uniqueness proof is tried both ways.
SMALL = killers(4, range(12), largest=3)
# 6x6 Killers, counted (up to two) by backtracking.
MEDIUM = killers(6, range(4), largest=3)


@pytest.mark.parametrize(("label", "grid"), SMALL, ids=[label for label, _ in SMALL])
def test_4x4_killers_against_every_grid(label: str, grid: Grid) -> None:
    solutions = brute_solutions(grid)
    assert solutions  # cut from a solution
    for name, opts in CONFIGS:
        out = solve(name, opts, grid)
        assert_agrees(out, solutions)
        assert set(out.effort) == set(SOLVERS[name].counters)


def test_4x4_references_agree() -> None:
    """The two slow references count alike: every grid filtered, and backtracking."""
    for _, grid in SMALL:
        assert min(len(brute_solutions(grid)), 2) == count_by_backtracking(grid)
    assert len(full_grids(family(4))) == 288


@pytest.mark.parametrize(("label", "grid"), MEDIUM, ids=[label for label, _ in MEDIUM])
def test_6x6_killers_against_backtracking(label: str, grid: Grid) -> None:
    count = count_by_backtracking(grid)
    assert count  # cut from a solution
    for name, opts in CONFIGS:
        out = solve(name, opts, grid)
        assert out.status is Status.SOLVED, out.detail
        assert out.unique is (count == 1)


# 9x9: a Killer with no givens (cages of one to three cells, unique by backtracking), and seed 000's classic
# puzzle with cages cut from its solution (unique by its givens alone) over it.
NINE = a_solution(family(9), 0)
NINE_KILLER = killer(cut(NINE, 9, 0, largest=3), 9)
SEED000_SOLVED = [int(ch) for ch in
                  "348792651192645837657183294479831562213456789586279413861324975934567128725918346"]
SEED000_KILLER = Grid(family(9, constraints=cut(SEED000_SOLVED, 9, 5, largest=5)), Grid.parse(SEED000).values)


@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_9x9_killer_without_givens(name: str, opts: dict[str, str]) -> None:
    out = solve(name, opts, NINE_KILLER)
    assert out.status is Status.SOLVED and out.unique is True, out.detail
    assert list(out.solution.values) == NINE


def test_9x9_references() -> None:
    assert count_by_backtracking(NINE_KILLER) == 1
    assert Grid.parse(SEED000).solution_problems(Grid.from_values(SEED000_SOLVED)) == []


@pytest.mark.parametrize("name", KNOW_CAGES)
def test_9x9_killer_over_a_classic_puzzle(name: str) -> None:
    out = solve(name, {}, SEED000_KILLER)
    assert out.status is Status.SOLVED and out.unique is True, out.detail
    assert list(out.solution.values) == SEED000_SOLVED
    assert out.info["cages"] == len(cages_in(SEED000_KILLER.layout.constraints))


def test_count_by_cpsat_reads_cages() -> None:
    """The suite's CP-SAT count reads cages now that CP-SAT knows them."""
    assert count_by_cpsat(NINE_KILLER) == 1
    two = next(grid for _, grid in SMALL if len(brute_solutions(grid)) == 2)
    assert count_by_cpsat(two) == 2


# -- uniqueness, no solution, bad cages -----------------------------------------------------------------------

# Two solutions (by enumeration in the test): each row's halves are cages of 3 ({1, 2}) or 7 ({3, 4}),
# R1C1 + R2C1 = 4 and, overlapping two of them, R2C2 + R2C3 = 5; rows 1 and 3 may swap their last two cells:
#     1 2 | 3 4        1 2 | 4 3
#     3 4 | 1 2        3 4 | 1 2
#     2 1 | 4 3        2 1 | 3 4
#     4 3 | 2 1        4 3 | 2 1
TWO = killer([Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 5), 7), Cage((6, 7), 3), Cage((8, 9), 3),
              Cage((10, 11), 7), Cage((12, 13), 7), Cage((14, 15), 3), Cage((0, 4), 4), Cage((5, 6), 5)], 4)


@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_two_solutions_are_not_unique(name: str, opts: dict[str, str]) -> None:
    solutions = brute_solutions(TWO)
    assert sorted(solutions) == [(1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1),
                                 (1, 2, 4, 3, 3, 4, 1, 2, 2, 1, 3, 4, 4, 3, 2, 1)]
    out = solve(name, opts, TWO)
    assert_agrees(out, solutions)
    assert out.unique is False
    one = solve(name, opts, TWO, solutions=1)
    assert one.status is Status.SOLVED and one.unique is None


# No solution, though no given breaks a cage: two cages of row 1 each take 3 and 4 (7 in two cells of a 4x4), so
# the row has no 1 or 2 (and its sum, 14, is not 10: the root LP sees that); and overlapping cages that empty a
# cell's values before a third cage reads them (python-constraint's sum must not trip over the empty domain).
UNREACHABLE = killer([Cage((0, 1), 7), Cage((2, 3), 7)], 4)
EMPTIED = killer([Cage((0, 1), 3), Cage((0,), 4), Cage((0, 2), 5)], 4)


@pytest.mark.parametrize("grid", [UNREACHABLE, EMPTIED], ids=["unreachable", "emptied"])
@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_no_solution(name: str, opts: dict[str, str], grid: Grid) -> None:
    assert grid.conflicts() == [] and brute_solutions(grid) == []
    out = solve(name, opts, grid)
    assert out.status is Status.UNSATISFIABLE, out.detail


@pytest.mark.parametrize("name", KNOW_CAGES)
def test_a_given_that_breaks_a_cage_is_a_clear_error(name: str) -> None:
    bad = killer([Cage((0, 1), 3), Cage((2, 3), 7)], 4, {0: 3})
    out = SOLVERS[name](bad)
    assert out.status is Status.ERROR
    assert out.detail == (f"{name}: invalid puzzle: cage 1 (3): 3 leaves its blank cell no different values "
                          "to reach 3 with")


def test_a_cage_no_values_fill_is_refused_before_any_solver() -> None:
    with pytest.raises(PuzzleError, match=r"cage 1 \(9\) \(R1C1 R1C2\): no 2 different values 1 to 4 sum to 9"):
        Grid.parse("................;k=aa..............:9")


@pytest.mark.parametrize("name", ["cpsat", "mip"])
def test_a_bad_option_value_names_the_choices(name: str) -> None:
    out = SOLVERS[name](SMALL[0][1], redundant="all")
    assert out.status is Status.ERROR and "choose one of none, 45" in out.detail
    assert "table" in SOLVERS["cpsat"].options["sums"] and "45" in SOLVERS[name].options["redundant"]


# -- the model's facts -----------------------------------------------------------------------------------------

# A 4x4 with cages counted by hand: 3 in two cells ({1, 2}: 2 orderings), 9 in three ({2, 3, 4}: 6), 10 in
# four ({1, 2, 3, 4}: 24), and a cage without a total (two cells). Cut from the solution
#     1 2 | 3 4        a a | b b
#     3 4 | 1 2        . d | d b
#     2 1 | 4 3        c c | c c
#     4 3 | 2 1        . . | . .
HAND = killer([Cage((0, 1), 3), Cage((2, 3, 7), 9), Cage((8, 9, 10, 11), 10), Cage((5, 6), None)], 4)


def test_cpsat_facts_counted_by_hand() -> None:
    linear = solve("cpsat", {}, HAND)
    # 12 houses' AllDifferent; per cage a sum (three have a total) and an AllDifferent (all four).
    assert linear.info["constraints"] == 12 + 3 + 4 and linear.info["variables"] == 16
    assert (linear.info["sums"], linear.info["redundant"], linear.info["cages"]) == ("linear", "none", 4)
    table = solve("cpsat", {"sums": "table"}, HAND)
    assert table.info["table_cages"] == 3 and table.info["table_rows"] == 2 + 6 + 24
    assert table.info["constraints"] == 12 + 3 + 1  # three tables, the loose cage's AllDifferent
    derived = solve("cpsat", {"redundant": "45"}, HAND)
    assert derived.info["derived_sums"] == len(derived_sums(HAND.layout)) > 0
    assert derived.info["constraints"] == 12 + 3 + 4 + derived.info["derived_sums"]
    boolean = solve("cpsat", {"model": "boolean"}, HAND)
    # 16 + 48 exactly-ones; 3 sums; at most one cell each of the 4 values per cage
    assert boolean.info["constraints"] == 16 + 48 + 3 + 4 * 4
    assert {tuple(o.solution.values) for o in (linear, table, derived, boolean)} <= set(brute_solutions(HAND))


def test_cpsat_table_allowed_tuples_are_every_ordering() -> None:
    cage = Cage((0, 1, 2), 7)
    assert sorted(allowed_tuples(4, cage)) == [(1, 2, 4), (1, 4, 2), (2, 1, 4), (2, 4, 1), (4, 1, 2), (4, 2, 1)]
    assert table_rows(4, cage) == 6 and table_rows(9, Cage(tuple(range(9)), 45)) == 362_880


def test_cpsat_a_cage_too_large_for_a_table_is_stated_linear() -> None:
    row = Cage(tuple(range(9)), 45)  # a whole row: 9! = 362,880 orderings, past TABLE_ROWS
    below = [tuple(c for c in cage.cells if c >= 9) for cage in cut(SEED000_SOLVED, 9, 5, largest=4)]
    rest = [Cage(cells, sum(SEED000_SOLVED[c] for c in cells)) for cells in below if cells]
    grid = Grid(family(9, constraints=[row, *rest]), Grid.parse(SEED000).values)
    out = solve("cpsat", {"sums": "table"}, grid)
    assert list(out.solution.values) == SEED000_SOLVED and out.unique is True
    assert out.info["table_cages"] == len(rest) and out.info["cages"] == len(rest) + 1


def test_mip_facts_and_root_lp() -> None:
    out = solve("mip", {}, HAND)
    # 16 cells + 48 house-values; 3 sums; 4 values' no-repeat rows for each of the 4 cages
    assert out.info["constraints"] == 16 + 48 + 3 + 4 * 4 and out.info["cages"] == 4
    assert out.info["root_lp_integral"] in (True, False) and "derived_sums" not in out.info
    derived = solve("mip", {"redundant": "45"}, HAND)
    assert derived.info["derived_sums"] == len(derived_sums(HAND.layout))
    assert derived.info["constraints"] == out.info["constraints"] + derived.info["derived_sums"]
    # the relaxation reads the cages too: the 9x9 Killer's root LP is feasible and says whether it is 0-1
    nine = solve("mip", {}, NINE_KILLER)
    assert "root_lp_infeasible" not in nine.info and nine.info["root_lp_integral"] in (True, False)
    assert nine.info["root_lp_integral"] is (nine.info["root_lp_fractional_vars"] == 0)


def test_mip_root_lp_sees_a_cage_that_no_values_fill() -> None:
    facts = mip.root_lp(UNREACHABLE)
    assert facts["root_lp_infeasible"] is True and facts["root_lp_integral"] is None


def test_python_constraint_facts() -> None:
    out = solve("python-constraint", {}, HAND)
    assert out.info["constraints"] == 12 + 4 + 3 and out.info["cages"] == 4  # AllDifferent and sums
    assert csp.build(EMPTIED, None, csp.DEFAULT_SOLVER)[1] == 2 + 1 + 2  # a one-cell cage has no AllDifferent


# -- classic puzzles: the same models as before -----------------------------------------------------------------

CLASSIC = Grid.parse(SEED000)


@pytest.mark.parametrize("model", cpsat.MODELS)
def test_cpsat_classic_model_unchanged_by_the_cage_options(model: str) -> None:
    plain = cpsat.SudokuModel(CLASSIC, model)
    for sums, redundant in product(SUMS, REDUNDANT):
        opts = {**{k: o.default for k, o in cpsat.OPTIONS.items()}, "sums": sums, "redundant": redundant}
        other = cpsat.SudokuModel(CLASSIC, model, opts)
        assert str(other.model.proto) == str(plain.model.proto)
        assert other.info == plain.info == {"model": model, "presolve": True, "variables": plain.info["variables"],
                                            "constraints": plain.info["constraints"]}


def test_mip_and_csp_classic_unchanged() -> None:
    from ortools.linear_solver import pywraplp

    texts = []
    for redundant in ("none", "45"):
        solver = pywraplp.Solver.CreateSolver("SCIP")
        mip.SudokuMip(CLASSIC, solver, options={"redundant": redundant})
        texts.append(solver.ExportModelAsLpFormat(False))
    assert texts[0] == texts[1] and "cage" not in texts[0]
    out = solve("mip", {"redundant": "45", "root_lp": "off"}, CLASSIC)
    assert set(out.info) == {"backend", "variables", "constraints", "presolve", "build_seconds", "solver_seconds",
                             "solves"}
    assert solve("python-constraint", {}, CLASSIC).info["constraints"] == 27


# -- export ------------------------------------------------------------------------------------------------------

def test_export_carries_the_cages() -> None:
    proto = export_text(HAND, "cpsat")
    classic = export_text(Grid(family(4), HAND.values), "cpsat")
    assert proto.count("all_diff") == classic.count("all_diff") + 4 and proto.count("linear {") == 3
    assert export_text(HAND, "cpsat", sums="table").count("table {") == 3
    lp = export_text(HAND, "mip")
    assert "cage_1_sum" in lp and "cage_4_value_1" in lp and "cage_4_sum" not in lp
    assert "innies" in export_text(HAND, "mip", redundant="45") or "outies" in export_text(HAND, "mip", redundant="45")
