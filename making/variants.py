"""What the generator and the fuzzer make puzzles of: a variant of the Sudoku family at a side (`Variant`), and
the Jigsaw regions they draw for it (`random_regions`).

A variant's layout is fixed (X, Windoku, ... on the side's boxes), except a Jigsaw's: each puzzle gets regions of
its own, drawn at random. A Killer's cages are drawn for each puzzle over its solution
(puzzles/constraints/killer_maker.py), so a Killer variant's `layout` is its houses alone (`killer+x`: X's;
`killer+jigsaw`: regions drawn), the layout the Killer kinds of making/kinds.py put cages on. A variant may hold
constraints (puzzles/constraints/): a rule of the whole grid (`antiknight`) is part of its fixed layout, which SAT's
random full grids keep; a kind whose instances are each puzzle's own (`thermometer`) is drawn for each puzzle, by
the kind (`Constraint.drawn`), over a random full grid of the rest of the layout, so that the layout has a solution;
a kind whose meaning reads the others' (a negative rule: every dot of their kinds) is drawn after them, beside what
they drew (`Constraint.drawn_beside`); the puzzle is then made on it as on any.

Jigsaw regions are drawn by a random walk over partitions, not from a uniform distribution. The walk starts from
the side's boxes (from its rows on a side without boxes: 5, 7, 11, 13) and keeps SWAPS_PER_CELL_AND_SIDE * n
swaps a cell (18 a cell at 9x9, 32 at 16x16): a random cell on the border of its region A and a neighbouring
region B goes to B, a random cell of B that touches A goes to A, and the swap is kept only when both regions
stay connected (their sizes never change). Then the layout must admit a solution (SAT, with the variant's
extra houses); if it does not, or if the walk ended on regions that are boxes of some shape, the walk goes on
for another n*n swaps and the layout is checked again. So every layout drawn is n connected regions of n cells
that has a solution, and the same seed draws the same layouts.

What the distribution is, honestly: the walk's stationary distribution over partitions is not known (not
uniform: a swap that would cut a long thin region apart is refused, so compact regions are favoured), nor is
it shown to reach every partition. What was measured is that it forgets where it started: a region shares on
average 5.0 of its 9 cells with the box it overlaps most at 9x9 (9 for the boxes; 5.0 too after ten times
as many swaps from the rows), 8.2 of 16 at 16x16 (8.2 from the rows), 3.5 of 6 at 6x6 (3.7). Of the layouts
the walk reached, 2.1% had no solution at 9x9 (of 1,000), 6% at 6x6 (of 500), none of 60 at 16x16. Variety
enough for a benchmark and a fuzzer, not a sample of "all Jigsaw layouts".
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from puzzles.constraints import CONSTRAINT_KINDS, MAKING, Constraint
from puzzles.constraints.base import adjacent, connected
from puzzles.layouts import BOX_SHAPE, MIN_SIDE, Layout, PuzzleError, boxes, layout, named

from .solutions import random_solution, solvable

SWAPS_PER_CELL_AND_SIDE = 2  # swaps kept by the walk: this many per cell, times the side (2*9 a cell at 9x9)
LARGEST_VARIANT = 16  # variants are made up to 16x16 (classic Sudoku up to 25x25)
ROUNDS = 40  # rounds of swaps a variant's regions get to admit a solution before it is called unsupported


def random_regions(side: int, rng: random.Random, swaps: int = 0) -> list[int]:
    """Each cell's region after `swaps` kept swaps (default SWAPS_PER_CELL_AND_SIDE * side a cell) of the walk
    from the boxes (the module's docstring says how)."""
    regions = list(boxes(side).regions if side in BOX_SHAPE else (c // side for c in range(side * side)))
    walk(regions, side, swaps or SWAPS_PER_CELL_AND_SIDE * side**3, rng)
    return regions


def walk(regions: list[int], side: int, swaps: int, rng: random.Random) -> None:
    """`swaps` kept swaps of cells between neighbouring regions, both staying connected (in place)."""
    around = adjacent(side)
    members = [set[int]() for _ in range(side)]
    for cell, region in enumerate(regions):
        members[region].add(cell)
    kept = 0
    while kept < swaps:
        cell = rng.randrange(side * side)
        a = regions[cell]
        others = [n for n in around[cell] if regions[n] != a]
        if not others:
            continue  # inside its region: no border here
        b = regions[rng.choice(others)]
        # a cell of B that will touch A once `cell` has left it, `cell` touching B's rest once it has left B: any
        # cell of B but the one B cell beside `cell`, if there is only one
        beside = [n for n in around[cell] if regions[n] == b]
        lone = beside[0] if len(beside) == 1 else -1
        touching_a = {n for x in members[a] if x != cell for n in around[x]}
        back = [c for c in sorted(members[b]) if c != lone and c in touching_a]
        if not back:
            continue
        other = rng.choice(back)
        moved_a = members[a] - {cell} | {other}
        moved_b = members[b] - {other} | {cell}
        if connected(moved_a, around) and connected(moved_b, around):
            members[a], members[b] = moved_a, moved_b
            regions[cell], regions[other] = b, a
            kept += 1


def jigsaw_layout(variant: str, side: int, rng: random.Random) -> Layout:
    """A layout of a Jigsaw variant (`jigsaw`, `jigsaw+x`, ...) with regions drawn by the walk, that admits a
    solution; PuzzleError when ROUNDS rounds of the walk found none."""
    regions = random_regions(side, rng)
    for _ in range(ROUNDS):
        lay = named(variant, side, regions)
        if not lay.box_height and solvable(lay):
            return lay
        walk(regions, side, side * side, rng)  # another round, from where the walk is
    raise PuzzleError(f"no {variant} layout with a solution found at {side}x{side} in {ROUNDS} rounds of swaps")


@dataclass(frozen=True)
class Variant:
    """A variant of the Sudoku family at a side, as the generator and the fuzzer make puzzles of it; made by
    `variant()`, which checks that it has puzzles."""

    name: str  # as Layout.variant names it: classic, jigsaw, x, windoku, jigsaw+x, ...
    side: int

    @property
    def drawn(self) -> bool:
        """Whether each puzzle's regions are drawn anew (a Jigsaw)."""
        return "jigsaw" in self.name.split("+")

    @property
    def caged(self) -> bool:
        """Whether its puzzles are Killers: cages drawn for each over its solution by their kind's maker
        (`Constraint.MAKES`: puzzles/constraints/killer_maker.py)."""
        return any(part in MAKING for part in self.name.split("+"))

    @property
    def constrained(self) -> bool:
        """Whether its puzzles hold constraints beyond houses and cages (puzzles/constraints/)."""
        return any(part in CONSTRAINT_KINDS and part not in MAKING for part in self.name.split("+"))

    @property
    def own(self) -> tuple[type[Constraint], ...]:
        """The kinds of constraint of its name that are each puzzle's own (thermometers), drawn over a solution."""
        return own_kinds(self.name)

    @property
    def houses(self) -> str:
        """The name of its fixed layout's variant: itself without `killer` and the constraints each puzzle draws
        (`killer+x`: `x`; `killer`: `classic`; `antiknight+thermometer`: `antiknight`)."""
        own = {kind.KIND for kind in self.own}
        return "+".join(part for part in self.name.split("+") if part not in MAKING and part not in own) or "classic"

    @property
    def label(self) -> str:
        """`9x9` for classic Sudoku, else the name and the size: `jigsaw 9x9`."""
        size = f"{self.side}x{self.side}"
        return size if self.name == "classic" else f"{self.name} {size}"

    @property
    def tag(self) -> str:
        """The label as one word, for puzzle names: `9x9`, `jigsaw-9x9`."""
        return self.label.replace(" ", "-")

    def layout(self, rng: random.Random) -> Layout:
        """The layout of a puzzle: fixed, or for a Jigsaw regions drawn with `rng` (which nothing else uses); a
        Killer's without cages (they are drawn over its solution); the constraints each puzzle draws (its
        thermometers) drawn over a random solution of the rest (`Constraint.drawn`)."""
        name = self.houses
        if self.drawn:
            fixed = jigsaw_layout(name, self.side, rng)
        else:
            fixed = boxes(self.side) if name == "classic" else named(name, self.side)
        if not self.own:
            return fixed
        values = random_solution(fixed, rng).values
        drawn: list[Constraint] = []
        for kind in sorted(self.own, key=lambda kind: kind.READS_DRAWN):  # a kind that reads the others' last
            drawn += kind.drawn_beside(drawn, values, self.side, rng)
        return layout(self.side, fixed.regions, fixed.extras, [*fixed.constraints, *drawn])


def drawn_kinds() -> list[str]:
    """The names of the kinds a variant's name may hold that are drawn over each puzzle's solution (their kind's
    `drawn`), in the registry's order: what `--variant` offers beside the fixed layouts."""
    unset = getattr(Constraint.drawn, "__func__", None)  # the socket's own: "not drawn"
    return [name for name, kind in CONSTRAINT_KINDS.items()
            if not kind.GLOBAL and getattr(kind.drawn, "__func__", None) is not unset]


def reads_regions(kind: type[Constraint]) -> bool:
    """Whether a kind's meaning reads the layout's regions (`Constraint.in_regions`: a box indexer's places)."""
    return getattr(kind.in_regions, "__code__", None) is not getattr(Constraint.in_regions, "__code__", None)


def own_kinds(name: str) -> tuple[type[Constraint], ...]:
    """The kinds of constraint a variant's name holds that are each puzzle's own (not rules of the whole grid), drawn
    by their kinds' `drawn` (a Killer's cages are drawn by their own maker, puzzles/constraints/killer_maker.py)."""
    found = (CONSTRAINT_KINDS.get(part) for part in name.split("+") if part not in MAKING)
    return tuple(kind for kind in found if kind is not None and not kind.GLOBAL)


def variant(name: str, side: int) -> Variant:
    """The variant `name` (the names of puzzles/layouts.py's `named`, joined by `+`) at `side`; PuzzleError when
    the name is unknown or the variant has no puzzles of that side."""
    return _variant(name.strip().lower(), side)


@cache
def _variant(name: str, side: int) -> Variant:
    parts = name.split("+")
    own = {kind.KIND for kind in own_kinds(name)}
    made = [part for part in parts if part in MAKING]  # a Killer's `killer`
    if own and not made:  # the rest checked, then one layout drawn: it names the variant
        rest = _variant("+".join(p for p in parts if p not in own) or "classic", side)
        on_regions = sorted(kind.KIND for kind in own_kinds(name) if reads_regions(kind))
        if on_regions and "jigsaw" in rest.name:
            raise PuzzleError(f"{'+'.join(on_regions)} puzzles are drawn on the side's boxes, not on Jigsaw regions")
        if side < MIN_SIDE or side > LARGEST_VARIANT:
            raise PuzzleError(f"{'+'.join(sorted(own))} puzzles are made from {MIN_SIDE}x{MIN_SIDE} to "
                              f"{LARGEST_VARIANT}x{LARGEST_VARIANT}, not {side}x{side}")
        return Variant(Variant("+".join([rest.name, *sorted(own)]), side).layout(random.Random(0)).variant, side)
    if made:  # a Killer of any other variant: its houses' variant checked, `killer` first as named
        houses = _variant("+".join(p for p in parts if p not in MAKING) or "classic", side)
        if side < MIN_SIDE or side > LARGEST_VARIANT:
            raise PuzzleError(f"{made[0]} puzzles are made from {MIN_SIDE}x{MIN_SIDE} to {LARGEST_VARIANT}x"
                              f"{LARGEST_VARIANT}, not {side}x{side}")
        return Variant(made[0] if houses.name == "classic" else f"{made[0]}+{houses.name}", side)
    if name == "classic" or not name:
        boxes(side)  # PuzzleError for a side without boxes
        return Variant("classic", side)
    named(name, 9, boxes(9).regions if "jigsaw" in name else None)  # PuzzleError for a name it does not know
    if not MIN_SIDE <= side <= LARGEST_VARIANT:
        raise PuzzleError(f"{name} puzzles are made from {MIN_SIDE}x{MIN_SIDE} to {LARGEST_VARIANT}x"
                          f"{LARGEST_VARIANT}, not {side}x{side}")
    if "jigsaw" in name:  # one layout drawn: the name checked, and that it can have a solution at this side
        return Variant(jigsaw_layout(name, side, random.Random(0)).variant, side)
    lay = named(name, side)
    if not solvable(lay):
        raise PuzzleError(f"{name} has no solution at {side}x{side}: its houses contradict each other")
    return Variant(lay.variant, side)
