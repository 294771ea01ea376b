"""Hand-written searches, one module per algorithm of the seed documents.

`SOLVERS` maps a short name to a `Method`: call it as
`SOLVERS["mrv"](grid, budget, solutions=2, propagate="singles")`.
Every depth-first method runs on the one search of `depth_first.py` (a
`Descent`: one run, which says why it stopped; the effort vocabulary is there),
so their counters mean the same thing. A method plugs in a strategy: which cell
next, which value first, what inference after a placement (`inference.py`, the
rungs of `propagate`), on an engine with its own undo (`engine.py` chooses
`Candidates` or `CellMasks`). restart.py owns its loop over runs. A* has its
own loop and its own counters.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from puzzles import kernels  # noqa: F401  (first: it decides whether the compiled modules may load)
from puzzles.options import Option, describe
from puzzles.outcome import Method, Outcome

from . import astar, backtracking, learning, mrv, restart


class _SearchModule(Protocol):
    """What each search module declares (a module satisfies a Protocol by its attributes)."""

    @property
    def solve(self) -> Callable[..., Outcome]: ...
    @property
    def OPTIONS(self) -> dict[str, Option]: ...
    @property
    def COUNTERS(self) -> tuple[str, ...]: ...


def _method(module: _SearchModule, summary: str) -> Method:
    return Method(module.solve, summary, describe(module.OPTIONS), module.COUNTERS)


SOLVERS: dict[str, Method] = {
    "backtracking": _method(backtracking, "row-major backtracking, values ascending (seeds 001, 003)"),
    "mrv": _method(mrv, "fewest candidates first, depth-first; propagate=singles is Norvig's method (seeds 000, 001)"),
    "restart": _method(restart, "random cell among the fewest, restart at a dead end; "
                       "cutoff=luby is complete (seed 002)"),
    "cdcl": _method(learning, "singles with a nogood learned at each dead end, MRV and VSIDS, Luby restarts "
                    "(MiniSat's method on the puzzle)"),
    "astar": _method(astar, "A* on partial grids, g = candidates branched on, h = candidates left / 4 (seed 004)"),
}

__all__ = ["SOLVERS"]
