"""Figures of a run beyond the terminal's tables: PAR-2, rank correlation, the spread over isomorphs.

Pure functions on plain numbers, so that each can be checked against a case counted by hand.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

PAR_FACTOR = 2  # PAR-2: an unsolved run costs twice the timeout (the SAT competitions' penalised average runtime)


def par2(seconds: Sequence[float], settled: Sequence[bool], timeout: float) -> float | None:
    """The mean penalised runtime: a run's time when it settled its puzzle, else twice the timeout.

    `settled` says whether a run answered its puzzle right (a valid solution, or "no solution" that
    nothing refuted); gave up, an error, an invalid answer or a disagreement are all unsolved.
    """
    if not seconds:
        return None
    return statistics.fmean(t if ok else PAR_FACTOR * timeout for t, ok in zip(seconds, settled, strict=True))


def ranks(values: Sequence[float]) -> np.ndarray:
    """The rank of each value (1 = smallest), ties sharing the mean of the ranks they span."""
    import numpy as np  # here: a run that draws no figure does not load numpy at its start

    data = np.asarray(values, dtype=float)
    order = np.argsort(data, kind="stable")
    ordered = data[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])  # where each run of equal values starts
    ends = np.r_[starts[1:], len(data)]
    mean_rank = (starts + ends + 1) / 2  # the mean of ranks start+1 .. end
    result = np.empty(len(data))
    result[order] = np.repeat(mean_rank, ends - starts)
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation: Pearson's on the ranks (ties averaged); None when either side is constant."""
    if len(xs) != len(ys):
        raise ValueError("spearman: two sequences of the same length")
    if len(xs) < 2:
        return None
    rx, ry = ranks(xs), ranks(ys)
    dx, dy = rx - rx.mean(), ry - ry.mean()
    norm = math.sqrt(float(dx @ dx) * float(dy @ dy))
    return float(dx @ dy) / norm if norm > 0 else None


@dataclass(frozen=True)
class Spread:
    """One puzzle's effort over its isomorphs: how far one orientation is from another."""

    puzzle: str  # file:line
    low: float
    median: float
    high: float
    count: int

    @property
    def ratio(self) -> float:
        """Most over least effort (each + 1, so that a run with no search counts)."""
        return (self.high + 1) / (self.low + 1)


def spreads(efforts: dict[str, list[float]]) -> list[Spread]:
    """Each puzzle's spread (puzzle -> its isomorphs' efforts), the puzzles with two isomorphs or more."""
    return [Spread(puzzle, min(values), statistics.median(values), max(values), len(values))
            for puzzle, values in efforts.items() if len(values) >= 2]
