"""Puzzles made in memory, run through compare.py's own machinery: the generator's scores and the fuzzer's tests.

Each batch is written to a temporary puzzle file and run as a Comparison: so the methods are those compare.py
would select, run in its workers with its budgets, kills and crash handling, and judged by its judge (the
certifier included). A batch's records come back grouped by puzzle, in the order given.
"""
from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles import Grid, Method

from ..core.settings import Settings
from .comparison import Comparison

Records = list[dict[str, Any]]  # one puzzle's records, one a method (and isomorph)


def run_batch(grids: Sequence[Grid], settings: Settings, methods: dict[str, Method] | None = None,
              isomorphs: int | None = None, certify: bool = True) -> list[Records]:
    """Each grid's records (with `isomorphs`, those of its K random isomorphs too, isomorph 0 left out)."""
    if not grids:
        return []
    with tempfile.TemporaryDirectory(prefix="sudoku-batch-") as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("".join(f"{g.line()}\n" for g in grids), encoding="utf-8")
        run = Comparison(dataclasses.replace(settings, files=[str(path)], isomorphs=isomorphs, certify=certify,
                                             limit=None, sample=None, input_format="line"), methods)
        found: list[Records] = [[] for _ in grids]
        for record in run:
            if record["status"] != "bad_entry":
                found[record["line"] - 1].append(record)
    return found
