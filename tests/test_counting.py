"""Counting solutions (solutions=N, N > 2): every method that counts gives the brute force's count of small puzzles
with 0, 1, 2, 7 and more than 10 solutions (houses alone, a Killer, thermometers, Kropki dots:
tests/counted_grids.py), exact below N and "N or more" at N; a method that cannot count is not run; compare.py
--solutions 10 records the counts, reports them, and the judge holds the methods to agree on them."""
from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest
from constraint_grids import solutions as brute_solutions
from counted_grids import EMPTY, MANY, TARGETS, counted

import compare
from comparison.core.stream import Puzzle
from comparison.execution.result import RunResult
from comparison.judging.judge import judge
from comparison.records.format import RECORD_FIELDS
from formulations import SOLVERS as FORMULATIONS
from puzzles import Budget, Count, Grid, Outcome, Status
from puzzles.conclusion import conclude
from puzzles.options import ALL, OptionError, contract, how_many
from search import SOLVERS as SEARCHES

# every method with its options that count: restart as the seed has it cannot prove that it found them all (below)
COUNTING = {**{name: {} for name in SEARCHES if name != "restart"}, "restart:luby": {"cutoff": "luby"},
            **{name: {} for name in FORMULATIONS}}
CASES = [(name, target) for name in EMPTY for target in TARGETS]


def method(label: str):
    name = label.partition(":")[0]
    return {**SEARCHES, **FORMULATIONS}[name]


def expected(number: int, asked: int) -> Count:
    """What a solve asked for `asked` solutions says of a puzzle with `number`: exact below, at least `asked` at it."""
    return Count(number, exact=True) if number < asked else Count(asked, exact=False)


@cache
def every_solution(text: str) -> list[list[int]]:
    """The brute force's solutions of a puzzle (its line), up to 1000: enumerated once for every method checked."""
    return list(brute_solutions(Grid.parse(text), 1000))


def check_solution(grid: Grid, outcome: Outcome) -> None:
    """The Outcome's solution, cell by cell, is one of the brute force's."""
    assert outcome.solution is not None
    found = list(outcome.solution.values)
    assert found in every_solution(grid.text()), outcome.solution.text()


# -- every counting method against the brute force ----------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name, target", CASES)
def test_every_counting_method_counts_as_the_brute_force(name: str, target: int) -> None:
    grid, number = counted(name, target)
    assert (number == target) if target <= MANY else number > MANY  # the brute force's own count
    for label, options in COUNTING.items():
        out = method(label)(grid, Budget(seconds=60), solutions=MANY, **options)
        assert out.count == expected(number, MANY), (label, grid.text(), out.count, out.detail)
        if number == 0:
            assert out.status is Status.UNSATISFIABLE and out.solution is None, label
        else:
            assert out.status is Status.SOLVED and out.unique is (number == 1), label
            check_solution(grid, out)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EMPTY))
def test_a_count_past_ten_is_exact_when_asked_for_more(name: str) -> None:
    grid, number = counted(name, MANY + 1)
    for label, options in COUNTING.items():
        assert method(label)(grid, solutions=number + 1, **options).count == Count(number, exact=True), label
        assert method(label)(grid, solutions=number, **options).count == Count(number, exact=False), label


@pytest.mark.parametrize("target", TARGETS)
def test_restart_as_the_seed_has_it_gives_a_floor_that_agrees(target: int) -> None:
    """The seed's restarts cannot prove there is no other solution: its count is at least what it found, and never
    contradicts the brute force's."""
    grid, number = counted("boxes-4", target)
    out = SEARCHES["restart"](grid, solutions=MANY, max_restarts=200)
    if number == 0:  # it found none, and cannot prove there is none: no count
        assert out.status is Status.GAVE_UP and out.count is None
        return
    assert out.count is not None and out.count.agrees(Count(number, exact=True)), (out.count, number)
    assert not out.count.exact or out.count.found == MANY  # never exact; at N when it found that many


def test_one_and_two_solutions_give_no_count() -> None:
    grid, _ = counted("boxes-4", 7)
    for label, options in COUNTING.items():
        for asked in (1, 2):
            out = method(label)(grid, solutions=asked, **options)
            assert out.count is None and out.unique is (False if asked == 2 else None), label


def test_a_count_with_a_budget_spent_is_a_floor() -> None:
    grid, number = counted("boxes-6", MANY + 1)
    whole = SEARCHES["backtracking"](grid, solutions=ALL)
    assert whole.count == Count(number, exact=True)
    out = SEARCHES["backtracking"](grid, Budget(nodes=whole.effort["nodes"] // 2), solutions=ALL)
    assert out.count is not None and not out.count.exact and 0 < out.count.found < number
    assert out.detail.startswith("uniqueness not proved")


# -- the contract -------------------------------------------------------------------------------------------
def test_solutions_reads_a_whole_number_or_all() -> None:
    assert [how_many(v) for v in (1, "2", 7, " all ")] == [1, 2, 7, ALL]
    for bad in (0, "none", 2.5, True):
        with pytest.raises(ValueError):
            how_many(bad)


def test_count_words() -> None:
    assert [str(Count(7, True)), str(Count(10, False))] == ["7", "10+"]
    assert Count.parse("7") == Count(7, True) and Count.parse("10+") == Count(10, False)
    with pytest.raises(ValueError):
        Count.parse("ten")
    assert Count(12, True).agrees(Count(10, False)) and not Count(7, True).agrees(Count(10, False))
    assert not Count(7, True).agrees(Count(8, True)) and Count(3, False).agrees(Count(10, False))


@contract("one-answer", {}, counts=False)
def one_answer(grid: Grid, budget: Budget, solutions: int, options: dict, started: float) -> Outcome:
    """A method that finds a solution and cannot count."""
    return FORMULATIONS["cpsat"](grid, budget)


def test_a_method_that_cannot_count_is_not_run_when_asked_to() -> None:
    grid, _ = counted("boxes-4", 7)
    assert one_answer(grid, solutions=2).status is Status.SOLVED
    out = one_answer(grid, solutions=10)
    assert out.status is Status.GAVE_UP and out.detail == "not run: one-answer cannot count solutions (solutions=10)"


def test_a_count_of_solutions_that_are_not_is_an_error() -> None:
    grid, _ = counted("boxes-4", 2)
    good = [bytes(v) for v in brute_solutions(grid, 2)]
    assert conclude(grid, good, 10, Status.SOLVED, "", {}, 0.0).count == Count(2, True)
    twice = conclude(grid, [good[0], good[0]], 10, Status.SOLVED, "", {}, 0.0)
    assert twice.status is Status.ERROR and "the same solution twice" in twice.detail
    wrong = bytearray(good[1])
    wrong[0], wrong[1] = wrong[1], wrong[0]
    spoilt = conclude(grid, [good[0], bytes(wrong)], 10, Status.SOLVED, "", {}, 0.0)
    assert spoilt.status is Status.ERROR and "solution 2:" in spoilt.detail


def test_an_option_error_names_what_solutions_takes() -> None:
    with pytest.raises(OptionError):
        SEARCHES["mrv"].solve.check_options({"solutions": "many"})  # type: ignore[attr-defined]
    assert SEARCHES["mrv"].check(solutions="all") is None


# -- the judge ----------------------------------------------------------------------------------------------
def result(index: int, count: Count, solution: str | None) -> RunResult:
    status = Status.SOLVED if solution else Status.UNSATISFIABLE
    return RunResult(0, index, status, solution=solution, unique=None if not solution else count == Count(1, True),
                     count=count)


def test_the_judge_holds_counts_to_agree() -> None:
    grid, _ = counted("boxes-4", 7)
    answer = Grid(grid.layout, bytes(next(brute_solutions(grid, 1)))).text()
    puzzle = Puzzle(0, "f", 1, "", 0, grid, None)
    labels = ("a", "b", "c")
    agreeing = [result(0, Count(7, True), answer), result(1, Count(7, True), answer),
                result(2, Count(5, False), answer)]
    verdict = judge(puzzle, agreeing, labels, None, can_certify=False)
    assert verdict is not None and verdict.kind == "multiple_solutions" and verdict.count == Count(7, True)
    assert verdict.note.startswith("7 solutions")
    apart = [result(0, Count(7, True), answer), result(1, Count(6, True), answer), result(2, Count(10, False), answer)]
    verdict = judge(puzzle, apart, labels, None, can_certify=False)
    assert verdict is not None and verdict.kind == "disagreement"
    assert verdict.disagree == {0, 1, 2} and verdict.failures == ("false count",) * 3
    cert = result(3, Count(7, True), answer)
    verdict = judge(puzzle, apart, labels, cert, can_certify=True)
    assert verdict is not None and verdict.disagree == {1, 2}, verdict  # the certifier's count settles it
    assert "b said 6 solutions" in verdict.note


# -- compare.py ---------------------------------------------------------------------------------------------
EXAMPLE = Path(__file__).parent.parent / "examples" / "killer-counts.txt"  # the docs' example: 6x6 Killers


def test_the_example_holds_the_counts_its_names_say() -> None:
    named = {"none": 0, "one": 1, "two": 2, "seven": 7, "many": 22}
    for line in EXAMPLE.read_text().splitlines():
        text, name = line.split()
        assert sum(1 for _ in brute_solutions(Grid.parse(text), 100)) == named[name], line


@pytest.mark.slow
def test_compare_counts_up_to_ten_records_and_reports_the_counts(tmp_path: Path, capsys) -> None:
    cases = [(Grid.parse(line.split()[0]), number) for line, number
             in zip(EXAMPLE.read_text().splitlines(), (0, 1, 2, 7, 22), strict=True)]
    cases.append(counted("thermometer-6", 7))
    path = tmp_path / "counted.txt"
    path.write_text(EXAMPLE.read_text() + f"{cases[-1][0].text()} thermometers\n")
    out_path = tmp_path / "r.jsonl"
    code = compare.main([str(path), "--solutions", "10", "--output", str(out_path), "--jobs", "2",
                         "--timeout", "60"])
    out = capsys.readouterr().out
    assert code == 0, out
    records = [json.loads(line) for line in out_path.read_text().splitlines()]
    assert list(records[0])[:len(RECORD_FIELDS) + 1] == [*RECORD_FIELDS[:11], "count", *RECORD_FIELDS[11:]]
    assert {r["method"] for r in records} == {*SEARCHES, *FORMULATIONS}
    for record in records:
        number = cases[record["line"] - 1][1]
        if record["method"] == "restart":  # the seed's restarts: a floor, or the count when it found them all
            assert record["count"] is None if number == 0 else Count.parse(record["count"]).agrees(Count(number, True))
            continue
        assert record["count"] == str(expected(number, MANY)), record
        assert record["disagrees"] is False and record["unique"] is ((number == 1) if number else None)
    assert "Solutions counted: 1 puzzle with 0, 1 with 1, 1 with 2, 2 with 7, 1 with 10+" in out
    assert "7 solutions" in out and "OK: every answer valid" in out


def test_compare_solutions_2_writes_the_records_it_wrote(tmp_path: Path, capsys) -> None:
    grid, _ = counted("boxes-4", 2)
    path = tmp_path / "p.txt"
    path.write_text(grid.text() + "\n")
    out_path = tmp_path / "r.csv"
    assert compare.main([str(path), "--solver", "mrv", "--solutions", "2", "--output", str(out_path)]) == 0
    header = out_path.read_text().splitlines()[0].split(",")
    assert "count" not in header and header[:len(RECORD_FIELDS)] == list(RECORD_FIELDS)
    assert "Solutions counted" not in capsys.readouterr().out


def test_compare_refuses_a_count_it_cannot_read(capsys) -> None:
    assert compare.main(["--solutions", "0"]) == 2
    assert "--solutions: '0': say a whole number, 1 or more, or all" in capsys.readouterr().err


def test_a_program_that_gives_one_answer_is_not_run_when_counting(tmp_path: Path, capsys) -> None:
    grid, _ = counted("boxes-4", 7)
    path = tmp_path / "p.txt"
    path.write_text(grid.text() + "\n")
    out_path = tmp_path / "r.jsonl"
    program = f"{sys.executable} examples/python/fpuzzles_solver.py"
    code = compare.main([str(path), "--solutions", "10", "--solver", "mrv", "--solver", "ext",
                         "--command", f"ext:input=fpuzzles={program}", "--output", str(out_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    records = {r["method"]: r for r in map(json.loads, out_path.read_text().splitlines())}
    assert records["ext"]["status"] == "gave_up" and "cannot count solutions" in records["ext"]["detail"]
    assert records["ext"]["count"] is None and records["mrv"]["count"] == "7"
    assert "did not run" in out


@pytest.mark.parametrize("options", [{"model": "integer"}, {"model": "boolean", "presolve": "off"}, {"workers": 2}])
def test_cpsat_lists_the_solutions_in_one_solve_or_solves_again(options: dict) -> None:
    """CP-SAT counts in one enumerating solve with its one worker; with a portfolio, by solving again with each
    solution excluded, as the other formulations do: the same count either way."""
    for target in (0, 7, MANY + 1):
        grid, number = counted("killer-6", target)
        out = FORMULATIONS["cpsat"](grid, solutions=ALL, **options)
        assert out.count == Count(number, exact=True)
        assert out.info["solves"] == (1 if options.get("workers", 1) == 1 else number + 1)  # the last finds none


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_counting_run_resumes_with_its_counts(tmp_path: Path, capsys, fmt: str) -> None:
    """The count column read back (--resume): the records kept as they were, the report's tally made again."""
    path = tmp_path / "p.txt"
    path.write_text(EXAMPLE.read_text())
    out_path = tmp_path / f"r.{fmt}"
    argv = [str(path), "--solutions", "10", "--solver", "mrv", "--solver", "sat", "--output", str(out_path)]
    assert compare.main(argv) == 0
    first, written = capsys.readouterr().out, out_path.read_text()
    assert compare.main([*argv, "--resume"]) == 0
    again = capsys.readouterr().out
    tally = "Solutions counted: 1 puzzle with 0, 1 with 1, 1 with 2, 1 with 7, 1 with 10+"
    assert tally in first and tally in again and out_path.read_text() == written


def test_the_python_api_counts_all() -> None:
    from comparison import compare
    from comparison.core.errors import UsageError

    run = compare([EXAMPLE], solvers=["mrv"], solutions="all", certify=False)
    counts = sorted((record["line"], record["count"]) for record in run)  # records come as puzzles finish
    assert counts == [(1, "0"), (2, "1"), (3, "2"), (4, "7"), (5, "22")]
    with pytest.raises(UsageError, match="solutions='many'"):
        compare([EXAMPLE], solutions="many")
