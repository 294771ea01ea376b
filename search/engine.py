"""What a search needs of a candidate storage: the engine interface.

Two storages implement it: `Candidates` (one mask per unit of the values it
holds, and a trail of placements) and `Bitboards` (one mask of candidates per
cell, and snapshots). Both hold every mask within a machine word (n <= 25
bits), so they run on native integers when compiled. A strategy written against `Engine` runs on either, and
counts the same: the storages hold the same candidates, only their costs differ.

Each storage has its own undo: `mark()` gives a token for the present state and
`restore(mark)` goes back to it exactly, whatever was placed (or, on Bitboards,
eliminated) since. The search never needs to know what a mark is.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

Mark = TypeVar("Mark")  # a storage's token for a state: a trail length, a snapshot


class Engine(Protocol[Mark]):
    """A partly filled grid and its candidates, changed in place and undone to a mark."""

    # -- its own undo
    def mark(self) -> Mark:
        """A token for the present state."""

    def restore(self, mark: Mark) -> None:
        """Back to the state of `mark`, exactly."""

    # -- changes
    def assign(self, cell: int, value: int) -> None:
        """Write a candidate value into an empty cell; its peers lose that value."""

    def force_singles(self) -> int:
        """Place naked and hidden singles to a fixpoint: how many, or -1 on a contradiction."""

    # -- reads
    def candidates(self, cell: int) -> int:
        """The candidate mask of an empty cell (value v = bit v-1)."""

    def state(self) -> bytes:
        """The cell values, one byte a cell (0 = blank), row-major."""

    def fewest(self) -> tuple[int, int]:
        """The first empty cell in row-major order with the fewest candidates, and its
        candidates (a cell with none is a dead end); (-1, 0) when the grid is full."""

    def fewest_from(self, cells: list[int], start: int = 0, enough: int = 0) -> tuple[int, int]:
        """The position in `cells` (from `start` on, filled cells skipped) of the first empty
        cell with `enough` candidates or fewer, else of the first with the fewest, and its
        candidates; (-1, 0) when none is empty. `cells[start:]` holds every empty cell."""

    def fewest_all(self, cells: list[int]) -> tuple[int, list[int]]:
        """The fewest candidate count of an empty cell, and every empty cell of `cells` that has
        it, in list order (only the first when it is 0); (-1, []) when the grid is full."""

    def masks(self) -> list[int]:
        """Every cell's candidate mask (0 for a filled cell): what the rules and a watch read."""


def tied(engine: Engine[Mark], count: int) -> int:
    """How many empty cells have exactly `count` candidates (a choice's ties, for a watch)."""
    return sum(1 for mask in engine.masks() if mask and mask.bit_count() == count)


class Eliminating(Engine[Mark], Protocol):
    """An engine that also removes candidates without placing a value, as the rungs above singles
    do (locked candidates, subsets, AllDifferent, probing); `restore` takes the removals back with
    the placements. It also places naked singles alone (the `naked` rung). `Bitboards` is one."""

    @property
    def box(self) -> int:
        """The box size of its grid."""

    def eliminate(self, cell: int, mask: int) -> None:
        """Remove the values of `mask` from an empty cell's candidates."""

    def force_naked_singles(self) -> int:
        """Place naked singles alone to a fixpoint: how many, or -1 on a contradiction."""

    def cells_with(self, count: int) -> list[int]:
        """The empty cells with exactly `count` candidates, row-major."""

    def units_touched(self, cells: Iterable[int]) -> list[int]:
        """The units (indices into the geometry's units) holding one of `cells`, in order."""
