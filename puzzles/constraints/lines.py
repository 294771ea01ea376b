"""What the kinds drawn as lines share: reading f-puzzles' `lines` entries, and a random walk to draw one."""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from ..words import quoted
from .base import cell_of_name


def line_entries(value: Sequence[Any], side: int, drawing: Sequence[str],
                 extra: Sequence[str] = ()) -> Iterator[tuple[int, list[int]]]:
    """Each line of f-puzzles' entries `{"lines": [[cell names], ...]}`, with its entry's number from 1, its cells
    inside the grid; ValueError naming the entry. `drawing`: the entry's fields that only colour it; `extra`: the
    fields the kind reads itself."""
    for k, entry in enumerate(value, 1):
        lines = entry.get("lines") if isinstance(entry, dict) else None
        if not isinstance(lines, list) or not lines or not all(isinstance(line, list) and line for line in lines):
            raise ValueError(f"entry {k} has no `lines` (lists of cell names)")
        unknown = [key for key, field in entry.items()
                   if key not in ("lines", *drawing, *extra) and field is not None and field != ""]
        if unknown:  # a field nothing says holds no rule: refused, as f-puzzles' unknown fields are
            raise ValueError(f"entry {k}: field {quoted(unknown[0])} is not read by this project")
        for line in lines:
            if not all(isinstance(name, str) for name in line):
                raise ValueError(f"entry {k}: a line holds something other than cell names")
            try:
                yield k, [cell_of_name(name, side) for name in line]
            except ValueError as exc:
                raise ValueError(f"entry {k}: {exc}") from None


def king_walk(side: int, taken: set[int], rng: random.Random, length: int, start: int) -> list[int]:
    """A random walk of up to `length` cells from `start`, each king-adjacent to the one before, none in `taken`
    or twice; empty when `start` is taken."""
    if start in taken:
        return []
    line = [start]
    while len(line) < length:
        r, c = divmod(line[-1], side)
        free = [nr * side + nc for nr in (r - 1, r, r + 1) for nc in (c - 1, c, c + 1)
                if 0 <= nr < side and 0 <= nc < side and nr * side + nc not in taken and nr * side + nc not in line]
        if not free:
            break
        line.append(rng.choice(free))
    return line
