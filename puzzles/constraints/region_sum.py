"""A region-sum line (f-puzzles' `regionsumline`, entries `{"lines": [[cell names], ...]}`, each line one constraint
here): the line's cells fall into segments, each a run of the line's cells in one region (a line that leaves a
region and comes back has two segments there), and every segment sums to the same total. A line within one region
says nothing. The regions are the layout's (boxes, or a Jigsaw's), as SudokuVariantSolverJS reads the format: read
from a word or a field the line has none until the layout is made (`in_regions`).

No set of pairs and no room (which values its empty cells may take depends on where each placed value is), so it
is kept by its filter (`SCOPED`): a candidate stays when some total is reached by its segment with it and by every
other segment, each cell one of its candidates (generalised arc consistency, by sums.py's reachable sums).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..box_shapes import side_boxes
from .base import DRAWING, Constraint, Move, Removal, Scoped, Shape, a_list, cell_name, cell_of_name, cells_problem
from .lines import king_walk, line_entries
from .sums import sum_supports, values_in


@dataclass(frozen=True)
class RegionSumLine(Scoped):
    """`cells`: the line's cells in order; `regions`: each cell's region, the layout's (none until a layout is
    made)."""

    cells: tuple[int, ...]
    regions: tuple[int, ...] = ()

    KIND = FIELD = "regionsumline"
    WORD = "rsl="
    RELABELS = False  # relabelling the values changes the sums

    def in_regions(self, regions: Sequence[int]) -> Constraint:
        return self if self.regions == tuple(regions) else RegionSumLine(self.cells, tuple(regions))

    def segments(self) -> list[tuple[int, ...]]:
        """The runs of the line's cells in one region, in order (none without regions)."""
        if not self.regions:
            return []
        found: list[list[int]] = []
        for c in self.cells:
            if found and self.regions[found[-1][-1]] == self.regions[c]:
                found[-1].append(c)
            else:
                found.append([c])
        return [tuple(segment) for segment in found]

    def differences(self) -> list[tuple[tuple[int, int], ...]]:
        """Its rule as weighted sums that equal 0: each segment after the first less the first (cell, weight)."""
        segments = self.segments()
        if len(segments) < 2:
            return []
        return [(*((c, 1) for c in segment), *((c, -1) for c in segments[0])) for segment in segments[1:]]

    def scope(self) -> tuple[int, ...]:
        return self.cells

    def narrows(self, side: int) -> bool:
        return len(self.segments()) > 1

    def narrow(self, masks: Sequence[int], side: int, by: str = "") -> list[Removal]:
        """Each value of a cell that no total reached by every segment allows (its segment reaching that total with
        it), the values the line's other cells lost as the reason; no common total: every cell loses every value."""
        segments = self.segments()
        if len(segments) < 2:
            return []
        reach = [_sums([masks[c] for c in segment]) for segment in segments]
        totals = set.intersection(*reach)
        full = (1 << side) - 1
        kept = {c: 0 for c in self.cells}
        for segment in segments:
            domains = [masks[c] for c in segment]
            for total in totals:
                for c, keep in zip(segment, sum_supports(domains, [1] * len(segment), total), strict=True):
                    kept[c] |= keep
        lost = [(c, full & ~masks[c]) for c in self.cells if full & ~masks[c]]
        return [Removal(c, masks[c] & ~kept[c], by, tuple(x for x in lost if x[0] != c))
                for c in self.cells if masks[c] & ~kept[c]]

    # -- reading and writing ---------------------------------------------------------------------------------

    @classmethod
    def of_word(cls, word: str, side: int) -> list[Constraint] | None:
        """`rsl=R1C1,R1C2,...`: the line's cells in order."""
        key, eq, value = word.partition("=")
        if key + eq != cls.WORD:
            return None
        line = cls(tuple(cell_of_name(name, side) for name in value.split(",")))
        problem = cells_problem(line.cells, side)
        if problem is not None:
            raise ValueError(f"region-sum line from {cell_name(line.cells[0], side)} {problem}")
        return [line]

    def word(self, side: int) -> str:
        return self.WORD + ",".join(cell_name(c, side) for c in self.cells)

    @classmethod
    def of_field(cls, value: Any, side: int) -> list[Constraint]:
        """f-puzzles' `regionsumline`: a list of entries `{"lines": [[cell names], ...]}`, a line a constraint."""
        a_list(value, "region-sum lines")
        found: list[Constraint] = []
        for k, line in line_entries(value, side, DRAWING):
            problem = cells_problem(line, side)
            if problem is not None:
                raise ValueError(f"entry {k}: its line from {cell_name(line[0], side)} {problem}")
            found.append(cls(tuple(line)))
        return found

    def field_entry(self, side: int) -> Any:
        return {"lines": [[cell_name(c, side) for c in self.cells]]}

    @classmethod
    def drawn(cls, values: Sequence[int], side: int, rng: random.Random) -> list[Constraint]:
        """Random region-sum lines the full grid `values` keeps on the side's boxes, none sharing a cell: random
        walks between king-adjacent cells, each cut to its longest start whose segments (two or more) have one sum;
        n/3 to n/2 + 1 of them, fewer where the tries find none."""
        regions = side_boxes(side)
        wanted, taken = rng.randint(max(1, side // 3), side // 2 + 1), set[int]()
        found: list[Constraint] = []
        for _ in range(60 * wanted):
            if len(found) == wanted:
                break
            walk = king_walk(side, taken, rng, rng.randint(3, side + 2), rng.randrange(side * side))
            for end in range(len(walk), 1, -1):
                line = cls(tuple(walk[:end]), regions)
                segments = line.segments()
                if len(segments) > 1 and len({sum(values[c] for c in s) for s in segments}) == 1:
                    taken.update(line.cells)
                    found.append(cls(line.cells))
                    break
        return found

    # -- the rule ------------------------------------------------------------------------------------------------

    def violations(self, values: Sequence[int], side: int, index: int = 0) -> list[str]:
        """Full, segments of different sums; partly filled, values that leave it no common total."""
        name = self.name(index, side)
        segments = self.segments()
        if len(segments) < 2:
            return []
        if all(values[c] for c in self.cells):
            sums = [sum(values[c] for c in segment) for segment in segments]
            if len(set(sums)) == 1:
                return []
            return [f"{name}: its segments in the regions sum to {', '.join(map(str, sums))}"]
        return [f"{name}: the values on it leave its segments no common sum"] \
            if self.unfillable(values, side) else []

    def moved(self, move: Move) -> Constraint:
        regions = list(self.regions)
        for c, region in enumerate(self.regions):
            regions[move(c)] = region
        return RegionSumLine(tuple(move(c) for c in self.cells), tuple(regions))

    def name(self, index: int, side: int) -> str:
        return f"region-sum line {index + 1} ({cell_name(self.cells[0], side)})"

    def problem(self, side: int) -> str | None:
        if (problem := cells_problem(self.cells, side)) is not None:
            return problem
        if len(self.regions) != side * side:
            return "has no regions to sum in"
        return None

    def drawing(self, side: int) -> tuple[Shape, ...]:
        return (Shape("line", self.cells, "region-sum line"),)


def _sums(domains: Sequence[int]) -> set[int]:
    """The sums one value of each domain reaches."""
    reached = {0}
    for domain in domains:
        reached = {s + v for s in reached for v in values_in(domain)}
    return reached
