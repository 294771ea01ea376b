"""compare.py --ladder (comparison/programs/ladder.py): which rungs settle each puzzle, the shares, the equivalences.

The puzzles that need exactly one rule are built here, from a full grid, by taking givens away while
the slow, obvious rule of test_sat_encodings (`rung_settles`) still settles the puzzle, and keeping it
when the rule below does not.
"""
from __future__ import annotations

import csv
import html
import io
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from fixtures import ROW_COLUMN_UNSAT, SEED001, SEED002_MULTI, rung_settles
from rich.console import Console

import compare
from comparison.core.settings import Settings
from comparison.programs.ladder import EQUIVALENCES, LADDER_RUNGS, Ladder, Rung
from comparison.records.format import Record
from formulations import SOLVERS as FORMULATIONS
from making.solutions import pattern_solution
from puzzles import Budget, Grid, Method, Outcome, Status, classic, random_isomorph
from search import SOLVERS as SEARCHES

NEEDS = ("naked", "singles", "locked")  # the rules a built puzzle needs, weakest first
BELOW = {"naked": None, "singles": "naked", "locked": "singles"}
# What each rung of the report reaches among NEEDS (every rung above locked does all it does, and more).
REACHES = {"naked": "naked", "UP minimal": "naked", "UP natural": "naked", "singles": "singles",
           "UP complete": "singles", "locked": "locked", "UP augmented": "locked", "subsets": "locked",
           "alldiff": "locked", "probe": "locked", "failed literals": "locked"}
HAND_COUNTED = {name for name in REACHES}  # CP-SAT's presolve and the MIP's root are no rule to count by hand
EQUIVALENT_RUNGS = [r for r in LADDER_RUNGS if any(r.name in pair for pair in EQUIVALENCES)]


@cache
def built(need: str) -> Grid:
    """A 9x9 puzzle that `need` settles and the rule below it does not (every blank cell then needs it)."""
    for attempt in range(100):
        rng = random.Random(attempt)
        values = bytearray(random_isomorph(pattern_solution(3), rng).values)
        for cell in rng.sample(range(81), 81):
            kept, values[cell] = values[cell], 0
            if not rung_settles(Grid(classic(3), bytes(values)), need):
                values[cell] = kept
        grid = Grid(classic(3), bytes(values))
        below = BELOW[need]
        if below is None or not rung_settles(grid, below):
            return grid
    raise AssertionError(f"no puzzle needing {need} in 100 tries")


def run_rung(rung: Rung, grid: Grid) -> tuple[Status, bool]:
    """The rung's method on the puzzle, with the ladder's node budget: (status, made no guess)."""
    name, _, rest = rung.method.partition(":")
    method = {**SEARCHES, **FORMULATIONS}[name]
    options = dict(part.split("=") for part in rest.split(",") if part)
    outcome = method(grid, Budget(seconds=30, nodes=1), **options)
    measure = method.no_guess
    assert measure is not None
    counter, at_most = measure
    return outcome.status, outcome.effort.get(counter, at_most + 1) <= at_most


# -- the built puzzles: each rung settles exactly those it should -------------------------------


@pytest.mark.slow
def test_built_puzzles_need_their_rule_by_the_slow_rules() -> None:
    for need in NEEDS:
        grid = built(need)
        assert grid.empty_cells()
        settled = {rule for rule in NEEDS if rung_settles(grid, rule)}
        assert settled == set(NEEDS[NEEDS.index(need):]), need


@pytest.mark.parametrize("rung", [r for r in LADDER_RUNGS if r.name in REACHES], ids=lambda r: r.name)
def test_each_rung_settles_exactly_the_built_puzzles_it_should(rung: Rung) -> None:
    for need in NEEDS:
        grid = built(need)
        status, no_guess = run_rung(rung, grid)
        should = NEEDS.index(need) <= NEEDS.index(REACHES[rung.name])
        assert (status is Status.SOLVED and no_guess) is should, (rung.name, need, status)
        if not should:  # it stopped where the rule ran out, at its first node at most
            assert status in (Status.GAVE_UP, Status.SOLVED), (rung.name, need, status)


# -- the report: shares counted by hand, records, usage -----------------------------------------


def tiny_file(tmp_path: Path) -> Path:
    """The three built puzzles, one with no solution (every rung refutes it) and one with many (none settles)."""
    path = tmp_path / "tiny.txt"
    lines = [built(need).line() + f" needs-{need}" for need in NEEDS]
    path.write_text("\n".join([*lines, ROW_COLUMN_UNSAT + " no-solution", SEED002_MULTI + " many-solutions"]) + "\n")
    return path


@pytest.mark.slow
def test_shares_counted_by_hand_on_a_tiny_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, out, page = tiny_file(tmp_path), tmp_path / "ladder.csv", tmp_path / "ladder.html"
    status = compare.main([str(path), "--ladder", "--jobs", "1", "--timeout", "30", "--output", str(out),
                           "--html", str(page)])
    printed = capsys.readouterr().out
    assert status == 0, printed
    # By hand: the unsolvable puzzle is refuted by every rung; the multi-solution one settled by none.
    expected = {name: 1 + NEEDS.index(reach) + 1 for name, reach in REACHES.items()}
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 5 * len(LADDER_RUNGS)
    text = page.read_text()
    ladder_table = text[text.index('id="ladder-table"'):]
    ladder_table = ladder_table[:ladder_table.index("</table>")]
    settled: dict[str, set[str]] = {r.name: set() for r in LADDER_RUNGS}
    for row in rows:
        assert row["settled"] in ("true", "false"), row  # nothing ran out of time or failed
        if row["settled"] == "true":
            settled[row["rung"]].add(row["name"])
    for name, count in expected.items():
        assert len(settled[name]) == count, (name, settled[name])
        assert "many-solutions" not in settled[name] and "no-solution" in settled[name]
        row = next(line for line in printed.splitlines() if line.startswith(f"│ {name} "))
        assert f"{count / 5:.1%}" in row, row
        # the page's ladder table holds the same row: the rung, its method, what it settled and the share
        method = next(r.method for r in LADDER_RUNGS if r.name == name)
        assert (f"<tr><td>{html.escape(name)}</td><td>{html.escape(method)}</td><td data-v=\"{count}\">{count}</td>"
                f"<td data-v=\"{100 * count / 5:.12g}\">") in ladder_table, name
    for name in ("CP-SAT presolve", "MIP root LP", "MIP root node"):  # refute at the root what naked singles do
        assert "no-solution" in settled[name], (name, settled[name])
    for up, hand in EQUIVALENCES:
        assert f"{up} settles exactly when {hand} does: 5 puzzles checked, no counterexample" in printed


def test_records_are_a_row_per_puzzle_and_rung(tmp_path: Path) -> None:
    path, out = tiny_file(tmp_path), tmp_path / "ladder.jsonl"
    assert compare.main([str(path), "--ladder", "--jobs", "2", "--limit", "2", "--output", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2 * len(LADDER_RUNGS)
    assert {(r["line"], r["rung"]) for r in records} == {(line, r.name) for line in (1, 2) for r in LADDER_RUNGS}
    for record in records:
        assert record["ladder"] == next(r.ladder for r in LADDER_RUNGS if r.name == record["rung"])
        assert record["method"] == next(r.method for r in LADDER_RUNGS if r.name == record["rung"])
        if record["rung"] in HAND_COUNTED:  # line 1 needs naked singles, line 2 hidden singles too
            naked_level = REACHES[record["rung"]] == "naked"
            assert record["settled"] is (record["line"] == 1 or not naked_level), record


@pytest.mark.parametrize("flags", [["--solver", "mrv"], ["--nodes", "5"], ["--solutions", "2"],
                                   ["--plot", "x.png"], ["--reference", "cpsat"], ["--list"],
                                   ["--command", "x='true'"], ["--registry", "x"], ["--resume"]])
def test_flags_that_make_no_sense_with_ladder_are_refused(flags: list[str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert compare.main(["--ladder", *flags]) == compare.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("compare.py: error: --ladder") and flags[0] in err and "Traceback" not in err


def erring(grid: Grid, budget: Budget, **options: object) -> Outcome:
    return Outcome(Status.ERROR, detail="erring: it always fails")


def slow(grid: Grid, budget: Budget, **options: object) -> Outcome:
    return Outcome(Status.GAVE_UP, detail="time", effort={"guesses": 0})


def test_a_rung_that_errs_or_runs_out_of_time_is_reported_as_such(tmp_path: Path) -> None:
    methods = {"erring": Method(erring, "fails", counters=("guesses",)),
               "slow": Method(slow, "out of time", counters=("guesses",))}
    rungs = [Rung("errs", "test", "erring"), Rung("out of time", "test", "slow")]
    ladder = Ladder(Settings(["puzzles/seeds.txt"], jobs=1, limit=3), methods, rungs).run()
    assert ladder.puzzles == 3
    assert ladder.tally["errs"] == {"error": 3} and ladder.tally["out of time"] == {"gave up": 3}
    assert ladder.share("errs") == 0.0 and not ladder.counterexample_count
    console = Console(file=io.StringIO(), width=200)
    ladder.report(console)
    text = console.file.getvalue()
    assert "Puzzles with errors: 3" in text and "erring: it always fails" in text
    row = next(line for line in text.splitlines() if line.startswith("│ out of time "))
    assert [cell.strip() for cell in row.split("│")[3:8]] == ["0", "0.0%", "0", "3", "0"], row  # gave up: 3


def test_the_mip_root_lp_rung_settles_what_its_lp_does_from_the_mip_rungs_run(tmp_path: Path) -> None:
    """Settled: a puzzle naked singles settle (each placement is forced by the LP's equalities too: a given's
    value is 0 in the rest of its units, which leaves its cell one value, and so on), so the LP has one point,
    the solution, and GLOP's vertex is 0-1; and a puzzle whose LP is infeasible (refuted). Not settled: SEED001,
    which has one solution, with a wrong given: no solution, so no 0-1 point meets the constraints, yet the LP
    has fractional points, and its vertex neither solves nor refutes the puzzle."""
    wrong = "6" + SEED001[1:]
    assert SEED001[0] == "0" and SEARCHES["mrv"](Grid.parse(SEED001), solutions=2).unique is True
    assert SEARCHES["mrv"](Grid.parse(SEED001)).solution.values[0] != 6  # type: ignore[union-attr]
    assert SEARCHES["mrv"](Grid.parse(wrong)).status is Status.UNSATISFIABLE
    path = tmp_path / "lp.txt"
    path.write_text(f"{built('naked').line()} naked\n{ROW_COLUMN_UNSAT} refuted\n{wrong} wrong-given\n")
    mip_rungs = [r for r in LADDER_RUNGS if r.ladder == "MIP"]
    assert [r.name for r in mip_rungs] == ["MIP root LP", "MIP root node"]
    ladder = Ladder(Settings([str(path)], jobs=1, timeout=30), rungs=mip_rungs)
    records = []
    for batch in ladder.comparison.batches():
        records += batch
        ladder.add(batch)
    assert len(records) == 3  # one MIP run a puzzle gives both rungs
    info = {r.name: r.info for r in records}
    assert (info["naked"]["root_lp_integral"], info["wrong-given"]["root_lp_integral"]) == (True, False)
    assert info["refuted"]["root_lp_infeasible"] is True and info["wrong-given"]["root_lp_fractional_vars"] > 0
    settled = {(r.name, m["rung"]): m["settled"] for r in records for m in ladder.marks(r)}
    assert {name: settled[(name, "MIP root LP")] for name in info} == {
        "naked": True, "refuted": True, "wrong-given": False}
    assert ladder.tally["MIP root LP"] == {"settled": 2, "not settled": 1}
    assert sum(ladder.tally["MIP root node"].values()) == 3
    assert ladder.seconds["MIP root LP"] == [r.info["root_lp_seconds"] for r in records]  # GLOP's own time


# -- the equivalences ---------------------------------------------------------------------------


def test_a_counterexample_is_printed_and_fails_the_run() -> None:
    ladder = Ladder(Settings(["puzzles/seeds.txt"]), rungs=EQUIVALENT_RUNGS)
    label = {r.name: r.method for r in EQUIVALENT_RUNGS}
    def record(rung: str, status: Status, detail: str = "", guesses: int | None = None) -> Record:
        return Record("f.txt", 7, status, detail=detail, isomorph=0, method=label[rung], seconds=0.001,
                      valid=True if status is Status.SOLVED else None,
                      counters={} if guesses is None else {"guesses": guesses})

    records = [
        record("UP complete", Status.SOLVED, guesses=0),
        record("singles", Status.GAVE_UP, "nodes", guesses=1),
        record("UP augmented", Status.SOLVED, guesses=0),
        record("locked", Status.SOLVED, guesses=0),
        record("naked", Status.GAVE_UP, "time"),  # says nothing
    ]
    ladder.add(records)
    assert ladder.failed and ladder.counterexample_count == 1
    assert ladder.checked[("UP complete", "singles")] == 1 and ladder.checked[("UP minimal", "naked")] == 0
    console = Console(file=io.StringIO(), width=200)
    ladder.report(console)
    text = console.file.getvalue()
    assert "f.txt:7: settled by UP complete, not by singles" in text
    assert "1 counterexample" in text and "FAILED" in text
    marked = [m for record in records for m in ladder.marks(record)]
    assert [r["rung"] for r in marked] == ["UP complete", "singles", "UP augmented", "locked", "naked"]
    assert [r["settled"] for r in marked] == [True, False, True, True, None]


def equivalences_hold(files: list[str], **settings: object) -> Ladder:
    ladder = Ladder(Settings(files, jobs=1, timeout=30, **settings), rungs=EQUIVALENT_RUNGS).run()
    assert ladder.puzzles > 0
    assert ladder.counterexamples == {pair: [] for pair in EQUIVALENCES}
    assert all(ladder.checked[pair] == ladder.puzzles for pair in EQUIVALENCES)
    assert not ladder.failed
    return ladder


@pytest.mark.slow
def test_equivalences_hold_on_the_seeds() -> None:
    ladder = equivalences_hold(["puzzles/seeds.txt"])
    assert 0 < ladder.tally["naked"]["settled"] < ladder.puzzles


@pytest.mark.slow
def test_equivalences_hold_on_a_sample_of_the_public_collections(collection: Callable[[str], Path]) -> None:
    sets = {"easy50": None, "17-clue": 40, "top1465": 30}
    ladders = [equivalences_hold([str(collection(name))], sample=k, seed=3) for name, k in sets.items()]
    for name in ("naked", "singles", "locked"):  # samples on which each equivalence has both sides
        settled = sum(ladder.tally[name]["settled"] for ladder in ladders)
        assert 0 < settled < sum(ladder.puzzles for ladder in ladders), name


KILLER4 = "................;k=aabbccbdeffdefgg:3,8,7,5,6,8,3"  # a 4x4 Killer, no givens, one solution


@pytest.mark.slow
def test_a_file_of_killers_gets_the_killers_rungs_and_the_houses_equivalences_stay_theirs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Killer's rungs run beside the ladder's when the file holds Killers; on a classic puzzle they are their
    base rungs (cages and innies are singles, killer is alldiff); on the Killer each says what its method says
    run alone; the houses' equivalences are checked on the classic puzzle only."""
    path, out = tmp_path / "mixed.txt", tmp_path / "ladder.jsonl"
    classic_line = SEED001
    path.write_text(f"{KILLER4} killer\n{classic_line} classic\n")
    assert compare.main([str(path), "--ladder", "--jobs", "1", "--timeout", "30", "--output", str(out)]) == 0
    assert "UP complete settles exactly when singles does: 1 puzzle checked" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    settled = {(r["line"], r["rung"]): r["settled"] for r in rows}
    rungs = {r["rung"] for r in rows}
    assert {"cages", "innies", "killer", "UP combinations", "UP bdd", "CP-SAT presolve, table"} <= rungs
    assert settled[(2, "cages")] == settled[(2, "innies")] == settled[(2, "singles")]
    assert settled[(2, "killer")] == settled[(2, "alldiff")]
    killer = Grid.parse(KILLER4)
    for rung, method, options in (("killer", "mrv", {"propagate": "killer"}), ("cages", "mrv", {"propagate": "cages"})):
        alone = SEARCHES[method](killer, **options)
        assert alone.solved and settled[(1, rung)] is (alone.effort["guesses"] == 0)
    assert Ladder(Settings(files=[str(path)])).rungs[-1].name == "MIP root LP + 45"
    assert Ladder(Settings(files=[str(tiny_file(tmp_path))])).rungs == list(LADDER_RUNGS)
