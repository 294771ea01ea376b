"""The Sudoku grid: its geometry for every box size, and an immutable Grid.

A grid of box size b has side n = b*b (4, 9, 16 or 25) and n*n cells numbered
row-major from 0. A cell holds 0 (blank) or a value 1..n. The geometry (which
cells form each row, column and box, and each cell's peers) depends only on
the box size, so it is computed once per box size and shared by every grid.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported only by the two methods that use it
    import numpy as np
    import numpy.typing as npt

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # the symbol of value v is SYMBOLS[v - 1]
BLANKS = ".0_"
BOX_OF_LENGTH = {16: 2, 81: 3, 256: 4, 625: 5}  # puzzle length -> box size
BOX_OF_SIDE = {4: 2, 9: 3, 16: 4, 25: 5}

_VALUE_OF_SYMBOL = {s: v for v, s in enumerate(SYMBOLS, 1)}
_VALUE_OF_SYMBOL.update({s.lower(): v for v, s in enumerate(SYMBOLS, 1) if s.isalpha()})
_VALUE_OF_SYMBOL.update({b: 0 for b in BLANKS})


class PuzzleError(ValueError):
    """A text or matrix that is not a puzzle; the message says why."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """Rows, columns, boxes and peers of the grid with a given box size.

    Units are numbered rows first (0..n-1), then columns (n..2n-1), then
    boxes (2n..3n-1), boxes row-major. Build it with `geometry(box)`.
    """

    box: int
    side: int
    cells: int
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    row_of: tuple[int, ...]  # unit index of each cell's row, column, box
    col_of: tuple[int, ...]
    box_of: tuple[int, ...]
    peers: tuple[tuple[int, ...], ...]
    full: int  # the bitmask holding every value
    readers: tuple[Callable[[bytes], tuple[int, ...]], ...]  # per unit: its cells' values, read at once

    def units_of(self, cell: int) -> tuple[int, int, int]:
        return self.row_of[cell], self.col_of[cell], self.box_of[cell]

    def symbol(self, value: int) -> str:
        return SYMBOLS[value - 1] if value else "."


@cache
def geometry(box: int) -> Geometry:
    if box not in (2, 3, 4, 5):
        raise PuzzleError(f"box size {box} is not supported (2 to 5: 4x4 to 25x25)")
    n = box * box
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [
        tuple((br * box + r) * n + bc * box + c for r in range(box) for c in range(box))
        for br in range(box)
        for bc in range(box)
    ]
    units = tuple(rows + cols + boxes)
    names = tuple(
        [f"row {i + 1}" for i in range(n)]
        + [f"column {i + 1}" for i in range(n)]
        + [f"box {i + 1}" for i in range(n)]
    )
    row_of = tuple(cell // n for cell in range(n * n))
    col_of = tuple(n + cell % n for cell in range(n * n))
    box_of = tuple(2 * n + (cell // n // box) * box + (cell % n) // box for cell in range(n * n))
    peers = tuple(
        tuple(sorted(set(units[row_of[c]] + units[col_of[c]] + units[box_of[c]]) - {c}))
        for c in range(n * n)
    )
    readers = tuple(operator.itemgetter(*unit) for unit in units)
    return Geometry(box, n, n * n, units, names, row_of, col_of, box_of, peers, (1 << n) - 1, readers)


@dataclass(frozen=True)
class Grid:
    """An immutable grid: box size and n*n values (0 = blank), row-major."""

    box: int
    values: bytes

    def __post_init__(self) -> None:
        geo = geometry(self.box)
        if len(self.values) != geo.cells:
            raise PuzzleError(f"a {geo.side}x{geo.side} grid has {geo.cells} cells, not {len(self.values)}")
        if max(self.values, default=0) > geo.side:
            raise PuzzleError(f"value {max(self.values)} is larger than {geo.side}")

    def __reduce__(self) -> tuple[type[Grid], tuple[int, bytes]]:
        # Pickled as its constructor's arguments: compiled by mypyc, a frozen dataclass cannot be unpickled by
        # setting its fields one by one (the generator sends grids to its move-making processes).
        return Grid, (self.box, self.values)

    # -- making grids -------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Grid:
        """A grid from its one-line form; the size follows from the length."""
        text = text.strip()
        box = BOX_OF_LENGTH.get(len(text))
        if box is None:
            raise PuzzleError(
                f"{len(text)} symbols: a puzzle has 16, 81, 256 or 625 (4x4, 9x9, 16x16, 25x25)"
            )
        side = box * box
        values = bytearray(len(text))
        for i, ch in enumerate(text):
            v = _VALUE_OF_SYMBOL.get(ch)
            if v is None or v > side:
                raise PuzzleError(
                    f"unknown symbol {ch!r} at position {i + 1} (a {side}x{side} puzzle uses "
                    f"{SYMBOLS[0]}-{SYMBOLS[side - 1]} and blanks {' '.join(BLANKS)})"
                )
            values[i] = v
        return cls(box, bytes(values))

    @classmethod
    def from_values(cls, values: Sequence[int]) -> Grid:
        box = BOX_OF_LENGTH.get(len(values))
        if box is None:
            raise PuzzleError(f"{len(values)} cells: a grid has 16, 81, 256 or 625")
        if min(values, default=0) < 0:
            raise PuzzleError("negative values are not allowed")
        return cls(box, bytes(values))

    @classmethod
    def from_array(cls, matrix: npt.ArrayLike) -> Grid:
        """A grid from a square matrix (numpy array or nested lists), 0 = blank."""
        import numpy as np

        arr = np.asarray(matrix)
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] not in BOX_OF_SIDE:
            raise PuzzleError(f"a puzzle matrix is 4x4, 9x9, 16x16 or 25x25, not {arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer):
            if np.issubdtype(arr.dtype, np.floating):  # MATLAB style NaN blanks
                arr = np.nan_to_num(arr, nan=0.0)
                if not np.all(arr == np.round(arr)):
                    raise PuzzleError("matrix entries must be whole numbers")
            else:
                raise PuzzleError(f"matrix entries must be integers, not {arr.dtype}")
        return cls.from_values([int(v) for v in arr.ravel()])

    def to_array(self) -> npt.NDArray[np.int64]:
        """The grid as a numpy 2-D integer array, 0 for a blank."""
        import numpy as np

        n = self.side
        return np.frombuffer(self.values, dtype=np.uint8).astype(np.int64).reshape(n, n)

    def with_values(self, values: Sequence[int]) -> Grid:
        return Grid(self.box, bytes(values))

    # -- reading ------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return geometry(self.box)

    @property
    def side(self) -> int:
        return self.box * self.box

    @property
    def givens(self) -> int:
        return sum(1 for v in self.values if v)

    def empty_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.values) if not v]

    def is_full(self) -> bool:
        return all(self.values)

    def line(self) -> str:
        """The canonical one-line form: blanks as '.'."""
        return "".join(SYMBOLS[v - 1] if v else "." for v in self.values)

    def __str__(self) -> str:
        return self.line()

    def pretty(self) -> str:
        """The grid with its boxes drawn, one row a line."""
        b, n = self.box, self.side
        sym = self.line()
        bar = "+".join(["-" * (2 * b + 1)] * b)
        out = []
        for r in range(n):
            if r and r % b == 0:
                out.append(bar)
            row = sym[r * n : (r + 1) * n]
            out.append("|".join(" " + " ".join(row[c : c + b]) + " " for c in range(0, n, b)))
        return "\n".join(line.rstrip() for line in out)

    # -- checking -----------------------------------------------------------
    def conflicts(self) -> list[str]:
        """Every unit that holds one value twice, as 'two 5s in row 3'."""
        geo, n = self.geometry, self.side
        # at once first: a unit with b blanks and no repeat holds n - b values, and the blank if b > 0;
        # any other count (a repeat) is looked at unit by unit below
        for read in geo.readers:
            unit_values = read(self.values)
            blanks = unit_values.count(0)
            if len(set(unit_values)) != n - blanks + (blanks > 0):
                break
        else:
            return []
        found = []
        for name, unit in zip(geo.unit_names, geo.units, strict=True):
            seen: set[int] = set()
            for cell in unit:
                v = self.values[cell]
                if v and v in seen:
                    found.append(f"two {geo.symbol(v)}s in {name}")
                    break
                seen.add(v)
        return found

    def solution_problems(self, solution: Grid) -> list[str]:
        """Why `solution` is not a full, valid solution keeping our givens ([] if it is)."""
        if solution.box != self.box:
            return [f"the solution is {solution.side}x{solution.side}, the puzzle {self.side}x{self.side}"]
        problems = []
        blanks = solution.values.count(0)
        if blanks:
            problems.append(f"{blanks} cells are still blank")
        changed = [c for c, v in enumerate(self.values) if v and solution.values[c] != v]
        if changed:
            r, c = divmod(changed[0], self.side)
            problems.append(f"{len(changed)} givens changed (first at row {r + 1}, column {c + 1})")
        problems.extend(solution.conflicts())
        return problems

    def is_solved_by(self, solution: Grid) -> bool:
        return not self.solution_problems(solution)


def values_of(mask: int) -> list[int]:
    """The values whose bits are set in `mask`, ascending (bit v-1 = value v)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def mask_of(values: Iterable[int]) -> int:
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m
