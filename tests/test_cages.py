"""Killer cages in the puzzle model: checked when built, written and read back in the line form and f-puzzles,
held to their rule in every answer, kept by isomorphs, refused by a method that does not know them; and the
cage arithmetic (combinations, the 45 rule's sums) against plain enumeration."""
from __future__ import annotations

import itertools
import json
import pickle
import random

import pytest

from puzzles import BadEntry, Budget, Grid, PuzzleError, Status, random_isomorph
from puzzles.constraints.innies import SIGNED_CELLS, derived_sums, signed_sums
from puzzles.constraints.killer import TABLED_SIDE, Cage, cages_in, combinations_of
from puzzles.formats import read_lines
from puzzles.fpuzzles import FPuzzlesError, link_of, object_of, object_of_link, puzzle_of
from puzzles.isomorph import group_of, symmetries
from puzzles.layouts import family, named, reachable
from puzzles.options import Option, contract

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
SOLVED = Grid.parse(SOLUTION)


def cut(solution: Grid, rng: random.Random, largest: int = 5, untotalled: float = 0.0) -> list[Cage]:
    """A random cut of a full grid into connected cages without a repeated value, totals from the grid (each
    cage's cells in reading order, as a layout keeps them)."""
    n, values = solution.side, solution.values
    left, cages = set(range(n * n)), []
    while left:
        cells = [min(left)]
        left.discard(cells[0])
        size = rng.randint(1, largest)
        while len(cells) < size:
            held = {values[c] for c in cells}
            near = sorted({x for c in cells for x in neighbours(c, n)} & left)
            near = [x for x in near if values[x] not in held]
            if not near:
                break
            cells.append(rng.choice(near))
            left.discard(cells[-1])
        total = None if rng.random() < untotalled else sum(values[c] for c in cells)
        cages.append(Cage(tuple(sorted(cells)), total))
    return cages


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def killer(cages: list[Cage], givens: str = "." * 81, **houses: object) -> Grid:
    return Grid(family(9, constraints=cages, **houses), Grid.parse(givens).values)  # type: ignore[arg-type]


@pytest.mark.parametrize("cage, message", [
    (Cage((0, 1), 18), r"cage 1 \(18\) \(R1C1 R1C2\): no 2 different values 1 to 9 sum to 18 \(they sum to 3 to 17\)"),
    (Cage((0, 1), 2), "no 2 different values"),
    (Cage(tuple(range(10)), 45), "cage 1 \\(45\\) has 10 cells: its values differ, so it holds at most 9"),
    (Cage((0, 0), 3), "cage 1 \\(3\\) names R1C1 twice"),
    (Cage((80, 81), 3), "outside the 9x9 grid"),
    (Cage((), 3), "has no cells"),
])
def test_a_cage_no_values_can_fill_is_a_clear_error_naming_it(cage, message):
    with pytest.raises(PuzzleError, match=message):
        family(9, constraints=[cage])


def test_the_reachable_sums_are_those_of_the_least_and_greatest_values():
    for side, count in ((4, 2), (9, 1), (9, 3), (9, 9), (16, 5)):
        sums = [sum(chosen) for chosen in itertools.combinations(range(1, side + 1), count)]
        assert reachable(side, count) == (min(sums), max(sums))


def test_cages_are_part_of_the_layout_one_object_each_and_pickled():
    cages = cut(SOLVED, random.Random(1))
    lay = family(9, constraints=cages)
    assert lay is family(9, constraints=list(cages)) and cages_in(lay.constraints) == tuple(cages)
    assert pickle.loads(pickle.dumps(lay)) is lay
    # kept in reading order
    assert cages_in(family(9, constraints=[Cage((10, 1, 0), 9)]).constraints) == (Cage((0, 1, 10), 9),)
    assert lay.variant == "killer" and not lay.is_classic and lay.houses is family(9)
    assert family(9, diagonals="+-", constraints=cages).variant == "killer+x"
    assert named("killer+x", 9, constraints=cages) is family(9, diagonals="+-", constraints=cages)
    with pytest.raises(PuzzleError, match="cages are its own"):
        named("killer", 9)
    assert Cage((0, 1), 17).name(6, 9) == "cage 7 (17)" and Cage((0, 1)).name(0, 9) == "cage 1"


@pytest.mark.parametrize("seed", range(4))
def test_the_line_form_and_f_puzzles_round_trip_cages(seed):
    rng = random.Random(seed)
    cages = cut(SOLVED, rng, untotalled=0.2)
    cages.append(Cage((0, 10, 20), sum(SOLVED.values[c] for c in (0, 10, 20))))  # overlaps the others: a word more
    grid = killer(cages, "5" + "." * 80, diagonals="+-" if seed % 2 else "")
    back = Grid.parse(grid.text())
    assert back == grid and cages_in(back.layout.constraints) == tuple(cages)
    assert grid.text().count(";k=") == 2
    obj = object_of(grid)
    assert obj["killercage"][0] == {"cells": [f"R{c // 9 + 1}C{c % 9 + 1}" for c in cages[0].cells],
                                    **({} if cages[0].total is None else {"value": str(cages[0].total)})}
    assert puzzle_of(json.loads(json.dumps(obj)))[0] == grid
    assert puzzle_of(object_of_link(link_of(obj)))[0] == grid


def test_more_than_52_cages_take_a_word_each_52():
    cages = [Cage((c,), SOLVED.values[c]) for c in range(81)]  # every cell a cage of its own
    grid = killer(cages)
    assert grid.text().count(";k=") == 2 and cages_in(Grid.parse(grid.text()).layout.constraints) == tuple(cages)


@pytest.mark.parametrize("words, message", [
    ("k=aa" + "." * 79, "then `:` and the cages' totals"),
    ("k=aa" + "." * 78 + ":3", "maps 81 cells"),
    ("k=a1" + "." * 79 + ":3", "'1' at R1C2 is not a cage's letter"),
    ("k=aa" + "." * 79 + ":3,4", "2 totals for cages lettered a"),
    ("k=ac" + "." * 79 + ":1,2", "totals for cages lettered ac"),
    ("k=aa" + "." * 79 + ":x", "'x' is not a whole number"),
    ("k=aa" + "." * 79 + ":30", r"cage 1 \(30\) \(R1C1 R1C2\): no 2 different values"),
])
def test_bad_cage_words_are_clear_errors(words, message):
    with pytest.raises(PuzzleError, match=message):
        Grid.parse("." * 81 + ";" + words)


def test_a_bad_cage_in_a_file_names_the_line_and_the_cage():
    entries = list(read_lines(["." * 81, "." * 81 + ";k=aa" + "." * 79 + ":30"], "killers.txt"))
    bad = entries[1]
    assert isinstance(bad, BadEntry) and bad.line == 2 and bad.file == "killers.txt"
    assert "cage 1 (30) (R1C1 R1C2): no 2 different values" in bad.reason


@pytest.mark.parametrize("entry, message", [
    ({"cells": ["R1C1", "R1C2"], "value": "x"}, "cage 1: its total 'x' is not a whole number"),
    ({"cells": ["R1C1", "R10C2"], "value": "3"}, "cage 1: R10C2 is outside the 9x9 grid"),
    ({"cells": [], "value": "3"}, "cage 1 has no `cells` list"),
    ({"cells": ["R1C1"], "value": "3", "arrow": True}, "cage 1: field 'arrow' is not read"),
    ({"cells": ["R1C1", "R1C2"], "value": "40"}, r"cage 1 \(40\) \(R1C1 R1C2\): no 2 different values"),
])
def test_bad_f_puzzles_cages_are_clear_errors(entry, message):
    obj = object_of(Grid.parse("." * 81))
    obj["killercage"] = [entry]
    with pytest.raises(FPuzzlesError, match=message):
        puzzle_of(obj)


def test_f_puzzles_cage_colours_are_the_drawings_and_a_missing_value_is_no_total():
    obj = object_of(Grid.parse("." * 81))
    obj["killercage"] = [{"cells": ["R1C1", "R1C2"], "outlineC": "#000000", "fontC": "#FF0000"}]
    assert cages_in(puzzle_of(obj)[0].layout.constraints) == (Cage((0, 1), None),)


def test_answers_are_held_to_the_cages():
    cages = cut(SOLVED, random.Random(3))
    puzzle = killer(cages)
    assert puzzle.solution_problems(SOLVED.with_values(SOLVED.values)) == []
    # swap two values of a row whose cells lie in different cages: the houses still hold, a cage sum breaks
    first = next(c for c in cages if len(c.cells) > 1 and c.total is not None)
    a = first.cells[0]
    b = next(x for x in range(a - a % 9, a - a % 9 + 9) if x not in first.cells)
    swapped = bytearray(SOLVED.values)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    problems = puzzle.solution_problems(SOLVED.with_values(swapped))
    index = cages.index(first)
    assert f"{first.name(index, 9)} sums to {sum(swapped[c] for c in first.cells)}" in problems


def test_givens_that_break_a_cage_make_an_invalid_puzzle():
    grid = killer([Cage((0, 1), 10), Cage((2, 3), 3)], "55" + "." * 79)
    assert grid.conflicts() == ["two 5s in row 1", "two 5s in box 1", "two 5s in cage 1 (10)"]
    assert killer([Cage((0, 1), 9)], "37" + "." * 79).conflicts() == ["cage 1 (9) sums to 10"]
    # 6 leaves two different values of at least 1 + 2: 9 is the least a cage of 6 and two blanks can sum to
    assert killer([Cage((0, 1, 2), 8)], "6" + "." * 80).conflicts() == \
        ["cage 1 (8): 6 leaves its 2 blank cells no different values to reach 8 with"]
    assert killer([Cage((0, 1, 2), 9)], "6" + "." * 80).conflicts() == []  # 6 + 1 + 2
    # 1 + 2 and a blank: 9 at most, 12 cannot be reached (1 + 2 + 9 = 12 can: 13 cannot)
    assert killer([Cage((0, 1, 2), 12)], "12" + "." * 79).conflicts() == []
    assert killer([Cage((0, 1, 2), 13)], "12" + "." * 79).conflicts() == \
        ["cage 1 (13): 1+2 leaves its blank cell no different values to reach 13 with"]
    assert killer([Cage((0, 1))], "33" + "." * 79).conflicts()[-1] == "two 3s in cage 1"


def test_isomorphs_of_a_killer_keep_its_cages_and_values():
    rng = random.Random(5)
    grid = killer(cut(SOLVED, rng))
    assert symmetries(grid.layout) == symmetries(grid.layout)[:1]  # a random cut has no symmetry
    assert group_of(grid.layout).startswith("none")
    assert random_isomorph(grid, rng) == grid
    # a cut symmetric under a half turn keeps that move, and no relabelling
    cages = [Cage((c, 80 - c), SOLVED.values[c] + SOLVED.values[80 - c]) for c in range(40)
             if SOLVED.values[c] != SOLVED.values[80 - c]]
    symmetric = killer(cages)
    assert len(symmetries(symmetric.layout)) == 2
    moved = random_isomorph(symmetric.with_values(SOLVED.values), random.Random(0))
    assert symmetric.solution_problems(moved) == [] or moved == symmetric.with_values(SOLVED.values)


def test_a_method_that_does_not_know_cages_is_not_run_on_them():
    @contract("plain", {"x": Option(1, "an option")})
    def plain(grid, budget, solutions, options, started):  # pragma: no cover: never reached on a Killer
        raise AssertionError("ran on a Killer")

    @contract("caged", {}, knows={Cage.KIND})
    def caged(grid, budget, solutions, options, started):
        from puzzles import Outcome
        return Outcome(Status.GAVE_UP, detail="nodes")

    puzzle = killer([Cage((0, 1), 3)])
    refused = plain(puzzle, Budget())
    assert refused.status is Status.GAVE_UP and refused.detail == "not run: plain does not know Killer cages"
    assert caged(puzzle, Budget()).detail == "nodes"


def test_combinations_are_the_subsets_with_the_sum():
    cases = [(9, 2, 17), (9, 3, 15), (9, 9, 45), (4, 2, 5), (16, 4, 30), (9, 2, None), (9, 0, 0), (9, 2, 2), (9, 3, 4)]
    cases += [(side, count, total) for side in (4, 6, 9) for count in range(side + 1) for total in range(side * side)]
    cases += [(16, count, total) for count in (1, 2, 3, 5, 8, 15, 16) for total in range(0, 137, 7)]
    # past TABLED_SIDE, each count and total found by its own walk
    assert TABLED_SIDE < 25
    cases += [(25, count, total) for count in (0, 1, 2, 3, 4) for total in range(0, 100, 3)]
    for side, count, total in cases:
        plain = {sum(1 << (v - 1) for v in chosen) for chosen in itertools.combinations(range(1, side + 1), count)
                 if total is None or sum(chosen) == total}
        assert combinations_of(side, count, total) == tuple(sorted(plain))
    assert combinations_of(9, 2, 17) == (0b110000000,)  # {8, 9}
    assert Cage((0, 1, 2), 7).values(9) == 0b1011  # 1+2+4: values 1, 2 and 4 only
    assert Cage((0, 1, 2), 7).combinations(9) == (0b1011,)


def cut_killer(seed: int):
    """SOLVED cut into small cages (a tenth without a total); for every third seed, an overlapping cage more: it
    and those it overlaps take no part in the 45 rule."""
    rng = random.Random(seed)
    cages = cut(SOLVED, rng, untotalled=0.1)
    if seed % 3 == 0:
        cages.append(Cage((0, 1), SOLVED.values[0] + SOLVED.values[1]))
    return family(9, constraints=cages)


@pytest.mark.parametrize("seed", range(20))
def test_every_sum_the_45_rule_derives_holds_in_the_solution(seed):
    sums = derived_sums(cut_killer(seed))
    assert sums, "a cut into small cages always leaves some innies"
    for derived in sums:
        assert sum(SOLVED.values[c] for c in derived.cells) == derived.total, derived
        assert 0 < len(derived.cells) <= 9 and derived.kind in ("innies", "outies")


@pytest.mark.parametrize("seed", range(20))
def test_every_innies_less_outies_sum_holds_in_the_solution(seed):
    signed = signed_sums(cut_killer(seed))
    assert signed or seed % 3 == 0, "a cut into small cages always leaves some cage across an area's edge"
    for found in signed:
        v = SOLVED.values
        assert sum(v[c] for c in found.plus) - sum(v[c] for c in found.minus) == found.total, found
        assert found.plus and found.minus and not set(found.plus) & set(found.minus)
        assert len(found.plus) + len(found.minus) <= SIGNED_CELLS and min(len(found.plus), len(found.minus)) <= 2
    assert len({(f.plus, f.minus) for f in signed}) == len(signed)  # each once


def test_innies_less_outies_on_a_row_counted_by_hand():
    # row 1 of SOLUTION is 5 3 4 6 7 8 9 1 2, R2C5 is 9: cages 5+3+4, 6+7+9 (R1C4, R1C5, R2C5: two of its three
    # cells in row 1) and 8+9+1 leave R1C9 in row 1 and take R2C5 out of it: R1C9 - R2C5 = 45 - 12 - 22 - 18 = -7
    lay = family(9, constraints=[Cage((0, 1, 2), 12), Cage((3, 4, 13), 22), Cage((5, 6, 7), 18)])
    found = {f.area: (f.plus, f.minus, f.total) for f in signed_sums(lay)}
    assert found["row 1"] == ((8,), (13,), -7)
    assert "box 2" not in found  # the second cage lies in box 2 wholly (derived_sums' innies), the third not half


def plain_derived_sums(lay) -> list[tuple[tuple[int, ...], int, str, str]]:
    """The 45 rule read plainly: each area (every house, then every band of 2 to n-1 rows, then of columns, by
    size and place), the lone cages inside it or over it by set arithmetic, each sum once."""
    n, cages = lay.side, cages_in(lay.constraints)
    lone = [c for c in cages if c.total is not None and not any(o is not c and set(o.cells) & set(c.cells)
                                                                   for o in cages)]
    units = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    units += [[c for c in range(n * n) if lay.regions[c] == k] for k in range(n)] + [list(h.cells) for h in lay.extras]
    names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
    names += [f"{'box' if lay.box_height else 'region'} {i + 1}" for i in range(n)] + [h.name for h in lay.extras]
    areas = [(name, set(unit), 1) for name, unit in zip(names, units, strict=True)]
    for size in range(2, n):
        for first in range(n - size + 1):
            for word, start in (("rows", 0), ("columns", n)):
                cells = {c for u in range(start + first, start + first + size) for c in units[u]}
                areas.append((f"{word} {first + 1}-{first + size}", cells, size))
    seen, found = {frozenset(c.cells) for c in cages}, []
    for name, cells, houses in areas:
        total = houses * n * (n + 1) // 2
        inside = [c for c in lone if set(c.cells) <= cells]
        innies = cells - {x for c in inside for x in c.cells}
        if inside and 0 < len(innies) <= n and frozenset(innies) not in seen:
            seen.add(frozenset(innies))
            found.append((tuple(sorted(innies)), total - sum(c.total for c in inside), name, "innies"))
        touching = [c for c in lone if set(c.cells) & cells]
        if cells <= {x for c in lone for x in c.cells}:
            outies = {x for c in touching for x in c.cells} - cells
            if 0 < len(outies) <= n and frozenset(outies) not in seen:
                seen.add(frozenset(outies))
                found.append((tuple(sorted(outies)), sum(c.total for c in touching) - total, name, "outies"))
    return found


@pytest.mark.parametrize("seed", range(30))
def test_the_45_rules_sums_are_those_read_plainly(seed):
    """Random cages, some without a total and some over others, on a 9x9 (with diagonals for a third of the
    seeds) and a 6x6: the same sums, in the same order, as the plain reading."""
    rng = random.Random(seed)
    n = 6 if seed % 5 == 4 else 9
    cells = list(range(n * n))
    rng.shuffle(cells)
    cages, at = [], 0
    while at < len(cells):  # random cells, not connected: a cage over two bands' lines but not the one between
        size = rng.randint(1, 4)
        chosen = cells[at:at + size]
        at += size
        if rng.random() < 0.85:
            cages.append(Cage(tuple(chosen), sum(rng.sample(range(1, n + 1), len(chosen)))
                              if rng.random() < 0.9 else None))
    for _ in range(rng.randint(0, 2)):
        chosen = rng.sample(range(n * n), 2)
        cages.append(Cage(tuple(chosen), rng.randint(3, 2 * n - 1)))
    lay = family(n, constraints=cages, diagonals="+-" if seed % 3 == 0 and n == 9 else "")
    found = [(d.cells, d.total, d.area, d.kind) for d in derived_sums(lay)]
    assert found == plain_derived_sums(lay)
    assert found or seed % 5 == 4  # a 9x9's cages leave some sum somewhere


def test_the_45_rule_on_a_row_counted_by_hand():
    # row 1 of SOLUTION is 5 3 4 6 7 8 9 1 2: cages over its first five cells (5+3 and 4+6+7) leave 8+9+1+2 = 20
    lay = family(9, constraints=[Cage((0, 1), 8), Cage((2, 3, 4), 17)])
    found = {(d.area, d.kind): (d.cells, d.total) for d in derived_sums(lay)}
    assert found[("row 1", "innies")] == ((5, 6, 7, 8), 20)
    # box 1 holds the first cage wholly, not the second (R1C4, R1C5 are in box 2): 45 - 8 over its other cells
    assert found[("box 1", "innies")] == ((2, 9, 10, 11, 18, 19, 20), 37)
    # rows 1-2 hold both cages: the 13 other cells are more than 9, so no sum is derived from them
    assert ("rows 1-2", "innies") not in found
