"""Write a puzzle's model in its solver's own text form, for study.

- cpsat: the CP-SAT model proto as text (either formulation)
- mip:   the 0-1 program as an LP file (or MPS with --format mps)
- sat:   the CNF as DIMACS

A puzzle's constraints beyond houses are in every model as the solvers get them, each stated by its kind's encoder
in that model's registry (formulations/constraints/), with the options the encoder reads (a Killer cage's `sums`
and `redundant` as the methods' options of those names; `sat_sums` is the sat method's `sums`).

    sudoku-export PUZZLE_LINE --model cpsat|mip|sat [--out FILE]   (commands/export.py)
"""
from __future__ import annotations

from ortools.linear_solver import pywraplp

from puzzles.constraints import names, uncaged
from puzzles.grid import Grid

from . import cnf, cpsat, mip
from .constraints.sat import DEFAULT_SUMS

MODELS = ("cpsat", "mip", "sat")


def export_text(grid: Grid, model: str, *, cpsat_model: str = "integer", mip_format: str = "lp",
                sums: str = "linear", redundant: str = "none", sat_sums: str = DEFAULT_SUMS) -> str:
    """The model of `grid` as text: proto text (cpsat), LP or MPS (mip), DIMACS (sat). A Killer's cages are
    stated as `sums` says (cpsat: linear or table) with, for redundant=45, the 45 rule's derived sums; in DIMACS,
    in the sum encoding `sat_sums` (formulations.sat's `sums`)."""
    if model == "cpsat":
        opts = {name: option.default for name, option in cpsat.OPTIONS.items()}
        opts.update(model=cpsat_model, sums=sums, redundant=redundant)
        built = cpsat.SudokuModel(grid, cpsat_model, opts)  # held: the proto is a view of its model
        return str(built.model.proto)
    if model == "mip":
        solver = pywraplp.Solver.CreateSolver("SCIP")
        mip.SudokuMip(grid, solver, options={"redundant": redundant})
        if mip_format == "mps":
            return str(solver.ExportModelAsMpsFormat(False, False))  # free format, real names
        return str(solver.ExportModelAsLpFormat(False))
    if model == "sat":
        nvars, clauses = cnf.encode(grid, options={"sums": sat_sums, "redundant": redundant})
        n = grid.side
        lines = [
            f"c Sudoku {n}x{n}: {grid.text()}",
            f"c variable (cell * {n} + value) is true when cell (row-major, from 0) holds value",
            *_constraint_comments(grid),
            *_cage_comments(grid, sat_sums),
            f"p cnf {nvars} {len(clauses)}",
        ]
        lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown model {model!r} (choose from {', '.join(MODELS)})")


def _constraint_comments(grid: Grid) -> list[str]:
    """Which constraints the DIMACS states beside the houses (formulations/constraints/sat.py's clauses)."""
    others = uncaged(grid.layout.constraints)  # (the cages: their own comments)
    if not others:
        return []
    return [f"c constraints: {', '.join(names(others, grid.side))} (clauses on the cell-values)"]


def _cage_comments(grid: Grid, sums: str) -> list[str]:
    """What a Killer's DIMACS adds to the houses': its cages' sum encoding, and where the auxiliaries start."""
    lay = grid.layout
    if not lay.cages:
        return []
    return [f"c Killer: {len(lay.cages)} cages, sums={sums}; variables above {cnf.variables(lay.houses)} are the "
            "cages' auxiliaries (a combination's selector, or a pseudo-Boolean encoder's own)"]
