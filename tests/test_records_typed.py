"""The run's records are typed (records/format.py's Record): made from the judged puzzle, handed as they are to the
page, the ladder and compare.py, and dicts only as lines of the records file and from the Python API, with
today's keys and values. Whether a method ran is the record's own field, not words read from its detail."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from fixtures import ROOT, SEED001
from misbehaving import SOLVERS as MISBEHAVING

from comparison.core.settings import Settings
from comparison.judging.judge import Judged
from comparison.records.format import RECORD_FIELDS, Record
from comparison.run.comparison import Comparison
from puzzles import Budget, Grid, Method, Outcome, Status, read_puzzles
from puzzles.constraints.killer import cages_in
from puzzles.options import contract
from search import SOLVERS as SEARCHES


@contract("plain", {})
def plain(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """A method that knows houses alone: not run on a Killer."""
    return SEARCHES["mrv"](grid, budget, solutions=solutions)


METHODS = {"good": MISBEHAVING["good"], "false_unsat": MISBEHAVING["false_unsat"],
           "plain": Method(plain, "knows houses alone", {}, ("nodes", "guesses", "backtracks"))}


def killer() -> Grid:
    entry = next(iter(read_puzzles(str(ROOT / "examples" / "killer.jsonl"))))
    assert isinstance(entry.grid, Grid) and cages_in(entry.grid.layout.constraints)
    return entry.grid


@pytest.fixture(scope="module")
def run() -> tuple[Comparison, list[dict[str, Any]], list[Judged]]:
    grids = [Grid.parse(SEED001), killer()]
    comparison = Comparison(Settings([], methods=list(METHODS), jobs=1, timeout=30, certify=False), METHODS,
                            puzzles=grids)
    judged: list[Judged] = []
    comparison.on_judged = judged.append
    rows = list(comparison)  # the Python API: dicts
    return comparison, rows, judged


def test_the_python_api_yields_each_typed_record_as_its_line_in_the_file(run) -> None:
    comparison, rows, _ = run
    assert len(comparison.kept) == len(rows) == 2 * len(METHODS)
    for record, row in zip(comparison.kept, rows, strict=True):
        assert isinstance(record, Record)
        assert list(row) == comparison.records.fields  # today's keys, in today's order
        assert list(row)[:len(RECORD_FIELDS)] == list(RECORD_FIELDS)
        assert row == record.row(comparison.records.fields)
        assert row["status"] == record.status.value and row["method"] == record.method
        # a line read back is the same record: every field but the layout, which the file does not hold
        assert Record.of_row(json.loads(json.dumps(row))) == dataclasses.replace(record, layout=None)


def test_a_method_that_cannot_take_a_puzzle_is_not_run_by_a_typed_field(run) -> None:
    comparison, rows, _ = run
    by_run = {(r.line, r.method): (r, row) for r, row in zip(comparison.kept, rows, strict=True)}
    refused, row = by_run[(2, "plain")]
    assert refused.not_run == "plain does not know Killer cages"
    assert refused.failure is None and refused.solution is None
    # the file says it as it always did: gave up, the reason after "not run: "
    assert (row["status"], row["detail"]) == ("gave_up", "not run: plain does not know Killer cages")
    for (line, method), (record, _) in by_run.items():
        if (line, method) != (2, "plain"):
            assert record.not_run is None, (line, method)
    assert by_run[(1, "plain")][0].status is Status.SOLVED


def test_a_record_holds_the_judges_failure_class_and_its_puzzles_layout(run) -> None:
    comparison, _, judged = run
    assert len(judged) == 2
    for puzzle in judged:
        records = [r for r in comparison.kept if r.line == puzzle.puzzle.line]
        assert [r.method for r in records] == list(puzzle.labels)
        for record in records:
            assert record.failure == puzzle.failure(record.method or "")
            assert record.layout is puzzle.puzzle.grid.layout
            assert record.puzzle == puzzle.puzzle.grid.text()
        # the good method's answer is checked cell by cell against its puzzle; the false claim is the judge's
        good = next(r for r in records if r.method == "good")
        assert good.valid is True and Grid.parse(puzzle.puzzle.grid.text()).solution_problems(
            Grid.parse(good.solution or "")) == []
        assert next(r for r in records if r.method == "false_unsat").failure == "false unsat"
    assert comparison.kept[0].layout is not None and comparison.kept[0].layout.houses is comparison.kept[0].layout
    killer_record = next(r for r in comparison.kept if r.line == 2)
    assert killer_record.layout is not None and killer_record.layout.houses is not killer_record.layout


def test_the_counters_are_the_methods_own_not_any_number_of_the_record(run) -> None:
    comparison, rows, _ = run
    for record, row in zip(comparison.kept, rows, strict=True):
        if record.not_run is not None:
            assert record.effort == {}
            continue
        assert record.effort == {**{k: row[k] for k in comparison.records.counters if row[k] is not None},
                                 **(row["extra"] or {})}
        assert "line" not in record.effort and "seconds" not in record.effort and "isomorph" not in record.effort
