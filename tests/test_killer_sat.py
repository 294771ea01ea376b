"""Killer cages in the SAT formulation: every sum encoding against brute force on 4x4 (its 288 full grids), a 9x9
cut from a full grid solved by every encoding on a couple of back ends, uniqueness certified, the pseudo-Boolean
encoders against enumeration, and the DIMACS export."""
from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from pysat.solvers import Solver

from formulations import SOLVERS
from formulations.cnf import (
    ENCODINGS,
    constraint_clauses,
    decode,
    givens,
    kept_layout_clauses,
    layout_clauses,
    top,
    var,
    variables,
)
from formulations.constraints.sat import DEFAULT_SUMS, PB_SUMS, SUMS, _pb_equal
from formulations.export import export_text
from making.certify import SolutionCertifier, solutions
from making.solutions import random_solution
from puzzles.constraints.innies import derived_sums
from puzzles.constraints.killer import Cage, cages_in
from puzzles.grid import Grid
from puzzles.layouts import Layout, classic, family
from puzzles.outcome import Status

SAT = SOLVERS["sat"]
BACK_ENDS = ("minisat22", "cadical195")


# -- brute force on 4x4 ------------------------------------------------------------------------------------

@cache
def full_4x4() -> tuple[tuple[int, ...], ...]:
    """The 288 full 4x4 grids: every way to fill the cells in order with a value no earlier peer holds."""
    def peers(a: int, b: int) -> bool:
        return a // 4 == b // 4 or a % 4 == b % 4 or (a // 8, a % 4 // 2) == (b // 8, b % 4 // 2)

    found: list[tuple[int, ...]] = []

    def fill(values: list[int]) -> None:
        if len(values) == 16:
            found.append(tuple(values))
            return
        cell = len(values)
        for v in range(1, 5):
            if all(values[c] != v for c in range(cell) if peers(c, cell)):
                fill([*values, v])

    fill([])
    return tuple(found)


def keeps_cages(values: Sequence[int], cages: Sequence[Cage]) -> bool:
    """The slow obvious check of a Killer's cages: no repeat in a cage, and a total where it has one."""
    for cage in cages:
        held = [values[c] for c in cage.cells]
        if len(set(held)) != len(held) or (cage.total is not None and sum(held) != cage.total):
            return False
    return True


def brute(grid: Grid) -> set[tuple[int, ...]]:
    """A 4x4 Killer's solutions: the full grids that keep its givens and cages."""
    return {values for values in full_4x4() if keeps_cages(values, cages_in(grid.layout.constraints))
            and all(g in (0, v) for g, v in zip(grid.values, values, strict=True))}


def models(clauses: Sequence[list[int]], grid: Grid) -> set[tuple[int, ...]]:
    """Every model of the clauses with the grid's givens, read as grids (cell-values only), each excluded in turn."""
    found = set()
    with Solver(name="minisat22", bootstrap_with=[*clauses, *([lit] for lit in givens(grid))]) as sat:
        while sat.solve():
            solution = decode(grid, sat.get_model() or [])
            found.add(tuple(solution.values))
            sat.add_clause([-lit for lit in givens(solution)])
    return found


def cut(solution: Sequence[int], side: int, rng: random.Random, largest: int = 3) -> list[Cage]:
    """A full grid cut into cages of 1 to `largest` cells, each grown from a free cell to free neighbours, its
    total the grid's sum there."""
    free = set(range(side * side))
    cages = []
    while free:
        cell = min(free)
        cells = [cell]
        free.discard(cell)
        size = rng.randint(1, largest)
        while len(cells) < size:
            r, c = divmod(rng.choice(cells), side)
            around = [n for n in (cell_at(r - 1, c, side), cell_at(r + 1, c, side), cell_at(r, c - 1, side),
                                  cell_at(r, c + 1, side)) if n in free]
            if not around:
                break
            nxt = rng.choice(around)
            if any(solution[nxt] == solution[x] for x in cells):
                break
            cells.append(nxt)
            free.discard(nxt)
        cages.append(Cage(tuple(sorted(cells)), sum(solution[x] for x in cells)))
    return cages


def cell_at(r: int, c: int, side: int) -> int:
    return r * side + c if 0 <= r < side and 0 <= c < side else -1


def killer_4x4(seed: int, largest: int = 3, blank_totals: bool = False) -> Grid:
    """An empty 4x4 Killer cut from one of the 288 grids (some totals left out when `blank_totals`)."""
    rng = random.Random(seed)
    solution = rng.choice(full_4x4())
    cages = cut(solution, 4, rng, largest)
    if blank_totals:
        cages = [Cage(cage.cells, None) if len(cage.cells) > 1 and rng.random() < 0.3 else cage for cage in cages]
    return Grid(family(4, constraints=cages), bytes(16))


def cages_4x4() -> Iterator[Grid]:
    """Small Killers of every shape the encodings meet: cages of one to four cells, some without totals, some
    overlapping (a second cut laid over the first), some cages across houses."""
    for seed in range(6):
        yield killer_4x4(seed, largest=2 + seed % 3, blank_totals=seed % 2 == 1)
    yield killer_4x4(40, largest=4)
    rng = random.Random(99)
    solution = rng.choice(full_4x4())
    across = [Cage(pair, solution[pair[0]] + solution[pair[1]]) for pair in ((0, 15), (3, 12), (5, 10), (6, 9))
              if solution[pair[0]] != solution[pair[1]]]  # two cells that share no house
    yield Grid(family(4, constraints=[*cut(solution, 4, rng), *across]), bytes(16))


# -- every encoding against brute force, on 4x4 -------------------------------------------------------------

@pytest.mark.parametrize("sums", SUMS)
def test_every_sum_encoding_has_the_killers_solutions_and_no_other(sums: str) -> None:
    for grid in cages_4x4():
        expected = brute(grid)
        assert expected  # cut from a full grid
        for encoding in ENCODINGS:
            clauses = layout_clauses(grid.layout, encoding, {"sums": sums})
            assert models(clauses, grid) == expected, (grid.text(), encoding)


def test_the_45_rules_sums_keep_the_solutions() -> None:
    assert len(full_4x4()) == 288
    for grid in cages_4x4():
        expected = brute(grid)
        for sums in ("combinations", "totalizer"):
            clauses = layout_clauses(grid.layout, "complete", {"sums": sums, "redundant": "45"})
            assert models(clauses, grid) == expected, grid.text()


def test_the_45_rule_adds_its_derived_sums() -> None:
    grid = killer_4x4(0)
    assert derived_sums(grid.layout)
    assert len(layout_clauses(grid.layout, "complete", {"sums": "totalizer", "redundant": "45"})) > \
        len(layout_clauses(grid.layout, "complete", {"sums": "totalizer"}))


@pytest.mark.parametrize("seed", range(4))
def test_two_solutions_and_uniqueness_agree_with_brute_force(seed: int) -> None:
    grid = killer_4x4(seed, largest=2)
    expected = brute(grid)
    found = solutions(grid, limit=len(expected) + 1)  # certify's count, a solver of its own
    assert {tuple(s.values) for s in found} == expected
    for sums in ("combinations", "bdd"):
        out = SAT(grid, solutions=2, sums=sums)
        assert out.status is Status.SOLVED and out.unique is (len(expected) == 1)
        assert tuple(out.solution.values) in expected


def test_a_puzzle_with_givens_and_cages() -> None:
    grid = killer_4x4(3, largest=2)
    answer = next(iter(sorted(brute(grid))))
    puzzle = grid.with_values([v if c % 5 == 0 else 0 for c, v in enumerate(answer)])
    expected = brute(puzzle)
    assert answer in expected
    assert {tuple(s.values) for s in solutions(puzzle, limit=300)} == expected


def test_cages_no_full_grid_fits_are_unsatisfiable() -> None:
    # 1 + 2 in the first row's first two cells, and again 1 + 2 in the second row's: the box holds 1, 2 twice
    lay = family(4, constraints=[Cage((0, 1), 3), Cage((4, 5), 3)])
    grid = Grid(lay, bytes(16))
    assert not brute(grid)
    for sums in ("combinations", "adder"):
        assert SAT(grid, sums=sums).status is Status.UNSATISFIABLE
        assert SAT(grid, sums=sums, search="off").status is not Status.SOLVED
    assert solutions(grid) == []


# -- certification ------------------------------------------------------------------------------------------

def unique_and_several() -> tuple[Grid, Grid]:
    """A 4x4 Killer with one solution and one with several, the first found among the cut ones."""
    unique = several = None
    for seed in range(200):
        grid = killer_4x4(seed, largest=2)
        count = len(brute(grid))
        if count == 1 and unique is None:
            unique = grid
        if count == 2 and several is None:
            several = grid
        if unique and several:
            return unique, several
    raise AssertionError("no 4x4 cut found")


def test_the_certifier_proves_a_killer_unique_and_finds_a_second_solution() -> None:
    unique, several = unique_and_several()
    (answer,) = brute(unique)
    with SolutionCertifier(unique.with_values(answer)) as certifier:
        assert certifier.own  # a Killer's layout is drawn for one puzzle: its solver is its own
        assert certifier.unique([])
        assert certifier.other([]) is None
    first, second = sorted(brute(several))
    with SolutionCertifier(several.with_values(first)) as certifier:
        assert not certifier.unique([])
        other = certifier.other([])
        assert other is not None and tuple(other.values) == second
        differing = [c for c in range(16) if first[c] != second[c]]
        assert certifier.unique([differing[0]])  # one cell where they differ settles it


def test_a_killers_rules_are_not_kept_for_the_process() -> None:
    unique, _ = unique_and_several()
    (answer,) = brute(unique)
    before = kept_layout_clauses.count()
    with SolutionCertifier(unique.with_values(answer)):
        pass
    assert not solutions(unique)[1:]
    assert kept_layout_clauses.count() == before


# -- a 9x9 cut from a full grid -----------------------------------------------------------------------------

@cache
def killer_9x9() -> tuple[Grid, tuple[int, ...]]:
    """A 9x9 Killer cut from a random full grid into cages of 1 to 4 cells, with givens (every seventh cell)
    until the certifier proves it unique; and its solution."""
    rng = random.Random(7)
    solution = random_solution(classic(3), rng)
    lay = family(9, constraints=cut(solution.values, 9, rng, largest=4))
    full = Grid(lay, solution.values)
    with SolutionCertifier(full) as certifier:
        for step in (7, 5, 3, 2):
            cells = list(range(0, 81, step))
            if certifier.unique(cells):
                break
    return Grid(lay, bytes(v if c in cells else 0 for c, v in enumerate(solution.values))), tuple(solution.values)


def test_the_9x9_killer_is_as_built() -> None:
    grid, answer = killer_9x9()
    assert keeps_cages(answer, cages_in(grid.layout.constraints)) and not grid.with_values(answer).conflicts()
    assert [tuple(s.values) for s in solutions(grid)] == [answer]


@pytest.mark.parametrize("sums", SUMS)
@pytest.mark.parametrize("solver", BACK_ENDS)
def test_every_encoding_solves_the_9x9_on_each_back_end(sums: str, solver: str) -> None:
    grid, answer = killer_9x9()
    out = SAT(grid, solutions=2, sums=sums, solver=solver)
    assert out.status is Status.SOLVED and out.unique, out.detail
    assert [out.solution.values[c] for c in range(81)] == list(answer)  # cell by cell
    assert out.info["sums"] == sums
    assert out.info["variables"] == variables(grid.layout, "complete", {"sums": sums})
    assert out.info["cage_variables"] == out.info["variables"] - 729
    assert out.info["clauses"] == len(layout_clauses(grid.layout, "complete", {"sums": sums})) + grid.givens


@pytest.mark.parametrize("solver", ["glucose4", "glucose3", "maplechrono", "cadical153", "lingeling"])
def test_the_other_back_ends_solve_a_killer(solver: str) -> None:
    grid, answer = killer_9x9()
    out = SAT(grid, solutions=2, solver=solver)
    assert out.status is Status.SOLVED and out.unique and tuple(out.solution.values) == answer


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_house_encodings_and_options_with_cages(encoding: str) -> None:
    grid, answer = killer_9x9()
    for options in ({}, {"incremental": "on"}, {"probe": "on"}, {"redundant": "45"}):
        out = SAT(grid, solutions=2, encoding=encoding, **options)
        assert out.status is Status.SOLVED and out.unique and tuple(out.solution.values) == answer, options
    for options in ({}, {"incremental": "on"}):  # the ladder's UP rung: propagation only
        out = SAT(grid, encoding=encoding, search="off", **options)
        placed = out.solution if out.status is Status.SOLVED else None
        assert out.status in (Status.SOLVED, Status.GAVE_UP)
        if placed is not None:
            assert tuple(placed.values) == answer


def test_propagation_alone_places_what_the_cages_fix() -> None:
    # one-cell cages are givens in all but name; a cage of 3 in two cells holds 1 and 2
    # (of 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1): the units of a cage's clauses are facts propagation reports
    lay = family(4, constraints=[Cage((0,), 1), Cage((5,), 4), Cage((10,), 4), Cage((15,), 1), Cage((1, 2), 5)])
    grid = Grid(lay, bytes(16))
    assert brute(grid)
    for sums in ("combinations", "totalizer"):
        for incremental in ("off", "on"):
            out = SAT(grid, search="off", sums=sums, incremental=incremental)
            assert out.status is Status.GAVE_UP and out.info["unassigned"] < 64 - 4 * 4, (sums, incremental)
    out = SAT(grid, search="off", probe="on", solutions=2)
    assert out.status is not Status.ERROR
    assert SAT(grid, probe="on", solutions=2).status is Status.SOLVED


def test_incremental_runs_keep_each_killers_own_cages() -> None:
    first, second = (killer_4x4(seed, largest=2) for seed in (11, 12))
    for grid in (first, second, first):
        out = SAT(grid, incremental="on")
        assert out.status is Status.SOLVED and tuple(out.solution.values) in brute(grid)


def test_the_45_rule_lets_propagation_solve_the_documented_killer() -> None:
    # docs/methods/formulations.md's table: the 9x9 cut from seed 0's grid, no givens, one solution
    rng = random.Random(0)
    solution = random_solution(classic(3), rng)
    grid = Grid(family(9, constraints=cut(solution.values, 9, rng, largest=4)), bytes(81))
    assert [tuple(s.values) for s in solutions(grid)] == [tuple(solution.values)]
    out = SAT(grid, search="off", redundant="45")
    assert out.status is Status.SOLVED and out.solution.values == solution.values
    left = {sums: SAT(grid, search="off", sums=sums).info["unassigned"] for sums in ("combinations", "totalizer")}
    assert 0 < left["combinations"] < left["totalizer"]


# -- the encodings' pieces ----------------------------------------------------------------------------------

@pytest.mark.parametrize("sums", PB_SUMS)
def test_each_pseudo_boolean_encoder_is_its_equality(sums: str) -> None:
    """2 cells of a 4x4, sum 5, with no other rule: the models over the 8 cell-values are exactly the
    assignments whose weighted sum is 5 (a cell may hold several values here: the equality alone)."""
    first = 16 * 4
    clauses, last = _pb_equal((0, 1), 5, lambda c, v: var(c, v, 4), 4, first, sums)
    assert last >= first and top(clauses) <= last
    assert all(abs(lit) <= 8 or abs(lit) > first for clause in clauses for lit in clause)  # auxiliaries after
    expected = {bits for bits in itertools.product((False, True), repeat=8)
                if sum(v for bits_v, v in zip(bits, [1, 2, 3, 4] * 2, strict=True) if bits_v) == 5}
    found = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as sat:
        while sat.solve():
            model = set(sat.get_model() or [])
            bits = tuple(x in model for x in range(1, 9))
            found.add(bits)
            sat.add_clause([-x if bit else x for x, bit in zip(range(1, 9), bits, strict=True)])
    assert found == expected


def test_combinations_selectors_come_after_the_houses() -> None:
    lay = family(9, constraints=[Cage((0, 1), 10), Cage((9, 10), 17), Cage((2,), None), Cage((3, 4, 12), None)])
    first = variables(classic(3), "augmented")
    clauses = constraint_clauses(lay, first)
    # 10 in two cells: 1+9, 2+8, 3+7, 4+6: four selectors; 17 in two: 8+9 alone, none
    assert top(clauses) == first + 4
    assert [lit for clause in clauses if len(clause) == 1 for lit in clause] == \
        [-(c * 9 + 5) for c in (0, 1)] + [-(c * 9 + v) for v in range(1, 8) for c in (9, 10)]
    assert variables(lay, "augmented") == first + 4


def test_classic_rules_do_not_read_the_sum_options() -> None:
    for lay in (classic(2), classic(3)):
        for encoding in ENCODINGS:
            plain = layout_clauses(lay, encoding)
            assert layout_clauses(lay, encoding, {"sums": "bdd", "redundant": "45"}) == plain
            assert variables(lay, encoding, {"sums": "bdd", "redundant": "45"}) == variables(lay, encoding)
    out = SAT(Grid.parse("...1.143.4121234"))
    assert "sums" not in out.info and "cage_clauses" not in out.info


def test_a_layout_without_cages_keeps_the_default_cache_entry() -> None:
    assert DEFAULT_SUMS == "combinations"
    lay: Layout = classic(2)
    layout_clauses(lay)
    before = kept_layout_clauses.count()
    SAT(Grid.parse("...1.143.4121234"), sums="bdd", redundant="45")
    after = kept_layout_clauses.count()
    assert after == before


# -- DIMACS -------------------------------------------------------------------------------------------------

def test_the_dimacs_export_of_a_killer_is_its_cnf() -> None:
    grid = killer_4x4(2, largest=3)
    for sums in ("combinations", "seqcounter"):
        text = export_text(grid, "sat", sat_sums=sums)
        header = next(line for line in text.splitlines() if line.startswith("p cnf"))
        _, _, nvars, count = header.split()
        clauses = [[int(x) for x in line.split()[:-1]] for line in text.splitlines()
                   if line and not line.startswith(("c", "p"))]
        assert len(clauses) == int(count) and top(clauses) <= int(nvars)
        assert f"sums={sums}" in text
        assert models(clauses, grid) == brute(grid)
