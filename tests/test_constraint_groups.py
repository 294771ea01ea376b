"""The catalogue's rules over groups of cells (renban, arrow, quadruple, little killer; zipper, double arrow, between
and lockout lines): each kind's filter against
its definition (every filling of its cells, tests/constraint_grids.py's brute force), its reasons enough, what the
engines' scopes allow against the same, and its shape on the page. Their words, fields, checks and generated
puzzles join tests/test_constraint_catalogue.py's; the engines, searches, cdcl, rungs and formulations meet them
through constraint_grids.EMPTY in tests/test_constraints.py and tests/test_constraint_formulations.py."""
from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest
from constraint_grids import breaks

from comparison.report.page.houses import legend, shape_marks
from formulations import SOLVERS as FORMULATIONS
from puzzles import Grid
from puzzles.constraints import SCOPED, SEARCHED, Constraint, Shape

# one rule each, on a 4x4 grid (its cells all in play) and on a 6x6 one
RULES = ["rb=R1C1,R2C2,R3C3", "rb=R2C1,R2C2", "ar=R1C1:R2C2,R3C3", "ar=R1C1,R1C2:R2C1,R2C2,R2C3,R2C4",
         "qd=R2C2:1,2", "qd=R1C1:3,3", "qd=R3C3:1,2,4", "lk=R0C1:DR:10", "lk=R0C3:DL:4", "lk=R5C2:UR:3",
         "zip=R1C1,R1C2,R2C2", "zip=R1C1,R1C2,R2C2,R2C1", "zip=R1C1,R2C2,R3C3,R4C4,R4C3", "da=R1C1,R2C2,R3C3",
         "da=R1C1,R1C2,R2C3,R3C3", "btw=R1C1,R1C2,R1C3", "btw=R1C1,R2C1,R3C2,R4C2", "lo=R1C1,R2C2,R3C3",
         "lo=R1C1,R1C2,R2C2:1", "lo=R1C1,R1C2,R1C3,R2C4:3",
         "sw=R0C2:5", "sw=R3C5:0", "sw=R5C1:3", "xs=R0C2:6", "xs=R3C5:10", "sky=R0C4:2", "sky=R2C0:3"]


def _fillings(rule: Constraint, masks: list[int], n: int) -> list[tuple[int, ...]]:
    """Every filling of the rule's scope, a candidate of each cell's mask, that its definition keeps."""
    lay = Grid.parse("." * n * n + ";" + rule.word(n)).layout
    cells = rule.scope()
    kept = []
    for held in product(*([v for v in range(1, n + 1) if masks[c] >> (v - 1) & 1] for c in cells)):
        values = [0] * (n * n)
        for c, v in zip(cells, held, strict=True):
            values[c] = v
        if not any(breaks(lay, values, c) for c in cells):
            kept.append(held)
    return kept


@pytest.mark.parametrize("word", RULES)
def test_the_filter_keeps_exactly_what_some_filling_gives(word: str) -> None:
    """The filter (`narrow`) on random masks of the rule's cells: value w stays at a cell exactly when some filling
    its definition keeps puts w there; each removal's reason is enough (with only the values it says were lost
    gone, no filling puts w there either); and the engines' `allowed` is the filter on the values placed."""
    n = 4
    rule = Grid.parse("." * 16 + ";" + word).layout.constraints[0]
    cells = rule.scope()
    rng = random.Random(3)
    full = (1 << n) - 1
    for _ in range(25):
        masks = [full] * (n * n)
        for c in cells:
            masks[c] = rng.randrange(1, full + 1)
        support = [0] * len(cells)
        for held in _fillings(rule, masks, n):
            for i, v in enumerate(held):
                support[i] |= 1 << (v - 1)
        found = {c: 0 for c in cells}
        for removal in rule.narrow(masks, n):
            found[removal.cell] |= removal.mask
            assert removal.mask & ~masks[removal.cell] == 0
            kept = [full] * (n * n)
            for cell, lost in removal.because:
                kept[cell] &= ~lost
            kept[removal.cell] = removal.mask
            assert not _fillings(rule, kept, n), (word, removal)
        assert [masks[c] & ~found[c] for c in cells] == support, (word, masks)
    held = [0] * len(cells)
    held[0] = 2
    masks = [full] * (n * n)
    masks[cells[0]] = 0b10
    support = [0] * len(cells)
    for filling in _fillings(rule, masks, n):
        for i, v in enumerate(filling):
            support[i] |= 1 << (v - 1)
    assert list(rule.allowed(held, n)) == support


def test_the_kinds_are_searched_and_the_non_room_ones_kept_by_their_filter() -> None:
    group = {"arrow", "quadruple", "littlekiller", "zipperline", "doublearrow", "betweenline", "lockout",
             "regionsumline", "sandwich", "xsum", "skyscraper"}
    assert group | {"odd", "even", "pencilmarks"} == SCOPED  # (a rule of one cell: its scope the cell)
    assert group | {"renban"} <= SEARCHED  # renban keeps a room, as a cage does
    assert "renban" not in SCOPED


def test_each_kind_draws_its_shape() -> None:
    grid = Grid.parse("." * 36 + ";rb=R1C1,R1C2;ar=R3C3:R3C4,R4C5;qd=R5C5:1,2;lk=R0C0:DR:21")
    shapes = [shape for c in grid.layout.constraints for shape in c.drawing(6)]
    assert shapes == [Shape("line", (0, 1), "renban"), Shape("circle", (14,), "arrow"),
                      Shape("line", (14, 15, 22), "arrow"), Shape("outline", (28, 29, 34, 35), "quadruple", "12"),
                      Shape("line", (0, 7, 14, 21, 28, 35), "little killer"),
                      Shape("outside", (0, 7, 14, 21, 28, 35), "little killer", "21", (-1, -1))]
    lines = Grid.parse("." * 36 + ";zip=R1C1,R1C2,R1C3;da=R2C1,R2C2,R2C3;btw=R3C1,R3C2,R3C3;lo=R4C1,R4C2,R4C3")
    shapes = [shape for c in lines.layout.constraints for shape in c.drawing(6)]
    assert shapes == [Shape("line", (0, 1, 2), "zipper line"), Shape("circle", (6,), "double arrow"),
                      Shape("circle", (8,), "double arrow"), Shape("line", (6, 7, 8), "double arrow"),
                      Shape("circle", (12,), "between line"), Shape("circle", (14,), "between line"),
                      Shape("line", (12, 13, 14), "between line"), Shape("diamond", (18,), "lockout line"),
                      Shape("diamond", (20,), "lockout line"), Shape("line", (18, 19, 20), "lockout line")]
    assert "2 lockout lines (a grey diamond in the cell)" in legend(lines.layout)
    assert 'class="diamond"' in "".join(marks.marks for marks in shape_marks(lines.layout))


def test_the_docs_examples_of_the_lines_read_each_with_one_solution() -> None:
    """docs/reference/puzzle-files.md's generated 6x6 of each line kept by its filter: read, of its kind, one solution
    (CP-SAT's count; the brute force's on the generator's puzzles is tests/test_constraint_catalogue.py's)."""
    kinds = ("zipperline", "doublearrow", "betweenline", "lockout")
    text = (Path(__file__).parent.parent / "docs" / "reference" / "puzzle-files.md").read_text()
    found = {line.rsplit(" ", 1)[1][:-2]: line.rsplit(" ", 1)[0] for line in text.splitlines()
             if line.endswith("-6") and line.rsplit(" ", 1)[1][:-2] in kinds}
    assert set(found) == set(kinds)
    for kind, line in found.items():
        grid = Grid.parse(line)
        solved = FORMULATIONS["cpsat"](grid, solutions=2)
        assert {c.KIND for c in grid.layout.constraints} == {kind} and solved.unique is True, kind
        assert solved.solution is not None and solved.solution.conflicts() == []
