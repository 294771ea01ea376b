"""The hand-written searches on Killer Sudoku: the engines' cage rule, the Killer rungs' rules against a brute
force, their fixpoints sound on every 4x4 Killer solution, and every search's answers checked cell by cell.

Puzzles are cut from known solutions: each cage's total is its cells' sum in that solution. Validity is checked
here from the layout's own fields (rows, columns, regions, extra houses, cages), not by the project's checks.
"""
from __future__ import annotations

import itertools
import random

import pytest
from fixtures import KILLER_9, engine_result
from hypothesis import given, settings
from hypothesis import strategies as st
from librt.vecs import vec
from mypy_extensions import i64
from variant_grids import houses

from puzzles import Budget, Candidates, CellMasks, Grid, PuzzleError
from puzzles.constraints.innies import derived_sums, signed_sums
from puzzles.constraints.killer import Cage, cages_in
from puzzles.layouts import Layout, named
from search import SOLVERS, rules
from search.inference import MAKE_RUNG

KILLER_RUNGS = rules.CAGE_RUNG_NAMES  # cages, innies, killer


# -- an independent view of the rules ------------------------------------------------------------------------

def problems(lay: Layout, values: bytes | list[int]) -> list[str]:
    """Why a full grid is no solution of the layout: a house or a cage with a repeat, a cage with a wrong sum."""
    found = [f"house {h}" for h in houses(lay) if sorted(values[c] for c in h) != list(range(1, lay.side + 1))]
    for cage in cages_in(lay.constraints):
        held = [values[c] for c in cage.cells]
        if len(set(held)) != len(held) or (cage.total is not None and sum(held) != cage.total):
            found.append(f"cage {cage}")
    return found


def assert_answers(puzzle: Grid, solution: Grid) -> None:
    """A full grid, the givens kept, every house and cage right: cell by cell."""
    values = solution.values
    assert all(1 <= v <= puzzle.side for v in values)
    assert all(values[c] == v for c, v in enumerate(puzzle.values) if v)
    assert problems(puzzle.layout, values) == []


def all_4x4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku solution (288), by plain enumeration of rows: each row a permutation that repeats no
    column's value above it (the Latin squares, 576), then every house checked."""
    every = houses(named("classic", 4))
    grids: list[tuple[int, ...]] = [()]
    for _ in range(4):
        grids = [grid + row for grid in grids for row in itertools.permutations(range(1, 5))
                 if all(v not in grid[c::4] for c, v in enumerate(row))]
    return [values for values in grids if all(len({values[c] for c in h}) == 4 for h in every)]


SOLUTIONS_4 = all_4x4()


def cut(solution: list[int] | tuple[int, ...], side: int, rng: random.Random, most: int = 4,
        totals: bool = True) -> list[Cage]:
    """A solution cut into cages: each grown from a random free cell over orthogonal neighbours whose values it
    does not hold yet, up to `most` cells; totals the solution's sums (or none)."""
    free = set(range(side * side))
    order = list(range(side * side))
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        cells = [start]
        free.discard(start)
        size = rng.randint(1, most)
        while len(cells) < size:
            held = {solution[c] for c in cells}
            near = [m for c in cells for m in neighbours(c, side) if m in free and solution[m] not in held]
            if not near:
                break
            cell = rng.choice(near)
            cells.append(cell)
            free.discard(cell)
        total = sum(solution[c] for c in cells) if totals else None
        cages.append(Cage(tuple(sorted(cells)), total))
    return cages


def neighbours(cell: int, side: int) -> list[int]:
    r, c = divmod(cell, side)
    return [(r + dr) * side + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= r + dr < side and 0 <= c + dc < side]


def bit(v: int) -> int:
    return 1 << (v - 1)


# -- the puzzles ----------------------------------------------------------------------------------------------

SOL4 = "1234341221434321"
SOL6 = "135624642315314256256143423561561432"
SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
SOLX9 = "415632987273895461689741523724358196356219748198476235542163879831927654967584312"

# Each unique (checked by CP-SAT when the fixture was made; the 4x4 ones by the brute force below too).
KILLER_4 = "................;k=aacbeecbdffbddgg:3,9,5,7,7,5,4"  # no givens
KILLER_6 = ("...............2..........3...5.....;k=llbohnkkbbhnkddjhnmcajjefcaigefffiie:"
            "9,10,7,5,6,16,6,8,12,7,13,4,2,15,6")
KILLER_9_BLANK = ("." * 81 + ";k=DxefulEEnNNkMMlEqHSNkkbKsqIggddbssvIApdwJFPhIzoowJFmhOioyBRmmhtiQjjjGGttirrcCLaaa:"
                  "17,10,2,22,4,6,13,22,14,12,13,13,17,2,10,2,10,9,10,12,7,2,17,3,1,7,4,5,8,5,13,7,15,8,11,7,2,6,"
                  "10,22,6,7,8,3,1")
KILLER_X_9 = ("." * 81 + ";x;k=BjvDNnttmejkkknxaQPFfLknaacPFfKznlacPhSbIllMgROobbriiUyyqGGriiTuAqdsppJCAAqddEpHw:"
              "22,13,9,22,2,13,8,5,20,8,24,17,7,16,8,16,10,9,2,17,8,5,2,4,9,5,18,4,4,6,4,10,7,1,1,5,3,7,4,3,9,16,1,"
              "1,6,9,5")

# Four solutions (CP-SAT counted them), larger cages: a search without a Killer rung takes minutes on it.
KILLER_9_FOUR = ("." * 81 + ";k=ruuddcwlwrhhddcwwwrrhkkgjnnrhhkkgjntimaakgjttimmaobbtqimooobbeqivffsppeqivvssspeq:"
                "23,21,13,23,18,11,6,31,25,16,25,1,12,15,11,16,24,29,17,18,7,17,26")


def with_odd_cages(solution: str, side: int, seed: int) -> Grid:
    """A Killer of `solution` whose first cage has no total, with two more cages over the others' cells
    (overlapping), some givens: several solutions, perhaps."""
    values = [int(ch) for ch in solution]
    cages = cut(values, side, random.Random(seed), most=3)
    cages[0] = Cage(cages[0].cells, None)
    rows = [(0, 1, side + 1), (side - 1, 2 * side - 2)]  # cells of different values in any Sudoku solution
    cages += [Cage(cells, sum(values[c] for c in cells)) for cells in rows]
    givens = [v if random.Random(seed + c).random() < 0.2 else 0 for c, v in enumerate(values)]
    return Grid(named("killer", side, constraints=cages), bytes(givens))


UNIQUE = {"4x4": (KILLER_4, "2143341213244231"), "6x6": (KILLER_6, SOL6), "9x9": (KILLER_9, SOL9),
          "9x9 no givens": (KILLER_9_BLANK, SOL9), "killer-x": (KILLER_X_9, SOLX9)}


def test_the_fixtures_are_what_they_say() -> None:
    for text, solution in UNIQUE.values():
        puzzle = Grid.parse(text)
        assert cages_in(puzzle.layout.constraints) and problems(puzzle.layout, [int(ch) for ch in solution]) == []
        assert all(v == int(solution[c]) for c, v in enumerate(puzzle.values) if v)
    assert Grid.parse(KILLER_X_9).layout.variant == "killer+x"
    lay = Grid.parse(KILLER_4).layout
    assert [s for s in SOLUTIONS_4 if not problems(lay, s)] == [tuple(int(ch) for ch in UNIQUE["4x4"][1])]


# -- the engines: the cage rule at each placement ---------------------------------------------------------------

def obvious_candidates(lay: Layout, values: list[int], cell: int) -> int:
    """The values a cell may take: none in its houses, and for each of its cages some different values, none
    already in it, fill its other blanks to its total (brute force over the values)."""
    n = lay.side
    seen = {values[p] for h in houses(lay) if cell in h for p in h}
    out = 0
    for v in range(1, n + 1):
        if v in seen:
            continue
        ok = True
        for cage in cages_in(lay.constraints):
            if cell not in cage.cells:
                continue
            held = [values[c] for c in cage.cells if values[c]]
            blanks = sum(1 for c in cage.cells if not values[c] and c != cell)
            rest = None if cage.total is None else cage.total - sum(held) - v
            free = [w for w in range(1, n + 1) if w not in held and w != v]
            if v in held or not any(rest is None or sum(chosen) == rest
                                    for chosen in itertools.combinations(free, blanks)):
                ok = False
        if ok:
            out |= bit(v)
    return out


def killer_grids(draw_seed: int, side: int) -> Grid:
    solution = {4: SOL4, 6: SOL6}[side]
    values = [int(ch) for ch in solution]
    rng = random.Random(draw_seed)
    cages = cut(values, side, rng, most=4, totals=rng.random() < 0.8)
    return Grid(named("killer", side, constraints=cages), bytes(side * side))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.sampled_from([4, 6]), steps=st.integers(1, 25))
def test_both_engines_read_the_candidates_the_cages_allow(seed: int, side: int, steps: int) -> None:
    """After random placements and removals (of candidates only), each engine's candidates are the obvious ones:
    a cage's value leaves its other cells, and a value that could no longer bring a cage to its total is none."""
    puzzle = killer_grids(seed, side)
    rng = random.Random(seed)
    units, cells = Candidates(puzzle), CellMasks(puzzle)
    marks = [cells.mark()]
    placed: list[int] = []
    for _ in range(steps):
        empties = units.empty_cells()
        if placed and (not empties or rng.random() < 0.3):
            cell = placed.pop()
            units.remove(cell)
            cells.restore(marks.pop())
        elif empties:
            cell = rng.choice(empties)
            choices = [v for v in range(1, side + 1) if units.candidates(cell) & bit(v)]
            if not choices:
                continue
            marks.append(cells.mark())
            v = rng.choice(choices)
            units.place(cell, v)
            cells.assign(cell, v)
            placed.append(cell)
        expected = [0 if units.values[c] else obvious_candidates(puzzle.layout, units.values, c)
                    for c in range(side * side)]
        assert units.masks() == expected
        assert cells.masks() == expected and cells.state() == bytes(units.values)


def test_a_given_twice_in_a_cage_is_refused() -> None:
    lay = named("killer", 4, constraints=[Cage((0, 10), 4)])  # r1c1 and r3c3: no house in common
    with pytest.raises(PuzzleError, match="two 2s in cage 1"):
        Candidates(Grid(lay, bytes([2] + [0] * 9 + [2] + [0] * 5)))


def test_plain_backtracking_counts_a_cage_dead_end_as_the_seeds_count() -> None:
    """Rows 3-4 given (2143 4321); rows 1-2 blank, so r1c1 in {1,3}, r1c2 in {2,4}, r1c3 in {1,3}, r1c4 in
    {2,4}; one cage r1c3+r1c4 = 5. Row-major: r1c1=1 (a guess), r1c2=2 (a guess), r1c3=3 (its only candidate;
    the cage's room for r1c4 is now {2}), r1c4: its houses allow 4 alone, the cage 2 alone: a dead end. Back
    over r1c3 and r1c2 (2 backtracks); r1c2=4 (the last alternative: no guess), r1c3=3, r1c4=2, then row 2:
    3 2 1 4, one candidate each. 10 nodes, 2 guesses, 2 backtracks; without the cage the search would have
    filled 1234 in row 1 (3 + 4 = 7 in the cage)."""
    puzzle = Grid.parse("........21434321;k=..aa............:5")
    out = SOLVERS["backtracking"](puzzle)
    assert out.status == "solved" and out.solution is not None
    assert out.solution.line() == "1432321421434321"
    assert out.effort == {"nodes": 10, "guesses": 2, "backtracks": 2}
    classic = SOLVERS["backtracking"](Grid(puzzle.layout.houses, puzzle.values))
    assert classic.effort == {"nodes": 8, "guesses": 2, "backtracks": 0}


def test_the_searches_know_cages_and_others_still_say_not_run() -> None:
    puzzle = Grid.parse(KILLER_4)
    for name in ("backtracking", "mrv", "restart", "astar"):
        assert "not run" not in SOLVERS[name](puzzle).detail, name


# -- the rules against a brute force --------------------------------------------------------------------------

def brute_cage(masks: list[int], total: int | None, side: int) -> list[int] | None:
    """Each cell's candidates some assignment of different values with the sum uses; None when none does."""
    support = [0] * len(masks)
    choices = [[v for v in range(1, side + 1) if m & bit(v)] for m in masks]
    found = False
    for chosen in itertools.product(*choices):
        if len(set(chosen)) == len(chosen) and (total is None or sum(chosen) == total):
            found = True
            for i, v in enumerate(chosen):
                support[i] |= bit(v)
    return [m & ~s for m, s in zip(masks, support, strict=True)] if found else None


@settings(max_examples=300, deadline=None)
@given(side=st.sampled_from([4, 6, 9]), data=st.data())
@pytest.mark.slow
def test_the_cage_filter_keeps_exactly_what_some_filling_uses(side: int, data: st.DataObject) -> None:
    """Generalised arc consistency (the kind's `narrow`): a candidate stays exactly when some filling of the cage
    uses it; with none, every cell loses every candidate. Each removal's reason is the values the cage's other
    cells lost."""
    count = data.draw(st.integers(1, 4))
    cells = sorted(data.draw(st.sets(st.integers(0, side * side - 1), min_size=count, max_size=count)))
    masks = [data.draw(st.integers(1, (1 << side) - 1)) for _ in range(count)]
    total = data.draw(st.one_of(st.none(), st.integers(0, side * count + 1)))
    grid = [(1 << side) - 1] * (side * side)
    for cell, mask in zip(cells, masks, strict=True):
        grid[cell] = mask
    removals = Cage(tuple(cells), total).narrow(grid, side, "cage 1")
    lost = {r.cell: r.mask for r in removals}
    expected = brute_cage(masks, total, side)
    assert [lost.get(c, 0) for c in cells] == (masks if expected is None else expected)
    full = (1 << side) - 1
    for r in removals:
        assert r.by == "cage 1" and r.mask and not r.mask & ~grid[r.cell]
        assert r.because == tuple((c, full & ~grid[c]) for c in cells if c != r.cell and full & ~grid[c])


@settings(max_examples=300, deadline=None)
@given(side=st.sampled_from([4, 9]), data=st.data())
def test_sum_bounds_is_its_definition_and_sound(side: int, data: st.DataObject) -> None:
    count = data.draw(st.integers(0, 4))
    masks = [data.draw(st.integers(1, (1 << side) - 1)) for _ in range(count)]
    total = data.draw(st.integers(0, side * count + 1))
    lows = [(m & -m).bit_length() for m in masks]
    highs = [m.bit_length() for m in masks]
    got = rules.sum_bounds(masks, total)
    if not sum(lows) <= total <= sum(highs):
        assert got is None
        return
    assert got is not None
    for i, m in enumerate(masks):
        others_low, others_high = sum(lows) - lows[i], sum(highs) - highs[i]
        expected = sum(bit(v) for v in range(1, side + 1) if m & bit(v) and not
                       others_low <= total - v <= others_high)
        assert got[i] == expected
        choices = [[v for v in range(1, side + 1) if x & bit(v)] for x in masks]
        used = {chosen[i] for chosen in itertools.product(*choices) if sum(chosen) == total}
        assert not any(got[i] & bit(v) for v in used)  # sound: a value some filling uses stays


def test_seventeen_in_two_cells_is_eight_and_nine() -> None:
    """A 9x9 cage of two cells with 17: {8, 9} alone; the cells keep 8 and 9 whatever else they had."""
    lay = named("killer", 9, constraints=[Cage((0, 1), 17)])
    geo = Grid(lay, bytes(81)).geometry
    assert rules.cage_combinations([0x1FF] * 81, geo, [0] * 81) == {0: 0x7F, 1: 0x7F}  # 1..7 leave both
    # with 9 placed beside it, the other cell must be 8; with 8 missing from one cell, the other loses 9
    values = [9] + [0] * 80
    assert rules.cage_combinations([0] + [0x1FF] * 80, geo, values) == {1: 0x1FF & ~bit(8)}
    masks = [0x1FF & ~bit(8)] + [0x1FF] * 80
    assert rules.cage_combinations(masks, geo, [0] * 81) == {0: 0x7F, 1: 0x7F | bit(9)}


def test_a_cage_of_three_with_six_and_a_repeat_that_cannot_be() -> None:
    """6 in three cells is {1, 2, 3}; if two of the cells can only be 1 or 2 between them, the third is 3."""
    lay = named("killer", 4, constraints=[Cage((0, 1, 4), 6)])
    geo = Grid(lay, bytes(16)).geometry
    masks = [0b0011, 0b0011] + [0xF] * 2 + [0xF] + [0xF] * 11
    assert rules.cage_combinations(masks, geo, [0] * 16) == {4: 0b1011}
    assert rules.cage_combinations([0b0001, 0b0001, *masks[2:]], geo, [0] * 16) is None  # both would be 1


@pytest.mark.parametrize("side", [9, 16, 25])
def test_the_cells_that_see_each_place_are_the_peers_sets_intersected(side: int) -> None:
    """`Sight.seeing_each` (cells as bits of words of 32) against the slow, obvious way: the places' peer sets
    intersected, the group's cells left out, sorted; on random groups and places at every side, so that cells of
    every word, and the last word's, are met."""
    geo = Grid(named("classic", side), bytes(side * side)).geometry
    sight = rules.sight(geo)
    rng = random.Random(side)
    for _ in range(300):
        group = rng.sample(range(side * side), rng.randint(2, side))
        places = rng.sample(group, rng.randint(1, len(group)))
        slow = set(range(side * side)) - set(group)
        for cell in places:
            slow &= set(geo.peers[cell])
        assert list(sight.seeing_each(vec[i64](places), sight.within(group))) == sorted(slow)


def test_a_cages_required_values_leave_every_cell_that_sees_their_places_by_hand() -> None:
    """9x9, cage r1c3 + r2c4 = 3: {1, 2}, one in each cell; the cells share no house, and the cells that see both
    lose 1 and 2: r1c4, r1c5, r1c6 (row 1, box 2) and r2c1, r2c2, r2c3 (row 2, box 1), no other. With r2c4 a
    given 2, r1c3 is the one place of 1: nothing goes (singles' work); a cage without a total gives nothing."""
    lay = named("killer", 9, constraints=[Cage((2, 12), 3)])
    geo = Grid(lay, bytes(81)).geometry
    seeing_both = [cell for cell in range(81) if {2, 12} <= set(geo.peers[cell])]  # the slow, obvious way
    assert seeing_both == [3, 4, 5, 9, 10, 11]
    assert rules.cage_required([0x1FF] * 81, geo, [0] * 81) == {cell: bit(1) | bit(2) for cell in seeing_both}
    masks = [0x1FF] * 81
    masks[10] = bit(1) | bit(5)  # r2c2 can lose 1 alone
    assert rules.cage_required(masks, geo, [0] * 81)[10] == bit(1)
    values = [0] * 81
    values[12] = 2
    masks[12] = 0
    assert rules.cage_required(masks, geo, values) == {}
    unclued = Grid(named("killer", 9, constraints=[Cage((2, 12))]), bytes(81)).geometry
    assert rules.cage_required([0x1FF] * 81, unclued, [0] * 81) == {}


def test_the_45_rule_pins_the_innie_of_a_row() -> None:
    """Row 1 of a 9x9: eight of its cells in cages of 3+4+... totalling 40 (the solution's), the ninth cell in
    none: it is 45 - 40 = 5; its candidates shrink to 5 alone."""
    row = [5, 3, 4, 6, 7, 8, 9, 1, 2]
    cages = [Cage((1, 2), 7), Cage((3, 4, 5), 21), Cage((6, 7, 8), 12)]  # r1c1 (5) in no cage
    lay = named("killer", 9, constraints=cages)
    geo = Grid(lay, bytes(81)).geometry
    assert any(s.cells == (0,) and s.total == 5 and s.kind == "innies" for s in derived_sums(lay))
    removed = rules.innies_and_outies([0x1FF] * 81, geo, [0] * 81)
    assert removed is not None and removed[0] == 0x1FF & ~bit(5)
    assert sum(row[1:]) == 40


def test_the_45_rule_across_a_rows_edge_by_hand() -> None:
    """Row 1 with cages 5+3+4, 6+7+9 (R1C4, R1C5 and R2C5) and 8+9+1: R1C9 - R2C5 = -7. R2C5 given 8 or 9 leaves
    R1C9 1 or 2; R1C9 given 2 leaves R2C5 9 (its candidates read mirrored: 10 - v counts, added)."""
    lay = named("killer", 9, constraints=[Cage((0, 1, 2), 12), Cage((3, 4, 13), 22), Cage((5, 6, 7), 18)])
    geo = Grid(lay, bytes(81)).geometry
    assert [(s.plus, s.minus, s.total) for s in signed_sums(lay) if s.area == "row 1"] == [((8,), (13,), -7)]
    masks = [0x1FF] * 81
    masks[13] = bit(8) | bit(9)
    removed = rules.innies_and_outies(masks, geo, [0] * 81)
    assert removed is not None and masks[8] & ~removed.get(8, 0) == bit(1) | bit(2)
    masks = [0x1FF] * 81
    masks[8] = bit(2)
    removed = rules.innies_and_outies(masks, geo, [0] * 81)
    assert removed is not None and masks[13] & ~removed.get(13, 0) == bit(9)
    assert [rules.mirrored(bit(v), 9) for v in range(1, 10)] == [bit(10 - v) for v in range(1, 10)]


# -- the rungs: sound on every 4x4 solution, and the engine reaches the rules' fixpoint ---------------------------

def killer_4(seed: int) -> tuple[Grid, tuple[int, ...]]:
    rng = random.Random(seed)
    solution = rng.choice(SOLUTIONS_4)
    cages = cut(solution, 4, rng, most=rng.choice([2, 3, 4]), totals=rng.random() < 0.85)
    if rng.random() < 0.3:  # an overlapping cage of two cells of different values
        a = rng.randrange(16)
        b = next(c for c in rng.sample(range(16), 16) if solution[c] != solution[a])
        cages.append(Cage(tuple(sorted((a, b))), solution[a] + solution[b]))
    givens = bytes(v if rng.random() < 0.3 else 0 for v in solution)
    return Grid(named("killer", 4, constraints=cages), givens), solution


def house_masks(puzzle: Grid) -> list[int]:
    """Each blank's candidates by its houses alone (0 for a given)."""
    full = (1 << puzzle.side) - 1
    every = houses(puzzle.layout)
    return [0 if v else full & ~sum({bit(puzzle.values[p]) for h in every if c in h for p in h if puzzle.values[p]})
            for c, v in enumerate(puzzle.values)]


def needed_of(puzzle: Grid) -> list[int]:
    full = (1 << puzzle.side) - 1
    return [full & ~sum({bit(puzzle.values[c]) for c in h if puzzle.values[c]}) for h in houses(puzzle.layout)]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), thin=st.sampled_from([0.0, 0.15]))
def test_every_killer_rung_keeps_every_value_a_solution_uses(seed: int, thin: float) -> None:
    """Sound, by the 288 solutions: a candidate some solution (consistent with the givens, the cages and the
    masks) uses survives each rung's fixpoint and each rule's pass; a contradiction only when there is none."""
    puzzle, _ = killer_4(seed)
    rng = random.Random(seed)
    masks = [m & ~(bit(rng.randrange(1, 5)) if rng.random() < thin else 0) for m in house_masks(puzzle)]
    values = list(puzzle.values)
    fits = [s for s in SOLUTIONS_4 if not problems(puzzle.layout, s)
            and all(s[c] == v if v else masks[c] & bit(s[c]) for c, v in enumerate(values))]
    used = [0] * 16
    for s in fits:
        for c in range(16):
            used[c] |= bit(s[c])
    geo = puzzle.geometry
    one_pass = {"cage combinations": rules.cage_combinations(masks, geo, values),
                "cage's required values": rules.cage_required(masks, geo, values),
                "45 rule": rules.innies_and_outies(masks, geo, values)}
    for rung in KILLER_RUNGS:
        one_pass[rung] = rules.fixpoint(masks, geo, rules.ladder(rung, needed_of(puzzle), values))
    for name, after in one_pass.items():
        if after is None:
            assert not fits, name
        elif isinstance(after, dict):
            assert all(not gone & used[c] for c, gone in after.items()), name
        else:
            assert all(not used[c] & ~after[c] for c in range(16) if masks[c]), name


def test_the_cage_rules_count_as_eliminated() -> None:
    """On the 4x4 fixture the cage rule at each placement is enough for singles to fill the grid; on the 6x6,
    the `cages` rung removes candidates by the combinations, counted as `eliminated` (the rooms' are not)."""
    assert CellMasks(Grid.parse(KILLER_4)).force_singles() == 16
    make = MAKE_RUNG["cages"]
    assert make is not None
    rung = make()
    engine = CellMasks(Grid.parse(KILLER_9_FOUR))
    assert rung(engine) > 0
    assert rung.by_rule["cage combinations"] > 0
    assert rung.eliminated == rung.by_rule["cage combinations"] + rung.by_rule.get("cage's required values", 0)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), rung=st.sampled_from(KILLER_RUNGS), side=st.sampled_from([4, 6]))
def test_a_killer_rung_on_the_engine_deduces_exactly_its_rules_fixpoint(seed: int, rung: str, side: int) -> None:
    if side == 4:
        puzzle, _ = killer_4(seed)
    else:
        rng = random.Random(seed)
        values = [int(ch) for ch in SOL6]
        cages = cut(values, 6, rng, most=4)
        puzzle = Grid(named("killer", 6, constraints=cages), bytes(v if rng.random() < 0.25 else 0 for v in values))
    masks = house_masks(puzzle)
    expected = None if any(not v and not m for v, m in zip(puzzle.values, masks, strict=True)) else rules.fixpoint(
        masks, puzzle.geometry, rules.ladder(rung, needed_of(puzzle), list(puzzle.values)))
    try:
        got = engine_result(puzzle, rung)
    except PuzzleError:  # the givens already break a cage (the engine refuses the puzzle)
        assert expected is None
        return
    assert got == expected


def test_on_a_classic_grid_the_killer_rungs_are_singles_and_alldiff() -> None:
    puzzle = Grid.parse("3..1...2.3..2...")
    assert engine_result(puzzle, "cages") == engine_result(puzzle, "innies") == engine_result(puzzle, "singles")
    assert engine_result(puzzle, "killer") == engine_result(puzzle, "alldiff")


# -- the searches: valid answers -----------------------------------------------------------------------------------

METHODS = [
    ("backtracking", {}),
    ("mrv", {}), ("mrv", {"propagate": "singles"}), ("mrv", {"propagate": "cages"}),
    ("mrv", {"propagate": "innies"}), ("mrv", {"propagate": "killer"}), ("mrv", {"tie": "swap"}),
    ("mrv", {"choose": "domwdeg", "propagate": "cages"}),
    ("restart", {"cutoff": "luby", "unit": 20}), ("restart", {"cutoff": "luby", "propagate": "innies"}),
    ("restart", {"cutoff": "none", "propagate": "killer", "max_restarts": 500}),
    ("astar", {}), ("astar", {"propagate": "cages"}), ("astar", {"propagate": "killer"}),
]


@pytest.mark.parametrize("name", list(UNIQUE))
@pytest.mark.parametrize(("method", "options"), METHODS, ids=lambda x: x if isinstance(x, str) else str(x))
def test_each_search_finds_the_one_solution(name: str, method: str, options: dict[str, object]) -> None:
    text, solution = UNIQUE[name]
    puzzle = Grid.parse(text)
    complete = not (method == "restart" and options.get("cutoff") == "none")
    out = SOLVERS[method](puzzle, Budget(seconds=60), solutions=2 if complete else 1, **options)
    assert out.status == "solved", (out.status, out.detail)
    assert out.solution is not None
    assert_answers(puzzle, out.solution)
    assert out.solution.line() == solution
    if complete:
        assert out.unique is True


@pytest.mark.parametrize(("method", "options"), [m for m in METHODS if m[1].get("propagate") in KILLER_RUNGS])
def test_a_killer_with_four_solutions(method: str, options: dict[str, object]) -> None:
    puzzle = Grid.parse(KILLER_9_FOUR)
    complete = not (method == "restart" and options.get("cutoff") == "none")
    out = SOLVERS[method](puzzle, Budget(seconds=60), solutions=2 if complete else 1, **options)
    assert out.status == "solved" and out.solution is not None, out.detail
    assert_answers(puzzle, out.solution)
    if complete:
        assert out.unique is False


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("side", "solution"), [(4, SOL4), (6, SOL6), (9, SOL9)])
def test_overlapping_cages_and_a_cage_without_a_total(seed: int, side: int, solution: str) -> None:
    """Every complete search finds a valid answer, and they agree on whether it is the only one (on the 9x9,
    the searches with a Killer rung)."""
    puzzle = with_odd_cages(solution, side, seed)
    assert any(c.total is None for c in cages_in(puzzle.layout.constraints))
    uniques = set()
    for method, options in METHODS if side < 9 else [m for m in METHODS if m[1].get("propagate") in KILLER_RUNGS]:
        complete = not (method == "restart" and options.get("cutoff") == "none")
        out = SOLVERS[method](puzzle, Budget(seconds=60), solutions=2 if complete else 1, **options)
        assert out.status == "solved", (method, options, out.detail)
        assert out.solution is not None
        assert_answers(puzzle, out.solution)
        if complete:
            uniques.add(out.unique)
    assert len(uniques) == 1


def test_a_killer_without_a_solution_is_proved_so() -> None:
    """r1c2 and r2c2 share a column that holds 1 and 3 below: both are 2 or 4, which cannot make 5."""
    puzzle = Grid.parse("........21434321;k=.a...a..........:5")
    for method, options in METHODS:
        if method == "restart" and options.get("cutoff") == "none":
            continue
        out = SOLVERS[method](puzzle, **options)
        assert out.status == "unsatisfiable", (method, options)
    assert rules.fixpoint(house_masks(puzzle), puzzle.geometry,
                          rules.ladder("cages", needed_of(puzzle), list(puzzle.values))) is None
