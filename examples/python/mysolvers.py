"""A home-made solver, checked against the project's methods (docs/guides/own-solver.md):

    PYTHONPATH=examples/python python compare.py --registry mysolvers --solver lastfirst --solver mrv
"""
import time
from typing import Any

from puzzles import Budget, Grid, Method, Outcome, Status
from puzzles.conclusion import conclude
from puzzles.options import contract, describe


@contract("lastfirst", {})
def solve(grid: Grid, budget: Budget, solutions: int, options: dict[str, Any], started: float) -> Outcome:
    """Backtracking over the empty cells from the last to the first, values ascending."""
    peers, side = grid.geometry.peers, grid.side
    values, found = bytearray(grid.values), []
    empty = grid.empty_cells()[::-1]
    nodes = 0
    deadline, node_limit = budget.deadline(started), budget.node_limit

    def fill(k: int) -> str | None:  # None: go on; else why it stops: "enough", "nodes", "time"
        nonlocal nodes
        if k == len(empty):
            found.append(bytes(values))
            return "enough" if len(found) >= solutions else None
        cell = empty[k]
        for v in range(1, side + 1):
            if any(values[p] == v for p in peers[cell]):
                continue
            nodes += 1
            if nodes > node_limit:
                return "nodes"
            if time.perf_counter() > deadline:
                return "time"
            values[cell] = v
            if (stop := fill(k + 1)) is not None:
                return stop
        values[cell] = 0
        return None

    stop = fill(0)
    if stop in ("nodes", "time"):  # conclude keeps a solution found before the budget ran out
        return conclude(grid, found, solutions, Status.GAVE_UP, stop, {"nodes": nodes}, started)
    status = Status.SOLVED if found else Status.UNSATISFIABLE  # enough solutions, or the whole tree searched
    return conclude(grid, found, solutions, status, "", {"nodes": nodes}, started)


SOLVERS = {"lastfirst": Method(solve, "backtracking from the last empty cell", describe({}), ("nodes",))}
