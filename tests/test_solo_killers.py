"""Solo's game IDs (Simon Tatham's Portable Puzzle Collection) are read as the puzzles Solo itself draws: the
IDs below were made by Solo 20230122 (Debian's sgt-puzzles), and each expectation was read from what Solo prints
for that ID (`sgt-solo --print 1x1 --with-solutions`, PostScript: the regions' thick outlines, the cages' dotted
outlines, each total where it is drawn, the givens and, on the second page, the solution). No Solo needed here."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.solo_killers import (
    MODELS,
    SoloIdError,
    count_solutions,
    overdetermined_table,
    params_of,
    pieces,
    puzzle_of_id,
    solution_of_save,
)
from puzzles import Grid
from puzzles.constraints.killer import cages_in
from puzzles.layouts import reachable


@dataclass(frozen=True)
class Printed:
    """What Solo prints for an ID: each cell's region and cage as a letter (the same letter: the same outline),
    the totals by cell, the shaded diagonal cells of an X puzzle, the givens and the solution (0 = blank)."""

    game_id: str
    regions: str
    cages: str
    totals: dict[int, int]
    shaded: tuple[int, ...]
    givens: str
    solution: str


SIX = Printed(  # 2x3k: boxes 2 rows tall and 3 wide; a given (2 at R1C1) put in by hand: Solo accepts and draws it
    "2x3k:2zi,_aa__a___a____a__a__b_aaaaa___a______a_baa,3_9a5a8a7_11a7a10a3b7a7_9_7b8c9_6a10d",
    "aaabbbaaabbbcccdddcccdddeeefffeeefff",
    "abbccdaeffgdheiigjhklmmjnkllopnqqqop",
    {0: 3, 1: 9, 3: 5, 5: 8, 7: 7, 8: 11, 10: 7, 12: 10, 14: 3, 17: 7, 19: 7, 20: 9, 21: 7, 24: 8, 28: 9, 29: 6,
     31: 10},
    (), "2" + "0" * 35, "263415145623431256652341526134314562")
KILLER_X = Printed(  # 3x3xkdi: Killer X, intermediate
    "3x3xk:zzzc,____aa____a_____a______a_a_aa_a_a___aa______aaa__aaacaa__aa____aa_a_a___a______a___ba__a___a_a___"
    "aaaaa_,15_11_8_15_9a3a12d9a11_10a6_14_7_9a13b16c11b10b10_7a11b10a6a21a6_9_13_12b7e16_6_5_15a9a8d7a4a16a18b",
    "aaabbbcccaaabbbcccaaabbbcccdddeeefffdddeeefffdddeeefffggghhhiiiggghhhiiiggghhhiii",
    "abcdeeffgabcdhhijgklmnnoijpklmqqorrpsttuuovvwsxxyzABBwCCxyzADEFGGHHIIDEFJJKKLLMMM",
    {0: 15, 1: 11, 2: 8, 3: 15, 4: 9, 6: 3, 8: 12, 13: 9, 15: 11, 16: 10, 18: 6, 19: 14, 20: 7, 21: 9, 23: 13,
     26: 16, 30: 11, 33: 10, 36: 10, 37: 7, 39: 11, 42: 10, 44: 6, 46: 21, 48: 6, 49: 9, 50: 13, 51: 12, 54: 7,
     60: 16, 61: 6, 62: 5, 63: 15, 65: 9, 67: 8, 72: 7, 74: 4, 76: 16, 78: 18},
    (0, 8, 10, 16, 20, 24, 30, 32, 40, 48, 50, 56, 60, 64, 70, 72, 80), "0" * 81,
    "937654128681972534452813679295381467316749285748265391169438752874526913523197846")
KILLER_JIGSAW = Printed(  # 9jkdb: Killer on Jigsaw regions, basic (the description's four parts)
    "9jk:zzzc,d_bc_abbab__a_aaa__d__baa_d_a_bacc_cb_cabbab_a_a_ebcagb_ea,b____b_____a_a__a_a___aa____aa____aa____"
    "__a_a___aaaa__a___a_a___aa_aaa_aa_aaaabaab__aaa__aaabaa,13b17_10_10_7_28a9a17f6_16b9a5a13c5a13_14b9a13a6a22b16"
    "b8a5b12_10a9a20a9_9a20d22b3b7c13b",
    "aaaaabcccdaaaabccedddbbbccedddbfbbceddggffbcegggggfheeiiggffheeiiiifhhehiiiffhhhh",
    "aaabcdeffgghbcdeffijhhkdllmijjnkoppmqqrnsottmuurvswttxyyzvAwBCxDDzAAEBCFDDGGEEHHF",
    {0: 13, 3: 17, 4: 10, 5: 10, 6: 7, 7: 28, 9: 9, 11: 17, 18: 6, 19: 16, 22: 9, 24: 5, 26: 13, 30: 5, 32: 13,
     33: 14, 36: 9, 38: 13, 40: 6, 42: 22, 45: 16, 48: 8, 50: 5, 53: 12, 54: 10, 56: 9, 58: 20, 60: 9, 61: 9,
     63: 20, 68: 22, 71: 3, 74: 7, 78: 13},
    (), "0" * 81, "652973148541832679489715236217486953365127894978641325193264587736598412824359761")
CLASSIC = Printed(  # 3x3db: plain Sudoku, basic: givens only
    "3x3:a4_5a7a8d6a2g6a8b5_4b1_6d6_3e8_9d3_2b4_3b4a6g8a5d8a1a2_4a",
    "aaabbbcccaaabbbcccaaabbbcccdddeeefffdddeeefffdddeeefffggghhhiiiggghhhiiiggghhhiii", "." * 81, {}, (),
    "045070800006020000000608005400160000630000089000032004300406000000080500008010240",
    "945371826816524937273698415487169352632745189159832674321456798794283561568917243")
PRINTED = [SIX, KILLER_X, KILLER_JIGSAW, CLASSIC]


def partition(letters: str) -> set[tuple[int, ...]]:
    """The pieces a letter map draws, each its cells in reading order ('.' is in none)."""
    found: dict[str, list[int]] = {}
    for cell, letter in enumerate(letters):
        if letter != ".":
            found.setdefault(letter, []).append(cell)
    return {tuple(cells) for cells in found.values()}


@pytest.mark.parametrize("printed", PRINTED, ids=lambda p: p.game_id.partition(":")[0])
def test_an_id_is_read_as_solo_prints_it(printed: Printed) -> None:
    grid = puzzle_of_id(printed.game_id)
    lay, n = grid.layout, grid.side
    assert "".join(str(v) for v in grid.values) == printed.givens
    assert partition("".join(chr(ord("a") + r) for r in lay.regions)) == partition(printed.regions)
    assert {c.cells for c in cages_in(lay.constraints)} == partition(printed.cages)
    # each total where Solo draws it, in its cage's first cell; every cage has one
    assert {c.cells[0]: c.total for c in cages_in(lay.constraints)} == printed.totals
    diagonals = sorted({cell for h in lay.extras for cell in h.cells})
    assert diagonals == list(printed.shaded)
    for cage in cages_in(lay.constraints):
        assert cage.total is not None
        low, high = reachable(n, len(cage.cells))
        assert len(set(cage.cells)) == len(cage.cells) <= n and low <= cage.total <= high
    solution = Grid(lay, bytes(int(v) for v in printed.solution))
    assert grid.solution_problems(solution) == []  # Solo's solution keeps every parsed rule, cages included
    assert Grid.parse(grid.text()) == grid  # the line form carries it whole


def test_the_variants_are_the_projects() -> None:
    assert [puzzle_of_id(p.game_id).layout.variant for p in PRINTED] == ["killer", "killer+x", "killer+jigsaw",
                                                                         "classic"]
    six = puzzle_of_id(SIX.game_id).layout
    assert (six.box_height, six.box_width) == (2, 3)


@pytest.mark.parametrize("printed", [SIX, KILLER_X], ids=["2x3k", "3x3xk"])
def test_solos_solution_is_the_only_one(printed: Printed) -> None:
    grid = puzzle_of_id(printed.game_id)
    assert count_solutions(grid, MODELS[0]) == 1
    assert count_solutions(Grid(grid.layout.houses, grid.values), MODELS[0]) == 2  # the cages make it unique


def test_counting_drops_only_the_rule_a_model_drops() -> None:
    # a 4x4 Killer unique only with the no-repeat rule: cage 4 (R2C3 R3C2 R3C3) may hold a value twice, its two
    # ends in no common house; both counts against every 4x4 Sudoku held to the cages
    grid = puzzle_of_id(FOUR_ID)
    assert params_of("2x2k").side == 4
    assert [c.cells for c in cages_in(grid.layout.constraints)] == [(0, 4, 5), (1, 2), (3, 7), (6, 9, 10), (8, 12),
                                                                   (11, 15), (13, 14)]
    assert grid.solution_problems(Grid(grid.layout, bytes(FOUR_SOLUTION))) == []
    strict, loose = count_by_brute_force(grid, repeats=False), count_by_brute_force(grid, repeats=True)
    assert (strict, loose) == (1, 2)
    assert count_solutions(grid, MODELS[0], limit=300) == strict
    assert count_solutions(grid, MODELS[1], limit=300) == loose


def all_4x4_sudokus() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku (288), row by row: each row a permutation that repeats no value of a column above, nor of
    its box (a lower row's left half shares no value with the row above's left half; the right halves follow)."""
    rows = list(permutations(range(1, 5)))
    grids: list[tuple[int, ...]] = [()]
    for r in range(4):
        grids = [g + row for g in grids for row in rows
                 if all(row[c] != g[4 * above + c] for above in range(r) for c in range(4))
                 and (r % 2 == 0 or not {row[0], row[1]} & {g[-4], g[-3]})]  # a box's lower row: its left half
    return grids


def count_by_brute_force(grid: Grid, repeats: bool) -> int:
    """Every 4x4 Sudoku held to the cages: sums, and no repeats unless `repeats`."""
    sudokus = all_4x4_sudokus()
    assert len(sudokus) == 288 and all(not Grid(grid.layout.houses, bytes(s)).conflicts() for s in sudokus)
    return sum(all(sum(s[i] for i in k.cells) == k.total and (repeats or len({s[i] for i in k.cells}) == len(k.cells))
                   for k in cages_in(grid.layout.constraints)) for s in sudokus)


def encode_edges(piece_of: list[int], side: int) -> str:
    """A partition written as Solo's reader reads it: the internal edges (vertical ones row by row, then
    horizontal ones column by column, then one virtual drawn edge), a letter for each run of undrawn edges and the
    drawn edge after it (`_` none, a..y 1..25), `z` for 26 undrawn edges and no drawn one."""
    drawn = [piece_of[r * side + c] != piece_of[r * side + c + 1] for r in range(side) for c in range(side - 1)]
    drawn += [piece_of[r * side + c] != piece_of[(r + 1) * side + c] for c in range(side) for r in range(side - 1)]
    out, run = [], 0
    for edge in [*drawn, True]:
        if not edge:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            continue
        out.append("_" if run == 0 else chr(ord("a") + run - 1))
        run = 0
    return "".join(out)


def encode_numbers(values: list[int]) -> str:
    """A grid part as Solo writes one: a letter for each run of 1..26 blanks, `_` between two numbers."""
    out, run = "", 0
    for value in values:
        if not value:
            run += 1
            if run == 26:
                out, run = out + "z", 0
            continue
        if run:
            out, run = out + chr(ord("a") + run - 1), 0
        elif out:
            out += "_"
        out += str(value)
    return out + (chr(ord("a") + run - 1) if run else "")


FOUR_SOLUTION = [1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3]
FOUR_LABELS = "abbcaadceddfeggf"  # each cell's cage
FOUR = encode_edges([ord(label) for label in FOUR_LABELS], 4)
FOUR_TOTALS = [sum(v for v, label in zip(FOUR_SOLUTION, FOUR_LABELS, strict=True) if label == FOUR_LABELS[c])
                if FOUR_LABELS.index(FOUR_LABELS[c]) == c else 0 for c in range(16)]
FOUR_ID = f"2x2k:p,{FOUR},{encode_numbers(FOUR_TOTALS)}"


def test_the_tests_writer_is_solos() -> None:
    # Solo's own IDs come out of the test's writers unchanged: the checks below use them to make bad IDs
    regions_and_cages = SIX.game_id.split(",")
    six = puzzle_of_id(SIX.game_id)
    labels = [next(i for i, c in enumerate(cages_in(six.layout.constraints)) if cell in c.cells) for cell in range(36)]
    assert encode_edges(labels, 6) == regions_and_cages[1]
    totals = [0] * 36
    for cage in cages_in(six.layout.constraints):
        totals[cage.cells[0]] = cage.total or 0
    assert encode_numbers(totals) == regions_and_cages[2]
    assert encode_numbers(list(six.values)) == "2zi"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.data())
def test_pieces_read_any_partition(side: int, data: st.DataObject) -> None:
    # a random map of each cell to a piece (not always connected: the reader joins only cells that touch, so a
    # label's cells that do not touch are several pieces), a single piece (long runs: 'z') among them
    labels = data.draw(st.lists(st.integers(0, data.draw(st.integers(0, 5))), min_size=side * side,
                                max_size=side * side))
    found = pieces(encode_edges(labels, side), side, "test")
    assert sorted(cell for piece in found for cell in piece) == list(range(side * side))
    for piece in found:
        assert len({labels[c] for c in piece}) == 1
    # two touching cells with the same label are in the same piece
    where = {cell: i for i, piece in enumerate(found) for cell in piece}
    for cell in range(side * side):
        r, c = divmod(cell, side)
        for other in ([cell + 1] if c + 1 < side else []) + ([cell + side] if r + 1 < side else []):
            assert (where[cell] == where[other]) == (labels[cell] == labels[other])


TWO_TOTALS = encode_numbers([*FOUR_TOTALS[:4], 5, *FOUR_TOTALS[5:]])  # a second total in the first cage
TOO_BIG = encode_numbers([*FOUR_TOTALS[:-2], 99, 0])


@pytest.mark.parametrize("game_id, says", [
    ("3x3k#123", "random seed"),
    ("3x3k:zzzc,aa", "3 parts"),
    ("3x3k:zzzb,_,1", "80 cells, not 81"),
    (f"2x2k:p,{FOUR},{TOO_BIG}", "99 is out of range"),
    (f"2x2k:p,{FOUR[:-3]},{encode_numbers(FOUR_TOTALS)}", "edges, not 24"),
    (f"2x2k:p,{FOUR}z,{encode_numbers(FOUR_TOTALS)}", "more edges"),
    (f"2x2k:p,{FOUR},{encode_numbers(FOUR_TOTALS)}a", "17 cells, not 16"),
    (f"2x2k:p,{FOUR},{TWO_TOTALS}", "2 totals"),
    (f"2x2k:p,{FOUR[:-1]}!,{encode_numbers(FOUR_TOTALS)}", "not a run letter"),
])
def test_ids_that_are_not_puzzles_say_why(game_id: str, says: str) -> None:
    with pytest.raises(SoloIdError, match=says):
        puzzle_of_id(game_id)


def test_a_save_files_solve_move() -> None:
    saved = "GAME    :4:Solo\nDESC    :3:abc\nSOLVE   :8:S1,2,3,4\nNSTATES :1:2\n"
    assert solution_of_save(saved) == [1, 2, 3, 4]
    assert solution_of_save("GAME    :4:Solo\n") is None


def test_the_table_counts_unique_puzzles() -> None:
    grid = puzzle_of_id(SIX.game_id)
    answers = {MODELS[0].name: 1, MODELS[1].name: 1, MODELS[2].name: 2, MODELS[3].name: 0}
    table = overdetermined_table({"basic": [grid, grid]}, lambda g, m: answers[m.name])
    assert table[2].split() == ["basic", "2", "2", "2", "0", "0"]


def test_no_solo_is_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.solo_killers import main

    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "out.txt"), "--solo", str(tmp_path / "no-such-solo")])
    assert stop.value.code == 2
    assert "apt-get install sgt-puzzles" in capsys.readouterr().err


def test_ids_from_a_file_are_written_in_the_line_form(tmp_path: Path) -> None:
    from benchmarks.solo_killers import main, read_ids

    ids = tmp_path / "ids.txt"
    ids.write_text(f"# two of Solo's\n{SIX.game_id}\n{KILLER_X.game_id}\nnot-an-id\n")
    out = tmp_path / "out.txt"
    assert main([str(out), "--ids", str(ids), "--solo", "/bin/true"]) == 0  # a Solo that solves nothing
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert [line.split()[1] for line in lines] == read_ids(ids)[:2]
    assert [Grid.parse(line.split()[0]) for line in lines] == [puzzle_of_id(SIX.game_id),
                                                              puzzle_of_id(KILLER_X.game_id)]
    assert "# not read: not-an-id" in out.read_text()


@pytest.mark.slow
def test_boxes_1_2_4_5_imply_the_other_five_on_9x9() -> None:
    # why the boxes-1,2,4,5 model cannot find a second solution on any 9x9: each of rows 1-3 holds every value, so
    # boxes 1 and 2 holding each once leave each once for box 3; so for 6 (rows), 7 and 8 (columns), then 9.
    # CP-SAT: with rows, columns and boxes 1,2,4,5, no other box can miss value 1 (nor so any value: the rules
    # treat values alike)
    from ortools.sat.python import cp_model

    box_of = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    for missing in (2, 5, 6, 7, 8):
        cp = cp_model.CpModel()
        is_value = [[cp.new_bool_var(f"{c},{v}") for v in range(9)] for c in range(81)]
        houses = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
        houses += [[c for c in range(81) if box_of[c] == b] for b in MODELS[2].boxes or ()]
        for cell in range(81):
            cp.add_exactly_one(is_value[cell])
        for house in houses:
            for v in range(9):
                cp.add_exactly_one(is_value[c][v] for c in house)
        cp.add(sum(is_value[c][0] for c in range(81) if box_of[c] == missing) == 0)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.linearization_level = 2  # the sums over a band are linear: the relaxation proves it
        assert solver.solve(cp) == cp_model.INFEASIBLE
