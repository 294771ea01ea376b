"""What a search needs of a candidate engine, and which engine a search runs on.

Two engines implement the interface (`Engine`), each holding the same candidates in its own way:

- `Candidates` (puzzles/candidates.py): one mask per unit of the values placed in it, a cell's
  candidates read from its three units; its undo is a trail of placements. A placement touches
  three masks, so a search that only places values runs fastest on it.
- `CellMasks` (puzzles/cellmasks.py): one candidate mask per cell; its undo is a snapshot. Singles
  run fastest on it (a cell's candidates are one read, and a cell falling to one candidate is
  noticed as it falls), and it takes back candidates removed without a placement, which a trail of
  placements cannot: every rung above singles removes some (`Eliminating`).

`on_engine` is the one place that chooses between them. Both keep every mask within a machine word
(n <= 25 bits), so they run on native integers when compiled. A strategy written against `Engine`
runs on either and counts the same: only the costs differ.

Each engine has its own undo: `mark()` gives a token for the present state and `restore(mark)` goes
back to it exactly, whatever was placed (or, on `CellMasks`, eliminated) since; marks are taken and
restored last-in first-out, as a depth-first search does. A state kept for later in any order (A*'s
frontier) is `save()`d as bytes and `load()`ed back.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from puzzles.bits import popcount
from puzzles.candidates import Candidates
from puzzles.cellmasks import CellMasks
from puzzles.grid import Grid, Layout

Mark = TypeVar("Mark")  # an engine's token for a state: a trail length, a snapshot
Result = TypeVar("Result", covariant=True)


class Engine(Protocol[Mark]):
    """A partly filled grid and its candidates, changed in place and undone to a mark."""

    # -- its own undo
    def mark(self) -> Mark:
        """A token for the present state."""

    def restore(self, mark: Mark) -> None:
        """Back to the state of `mark`, exactly (marks are restored last-in first-out)."""

    def save(self) -> bytes:
        """The present state, compact and apart from the engine: what A*'s frontier keeps."""

    def load(self, saved: bytes) -> None:
        """Back to a state `save` gave (on this engine, or one of the same puzzle), in any order."""

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

    def live_total(self) -> int:
        """The candidates of every empty cell together, or -1 when an empty cell has none (A*'s h)."""

    def masks(self) -> list[int]:
        """Every cell's candidate mask (0 for a filled cell): what the rules and a watch read."""


def tied(engine: Engine[Mark], count: int) -> int:
    """How many empty cells have exactly `count` candidates (a choice's ties, for a watch)."""
    return sum(1 for mask in engine.masks() if mask and popcount(mask) == count)


class Eliminating(Engine[Mark], Protocol):
    """An engine that also removes candidates without placing a value, as the rungs above singles
    do (locked candidates, subsets, AllDifferent, probing); `restore` takes the removals back with
    the placements. It also places naked singles alone (the `naked` rung). `CellMasks` is one."""

    @property
    def layout(self) -> Layout:
        """The layout of its grid's houses."""

    def eliminate(self, cell: int, mask: int) -> None:
        """Remove the values of `mask` from an empty cell's candidates."""

    def force_naked_singles(self) -> int:
        """Place naked singles alone to a fixpoint: how many, or -1 on a contradiction."""

    def cells_with(self, count: int) -> list[int]:
        """The empty cells with exactly `count` candidates, row-major."""

    def units_touched(self, cells: Iterable[int]) -> list[int]:
        """The units (indices into the geometry's units) holding one of `cells`, in order."""


class OnEngine(Protocol[Result]):
    """A search that runs on either engine, whichever `on_engine` hands it (generic in the mark)."""

    def __call__(self, engine: Engine[Mark], /) -> Result: ...


def on_engine(grid: Grid, infers: bool, run: OnEngine[Result]) -> Result:
    """`run` on the engine for this grid that suits the search: with a rung of inference (`infers`),
    `CellMasks` (singles run fastest on it, and the rungs above singles remove candidates, which only
    its snapshots take back); without, `Candidates` (a placement touches three masks, not a cell's peers).

    The choice is handed to `run` rather than returned: each engine has its own kind of mark, and a
    search is written once for any kind (generic in `Mark`), so it is given an engine whose kind is known.
    """
    if infers:
        return run(CellMasks(grid))
    return run(Candidates(grid))
