"""A logic solver's steps checked (making/steps.py, `sudoku-check --steps`): hand-made step lists on small puzzles
judged against the brute force's solutions (tests/constraint_grids.py, which knows nothing of SAT or the project's
links), the example logic solver (examples/python/logic_solver.py) sound on the project's puzzles and caught, with
its planted bug, at its first wrong elimination, and a puzzle that catches it shrunk."""
from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest
from constraint_grids import solutions

from commands import check
from comparison.execution.processes import children
from comparison.programs.steps import StepsProgram
from making.candidates import TrueCandidates
from making.steps import Verdict, check_steps
from puzzles import Grid, random_isomorph
from puzzles.formats import BadEntry, read_puzzles

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "examples" / "python" / "logic_solver.py"
SOUND = (sys.executable, str(SOLVER))
PLANTED = (*SOUND, "--bug", "pair")
UNIQUE_4 = "3..1...2.3..2..."  # puzzles/seeds.txt's 4x4-unique-a
SEVERAL_4 = ".3..412..2.....2"  # several solutions; the planted naked pair removes a true candidate on it
NONE_4 = "31....4........3"  # no solution
SEED001 = "005300000800000020070010500400005300010070006003200080060500009004000030000009700"
SEED000 = "000702000100040007650000094470801062000000000580209013860000075900060008000908000"


def truth_of(grid: Grid) -> TrueCandidates:
    """The true candidates as the brute force finds them: each cell's values over every solution."""
    masks = [0] * len(grid.values)
    for solution in solutions(grid):
        for cell, value in enumerate(solution):
            masks[cell] |= 1 << (value - 1)
    return TrueCandidates(grid.side, tuple(masks), (0,) * len(masks), 0, 0)


def only_solution(grid: Grid) -> list[int]:
    found = list(solutions(grid, 2))
    assert len(found) == 1
    return found[0]


def name(cell: int, side: int) -> str:
    return f"R{cell // side + 1}C{cell % side + 1}"


def sound_steps(grid: Grid) -> list[str]:
    """Steps a sound solver could write for a unique puzzle: each empty cell's other values removed, then its value
    placed; the solution as the final line."""
    solution, n = only_solution(grid), grid.side
    lines = []
    for cell in grid.empty_cells():
        others = ",".join(str(v) for v in range(1, n + 1) if v != solution[cell])
        lines += [f"remove {name(cell, n)}={others} exhaustion", f"place {name(cell, n)}={solution[cell]} single"]
    return [*lines, "".join(str(v) for v in solution)]


# --- the checker on hand-made steps --------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [UNIQUE_4, SEED000])
def test_steps_that_follow_the_solution_are_sound(text: str) -> None:
    grid = Grid.parse(text)
    steps = sound_steps(grid)
    found = check_steps(grid, "\n".join(steps) + "\n", truth_of(grid))
    assert found.verdict is Verdict.SOUND and found.steps == len(steps) - 1 and found.open_cells == 0
    assert found.describe() == f"sound ({found.steps} steps, solved)"


def test_a_technique_may_hold_an_equals_sign_but_a_cells_values_must_be_numbers() -> None:
    grid = Grid.parse(UNIQUE_4)
    cell = grid.empty_cells()[0]
    wrong = [v for v in range(1, 5) if v != only_solution(grid)[cell]]
    text = f"remove {name(cell, 4)}={','.join(map(str, wrong))} x=wing, size=2\n{grid.line()}"
    found = check_steps(grid, text, truth_of(grid))
    assert found.sound
    found = check_steps(grid, f"remove {name(cell, 4)}=x pair\n", truth_of(grid))
    assert found.verdict is Verdict.MALFORMED and "is not a cell and its values" in found.why


def test_a_solver_that_stops_short_is_sound_with_its_open_cells() -> None:
    grid = Grid.parse(UNIQUE_4)
    solution = only_solution(grid)
    cell = grid.empty_cells()[0]
    final = list(grid.line())
    final[cell] = str(solution[cell])
    output = f"place {name(cell, 4)}={solution[cell]} naked single\n\n{''.join(final)}\n"
    found = check_steps(grid, output, truth_of(grid))
    assert found.sound and found.steps == 1 and found.open_cells == grid.side ** 2 - grid.givens - 1


def test_removing_the_solutions_value_is_the_first_unsound_step() -> None:
    grid = Grid.parse(UNIQUE_4)
    solution = only_solution(grid)
    steps = sound_steps(grid)
    cell = grid.empty_cells()[1]
    steps.insert(3, f"remove {name(cell, 4)}={solution[cell]} x-wing")
    found = check_steps(grid, "\n".join(steps), truth_of(grid))
    assert found.verdict is Verdict.UNSOUND and found.steps == 4 and found.line == 4
    assert found.step is not None and found.step.number == 4 and found.step.technique == "x-wing"
    assert (found.cell, found.value) == (cell, solution[cell])
    assert found.why == f"removes {solution[cell]} from {name(cell, 4)}, which the solution puts there"
    assert found.describe().startswith(f"unsound at step 4 (line 4: remove {name(cell, 4)}={solution[cell]} "
                                       "x-wing): x-wing: removes")


def test_placing_another_value_than_the_solutions_is_unsound() -> None:
    grid = Grid.parse(UNIQUE_4)
    solution = only_solution(grid)
    cell = grid.empty_cells()[0]
    wrong = next(v for v in range(1, 5) if v != solution[cell])
    found = check_steps(grid, f"# a comment is no step\nplace {name(cell, 4)}={wrong} guess\n{grid.line()}",
                        truth_of(grid))
    assert found.verdict is Verdict.MALFORMED and found.line == 1  # (no comments in the line form)
    found = check_steps(grid, f"place {name(cell, 4)}={wrong} guess\n{grid.line()}", truth_of(grid))
    assert found.verdict is Verdict.UNSOUND and found.step is not None and found.step.number == 1
    assert found.why == f"places {wrong} in {name(cell, 4)}, where the solution has {solution[cell]}"


def test_on_several_solutions_a_guess_is_unsound_and_a_true_removal_too() -> None:
    grid = Grid.parse(SEVERAL_4)
    truth = truth_of(grid)
    assert not truth.unique
    cell = next(c for c in grid.empty_cells() if len(truth.values(c)) > 1)
    first, second = truth.values(cell)[:2]
    found = check_steps(grid, f"place {name(cell, 4)}={first} guess\n", truth)
    assert found.verdict is Verdict.UNSOUND and found.why.startswith(f"places {first} in {name(cell, 4)}, where a "
                                                                     f"solution has {second}")
    found = check_steps(grid, f"remove {name(cell, 4)}={second} pair\n{grid.line()}", truth)
    assert found.verdict is Verdict.UNSOUND and found.why == (f"removes {second} from {name(cell, 4)}, which a "
                                                              "solution puts there")
    false = [v for v in range(1, 5) if v not in truth.values(cell)]
    if false:
        marks = ",".join(map(str, false))
        assert check_steps(grid, f"remove {name(cell, 4)}={marks} pair\n{grid.line()}", truth).sound
    found = check_steps(grid, "unsat\n", truth)
    assert found.verdict is Verdict.UNSOUND and found.why == "says the puzzle has no solution, but it has one"


def test_on_a_puzzle_with_no_solution_every_deduction_holds() -> None:
    grid = Grid.parse(NONE_4)
    truth = truth_of(grid)
    assert truth.solvable is False
    found = check_steps(grid, "remove R1C3=1,2,3,4 anything\nplace R2C2=2 anything\nunsat\n", truth)
    assert found.sound and found.unsat and found.steps == 2 and found.describe() == "sound (2 steps, no solution)"


@pytest.mark.parametrize(("output", "why", "line"), [
    ("swap R1C2=4\n", "'swap' is not a step (place or remove) nor a final grid of 4x4 symbols", 1),
    ("place R5C1=1 single\n", "R5C1 is outside the 4x4 grid", 1),
    ("remove R1C2=5 pair\n", "R1C2=5: 5 is not a value of a 4x4 grid (1-4)", 1),
    ("remove R1C2=1,,2\n", "'R1C2=1,,2' is not a cell and its values, like R3C4=7 or R3C4=1,2", 1),
    ("place R1C2=1,2 single\n", "R1C2=1,2: a placement puts one value in a cell", 1),
    ("remove naked pair\n", "remove names no cell: `remove R3C4=7 technique`", 1),
    ("3..1...2.3..2...\n3..1...2.3..2...\n", "a line after the final grid of line 1: '3..1...2.3..2...' (the final "
     "line comes last)", 2),
    ("unsat\n\nremove R1C2=1\n", "a line after the final `unsat` of line 1: 'remove R1C2=1' (the final line comes "
     "last)", 3),
    ("", "the output ends without its final grid (or `unsat`)", 0),
    ("3..1...2.3..2..\n", "'3..1...2.3..2..' is not a step (place or remove) nor a final grid of 4x4 symbols", 1),
])
def test_a_malformed_line_is_a_protocol_error_naming_it(output: str, why: str, line: int) -> None:
    grid = Grid.parse(UNIQUE_4)
    found = check_steps(grid, output, truth_of(grid))
    assert (found.verdict, found.why, found.line) == (Verdict.MALFORMED, why, line)
    assert found.describe() == (f"protocol error at line {line}: {why}" if line else f"protocol error: {why}")


def test_the_final_grid_holds_the_givens_and_the_placements_and_nothing_else() -> None:
    grid = Grid.parse(UNIQUE_4)
    solution = only_solution(grid)
    cell = grid.empty_cells()[0]
    filled = list(grid.line())
    filled[cell] = str(solution[cell])
    found = check_steps(grid, "".join(filled), truth_of(grid))  # a value no step placed
    assert found.verdict is Verdict.MALFORMED and found.why == (f"the final grid has {solution[cell]} in "
                                                                f"{name(cell, 4)}; no step placed a value there")
    found = check_steps(grid, f"place {name(cell, 4)}={solution[cell]} single\n{grid.line()}", truth_of(grid))
    assert found.why == f"the final grid leaves {name(cell, 4)} blank; the steps placed {solution[cell]} there"
    found = check_steps(grid, "." * 16, truth_of(grid))
    assert found.why == "the final grid leaves R1C1 blank; the puzzle gives 3 there"


def test_a_step_the_true_candidates_did_not_settle_is_undecided() -> None:
    grid = Grid.parse(UNIQUE_4)
    truth = truth_of(grid)
    cell = grid.empty_cells()[0]
    value = only_solution(grid)[cell]
    other = next(v for v in range(1, 5) if v != value)
    masks = list(truth.masks)
    masks[cell] = 0  # nothing found true there yet: every value undecided
    undecided = [0] * 16
    undecided[cell] = 0b1111
    gave_up = TrueCandidates(4, tuple(masks), tuple(undecided), 3, 0, "gave up after 3 SAT solves")
    found = check_steps(grid, f"remove {name(cell, 4)}={other} pair\n", gave_up)
    assert found.verdict is Verdict.UNDECIDED and "undecided (gave up after 3 SAT solves)" in found.why
    found = check_steps(grid, f"place {name(cell, 4)}={value} single\n", gave_up)
    assert found.verdict is Verdict.UNDECIDED


# --- the example solvers through the command -----------------------------------------------------------------------

def seeds() -> list[Grid]:
    return [r.grid for r in read_puzzles(str(ROOT / "puzzles" / "seeds.txt"), None) if not isinstance(r, BadEntry)]


@pytest.mark.slow
def test_the_sound_example_is_sound_on_the_projects_puzzles_and_their_isomorphs() -> None:
    before = set(children())
    program = StepsProgram(SOUND)
    rng = random.Random(7)
    grids = seeds()
    grids += [random_isomorph(g, rng) for g in grids if g.side <= 9]
    verdicts = [program.check(g) for g in grids]
    assert all(v.sound for v in verdicts), [v.describe() for v in verdicts if not v.sound]
    assert sum(1 for v in verdicts if v.steps and not v.open_cells and not v.unsat) >= 6  # solved, not idle
    assert set(children()) <= before  # no program left behind


@pytest.mark.slow
def test_the_planted_bug_is_caught_at_its_first_wrong_elimination() -> None:
    grid = Grid.parse(SEED001)
    solution = only_solution(grid)
    program = StepsProgram(PLANTED)
    found = program.check(grid)
    assert found.verdict is Verdict.UNSOUND and found.step is not None and found.step.technique == "naked pair"
    # the program's own steps, judged by the brute force's solution: every step before it holds, and it does not
    lines = program.output(grid).splitlines()
    for line in lines[:found.step.line - 1]:
        verb, *marks = line.split()
        for mark in marks:
            if "=" in mark:
                cell_name, values = mark.split("=")
                r, c = (int(x) for x in cell_name[1:].split("C"))
                held = solution[(r - 1) * 9 + c - 1]
                assert (held == int(values)) if verb == "place" else str(held) not in values.split(","), line
    assert found.cell is not None and found.value == solution[found.cell]
    assert lines[found.step.line - 1] == found.step.text


def test_the_command_says_each_puzzle_and_fails_on_the_planted_bug(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.txt"
    path.write_text(f"{SEED001} hard\n{UNIQUE_4} small\n")
    assert check.main([str(path), "--steps", f"{sys.executable} {SOLVER}"]) == 0
    out = capsys.readouterr().out
    assert f"{path}:1 hard: steps sound (" in out and f"{path}:2 small: steps sound (" in out
    assert "  steps: 2 sound" in out
    assert check.main([str(path), "--steps", f"{sys.executable} {SOLVER} --bug pair"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:1 hard: steps unsound at step 3 (line 3: remove " in out
    assert "naked pair: removes 2 from R1C5, which the solution puts there" in out
    assert "  steps: 1 sound, 1 unsound" in out


def test_a_program_that_fails_or_hangs_is_named_and_killed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = set(children())
    grid = Grid.parse(UNIQUE_4)
    family = Grid.parse("." * 81 + ";antiknight")
    found = StepsProgram(SOUND).check(family)  # the example knows classic Sudoku only
    assert found.verdict is Verdict.MALFORMED and found.why.startswith("the program ended (exit status 2); stderr: ")
    assert "knows classic Sudoku only" in found.why
    hang = shutil.which("tail")
    assert hang is not None
    found = StepsProgram((hang, "-f", "/dev/null"), timeout=0.2).check(grid)
    assert found.verdict is Verdict.TIME and found.describe() == "out of time: no end within 0.2 s (killed)"
    assert set(children()) <= before
    path = tmp_path / "one.txt"
    path.write_text(UNIQUE_4 + "\n")
    with pytest.raises(SystemExit) as stop:
        check.main([str(path), "--steps", "no-such-program-here"])
    assert stop.value.code == 2
    assert "--steps: program 'no-such-program-here' not found" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        check.main([str(path), "--shrink"])
    assert "give --steps" in capsys.readouterr().err


# --- shrinking --------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_puzzle_the_planted_bug_is_unsound_on_shrinks_to_a_1_minimal_one() -> None:
    grid = Grid.parse(SEVERAL_4)
    program = StepsProgram(PLANTED)
    found = program.check(grid, truth_of(grid))
    assert found.verdict is Verdict.UNSOUND
    small, again = program.shrunk(grid, found)
    assert small.givens < grid.givens
    again_brute = check_steps(small, program.output(small), truth_of(small))
    assert again.verdict is again_brute.verdict is Verdict.UNSOUND
    assert again.step is not None and again.step.technique == "naked pair"
    for cell in (c for c, v in enumerate(small.values) if v):  # 1-minimal: one clue fewer, and it is not unsound
        values = bytearray(small.values)
        values[cell] = 0
        fewer = small.with_values(values)
        assert check_steps(fewer, program.output(fewer), truth_of(fewer)).verdict is not Verdict.UNSOUND
