"""Models of Sudoku handed to real solvers: CP-SAT, python-constraint, 0-1 MIP, SAT.

Each entry of SOLVERS is a Method: call it as
``SOLVERS[name](grid, budget, solutions=1, **options)`` to get an Outcome.
Each module builds its model and solves it once; formulations.driver does the
budgets, the uniqueness proof and the conclusion for all of them.
"""
from __future__ import annotations

from puzzles.outcome import Method

from . import cpsat, csp, mip, sat

SOLVERS: dict[str, Method] = {
    "cpsat": cpsat.METHOD,
    "python-constraint": csp.METHOD,
    "mip": mip.METHOD,
    "sat": sat.METHOD,
}

__all__ = ["SOLVERS"]
