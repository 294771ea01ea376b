"""Shrinking a failing puzzle by delta debugging (Zeller's ddmin, as cnfdd does for CNF): the smallest puzzle
on which the same failure persists.

Clues are taken away in chunks, halves first, then ever smaller down to one at a time, keeping each removal
after which the puzzle still fails; then the puzzle is relabelled (values numbered in order of first
appearance) and permuted (bands, stacks, rows, columns and the transpose, toward the clues first) to its
smallest form, kept if it still fails; then one-at-a-time removal once more. The result is 1-minimal: taking
any one more clue away makes the failure go away.

A Killer's cage totals (the clues of the constraints a maker draws, `Constraint.clues`) are shrunk the same way
after its givens (`drop_own_clues`: a total dropped leaves the cage its no-repeat rule, `Constraint.unclued`), and
its smallest forms are only its own rotations and reflections: relabelling its values would break its sums.
A puzzle's constraints (puzzles/constraints/: a thermometer, anti-knight) are shrunk so too (`drop_constraints`),
and its smallest form is at most its relabelling, where every constraint allows it.

`fails` takes a list of candidate puzzles and says which still fail: the fuzzer tests a round's candidates
together, in one run of compare.py's workers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from puzzles.constraints import made, unmade
from puzzles.grid import Grid
from puzzles.isomorph import Isomorph, symmetries
from puzzles.layouts import layout

from .minimal import givens_of

Fails = Callable[[Sequence[Grid]], list[bool]]


def without(grid: Grid, cells: Sequence[int]) -> Grid:
    values = bytearray(grid.values)
    for c in cells:
        values[c] = 0
    return grid.with_values(values)


def remove_clues(grid: Grid, fails: Fails) -> Grid:
    """ddmin over the clues: chunks of half the clues, then smaller, each removal kept while the failure persists;
    ends after a pass of single clues where no removal fails (1-minimal)."""
    return ddmin(grid, givens_of, without, fails)


def ddmin(grid: Grid, parts: Callable[[Grid], list[int]], drop: Callable[[Grid, Sequence[int]], Grid],
          fails: Fails) -> Grid:
    """Zeller's ddmin over the `parts` of a puzzle (its clues, a Killer's totals), `drop` taking some away: chunks
    of half of them, then smaller, each removal kept while the failure persists; 1-minimal in those parts."""
    chunk = max(1, len(parts(grid)) // 2)
    while parts(grid):
        left = parts(grid)
        candidates = [drop(grid, left[i:i + chunk]) for i in range(0, len(left), chunk)]
        failing = [c for c, bad in zip(candidates, fails(candidates), strict=True) if bad]
        if failing:
            grid = failing[0]
            chunk = max(1, min(chunk, len(parts(grid)) // 2))
        elif chunk == 1:
            break
        else:
            chunk //= 2
    return grid


def relabelled(grid: Grid) -> Grid:
    """Values renumbered in order of first appearance (row by row): the first clue is 1, the next new value 2..."""
    order: dict[int, int] = {}
    for v in grid.values:
        if v and v not in order:
            order[v] = len(order) + 1
    rest = [v for v in range(1, grid.side + 1) if v not in order]
    for v in rest:
        order[v] = len(order) + 1
    return Isomorph(grid.layout, (0, *(order[v] for v in range(1, grid.side + 1))), tuple(range(grid.side)),
                    tuple(range(grid.side)), False).apply(grid)


def _lines_by_clues(grid: Grid, rows: bool) -> tuple[int, ...]:
    """A line order (bands kept whole) that puts the lines with more clues first, bands by their clues too."""
    box, n = grid.box, grid.side

    def count(line: int) -> int:
        cells = range(line * n, line * n + n) if rows else range(line, n * n, n)
        return sum(1 for c in cells if grid.values[c])
    bands = sorted(range(box), key=lambda b: -sum(count(b * box + i) for i in range(box)))
    return tuple(line for b in bands for line in sorted(range(b * box, b * box + box), key=lambda x: -count(x)))


def smallest_forms(grid: Grid) -> list[Grid]:
    """The puzzle's candidate small forms, smallest first: relabelled, and permuted so that the clues come first
    (each also transposed), relabelled again after the moves."""
    n = grid.side
    identity = tuple(range(n))
    others = unmade(grid.layout.constraints)  # (those a maker draws, a Killer's cages: below)
    if others:  # they stay where they are: no move of the grid, relabelled where they allow
        return [relabelled(grid)] if all(c.RELABELS for c in others) else []
    if grid.layout.constraints:  # relabelling changes a cage's sum: its rotations and reflections alone
        turned = {Isomorph(grid.layout, tuple(range(n + 1)), rows, cols, transpose).apply(grid)
                 for rows, cols, transpose in symmetries(grid.layout)}
        return sorted(turned, key=form_key)
    forms = {relabelled(grid)}
    if not grid.layout.is_classic:  # a variant's (or rectangular boxes') rotations and reflections, no line moves
        for rows, cols, transpose in symmetries(grid.layout):
            forms.add(relabelled(Isomorph(grid.layout, tuple(range(n + 1)), rows, cols, transpose).apply(grid)))
        return sorted(forms, key=form_key)
    for transpose in (False, True):
        base = Isomorph(grid.layout, tuple(range(n + 1)), identity, identity, transpose).apply(grid)
        moved = Isomorph(grid.layout, tuple(range(n + 1)), _lines_by_clues(base, True), _lines_by_clues(base, False),
                         False).apply(base)
        forms.add(relabelled(moved))
    return sorted(forms, key=form_key)


def form_key(grid: Grid) -> tuple[int, ...]:
    """Smaller is earlier clues, then smaller values: blanks count as larger than any value."""
    return tuple(v if v else grid.side + 1 for v in grid.values)


def without_own_clues(grid: Grid, dropped: Sequence[int]) -> Grid:
    """The puzzle with these of its maker's constraints without their own clues (`Constraint.unclued`: a cage's
    total dropped, its no-repeat rule kept)."""
    lay = grid.layout
    kept = [rule.unclued() if i in dropped else rule for i, rule in enumerate(made(lay.constraints))]
    return Grid(layout(lay.side, lay.regions, lay.extras, [*kept, *unmade(lay.constraints)]), grid.values)


def drop_own_clues(grid: Grid, fails: Fails) -> Grid:
    """ddmin over the clues of a maker's constraints (a Killer's cage totals), as remove_clues over its givens:
    1-minimal in them."""
    return ddmin(grid, _clued, without_own_clues, fails)


def without_constraints(grid: Grid, dropped: Sequence[int]) -> Grid:
    """The puzzle without these of its constraints (indices among its layout's, those a maker draws aside, a
    Killer's cages: `drop_own_clues`)."""
    lay = grid.layout
    kept = [c for i, c in enumerate(unmade(lay.constraints)) if i not in dropped]
    return Grid(layout(lay.side, lay.regions, lay.extras, [*made(lay.constraints), *kept]), grid.values)


def drop_constraints(grid: Grid, fails: Fails) -> Grid:
    """ddmin over a puzzle's constraints, as remove_clues over its clues: 1-minimal in its constraints."""
    return ddmin(grid, lambda g: list(range(len(unmade(g.layout.constraints)))), without_constraints, fails)


def _clued(grid: Grid) -> list[int]:
    """The indices, among the constraints a maker draws, of those that give clues of their own (a Killer's cages
    with a total)."""
    return [i for i, rule in enumerate(made(grid.layout.constraints)) if rule.clues()]


def shrink(grid: Grid, fails: Fails) -> Grid:
    """The failing puzzle shrunk: clues removed (ddmin), a Killer's totals and any constraints too, put in its
    smallest form if it still fails, 1-minimal."""
    grid = rest_removed(remove_clues(grid, fails), fails)
    forms = [f for f in smallest_forms(grid) if form_key(f) < form_key(grid)]
    for form, bad in zip(forms, fails(forms) if forms else [], strict=True):
        if bad:
            grid = form
            break
    return rest_removed(remove_clues(grid, fails), fails)


def rest_removed(grid: Grid, fails: Fails) -> Grid:
    """A Killer's totals and the constraints, each shrunk by ddmin while the failure persists."""
    if made(grid.layout.constraints):
        grid = drop_own_clues(grid, fails)
    return drop_constraints(grid, fails) if unmade(grid.layout.constraints) else grid
