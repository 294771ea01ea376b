"""search/trace/: a search you can watch. The events of a search counted by hand, the same
counters with the watch as without, a slow replay of the events that reaches the solution, what
a rung tells its watch, --max-steps, and the command line's errors."""
from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest
import variant_puzzles as variants
from constraint_grids import EMPTY, unique_puzzle
from constraint_grids import puzzles as constraint_puzzles
from fixtures import SEED001

from commands.trace import main
from comparison.report.page.player import scope_narrowings
from puzzles import Budget, Grid, Status
from puzzles.cellmasks import CellMasks
from puzzles.constraints.killer import Cage, cages_in
from puzzles.formats import read_puzzles
from puzzles.grid import geometry, values_of
from search.inference import MAKE_RUNG
from search.trace import Event, Recorder, Trace, selected, trace
from search.trace.view import parting
from search.watch import watching

SEEDS = Path(__file__).resolve().parents[1] / "puzzles" / "seeds.txt"

# Every hand-written method and rung a test watches.
SPECS = [
    "backtracking",
    "mrv", "mrv:tie=swap", "mrv:tie=requeue",
    "mrv:propagate=naked", "mrv:propagate=singles", "mrv:propagate=locked", "mrv:propagate=subsets",
    "mrv:propagate=alldiff", "mrv:propagate=pairs,choose=domwdeg", "mrv:propagate=probe",
    "mrv:propagate=singles,solutions=2",
    "restart", "restart:cutoff=luby,seed=3", "restart:propagate=singles", "restart:propagate=locked",
    "astar", "astar:heuristic=zero", "astar:propagate=singles", "astar:propagate=subsets",
    "cdcl", "cdcl:unit=1", "cdcl:solutions=2", "cdcl:propagate=locked",
]
BUDGET = Budget(nodes=1000)  # the same on both sides: a search cut short must be cut at the same place


def seed_puzzles() -> list[Grid]:
    return [record.grid for record in read_puzzles(SEEDS) if hasattr(record, "grid")]


def step(event: Event) -> tuple[object, ...]:
    return event.kind, event.depth, event.cell, event.value, event.rule


# -- a search counted by hand ---------------------------------------------------------------------

# The 4x4 puzzle   . . | . .     start candidates (row-major, [] for a given):
#                  . 4 | . 2     r1: 123  12  134  14
#                  ----+----     r2: 13   --  13   --
#                  . 3 | . .     r3: 12   --  124  14
#                  4 . | . 3     r4: --   12  12   --
HAND = ".....4.2.3..4..3"
HAND_START = [[1, 2, 3], [1, 2], [1, 3, 4], [1, 4], [1, 3], [], [1, 3], [],
              [1, 2], [], [1, 2, 4], [1, 4], [], [1, 2], [1, 2], []]
# mrv:propagate=singles on it, by hand:
# - the root: no naked single (no cell has one candidate) and no hidden single (each value of
#   each unit has two places or more), so nothing is placed before the first choice;
# - depth 0: eight cells have two candidates (r1c2 r1c4 r2c1 r2c3 r3c1 r3c4 r4c2 r4c3); the first
#   row-major is r1c2 {1 2}. Try 1 (a guess: 2 is left; nodes 1, guesses 1). Singles then give
#   r1c4=4, r2c1=3, r4c2=2, r1c1=2, r1c3=3, r4c3=1, r3c1=1, and column 3 would need 1 twice
#   (r2c3 has only 1 left): a contradiction, a dead end, undone whole (forced stays 0);
# - back to depth 0 (a backtrack: backtracks 1), try 2 (the last value: not a guess; nodes 2).
#   r4c2 is left with 1 (naked), which takes 1 from r3c1 and r4c3: r3c1=2, r4c3=2 (naked): forced 3;
#   no single is left (every value of every unit has two places);
# - depth 1: six cells have two candidates (r1c1 {1 3}, r1c4, r2c1, r2c3, r3c3 {1 4}, r3c4); r1c1
#   first. Try 1 (a guess; nodes 3, guesses 2): r1c4=4, r1c3=3, r2c1=3, r2c3=1, r3c3=4, r3c4=1,
#   each a naked single once the one before is in (forced 9);
# - the grid is full at depth 2: 17 events.
HAND_EVENTS = [
    ("choose", 0, [0, 1], None, None),
    ("try", 0, [0, 1], 1, None),
    ("dead_end", 0, None, None, "singles"),
    ("backtrack", 0, None, None, None),
    ("try", 0, [0, 1], 2, None),
    ("place", 0, [3, 1], 1, "naked single"),
    ("place", 0, [2, 0], 2, "naked single"),
    ("place", 0, [3, 2], 2, "naked single"),
    ("choose", 1, [0, 0], None, None),
    ("try", 1, [0, 0], 1, None),
    ("place", 1, [0, 3], 4, "naked single"),
    ("place", 1, [0, 2], 3, "naked single"),
    ("place", 1, [1, 0], 3, "naked single"),
    ("place", 1, [1, 2], 1, "naked single"),
    ("place", 1, [2, 2], 4, "naked single"),
    ("place", 1, [2, 3], 1, "naked single"),
    ("solution", 2, None, None, None),
]
# (nodes, guesses, backtracks, forced) at each event, from the account above
HAND_COUNTERS = [(0, 0, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0), (1, 1, 1, 0), (2, 1, 1, 0),
                 *[(2, 1, 1, 3)] * 3, (2, 1, 1, 3), (3, 2, 1, 3), *[(3, 2, 1, 9)] * 6, (3, 2, 1, 9)]


def test_the_events_of_a_search_counted_by_hand() -> None:
    traced = trace(Grid.parse(HAND), "mrv:propagate=singles")
    assert traced.candidates == HAND_START
    assert [step(e) for e in traced.events] == HAND_EVENTS
    assert [e.step for e in traced.events] == list(range(17))
    assert [tuple(e.counters[k] for k in ("nodes", "guesses", "backtracks", "forced")) for e in traced.events] \
        == HAND_COUNTERS
    choices = [e.detail for e in traced.events if e.kind == "choose"]
    assert choices == [
        {"candidates": 2, "values": [1, 2], "by": "fewest candidates", "tie": "rowmajor", "tied": 8},
        {"candidates": 2, "values": [1, 3], "by": "fewest candidates", "tie": "rowmajor", "tied": 6},
    ]
    assert [e.detail["guess"] for e in traced.events if e.kind == "try"] == [True, False, True]
    assert traced.events[3].detail == {"counted": True}
    assert traced.status == "solved" and not traced.truncated
    assert traced.counters == {"nodes": 3, "guesses": 2, "backtracks": 1, "forced": 9}
    assert traced.solution == "1234341223414123"
    assert (traced.puzzle, traced.size, traced.method) == (Grid.parse(HAND).line(), 4, "mrv:propagate=singles")


def test_the_seed_000_trace_has_the_pinned_51_nodes() -> None:
    seed000 = seed_puzzles()[0]
    traced = trace(seed000, "mrv")
    tries = [e for e in traced.events if e.kind == "try"]
    assert len(tries) == traced.counters["nodes"] == 51
    assert [e.kind for e in traced.events] == ["choose", "try"] * 51 + ["solution"]  # no backtrack


# -- the same search, watched or not --------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_watching_changes_nothing(spec: str) -> None:
    """Every seed puzzle: the same status, solution and counters with the watch as without."""
    _, method, options = selected(spec)
    for grid in seed_puzzles():
        plain = method(grid, BUDGET, **options)
        traced = trace(grid, spec, budget=BUDGET)
        assert plain.status is not Status.ERROR, plain.detail
        assert traced.status == plain.status.value
        assert traced.counters == plain.effort
        assert traced.solution == (plain.solution.line() if plain.solution else None)
        assert watching.get() is None  # the watch is gone after the solve


def replayed(traced: Trace) -> str | None:
    """Replay the events with the stated semantics, slowly and obviously: the grid at the first
    `solution` event, or None. Every try and place must be a candidate of its cell, every remove
    one too (but cdcl's on a Killer: it tells its own removals, which a placement's rooms may have
    made already), and every
    choose must list exactly the candidates its cell has in the replay."""
    puzzle = Grid.parse(traced.puzzle)
    geo = puzzle.geometry  # the puzzle's houses: a variant's too
    cages = cages_in(puzzle.layout.constraints)
    rooms = [rule for rule in puzzle.layout.constraints if rule.ROOMS and rule not in cages]  # a renban's
    scoped = [rule for rule in puzzle.layout.constraints if rule.SCOPED]  # an arrow's, kept by its filter
    # cdcl tells removals a placement's room or a rule's filter may have made already
    narrated = bool(cages or rooms or scoped) and traced.method.startswith("cdcl")
    start = (list(traced.givens), [frozenset(c) for c in traced.candidates])
    values, candidates = list(start[0]), list(start[1])  # a cell's candidates: a frozenset, replaced whole
    snapshots: dict[int, tuple[list[int], list[frozenset[int]]]] = {}

    def index(event: Event) -> int:
        assert event.cell is not None
        return event.cell[0] * traced.size + event.cell[1]

    def put(event: Event) -> None:
        cell, value = index(event), event.value
        assert values[cell] == 0 and value in candidates[cell], event
        values[cell], candidates[cell] = value, frozenset()
        for peer in geo.peers[cell]:
            candidates[peer] = candidates[peer] - {value}
        for other, forbids in geo.links[cell]:  # a constraint's links: what the value forbids there leaves
            candidates[other] = candidates[other] - set(values_of(forbids[value]))
        for cage in (cage for cage in cages if cell in cage.cells):  # a Killer: each empty cell keeps the cage's room
            room = cage_room(cage, [values[c] for c in cage.cells], traced.size)
            for mate in (c for c in cage.cells if not values[c]):
                candidates[mate] = candidates[mate] & room
        for rule in (r for r in rooms if cell in r.scope()):  # the values of its fillings that hold those placed
            held = {values[c] for c in rule.scope() if values[c]}
            room = frozenset(v for filling in rule.fillings(traced.size) or () for v in values_of(filling)
                             if held <= set(values_of(filling))) - held
            for mate in (c for c in rule.scope() if not values[c]):
                candidates[mate] = candidates[mate] & room
        for rule in (rule for rule in scoped if cell in rule.scope()):  # what its filter leaves, given those placed
            allowed = rule.allowed([values[c] for c in rule.scope()], traced.size)
            for mate, mask in zip(rule.scope(), allowed, strict=True):
                if not values[mate]:
                    candidates[mate] = candidates[mate] & set(values_of(mask))

    for event in traced.events:
        if event.kind == "try":
            snapshots[event.depth] = (list(values), list(candidates))
            put(event)
        elif event.kind == "place":
            put(event)
        elif event.kind == "remove":
            cell = index(event)
            assert event.value in candidates[cell] or narrated, event
            candidates[cell] = candidates[cell] - {event.value}
        elif event.kind == "choose" and "values" in event.detail:
            assert set(event.detail["values"]) == candidates[index(event)], event
        elif event.kind == "backtrack":
            values, candidates = list(snapshots[event.depth][0]), list(snapshots[event.depth][1])
        elif event.kind == "restart":
            values, candidates = list(start[0]), list(start[1])
        elif event.kind == "solution":
            assert all(values)
            return "".join(geo.symbol(v) for v in values)
    return None


def cage_room(cage: Cage, held: list[int], side: int) -> frozenset[int]:
    """The values a cage's empty cells may still take, slowly: every way to fill them with different values not
    held, the union of those that reach the total (any value not held, for a cage without a total)."""
    free = [v for v in range(1, side + 1) if v not in held]
    blanks = held.count(0)
    if cage.total is None:
        return frozenset(free)
    rest = cage.total - sum(held)
    return frozenset(v for way in combinations(free, blanks) if sum(way) == rest for v in way)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_replaying_the_events_reaches_the_solution(spec: str) -> None:
    budget = Budget(nodes=200) if spec.startswith("astar") else BUDGET  # A* replays a path per state
    replays = 0
    for grid in seed_puzzles():
        traced = trace(grid, spec, budget=budget)
        end = replayed(traced)
        if traced.solution is None:
            assert end is None
            continue
        assert end == traced.solution  # cell by cell
        assert grid.is_solved_by(Grid.parse(end))
        replays += 1
    assert replays >= 2


@pytest.mark.parametrize("rung", [name for name, make in MAKE_RUNG.items() if make is not None])
def test_a_rung_tells_its_watch_every_step_it_makes(rung: str) -> None:
    """What a rung tells its watch, replayed on the masks it started from (each round of singles:
    the values leave their peers; each rule's removals), is the engine's state after it."""
    told = 0
    for grid in seed_puzzles()[:4]:
        engine, recorder = CellMasks(grid), Recorder(geometry(grid.box), None)
        token = watching.set(recorder)
        try:
            make = MAKE_RUNG[rung]
            assert make is not None
            placed = make()(engine)
        finally:
            watching.reset(token)
        assert placed >= 0 and recorder.rung == rung
        masks, values = list(recorder.masks), list(grid.values)
        for rule, step in recorder.steps:
            for cell, change in step.items():
                if rule == "singles":  # {cell: value}: the cell is filled, the value leaves its peers
                    assert values[cell] == 0 and masks[cell] >> (change - 1) & 1
                    values[cell], masks[cell] = change, 0
                    for peer in geometry(grid.box).peers[cell]:
                        masks[peer] &= ~(1 << (change - 1))
                else:  # {cell: the candidates it loses}
                    assert masks[cell] & change == change, (rule, cell)
                    masks[cell] &= ~change
                    told += 1
        assert bytes(values) == engine.state()
        assert masks == engine.masks()
        assert sum(v != 0 for v in values) - sum(v != 0 for v in grid.values) == placed
    if rung in ("probe", "pairs", "alldiff", "subsets"):
        assert told  # the seeds give each of these rungs something to remove at the root


def test_removals_are_replayed_with_their_rules() -> None:
    traced = trace(Grid.parse(SEED001), "mrv:propagate=probe")
    rules = {e.rule for e in traced.events if e.kind == "remove"}
    assert {"probe", "alldiff", "locked candidates"} <= rules
    assert replayed(traced) == traced.solution
    removes = sum(1 for e in traced.events if e.kind == "remove" and not e.detail.get("path"))
    # only propagations that succeed count in `eliminated`; a refuted one shows no removal
    assert removes == traced.counters["eliminated"]


def test_max_steps_truncates_where_the_whole_trace_goes() -> None:
    whole = trace(Grid.parse(SEED001), "mrv")
    cut = trace(Grid.parse(SEED001), "mrv", max_steps=25)
    assert cut.truncated and cut.status == "truncated" and cut.solution is None
    assert cut.events == whole.events[:25]
    assert cut.counters == whole.events[24].counters
    exact = trace(Grid.parse(HAND), "mrv:propagate=singles", max_steps=17)  # the search ends there
    assert not exact.truncated and exact.status == "solved"


def test_trace_as_data() -> None:
    traced = trace(Grid.parse(HAND), "mrv:propagate=singles")
    data = json.loads(json.dumps(traced.as_dict()))
    assert data["events"][1] == {
        "step": 1, "kind": "try", "depth": 0, "cell": [0, 1], "value": 1, "rule": None,
        "detail": {"guess": True}, "counters": {"nodes": 1, "guesses": 1, "backtracks": 0, "forced": 0}}
    assert data["candidates"] == HAND_START and data["size"] == 4


# -- the command line -----------------------------------------------------------------------------

def test_the_command_prints_the_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([HAND, "--solver", "mrv:propagate=singles"]) == 0
    out = capsys.readouterr().out
    assert "choose r1c2: 2 candidates {1 2}" in out
    assert "dead end: the inference found a contradiction (singles)" in out
    assert "place r4c2 = 1 by naked single" in out
    assert "17 steps; solved; n=3 g=2 b=1 f=9" in out
    assert main([f"{SEEDS}:5", "--compact", "--max-steps", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("r1c1 {3} =3" in line for line in lines)
    assert "7 steps; stopped after --max-steps" in lines[-1]


def test_the_command_writes_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([HAND, "--solver", "mrv:propagate=singles", "--jsonl", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["kind"] == "start" and lines[0]["candidates"] == HAND_START
    assert [(e["kind"], e["depth"], e["cell"], e["value"], e["rule"]) for e in lines[1:-1]] == HAND_EVENTS
    assert lines[-1] == {"kind": "end", "counters": {"nodes": 3, "guesses": 2, "backtracks": 1, "forced": 9},
                         "status": "solved", "truncated": False, "solution": "1234341223414123", "detail": ""}


def test_two_searches_part_ways(capsys: pytest.CaptureFixture[str]) -> None:
    a, b = trace(Grid.parse(SEED001), "mrv"), trace(Grid.parse(SEED001), "mrv:tie=swap")
    i = parting(a, b)
    assert [step(e) for e in a.events[:i]] == [step(e) for e in b.events[:i]]
    assert a.events[i].kind == b.events[i].kind == "choose" and a.events[i].cell != b.events[i].cell
    assert main([SEED001, "--solver", "mrv", "--solver", "mrv:tie=swap", "--diff"]) == 0
    assert f"take the same {i} steps, then part ways" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["12345"], "12345: no such file, and not a puzzle"),
    (["1" * 81], "no such file, and not a puzzle (invalid puzzle: two 1s in row 1"),
    ([f"{SEEDS}:4"], "seeds.txt:4: no puzzle on that line (puzzles are on lines 5, 7,"),
    (["/nonexistent/x.txt:3"], "/nonexistent/x.txt:3: no such file, and not a puzzle"),
    ([HAND, "--solver", "cpsat"], "unknown method 'cpsat'"),
    ([HAND, "--solver", "mrv:tie=bogus"], "mrv: "),
    ([HAND, "--solver", "mrv:colour=blue"], "mrv has no option 'colour'"),
])
def test_bad_input_gets_a_clear_error(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudoku-trace: error: ") and message in err
    assert "Traceback" not in err


def test_a_bad_line_in_a_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(HAND + "\n" + "12" * 10 + "\n")
    assert main([f"{bad}:2"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:" in err and "Traceback" not in err


def test_the_same_dead_end_under_two_rungs_is_the_same_step() -> None:
    """Seed 001: singles and locked candidates meet the same dead end at step 17 (each names its
    rung) and part at step 21, where locked candidates removes its first candidates."""
    a, b = trace(Grid.parse(SEED001), "mrv:propagate=singles"), trace(Grid.parse(SEED001), "mrv:propagate=locked")
    assert (a.events[17].kind, a.events[17].rule, b.events[17].rule) == ("dead_end", "singles", "locked")
    i = parting(a, b)
    assert i == 21
    assert (a.events[i].kind, b.events[i].kind, b.events[i].rule) == ("choose", "remove", "locked candidates")


def test_compact_shows_a_restart_and_its_way_back_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([SEED001, "--solver", "astar:propagate=singles", "--compact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # A*'s state 2 is the root (two hidden singles) and r6c2 = 9 with the hidden single after it
    assert any("restart: state 2, g=2, 4 steps back to it" in line for line in lines)
    assert not any("path" in line for line in lines)


# -- puzzles of the Sudoku family -----------------------------------------------------------------------------
VARIANTS = [variants.JIGSAW6, variants.JIGSAW5, variants.JIGSAW7, variants.X9, variants.DISJOINT9, variants.RECT6]


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_a_variant_search_replays_to_its_solution(spec: str) -> None:
    """The events of a search of a Jigsaw (5x5, 6x6, 7x7), an X, a disjoint and a 6x6 in rectangles, replayed
    in each puzzle's houses, reach the solution the search found: its only one."""
    budget = Budget(nodes=200) if spec.startswith("astar") else BUDGET
    replays = 0
    for text in VARIANTS:
        grid = Grid.parse(text)
        traced = trace(grid, spec, budget=budget)
        assert traced.puzzle == text
        end = replayed(traced)
        if traced.solution is None:
            assert end is None
            continue
        assert end == traced.solution == variants.SOLVED[text]
        replays += 1
    assert replays >= 3


def test_a_variant_hidden_single_names_its_house() -> None:
    """Each hidden single of a variant's trace names a house of its cell, as the puzzle names it, where its
    value has no other place in the state the events have reached (replayed slowly); classic traces name none."""
    seen: set[str] = set()
    for text in (variants.JIGSAW9, variants.X9, variants.WINDOKU9, variants.DISJOINT9):
        grid = Grid.parse(text)
        geo, n = grid.geometry, grid.side
        traced = trace(grid, "mrv:propagate=singles")
        candidates = [set(c) for c in traced.candidates]
        values = list(traced.givens)
        snapshots: dict[int, tuple[list[int], list[set[int]]]] = {}
        for event in traced.events:
            cell = -1 if event.cell is None else event.cell[0] * n + event.cell[1]
            if event.kind == "place" and event.rule == "hidden single":
                house = geo.unit_names.index(event.detail["house"])
                assert cell in geo.units[house], event
                places = [c for c in geo.units[house] if event.value in candidates[c] or values[c] == event.value]
                assert places == [cell], event
                seen.add(event.detail["house"].rstrip("0123456789+- "))
            else:
                assert "house" not in event.detail
            if event.kind == "try":
                snapshots[event.depth] = ([*values], [set(c) for c in candidates])
            if event.kind in ("try", "place"):
                values[cell], candidates[cell] = event.value or 0, set()
                for peer in geo.peers[cell]:
                    candidates[peer].discard(event.value or 0)
            elif event.kind == "remove":
                candidates[cell].discard(event.value or 0)
            elif event.kind == "backtrack":
                values, candidates = [*snapshots[event.depth][0]], [set(c) for c in snapshots[event.depth][1]]
        assert traced.solution == variants.SOLVED[text]
    assert {"row", "column", "region", "box", "diagonal", "extra region", "disjoint group"} <= seen
    classic = trace(Grid.parse(SEED001), "mrv:propagate=singles")
    assert any(e.rule == "hidden single" for e in classic.events)
    assert not any("house" in e.detail for e in classic.events)


def test_the_command_draws_a_jigsaw_in_its_regions(capsys: pytest.CaptureFixture[str]) -> None:
    """A 5x5 Jigsaw (a side with no boxes): the puzzle and its solution drawn with a border wherever two
    neighbours lie in different regions (drawn here by hand from its map, 22211 52211 53314 53334 55444)."""
    assert main([variants.JIGSAW5, "--solver", "mrv:propagate=singles"]) == 0
    out = capsys.readouterr().out
    borders = [" -+   |", "  +---+ +-", "  |   +-+", "  +-+---+"]
    puzzle = [" . . .|. .", " 1|. .|. .", " .|2 .|.|.", " .|5 . .|.", " . .|3 . ."]
    solution = [" 4 1 2|5 3", " 1|3 5|4 2", " 3|2 4|1|5", " 2|5 1 3|4", " 5 4|3 2 1"]
    for rows in (puzzle, solution):
        drawn = [line for pair in zip(rows, [*borders, ""], strict=True) for line in pair if line]
        assert "\n".join(drawn) in out
    assert "solved" in out


def test_the_command_lists_a_variants_other_houses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([variants.X_WINDOKU9, "--solver", "mrv:propagate=singles", "--compact"]) == 0
    out = capsys.readouterr().out
    assert "and diagonal + and diagonal -" in out
    assert "and extra regions 1-4, each cell by its number:\n . . . | . . . | . . .\n . 1 1 | 1 . 2 | 2 2 .\n" in out
    assert main([variants.DISJOINT9, "--solver", "mrv", "--max-steps", "3"]) == 0
    out = capsys.readouterr().out
    assert "and disjoint groups 1-9 (the cells at the same place in each box)" in out
    assert main([variants.X9, "--solver", "mrv:propagate=singles", "--max-steps", "40"]) == 0
    assert "by hidden single in diagonal" in capsys.readouterr().out


# -- Killer puzzles ----------------------------------------------------------------------------------------------
KILLER_SPECS = ["backtracking", "mrv", "mrv:propagate=singles", "mrv:propagate=cages", "mrv:propagate=innies",
                "mrv:propagate=killer", "restart:propagate=cages", "astar", "astar:propagate=killer", "cdcl",
                "cdcl:propagate=locked"]
KILLERS = [entry.grid for entry in read_puzzles(Path(__file__).resolve().parents[1] / "examples" / "killer.jsonl")
           if hasattr(entry, "grid")]


@pytest.mark.slow
@pytest.mark.parametrize("spec", KILLER_SPECS)
def test_a_killer_search_replays_to_its_solution(spec: str) -> None:
    """The events of a search of a Killer, replayed with its cages' rooms (a placement leaves each of its cages'
    empty cells only the values the cage can still reach its total with), list at every choose exactly the
    candidates the search chose among, and reach the solution the search found: the puzzle's, checked cell by
    cell against its cages."""
    replays = 0
    for grid in KILLERS:  # two 9x9 and two 6x6 Killers without givens: plain backtracking settles the 6x6 ones
        traced = trace(grid, spec, budget=Budget(nodes=3000))
        end = replayed(traced)
        if traced.solution is None:
            assert end is None
            continue
        assert end == traced.solution
        assert grid.is_solved_by(Grid.parse(end))
        replays += 1
    assert replays >= 2


CONSTRAINT_SPECS = ["mrv", "mrv:propagate=singles", "mrv:propagate=locked", "mrv:propagate=alldiff", "cdcl",
                    "cdcl:propagate=locked", "cdcl:choose=vsids"]


@pytest.mark.parametrize("spec", CONSTRAINT_SPECS)
def test_a_constraint_search_replays_to_its_solution(spec: str) -> None:
    """The events of a search of each puzzle with constraints (anti-knight, thermometers, ...), replayed with the
    constraints' links (a placement's value leaves what it forbids at each linked cell), list at every choose
    exactly the candidates the search chose among, and reach the puzzle's one solution; a constraint's filter's
    removals are named by the constraint, as the puzzle names it."""
    named = set()
    for name, grid, solution in constraint_puzzles():
        traced = trace(grid, spec)
        assert replayed(traced) == traced.solution == solution.line(), name
        named |= {e.rule for e in traced.events if e.kind == "remove" and "thermometer" in str(e.rule)}
    if spec not in ("mrv", "mrv:propagate=singles"):  # those remove nothing: the engine's placements do it all
        assert named and all(re.fullmatch(r"(slow )?thermometer [0-9]+ \(R[0-9]+C[0-9]+\)", rule) for rule in named)


@pytest.mark.parametrize("name", ["arrow-6", "quadruple-6", "littlekiller-6"])
@pytest.mark.parametrize("spec", ["mrv", "mrv:propagate=singles"])
def test_the_players_replay_holds_the_candidates_each_choice_sees(name: str, spec: str) -> None:
    """The player's replay of a search on a puzzle with rules kept by their filter: each placement leaves its
    peers, its links and (given by the page, `scope_narrowings`) its scoped rules' filter; at every choice the
    replayed candidates of the chosen cell are those the search saw (the event's own list)."""
    grid, _ = unique_puzzle(EMPTY[name], 3)
    traced = trace(grid, spec, max_steps=400).as_dict()
    events, side = traced["events"], grid.side
    narrowed = scope_narrowings(grid, events)
    assert narrowed, "no placement narrowed a scope: the puzzle shows nothing"
    geo = grid.geometry
    values, cands = list(grid.values), [set(values_of(m)) if isinstance(m, int) else set(m)
                                        for m in traced["candidates"]]
    saved: dict[int, tuple[list[int], list[set[int]]]] = {}
    checked = 0
    for index, event in enumerate(events):
        kind, depth, cell = event["kind"], event.get("depth") or 0, event.get("cell")
        at = None if cell is None else cell[0] * side + cell[1]
        if kind == "choose" and "values" in event["detail"]:
            assert at is not None and sorted(cands[at]) == event["detail"]["values"], (index, event)
            checked += 1
        elif kind in ("try", "place") and at is not None:
            if kind == "try":
                saved[depth] = (values[:], [set(c) for c in cands])
            v = event["value"]
            values[at], cands[at] = v, {v}
            for p in geo.peers[at]:
                cands[p].discard(v)
            for other, forbids in geo.links[at]:
                cands[other] -= set(values_of(forbids[v]))
            for mate, allowed in narrowed.get(str(index), []):
                cands[mate] &= set(values_of(allowed))
        elif kind == "remove" and at is not None:
            cands[at].discard(event["value"])
        elif kind == "backtrack" and depth in saved:
            values, cands = saved[depth][0][:], [set(c) for c in saved[depth][1]]
    assert checked >= 2
