"""`compare.py --fuzz --steps 'PROGRAM'`: a logic solver fuzzed on made puzzles, each step checked against the
puzzle's true candidates. The example's planted bug (examples/python/logic_solver.py --bug pair) is caught at its
first wrong elimination, judged again here against the brute force's solutions (tests/constraint_grids.py), its
puzzle shrunk to a 1-minimal one, and the Reproduce line written with it finds it again; the sound example passes
the same puzzles. 4x4 puzzles, a few of them: the test stays cheap."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from constraint_grids import solutions

import compare
from comparison.programs.steps import StepsProgram
from making.candidates import TrueCandidates
from making.minimal import givens_of
from making.shrink import without
from making.steps import Verdict, check_steps
from puzzles import Grid
from puzzles.formats import Entry, read_puzzles

ROOT = Path(__file__).resolve().parent.parent
SOUND = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'python' / 'logic_solver.py'))}"
PLANTED = f"{SOUND} --bug pair"


def truth_of(grid: Grid) -> TrueCandidates:
    """The true candidates as the brute force finds them: each cell's values over every solution."""
    masks = [0] * len(grid.values)
    for solution in solutions(grid):
        for cell, value in enumerate(solution):
            masks[cell] |= 1 << (value - 1)
    return TrueCandidates(grid.side, tuple(masks), (0,) * len(masks), 0, 0)


def unsound_by_brute_force(program: StepsProgram, grid: Grid) -> bool:
    return check_steps(grid, program.output(grid), truth_of(grid)).verdict is Verdict.UNSOUND


def fuzz(tmp_path: Path, steps: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, Path]:
    output = tmp_path / "failing.txt"
    code = compare.main(["--fuzz", "--limit", "7", "--box", "2", "--seed", "1", "--steps", steps,
                         "--output", str(output)])
    return code, capsys.readouterr().out, output


@pytest.mark.slow  # some 40 runs of the program: a few seconds of its start-ups
def test_the_planted_bug_is_caught_shrunk_and_reproduced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, output = fuzz(tmp_path, PLANTED, capsys)
    assert code == 1, out
    assert "found unsound on a" in out and "unsound (naked pair) on" in out and "FAILED: 1 distinct failure" in out
    lines = output.read_text().splitlines()
    [reproduce] = [line.removeprefix("# Reproduce: ") for line in lines if line.startswith("# Reproduce: ")]
    [said] = [line for line in lines if line.startswith("# unsound at step")]
    found = re.match(r"# unsound at step (\d+) \(line \d+: remove (R\d+C\d+)=[\d,]+ naked pair\): naked pair: "
                     r"removes (\d+) from (R\d+C\d+)", said)
    assert found, said
    [entry] = [e for e in read_puzzles(output) if isinstance(e, Entry)]
    grid = entry.grid
    program = StepsProgram(tuple(shlex.split(PLANTED)))
    # the step named is the first unsound one by the brute force too, and its removal is a value of a solution
    again = check_steps(grid, program.output(grid), truth_of(grid))
    assert again.verdict is Verdict.UNSOUND and again.step is not None
    assert (again.step.number, again.value) == (int(found[1]), int(found[3]))
    cell = again.cell
    assert cell is not None and any(s[cell] == again.value for s in solutions(grid))
    # 1-minimal: each clue taken away, the planted bug is sound on what is left
    assert not any(unsound_by_brute_force(program, without(grid, [c])) for c in givens_of(grid))
    # the Reproduce line, run as written (this interpreter for `python`), finds it again
    command = reproduce.replace("python -m", f"{shlex.quote(sys.executable)} -m", 1)
    ran = subprocess.run(command, shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "steps unsound at step" in ran.stdout and "naked pair" in ran.stdout


@pytest.mark.slow
def test_the_sound_example_passes_the_same_puzzles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, output = fuzz(tmp_path, SOUND, capsys)
    assert code == 0, out
    assert re.search(r"Checks: 7 sound; \d+ steps checked", out) and "OK: every step sound in 7 puzzles" in out
    assert output.read_text().startswith("# compare.py --fuzz --steps: 0 distinct failures, in 7 puzzles\n")


@pytest.mark.parametrize(("argv", "said"), [
    (["--fuzz", "1s", "--steps", SOUND, "--solver", "mrv"], "--solver is not for it"),
    (["--fuzz", "--steps", SOUND], "--fuzz needs a DURATION"),
    (["--fuzz", "1s", "--steps", "no-such-program-here"], "program 'no-such-program-here' not found"),
    (["--steps", SOUND], "--steps is for a fuzz run"),
    (["--fuzz", "1s", "--steps", SOUND, "--output", "x.csv"], "name it .txt"),
])
def test_what_a_steps_fuzz_refuses(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert compare.main(argv) == 2
    assert said in capsys.readouterr().err
