"""What the Killer benchmarks share: reading their puzzles, the interleaved order (each puzzle through every
configuration in turn, in benchmarks/turns.py's order) and the check that stops a run at an error or a wrong answer.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import TypeVar

from benchmarks.turns import in_turn
from puzzles import Entry, Grid, Outcome, PuzzleFileError, Status, read_puzzles
from puzzles.constraints.killer import cages_in

T = TypeVar("T")


def read_killers(file: str, limit: int) -> list[Grid] | None:
    """The first `limit` puzzles of the file, or None (with a line on stderr) when it cannot be read or none of them
    has a cage."""
    try:
        puzzles = [e.grid for e in read_puzzles(file) if isinstance(e, Entry)][:limit]
    except PuzzleFileError as exc:  # no such file, a folder, unreadable
        print(exc, file=sys.stderr)
        return None
    if not any(cages_in(grid.layout.constraints) for grid in puzzles):
        print(f"{file}: no Killer puzzle among its first {limit}", file=sys.stderr)
        return None
    return puzzles


def interleaved(puzzles: Sequence[Grid], configurations: Sequence[T]) -> Iterator[tuple[int, Grid, T]]:
    """(index, puzzle, configuration) for every pair, puzzle by puzzle, each puzzle starting one further along."""
    for index, grid in enumerate(puzzles):
        for configuration in in_turn(configurations, index):
            yield index, grid, configuration


def accepted(outcome: Outcome, grid: Grid, index: int, label: str) -> bool:
    """False, with the reason on stderr, for an error or a wrong answer: either stops the run."""
    if outcome.status is Status.ERROR:
        print(f"puzzle {index + 1}, {label}: {outcome.detail}", file=sys.stderr)
        return False
    if outcome.solution is not None and not grid.is_solved_by(outcome.solution):
        print(f"puzzle {index + 1}, {label}: a wrong answer: {'; '.join(grid.solution_problems(outcome.solution))}",
              file=sys.stderr)
        return False
    return True
