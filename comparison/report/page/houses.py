"""How the page draws a puzzle's houses, cell by cell: the same marks for its drawn grids (html.py) and the
player (player.py, report.js).

- a thick border between two cells of different regions (`R` on a cell whose right neighbour is in another
  region, `B` on one whose lower neighbour is): square boxes, rectangular boxes and Jigsaw regions alike;
- the houses beyond them as their kinds draw them (`Constraint.drawing` of a kind that adds houses): a `diagonal`
  a line along it (`dp`: diagonal +, bottom left to top right; `dm`: diagonal -); a `shade` a light colour of its
  own for each house, in the shading class its label names (`xr`: an extra region, the colour in `--xr`; `dg`: a
  disjoint group, in `--dg`; a cell in both shows the group's colour as a ring);
- the constraints' outlines (`Constraint.drawing`'s `outline` shapes: Killer cages) as Killer puzzles are drawn:
  a dashed outline a little inside its cells, along their boundary, and its label (a cage's total) small in the
  corner of its first cell (`cage_marks`: each cell's share of the outlines,
  as an SVG path in the cell's own units, so that a drawn grid and the player draw the same lines cell by cell,
  whatever the widths of their borders). Overlapping outlines: one that overlaps an earlier one is drawn one
  inset further in (a level deeper, three levels at most), so both show;
- a clue outside the grid (`Constraint.drawing`'s `outside` shapes: a sandwich's, an X-sum's, a skyscraper's, a little
  killer's) as f-puzzles and SudokuPad write it: its number in a margin a cell wide beside its row, column or
  diagonal (`outside_marks`: the place, `Shape.at`, one step past the grid's edge); the margins only on the sides
  that hold one, and the grid's frame then drawn by its edge cells (a grid without such clues is drawn as before);
- the constraints' other shapes as each draws itself (`Constraint.drawing`: shapes, never a kind named
  here): a `line` a thick grey line through its cells' centres, a `bulb` a grey disc on its cell, each cell's share
  as SVG path data in its own units as the cages' (`shape_marks`); a `ring` or a `dot` (Kropki's white and black
  dots) and a `letter` (XV's) on the edge two cells share, drawn by the later cell, a `circle` or a `square` (odd,
  even) in its cell, as SVG elements; a `note` (a rule of the whole grid, anti-knight) named in the legend. A shape
  of another kind is refused, naming its constraint: a rule the page does not draw is never left out unsaid.

A classic grid gets its box borders alone, as it always did.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise
from math import ceil
from typing import Protocol

from puzzles import constraints as registry  # the kinds of constraint, by name
from puzzles.constraints import Shape
from puzzles.grid import Layout
from puzzles.words import plural

GOLDEN_ANGLE = 137.508  # degrees: successive hues as far apart as they can be, however many houses there are
INSET = 0.12  # a cage's outline lies this far inside its cells (a cell's side is 1); a level deeper, twice as far
DEEPEST = 2  # overlapping cages take levels 0, 1, 2 (three insets); a cage deeper still shares the third
BULB = 0.38  # a bulb's radius (a cell's side is 1)
HUES = {"xr": 20, "dg": 200}  # where each shading class's colours start (extra regions and disjoint groups apart)


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
    shaded: dict[str, int] = {}  # per shading class, the shapes shaded so far
    for shape in house_shapes(lay):
        if shape.kind == "diagonal":
            mark, colour = ("dp" if shape.label == "+" else "dm"), ""
        else:  # shaded, a colour of its own each
            index = shaded[shape.label] = shaded.get(shape.label, -1) + 1
            mark, colour = shape.label, f"--{shape.label}:{shade(index, HUES.get(shape.label, 0))}"
        for cell in shape.cells:
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
    words = [f"{'boxes' if lay.box_height else 'regions'} (thick borders)", *house_words(lay)]
    counted: dict[str, int] = {}
    labelled: set[str] = set()  # the captions whose outlines carry a label (a cage's total)
    for shape, _ in outlines(lay):
        counted[shape.caption] = counted.get(shape.caption, 0) + 1
        if shape.label:
            labelled.add(shape.caption)
    words += [f"{count} {caption}{'s' if count > 1 else ''} (dashed outlines"
              f"{', each total in its first cell' if caption in labelled else ''})"
              for caption, count in counted.items()]
    return f"{lay.variant}, {n}x{n}: rows, columns, " + ", ".join(words + shape_words(lay))


def house_shapes(lay: Layout) -> list[Shape]:
    """The shapes the layout's houses draw (`Constraint.drawing` of the kinds that add houses), in the layout's
    order: a `diagonal` (a line from corner to corner, its label its sign) or a `shade` (its cells shaded, its label
    the shading's class, `xr` or `dg`)."""
    return [shape for rule in lay.rules if rule.KIND in registry.HOUSED for shape in rule.drawing(lay.side)]


def house_words(lay: Layout) -> list[str]:
    """The houses in the legend's words: the diagonals by their signs (`diagonals + and - (lines)`), then each
    caption of shaded houses counted (`4 extra regions (shaded)`; a rule's several, `9 disjoint groups (shaded, a
    colour each)`)."""
    signs: dict[str, list[str]] = {}  # a caption -> the signs of its diagonals
    counted: dict[str, list[int]] = {}  # a caption -> [houses, the most one rule shades]
    for rule in (rule for rule in lay.rules if rule.KIND in registry.HOUSED):
        shapes = rule.drawing(lay.side)
        for shape in shapes:
            if shape.kind == "diagonal":
                signs.setdefault(shape.caption, []).append(shape.label)
            else:
                held = counted.setdefault(shape.caption, [0, 0])
                held[0] += 1
                held[1] = max(held[1], len(shapes))
    return [f"{caption}{'s' if len(held) > 1 else ''} {' and '.join(held)} (lines)"
            for caption, held in signs.items()] \
        + [f"{count} {caption}{'s' if count > 1 else ''} (shaded{', a colour each' if most > 1 else ''})"
           for caption, (count, most) in counted.items()]


def shape_words(lay: Layout) -> list[str]:
    """The constraints in the legend's words: each caption of lines counted (`2 thermometers (grey lines, each from
    its bulb)`), then each note (a rule of the whole grid) by its name."""
    lines: dict[str, list[int]] = {}  # a caption -> [lines, bulbs]
    marked: dict[tuple[str, str], int] = {}  # (a caption, its shape in words) -> how many
    notes: list[str] = []
    for constraint in lay.constraints:  # (the outlines: `legend`)
        shapes = constraint.drawing(lay.side)
        bulbs = sum(len(shape.cells) for shape in shapes if shape.kind == "bulb")
        outside = next((shape for shape in shapes if shape.kind == "outside"), None)
        if outside is not None:  # a clue outside the grid: its number there, and the line it looks along if drawn
            along = ", a grey line along its cells" if any(shape.kind == "line" for shape in shapes) else ""
            key = (f"{outside.caption or outside.kind} clue", f"a number outside the grid{along}")
            marked[key] = marked.get(key, 0) + 1
            continue
        for shape in shapes:
            if shape.kind == "line":
                counted = lines.setdefault(shape.caption or "line", [0, 0])
                counted[0] += 1
                counted[1] += bulbs
            elif shape.kind in MARKED:
                said = IN_CELL[shape.kind] if len(shape.cells) == 1 and shape.kind in IN_CELL else MARKED[shape.kind]
                key = (shape.caption or shape.kind, said)
                marked[key] = marked.get(key, 0) + 1
            elif shape.kind == "note" and shape.caption not in notes:
                notes.append(shape.caption)
    words = [f"{plural(count, caption)} (grey line{'s' if count > 1 else ''}"
             f"{(', each from its bulb' if count > 1 else ', from its bulb') if bulbs else ''})"
             for caption, (count, bulbs) in lines.items()]
    words += [f"{plural(count, caption)} ({said})" for (caption, said), count in marked.items()]
    return words + [f"{note} (the whole grid)" for note in notes]


# -- Killer cages ------------------------------------------------------------------------------------------
Segment = tuple[float, float, float, float]  # x1, y1, x2, y2 in cells: x the column, y the row, (0, 0) top left


@dataclass(frozen=True)
class CageMarks:
    """One cell's share of the cages' drawing: the pieces of their outlines inside it (SVG path data in the
    cell's own units, 0 to 1 each way; empty when none passes), the totals written in its corner (of the cages
    whose first cell it is), and the names of the cages it is in (`cage 7 (17)`, for a tooltip)."""

    path: str
    total: str
    names: str


class Celled(Protocol):
    """Anything with cells (a cage, a shape)."""

    @property
    def cells(self) -> tuple[int, ...]: ...


def cage_levels(cages: Sequence[Celled]) -> list[int]:
    """Each outline's inset level (of a cage, or any shape with cells): 0, or one more than every earlier one it
    overlaps has taken (the least level none of them holds), so that overlapping outlines lie apart."""
    levels: list[int] = []
    for k, cage in enumerate(cages):
        cells = set(cage.cells)
        taken = {levels[j] for j in range(k) if cells.intersection(cages[j].cells)}
        levels.append(next(level for level in range(len(taken) + 1) if level not in taken))
    return levels


def cage_outline(cells: Sequence[int], side: int, inset: float = INSET) -> list[Segment]:
    """The outline of the cells drawn `inset` inside their boundary, as segments in the grid's units: each side
    of a cell that borders a cell outside the cage gives one, which reaches the cell's edge where the boundary
    runs straight on (the next cell's piece goes on from there), stops short at a corner that turns out
    (convex), and reaches `inset` into the neighbour at a corner that turns in (concave), where it meets the
    neighbour's piece. Cells that do not touch get outlines of their own."""
    held = set(cells)

    def inside(r: int, c: int) -> bool:
        return 0 <= r < side and 0 <= c < side and r * side + c in held

    def end(along: bool, diagonal: bool, edge: float, step: int) -> float:
        """Where a side's piece ends at one of its corners: `along`, the next cell on is in the cage;
        `diagonal`, the cell beyond the side there is too; `edge` the corner's coordinate, `step` outwards."""
        if not along:
            return edge - step * inset
        return edge + step * inset if diagonal else edge

    segments: list[Segment] = []
    for cell in sorted(held):
        r, c = divmod(cell, side)
        for dr in (-1, 1):  # the top and bottom sides: horizontal pieces
            if not inside(r + dr, c):
                y = r + inset if dr < 0 else r + 1 - inset
                x1 = end(inside(r, c - 1), inside(r + dr, c - 1), c, -1)
                x2 = end(inside(r, c + 1), inside(r + dr, c + 1), c + 1, 1)
                segments.append((x1, y, x2, y))
        for dc in (-1, 1):  # the left and right sides: vertical pieces
            if not inside(r, c + dc):
                x = c + inset if dc < 0 else c + 1 - inset
                y1 = end(inside(r - 1, c), inside(r - 1, c + dc), r, -1)
                y2 = end(inside(r + 1, c), inside(r + 1, c + dc), r + 1, 1)
                segments.append((x, y1, x, y2))
    return segments


def cell_pieces(segment: Segment) -> list[tuple[int, int, Segment]]:
    """A segment (horizontal or vertical) cut where it crosses from one cell into the next: (row, column, the
    piece in that cell's own units)."""
    x1, y1, x2, y2 = segment
    horizontal = y1 == y2
    fixed, lo, hi = (y1, x1, x2) if horizontal else (x1, y1, y2)
    home = int(fixed)  # the row (of a horizontal piece) or column it runs in: never on a grid line
    pieces = []
    cuts = [lo, *(float(k) for k in range(int(lo) + 1, ceil(hi)) if lo < k < hi), hi]
    for a, b in pairwise(cuts):
        if b - a < 1e-9:
            continue
        at = int(a)  # the cell the piece runs across: [at, at + 1) holds a..b
        if horizontal:
            pieces.append((home, at, (a - at, fixed - home, b - at, fixed - home)))
        else:
            pieces.append((at, home, (fixed - home, a - at, fixed - home, b - at)))
    return pieces


def path_of(segments: Sequence[Segment]) -> str:
    """Segments as SVG path data: a move and a line for each."""
    return "".join(f"M{number(x1)} {number(y1)}L{number(x2)} {number(y2)}" for x1, y1, x2, y2 in segments)


def number(value: float) -> str:
    """A coordinate short: 0.12, 1, -0.12."""
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def outlines(lay: Layout) -> list[tuple[Shape, str]]:
    """The outlines the layout's constraints draw (`outline` shapes: Killer cages'), each with its constraint's name
    (`cage 7 (17)`), in the layout's order."""
    return [(shape, name) for constraint, name in zip(lay.constraints, registry.names(lay.constraints, lay.side),
                                                      strict=True)
            for shape in constraint.drawing(lay.side) if shape.kind == "outline"]


def drawn_outlined(lay: Layout) -> bool:
    """Whether a constraint of the layout draws an outline."""
    return any(shape.kind == "outline" for c in lay.constraints for shape in c.drawing(lay.side))


def drawn_shaped(lay: Layout) -> bool:
    """Whether a constraint of the layout draws a shape other than an outline (a line, a bulb, a note)."""
    return any(shape.kind != "outline" for c in lay.constraints for shape in c.drawing(lay.side))


def cage_marks(lay: Layout) -> list[CageMarks]:
    """Every cell's share of the outlines' drawing, row-major (all empty when the layout draws none)."""
    n = lay.side
    pieces: list[list[Segment]] = [[] for _ in range(n * n)]
    totals: list[list[str]] = [[] for _ in range(n * n)]
    names: list[list[str]] = [[] for _ in range(n * n)]
    drawn = outlines(lay)
    for (shape, name), level in zip(drawn, cage_levels([shape for shape, _ in drawn]), strict=True):
        for segment in cage_outline(shape.cells, n, INSET * (min(level, DEEPEST) + 1)):
            for r, c, piece in cell_pieces(segment):
                pieces[r * n + c].append(piece)
        if shape.label:
            totals[min(shape.cells)].append(shape.label)
        for cell in shape.cells:
            names[cell].append(name)
    return [CageMarks(path_of(pieces[cell]), " ".join(totals[cell]), ", ".join(names[cell]))
            for cell in range(n * n)]


# -- the constraints' shapes -----------------------------------------------------------------------------
@dataclass(frozen=True)
class ShapeMarks:
    """One cell's share of the constraints' drawing: the pieces of their lines inside it (SVG path data in the
    cell's own units, from its centre halfway to the line's next and previous cells), the discs on it (a bulb, as
    path data too), and the names of the constraints drawn on it (`thermometer 2 (R4C1)`, for a tooltip)."""

    lines: str
    discs: str
    names: str
    marks: str = ""  # SVG elements: the dots and letters between two cells, the circles and squares in one


# what the page draws for a shape of two neighbours (at their shared edge) or of one cell (at its centre), and how
# the legend says it: a white dot, a black dot, a letter (XV), a grey circle (odd), a grey square (even), a grey
# diamond (a lockout line's end)
MARKED = {"ring": "a white circle between two cells", "dot": "a black circle between two cells",
          "letter": "its letter between two cells", "circle": "a grey circle in the cell",
          "square": "a grey square in the cell", "diamond": "a grey diamond in the cell"}
IN_CELL = {"letter": "its letters in the cell"}  # a mark of one cell drawn at its centre, where MARKED says an edge
DOT = 0.13  # a dot's radius, in cells


def mark(kind: str, x: float, y: float, label: str) -> str:
    """The SVG of one mark centred at (x, y) in a cell's units, its label written on it."""
    at = f'cx="{number(x)}" cy="{number(y)}"'
    if kind in ("ring", "dot"):
        drawn = f'<circle class="{kind}" {at} r="{number(DOT)}"/>'
    elif kind == "circle":
        drawn = f'<circle class="odd" {at} r="0.4"/>'
    elif kind == "square":
        drawn = f'<rect class="even" x="{number(x - 0.4)}" y="{number(y - 0.4)}" width="0.8" height="0.8"/>'
    elif kind == "diamond":
        drawn = (f'<polygon class="diamond" points="{number(x)},{number(y - 0.4)} {number(x + 0.4)},{number(y)} '
                 f'{number(x)},{number(y + 0.4)} {number(x - 0.4)},{number(y)}"/>')
    else:
        drawn = ""
    text = f'<text class="{kind}" x="{number(x)}" y="{number(y)}">{escape(label)}</text>' if label else ""
    return drawn + text


def disc(radius: float = BULB) -> str:
    """A disc at the cell's centre as path data: two half circles."""
    r = number(radius)
    return f"M{number(0.5 - radius)} 0.5a{r} {r} 0 1 0 {number(2 * radius)} 0a{r} {r} 0 1 0 {number(-2 * radius)} 0"


def shape_marks(lay: Layout) -> list[ShapeMarks]:
    """Every cell's share of the constraints' shapes, row-major (all empty when none is drawn on the cells)."""
    n = lay.side
    pieces: list[list[Segment]] = [[] for _ in range(n * n)]
    discs: list[list[str]] = [[] for _ in range(n * n)]
    marks: list[list[str]] = [[] for _ in range(n * n)]
    names: list[list[str]] = [[] for _ in range(n * n)]
    for constraint, name in zip(lay.constraints, registry.names(lay.constraints, n), strict=True):
        for shape in constraint.drawing(n):
            if shape.kind == "line":
                for a, b in pairwise(shape.cells):  # each cell draws its half of the step, so the pieces meet
                    dx, dy = (b % n - a % n) / 2, (b // n - a // n) / 2
                    pieces[a].append((0.5, 0.5, 0.5 + dx, 0.5 + dy))
                    pieces[b].append((0.5 - dx, 0.5 - dy, 0.5, 0.5))
            elif shape.kind == "bulb":
                for cell in shape.cells:
                    discs[cell].append(disc())
            elif shape.kind in MARKED and len(shape.cells) == 2:  # on the edge the two cells share
                # drawn by the later cell, whose drawing comes over the earlier one's, the mark whole across the edge
                a, b = sorted(shape.cells)
                marks[b].append(mark(shape.kind, 0.5 + (a % n - b % n) / 2, 0.5 + (a // n - b // n) / 2, shape.label))
            elif shape.kind in MARKED:
                for cell in shape.cells:
                    marks[cell].append(mark(shape.kind, 0.5, 0.5, shape.label))
            elif shape.kind in ("note", "outline"):  # the legend names a note; `cage_marks` draws the outlines
                continue
            elif shape.kind == "outside" and shape.at is not None:  # `outside_marks` writes it; its cells name it
                pass
            else:  # a shape this page cannot draw is no shape to leave out unsaid
                raise ValueError(f"{name}: the page draws no {shape.kind!r} shape")
            for cell in shape.cells:
                if name not in names[cell]:
                    names[cell].append(name)
    return [ShapeMarks(path_of(pieces[cell]), "".join(discs[cell]), ", ".join(names[cell]), "".join(marks[cell]))
            for cell in range(n * n)]


# -- clues outside the grid ------------------------------------------------------------------------------
@dataclass(frozen=True)
class OutsideMark:
    """What is written at one place just outside the grid (`Shape.at`: its row and column, one of them -1 or the
    side): the labels of the `outside` shapes there (several clues at one place: side by side), and the names of
    their constraints (`sandwich 1 (12 at R0C3)`, for a tooltip)."""

    row: int
    column: int
    text: str
    names: str


@dataclass(frozen=True)
class Margins:
    """The sides of the grid that clues outside it are written on: a margin of one cell's width each."""

    top: bool = False
    bottom: bool = False
    left: bool = False
    right: bool = False

    def rows(self, side: int) -> list[int]:
        """The rows drawn, from the top margin's (-1) to the bottom margin's (side)."""
        return [*([-1] if self.top else []), *range(side), *([side] if self.bottom else [])]

    def columns(self, side: int) -> list[int]:
        return [*([-1] if self.left else []), *range(side), *([side] if self.right else [])]


def outside_marks(lay: Layout) -> list[OutsideMark]:
    """The clues written outside the grid (the constraints' `outside` shapes), one mark a place, in the order of
    the places (top to bottom, left to right); none when no constraint writes one."""
    n = lay.side
    held: dict[tuple[int, int], tuple[list[str], list[str]]] = {}
    for constraint, name in zip(lay.constraints, registry.names(lay.constraints, n), strict=True):
        for shape in constraint.drawing(n):
            if shape.kind == "outside" and shape.at is not None:
                r, c = shape.at
                if (0 <= r < n and 0 <= c < n) or not (-1 <= r <= n and -1 <= c <= n):
                    raise ValueError(f"{name}: its clue's place r{r + 1}c{c + 1} is not just outside the grid")
                labels, names = held.setdefault((r, c), ([], []))
                labels.append(shape.label)
                names.append(name)
    return [OutsideMark(r, c, " ".join(labels), ", ".join(names)) for (r, c), (labels, names) in sorted(held.items())]


def margins(marks: Sequence[OutsideMark], side: int) -> Margins:
    """The sides the marks are written on (a corner's mark: both of its sides)."""
    return Margins(top=any(m.row < 0 for m in marks), bottom=any(m.row == side for m in marks),
                   left=any(m.column < 0 for m in marks), right=any(m.column == side for m in marks))
