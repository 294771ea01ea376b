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

from collections.abc import Mapping
from typing import Any

from ortools.linear_solver import pywraplp

from puzzles.constraints import Constraint, names
from puzzles.grid import Grid
from puzzles.options import parse

from . import cnf, cpsat, mip
from .constraints import walk
from .constraints.sat import DEFAULT_SUMS, ENCODERS

MODELS = ("cpsat", "mip", "sat")


def export_text(grid: Grid, model: str, *, cpsat_model: str = "integer", mip_format: str = "lp",
                sums: str = "linear", redundant: str = "none", sat_sums: str = DEFAULT_SUMS) -> str:
    """The model of `grid` as text: proto text (cpsat), LP or MPS (mip), DIMACS (sat). A Killer's cages are
    stated as `sums` says (cpsat: linear or table) with, for redundant=45, the 45 rule's derived sums; in DIMACS,
    in the sum encoding `sat_sums` (formulations.sat's `sums`)."""
    if model == "cpsat":
        opts = parse(cpsat.OPTIONS, {})  # the defaults
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
            *_constraint_comments(grid, {"sums": sat_sums, "redundant": redundant}),
            f"p cnf {nvars} {len(clauses)}",
        ]
        lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown model {model!r} (choose from {', '.join(MODELS)})")


def _constraint_comments(grid: Grid, options: Mapping[str, Any]) -> list[str]:
    """What the DIMACS states beside the houses (formulations/constraints/sat.py's clauses): the constraints named,
    then a line for each kind that tells its own (a Killer's cages: their sum encoding, and where the auxiliaries
    start)."""
    lay = grid.layout
    named: list[Constraint] = []
    own: list[str] = []
    for encoder, rules in walk(ENCODERS, lay.constraints, "the CNF"):
        if encoder.comment is None:
            named += rules
        else:
            read = {name: options.get(name, option.default) for name, option in encoder.options.items()}
            own.append("c " + encoder.comment(rules, read, cnf.variables(lay.houses)))
    listed = [f"c constraints: {', '.join(names(named, grid.side))} (clauses on the cell-values)"] if named else []
    return [*listed, *own]
