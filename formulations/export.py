"""Write a puzzle's model in its solver's own text form, for study.

- cpsat: the CP-SAT model proto as text (either formulation)
- mip:   the 0-1 program as an LP file (or MPS with --format mps)
- sat:   the CNF as DIMACS

    python -m formulations.export PUZZLE_LINE --model cpsat|mip|sat [--out FILE]
"""
from __future__ import annotations

import argparse
import sys

from ortools.linear_solver import pywraplp

from puzzles.grid import Grid, PuzzleError

from . import cpsat, mip, sat

MODELS = ("cpsat", "mip", "sat")


def export_text(grid: Grid, model: str, *, cpsat_model: str = "integer", mip_format: str = "lp") -> str:
    """The model of `grid` as text: proto text (cpsat), LP or MPS (mip), DIMACS (sat)."""
    if model == "cpsat":
        return str(cpsat.SudokuModel(grid, cpsat_model).model.proto)
    if model == "mip":
        solver = pywraplp.Solver.CreateSolver("SCIP")
        mip.SudokuMip(grid, solver)
        if mip_format == "mps":
            return str(solver.ExportModelAsMpsFormat(False, False))  # free format, real names
        return str(solver.ExportModelAsLpFormat(False))
    if model == "sat":
        nvars, clauses = sat.encode(grid)
        n = grid.side
        lines = [
            f"c Sudoku {n}x{n}: {grid.line()}",
            f"c variable (cell * {n} + value) is true when cell (row-major, from 0) holds value",
            f"p cnf {nvars} {len(clauses)}",
        ]
        lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown model {model!r} (choose from {', '.join(MODELS)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m formulations.export", description=__doc__.split("\n\n")[0])
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


if __name__ == "__main__":
    sys.exit(main())
