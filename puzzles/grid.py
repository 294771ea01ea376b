"""The Sudoku grid: its layout of houses, their geometry, and an immutable Grid.

A grid of side n (4 to 25) has n*n cells numbered row-major from 0, each holding 0 (blank) or a value 1..n.
Its houses (cell sets that hold every value once) are its rows, its columns, its n regions (square boxes in
classic Sudoku, rectangles on sides that are not squares, any connected shapes in Jigsaw) and any extra
houses of the Sudoku family (the diagonals of Sudoku-X, extra regions, disjoint groups): a `Layout`. The
geometry (each house's cells, each cell's houses and peers) depends only on the layout, so it is computed
once per layout and shared by every grid.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .constraints import links_by_cell, violations
from .kept import kept

# the layouts' names a grid's users meet, exported from here too (a puzzle's error, its symbols, its layout)
from .layouts import BOX_SHAPE, MAX_SIDE, MIN_SIDE, SIDE_OF_LENGTH, layout_of_words, words_of_layout
from .layouts import SYMBOLS as SYMBOLS
from .layouts import Layout as Layout
from .layouts import PuzzleError as PuzzleError
from .layouts import boxes as boxes
from .layouts import classic as classic

if TYPE_CHECKING:  # numpy is imported only by the two methods that use it
    import numpy as np
    import numpy.typing as npt

BLANKS = ".0_"
BOX_OF_LENGTH = {16: 2, 81: 3, 256: 4, 625: 5}  # classic puzzle length -> box size
BOX_OF_SIDE = {4: 2, 9: 3, 16: 4, 25: 5}
_VALUE_OF_SYMBOL = {s: v for v, s in enumerate(SYMBOLS, 1)}
_VALUE_OF_SYMBOL.update({s.lower(): v for v, s in enumerate(SYMBOLS, 1) if s.isalpha()})
_VALUE_OF_SYMBOL.update({b: 0 for b in BLANKS})
# per byte of an ASCII symbol, its value (a blank's 0); NOT_A_SYMBOL for any other byte
NOT_A_SYMBOL = 255
_VALUE_OF_BYTE = bytes(_VALUE_OF_SYMBOL.get(chr(b), NOT_A_SYMBOL) for b in range(256))


@dataclass(frozen=True, eq=False)
class Geometry:
    """The houses of a layout as the searches read them: every cell's row, column and region, its extra
    houses, and its peers.

    Units are numbered rows first (0..n-1), then columns (n..2n-1), then regions (2n..3n-1, row-major for
    boxes), then the layout's extra houses in order. Build it with `geometry(layout)`.
    """

    layout: Layout
    side: int
    cells: int
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    row_of: tuple[int, ...]  # unit index of each cell's row, column, region
    col_of: tuple[int, ...]
    region_of: tuple[int, ...]
    extra_of: tuple[tuple[int, ...], ...]  # unit indices of each cell's extra houses (none in classic Sudoku)
    peers: tuple[tuple[int, ...], ...]
    full: int  # the bitmask holding every value
    # per cell, the layout's constraints' links from it (puzzles/constraints/): each linked cell and, indexed by
    # this cell's value, the values that value forbids there; `links_in`, the same read from the other end (each
    # cell linked to this one, and what its value forbids here); none in the Sudoku family
    links: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    links_in: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]

    @property
    def box(self) -> int:
        return self.layout.box

    def units_of(self, cell: int) -> tuple[int, ...]:
        return (self.row_of[cell], self.col_of[cell], self.region_of[cell], *self.extra_of[cell])

    def symbol(self, value: int) -> str:
        return SYMBOLS[value - 1] if value else "."


@kept()
def geometry(of: int | Layout) -> Geometry:
    """The geometry of a layout (or of classic Sudoku with this box size)."""
    lay = classic(of) if isinstance(of, int) else of
    n = lay.side
    houses = lay.houses
    if houses is not lay:  # the houses' geometry, with this layout's links: every Killer of a file shares its houses
        base = geometry(houses)
        return Geometry(lay, n, base.cells, base.units, base.unit_names, base.row_of, base.col_of, base.region_of,
                        base.extra_of, base.peers, base.full, *links_by_cell(lay.constraints, n))
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    regions = [tuple(c for c in range(n * n) if lay.regions[c] == k) for k in range(n)]
    units = tuple(rows + cols + regions + [h.cells for h in lay.extras])
    region_word = "box" if lay.box_height else "region"
    names = tuple(
        [f"row {i + 1}" for i in range(n)]
        + [f"column {i + 1}" for i in range(n)]
        + [f"{region_word} {i + 1}" for i in range(n)]
        + [h.name for h in lay.extras]
    )
    row_of = tuple(cell // n for cell in range(n * n))
    col_of = tuple(n + cell % n for cell in range(n * n))
    region_of = tuple(2 * n + lay.regions[cell] for cell in range(n * n))
    extra_of = tuple(tuple(3 * n + i for i, h in enumerate(lay.extras) if cell in h.cells) for cell in range(n * n))
    peers = tuple(
        tuple(sorted({p for u in (row_of[c], col_of[c], region_of[c], *extra_of[c]) for p in units[u]} - {c}))
        for c in range(n * n)
    )
    return Geometry(lay, n, n * n, units, names, row_of, col_of, region_of, extra_of, peers, (1 << n) - 1,
                    *links_by_cell(lay.constraints, n))


@dataclass(frozen=True)
class Crossings:
    """Where two houses cross in two cells or more (a line and a box in classic Sudoku; a diagonal, a Jigsaw
    region or an extra region make others; two houses of the same cells, a Jigsaw region that is a row, are one
    house twice, no crossing), and what lies around each crossing: read by search/rules.py's locked_candidates,
    by cdcl's propagation (search/learning.py) and by the SAT encoding's groups (formulations/cnf.py). A row and
    a column share one cell: a value locked there is a single, not this rule's. Crossings are ordered by their
    first house, then their second (the first's index smaller: in classic Sudoku, the line)."""

    cells: tuple[tuple[int, ...], ...]  # per crossing, its cells
    first: tuple[int, ...]  # per crossing, its first house (an index into geo.units) ...
    second: tuple[int, ...]  # ... and its second
    first_rest: tuple[tuple[int, ...], ...]  # per crossing, the first house's cells outside it
    second_rest: tuple[tuple[int, ...], ...]  # per crossing, the second house's cells outside it
    of_unit: tuple[tuple[int, ...], ...]  # per unit, the crossings it is one of the houses of


@kept()
def crossings(geo: Geometry) -> Crossings:
    units = [set(unit) for unit in geo.units]
    keys = [(a, b) for a in range(len(units)) for b in range(a + 1, len(units))
            if 2 <= len(units[a] & units[b]) < len(units[a])]
    return Crossings(
        cells=tuple(tuple(sorted(units[a] & units[b])) for a, b in keys),
        first=tuple(a for a, _ in keys),
        second=tuple(b for _, b in keys),
        first_rest=tuple(tuple(c for c in geo.units[a] if c not in units[b]) for a, b in keys),
        second_rest=tuple(tuple(c for c in geo.units[b] if c not in units[a]) for a, b in keys),
        of_unit=tuple(tuple(s for s, key in enumerate(keys) if u in key) for u in range(len(units))),
    )


@dataclass(frozen=True)
class Grid:
    """An immutable grid: its layout (which cells form its houses) and n*n values (0 = blank), row-major."""

    layout: Layout
    values: bytes

    def __post_init__(self) -> None:
        n = self.layout.side
        if len(self.values) != n * n:
            raise PuzzleError(f"a {n}x{n} grid has {n * n} cells, not {len(self.values)}")
        if max(self.values, default=0) > n:
            raise PuzzleError(f"value {max(self.values)} is larger than {n}")

    def __reduce__(self) -> tuple[type[Grid], tuple[Layout, bytes]]:
        # Pickled as its constructor's arguments: compiled by mypyc, a frozen dataclass cannot be unpickled by
        # setting its fields one by one (the generator sends grids to its move-making processes).
        return Grid, (self.layout, self.values)

    # -- making grids -------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Grid:
        """A grid from its one-line form (`text()`): n*n symbols, the side following from the length, then,
        for a puzzle of the Sudoku family, its houses (puzzles/layouts.py reads them)."""
        text = text.strip()
        symbols, _, houses = text.partition(";")
        side = SIDE_OF_LENGTH.get(len(symbols))
        root = math.isqrt(len(symbols))
        if side is None and not houses and root * root == len(symbols) and MIN_SIDE <= root <= MAX_SIDE:
            raise PuzzleError(f"{len(symbols)} symbols: a {root}x{root} puzzle, but a {root}x{root} grid has no boxes: "
                              "give its regions after the symbols (`;r=`, docs/reference/puzzle-files.md)")
        if side is None and not houses:
            raise PuzzleError(
                f"{len(symbols)} symbols: a puzzle has 16, 81, 256 or 625 (4x4, 9x9, 16x16, 25x25)"
            )  # (or another side's n*n: docs/reference/puzzle-files.md lists them; the common sizes suffice here)
        if houses:
            lay = layout_of_words(houses, len(symbols))
        else:
            assert side is not None
            lay = boxes(side)
        side = lay.side
        values = symbols.encode("ascii", "replace").translate(_VALUE_OF_BYTE)  # at once; a wrong one said below
        if max(values, default=0) > side:
            for i, ch in enumerate(symbols):
                v = _VALUE_OF_SYMBOL.get(ch)
                if v is None or v > side:
                    raise PuzzleError(
                        f"unknown symbol {ch!r} at position {i + 1} (a {side}x{side} puzzle uses "
                        f"{SYMBOLS[0]}-{SYMBOLS[side - 1]} and blanks {' '.join(BLANKS)})"
                    )
        return cls(lay, values)

    @classmethod
    def from_values(cls, values: Sequence[int], lay: Layout | None = None) -> Grid:
        """A grid from n*n values (0 = blank); its layout the boxes of that side unless one is given."""
        if lay is None:
            side = SIDE_OF_LENGTH.get(len(values))
            if side is None:
                raise PuzzleError(f"{len(values)} cells: a grid has 16, 81, 256 or 625")
            lay = boxes(side)
        if min(values, default=0) < 0:
            raise PuzzleError("negative values are not allowed")
        return cls(lay, bytes(values))

    @classmethod
    def from_array(cls, matrix: npt.ArrayLike) -> Grid:
        """A grid from a square matrix (numpy array or nested lists), 0 = blank."""
        import numpy as np

        arr = np.asarray(matrix)
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] not in BOX_SHAPE:
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
        """The same puzzle's layout with other values."""
        return Grid(self.layout, bytes(values))

    # -- reading ------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return geometry(self.layout)

    @property
    def side(self) -> int:
        return self.layout.side

    @property
    def box(self) -> int:
        """The side of its square boxes; 0 when its regions are not square boxes."""
        return self.layout.box

    @property
    def givens(self) -> int:
        return sum(1 for v in self.values if v)

    def empty_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.values) if not v]

    def is_full(self) -> bool:
        return all(self.values)

    def line(self) -> str:
        """Its values in one line, blanks as '.' (a solution's form, and a classic puzzle's whole form)."""
        return "".join(SYMBOLS[v - 1] if v else "." for v in self.values)

    def text(self) -> str:
        """The whole puzzle in one line: its values, then its houses where they are not the boxes of its side
        (`Grid.parse` reads it back; docs/reference/puzzle-files.md)."""
        words = words_of_layout(self.layout)
        return f"{self.line()};{words}" if words else self.line()

    def __str__(self) -> str:
        return self.line()

    def pretty(self) -> str:
        """The grid with its boxes drawn, one row a line."""
        h, w, n = self.layout.box_height or self.side, self.layout.box_width or self.side, self.side
        sym = self.line()
        bar = "+".join(["-" * (2 * w + 1)] * (n // w))
        out = []
        for r in range(n):
            if r and r % h == 0:
                out.append(bar)
            row = sym[r * n : (r + 1) * n]
            out.append("|".join(" " + " ".join(row[c : c + w]) + " " for c in range(0, n, w)))
        return "\n".join(line.rstrip() for line in out)

    # -- checking -----------------------------------------------------------
    def conflicts(self) -> list[str]:
        """Every unit that holds one value twice, as 'two 5s in row 3', then every way the values break a
        constraint (puzzles/constraints/, in the layout's order: first the Killer cages, 'two 5s in cage 4 (17)',
        'cage 4 (17) sums to 16'; then the pairs of cells that break a rule)."""
        found = self._house_conflicts()
        if self.layout.constraints:
            found += violations(self.layout.constraints, self.values, self.side)
        return found

    def _house_conflicts(self) -> list[str]:
        geo, values = self.geometry, self.values
        for unit in geo.units:  # at once first, a value a bit: any repeat is looked at unit by unit below
            held = 0
            for cell in unit:
                bit = 1 << values[cell]
                if held & bit > 1:  # (bit 0, a blank's, may repeat)
                    break
                held |= bit
            else:
                continue
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
        if solution.side != self.side:
            return [f"the solution is {solution.side}x{solution.side}, the puzzle {self.side}x{self.side}"]
        problems = []
        blanks = solution.values.count(0)
        if blanks:
            problems.append(f"{blanks} cells are still blank")
        changed = [c for c, v in enumerate(self.values) if v and solution.values[c] != v]
        if changed:
            r, c = divmod(changed[0], self.side)
            problems.append(f"{len(changed)} givens changed (first at row {r + 1}, column {c + 1})")
        problems.extend(self.with_values(solution.values).conflicts())  # in this puzzle's houses, not the answer's
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
