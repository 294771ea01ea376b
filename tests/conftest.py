"""Shared test fixtures: the public puzzle collections, where this machine has them."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from puzzles import data


@pytest.fixture
def collection() -> Callable[[str], Path]:
    """The file of a public collection by its name, found as everywhere else (puzzles/data.py: $SUDOKU_DATA,
    ../shared/data, the per-user cache); where it is not here the test skips, naming the command that fetches it."""

    def find(name: str) -> Path:
        try:
            return data.locate(name)
        except data.MissingCollection as exc:
            pytest.skip(str(exc))

    return find
