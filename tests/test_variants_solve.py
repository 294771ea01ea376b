"""The ladder's rules, every search and every formulation on the Sudoku family (X, Windoku, disjoint groups,
rectangular boxes, Jigsaw, and regions that are lines): each rule is its definition stated for houses and
removes nothing a solution uses, each rung reaches its definitions' fixpoint, the engine and cdcl deduce what
the rules do, every method's answer is valid in the puzzle's houses and is the brute force's, and unit
propagation on each SAT encoding settles exactly what its rung does.

The houses and the brute force come from tests/variant_grids.py, which reads the layouts' own fields; the
references of the rules from tests/rule_references.py, which enumerate what the definitions say.
"""
from __future__ import annotations

import csv
import random
from itertools import combinations

import pytest
from fixtures import engine_result
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_references import (
    LOCAL_RULES,
    as_removals,
    bit,
    ref_alldiff_by_matchings,
    ref_hidden,
    ref_in_units,
    ref_locked_houses,
    ref_naked,
)
from variant_grids import (
    JIGSAW_9_UNSAT,
    LAYOUTS,
    PUZZLES,
    SMALL,
    grid,
    houses,
    solutions,
    support,
    valid_solution,
)

from formulations import SOLVERS as FORMULATIONS
from formulations.cnf import ENCODINGS, layout_clauses, segments
from formulations.cnf import givens as sat_givens
from formulations.cnf import var as sat_var
from puzzles import Budget, CellMasks, Grid, Status, geometry
from puzzles.layouts import layout
from search import SOLVERS, rules
from search.learning import Solver

# -- the material: partial grids of every layout ---------------------------------------------------------------


def relabelled(name: str, rng: random.Random) -> list[int]:
    """The layout's stored solution with its values relabelled at random: a solution still, whatever the houses."""
    n = LAYOUTS[name].side
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    return [perm[v - 1] for v in Grid.parse(PUZZLES[name].solution).values]


def partial(name: str, seed: int, blank: float, thin: float, keep_solution: bool = True
            ) -> tuple[Grid, list[int], list[int], list[int]]:
    """A solution of the layout with a share `blank` of its cells emptied; each empty cell's candidates (the
    values no house of it holds), each then dropped with probability `thin` (never the solution's value with
    `keep_solution`); what each house still needs; the solution. Houses from the layout's fields."""
    rng = random.Random(seed)
    lay = LAYOUTS[name]
    solution = relabelled(name, rng)
    values = [0 if rng.random() < blank else v for v in solution]
    full = (1 << lay.side) - 1
    placed = [sum(bit(values[c]) for c in h if values[c]) for h in houses(lay)]
    masks = []
    for cell, v in enumerate(values):
        m = 0 if v else full & ~sum_of(placed[u] for u, h in enumerate(houses(lay)) if cell in h)
        for b in rules._bits(m):
            if rng.random() < thin and not (keep_solution and b == bit(solution[cell])):
                m &= ~b
        masks.append(m)
    return Grid(lay, bytes(values)), masks, [full & ~p for p in placed], solution


def sum_of(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


NAMES = list(LAYOUTS)
NINE = [name for name in NAMES if LAYOUTS[name].side >= 8]

grids = st.builds(partial, name=st.sampled_from(NAMES), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
                  thin=st.sampled_from([0.0, 0.1, 0.3]), keep_solution=st.booleans())
# small enough that the brute force lists every filling: the small layouts, and the others less blank
enumerable = st.one_of(
    st.builds(partial, name=st.sampled_from(SMALL), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
              thin=st.sampled_from([0.0, 0.1, 0.3]), keep_solution=st.booleans()),
    st.builds(partial, name=st.sampled_from(NINE), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.45),
              thin=st.sampled_from([0.0, 0.2]), keep_solution=st.booleans()))


# -- the rules: each its definition, over every house ------------------------------------------------------------


def test_the_crossings_are_every_two_houses_that_share_two_cells():
    """By the layouts' fields: an X's diagonal crosses each box on it, a Windoku's extra region crosses three rows,
    three columns and three boxes (in 4, 2 and 2 cells: the fourth box it meets in one); a row and a column, and
    the two diagonals, share one cell: no crossing; a region that is a row is that row again: no crossing."""
    for name, lay in LAYOUTS.items():
        geo, every = geometry(lay), houses(lay)
        t = rules.crossings(geo)
        expected = {(a, b): tuple(sorted(set(every[a]) & set(every[b])))
                    for a in range(len(every)) for b in range(a + 1, len(every))
                    if 2 <= len(set(every[a]) & set(every[b])) < lay.side}
        assert dict(zip(zip(t.first, t.second, strict=True), t.cells, strict=True)) == expected, name
        for s, (a, b) in enumerate(zip(t.first, t.second, strict=True)):
            assert set(t.first_rest[s]) == set(every[a]) - set(every[b])
            assert set(t.second_rest[s]) == set(every[b]) - set(every[a])
            assert s in t.of_unit[a] and s in t.of_unit[b]
    x, windoku = geometry(LAYOUTS["x-9"]), geometry(LAYOUTS["windoku-9"])
    diagonals = [u for u, name in enumerate(x.unit_names) if name.startswith("diagonal")]
    assert [len(rules.crossings(x).of_unit[u]) for u in diagonals] == [3, 3]  # three boxes each
    extra = windoku.unit_names.index("extra region 1")
    assert len(rules.crossings(windoku).of_unit[extra]) == 3 + 3 + 3


@settings(max_examples=80, deadline=None)
@given(material=grids)
@pytest.mark.slow
def test_each_rule_is_its_definition_over_every_house(material):
    puzzle, masks, needed, _ = material
    geo, every = puzzle.geometry, houses(puzzle.layout)
    assert rules.locked_candidates(masks, geo) == ref_locked_houses(masks, every)
    assert rules.naked_subsets_in_units(masks, geo) == ref_in_units(lambda m, _n: ref_naked(m, 4), masks, every)
    assert rules.hidden_subsets_in_units(masks, geo, needed) == ref_in_units(
        lambda m, n: ref_hidden(m, 4, n), masks, every, needed)
    assert rules.alldiff_in_units(masks, geo, needed) == ref_in_units(ref_alldiff_by_matchings, masks, every, needed)


def probing_rule(below):
    """Probing from its definition: a candidate leaves when the fixpoint of `below`, the cell given it alone, is a
    contradiction (every candidate of every cell with two or more, one pass)."""
    def probe(masks, every):
        lost = [0] * len(masks)
        for cell, m in enumerate(masks):
            if m.bit_count() >= 2:
                for value in rules._bits(m):
                    if ref_fixpoint([value if c == cell else x for c, x in enumerate(masks)], every, below) is None:
                        lost[cell] |= value
        return as_removals(masks, lost)
    return probe


def ref_fixpoint(masks, every, grid_rules):
    """Each rule in turn, each on what the last left, until a round removes nothing; None on a contradiction."""
    current = list(masks)
    while True:
        before = list(current)
        for rule in grid_rules:
            removed = rule(current, every)
            if removed is None:
                return None
            for cell, gone in removed.items():
                current[cell] &= ~gone
        if current == before:
            return current


def ref_ladder(rung, needed):
    """Each rung's rules from their definitions, over the houses (as search/rules.py's `ladder` lists them)."""
    def naked(size):
        return lambda m, every: ref_in_units(lambda unit, _n: ref_naked(unit, size), m, every)

    def hidden(size):
        return lambda m, every: ref_in_units(lambda unit, n: ref_hidden(unit, size, n), m, every, needed)

    alldiff = [lambda m, every: ref_in_units(ref_alldiff_by_matchings, m, every, needed), ref_locked_houses]
    singles = [naked(1), hidden(1)]
    return {
        "none": [],
        "naked": [naked(1)],
        "singles": singles,
        "locked": [*singles, ref_locked_houses],
        "subsets": [naked(4), hidden(4), ref_locked_houses],
        "alldiff": alldiff,
        "pairs": [*alldiff, probing_pairs(singles)],
        "probe": [*alldiff, probing_rule(alldiff)],
    }[rung]


def probing_pairs(below):
    def probe(masks, every):
        lost = [0] * len(masks)
        for cell, m in enumerate(masks):
            if m.bit_count() == 2:
                for value in rules._bits(m):
                    if ref_fixpoint([value if c == cell else x for c, x in enumerate(masks)], every, below) is None:
                        lost[cell] |= value
        return as_removals(masks, lost)
    return probe


RUNGS = [r for r in rules.RUNG_NAMES if r != "probe"]


@settings(max_examples=40, deadline=None)
@given(material=grids, rung=st.sampled_from(RUNGS))
def test_each_rung_reaches_the_fixpoint_its_definitions_reach(material, rung):
    puzzle, masks, needed, _ = material
    every = houses(puzzle.layout)
    if rung == "pairs" and puzzle.side > 6:
        return  # the reference probes with the slow rules: the small layouts only
    assert rules.fixpoint(masks, puzzle.geometry, rules.ladder(rung, needed)) == ref_fixpoint(
        masks, every, ref_ladder(rung, needed))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(["x-4", "columns-4", "two-rows-4"]),
       blank=st.floats(0.3, 0.9), thin=st.sampled_from([0.0, 0.2]))
def test_probing_reaches_the_fixpoint_its_definition_reaches(seed, name, blank, thin):
    puzzle, masks, needed, _ = partial(name, seed, blank, thin)
    assert rules.fixpoint(masks, puzzle.geometry, rules.ladder("probe", needed)) == ref_fixpoint(
        masks, houses(puzzle.layout), ref_ladder("probe", needed))


def grid_rules(needed):
    """Every grid rule of the ladder, one pass each, by name."""
    return {
        "naked subsets": lambda m, geo: rules.naked_subsets_in_units(m, geo),
        "hidden subsets": lambda m, geo: rules.hidden_subsets_in_units(m, geo, needed),
        "alldiff": lambda m, geo: rules.alldiff_in_units(m, geo, needed),
        "locked candidates": rules.locked_candidates,
        "probe pairs": rules.probing(rules.ladder("singles", needed), only=2),
    }


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(material=enumerable)
def test_a_rule_removes_only_what_no_solution_uses(material):
    """Sound, by the brute force: a candidate a rule removes is the value of that cell in no filling of the
    masks that keeps every house different; a contradiction, when there is no such filling; and every rung's
    fixpoint keeps every value some filling uses."""
    puzzle, masks, needed, _ = material
    used, count = support(puzzle, masks)
    for name, rule in grid_rules(needed).items():
        removed = rule(masks, puzzle.geometry)
        if removed is None:
            assert count == 0, name
            continue
        for cell, gone in removed.items():
            assert not gone & used[cell], (name, cell)
    for rung in rules.RUNG_NAMES if puzzle.side <= 6 else RUNGS:
        after = rules.fixpoint(masks, puzzle.geometry, rules.ladder(rung, needed))
        if after is None:
            assert count == 0, rung
        else:
            assert all(not u & ~m for u, m in zip(used, after, strict=True) if m), rung


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(material=grids)
def test_every_rung_keeps_a_solution_the_masks_allow(material):
    """Where every empty cell's mask holds the solution's value, each rung's fixpoint still does."""
    puzzle, masks, needed, solution = material
    empty = puzzle.empty_cells()
    if not all(masks[c] & bit(solution[c]) for c in empty):
        return
    for rung in rules.RUNG_NAMES if puzzle.side <= 6 else RUNGS:
        after = rules.fixpoint(masks, puzzle.geometry, rules.ladder(rung, needed))
        assert after is not None, rung
        assert all(after[c] & bit(solution[c]) for c in empty), rung


# -- incremental: a rule over the houses that changed since it was quiet -----------------------------------------


@settings(max_examples=60, deadline=None)
@given(material=grids, rule=st.sampled_from(sorted(LOCAL_RULES)), seed=st.integers(0, 10**6), changes=st.integers(1, 6))
def test_a_rule_over_the_houses_that_changed_is_the_rule_over_every_house(material, rule, seed, changes):
    """What inference.Step relies on, on every layout: a rule reads one house's masks, or two crossing houses'
    alone. From masks where the rule removes nothing, a few cells change; the pass over the houses holding a
    changed cell (the engine's `units_touched`) removes what the definition removes over every house."""
    puzzle, masks, _, _ = material
    geo, every = puzzle.geometry, houses(puzzle.layout)
    local = LOCAL_RULES[rule]
    quiet = rules.fixpoint(masks, geo, [lambda m, g: local(m, g, None)])
    if quiet is None:
        return
    rng = random.Random(seed)
    changed = list(quiet)
    live = [c for c, m in enumerate(masks) if m]
    for cell in rng.sample(live, min(changes, len(live))):
        changed[cell] = rng.randrange(1, masks[cell] + 1) & masks[cell] or masks[cell]
    moved = [c for c in range(len(masks)) if changed[c] != quiet[c]]
    touched = CellMasks(puzzle).units_touched(moved)
    assert touched == [u for u, h in enumerate(every) if any(c in h for c in moved)]
    everywhere = {
        "locked candidates": lambda: ref_locked_houses(changed, every),
        "naked subsets": lambda: ref_in_units(lambda m, _n: ref_naked(m, 4), changed, every),
        "hidden subsets": lambda: ref_in_units(lambda m, n: ref_hidden(m, 4, n), changed, every),
        "alldiff": lambda: ref_in_units(ref_alldiff_by_matchings, changed, every),
    }[rule]()
    assert local(changed, geo, touched) == everywhere


def test_units_touched_names_every_house_of_a_cell():
    """X's centre lies in five houses (its row, column, box and both diagonals); a Windoku cell in up to four."""
    x = CellMasks(grid("x-9", PUZZLES["x-9"].unique))
    names = geometry(LAYOUTS["x-9"]).unit_names
    assert [names[u] for u in x.units_touched([40])] == ["row 5", "column 5", "box 5", "diagonal +", "diagonal -"]
    w = CellMasks(grid("windoku-9", PUZZLES["windoku-9"].unique))
    names = geometry(LAYOUTS["windoku-9"]).unit_names
    assert [names[u] for u in w.units_touched([10])] == ["row 2", "column 2", "box 1", "extra region 1"]


# -- the rungs on the engine, and cdcl's propagation -------------------------------------------------------------


def with_wrong(name: str, seed: int, blank: float, wrong: int) -> Grid:
    """A blanked solution of the layout, `wrong` blanks then given a value that clashes with no given in any
    house (but not the solution's): grids with and without contradictions."""
    rng = random.Random(seed)
    lay = LAYOUTS[name]
    solution = relabelled(name, rng)
    values = [0 if rng.random() < blank else v for v in solution]
    blanks = [c for c, v in enumerate(values) if not v]
    for cell in rng.sample(blanks, min(wrong, len(blanks))):
        seen = {values[p] for h in houses(lay) if cell in h for p in h}
        choices = [v for v in range(1, lay.side + 1) if v not in seen and v != solution[cell]]
        if choices:
            values[cell] = rng.choice(choices)
    return Grid(lay, bytes(values))


def rules_result(puzzle: Grid, rung: str) -> list[int] | None:
    """The same by the rules' fixpoint, from each empty cell's candidates in the layout's houses."""
    every = houses(puzzle.layout)
    full = (1 << puzzle.side) - 1
    placed = [sum_of(bit(puzzle.values[c]) for c in h if puzzle.values[c]) for h in every]
    masks = [0 if v else full & ~sum_of(placed[u] for u, h in enumerate(every) if c in h)
             for c, v in enumerate(puzzle.values)]
    if any(not v and not m for v, m in zip(puzzle.values, masks, strict=True)):
        return None  # an empty cell with no candidate: the engine's first check, which masks cannot show
    return rules.fixpoint(masks, puzzle.geometry, rules.ladder(rung, [full & ~p for p in placed]))


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
       wrong=st.sampled_from([0, 0, 1, 2]), rung=st.sampled_from(["naked", "singles", "locked", "subsets", "alldiff",
                                                                 "pairs"]))
def test_a_rung_on_the_engine_deduces_exactly_its_rules_fixpoint(name, seed, blank, wrong, rung):
    puzzle = with_wrong(name, seed, blank, wrong)
    assert engine_result(puzzle, rung) == rules_result(puzzle, rung)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(SMALL), seed=st.integers(0, 10**6), blank=st.floats(0.3, 0.9),
       wrong=st.sampled_from([0, 1]))
def test_probing_on_the_engine_deduces_exactly_its_rules_fixpoint(name, seed, blank, wrong):
    puzzle = with_wrong(name, seed, blank, wrong)
    assert engine_result(puzzle, "probe") == rules_result(puzzle, "probe")


def cdcl_root(puzzle: Grid, locked: bool) -> list[int] | None:
    """What cdcl's propagation of the givens leaves: per empty cell the values not excluded; None on a clash."""
    from search.depth_first import Limits

    solver = Solver(puzzle, Limits(float("inf"), float("inf")), locked=locked)
    if not solver.start():
        return None
    return [0 if v else solver.places[cell] for cell, v in enumerate(puzzle.values)]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from([*NAMES, "classic"]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
       wrong=st.sampled_from([0, 0, 1, 2]), locked=st.booleans())
def test_cdcl_propagation_deduces_exactly_the_singles_or_locked_fixpoint(name, seed, blank, wrong, locked):
    """cdcl's groups come from the houses and its locked candidates from the crossings: its propagation of the
    givens (naked and hidden singles, with propagate=locked locked candidates) removes what the rung does."""
    if name == "classic":
        from fixtures import partial_grid

        puzzle = partial_grid(3, seed, blank, wrong)
    else:
        puzzle = with_wrong(name, seed, blank, wrong)
    assert cdcl_root(puzzle, locked) == rules_result(puzzle, "locked" if locked else "singles")


# -- every search, with every option ------------------------------------------------------------------------------

def search_variants() -> list[tuple[str, dict[str, str]]]:
    """Every method of search/ with its defaults, then with each other choice of each option, one at a time."""
    from kernels_identity import variants

    return list(variants())


def complete(method: str, options: dict[str, str]) -> bool:
    """Whether the search settles every puzzle given time: restart without a cutoff is the seed's, which stops
    after its restarts (incomplete)."""
    return not (method == "restart" and options.get("cutoff", "none") == "none")


def judge(name: str, kind: str, puzzle: Grid, out, settle: bool) -> None:
    """An outcome against what the brute force knows of the puzzle: never a wrong answer; with `settle`, the
    right one (the solution and its uniqueness; two solutions; none)."""
    family = PUZZLES[name]
    assert out.status is not Status.ERROR, out.detail
    if out.solution is not None:
        assert valid_solution(puzzle.layout, out.solution.values)  # house by house, from the layout's fields
        assert all(v == w for v, w in zip(puzzle.values, out.solution.values, strict=True) if v)
        assert out.solution.layout is puzzle.layout
    if kind == "unique":
        assert out.status is not Status.UNSATISFIABLE and out.unique is not False
        if out.solution is not None:
            assert out.solution.line() == family.solution
        if settle:
            assert out.status is Status.SOLVED and out.unique is True
    elif kind == "several":
        assert out.status is not Status.UNSATISFIABLE and out.unique is not True
        if settle:
            assert out.status is Status.SOLVED and out.unique is False
    else:
        assert out.status is not Status.SOLVED and out.solution is None
        if settle:
            assert out.status is Status.UNSATISFIABLE


def kinds(name: str) -> list[tuple[str, Grid]]:
    family = PUZZLES[name]
    found = [("unique", grid(name, family.unique)), ("several", grid(name, family.several))]
    return found + ([("unsat", grid(name, family.unsat))] if family.unsat is not None else [])


@pytest.mark.slow
@pytest.mark.parametrize(("method", "options"), search_variants(), ids=lambda v: str(v))
def test_every_search_settles_the_small_variants(method, options):
    """4x4 and 6x6 X, diagonal -, disjoint groups, rectangular boxes, a Jigsaw, regions that are lines: each
    search proves the unique puzzle unique with its solution, finds the other two solutions' puzzle not
    unique, and refutes the one without solution (restart without a cutoff: never a wrong answer)."""
    settle = complete(method, options)
    for name in SMALL:
        for kind, puzzle in kinds(name):
            out = SOLVERS[method](puzzle, Budget(nodes=200_000 if settle else 5_000), solutions=2, **options)
            judge(name, kind, puzzle, out, settle)


# The 9x9 searches that settle each of the 9x9 puzzles in well under a second; every other one is held to
# never answering wrong under a node budget.
SETTLING = [("mrv", {"propagate": p}) for p in ("singles", "locked", "subsets", "alldiff", "pairs")] + [
    ("cdcl", {}), ("cdcl", {"propagate": "locked"}), ("cdcl", {"choose": "vsids"}),
    ("cdcl", {"propagate": "locked", "choose": "vsids"}), ("astar", {"propagate": "singles"}),
    ("astar", {"propagate": "locked"}),
    pytest.param("restart", {"cutoff": "luby", "propagate": "locked"}, marks=pytest.mark.slow)]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "options"), SETTLING, ids=lambda v: str(v))
def test_the_strong_searches_settle_every_9x9_variant(method, options):
    for name in NINE:
        for kind, puzzle in kinds(name):
            out = SOLVERS[method](puzzle, Budget(nodes=200_000), solutions=2, **options)
            judge(name, kind, puzzle, out, settle=True)


@pytest.mark.slow
@pytest.mark.parametrize(("method", "options"), search_variants(), ids=lambda v: str(v))
def test_every_search_is_never_wrong_on_a_9x9_variant(method, options):
    """Under a budget a search may give up; what it answers is right. (The budget as the identity test scales
    it: fewer nodes for a method or a rung whose node costs more.)"""
    from kernels_identity import COSTLY
    from kernels_identity import SMALL as FEWER_NODES

    costly = COSTLY.get(options.get("propagate", ""), 1)
    budget = Budget(nodes=2_000 // (FEWER_NODES.get(method, 1) * costly), seconds=2 / costly)
    for name in NINE:
        for kind, puzzle in kinds(name):
            out = SOLVERS[method](puzzle, budget, solutions=2, **options)
            judge(name, kind, puzzle, out, settle=False)


def test_a_layout_with_no_solution_is_refuted_by_cdcl_and_the_formulations():
    """A 9x9 Jigsaw whose regions admit no filling at all: the empty grid has no solution. (Proving so takes the
    depth-first searches past any test's budget: the nogoods and the SAT and CP solvers' learning do it.)"""
    empty = Grid(layout(9, JIGSAW_9_UNSAT), bytes(81))
    for method, options in [("cdcl", {}), ("cdcl", {"propagate": "locked", "choose": "vsids"})]:
        assert SOLVERS[method](empty, Budget(nodes=200_000), **options).status is Status.UNSATISFIABLE, method
    for method, options in [("cpsat", {}), ("sat", {"encoding": "augmented"}), ("sat", {})]:
        assert FORMULATIONS[method](empty, Budget(seconds=60), **options).status is Status.UNSATISFIABLE, method


@pytest.mark.slow
def test_the_fixed_puzzles_are_what_the_brute_force_says():
    """tests/variant_grids.py's puzzles, checked again by the brute force: one solution (the one stored, valid
    in every house), two or more, none. (Jigsaw+X and X+Windoku take the brute force half a minute each: they
    were checked so when made.)"""
    for name, family in PUZZLES.items():
        if name in ("jigsaw+x-9", "x+windoku-9"):
            continue
        found = solutions(grid(name, family.unique), 2)
        assert [bytes(f) for f in found] == [Grid.parse(family.solution).values], name
        assert valid_solution(LAYOUTS[name], found[0])
        assert len(solutions(grid(name, family.several), 2)) == 2, name
        if family.unsat is not None:
            assert solutions(grid(name, family.unsat), 1) == [], name


def test_dom_wdeg_weighs_a_cell_by_all_its_houses():
    """At the start every house weighs one: a cell weighs as many as it has houses (X's centre five, a corner
    of a diagonal four, any other cell of a row three)."""
    from search.weighted import FailureWeights

    weights = FailureWeights(CellMasks(grid("x-9", PUZZLES["x-9"].unique)), None)
    assert (weights.cell_weight[40], weights.cell_weight[0], weights.cell_weight[1]) == (5, 4, 3)
    assert weights.heaviest == 5
    weights.failed(40)  # its five houses weigh two: a cell in two of them (the centre's row and box) gains two
    assert weights.cell_weight[40] == 10 and weights.cell_weight[39] == 3 + 2 and weights.cell_weight[0] == 4 + 1
    assert weights.heaviest == 10


# -- the formulations ---------------------------------------------------------------------------------------------

SLOW = pytest.mark.slow
FORMULATION_VARIANTS = [("cpsat", {}), ("cpsat", {"model": "boolean"}), pytest.param("mip", {}, marks=SLOW),
                        pytest.param("mip", {"backend": "highs"}, marks=SLOW),
                        pytest.param("mip", {"backend": "cbc"}, marks=SLOW),
                        *[("sat", {"encoding": e}) for e in ENCODINGS],
                        ("sat", {"encoding": "augmented", "solver": "cadical195"}),
                        ("sat", {"encoding": "augmented", "incremental": "on"}),
                        ("sat", {"probe": "on"}),
                        ("python-constraint", {}),
                        pytest.param("python-constraint", {"solver": "recursive"}, marks=SLOW)]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "options"), FORMULATION_VARIANTS, ids=lambda v: str(v))
def test_every_formulation_settles_every_variant(method, options):
    """CP-SAT (AllDifferent per house, or exactly one per house-value), the MIP (each value once per house), the
    SAT encodings and python-constraint: on every layout the brute force's answer, checked house by house."""
    # python-constraint's backtracking takes minutes on some 9x9, HiGHS and CBC a minute over them all
    names = SMALL if method == "python-constraint" or options.get("backend") in ("highs", "cbc") else NAMES
    for name in names:
        for kind, puzzle in kinds(name):
            out = FORMULATIONS[method](puzzle, Budget(seconds=60), solutions=2, **options)
            judge(name, kind, puzzle, out, settle=True)


@pytest.mark.slow
def test_python_constraint_settles_a_9x9_x_and_a_windoku():
    # The Windoku's unique and unsatisfiable puzzles take python-constraint some 190,000 placements each (5 s
    # alone): here they hold five more of the solution's values, which still takes a search of thousands of
    # placements. The unique one keeps its one solution (a solution's own values added); the other stays without
    # any (givens added take solutions away, never add one); and no value added clashes with a given, so the
    # refutation is a search, not a clash. The budget is a cap for a loaded machine, not a speed the test asks for.
    for name in ("x-9", "windoku-9", "disjoint-9"):
        for kind, puzzle in kinds(name):
            if name == "windoku-9" and kind != "several":
                puzzle = with_solution_values(puzzle, grid(name, PUZZLES[name].solution), 5)
            judge(name, kind, puzzle, FORMULATIONS["python-constraint"](puzzle, Budget(seconds=600), solutions=2),
                  settle=True)


def with_solution_values(puzzle: Grid, solution: Grid, count: int) -> Grid:
    """The puzzle with `count` more cells given their value in `solution` (cells drawn with a fixed seed), each
    clashing with no given."""
    values, answer = list(puzzle.values), solution.values
    blanks = [cell for cell, v in enumerate(values) if not v]
    random.Random(0).shuffle(blanks)
    for cell in blanks:
        if count == 0:
            break
        values[cell] = answer[cell]
        if puzzle.with_values(values).conflicts():
            values[cell] = 0
        else:
            count -= 1
    return puzzle.with_values(values)


RUNG_OF = {"minimal": "naked", "natural": "naked", "complete": "singles", "augmented": "locked"}


def unit_propagated(puzzle: Grid, encoding: str) -> list[int] | None:
    """What unit propagation of the givens leaves on an encoding: per empty cell the values not made false; None
    on a conflict."""
    from pysat.solvers import Solver as SatSolver

    n = puzzle.side
    sat = SatSolver(name="minisat22", bootstrap_with=layout_clauses(puzzle.layout, encoding))
    ok, implied = sat.propagate(assumptions=sat_givens(puzzle))
    sat.delete()
    if not ok:
        return None
    false = {-lit for lit in implied if lit < 0}
    return [0 if v else sum_of(bit(w) for w in range(1, n + 1) if sat_var(c, w, n) not in false)
            for c, v in enumerate(puzzle.values)]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from([*NAMES, "classic"]), seed=st.integers(0, 10**6), blank=st.floats(0.2, 0.8),
       wrong=st.sampled_from([0, 0, 1, 2]), encoding=st.sampled_from(ENCODINGS))
def test_unit_propagation_on_each_encoding_deduces_exactly_its_rung(name, seed, blank, wrong, encoding):
    """Candidate by candidate, not only puzzle by puzzle: on the minimal and natural encodings unit propagation
    removes what naked singles do, on the complete encoding what naked and hidden singles do, on the augmented
    encoding what they and locked candidates in every crossing of two houses do; a conflict exactly where the
    rung finds a contradiction."""
    if name == "classic":
        from fixtures import partial_grid

        puzzle = partial_grid(3, seed, blank, wrong)
    else:
        puzzle = with_wrong(name, seed, blank, wrong)
    assert unit_propagated(puzzle, encoding) == rules_result(puzzle, RUNG_OF[encoding])


def test_the_augmented_groups_cover_every_house_every_crossing_and_every_two_cells():
    """What makes unit propagation on the augmented encoding the locked rung (formulations/cnf.py, `segments`):
    every house is cut into pieces by a group of its own; every crossing of two houses is a piece of a group of
    each; any two cells of a house are in different pieces of some group."""
    for name, lay in [*LAYOUTS.items(), ("classic", geometry(3).layout)]:
        cells_of, groups = segments(lay)
        cut = [[tuple(sorted(cells_of[p])) if p >= 0 else (-p - 1,) for p in group] for group in groups]
        every = houses(lay)
        owned = {frozenset(h): [g for g in cut if frozenset(c for piece in g for c in piece) == frozenset(h)]
                 for h in every}
        assert all(owned[frozenset(h)] for h in every), name
        for a in every:
            for b in every:
                common = tuple(sorted(set(a) & set(b)))
                if a is not b and 2 <= len(common) < lay.side:
                    assert any(common in g for g in owned[frozenset(a)]), (name, common)
        for h in every:
            for c, d in combinations(h, 2):
                assert any(next(i for i, p in enumerate(g) if c in p) != next(i for i, p in enumerate(g) if d in p)
                           for g in cut if any(c in p for p in g) and any(d in p for p in g)), (name, c, d)


def test_the_classic_augmented_encoding_is_the_triads_alone():
    """On classic Sudoku (and the rectangular boxes) the cuts make every group: no other piece, no cell alone."""
    for lay in (geometry(3).layout, LAYOUTS["boxes-6"], LAYOUTS["boxes-8"]):
        cells_of, groups = segments(lay)
        n, h, w = lay.side, lay.box_height, lay.box_width
        assert len(cells_of) == n * (n // w) + n * (n // h)  # each row cut by the boxes, each column alike
        assert all(p >= 0 for group in groups for p in group)
        assert len(groups) == 4 * n  # each row, each column, each box by its rows and by its columns


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_has_exactly_the_solutions_of_the_brute_force(name, encoding):
    """Every model of the puzzle's CNF, read as a grid, is a solution by the brute force, and every solution is
    one: the puzzle with two solutions less two more givens, and a quarter of a solution."""
    from pysat.solvers import Solver as SatSolver

    lay, rng = LAYOUTS[name], random.Random(name)
    several = grid(name, PUZZLES[name].several)
    for puzzle in (several, several.with_values([v if rng.random() < 0.4 else 0 for v in relabelled(name, rng)])):
        n = lay.side
        clauses = [*layout_clauses(lay, encoding), *([x] for x in sat_givens(puzzle))]
        sat = SatSolver(name="minisat22", bootstrap_with=clauses)
        models = []
        while sat.solve() and len(models) < 5000:
            model = set(sat.get_model())
            values = [next(w for w in range(1, n + 1) if sat_var(c, w, n) in model) for c in range(n * n)]
            models.append(values)
            sat.add_clause([-sat_var(c, v, n) for c, v in enumerate(values)])
        sat.delete()
        assert sorted(models) == sorted(solutions(puzzle, 5000)), (name, encoding)


# -- compare.py --ladder on variants -------------------------------------------------------------------------------


# The puzzles of each layout that the rule settles and the rule below it does not, by fixtures' `rung_settles` (the
# slow rules over every house). Made so (the first seed of 0, 1, ... whose puzzle the rule below does not settle):
# a solution of the layout, relabelled at random (`relabelled`), its givens taken away in random order while the
# rule still settles; stored, since making them asks `rung_settles` some 900 times (four CPU-s), and `needing`
# checks each again.
NEEDING = {
    ("x-9", "singles"): ".8....791..2...........8.....4....7..5...7.49..94..6.....8...........3...3....2.6",
    ("x-9", "locked"): ".8....791..2.......9...8..2..4.......5...7.49..94.3......8....7......3........2.6",
    ("windoku-9", "singles"): ".91....8...4..2....2....9.7..6...........6.14...5.9......38...1......3........2..",
    ("windoku-9", "locked"): ".91....82.....2.........9.7..6...........6.14...5.9......38...1......3...........",
    ("jigsaw-9", "singles"): ".9....516..5..7....2....8.4..1....8..7.....4....2.3........6..9......1.2......4..",
    ("jigsaw-9", "locked"): ".9....516..5..7....2....8....1....8..7.....41...2.3........6...........2......4..",
    ("disjoint-9", "singles"): ".2....431..6.5.....1...9..5..4.......6.....92...3.2......6....3......9........5.8",
    ("disjoint-9", "locked"): ".....7..961....8.......276............64..928......6....8..43.....3.....9.1.8....",
    ("x+windoku-9", "singles"): ".46....31..8...5...5......4..4....8......9..6.................2......3........1.9",
    ("x+windoku-9", "locked"): ".46....31..8...5...5......4..4....8.........6.................2......3........1.9",
}


def needing(name: str, need: str) -> Grid:
    """The stored puzzle of the layout that the rule `need` settles and the rule below it does not, checked so by
    fixtures' `rung_settles`."""
    from fixtures import rung_settles

    below = {"singles": "naked", "locked": "singles"}[need]
    puzzle = grid(name, NEEDING[name, need])
    assert rung_settles(puzzle, need) and not rung_settles(puzzle, below), (name, need)
    return puzzle


@pytest.mark.slow
def test_the_ladder_holds_its_equivalences_on_variants(tmp_path, capsys):
    """compare.py --ladder on a file of X, Windoku, Jigsaw and disjoint-group puzzles, some needing locked candidates
    in a crossing only a variant has: every equivalence holds on every puzzle, and locked settles some that
    singles does not."""
    import compare

    puzzles = [needing(name, need) for name in ("x-9", "windoku-9", "jigsaw-9", "disjoint-9", "x+windoku-9")
               for need in ("singles", "locked")]
    puzzles += [grid(name, PUZZLES[name].unique) for name in ("x-6", "jigsaw-6", "boxes-8")]
    path = tmp_path / "variants.txt"
    path.write_text("".join(p.text() + "\n" for p in puzzles))
    out = tmp_path / "ladder.csv"
    status = compare.main([str(path), "--ladder", "--jobs", "1", "--timeout", "60", "--output", str(out)])
    printed = capsys.readouterr().out
    assert status == 0, printed
    for up, hand in (("UP minimal", "naked"), ("UP natural", "naked"), ("UP complete", "singles"),
                     ("UP augmented", "locked")):
        assert f"{up} settles exactly when {hand} does: {len(puzzles)} puzzles checked, no counterexample" in printed
    rows = list(csv.DictReader(out.open()))
    settled = {rung: {r["line"] for r in rows if r["rung"] == rung and r["settled"] == "true"}
               for rung in ("singles", "locked", "UP augmented")}
    assert settled["singles"] < settled["locked"] == settled["UP augmented"]


def test_a_run_of_many_layouts_keeps_the_solvers_of_a_few_only():
    """A file of Jigsaws has a layout a puzzle: the kept solvers (incremental=on, as the ladder runs SAT) are those
    of the last few layouts, not one of each puzzle, and each answer is still right."""
    from formulations import cnf, pysat_solvers

    for name in SMALL:  # eight layouts
        puzzle = grid(name, PUZZLES[name].unique)
        judge(name, "unique", puzzle, FORMULATIONS["sat"](puzzle, encoding="augmented", incremental="on",
                                                          solutions=2), settle=True)
    kept = [key[2] for key in pysat_solvers._KEPT]
    assert len(set(kept)) == cnf.LAYOUTS_KEPT and LAYOUTS[SMALL[-1]] in kept and LAYOUTS[SMALL[0]] not in kept
