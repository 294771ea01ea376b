"""What a process keeps of a layout (puzzles/kept.py), and that a timed call on a puzzle drawn for itself builds its
model afresh: compare.py's call of a method, whatever method met the puzzle before."""
from __future__ import annotations

from fixtures import KILLER_9

from comparison.core.selected import Selected
from comparison.execution.check import Item, run_one
from puzzles import Budget, Grid, Outcome, Status, classic, geometry
from puzzles.constraints.innies import derived_sums
from puzzles.kept import Kept, fresh, kept, kept_drawn, lasting
from search import SOLVERS
from search.learning import cage_rules

JIGSAW_4 = "1...........4..3;r=1112122233343444"


def test_a_size_and_classic_sudoku_last_and_a_drawn_layout_does_not() -> None:
    killer, jigsaw = Grid.parse(KILLER_9).layout, Grid.parse(JIGSAW_4).layout
    assert lasting(3) and lasting(classic(3)) and lasting(geometry(classic(2)))
    assert lasting(killer.houses)  # a Killer's houses are its size's boxes
    assert not lasting(killer) and not lasting(geometry(killer)) and not lasting(jigsaw)
    assert not lasting(killer.constraints[0])  # one of a puzzle's rules


def test_fresh_forgets_the_drawn_layouts_alone() -> None:
    calls: list[int] = []

    @kept()
    def side(of: object) -> int:
        calls.append(1)
        return len(calls)

    assert isinstance(side, Kept)
    killer = Grid.parse(KILLER_9).layout
    assert (side(classic(3)), side(killer), side(classic(3)), side(killer)) == (1, 2, 1, 2)
    assert side.count() == 2
    fresh()
    assert side.count() == 1
    assert (side(classic(3)), side(killer)) == (1, 3)  # classic kept, the Killer read again


def test_at_most_the_last_few_drawn_layouts_are_kept() -> None:
    @kept(2)
    def side(of: object) -> int:
        return id(of)

    for text in ("1...........4..3;r=1234123412341234", "1...........4..3;r=1112122233343444",
                 "1...........4..3;r=1111222233334444"):
        side(Grid.parse(text).layout)
    assert side.count() == 2


def test_what_is_read_of_one_puzzles_rule_is_kept_until_fresh() -> None:
    calls: list[object] = []

    @kept_drawn(2)
    def side(rule: object, side: int) -> int:
        calls.append(rule)
        return len(calls)

    rule = Grid.parse(KILLER_9).layout.constraints[0]
    assert (side(rule, 9), side(rule, 9)) == (1, 1)
    fresh()
    assert side(rule, 9) == 2


def test_a_timed_call_on_a_killer_meets_no_model_another_method_built() -> None:
    grid = Grid.parse(KILLER_9)
    item = Item(0, 0, grid.layout, bytes(grid.values))
    seen: list[tuple[int, int]] = []

    def looking(g: Grid, budget: Budget, **options: object) -> Outcome:
        seen.append((derived_sums.drawn.cache_info().currsize, cage_rules.drawn.cache_info().currsize))
        return Outcome(Status.GAVE_UP, detail="looked")

    first = run_one(item, Selected("cdcl", SOLVERS["cdcl"], {"solutions": 2}), Budget(seconds=60))
    assert first.status is Status.SOLVED and first.unique
    assert derived_sums.drawn.cache_info().currsize and cage_rules.drawn.cache_info().currsize  # cdcl built them
    run_one(item, Selected("looking", looking, {}), Budget(seconds=60))
    assert seen == [(0, 0)]
