"""The law of leftovers (puzzles/constraints/innies.py `leftovers`) and cdcl's propagator of it (search/learning.py
`Leftovers`): a case counted by hand, the law held on random solved Jigsaws, none where the regions are boxes, and
cdcl finding the same solutions with the leftovers as without them, every clause it explains a deduction with
holding in every solution, and telling what they imply as the law of leftovers."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from variant_grids import JIGSAW_6, LAYOUTS, PUZZLES
from variant_grids import grid as variant_grid
from variant_puzzles import JIGSAW16 as JIGSAW

from making.solutions import random_solution
from making.variants import variant
from puzzles import Budget, Grid, Status
from puzzles.constraints.innies import Leftover, leftovers
from puzzles.layouts import boxes, classic, layout
from search.depth_first import Limits
from search.learning import LEFTOVER, TRUE, UNDEF, Assigned, Solver, run
from search.trace import trace


def cell(r: int, c: int, n: int) -> int:
    return (r - 1) * n + c - 1


def test_a_6x6_jigsaws_leftovers_counted_by_hand():
    # 111222 / 113322 / 143332 / 444536 / 455566 / 455666. Rows 1-2 hold 5 cells of region 1 and 5 of region 2, and
    # nothing else holds more than half of a region there: rows 1-2 and regions 1-2 hold the same twelve values,
    # so what rows 1-2 hold outside them (r2c3, r2c4, region 3's) is what they hold outside rows 1-2 (r3c1, r3c6).
    found = leftovers(layout(6, JIGSAW_6))
    assert Leftover((cell(2, 3, 6), cell(2, 4, 6)), (cell(3, 1, 6), cell(3, 6, 6)), "rows 1-2") in found
    # rows 1-3: regions 1 and 2 whole, region 3 but r4c5, and r3c2 of region 4: r3c2 holds what r4c5 holds
    assert Leftover((cell(3, 2, 6),), (cell(4, 5, 6),), "rows 1-3") in found
    # row 1 alone: regions 1 and 2 have 3 of their 6 cells there each, not more than half: no leftover of row 1
    assert all(leftover.area != "row 1" for leftover in found)
    assert all(0 < len(leftover.inside) == len(leftover.outside) < 6 for leftover in found)
    assert all(not set(leftover.inside) & set(leftover.outside) for leftover in found)


@pytest.mark.parametrize("side", [6, 9, pytest.param(12, marks=pytest.mark.slow),
                                  pytest.param(16, marks=pytest.mark.slow)])
def test_every_leftover_holds_in_random_solved_jigsaws(side):
    rng = random.Random(side)
    # three Jigsaws drawn, and at 16x16 a generated puzzle's (drawing a 16x16 Jigsaw's regions takes seconds)
    drawn = [variant("jigsaw", side).layout(rng) for _ in range(3)] if side < 16 else [Grid.parse(JIGSAW).layout]
    for lay in drawn:
        solution = random_solution(lay, rng)
        found = leftovers(lay)
        assert found or side == 6  # a 9x9 Jigsaw and up has some
        for leftover in found:
            inside = Counter(solution.values[c] for c in leftover.inside)
            assert inside == Counter(solution.values[c] for c in leftover.outside), leftover


@pytest.mark.parametrize("lay", [classic(2), classic(3), classic(4), classic(5), boxes(6), boxes(8), boxes(12),
                                 LAYOUTS["x-9"], LAYOUTS["windoku-9"]], ids=repr)
def test_square_and_rectangular_boxes_have_no_leftovers(lay):
    assert leftovers(lay) == ()


def solutions_of(grid: Grid, kept: tuple[Leftover, ...]) -> set[bytes]:
    solver = Solver(grid, Limits.of(Budget(), 0.0), kept=kept)
    status, _detail, found = run(solver, 10_000)
    assert status is Status.SOLVED
    return set(found)


@pytest.mark.parametrize("name", ["jigsaw-6", "jigsaw-9"])
def test_cdcl_finds_the_same_solutions_with_the_leftovers(name):
    lay = LAYOUTS[name]
    assert leftovers(lay)
    several = variant_grid(name, PUZZLES[name].several)
    with_them, without = solutions_of(several, leftovers(lay)), solutions_of(several, ())
    assert with_them == without and len(with_them) > 1
    for values in with_them:  # each a solution of the puzzle: its givens kept, every house a permutation
        solved = Grid(lay, values)
        assert all(v == 0 or v == solved.values[c] for c, v in enumerate(several.values))
        assert all(sorted(solved.values[c] for c in unit) == list(range(1, lay.side + 1))
                   for unit in solved.geometry.units)


def told(grid: Grid, spec: str) -> set[str]:
    return {e.rule for e in trace(grid, spec, budget=Budget(nodes=200)).events}


def test_cdcl_keeps_the_leftovers_from_12x12_and_tells_what_they_imply():
    empty = Grid(Grid.parse(JIGSAW).layout, bytes(256))
    assert "law of leftovers" in told(empty, "cdcl")
    assert "law of leftovers" not in told(empty, "cdcl:redundant=none")
    twelve = Grid(variant("jigsaw", 12).layout(random.Random(12)), bytes(144))
    assert leftovers(twelve.layout) and "law of leftovers" in told(twelve, "cdcl")
    for small in (Grid(LAYOUTS["jigsaw-9"], bytes(81)), Grid(variant("jigsaw", 10).layout(random.Random(10)),
                                                                bytes(100))):
        assert leftovers(small.layout)  # below 12x12 finding them costs more than they save: not kept
        assert "law of leftovers" not in told(small, "cdcl")


class Deductions:
    """An observer of cdcl's search (search/learning.py `Observer`) that keeps each clause a leftover's deduction is
    explained by, and checks at every fixpoint of the propagation that the leftovers' clauses
    are at unit propagation's fixpoint too: none false, none with one literal unset and the others false."""

    def __init__(self, grid: Grid, kept: tuple[Leftover, ...]) -> None:
        n = grid.side
        self.solver: Solver | None = None
        self.explained: list[list[int]] = []
        self.fixpoints = 0
        # the clauses by hand: "not v at a, or v at one of the other side's cells", each side, value and cell a
        self.law = [[2 * (a * n + v) + 1, *(2 * (b * n + v) for b in other)]
                    for leftover in kept for one, other in ((leftover.inside, leftover.outside),
                                                             (leftover.outside, leftover.inside))
                    for v in range(n) for a in one]

    def started(self, grid: object, counters: object) -> None: pass
    def givens_clash(self, conflict: list[int]) -> None: pass
    def chose(self, level: int, x: int, left: int, by: int) -> None: pass
    def decided(self, level: int, x: int) -> None: pass
    def analyzed(self, conflict: list[int], nogood: list[int], back: int) -> None: pass
    def backjumped(self, level: int, nogood: list[int], lbd: int) -> None: pass
    def solution(self, level: int) -> None: pass
    def blocked(self) -> None: pass
    def restarted(self) -> None: pass
    def conflict(self, level: int, conflict: list[int]) -> None: pass

    def propagated(self, level: int, assigned: list[Assigned]) -> None:
        assert self.solver is not None
        value = self.solver.value
        for p, kind in assigned:
            if kind == LEFTOVER:
                self.explained.append([p, *self.solver.reason_lits(p >> 1)])
        for clause in self.law:
            if not any(value[q] == TRUE for q in clause):
                assert sum(value[q] == UNDEF for q in clause) >= 2, clause
        self.fixpoints += 1


def test_the_leftovers_propagator_reaches_the_clauses_fixpoint_and_explains_by_clauses_every_solution_keeps():
    # the 9x9 Jigsaw with several solutions, every one enumerated by cdcl without the leftovers (each checked cell
    # by cell in the test above; the brute force of tests/constraint_grids.py takes minutes here)
    several = variant_grid("jigsaw-9", PUZZLES["jigsaw-9"].several)
    every = sorted(solutions_of(several, ()))
    assert len(every) > 100
    kept = leftovers(several.layout)
    observer = Deductions(several, kept)
    solver = Solver(several, Limits.of(Budget(), 0.0), kept=kept, observer=observer)
    observer.solver = solver
    status, _detail, found = run(solver, 10_000)
    assert status is Status.SOLVED and sorted(found) == every
    n = several.side
    lits = [{2 * (cell * n + v - 1) for cell, v in enumerate(s)} for s in every]  # each solution's placements
    held = [lambda q, s=s: q in s if q % 2 == 0 else q - 1 not in s for s in lits]
    assert observer.fixpoints > 10 and any(len(c) > 2 for c in observer.explained)
    for clause in observer.explained:  # the clause a deduction is explained by: true in every solution
        assert all(any(keeps(q) for q in clause) for keeps in held), clause
