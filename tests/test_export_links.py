"""`sudoku-export --link f-puzzles|sudokupad`: a puzzle written as a link, read back by the project's own reader
(puzzles.read_puzzles, as compare.py and sudoku-check read a file of links) as the same puzzle: its givens, houses,
cages and rules."""
from __future__ import annotations

from pathlib import Path

import pytest
from constraint_grids import unique_puzzle

from commands import export
from puzzles import Entry, Grid, read_puzzles

KILLER = (Path(__file__).resolve().parent.parent / "examples" / "killer-counts.txt").read_text().splitlines()[1]
PUZZLES = {
    "classic-9": "000702000100040007650000094470801062000000000580209013860000075900060008000908000",
    "jigsaw-6": ".3.41.6..........3...........2....5.;r=111222113322143332444536455566455666",
    "x-9": "..73...2.....2....................7.6.......15...8.......29.7..4...1..3.....5...9;x",
    "killer-6": KILLER.split()[0],
    "thermometer-4": unique_puzzle("." * 16 + ";th=R1C1,R2C2,R3C3;th=R4C1,R3C1", 1)[0].text(),
    "antiknight-6": unique_puzzle("." * 36 + ";antiknight", 1)[0].text(),
}


@pytest.mark.parametrize("site", ["sudokupad", "f-puzzles"])
@pytest.mark.parametrize("name", list(PUZZLES))
def test_a_link_written_reads_back_as_the_same_puzzle(name: str, site: str, tmp_path: Path) -> None:
    out = tmp_path / "link.txt"
    assert export.main([PUZZLES[name], "--link", site, "--title", name, "--out", str(out)]) == 0
    link = out.read_text().strip()
    assert link.startswith("https://sudokupad.app/fpuzzles" if site == "sudokupad" else
                           "https://www.f-puzzles.com/?load=")
    [entry] = list(read_puzzles(out))
    assert isinstance(entry, Entry), entry
    assert entry.grid == Grid.parse(PUZZLES[name]) and entry.name == name


def test_a_link_to_standard_output(capsys) -> None:
    assert export.main([PUZZLES["x-9"], "--link", "sudokupad"]) == 0
    assert capsys.readouterr().out.startswith("https://sudokupad.app/fpuzzles")


def test_the_model_s_flags_are_refused_with_a_link(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        export.main([PUZZLES["classic-9"], "--link", "sudokupad", "--sums", "pb"])
    assert exit_.value.code == 2 and "--sums: for a --model" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        export.main([PUZZLES["classic-9"], "--link", "sudokupad", "--model", "sat"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        export.main([PUZZLES["classic-9"], "--model", "sat", "--title", "x"])
    assert "--title names the puzzle in a --link" in capsys.readouterr().err
