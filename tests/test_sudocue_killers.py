"""benchmarks/sudocue_killers.py: SudoCue's long Killer strings read into the project's Killers, checked against
strings written by hand from known cages, and refused with the reason when they are not such strings."""
from __future__ import annotations

import random

import pytest

from benchmarks.sudocue_killers import ENTRY, INPUT, SOLUTION, KillerFormatError, main, name_of, puzzle_of
from puzzles import Grid
from puzzles.constraints.killer import cages_in

SOLVED = Grid.parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")


def cut(rng: random.Random) -> list[tuple[tuple[int, ...], int]]:
    """SOLVED cut into cages along its rows, 1 to 4 cells each (a row repeats no value), totals from the grid."""
    cages, cell = [], 0
    while cell < 81:
        size = min(rng.randint(1, 4), 9 - cell % 9)
        cells = tuple(range(cell, cell + size))
        cages.append((cells, sum(SOLVED.values[c] for c in cells)))
        cell += size
    return cages


def long_string(cages: list[tuple[tuple[int, ...], int]], x: bool = False) -> str:
    """The long Killer string of these cages (cells, total), numbered from 1 in their order, as SudoCue writes it."""
    cells = [0] * 81
    for number, (held, total) in enumerate(cages, 1):
        for cell in held:
            cells[cell] = 256 * total + number
    return f"3x3:{'d' if x else ''}:k:" + "".join(f"{value:04d}:" for value in cells)


@pytest.mark.parametrize("seed", range(5))
def test_a_cut_of_a_solution_written_long_reads_back_as_its_cages(seed):
    rng = random.Random(seed)
    cages = cut(rng)
    grid = puzzle_of(long_string(cages))
    assert sorted((c.cells, c.total) for c in cages_in(grid.layout.constraints)) == sorted(cages)
    assert grid.givens == 0 and grid.layout.variant == "killer" and not grid.layout.extras
    assert grid.solution_problems(SOLVED) == []  # the grid it was cut from solves it


def test_a_d_makes_a_killer_x_and_a_cell_of_no_cage_stays_out():
    grid = puzzle_of(long_string([((0, 1), 8), ((80,), 9)], x=True))
    assert grid.layout.variant == "killer+x"
    assert sorted(h.cells for h in grid.layout.extras) == [tuple(range(0, 81, 10)), tuple(range(8, 73, 8))]
    assert [(c.cells, c.total) for c in cages_in(grid.layout.constraints)] == [((0, 1), 8), ((80,), 9)]


@pytest.mark.parametrize(("text", "reason"), [
    ("1234", "starts with 3x3::k:"),
    ("3x3::k:" + "0000:" * 80, "80 cells, not 81"),
    ("3x3::k:" + "0000:" * 80 + "x:", "cell 81: 'x' is not a number"),
    ("3x3::k:" + "2049:2305:" + "0000:" * 79, "cage 1: totals 8 and 9"),
])
def test_what_is_not_a_long_killer_is_refused_with_the_reason(text, reason):
    with pytest.raises(KillerFormatError, match=reason):
        puzzle_of(text)


def test_the_entries_of_a_collection_file_are_found_with_their_solutions(tmp_path):
    """A file shaped as ISS's data/collections.js: the long Killers and their solutions, other entries passed by;
    written in the line form with one-word names, and read back as the same puzzles."""
    cages = cut(random.Random(7))
    first, second = long_string(cages), long_string([(cages[0][0], cages[0][1] + 1), *cages[1:]])
    solved = SOLVED.line()

    def entry(name: str, text: str, solution: str = "") -> str:
        said = f"    solution: '{solution}',\n" if solution else ""
        return f"  {{\n    name: '{name}',\n    input: '{text}',\n{said}  }},\n"

    source = ("const A = [\n" + entry("Wecoc #1", first, solved) + entry("Classic", ".~R1C1_8")
              + entry("Wrong total [mod]", second, solved) + "];\n")
    found = [(name, INPUT.search(body), SOLUTION.search(body)) for name, body in ENTRY.findall(source)]
    assert [(name, bool(i), bool(s)) for name, i, s in found] == [
        ("Wecoc #1", True, True), ("Classic", False, False), ("Wrong total [mod]", True, True)]
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "collections.js").write_text(source, encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main([str(out), "--iss", str(tmp_path)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    puzzles = [line.split() for line in lines if not line.startswith("#")]
    assert [name for _, name in puzzles] == ["Wecoc-1", "Wrong-total-mod"]
    assert Grid.parse(puzzles[0][0]).text() == puzzle_of(first).text()
    assert [line for line in lines if "not valid" in line] == [
        next(line for line in lines if line.startswith("# Wrong total [mod]: its solution is not valid"))]
    assert name_of("tarek unsolvable #41") == "tarek-unsolvable-41"
