"""Models of Sudoku handed to real solvers: CP-SAT, python-constraint, 0-1 MIP, SAT.
Each entry of SOLVERS is a Method: call it as
``SOLVERS[name](grid, budget, solutions=1, **options)`` to get an Outcome.
Each module builds its model and solves it once; formulations.driver does the
budgets, the uniqueness proof and the conclusion for all of them.

SOLVERS is made on first use (formulations/methods.py): the solvers' libraries (OR-Tools, which loads pandas,
python-constraint, PySAT) take half a second of a program's start, which a program that reads the CNF encodings
alone (true candidates, sudoku-check) or runs no formulation does not pay.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzles.outcome import Method

    SOLVERS: dict[str, Method]


def __getattr__(name: str) -> object:
    if name == "SOLVERS":
        from .methods import SOLVERS

        return SOLVERS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SOLVERS"]
