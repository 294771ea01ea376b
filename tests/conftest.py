"""Shared test fixtures: where the public puzzle collections are, if they are here; which build runs."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or skip the test cleanly where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not beside the project")
    return SHARED_DATA


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "interpreted: the test replaces a method of a search class to spy on it, which a compiled class "
        "ignores (compiled code calls its own methods directly); it runs where the kernels are interpreted "
        "(CI runs these again with SUDOKU_SEARCH_COMPILED=0)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from puzzles import kernels

    if not kernels.STATUS.compiled:
        return
    skip = pytest.mark.skip(reason="spies on a compiled class: run with SUDOKU_SEARCH_COMPILED=0 "
                            "(python -m pytest -m interpreted)")
    for item in items:
        if "interpreted" in item.keywords:
            item.add_marker(skip)
