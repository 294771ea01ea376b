"""The fuzzer on Killers finds the planted range(2) boxes (tests/planted.py) and shrinks the failure: on 8x8,
where those loops leave out four boxes that rows and columns do not imply (on 9x9 they imply them all:
docs/guides/killer-lesson.md)."""
from __future__ import annotations

import itertools

import planted
import pytest

import compare
from puzzles import Grid


def failures(path) -> list[tuple[str, str, Grid]]:
    lines = path.read_text().splitlines()
    found = []
    for comment, line in itertools.pairwise(lines):
        if comment.startswith("# ") and not line.startswith("#"):
            method, _, rest = comment[2:].partition(": ")
            found.append((method, rest.split(" (")[0], Grid.parse(line.split()[0])))
    return found


def fuzz(tmp_path, variant: str, *solvers: str) -> tuple[int, list[tuple[str, str, Grid]]]:
    out = tmp_path / "failures.txt"
    # one puzzle of each of the seven kinds of Killer the fuzzer makes (the guide's trial run made two each)
    argv = ["--fuzz", "--limit", "7", "--variant", variant, "--registry", "planted", "--against", "sat",
            "--seed", "1", "--jobs", "1", "--timeout", "30", "--output", str(out)]
    for solver in solvers:
        argv += ["--solver", solver]
    return compare.main(argv), failures(out)


@pytest.mark.slow
def test_the_fuzzer_finds_the_range2_boxes_on_8x8_and_shrinks_the_failure(tmp_path):
    status, found = fuzz(tmp_path, "killer@8", "killer-boxes")
    assert status == 1 and [(m, c) for m, c, _ in found] == [("killer-boxes", "invalid answer")]
    grid = found[0][2]
    lower = tuple(f"box {k}" for k in range(5, 9))
    problems = grid.solution_problems(planted.SOLVERS["killer-boxes"](grid).solution)
    assert problems and all(p.endswith(lower) for p in problems)
