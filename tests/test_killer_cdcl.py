"""search/learning.py on Killer puzzles: cages' reasons as clauses, checked against brute force."""
from __future__ import annotations

import random
import time
from functools import reduce
from itertools import product
from operator import or_

import pytest
from fixtures import Q4, counters, run
from hypothesis import given, settings
from hypothesis import strategies as st
from librt.vecs import vec
from mypy_extensions import i64

from making.solutions import pattern_solution, random_solution
from making.variants import jigsaw_layout
from puzzles import Budget, Grid, Status
from puzzles.bits import (
    RESIDUE_BITS,
    alldiff_filter,
    cage_supports,
    combination_supports,
    fewest_first,
    matched,
    required_values,
    residue_table,
    supports,
)
from puzzles.constraints.innies import derived_sums, signed_sums
from puzzles.constraints.killer import Cage, cages_in, combinations_of
from puzzles.constraints.killer_maker import killer_layout, random_cages
from puzzles.grid import geometry
from puzzles.layouts import Layout, boxes, classic, named, reachable
from puzzles.options import parse
from search.depth_first import Limits, Stop
from search.learning import (
    CAGE_HIDDEN,
    CAGE_HOUSE,
    CAGE_SUM,
    DERIVED_SUM,
    FALSE,
    OPTIONS,
    ROOM_CELLS,
    TRUE,
    DomWdeg,
    KillerCages,
    Mrv,
    Solver,
    SumBounds,
    Vsids,
    configured,
    distinct_bounds,
    ends,
    greatest,
    needed_values,
    policies,
    sum_rules,
)
from search.learning import run as run_solver


def cdcl(puzzle: Grid, budget: Budget = Budget(), **options):
    """A solve by cdcl, its solution checked cell by cell against the givens, the houses and the cages."""
    return run("cdcl", puzzle, budget, **options)


# -- the slow, obvious ways -----------------------------------------------------------------------------
def all_grids(lay: Layout) -> list[bytes]:
    """Every full grid of a 4x4 layout: its houses' grids (288 for classic 4x4) that Grid.conflicts finds
    nothing wrong with (the puzzle model's own check of the cages, not cdcl's)."""
    houses = Grid(lay.houses, bytes(lay.side * lay.side))
    return [g for g in house_grids(houses) if not Grid(lay, g).conflicts()]


def house_grids(grid: Grid) -> list[bytes]:
    """Every completion of a small grid by its houses alone, row-major."""
    values, geo, found = bytearray(grid.values), grid.geometry, []

    def fill(k: int, blanks: list[int]) -> None:
        if k == len(blanks):
            found.append(bytes(values))
            return
        cell = blanks[k]
        for v in range(1, grid.side + 1):
            if all(values[p] != v for p in geo.peers[cell]):
                values[cell] = v
                fill(k + 1, blanks)
                values[cell] = 0

    fill(0, [c for c, v in enumerate(values) if not v])
    return found


def killer_solutions(grid: Grid, cap: int) -> list[bytes]:
    """Up to `cap` solutions of a Killer puzzle, by a plain depth-first search: the blank cell with fewest
    values its filled peers and cage mates allow (each cage's filled cells and blanks able to reach its total
    with different values 1..n), every value in turn."""
    n, geo, lay = grid.side, grid.geometry, grid.layout
    values = bytearray(grid.values)
    cages_of = [[cage for cage in cages_in(lay.constraints) if cell in cage.cells] for cell in range(n * n)]
    found: list[bytes] = []

    def fits(cell: int, v: int) -> bool:
        if any(values[p] == v for p in geo.peers[cell]):
            return False
        for cage in cages_of[cell]:
            held = [values[c] for c in cage.cells if c != cell and values[c]]
            if v in held:
                return False
            if cage.total is not None:
                rest = len(cage.cells) - len(held) - 1  # blanks left after this one, each a different value
                free = sorted(set(range(1, n + 1)) - set(held) - {v})
                s = sum(held) + v
                if not s + sum(free[:rest]) <= cage.total <= s + sum(free[len(free) - rest:]):
                    return False
        return True

    def fill() -> None:
        if len(found) >= cap:
            return
        blanks = [c for c in range(n * n) if not values[c]]
        if not blanks:
            found.append(bytes(values))
            return
        options = [(c, [v for v in range(1, n + 1) if fits(c, v)]) for c in blanks]
        cell, allowed = min(options, key=lambda o: len(o[1]))
        for v in allowed:
            values[cell] = v
            fill()
            values[cell] = 0

    fill()
    return found


def holds(clause: list[int], solution: bytes, n: int) -> bool:
    """A clause (literal 2*var, "the cell holds the value", or 2*var+1, "not"; var = cell*n + value-1) is true
    in a full grid."""
    return any((solution[(lit >> 1) // n] == (lit >> 1) % n + 1) != bool(lit & 1) for lit in clause)


# -- Killer puzzles cut from known solutions ------------------------------------------------------------
def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def cut(solution: bytes, n: int, rng: random.Random, largest: int = 4, no_total: float = 0.0,
        overlapping: int = 0) -> list[Cage]:
    """A solution cut into cages of 1 to `largest` connected cells of different values, each with the
    solution's sum (a share `no_total` of them without a total), and `overlapping` cages more over random
    cells of different values."""
    free = set(range(n * n))
    cages: list[Cage] = []
    while free:
        cells = [min(free) if rng.random() < 0.5 else rng.choice(sorted(free))]
        free.discard(cells[0])
        size = rng.randint(1, largest)
        while len(cells) < size:
            grow = [c for cell in cells for c in neighbours(cell, n)
                    if c in free and solution[c] not in {solution[x] for x in cells}]
            if not grow:
                break
            cells.append(rng.choice(grow))
            free.discard(cells[-1])
        total = None if rng.random() < no_total else sum(solution[c] for c in cells)
        cages.append(Cage(tuple(sorted(cells)), total))
    for _ in range(overlapping):
        cells, held = [], set()
        for c in rng.sample(range(n * n), n * n):
            if solution[c] not in held and len(cells) < rng.randint(2, 4):
                cells.append(c)
                held.add(solution[c])
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return cages


def killer(variant: str, solution: bytes, n: int, rng: random.Random, givens: float = 0.0, **how) -> Grid:
    """A Killer puzzle of this variant ("killer", "killer+x") cut from a solution, a share `givens` of its
    cells given."""
    lay = named(variant, n, constraints=cut(solution, n, rng, **how))
    return Grid(lay, bytes(v if rng.random() < givens else 0 for v in solution))


def agrees(grid: Grid, solutions: list[bytes]) -> None:
    """cdcl with solutions=2, without and with the 45 rule's sums, and with the cheaper cage look, against every
    solution found by brute force (up to 2 are enough): no solution is unsatisfiable, one is the answer, cell by
    cell, and unique; two or more, an answer among them, not unique."""
    for redundant, cage in (("none", "full"), ("45", "full"), ("45", "combinations")):
        agrees_by(grid, solutions, redundant, cage)


def agrees_by(grid: Grid, solutions: list[bytes], redundant: str, cage: str = "full") -> None:
    out = cdcl(grid, solutions=2, redundant=redundant, cage=cage)
    if not solutions:
        assert out.status is Status.UNSATISFIABLE
        return
    assert out.status is Status.SOLVED and out.solution is not None
    assert out.solution.values in solutions
    assert out.unique is (len(solutions) == 1)
    if len(solutions) == 1:
        assert list(out.solution.values) == list(solutions[0])  # cell by cell


# -- the cage filter cdcl runs: a cage's values against every filling of it -----------------------------------
@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([4, 6, 9]), data=st.data())
def test_the_cage_filter_keeps_those_of_every_assignment_of_the_cells(n, data):
    k = data.draw(st.integers(1, min(n, 5)))
    masks = data.draw(st.lists(st.integers(0, (1 << n) - 1), min_size=k, max_size=k))
    total = data.draw(st.integers(1, n * (n + 1) // 2))
    found = [0] * k
    for chosen in product(*[[v for v in range(1, n + 1) if m >> (v - 1) & 1] for m in masks]):
        if len(set(chosen)) == k and sum(chosen) == total:
            for i, v in enumerate(chosen):
                found[i] |= 1 << (v - 1)
    assert supports(masks, combinations_of(n, k, total)) == found  # all 0: no filling


def combinations_that_fit(masks: list[int], combinations: list[int]) -> list[int]:
    """cage=combinations' look written out with sets, one combination at a time, until nothing more goes."""
    domains = [{v for v in range(25) if m >> v & 1} for m in masks]
    while True:
        kept: list[set[int]] = [set() for _ in masks]
        for c in combinations:
            values = {v for v in range(25) if c >> v & 1}
            takers = {v: [i for i, d in enumerate(domains) if v in d] for v in values}
            if any(not d & values for d in domains) or any(not cells for cells in takers.values()):
                continue
            alone = {v: cells[0] for v, cells in takers.items() if len(cells) == 1}
            if any(list(alone.values()).count(i) > 1 for i in alone.values()):
                continue  # a cell that alone can take two of its values
            for i, d in enumerate(domains):
                own = {v for v, cell in alone.items() if cell == i}
                kept[i] |= own or (d & values) - set(alone)
        if kept == domains:
            return [sum(1 << v for v in d) for d in kept]
        domains = kept


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([4, 6, 9, 16]), data=st.data())
def test_the_combinations_look_keeps_every_value_a_filling_gives_as_written_out(n, data):
    # cage=combinations: what a look keeps is the rule written out with sets, and never less than what the cells'
    # fillings give (a filling drawn first for most cages, so that many have some)
    k = data.draw(st.integers(1, min(n, 6)))
    filling = data.draw(st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True))
    masks = [data.draw(st.integers(0, (1 << n) - 1)) | (1 << (v - 1) if data.draw(st.booleans()) else 0)
             for v in filling]
    total = sum(filling) + data.draw(st.sampled_from([0, 0, 1, -1]))
    combinations = combinations_of(n, k, total)
    kept = list(combination_supports(vec[i64](masks), vec[i64](combinations)))
    assert kept == combinations_that_fit(masks, combinations)
    exact = supports(masks, combinations)
    assert all(e & ~got == 0 for e, got in zip(exact, kept, strict=True))
    assert all(got & ~mask == 0 for got, mask in zip(kept, masks, strict=True))


def drawn_cage(n: int, data: st.DataObject, largest: int) -> tuple[int, int, list[int], list[int]]:
    """A cage drawn for a property test: its size (1 to `largest`), a total some different values make, its
    combinations and its cells' candidates (none empty)."""
    size = data.draw(st.integers(1, min(n, largest)))
    total = data.draw(st.integers(size * (size + 1) // 2, size * (2 * n - size + 1) // 2))
    masks = [data.draw(st.integers(1, (1 << n) - 1)) for _ in range(size)]
    return size, total, list(combinations_of(n, size, total)), masks


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([4, 6, 9, 16]), data=st.data())
def test_a_cages_required_values_are_what_every_combination_within_its_values_holds(n, data):
    # against the obvious, with sets: the values common to every combination of the total whose values the cells
    # hold (all the cells' values when none is); and each is in every filling of the cells (an assignment of
    # different values they may hold, summing to the total), found one by one
    size, total, combos, masks = drawn_cage(n, data, 4)
    values = {v + 1 for m in masks for v in range(n) if m >> v & 1}
    within = [{v + 1 for v in range(n) if c >> v & 1} for c in combos]
    within = [c for c in within if c <= values]
    common = set.intersection(*within) if within else values
    available = sum(1 << (v - 1) for v in values)
    required = required_values(i64(available), vec[i64]([i64(c) for c in combos]))
    assert {v + 1 for v in range(n) if required >> v & 1} == common
    for held in product(*[[v + 1 for v in range(n) if m >> v & 1] for m in masks]):
        if len(set(held)) == size and sum(held) == total:
            assert common <= set(held)


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([4, 6, 9, 16]), data=st.data())
def test_the_values_a_cage_must_hold_read_only_the_combinations_that_hold_them(n, data):
    # `must` (hidden=on's hidden values): each filter, and the required values, as if the cage's combinations were
    # only those that hold every value of it, the list cut the obvious way
    k, _total, combos, masks = drawn_cage(n, data, 5)
    must = data.draw(st.integers(0, (1 << n) - 1)) & data.draw(st.integers(0, (1 << n) - 1))
    holding = vec[i64]([c for c in combos if not must & ~c])
    domains, every = vec[i64](masks), vec[i64](combos)
    residues = residue_table(k)
    cage_supports(domains, every, residues)  # (residues found without `must`: they are not read with it)
    assert list(cage_supports(domains, every, residues, i64(must))) == list(cage_supports(domains, holding, vec[i64]()))
    assert list(combination_supports(domains, every, i64(must))) == list(combination_supports(domains, holding))
    union = i64(reduce(or_, masks))
    assert required_values(union, every, i64(must)) == required_values(union, holding)


@pytest.mark.parametrize(("option", "attribute", "choices"), [
    ("cage", "cheap", {"combinations": True, "full": False}),  # auto: the combinations that fit below 16x16
    ("hidden", "hidden", {"on": True, "off": False}),  # auto: a house's hidden values below 16x16
])
def test_auto_is_the_first_below_16x16_and_the_second_from_it(option, attribute, choices):
    rng = random.Random(5)
    for n, below in ((6, True), (9, True), (16, False)):
        lay = named("classic", n)
        grid = killer("killer", random_solution(lay, rng).values, n, rng)
        for asked, expected in (({}, below), *(({option: value}, on) for value, on in choices.items())):
            solver = configured(grid, parse(OPTIONS, asked), Limits(float("inf"), float("inf")), None)
            looks = [p for p in solver.propagators if isinstance(p, KillerCages) and not p.wide]
            assert looks and all(getattr(look, attribute) is expected for look in looks), (n, asked)


def drawn_blank(variant, n, rng):
    """An empty grid of the variant (its regions and cages drawn over a random solution): what `auto` reads (the
    puzzle need not be one: the options are read before any search)."""
    regions = jigsaw_layout("jigsaw", n, rng).regions if "jigsaw" in variant else None
    solution = random_solution(named(variant.replace("+killer", "").replace("killer", "classic"), n, regions),
                               rng).values
    cages = cut(solution, n, rng) if "killer" in variant else ()
    return Grid(named(variant, n, regions, constraints=cages), bytes(len(solution)))


@pytest.mark.parametrize(("variant", "n", "expected"), [
    ("classic", 9, Mrv), ("killer", 9, DomWdeg), ("killer", 16, DomWdeg), ("jigsaw", 9, Mrv), ("jigsaw", 16, Vsids),
    ("jigsaw+killer", 16, DomWdeg),
])
def test_auto_chooses_dom_wdeg_on_a_killer_vsids_on_a_large_jigsaw_mrv_on_the_rest(variant, n, expected):
    grid = drawn_blank(variant, n, random.Random(3))
    for asked, chosen in (({}, expected), ({"choose": "vsids"}, Vsids), ({"choose": "domwdeg"}, DomWdeg)):
        solver = configured(grid, parse(OPTIONS, asked), Limits(float("inf"), float("inf")), None)
        assert type(solver.branching) is chosen, (variant, n, asked)


@pytest.mark.parametrize(("variant", "n", "slow"), [
    ("classic", 9, False), ("killer", 6, True), ("killer", 9, True), ("killer", 16, False), ("jigsaw", 9, False),
    ("jigsaw+killer", 9, True), ("jigsaw+killer", 16, False),
])
def test_auto_decays_slowly_on_a_killer_below_16x16_fast_on_the_rest(variant, n, slow):
    grid = drawn_blank(variant, n, random.Random(4))
    for asked, decay in (({}, 0.99 if slow else 0.95), ({"decay": "fast"}, 0.95), ({"decay": "slow"}, 0.99)):
        solver = configured(grid, parse(OPTIONS, asked), Limits(float("inf"), float("inf")), None)
        assert solver.var_decay == decay, (variant, n, asked)


def test_the_combinations_look_counted_by_hand():
    # a 9x9 cage of three cells with total 6: its one combination is {1, 2, 3}
    bits = lambda *values: sum(1 << (v - 1) for v in values)  # noqa: E731
    look = lambda *masks: list(combination_supports(vec[i64](list(masks)), vec[i64](combinations_of(9, 3, 6))))  # noqa: E731
    # 3 only the last cell can take: it is that cell's, and the others keep 1 and 2
    assert look(bits(1, 2, 4), bits(1, 2), bits(2, 3, 5)) == [bits(1, 2), bits(1, 2), bits(3)]
    # 1 and 3 only the first can take: no filling
    assert look(bits(1, 3), bits(2), bits(2)) == [0, 0, 0]
    # what goes can leave a value to one cell alone, which the look then sees: 1 only the first can take (4 and 2
    # go there), then 2 only the second (3 goes there)
    assert look(bits(1, 2, 4), bits(2, 3), bits(3)) == [bits(1), bits(2), bits(3)]
    # a cage of four cells with total 10 ({1, 2, 3, 4}): two cells that can take only 1 and 2 leave 3 and 4 to the
    # other two, but each value has two cells or more that can take it: without a matching the look does not see
    # the pair, where the full filter does
    masks = [bits(1, 2), bits(1, 2), bits(1, 2, 3, 4), bits(1, 2, 3, 4)]
    assert list(combination_supports(vec[i64](masks), vec[i64](combinations_of(9, 4, 10)))) == masks
    assert supports(masks, combinations_of(9, 4, 10)) == [bits(1, 2), bits(1, 2), bits(3, 4), bits(3, 4)]


@settings(max_examples=100, deadline=None)
@given(n=st.sampled_from([4, 6, 9]), data=st.data())
def test_distinct_bounds_keeps_every_value_a_filling_gives(n, data):
    # the cheaper filter of a derived sum with many combinations: weaker than the combinations', never wrong
    k = data.draw(st.integers(1, min(n, 5)))
    masks = data.draw(st.lists(st.integers(1, (1 << n) - 1), min_size=k, max_size=k))
    total = data.draw(st.integers(1, n * (n + 1) // 2))
    kept = list(distinct_bounds(vec[i64](masks), total))
    exact = supports(masks, combinations_of(n, k, total))
    assert all(e & ~got == 0 for e, got in zip(exact, kept, strict=True))
    assert all(got & ~mask == 0 for got, mask in zip(kept, masks, strict=True))


def bounds_one_value_at_a_time(masks, total):
    # distinct_bounds' rule written out: a value v of a cell stays when the other cells, as many different values
    # from the union of their candidates (v aside), can make total - v: their fewest least and fewest greatest
    count = len(masks)
    kept = []
    for i, mask in enumerate(masks):
        others = sorted({v for j, m in enumerate(masks) if j != i for v in range(1, 33) if m >> (v - 1) & 1})
        found = 0
        for v in (v for v in range(1, 33) if mask >> (v - 1) & 1):
            rest = [w for w in others if w != v]
            if len(rest) >= count - 1 and (sum(rest[:count - 1]) <= total - v
                                           <= sum(rest[len(rest) - count + 1:]) if count > 1 else total == v):
                found |= 1 << (v - 1)
        if not found:
            return [0] * count
        kept.append(found)
    return kept


@settings(max_examples=300, deadline=None)
@given(n=st.sampled_from([4, 9, 16, 25]), data=st.data())
@pytest.mark.slow
def test_distinct_bounds_keeps_what_its_rule_read_one_value_at_a_time_keeps(n, data):
    k = data.draw(st.integers(1, min(n, 10)))
    masks = data.draw(st.lists(st.integers(1, (1 << n) - 1), min_size=k, max_size=k))
    total = data.draw(st.integers(1, n * (n + 1) // 2))
    assert list(distinct_bounds(vec[i64](masks), total)) == bounds_one_value_at_a_time(masks, total)


def test_distinct_bounds_by_hand():
    # three cells of 1..4 to make 6: only 1 + 2 + 3, so 4 goes; the others' least two with 4 aside are 1 and 2
    assert list(distinct_bounds(vec[i64]([0b1111] * 3), 6)) == [0b0111] * 3
    # two cells, {1, 2} and {2}, to make 3: the second's 2 leaves the first its 1
    assert list(distinct_bounds(vec[i64]([0b11, 0b10]), 3)) == [0b01, 0b10]
    # one cell keeps its total alone; none: no value is kept anywhere
    assert list(distinct_bounds(vec[i64]([0b1111]), 3)) == [0b0100]
    assert list(distinct_bounds(vec[i64]([0b11, 0b11]), 7)) == [0, 0]


def test_greatest_is_the_highest_bit_of_a_mask_of_up_to_25_values():
    ones, runs = [1 << b for b in range(25)], [(1 << b) - 1 for b in range(1, 26)]
    masks = [*ones, *runs, *random.Random(5).sample(range(1, 1 << 25), 2000)]
    assert [greatest(m) for m in masks] == [m.bit_length() for m in masks]


@pytest.mark.parametrize("n", [4, 9, 16])
def test_the_sums_table_of_least_and_greatest_values_is_the_lowest_and_highest_bit_of_every_mask(n):
    # what the bounds of a sum read from `ends` up to 16x16 is what `least` and `greatest` compute past it
    assert list(ends(n)) == [(m & -m).bit_length() + (m.bit_length() << 8) for m in range(1 << n)]


def test_the_cage_filter_by_hand():
    # 17 in two cells of a 9x9 is 8 + 9; a third cell of 1 to 9 makes 24 as 7 + 8 + 9 only
    nine = (1 << 9) - 1
    def fillings(masks, total):
        return supports(masks, combinations_of(9, len(masks), total))

    assert fillings([nine, nine], 17) == [0b110000000] * 2
    assert fillings([nine, nine, nine], 24) == [0b111000000] * 3
    # 10 in two cells, one of them 3 or 4: 3 + 7 or 4 + 6
    assert fillings([0b1100, nine], 10) == [0b1100, 0b1100000]  # {3, 4} and {6, 7}
    assert fillings([0b1, 0b1], 3) == [0, 0]  # two 1s: not different


# -- answers against brute force ------------------------------------------------------------------------
FOUR_GRIDS = house_grids(Grid(classic(2), bytes(16)))
FOUR_X_GRIDS = house_grids(Grid(named("x", 4), bytes(16)))


def test_the_brute_force_is_the_obvious_one():
    # the 288 grids of 4x4, and the plain search against them on a Killer of every shape
    assert len(FOUR_GRIDS) == 288
    rng = random.Random(7)
    for _ in range(15):
        grid = killer("killer", rng.choice(FOUR_GRIDS), 4, rng, givens=0.2, no_total=0.2, overlapping=1)
        every = [g for g in all_grids(grid.layout) if all(not v or g[c] == v for c, v in enumerate(grid.values))]
        assert sorted(killer_solutions(grid, cap=300)) == sorted(every)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["killer", "killer+x"]), givens=st.sampled_from([0, 0.2]),
       largest=st.integers(2, 4), no_total=st.sampled_from([0, 0.3]), overlapping=st.integers(0, 2))
@pytest.mark.slow
def test_4x4_killers_agree_with_all_288_grids(seed, variant, givens, largest, no_total, overlapping):
    rng = random.Random(seed)
    solution = rng.choice(FOUR_X_GRIDS if variant == "killer+x" else FOUR_GRIDS)
    grid = killer(variant, solution, 4, rng, givens, largest=largest, no_total=no_total, overlapping=overlapping)
    agrees(grid, [g for g in all_grids(grid.layout) if all(not v or g[c] == v for c, v in enumerate(grid.values))])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variant", ["killer", "killer+x"])
def test_6x6_killers_agree_with_brute_force(seed, variant):
    rng = random.Random(seed)
    lay = named(variant.replace("killer+", "").replace("killer", "classic"), 6)
    solution = random_solution(lay, rng).values
    grid = killer(variant, solution, 6, rng, givens=0.1 * (seed % 2), largest=3, no_total=0.1 * (seed % 3 == 2),
                  overlapping=seed % 2)
    agrees(grid, killer_solutions(grid, cap=2))


NINE_X = random_solution(named("x", 9), random.Random(3)).values


@pytest.mark.parametrize("seed, variant, givens, no_total, overlapping", [
    (1, "killer", 0.0, 0.0, 0),  # cages alone
    (2, "killer", 0.15, 0.0, 0),  # and givens
    (3, "killer", 0.0, 0.15, 0),  # cages without a total among them
    (4, "killer", 0.1, 0.0, 2),  # overlapping cages
    (5, "killer+x", 0.0, 0.0, 0),  # Killer-X
])
def test_9x9_killers_cut_from_a_known_solution(seed, variant, givens, no_total, overlapping):
    rng = random.Random(seed)
    solution = NINE_X if variant == "killer+x" else pattern_solution(3).values
    grid = killer(variant, solution, 9, rng, givens, largest=3, no_total=no_total, overlapping=overlapping)
    agrees(grid, killer_solutions(grid, cap=2))


# -- unsatisfiable Killers ----------------------------------------------------------------------------
def test_a_cage_total_that_contradicts_the_givens_is_unsatisfiable():
    # r1c1 + r1c2 = 3 holds 1 and 2; r1c3 is a given 1, so row 1 has no place for the cage's 1. Neither
    # the cage nor a house holds a repeat or a wrong sum, so the puzzle is checked fine and searched.
    lay = named("killer", 4, constraints=[Cage((0, 1), 3)])
    grid = Grid(lay, bytes([0, 0, 1, 0] + [0] * 12))
    assert grid.conflicts() == []
    out = cdcl(grid, solutions=2)
    assert out.status is Status.UNSATISFIABLE and out.effort["nodes"] == 0  # seen at the root
    # on 9x9, two cages that need the same pair in one row
    lay = named("killer", 9, constraints=[Cage((0, 1), 17), Cage((4, 5), 17)])
    assert cdcl(Grid(lay, bytes(81))).status is Status.UNSATISFIABLE


def moved(cages: list[Cage], n: int, rng: random.Random) -> list[Cage]:
    """The cages with one total one more and another one less (each still reachable): the grid's sum is kept,
    the known solution is not a solution any longer, and mostly none is."""
    up = rng.choice([k for k, c in enumerate(cages) if c.total is not None and c.total < reachable(n, len(c.cells))[1]])
    down = rng.choice([k for k, c in enumerate(cages) if k != up and c.total is not None
                       and c.total > reachable(n, len(c.cells))[0]])
    cages = list(cages)
    cages[up] = Cage(cages[up].cells, (cages[up].total or 0) + 1)
    cages[down] = Cage(cages[down].cells, (cages[down].total or 0) - 1)
    return cages


def givens_of(solution: bytes, cages: list[Cage], share: float, rng: random.Random) -> bytes:
    """A share of the solution's cells given, none of a cage whose total it does not make (a cage full of
    givens with the wrong sum is a puzzle the contract refuses, not one to search)."""
    wrong = {c for cage in cages if cage.total != sum(solution[c] for c in cage.cells) for c in cage.cells}
    return bytes(v if c not in wrong and rng.random() < share else 0 for c, v in enumerate(solution))


def test_6x6_killers_with_totals_moved_agree_with_brute_force():
    unsatisfiable = 0
    for seed in range(8):
        rng = random.Random(100 + seed)
        solution = random_solution(named("classic", 6), rng).values
        cages = moved(cut(solution, 6, rng, largest=3), 6, rng)
        grid = Grid(named("killer", 6, constraints=cages), givens_of(solution, cages, 0.2, rng))
        brute = killer_solutions(grid, cap=2)
        agrees(grid, brute)
        unsatisfiable += not brute
    assert unsatisfiable >= 3


def test_an_unsatisfiable_9x9_killer_is_proved_so_by_search():
    # a known solution's cages with two totals moved, givens that keep the rest: no grid fits, and it takes
    # conflicts to prove it (the root does not see it)
    rng = random.Random(11)
    solution = pattern_solution(3).values
    cages = moved(cut(solution, 9, rng, largest=3), 9, rng)
    grid = Grid(named("killer", 9, constraints=cages), givens_of(solution, cages, 0.3, rng))
    assert killer_solutions(grid, cap=1) == []
    out = cdcl(grid, Budget(seconds=60))
    assert out.status is Status.UNSATISFIABLE


# -- every reason, conflict and nogood against the rules ------------------------------------------------
class Spy:
    """An observer of the solver that checks, as each step leaves the solver: every cage reason (kind
    CAGE_SUM) rests on literals false before it on the trail, of cells of one cage, and with its literal it
    is a clause every filling of that cage holds; every conflict and every learned nogood is kept for the
    test to hold against the grids."""

    solver: Solver

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.reasons: list[list[int]] = []
        self.derived: list[list[int]] = []  # the 45 rule's sums' reasons (redundant=45), a cage's required values
        self.conflicts: list[list[int]] = []
        self.nogoods: list[list[int]] = []

    def started(self, grid, counters): pass
    def chose(self, level, x, left, by): pass
    def decided(self, level, x): pass
    def analyzed(self, conflict, nogood, back): pass
    def solution(self, level): pass
    def blocked(self): pass
    def restarted(self): pass

    def givens_clash(self, conflict):
        self.conflict(0, conflict)

    def conflict(self, level, conflict):
        assert all(self.solver.value[lit] == FALSE for lit in conflict)
        self.conflicts.append(list(conflict))

    def backjumped(self, level, nogood, lbd):
        self.nogoods.append(list(nogood))

    def propagated(self, level, assigned):
        solver = self.solver
        n = solver.n
        where = {lit: i for i, lit in enumerate(solver.trail_now())}
        for p, kind in assigned:
            if kind not in (CAGE_SUM, DERIVED_SUM, CAGE_HOUSE, CAGE_HIDDEN):
                continue
            assert p & 1  # a cage's sum, a derived sum, a cage's required value and a hidden one remove values
            rest = solver.reason_lits(p >> 1)
            assert all(solver.value[q] == FALSE and where[q ^ 1] < where[p] for q in rest)
            clause = [p, *rest]
            if kind != CAGE_SUM:  # the test holds it against the grids: it follows from houses and cages
                self.derived.append(clause)
                continue
            cells = {(q >> 1) // n for q in clause}
            assert any(cells <= set(cage.cells) and implied_by(cage, clause, n)
                       for cage in cages_in(self.lay.constraints))
            self.reasons.append(clause)


def implied_by(cage: Cage, clause: list[int], n: int) -> bool:
    """Whether every filling of the cage (different values, summing to its total) holds the clause: no filling
    makes every literal false (each cell kept to the values the clause's literals on it leave)."""
    allowed = {cell: set(range(1, n + 1)) for cell in cage.cells}
    for lit in clause:
        cell, v = (lit >> 1) // n, (lit >> 1) % n + 1
        allowed[cell] = allowed[cell] - {v} if not lit & 1 else allowed[cell] & {v}  # "cell = v" false, or true

    def breaks(k: int, held: list[int]) -> bool:
        if k == len(cage.cells):
            return cage.total is None or sum(held) == cage.total
        return any(breaks(k + 1, [*held, v]) for v in sorted(allowed[cage.cells[k]]) if v not in held)

    return not breaks(0, [])


def spied(grid: Grid, spy: Spy, solutions: int = 1, unit: int = 100, propagate: str = "singles",
          choose: str = "mrv", redundant: str = "none", required: bool = False, hidden: bool = False):
    branching, schedule = policies(choose=choose, unit=unit)
    solver = Solver(grid, Limits.of(Budget(seconds=60), time.perf_counter()), locked=propagate == "locked",
                    observer=spy, branching=branching, schedule=schedule, derived=redundant == "45",
                    required=required, hidden=hidden)
    spy.solver = solver
    return run_solver(solver, solutions)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["killer", "killer+x"]), givens=st.sampled_from([0, 0.15]),
       unit=st.sampled_from([1, 100]), propagate=st.sampled_from(["singles", "locked"]),
       choose=st.sampled_from(["mrv", "vsids", "domwdeg"]), redundant=st.sampled_from(["none", "45"]),
       required=st.booleans(),
       hidden=st.booleans())
def test_every_cage_reason_conflict_and_nogood_of_a_4x4_holds(seed, variant, givens, unit, propagate, choose,
                                                              redundant, required, hidden):
    # A cage reason, a derived sum's (redundant=45), a cage's required value's (required=on), a look's resting on
    # a house's hidden value (hidden=on) and a conflict follow
    # from the rules alone: every grid of the layout holds them (its 4x4 grids, all of them). A nogood follows from
    # the rules and the givens (level 0's literals are dropped from it): every solution of the puzzle holds it.
    # solutions=1: no solution's block is met.
    rng = random.Random(seed)
    solution = rng.choice(FOUR_X_GRIDS if variant == "killer+x" else FOUR_GRIDS)
    grid = killer(variant, solution, 4, rng, givens, largest=4, no_total=0.2, overlapping=rng.randint(0, 1))
    grids = all_grids(grid.layout)
    solutions = [g for g in grids if all(not v or g[c] == v for c, v in enumerate(grid.values))]
    spy = Spy(grid.layout)
    finish = spied(grid, spy, unit=unit, propagate=propagate, choose=choose, redundant=redundant, required=required,
                   hidden=hidden)
    assert (finish.status is Status.SOLVED) == bool(solutions)
    for clause in spy.reasons + spy.derived + spy.conflicts:
        assert all(holds(clause, g, 4) for g in grids)
    for clause in spy.nogoods:
        assert all(holds(clause, g, 4) for g in solutions)


@pytest.mark.parametrize("seed", range(4))
def test_every_cage_reason_and_nogood_of_a_6x6_holds_in_its_solutions(seed):
    # the same on 6x6 Killers cut with larger cages and few givens, where the search learns: the puzzle's
    # solutions (by brute force, up to 20) hold every reason, conflict and nogood (a cage's required values
    # pointed out of their houses on two of them, a house's values hidden in a cage read on the others)
    rng = random.Random(seed)
    solution = random_solution(named("classic", 6), rng).values
    grid = killer("killer", solution, 6, rng, givens=0.0, largest=4, no_total=0.1)
    spy = Spy(grid.layout)
    finish = spied(grid, spy, solutions=1, unit=5, choose="vsids", redundant="45" if seed % 2 else "none",
                   required=seed < 2, hidden=seed >= 2)
    assert finish.status is Status.SOLVED
    solutions = killer_solutions(grid, cap=20)
    assert solutions and spy.reasons
    for clause in spy.reasons + spy.derived + spy.conflicts + spy.nogoods:
        assert all(holds(clause, g, 6) for g in solutions)


@pytest.mark.parametrize("redundant", ["none", "45"])
def test_a_9x9_killer_learns_across_cages(redundant):
    # no givens: the cages alone; cdcl meets conflicts whose reasons are cages' sums (and with redundant=45 the
    # 45 rule's derived sums), and learns nogoods whose literals span several cages
    # (it has several solutions: each nogood and each derived sum's reason holds in the one found, as in every other)
    rng = random.Random(6)
    grid = killer("killer", pattern_solution(3).values, 9, rng, largest=6)
    spy = Spy(grid.layout)
    finish = spied(grid, spy, solutions=1, redundant=redundant)
    assert finish.status is Status.SOLVED
    assert spy.reasons and bool(spy.derived) == (redundant == "45")
    assert spy.nogoods or redundant == "45"  # (the derived sums settle it with fewer conflicts, here none)
    for clause in spy.derived:
        assert holds(clause, finish.found[0], 9)
    cage_of = {cell: k for k, cage in enumerate(cages_in(grid.layout.constraints)) for cell in cage.cells}
    assert redundant == "45" or any(len({cage_of[(lit >> 1) // 9] for lit in nogood}) > 1 for nogood in spy.nogoods)
    for clause in spy.nogoods:
        assert holds(clause, finish.found[0], 9)


# -- the rest unchanged ---------------------------------------------------------------------------------
def test_a_grid_without_cages_reads_none_and_counts_as_before():
    # classic counters as test_learning.py pins them; no `eliminated` without locked or cages
    out = cdcl(Grid.parse(Q4), solutions=2)
    assert "eliminated" not in out.effort
    assert counters(out, "nodes", "guesses", "backtracks", "forced", "conflicts", "learned") == (2, 2, 1, 7, 1, 1)
    solver = Solver(Grid.parse(Q4), Limits.of(Budget(), time.perf_counter()))
    assert not any(isinstance(propagator, KillerCages) for propagator in [*solver.propagators, *solver.lookers])


def test_cage_removals_are_counted_and_told_as_the_cage_sum():
    # 3 in two cells: 1 and 2. The root removes 3 and 4 from both (eliminated 4), told as "cage sum" (singles:
    # no locked candidates' removals beside them)
    lay = named("killer", 4, constraints=[Cage((0, 1), 3)])
    grid = Grid(lay, bytes(16))
    out = cdcl(grid, redundant="none", propagate="singles", required="off")
    assert out.status is Status.SOLVED and out.effort["eliminated"] == 4
    assert sorted(out.solution.values[:2]) == [1, 2]
    from search.trace import trace
    traced = trace(grid, "cdcl:redundant=none,propagate=singles,required=off")
    removed = [(e.cell, e.value) for e in traced.events if e.kind == "remove" and e.rule == "cage sum"]
    assert sorted(removed) == [([0, 0], 3), ([0, 0], 4), ([0, 1], 3), ([0, 1], 4)]
    assert all(e.rule != "cage sum" or e.kind == "remove" for e in traced.events)


def test_the_45_rules_removals_are_counted_and_told_as_the_45_rule():
    # With the 45 rule's sums (the default): the rest of row 1, r1c3 + r1c4, and of box 1, r2c1 + r2c2, sum to
    # 10 - 3 = 7 in different values: 3 and 4. The root removes 1 and 2 from those four cells too, told as "45 rule"
    # (singles: no locked candidates' removals before them; required=off: not the cage's required values' either)
    lay = named("killer", 4, constraints=[Cage((0, 1), 3)])
    grid = Grid(lay, bytes(16))
    out = cdcl(grid, propagate="singles", required="off")
    assert out.status is Status.SOLVED and out.effort["eliminated"] > 4
    from search.trace import trace
    traced = trace(grid, "cdcl:propagate=singles,required=off")
    removed = {(tuple(e.cell), e.value) for e in traced.events if e.kind == "remove" and e.rule == "45 rule"}
    assert removed >= {((r, c), v) for r, c in ((0, 2), (0, 3), (1, 0), (1, 1)) for v in (1, 2)}
    assert all(e.rule != "45 rule" or e.kind == "remove" for e in traced.events)
    assert all(out.solution.values[cell] in (3, 4) for cell in (2, 3, 4, 5))


class Told(Spy):
    """A spy that keeps each removal of one reason kind (`told`: the removal's literal, its reason's literals
    sorted); with `root`, only those made at level 0."""

    def __init__(self, lay: Layout, kind: int, root: bool = False) -> None:
        super().__init__(lay)
        self.kind, self.root = kind, root
        self.told: dict[int, list[int]] = {}

    def propagated(self, level, assigned):
        super().propagated(level, assigned)
        for p, kind in assigned:
            if kind == self.kind and (level == 0 or not self.root):
                self.told[p] = sorted(self.solver.reason_lits(p >> 1))


def lit9(cell: int, v: int, holds: bool = True) -> int:
    """The literal "cell = v" of a 9x9 (false: "cell != v")."""
    return 2 * (cell * 9 + v - 1) + (0 if holds else 1)


def test_the_reason_of_a_cage_removal_by_hand():
    # 9x9, cage r1c1 + r4c2 = 4: {1, 3} (a cage's cells need not touch). r1c3 is a given 3, so r1c1's 3 is
    # gone when the root first looks at the cage: r1c1 is 1 and r4c2 3. 2 and 4 to 9 leave both cells
    # whatever else holds (no combination holds them): their reason rests on nothing. 1 leaves r4c2 by the
    # cage's sum, resting on the one value of a combination gone from the cage's cells: r1c1 = 3, false.
    lay = named("killer", 9, constraints=[Cage((0, 28), 4)])
    grid = Grid(lay, bytes([0, 0, 3] + [0] * 78))

    spy = Told(lay, CAGE_SUM)
    spied(grid, spy)
    lit = lit9
    assert all(spy.told[lit(c, v, False)] == [] for c in (0, 28) for v in (2, 4, 5, 6, 7, 8, 9))
    assert spy.told[lit(28, 1, False)] == [lit(0, 3)]
    assert set(spy.told) == {lit(c, v, False) for c in (0, 28) for v in (2, 4, 5, 6, 7, 8, 9)} | {lit(28, 1, False)}
    assert spy.solver.value[lit(0, 1)] == TRUE and spy.solver.level[lit(0, 1) >> 1] == 0


def test_a_cages_required_values_leave_the_rest_of_their_house_by_hand():
    # 9x9, cage r1c1 + r1c2 + r2c1 = 6: {1, 2, 3}, each value in one of its cells. r1c5 is a given 1, so 1 leaves
    # r1c1 and r1c2 and the cage's look leaves r2c1 only 1. 2 and 3 are then in r1c1 or r1c2: both in row 1 and in
    # box 1, whose other cells lose them (r1c5 holds 1 already). Each removal rests on the cage's candidates as
    # the look found them: the two values of a combination gone from its cells, "r1c1 = 1" and "r1c2 = 1", false.
    # required=off, none of them goes at the root.
    lay = named("killer", 9, constraints=[Cage((0, 1, 9), 6)])
    grid = Grid(lay, bytes([0, 0, 0, 0, 1] + [0] * 76))

    lit = lit9
    rest = (2, 3, 5, 6, 7, 8, 10, 11, 18, 19, 20)  # row 1 and box 1 outside the cage, r1c5 left out
    for required in (True, False):
        spy = Told(lay, CAGE_HOUSE, root=True)
        spied(grid, spy, required=required)
        if required:
            assert set(spy.told) == {lit(cell, v, False) for cell in rest for v in (2, 3)}
            assert all(reason == sorted([lit(0, 1), lit(1, 1)]) for reason in spy.told.values())
        else:
            assert spy.told == {}
        assert spy.solver.value[lit(9, 1)] == TRUE and spy.solver.level[lit(9, 1) >> 1] == 0


def test_a_cages_required_values_leave_every_cell_that_sees_all_their_places_by_hand():
    # 9x9, cage r1c3 + r2c4 = 3: 1 and 2, one in each cell. The two cells share no house, so no house holds
    # both places; a cell that sees both still loses 1 and 2: r1c4, r1c5, r1c6 (row 1 and box 2) and r2c1, r2c2,
    # r2c3 (row 2 and box 1), no other. No value of the cage's cells goes by its look (its values no combination
    # holds go first, resting on nothing), so these rest on nothing either. required=off, none of them goes.
    lay = named("killer", 9, constraints=[Cage((2, 12), 3)])
    grid = Grid(lay, bytes(81))

    lit = lit9
    seeing_both = [cell for cell in range(81) if {2, 12} <= set(geometry(lay).peers[cell])]
    assert seeing_both == [3, 4, 5, 9, 10, 11]  # the slow, obvious way agrees with the comment
    for required in (True, False):
        spy = Told(lay, CAGE_HOUSE, root=True)
        spied(grid, spy, required=required)
        if required:
            assert set(spy.told) == {lit(cell, v, False) for cell in seeing_both for v in (1, 2)}
            assert all(reason == [] for reason in spy.told.values())
        else:
            assert spy.told == {}


def test_a_value_a_house_hides_in_a_cage_keeps_the_combinations_that_hold_it_by_hand():
    # 9x9, cage r1c1 + r1c2 = 10: {1, 9}, {2, 8}, {3, 7} or {4, 6}. Givens 9 at r2c5, r3c8 and r4c3 take 9 out of
    # r1c3 (column 3) and r1c4 to r1c9 (boxes 2 and 3): row 1's 9 is in the cage, so the cage holds 9, and {1, 9} is
    # its only combination. r1c1 and r1c2 lose 2, 3, 4, 6, 7 and 8 at the root, each resting on row 1's other
    # places of 9 (r1c3 to r1c9 = 9, false; box 1 hides it too, and one house's account is enough). 5 goes by the
    # cage's sum alone (no combination holds it). hidden=off, none of them goes at the root.
    lay = named("killer", 9, constraints=[Cage((0, 1), 10)])
    values = [0] * 81
    values[13] = values[25] = values[29] = 9
    grid = Grid(lay, bytes(values))

    lit = lit9
    for hidden in (True, False):
        spy = Told(lay, CAGE_HIDDEN, root=True)
        spied(grid, spy, hidden=hidden)
        if hidden:
            assert set(spy.told) == {lit(cell, v, False) for cell in (0, 1) for v in (2, 3, 4, 6, 7, 8)}
            assert all(reason == sorted(lit(cell, 9) for cell in range(2, 9)) for reason in spy.told.values())
        else:
            assert spy.told == {}
        by_sum = Told(lay, CAGE_SUM, root=True)
        spied(grid, by_sum, hidden=hidden)
        assert set(by_sum.told) == {lit(cell, 5, False) for cell in (0, 1)}


class Levelled(Spy):
    """A spy that also keeps, for each conflict, the level it was met at and its literals' levels."""

    def __init__(self, lay: Layout) -> None:
        super().__init__(lay)
        self.met: list[tuple[int, list[int]]] = []

    def conflict(self, level, conflict):
        super().conflict(level, conflict)
        self.met.append((level, [self.solver.level[q >> 1] for q in conflict]))


def test_a_conflict_that_arose_lower_down_is_analysed_at_its_own_level():
    # 9x9, cage r1c1 + r1c2 = 10: {1, 9}, {2, 8}, {3, 7} or {4, 6}. Six decisions, none in the cage's cells, rows,
    # columns or box, leave row 1 its 9 and its 8 in r1c1 and r1c2 alone (levels 1 to 6): with hidden=on the cage
    # holds both, which no combination does. No literal of theirs touches the cage, so nothing looks at it until
    # something does at level 7: its look is a conflict resting on levels 1 to 6 alone (analysed at level 7, the
    # analysis would look for a literal of that level in vain). The search goes back to level 6 first, analyses it
    # there, and goes on to a valid solution.
    lay = named("killer", 9, constraints=[Cage((0, 1), 10)])
    grid = Grid(lay, bytes(81))
    spy = Levelled(lay)
    branching, schedule = policies(choose="mrv", unit=100)
    solver = Solver(grid, Limits.of(Budget(seconds=60), time.perf_counter()), observer=spy, branching=branching,
                    schedule=schedule, hidden=True)
    spy.solver = solver
    assert solver.start()
    at = {(r, c): (r - 1) * 9 + c - 1 for r in range(1, 10) for c in range(1, 10)}
    for level, (cell, v) in enumerate(((at[2, 5], 9), (at[3, 8], 9), (at[4, 3], 9),
                                       (at[2, 7], 8), (at[3, 5], 8), (at[5, 3], 8), (at[9, 9], 1)), start=1):
        solver.decide(cell * 9 + v - 1)
        assert solver.propagate() is None and solver.decision_level() == level
    cages = next(p for p in solver.lookers if isinstance(p, KillerCages))
    cages.waiting.touch(0)  # the look no literal of level 7 asked for
    stop = solver.search(10**6)
    level, levels = spy.met[0]
    assert level == 7 and max(levels) == 6 and set(levels) <= {1, 2, 3, 4, 5, 6}
    assert stop is Stop.SOLUTION
    solution = solver.solution_so_far()
    assert grid.is_solved_by(Grid(lay, solution)) and solution[0] + solution[1] == 10


def test_a_cages_required_values_are_counted_and_told():
    # 4x4, cage r1c1 + r1c2 = 3: 1 and 2, both in row 1 and box 1. The root removes 3 and 4 from the cage's cells
    # (the cage's sum) and 1 and 2 from the rest of the row and the box (its required values): eliminated 4 + 8
    lay = named("killer", 4, constraints=[Cage((0, 1), 3)])
    grid = Grid(lay, bytes(16))
    out = cdcl(grid, redundant="none", propagate="singles", required="on")
    assert out.status is Status.SOLVED and out.effort["eliminated"] == 12
    from search.trace import trace
    traced = trace(grid, "cdcl:redundant=none,propagate=singles,required=on")
    removed = {(tuple(e.cell), e.value) for e in traced.events
               if e.kind == "remove" and e.rule == "cage's required value"}
    assert removed == {((r, c), v) for r, c in ((0, 2), (0, 3), (1, 0), (1, 1)) for v in (1, 2)}


# -- the 45 rule's sums whose values may repeat: bounds, and their explanations, against brute force -----------
def reachable_sums(allowed: list[set[int]]) -> set[int]:
    """Every sum of one value from each set (values may repeat)."""
    sums = {0}
    for values in allowed:
        sums = {s + v for s in sums for v in values}
    return sums


def allowed_by(clause: list[int], cells: list[int], n: int) -> list[set[int]]:
    """Per cell, the values a clause of false placements leaves it: all but those the clause names there."""
    return [set(range(1, n + 1)) - {(lit >> 1) % n + 1 for lit in clause if (lit >> 1) // n == cell} for cell in cells]


def counted(values: set[int], i: int, plus: int, n: int) -> set[int]:
    """What the values of a sum's i-th cell count for: themselves, or n + 1 less each past `plus` (an outie of
    innies less outies, whose value the sum takes away)."""
    return values if i < plus else {n + 1 - v for v in values}


def sound_and_minimal(clause: list[int], cells: list[int], total: int, n: int, fixed: tuple[int, int] | None,
                      plus: int) -> None:
    """With every placement of `clause` false, no values of the cells (`fixed`: one cell's value given) count up
    to `total`, even each cell given every value between its least and greatest left (the bounds the clause says);
    with any one of them dropped, some do: the explanation needs each of its literals."""
    def sums_to_total(lits: list[int]) -> bool:
        allowed = [counted(a, i, plus, n) for i, a in enumerate(allowed_by(lits, cells, n))]
        allowed = [set(range(min(a), max(a) + 1)) for a in allowed]
        if fixed is not None:
            i = cells.index(fixed[0])
            allowed[i] = counted({fixed[1]}, i, plus, n)
        return total in reachable_sums(allowed)

    assert all(not lit & 1 and (lit >> 1) // n in cells for lit in clause)  # placements of the sum's cells
    assert not sums_to_total(clause)
    for i in range(len(clause)):
        assert sums_to_total(clause[:i] + clause[i + 1:])


@pytest.mark.parametrize("seed", range(3))
def test_a_derived_sums_bounds_and_their_explanations_against_brute_force(seed):
    # Sums whose cells do not all share a house (their values may repeat) of 6x6 Killers, and innies less outies,
    # their cells given random candidates: the look removes what bounds reasoning removes (v goes when the others'
    # least leave less than v, or their greatest more; an outie's value counting n + 1 less it), a conflict when no
    # values reach the total; each removal's and conflict's clause is sound (its placements false, the cells cannot
    # make the total) and minimal (each literal needed), by brute force. Both kinds are met.
    rng = random.Random(seed)
    n, checked, removed, conflicts, signed = 6, 0, 0, 0, 0
    while checked < 60:
        solution = random_solution(named("classic", n), rng).values
        cages = [c for c in cut(solution, n, rng, largest=3) if rng.random() < 0.7]
        grid = Grid(named("killer", n, constraints=cages), bytes(n * n))
        bounds = [q for q in Solver(grid, Limits.of(Budget(), 0.0), derived=True).lookers if isinstance(q, SumBounds)]
        if not bounds:
            continue
        for k, cells in enumerate(list(scope) for scope in bounds[0].sums.cells):
            if len(cells) > 4:
                continue
            total, plus = bounds[0].sums.totals[k], bounds[0].sums.plus[k]
            signed += plus < len(cells)
            for _ in range(10):
                solver = Solver(grid, Limits.of(Budget(), 0.0), derived=True)
                look = next(q for q in solver.lookers if isinstance(q, SumBounds))
                masks = {cell: sum(1 << v for v in rng.sample(range(n), rng.randint(1, 3)))
                         | (1 << (solution[cell] - 1) if rng.random() < 0.5 else 0) for cell in cells}
                for cell, mask in masks.items():
                    solver.places[cell] = mask
                    for v in range(n):
                        if not mask >> v & 1:
                            solver.value[2 * (cell * n + v)], solver.value[2 * (cell * n + v) + 1] = FALSE, TRUE
                values = {c: counted({v for v in range(1, n + 1) if masks[c] >> (v - 1) & 1}, i, plus, n)
                          for i, c in enumerate(cells)}
                lo = {c: min(vs) for c, vs in values.items()}
                hi = {c: max(vs) for c, vs in values.items()}
                conflict = look.look_at(solver, k)
                checked += 1
                if sum(lo.values()) > total or sum(hi.values()) < total:
                    assert conflict is not None
                    sound_and_minimal(list(conflict), cells, total, n, None, plus)
                    conflicts += 1
                    continue
                assert conflict is None
                for i, c in enumerate(cells):
                    for v in range(1, n + 1):
                        if not masks[c] >> (v - 1) & 1:
                            continue
                        [u] = counted({v}, i, plus, n)
                        rest = [d for d in cells if d != c]
                        goes = u + sum(lo[d] for d in rest) > total or u + sum(hi[d] for d in rest) < total
                        x = c * n + v - 1
                        assert (solver.value[2 * x] == FALSE) is goes
                        if goes:
                            sharing = counted({w for w in range(1, n + 1)
                                               if solver.reason[c * n + w - 1] is solver.reason[x]}, i, plus, n)
                            edge = min(sharing) if u > total - sum(lo[d] for d in rest) else max(sharing)
                            [edge_value] = counted({edge}, i, plus, n)
                            sound_and_minimal(list(solver.reason[x].lits), cells, total, n, (c, edge_value), plus)
                            removed += 1
    assert removed and conflicts and signed


@settings(max_examples=150, deadline=None)
@given(n=st.sampled_from([6, 9, 16]), data=st.data())
def test_the_matchings_enumerated_are_those_regins_method_finds(n, data):
    # a small cage's filter enumerates its matchings (puzzles.bits `matched`), a larger one's finds them by Régin's
    # method (`alldiff_filter`): per combination, the same values kept, on up to 8 cells
    k = data.draw(st.integers(1, min(n, 8)))
    masks = data.draw(st.lists(st.integers(0, (1 << n) - 1), min_size=k, max_size=k))
    combination = sum(1 << v for v in data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k,
                                                         unique=True)))
    kept = vec[i64]([0] * k)
    domains = vec[i64](masks)
    matched(domains, combination, kept, vec[i64](), fewest_first(domains))
    lost = alldiff_filter(masks, combination)
    assert list(kept) == ([0] * k if lost is None else [m & combination & ~g for m, g in zip(masks, lost, strict=True)])


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_the_cage_filter_of_a_larger_cage_keeps_those_of_every_assignment_of_the_cells(data):
    # six to eight cells of a 9x9 (Régin's method for each combination, and the walk over the combinations ended
    # once nothing more can be kept): each cell a few candidates, so that every assignment can be tried; a filling
    # drawn first, so that most cages have some
    n = 9
    k = data.draw(st.integers(6, 8))
    filling = data.draw(st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True))
    masks = [1 << (v - 1) | sum(1 << (w - 1) for w in data.draw(st.sets(st.integers(1, n), max_size=2)))
             for v in filling]
    total = sum(filling) + data.draw(st.sampled_from([0, 0, 0, 1, -1]))
    found = [0] * k
    for chosen in product(*[[v for v in range(1, n + 1) if m >> (v - 1) & 1] for m in masks]):
        if len(set(chosen)) == k and sum(chosen) == total:
            for i, v in enumerate(chosen):
                found[i] |= 1 << (v - 1)
    assert supports(masks, combinations_of(n, k, total)) == found


@settings(max_examples=100, deadline=None)
@given(n=st.sampled_from([9, 16, 25]), data=st.data())
@pytest.mark.slow
def test_the_cage_filter_with_its_residues_keeps_what_it_keeps_without(n, data):
    # a cage's table of residues (the fillings its earlier filters found) is kept across calls, as the candidates
    # shrink, grow back (a backjump) and shrink again: each call keeps what a call without residues keeps, and
    # every residue left in the table is a filling of the cage (different values, a combination, the cell's value)
    k = data.draw(st.integers(1, 5))
    filling = data.draw(st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True))
    combinations = combinations_of(n, k, sum(filling))
    table = residue_table(k)
    for _ in range(data.draw(st.integers(1, 12))):
        masks = [data.draw(st.integers(0, (1 << n) - 1)) | (1 << (v - 1) if data.draw(st.booleans()) else 0)
                 for v in filling]
        assert list(cage_supports(vec[i64](masks), vec[i64](combinations), table)) == supports(masks, combinations)
        for i in range(k):
            for bit in range(n):
                packed = table[(i << RESIDUE_BITS) + bit]
                if packed >= 0:
                    values = [packed >> (j * RESIDUE_BITS) & 31 for j in range(k)]
                    assert values[i] == bit and sum(1 << v for v in values) in combinations


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([9, 16]), cheap=st.booleans(), data=st.data())
def test_the_hidden_values_a_look_needs_are_those_the_filter_needs_read_one_by_one(n, cheap, data):
    # `needed_values` leaves a hidden value out without a filter when no combination lacks it: the values it keeps
    # are those of the obvious way, the filter run without each value in turn and the value left out when it finds
    # the same
    k = data.draw(st.integers(2, 5))
    filling = data.draw(st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True))
    combinations = vec[i64](combinations_of(n, k, sum(filling)))
    masks = vec[i64]([data.draw(st.integers(0, (1 << n) - 1)) | (1 << (v - 1)) for v in filling])
    hidden = i64(data.draw(st.integers(0, (1 << n) - 1)) & reduce(or_, combinations))

    def look(must: int) -> list[int]:
        return list(combination_supports(masks, combinations, i64(must)) if cheap
                    else cage_supports(masks, combinations, vec[i64](), i64(must)))

    found = look(hidden)
    expected = hidden
    for v in range(n):
        if expected >> v & 1 and look(expected & ~(1 << v)) == found:
            expected &= ~(1 << v)
    assert needed_values(masks, combinations, hidden, vec[i64](found), cheap) == expected


class Retired(Spy):
    """An observer that looks, at each fixpoint of the propagation, at the 45 rule's sums the solver no longer
    looks at (`KillerCages.retire_houses`), as their look would: each keeps every candidate of its cells, and each
    cell outside it that sees every place of one of its values has lost that value already."""

    looked = 0

    def propagated(self, level, assigned):
        solver = self.solver
        rooms, n = solver.retiring, solver.n
        if rooms is None:
            return
        cages = rooms.cages
        for k in range(len(cages.cells)):
            if any(k in ks for ks in rooms.of_cell) or not any(k in ks for ks in cages.of_cell):
                continue  # (still looked at)
            self.looked += 1
            masks = vec[i64]([solver.places[cell] & cages.values[k] for cell in cages.cells[k]])
            hidden = rooms.hidden_values(solver, k)
            assert list(combination_supports(masks, cages.combinations[k], hidden)) == list(masks)
            for v in range(n):
                holding = sum(1 << i for i, m in enumerate(masks) if m >> v & 1)
                if holding & (holding - 1):
                    assert all(solver.value[(cell * n + v) << 1] == FALSE for cell in cages.seeing(k, holding))


def scattered_killer(seed: int) -> Grid:
    """A 9x9 Killer without givens whose cages (1 to 5 cells) each have no two cells in one house, cut from a random
    solution: no cage lies in a house, and the 45 rule's sums of different values are whole houses."""
    rng = random.Random(seed)
    solution = random_solution(boxes(9), rng).values
    peers = [set(p) for p in geometry(boxes(9)).peers]
    free = list(range(81))
    rng.shuffle(free)
    cages = []
    while free:
        cells = [free.pop()]
        for _ in range(rng.randint(1, 4)):
            more = [b for b in free if all(b not in peers[a] and solution[b] != solution[a] for a in cells)]
            if not more:
                break
            free.remove(more[0])
            cells.append(more[0])
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return Grid(killer_layout(boxes(9), cages), bytes(81))


@pytest.mark.parametrize(("cut", "seed"), [*(("random", seed) for seed in range(8)), ("scattered", 0),
                                           ("scattered", 1)])
def test_a_sum_that_repeats_a_house_is_looked_at_no_more_and_the_search_is_the_same(cut, seed):
    # cdcl's defaults on a 9x9 Killer (the combinations that fit, locked candidates): a 45 rule's sum of different
    # values that is a house's cells but those placed at the root is looked at no more after the root (and when every
    # such sum is, they leave the propagation). The search is the same as with them looked at throughout, counter
    # for counter and solution for solution, and at every fixpoint such a sum's look would have found nothing
    rng = random.Random(seed)
    grid = (Grid(killer_layout(boxes(9), random_cages(random_solution(boxes(9), rng), rng)), bytes(81))
            if cut == "random" else scattered_killer(seed))
    searches = []
    for retiring in (True, False):
        spy = Retired(grid.layout)
        solver = configured(grid, parse(OPTIONS, {}), Limits(float("inf"), float("inf")), spy)
        spy.solver = solver
        if not retiring:
            solver.retiring = None
        finish = run_solver(solver, 20)
        searches.append((solver.counters(), finish.found))
        if retiring:
            assert spy.looked > 0  # (some sum was retired, and looked at by the test)
            rooms = solver.retiring
            every = not any(len(ks) for ks in rooms.of_cell)
            assert every == (cut == "scattered")
            assert all((q is rooms) is False for q in solver.propagators) == every
            assert all((q is rooms) is False for q in solver.lookers) == every
    assert searches[0] == searches[1]
    found = searches[0][1]
    assert 1 <= len(set(found)) == len(found) <= 20
    assert all(0 not in g and not Grid(grid.layout, g).conflicts() for g in found)


@pytest.mark.parametrize("variant", ["killer+x", "jigsaw+killer"])
def test_the_sums_that_repeat_a_house_stay_where_a_cell_may_see_two_of_its_cells_by_two_houses(variant):
    # with a diagonal or a Jigsaw's regions, a cell outside a house can see two of its cells through two other
    # houses, which locked candidates do not read: no sum is retired there, on the defaults that retire them on a
    # plain Killer
    rng = random.Random(5)
    grid = drawn_blank(variant, 9, rng)
    solver = configured(grid, parse(OPTIONS, {}), Limits(float("inf"), float("inf")), None)
    plain = configured(drawn_blank("killer", 9, rng), parse(OPTIONS, {}), Limits(float("inf"), float("inf")), None)
    assert solver.retiring is None and plain.retiring is not None


@pytest.mark.parametrize("side", [9, 16])
def test_cdcl_keeps_every_derived_sum_but_those_of_different_values_past_room_cells(side):
    # a derived sum of different values of more than ROOM_CELLS cells (16x16 and up) lies in one house, whose other
    # cells hold what the house's total leaves: cdcl leaves it out; every other derived sum is kept, by its
    # combinations, by distinct_bounds or by its bounds
    rng = random.Random(7)
    lay = killer_layout(boxes(side), random_cages(random_solution(boxes(side), rng), rng))
    derived = derived_sums(lay)
    peers = [set(p) for p in geometry(lay).peers]
    distinct = [d for d in derived if all(b in peers[a] for i, a in enumerate(d.cells) for b in d.cells[i + 1:])]
    left_out = [d for d in distinct if len(d.cells) > ROOM_CELLS]
    sums = sum_rules(lay)
    signed = [[*d.plus, *d.minus] for d in signed_sums(lay)]  # innies less outies, kept by their bounds, last
    rooms, wide, bounded = ([list(cells) for cells in kept.cells] for kept in (sums.rooms, sums.wide, sums))
    kept = [*rooms, *wide, *bounded[:len(bounded) - len(signed)]]
    assert sorted(kept) == sorted(list(d.cells) for d in derived if d not in left_out)
    assert bounded[len(bounded) - len(signed):] == signed
    assert all(len(cells) <= ROOM_CELLS for cells in [*rooms, *wide])
    assert bool(left_out) is (side == 16)  # none on a 9x9: its sums have at most 9 cells
    units = [set(unit) for unit in geometry(lay).units]
    assert all(any(set(d.cells) <= unit for unit in units) for d in left_out)


@pytest.mark.parametrize("seed", [10, 3])
def test_a_sum_kept_by_distinct_bounds_is_looked_at_again_after_its_own_removals(seed):
    # distinct_bounds reads the other cells' candidates as one set, so a look's own removals can move the bounds
    # of what is left: at every fixpoint of propagation (here after each placement of the solution's values on a
    # 16x16 Killer, in random order) each such sum keeps exactly what distinct_bounds keeps of its candidates. (With
    # seed 10 a sum's own removals left it short of that at the 26th placement, when they did not bring it back.)
    rng = random.Random(seed)
    solution = random_solution(boxes(16), rng)
    grid = Grid(killer_layout(boxes(16), random_cages(solution, rng)), bytes(256))
    solver = Solver(grid, Limits.of(Budget(), 0.0), derived=True)
    [wide] = [q for q in solver.lookers if isinstance(q, KillerCages) and q.wide]
    assert solver.start()
    looked = 0
    for cell in rng.sample(range(256), 256):
        x = cell * 16 + solution.values[cell] - 1
        if solver.value[2 * x] == TRUE:
            continue
        solver.decide(x)
        assert solver.propagate() is None  # the solution's values: never a conflict
        for k, cells in enumerate(wide.cages.cells):
            masks = [solver.places[c] & wide.cages.values[k] for c in cells]
            assert list(distinct_bounds(vec[i64](masks), wide.totals[k])) == masks, (solver.decision_level(), k, masks)
            looked += 1
    assert looked
