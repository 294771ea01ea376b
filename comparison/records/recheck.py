"""--resume trusts nothing it keeps: each kept answer is checked again against its puzzle, and the puzzle judged
again, before the verdict.

A records file is plain text that anyone (or a failing disk) may have changed since it was written: a kept
solution with two digits swapped must fail the resumed run as it would have failed a fresh one. The check is the
worker's (Grid.solution_problems), the judgement the tracker's (judge.judge), without a certificate: the records
do not keep one, so a kept verdict that rested on the certifier stands unless the records alone now show an
invalid answer or a disagreement it did not.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzles import Grid, PuzzleError, Status

from ..core.stream import Puzzle
from ..judging.judge import judge
from .format import run_result


def kept_problems(record: dict[str, Any]) -> list[str]:
    """Why a kept record's solution is not a valid solution of its puzzle ([] when it is, or when it is none)."""
    if record["status"] != Status.SOLVED.value:
        return []
    try:
        puzzle = Grid.parse(record["puzzle"] or "")
        return puzzle.solution_problems(Grid.parse(record["solution"] or ""))
    except PuzzleError as exc:
        return [f"the kept solution is not a grid ({exc})"]


def rechecked(group: list[dict[str, Any]], labels: Sequence[str]) -> list[dict[str, Any]]:
    """A kept puzzle's records (one a method, any order) checked and judged again: the same list when they hold,
    else new records, with the answers that fail marked invalid and the puzzle's verdict the fresh one."""
    records = list(group)
    for i, record in enumerate(records):
        problems = kept_problems(record)
        if problems and record["valid"] is not False:
            records[i] = {**record, "valid": False, "problems": "; ".join(problems)}
    by_label = {r["method"]: r for r in records}
    results = [run_result(i, by_label[label]) for i, label in enumerate(labels)]
    first = records[0]
    try:
        grid = Grid.parse(first["puzzle"] or "")
    except PuzzleError as exc:  # its answers cannot be checked: none of them stands
        return [{**r, "valid": False, "problems": f"the kept puzzle is not a grid ({exc})", "verdict": "invalid",
                 "note": "the kept puzzle is not a grid"} for r in records]
    puzzle = Puzzle(0, first["file"], first["line"], first["name"] or "", first["isomorph"], grid, None)
    verdict = judge(puzzle, results, labels, None, can_certify=False)
    if verdict is None or not verdict.failed or verdict.kind == first["verdict"]:
        return group if records == group else records
    index = {label: i for i, label in enumerate(labels)}
    return [{**r, "verdict": verdict.kind, "note": verdict.note, "disagrees": index[r["method"]] in verdict.disagree}
            for r in records]
