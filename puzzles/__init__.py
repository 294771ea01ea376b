"""The domain core: grids, the candidate engine, puzzle files and the solver contract.

`puzzles` imports nothing else of the project; search/, formulations/ and
compare.py build on it.
"""
from typing import Any

from . import kernels  # first: it decides, before any of them loads, whether the compiled modules may run
from .candidates import Candidates
from .cellmasks import CellMasks
from .formats import BadEntry, Detection, Entry, PuzzleFileError, detect, read_lines, read_puzzles, read_text
from .grid import SYMBOLS, Geometry, Grid, PuzzleError, geometry, mask_of, values_of
from .isomorph import Isomorph, random_isomorph
from .layouts import House, Layout, boxes, classic
from .outcome import GAVE_UP_REASONS, Budget, Count, GaveUp, Method, Outcome, Status


def __getattr__(name: str) -> Any:
    """`__version__`, read when first asked: it lives in pyproject.toml alone, and an installed project knows it
    (importlib.metadata, slow to import, is not loaded by every process that reads puzzles)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata
    try:
        return metadata.version("sudoku-search")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"

__all__ = [
    "GAVE_UP_REASONS", "SYMBOLS", "BadEntry", "Budget", "Candidates", "CellMasks", "Count", "Detection", "Entry",
    "GaveUp", "Geometry", "Grid", "House", "Isomorph", "Layout", "Method", "Outcome", "PuzzleError", "PuzzleFileError",
    "Status", "boxes", "classic", "detect", "geometry", "kernels", "mask_of", "random_isomorph", "read_lines",
    "read_puzzles", "read_text", "values_of",
]
