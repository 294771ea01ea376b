"""benchmarks/sudocue_killers.py: SudoCue's long Killer strings and the forums' short ones read into the project's
Killers, checked against strings written by hand from known cages, and refused with the reason when they are not
such strings."""
from __future__ import annotations

import random

import pytest

from benchmarks.sudocue_killers import (
    ENTRY,
    INPUT,
    SOLUTION,
    KillerFormatError,
    from_collection,
    main,
    name_of,
    puzzle_of,
)
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


def by_hand() -> str:
    chars = ["1"] * 81
    chars[0], chars[9], chars[19] = "B", "^", "`"
    chars[1], chars[2] = "0", "<"
    chars[10], chars[11], chars[18] = "L", "<", "'"
    chars[72:79] = ["e"] + ["<"] * 6
    return "".join(chars)


BY_HAND = by_hand()  # a short string of every kind of character (test_the_short_formats_arrows_...)


def total_char(total: int) -> str:
    """A total as the short format writes it: 0 to 9 a digit, 10 to 35 A to Z, 36 to 45 a to j."""
    return str(total) if total < 10 else chr(ord("A") + total - 10) if total < 36 else chr(ord("a") + total - 36)


def short_string(cages: list[tuple[tuple[int, ...], int]]) -> str:
    """The short string of cages that run along a row from their first cell: its total, then arrows back (<)."""
    chars = ["?"] * 81
    for held, total in cages:
        chars[held[0]] = total_char(total)
        for cell in held[1:]:
            chars[cell] = "<"
    return "".join(chars)


@pytest.mark.parametrize("seed", range(5))
def test_a_cut_of_a_solution_written_short_reads_back_as_written_long(seed):
    cages = cut(random.Random(seed))
    grid = puzzle_of(short_string(cages))
    assert sorted((c.cells, c.total) for c in cages_in(grid.layout.constraints)) == sorted(cages)
    assert grid.text() == puzzle_of(long_string(cages)).text()


def test_the_short_formats_arrows_totals_and_a_cage_without_one_by_hand():
    # cage 1: r1c1 (total 11, B), r2c1 (^ up to it), r3c2 (` up-left to r2c1); cage 2: r1c2 (total 0: no total)
    # and r1c3 (<); cage 3: r2c2 (total 21, L) and r2c3 (< to it), r3c1 (' up-right to r2c2); cage 4: r9c1 (total
    # 40, e) and the six cells after it (<); the rest cages of one cell, 1 each (no solution: read all the same)
    grid = puzzle_of(BY_HAND)
    cages = {c.cells: c.total for c in cages_in(grid.layout.constraints)}
    assert cages[(0, 9, 19)] == 11 and cages[(1, 2)] is None and cages[(10, 11, 18)] == 21
    assert cages[tuple(range(72, 79))] == 40
    assert len(cages) == 4 + 81 - 15 and all(cages[(cell,)] == 1 for cell in (3, 20, 79, 80))


@pytest.mark.parametrize(("chars", "reason"), [
    ({0: "<"}, "cell 1: its arrow < points out of the grid"),
    ({8: ">"}, "cell 9: its arrow > points out of the grid"),
    ({80: "."}, "cell 81: its arrow . points out of the grid"),
    ({0: ">", 1: "<"}, "cell 1: its arrows go round in a loop"),
])
def test_what_is_not_a_short_killer_is_refused_with_the_reason(chars, reason):
    text = "".join(chars.get(cell, "1") for cell in range(81))
    with pytest.raises(KillerFormatError, match=reason):
        puzzle_of(text)


def test_a_collection_of_isss_is_read_with_its_names_and_solutions(tmp_path):
    """A file shaped as ISS's data/collections.js with two collections: the Killers of the one asked, short or long,
    in its order, a solution the 81 digits after its string, an escaped quote read as the arrow it is."""
    cages = cut(random.Random(3))
    short = short_string(cages)
    source = ("export const OTHER = new PuzzleCollection({}, [\n  'Wecoc #1',\n]);\n\n"
              "// the one asked\nexport const HARD_KILLERS = new PuzzleCollection(\n"
              "  {\n    src: 'http://example.org/t1.html',\n    constraintTypes: ['Cage'],\n  },\n  [\n"
              f"    '{short}',\n    ['{long_string(cages)}',\n      '{SOLVED.line()}'],\n"
              f"    '{BY_HAND.replace(chr(39), chr(92) + chr(39))}',\n  ],\n);\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "collections.js").write_text(source, encoding="utf-8")
    found = from_collection(tmp_path, "HARD_KILLERS")
    assert [(name, solution) for name, _, solution in found] == [
        ("hard_killers-1", None), ("hard_killers-2", SOLVED.line()), ("hard_killers-3", None)]
    assert [text for _, text, _ in found] == [short, long_string(cages), BY_HAND]
    with pytest.raises(KillerFormatError, match=r"no collection NONE in .*; its collections: OTHER, HARD_KILLERS"):
        from_collection(tmp_path, "NONE")
    out = tmp_path / "out.txt"
    assert main([str(out), "--iss", str(tmp_path), "--collection", "HARD_KILLERS"]) == 0
    puzzles = [line.split() for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert [name for _, name in puzzles] == ["hard-killers-1", "hard-killers-2", "hard-killers-3"]
    assert puzzles[0][0] == puzzles[1][0] == puzzle_of(long_string(cages)).text()
