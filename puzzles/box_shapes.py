"""The boxes of a side: which sides have them and their shape, and each cell's box. Read by the layouts and by the
rules that draw on a side's boxes (a box indexer, a region-sum line), which the layouts read in turn."""
from __future__ import annotations

# Sides whose regions may be boxes: square boxes, or rectangles as f-puzzles draws them by default (the
# tallest shape no taller than wide: 6x6 in boxes 2 rows tall and 3 wide, 8x8 in 2x4, 10x10 in 2x5, 12x12 in
# 3x4). Other sides (5, 7, 11, ...) need their regions given (Jigsaw).
BOX_SHAPE = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 14: (2, 7), 15: (3, 5),
             16: (4, 4), 25: (5, 5)}


def box_regions(side: int, height: int, width: int) -> tuple[int, ...]:
    """Each cell's box, boxes `height` rows tall and `width` columns wide, numbered row-major."""
    across = side // width
    return tuple((r // height) * across + c // width for r in range(side) for c in range(side))


def side_boxes(side: int) -> tuple[int, ...]:
    """Each cell's box on a side that has boxes (`BOX_SHAPE`); ValueError on one that has none."""
    shape = BOX_SHAPE.get(side)
    if shape is None:
        raise ValueError(f"a {side}x{side} grid has no boxes: its regions are given")
    return box_regions(side, *shape)
