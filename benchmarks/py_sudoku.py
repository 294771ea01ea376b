"""Puzzles made by another program: py-sudoku (PyPI `py-sudoku`, MIT licence) makes Sudoku with rectangular boxes
of any shape and Sudoku-X ("diagonal Sudoku"). This writes them in the line form, so that compare.py reads them
as the same variants and every method is run on puzzles the project did not make:

    pip install py-sudoku            (or: pip install -e ".[bench]")
    python benchmarks/py_sudoku.py OUT.txt [--count 20] [--difficulty 0.55] [--seed 1]
    python compare.py OUT.txt

py-sudoku blanks a random share of a solved grid (`difficulty`), so a puzzle may have several solutions: the run's
certification and the methods' agreement decide each. Its own solution of each grid is checked here against the
puzzle's houses (a line `# py-sudoku's solution ... is not valid` says where it is not, and the puzzle is still
written). Shapes: boxes 2x3 (6x6), 2x4 (8x8), 3x3 (9x9), 2x5 (10x10), 3x4 (12x12), as f-puzzles draws them;
Sudoku-X at 4x4 and 9x9.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from commands.flags import bounded, positive  # noqa: E402
from puzzles import Grid  # noqa: E402
from puzzles.layouts import Layout, boxes, named  # noqa: E402

# (name, py-sudoku's width and height of a box, the layout): py-sudoku's width is a box's columns
SHAPES: list[tuple[str, int, int, Layout]] = [
    ("boxes-6", 3, 2, boxes(6)), ("boxes-8", 4, 2, boxes(8)), ("classic-9", 3, 3, boxes(9)),
    ("boxes-10", 5, 2, boxes(10)), ("boxes-12", 4, 3, boxes(12)),
]
DIAGONAL: list[tuple[str, int, Layout]] = [("x-4", 2, named("x", 4)), ("x-9", 3, named("x", 9))]


def grid_of(board: list[list[int | None]], lay: Layout) -> Grid:
    return Grid(lay, bytes(v or 0 for row in board for v in row))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=positive(int), default=20, help="puzzles of each shape (default 20)")
    parser.add_argument("--difficulty", type=bounded(float, lambda share: 0 < share < 1, "must be between 0 and 1"),
                        default=0.55, help="share of cells blanked (default 0.55)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.out.is_dir():  # said before the puzzles are made, not after
        parser.error(f"{args.out} is a folder: give the file to write")
    try:
        from sudoku.sudoku import DiagonalSudoku, Sudoku
    except ImportError:
        parser.error("py-sudoku is not installed: pip install py-sudoku")
    lines = [f"# made by py-sudoku (MIT licence), difficulty {args.difficulty}, seeds {args.seed}.. (benchmarks/"
             "py_sudoku.py)"]
    shapes = [(name, w, h, lay) for name, w, h, lay in SHAPES] + [(name, b, 0, lay) for name, b, lay in DIAGONAL]
    for name, width, height, lay in shapes:
        for i in range(args.count):
            seed = args.seed + i
            made = Sudoku(width, height, seed=seed) if height else DiagonalSudoku(width, seed=seed)
            puzzle = made.difficulty(args.difficulty)
            grid = grid_of(puzzle.board, lay)
            solution = grid_of(puzzle.solve().board, lay)
            problems = grid.solution_problems(solution)
            if problems:
                lines.append(f"# py-sudoku's solution of {name}-{seed} is not valid: {'; '.join(problems)}")
            lines.append(f"{grid.text()} py-sudoku-{name}-{seed}")
    try:
        args.out.write_text("\n".join(lines) + "\n")
    except OSError as exc:  # a folder that does not exist, no right to write
        print(f"py_sudoku: {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{args.out}: {sum(1 for line in lines if not line.startswith('#'))} puzzles, "
          f"{sum(1 for line in lines[1:] if line.startswith('#'))} with an invalid py-sudoku solution")
    return 0


if __name__ == "__main__":
    sys.exit(main())
