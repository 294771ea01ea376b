"""How the page draws a puzzle's houses, cell by cell: the same marks for its drawn grids (html.py) and the
player (player.py, report.js).

- a thick border between two cells of different regions (`R` on a cell whose right neighbour is in another
  region, `B` on one whose lower neighbour is): square boxes, rectangular boxes and Jigsaw regions alike;
- a line along each diagonal that is a house (`dp`: diagonal +, bottom left to top right; `dm`: diagonal -);
- a light colour of its own for each extra region (`xr`, the colour in `--xr`) and each disjoint group (`dg`,
  in `--dg`; a cell in both shows the group's colour as a ring).

A classic grid gets its box borders alone, as it always did.
"""
from __future__ import annotations

from dataclasses import dataclass

from puzzles.grid import Layout

GOLDEN_ANGLE = 137.508  # degrees: successive hues as far apart as they can be, however many houses there are


@dataclass(frozen=True)
class CellMarks:
    """One cell's marks: its borders (`R`, `B`, both as two classes, or none), its house classes, and their
    colours (a style attribute's text, empty when it has none)."""

    edges: str
    classes: str
    style: str


def shade(index: int, offset: float) -> str:
    """The light colour of the index-th house of a kind (extra regions and disjoint groups start apart)."""
    return f"hsl({(index * GOLDEN_ANGLE + offset) % 360:.0f} 70% 86%)"


def cell_marks(lay: Layout) -> list[CellMarks]:
    """Every cell's marks, row-major."""
    n, regions = lay.side, lay.regions
    classes: list[list[str]] = [[] for _ in range(n * n)]
    styles: list[list[str]] = [[] for _ in range(n * n)]
    extra_regions = disjoint_groups = 0
    for house in lay.extras:
        if house.name.startswith("diagonal"):
            mark, colour = ("dp" if house.name.endswith("+") else "dm"), ""
        elif house.name.startswith("disjoint group"):
            mark, colour = "dg", f"--dg:{shade(disjoint_groups, 200)}"
            disjoint_groups += 1
        else:  # an extra region
            mark, colour = "xr", f"--xr:{shade(extra_regions, 20)}"
            extra_regions += 1
        for cell in house.cells:
            classes[cell].append(mark)
            if colour:
                styles[cell].append(colour)
    marks = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        right, below = cell + 1 if c < n - 1 else cell, cell + n if r < n - 1 else cell
        edges = [edge for edge, other in (("R", right), ("B", below)) if regions[other] != regions[cell]]
        marks.append(CellMarks(" ".join(edges), " ".join(classes[cell]), ";".join(styles[cell])))
    return marks


def legend(lay: Layout) -> str:
    """The houses beyond rows and columns, in words: what the marks stand for."""
    n = lay.side
    words = [f"{'boxes' if lay.box_height else 'regions'} (thick borders)"]
    names = [h.name for h in lay.extras]
    diagonals = [s for s in "+-" if f"diagonal {s}" in names]
    if diagonals:
        words.append(f"diagonal{'s' if len(diagonals) > 1 else ''} {' and '.join(diagonals)} (lines)")
    extra = sum(name.startswith("extra region") for name in names)
    if extra:
        words.append(f"{extra} extra region{'s' if extra > 1 else ''} (shaded)")
    if any(name.startswith("disjoint group") for name in names):
        words.append(f"{n} disjoint groups (shaded, a colour each)")
    return f"{lay.variant}, {n}x{n}: rows, columns, " + ", ".join(words)
