"""The Outcome's info in the records: the JSON-able facts a method reports (model size, root LP, rules) reach
the CSV and JSONL records, survive --resume, and an info JSON cannot hold costs its record nothing else."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from fixtures import SEED000, SEED001

import compare
from comparison.execution.check import DROPPED, INFO_CHARACTERS, facts
from formulations.cnf import layout_clauses, variables
from puzzles import Grid, classic

SOLVERS = ["sat", "mip", "mrv:propagate=locked"]
TIMES = {"build_seconds", "solver_seconds", "root_lp_seconds"}  # wall times: not the same from run to run


def read(path: Path) -> list[dict]:
    if path.suffix == ".csv":
        with open(path, newline="") as handle:
            return [{**row, "info": json.loads(row["info"]) if row["info"] else None} for row in csv.DictReader(handle)]
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_run(records: list[dict]) -> dict[tuple[str, str], dict]:
    return {(str(r["line"]), r["method"]): r for r in records}


def timeless(info: dict) -> dict:
    return {k: v for k, v in info.items() if k not in TIMES}


def check_facts(records: dict[tuple[str, str], dict]) -> None:
    """The facts each method reports, against what can be counted by hand."""
    for line, puzzle in (("1", SEED000), ("2", SEED001)):
        grid = Grid.parse(puzzle)
        sat = records[(line, "sat")]["info"]
        assert (sat["encoding"], sat["variables"]) == ("complete", variables(classic(3), "complete")) \
            == ("complete", 729)
        assert sat["clauses"] == len(layout_clauses(classic(3), "complete")) + grid.givens \
            == (81 + 243) * 37 + grid.givens
        mip = records[(line, "mip")]["info"]
        assert (mip["variables"], mip["constraints"]) == (729, 4 * 81)  # x[cell, value]; one row a cell, unit-value
        assert mip["root_lp_integral"] in (True, False) and mip["root_lp_iterations"] >= 0
        assert mip["root_lp_integral"] is (mip["root_lp_fractional_vars"] == 0)
    # SEED000 needs no guess: every blank is placed by a single, so the rules placed exactly its blanks
    homework = records[("1", "mrv:propagate=locked")]
    assert int(homework["guesses"]) == 0
    assert homework["info"]["rules"] == {"singles": len(Grid.parse(SEED000).empty_cells())}
    # SEED001 needs guesses: the rules' counts are the search's own counters, placed (forced) and removed, by rule
    hard = records[("2", "mrv:propagate=locked")]
    assert int(hard["guesses"]) > 0
    assert hard["info"]["rules"] == {"singles": counter(hard, "forced"),
                                     "locked candidates": counter(hard, "eliminated")}


def counter(record: dict, name: str) -> int:
    """A counter of a record, CSV or JSONL, in its column or among the `extra` ones."""
    if record.get(name) not in (None, ""):
        return int(record[name])
    extra = record["extra"]
    return int((json.loads(extra) if isinstance(extra, str) else extra)[name])


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_the_facts_reach_the_records_and_survive_resume(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED000}\n{SEED001}\n")
    output = tmp_path / f"records.{fmt}"
    argv = [str(path), *(f for s in SOLVERS for f in ("--solver", s)), "--jobs", "1", "--output", str(output)]
    assert compare.main(argv) == 0
    whole = by_run(read(output))
    assert len(whole) == 2 * len(SOLVERS)
    check_facts(whole)
    # the last puzzle cut off in the middle of its last record: the first is kept (read back), the second run again
    lines = output.read_text().splitlines(keepends=True)
    output.write_text("".join(lines[:-1]) + lines[-1][:40])
    assert compare.main([*argv, "--resume"]) == 0
    resumed = by_run(read(output))
    assert resumed.keys() == whole.keys()
    check_facts(resumed)
    for key, record in whole.items():
        if key[0] == "1":  # kept: the very facts written
            assert resumed[key]["info"] == record["info"], key
        else:
            assert timeless(resumed[key]["info"]) == timeless(record["info"]), key


def test_an_info_json_cannot_hold_still_gives_a_whole_record(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"{SEED001}\n")
    output = tmp_path / "records.jsonl"
    assert compare.main([str(path), "--registry", "misbehaving", "--solver", "odd_info", "--jobs", "1",
                         "--output", str(output)]) == 0
    (record,) = read(output)
    assert (record["status"], record["valid"], record["verdict"]) == ("solved", True, "agree")
    assert Grid.parse(SEED001).solution_problems(Grid.parse(record["solution"])) == []
    assert record["nodes"] > 0  # the counters are there
    # the grid, the NaN, the huge text and the long list are left out, and counted
    assert record["info"] == {"fine": 1, "also fine": {"nested": [1, "two", None]}, DROPPED: 4}


def test_facts_keep_what_json_holds_within_the_size() -> None:
    numpy = pytest.importorskip("numpy")
    assert facts(None) == {} and facts("not a mapping") == {DROPPED: 1}
    assert facts({"n": numpy.int64(3), "x": numpy.float32(0.5), "t": ("a", True), 7: "key not a string"}) == {
        "n": 3, "x": 0.5, "t": ["a", True], DROPPED: 1}
    assert facts({"deep": {"a": {"b": {"c": 1}}}}) == {DROPPED: 1}  # small and shallow only
    many = facts({f"k{i}": "y" * 100 for i in range(100)})
    assert len(json.dumps(many)) <= INFO_CHARACTERS + 30 and many[DROPPED] == 100 - (len(many) - 1)
    assert list(many)[:3] == ["k0", "k1", "k2"]  # the first facts are kept
