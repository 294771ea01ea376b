"""`sudoku-export` (also `python -m formulations.export`): a puzzle's model in its solver's own text form.

- cpsat: the CP-SAT model proto as text (either formulation)
- mip:   the 0-1 program as an LP file (or MPS with --format mps)
- sat:   the CNF as DIMACS
"""
from __future__ import annotations

import argparse
import sys

from formulations import cpsat
from formulations.export import MODELS, export_text
from puzzles.grid import Grid, PuzzleError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formulations.export",
                                     description="Write a puzzle's model in its solver's own text form, for study.")
    parser.add_argument("puzzle", help="the puzzle on one line (16, 81, 256 or 625 symbols)")
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--out", help="file to write (default: standard output)")
    parser.add_argument("--cpsat-model", choices=cpsat.MODELS, default="integer",
                        help="the CP-SAT formulation (default integer)")
    parser.add_argument("--format", choices=("lp", "mps"), default="lp", help="MIP file format (default lp)")
    args = parser.parse_args(argv)
    try:
        grid = Grid.parse(args.puzzle)
    except PuzzleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if grid.conflicts():
        print("error: invalid puzzle: " + "; ".join(grid.conflicts()), file=sys.stderr)
        return 2
    text = export_text(grid, args.model, cpsat_model=args.cpsat_model, mip_format=args.format)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0
