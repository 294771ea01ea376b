"""Making Killer puzzles: every one unique (checked by a brute-force search of this file on 4x4, by a CP-SAT
model of this file at 6x6 and 9x9, neither the SAT certifier that made it), its cages connected, free of repeats and
summing to the solution; cage-minimal ones really so; the puzzles that need a rule really need it; the same
seed, the same puzzles; `sudoku-generate --variant killer` end to end; the fuzzer's Killer kinds."""
from __future__ import annotations

import csv
import random
import re
import signal
import subprocess
import sys
from collections.abc import Sequence

import pytest
from fixtures import ROOT, count_by_cpsat, eventually, lines_in, signalled_child

from commands.generate import main
from comparison.programs.fuzz import KILLER_FUZZED, kinds_for
from making.kinds import KILLER_KINDS, KINDS, killer, needing_killer, region_sets, without_regions
from making.shrink import drop_own_clues, smallest_forms
from making.variants import adjacent, variant
from puzzles import Grid
from puzzles.constraints.killer import Cage, cages_in
from puzzles.constraints.killer_maker import mergeable, merged
from puzzles.grid import geometry
from puzzles.layouts import Layout, PuzzleError, boxes, layout


def brute(puzzle: Grid, limit: int = 2, houses: Layout | None = None, repeats: bool = False,
          cages: Sequence[Cage] | None = None) -> list[bytes]:
    """Up to `limit` solutions by a plain search (the emptiest cell first): `houses` instead of the puzzle's own,
    `repeats` lets a cage repeat a value (its total kept), `cages` instead of the puzzle's."""
    n = puzzle.side
    units = geometry((houses or puzzle.layout).houses).units
    caged = list(cages_in(puzzle.layout.constraints) if cages is None else cages)
    peers = [sorted({p for u in units if c in u for p in u} - {c}) for c in range(n * n)]
    cages_of: list[list[Cage]] = [[] for _ in range(n * n)]
    for cage in caged:
        for c in cage.cells:
            cages_of[c].append(cage)
    values = list(puzzle.values)
    found: list[bytes] = []

    def allowed(cell: int) -> list[int]:
        out = []
        for v in range(1, n + 1):
            if any(values[p] == v for p in peers[cell]):
                continue
            if all(fits(cage, cell, v) for cage in cages_of[cell]):
                out.append(v)
        return out

    def fits(cage: Cage, cell: int, v: int) -> bool:
        held = [values[c] for c in cage.cells if values[c] and c != cell]
        if not repeats and v in held:
            return False
        if cage.total is None:
            return True
        left = len(cage.cells) - len(held) - 1
        rest = cage.total - sum(held) - v
        if repeats:
            return left <= rest <= left * n
        free = sorted(set(range(1, n + 1)) - {*held, v})
        return len(free) >= left and sum(free[:left]) <= rest <= sum(free[len(free) - left:]) if left else rest == 0

    def search() -> None:
        open_cells = [c for c in range(n * n) if not values[c]]
        if not open_cells:
            if all(cage.total is None or sum(values[c] for c in cage.cells) == cage.total for cage in caged):
                found.append(bytes(values))
            return
        options = min(((allowed(c), c) for c in open_cells), key=lambda o: len(o[0]))
        for v in options[0]:
            values[options[1]] = v
            search()
            values[options[1]] = 0
            if len(found) >= limit:
                return

    search()
    return found


def by_cpsat(puzzle: Grid, limit: int = 2, houses: Layout | None = None, repeats: bool = False,
             cages: Sequence[Cage] | None = None) -> list[bytes]:
    """What `brute` finds, by a CP-SAT model of this test (houses, cages, givens): for 6x6 and 9x9 puzzles, where
    the plain search is slow."""
    from ortools.sat.python import cp_model

    n = puzzle.side
    model = cp_model.CpModel()
    x = [model.new_int_var(1, n, f"x{c}") for c in range(n * n)]
    for unit in geometry((houses or puzzle.layout).houses).units:
        model.add_all_different(x[c] for c in unit)
    for cage in cages_in(puzzle.layout.constraints) if cages is None else cages:
        if not repeats:
            model.add_all_different(x[c] for c in cage.cells)
        if cage.total is not None:
            model.add(sum(x[c] for c in cage.cells) == cage.total)
    for c, v in enumerate(puzzle.values):
        if v:
            model.add(x[c] == v)
    found: list[bytes] = []
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    while len(found) < limit and solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found.append(bytes(solver.value(v) for v in x))
        flags = [model.new_bool_var("") for _ in x]
        for var, flag, value in zip(x, flags, found[-1], strict=True):
            model.add(var != value).only_enforce_if(flag)
        model.add_bool_or(flags)  # the next solution differs somewhere
    return found


def solve(puzzle: Grid, limit: int = 2, houses: Layout | None = None, repeats: bool = False,
          cages: Sequence[Cage] | None = None) -> list[bytes]:
    """Up to `limit` solutions, by the plain search on a 4x4, by CP-SAT above."""
    return (brute if puzzle.side == 4 else by_cpsat)(puzzle, limit, houses, repeats, cages)


def pieces(cells: Sequence[int], side: int) -> int:
    """How many pieces the cells fall into, neighbours sharing an edge (flood fill)."""
    left, count, around = set(cells), 0, adjacent(side)
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            for m in around[todo.pop()]:
                if m in left:
                    left.remove(m)
                    todo.append(m)
    return count


def assert_well_made(puzzle: Grid, solution: Grid) -> None:
    """Cages connected, no value of the solution twice in one, totals its sums; givens its values; cages cover."""
    n = puzzle.side
    covered = sorted(c for cage in cages_in(puzzle.layout.constraints) for c in cage.cells)
    assert covered == list(range(n * n))  # a partition: every cell in one cage
    for cage in cages_in(puzzle.layout.constraints):
        assert pieces(cage.cells, n) == 1
        held = [solution.values[c] for c in cage.cells]
        assert len(set(held)) == len(held)
        assert cage.total is None or cage.total == sum(held)
    assert all(v in (0, solution.values[c]) for c, v in enumerate(puzzle.values))
    assert puzzle.solution_problems(Grid(puzzle.layout, solution.values)) == []


@pytest.mark.parametrize("side, seeds", [(4, range(6)), (6, range(3))])
def test_every_killer_made_is_unique_by_brute_force_and_well_made(side, seeds):
    for seed in seeds:
        for minimal, givens in ((False, False), (False, True), (True, False)):
            made = killer(boxes(side), random.Random(seed), minimal=minimal, givens=givens)
            assert solve(made.puzzle) == [made.solution.values]
            assert_well_made(made.puzzle, made.solution)
            assert made.puzzle.layout.variant == "killer"
            if not givens:
                assert made.puzzle.givens == 0


@pytest.mark.parametrize("name, side", [("killer", 9), ("killer+x", 9), ("killer+jigsaw", 6),
                                        pytest.param("killer+jigsaw", 9, marks=pytest.mark.slow)])
def test_killers_of_each_variant_are_unique_by_cpsat(name, side):
    made_as = variant(name, side)
    rng = random.Random(7)
    made = killer(made_as.layout(rng), rng)
    assert made.puzzle.layout.variant == name and made.puzzle.givens == 0
    assert_well_made(made.puzzle, made.solution)
    assert by_cpsat(made.puzzle) == [made.solution.values]
    assert Grid.parse(made.puzzle.text()) == made.puzzle  # the line form keeps the cages


@pytest.mark.slow
@pytest.mark.parametrize("side, seed", [(4, 0), (4, 1), (4, 2), (6, 0), (6, 1)])
def test_a_cage_minimal_killer_loses_uniqueness_when_any_total_is_dropped_or_any_cage_merged(side, seed):
    made = killer(boxes(side), random.Random(seed), minimal=True)
    assert made.undecided == 0
    puzzle, cages = made.puzzle, list(cages_in(made.puzzle.layout.constraints))
    assert solve(puzzle) == [made.solution.values]
    for i, cage in enumerate(cages):
        if cage.total is not None:
            weaker = [*cages[:i], Cage(cage.cells, None), *cages[i + 1:]]
            assert len(solve(puzzle, cages=weaker)) == 2, f"cage {i + 1}'s total is not needed"
        for other in mergeable(cages, cage, made.solution, side):
            fewer = [c for c in cages if c not in (cage, other)] + [merged(cage, other)]
            assert len(solve(puzzle, cages=fewer)) == 2, f"cage {i + 1} merges with {other} and stays unique"


def test_a_killer_that_needs_its_cages_no_repeat_rule_has_a_second_solution_without_it():
    for seed in range(2):
        made = needing_killer(boxes(6), random.Random(seed), "no-repeat")
        puzzle = made.made.puzzle
        assert solve(puzzle) == [made.made.solution.values]
        without = solve(puzzle, repeats=True)
        assert len(without) == 2 and made.dropped == "the cages' no-repeat rule"
        witness = made.witness  # a solution of the relaxed puzzle: houses kept, totals kept, some cage repeats
        assert witness.values != made.made.solution.values
        assert all(len({witness.values[c] for c in unit}) == 6 for unit in geometry(puzzle.layout.houses).units)
        assert all(sum(witness.values[c] for c in cage.cells) == cage.total
                   for cage in cages_in(puzzle.layout.constraints) if cage.total is not None)
        assert any(len({witness.values[c] for c in cage.cells}) < len(cage.cells)
                   for cage in cages_in(puzzle.layout.constraints))


@pytest.mark.parametrize("name", ["killer", "killer+jigsaw"])
def test_a_killer_that_needs_regions_has_a_second_solution_without_them(name):
    made_as = variant(name, 6)
    rng = random.Random(3)
    made = needing_killer(made_as.layout(rng), rng, "regions")
    puzzle = made.made.puzzle
    assert solve(puzzle) == [made.made.solution.values]
    numbers = [int(k) - 1 for k in re.findall(r"\d+", made.dropped)]
    assert tuple(numbers) in region_sets(puzzle.layout)
    reduced = without_regions(puzzle.layout, numbers)
    assert len(solve(puzzle, houses=reduced)) == 2
    assert solve(made.witness, houses=reduced, limit=1) == [made.witness.values]  # a solution there, not here
    assert made.witness.values != made.made.solution.values


def test_one_region_or_two_boxes_dropped_are_never_needed():
    """Why the regions dropped are four boxes: fewer are implied by the rest (counted here on one puzzle)."""
    made = killer(boxes(4), random.Random(5), minimal=True)
    puzzle = made.puzzle
    for dropped in [(0,), (1,), (0, 1), (0, 2), (1, 3)]:
        assert solve(puzzle, houses=without_regions(puzzle.layout, dropped)) == [made.solution.values]


def test_several_and_unsat_killers_by_brute_force():
    rng = random.Random(2)
    for _ in range(3):
        assert len(solve(KILLER_KINDS["killer-several"].make(boxes(6), rng))) == 2
        assert solve(KILLER_KINDS["killer-unsat"].make(boxes(6), rng)) == []


def test_the_same_seed_makes_the_same_killers(tmp_path, capsys):
    args = ["--variant", "killer", "--side", "6", "--count", "3", "--minimal"]
    main([*args, "--seed", "4"])
    first = capsys.readouterr().out
    main([*args, "--seed", "4"])
    assert capsys.readouterr().out == first
    main([*args, "--seed", "5"])
    assert capsys.readouterr().out != first
    lines = first.splitlines()
    assert len(lines) == 3 and all(re.fullmatch(r"\S+;k=\S+ minimal-killer-6x6-seed4-\d", line) for line in lines)
    for line in lines:
        assert len(solve(Grid.parse(line.split()[0]))) == 1


def test_generate_killer_to_csv_with_what_certifying_took(tmp_path):
    out = tmp_path / "k.csv"
    assert main(["--variant", "killer", "--box", "2", "--needs", "regions", "--count", "2", "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["name"] for r in rows] == ["needs-regions-killer-4x4-seed0-1", "needs-regions-killer-4x4-seed0-2"]
    for row in rows:
        assert row["needs"].startswith("boxes ") and int(row["cages"]) >= 1 and int(row["sat_checks"]) >= 1
        assert len(solve(Grid.parse(row["puzzle"]))) == 1


@pytest.mark.parametrize("argv, message", [
    (["--variant", "killer", "--hard-for", "mrv"], "--hard-for moves givens"),
    (["--variant", "killer", "--rule", "naked"], "--rule is for puzzles singles solve"),
    (["--variant", "x", "--givens"], "--givens is for a Killer"),
    (["--variant", "killer", "--side", "25"], "killer puzzles are made from 4x4 to 16x16"),
    (["--variant", "killer+hyper"], "unknown variant 'hyper'"),
])
def test_generate_killer_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_killer_variants_by_name():
    assert variant("x+killer", 9).name == "killer+x"
    assert variant("killer", 16).caged and variant("killer", 16).houses == "classic"
    assert variant("jigsaw+killer", 7).name == "killer+jigsaw"
    assert variant("killer+jigsaw", 9).layout(random.Random(1)).box_height == 0
    assert not variant("jigsaw", 9).caged
    with pytest.raises(PuzzleError):
        variant("killer", 5)  # a 5x5 has no boxes


def test_the_fuzzer_makes_killer_kinds_for_a_killer_variant():
    assert kinds_for(variant("killer", 6)) == KILLER_FUZZED
    assert kinds_for(variant("killer", 16)) == tuple(k for k in KILLER_FUZZED if "minimal" not in k
                                                     and "needs" not in k)
    assert "killer" not in kinds_for(variant("classic", 9))
    assert all(KILLER_KINDS[k].caged for k in KILLER_FUZZED) and not any(k.caged for k in KINDS.values())


def test_shrinking_a_killer_drops_totals_and_keeps_sums():
    made = killer(boxes(4), random.Random(1))
    grid = made.puzzle

    def fails(grids: Sequence[Grid]) -> list[bool]:  # "fails" while the first cage keeps its total
        return [cages_in(g.layout.constraints)[0].total is not None for g in grids]
    small = drop_own_clues(grid, fails)
    assert [c.total is not None for c in cages_in(small.layout.constraints)] == \
        [True] + [False] * (len(cages_in(grid.layout.constraints)) - 1)
    for form in smallest_forms(grid):  # no relabelling: each form's cages still sum to a turned solution
        assert sorted(c.total for c in cages_in(form.layout.constraints)) == \
            sorted(c.total for c in cages_in(grid.layout.constraints))


def test_the_plain_search_and_cpsat_agree_on_killers():
    for seed in range(2):
        made = killer(boxes(4), random.Random(seed), minimal=True)
        for cages in (cages_in(made.puzzle.layout.constraints), cages_in(made.puzzle.layout.constraints)[1:]):
            for repeats in (False, True):
                plain = brute(made.puzzle, 400, repeats=repeats, cages=cages)  # every solution (288 at most)
                assert sorted(plain) == sorted(by_cpsat(made.puzzle, 400, repeats=repeats, cages=cages))


def test_a_killer_layout_without_regions_keeps_its_cages_and_other_houses():
    lay = layout(4, boxes(4).regions, (), [Cage((0, 1), 3)])
    reduced = without_regions(lay, (0, 3))
    assert cages_in(reduced.constraints) == cages_in(lay.constraints)
    assert sorted(h.name for h in reduced.extras) == ["region 2", "region 3"]


# `sudoku-generate` as it is, told of each Killer made: the generator's per-puzzle `advance` (what moves
# its progress bar, shown on a terminal only) also writes a line to a file of the test's
TOLD_OF_EACH = """
import sys
sys.path.insert(0, {root!r})
import commands.generate as generate

made_killers = generate.made_killers

def told(args, rng, what, rows, advance):
    def each(note):
        advance(note)
        with open({told!r}, "a") as handle:
            handle.write(f"made {{len(rows)}}\\n")
    return made_killers(args, rng, what, rows, each)

generate.made_killers = told
sys.exit(generate.main())
"""


@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_writes_the_killers_made(tmp_path, signum, status):
    """Killers take a while to make (a 16x16 about a minute): SIGTERM, like Ctrl-C, stops the run, with no
    traceback, and the file holds the puzzles made so far, each a unique Killer."""
    out, told = tmp_path / "made.txt", tmp_path / "told.txt"
    script = tmp_path / "generate.py"
    script.write_text(TOLD_OF_EACH.format(root=str(ROOT), told=str(told)))
    making = signalled_child([sys.executable, str(script), "--variant", "killer", "--count", "5000", "--output",
                              str(out)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        # The cue: a Killer made (0.2 s each, far from the 5,000), so the run is under way, its handlers in place.
        assert eventually(lambda: lines_in(told) >= 1 or making.poll() is not None, 120), "no Killer made"
        making.send_signal(signum)
        _, err = making.communicate(timeout=120)
    finally:
        making.kill()  # never left behind, whatever the test found
    assert making.returncode == status and "Traceback" not in err, err
    lines = out.read_text().splitlines()
    assert 0 < len(lines) < 5000
    for line in lines[:3]:
        puzzle = Grid.parse(line.split()[0])
        assert puzzle.layout.variant == "killer" and count_by_cpsat(puzzle) == 1
