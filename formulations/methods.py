"""The formulations' methods by name (formulations/__init__.py's SOLVERS)."""
from __future__ import annotations

from puzzles.outcome import Method

from . import cpsat, csp, mip, sat

SOLVERS: dict[str, Method] = {
    "cpsat": cpsat.METHOD,
    "python-constraint": csp.METHOD,
    "mip": mip.METHOD,
    "sat": sat.METHOD,
}
