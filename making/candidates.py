"""True candidates: for each cell of a puzzle, the values it takes in some solution, found exactly by SAT.

The standard method (variant solvers' "true candidates"): one solver holds the puzzle's rules and givens
(certify.puzzle_solver: formulations.cnf's complete encoding of every rule of the layout, as the certifier's).
A first solve gives a solution, each of whose values is a true candidate. Then each (cell, value) not yet known
true is assumed, one solve each on the same solver (its learnt clauses kept): a model is another solution, all of
whose values are true candidates (so most pairs of a puzzle with several solutions are settled by another pair's
solution, not by a solve of their own); UNSAT proves the value is in no solution. A puzzle with no solution has no
candidate anywhere; a puzzle with one solution has one candidate a cell, and the converse holds too.

The work is capped by a budget of SAT propagations over all the solves of a puzzle (PROPAGATIONS): a 9x9 needs a
five-hundredth of it, a 16x16 a fifth at most; a 25x25 needs more, and then the search stops and says it gave up,
what it found true so far true still, the rest undecided.
"""
from __future__ import annotations

from dataclasses import dataclass

from formulations.cnf import decode, var
from puzzles.grid import Grid
from puzzles.words import SYMBOLS, plural

from .certify import puzzle_solver

# a puzzle's budget of SAT propagations, over all its solves (a measure of work that does not depend on the
# machine): a 9x9 takes about 10,000, a 16x16 with 5% givens 1 million; a 25x25 with 10% givens 6.5 million (3 s)
PROPAGATIONS = 5_000_000


@dataclass(frozen=True)
class TrueCandidates:
    """A puzzle's true candidates: per cell a mask, bit v-1 set when v is the cell's value in some solution."""

    side: int
    masks: tuple[int, ...]  # the values found in a solution, each cell's
    undecided: tuple[int, ...]  # the values neither found in a solution nor refuted: none unless it gave up
    solves: int  # SAT solves
    refuted: int  # of them, those that proved a value in no solution (UNSAT)
    gave_up: str | None = None  # why the work stopped before every candidate was settled

    @property
    def solvable(self) -> bool | None:
        """Whether the puzzle has a solution; None when the work gave up before finding one."""
        if any(self.masks):
            return True
        return None if self.gave_up else False

    @property
    def settled(self) -> int:
        """The cells whose one value is known: one true candidate, nothing undecided."""
        return sum(1 for m, u in zip(self.masks, self.undecided, strict=True) if not u and m and not m & (m - 1))

    @property
    def unique(self) -> bool:
        """Whether the puzzle has exactly one solution (every cell settled)."""
        return self.solvable is True and self.settled == len(self.masks)

    def values(self, cell: int) -> list[int]:
        """A cell's true candidates, in order."""
        return [v for v in range(1, self.side + 1) if self.masks[cell] >> (v - 1) & 1]

    @property
    def kind(self) -> str:
        """What they say of the puzzle's solutions, as a report's word: no solution, unique, several solutions,
        or gave up."""
        if self.gave_up:
            return "gave up"
        return "no solution" if not self.solvable else "unique" if self.unique else "several solutions"

    def text(self) -> str:
        """The marks as a record holds them (docs/reference/records.md): each cell's values' symbols, row by row,
        cells apart by commas, `?` after a cell's when some of its values are undecided (`5,3,124?,...`)."""
        return ",".join("".join(SYMBOLS[v - 1] for v in self.values(c)) + ("?" if self.undecided[c] else "")
                        for c in range(len(self.masks)))


def marks_of(text: str) -> list[str]:
    """A record's `candidates` text read back: each cell's marks (symbols, `?` when some are undecided)."""
    return text.split(",")


def true_candidates(grid: Grid, propagations: int = PROPAGATIONS) -> TrueCandidates:
    """The true candidates of a puzzle (see the module's docstring), within a budget of SAT propagations."""
    n, cells = grid.side, len(grid.values)
    full = (1 << n) - 1
    masks, refuted_masks = [0] * cells, [0] * cells
    solves = refuted = 0
    spent = 0
    with puzzle_solver(grid) as sat:

        def solve(assumptions: list[int]) -> bool | None:
            nonlocal solves, spent
            solves += 1
            sat.prop_budget(max(propagations - spent, 1))
            answer: bool | None = sat.solve_limited(assumptions=assumptions)
            spent = int((sat.accum_stats() or {}).get("propagations", spent))
            if answer:
                for cell, value in enumerate(decode(grid, sat.get_model() or []).values):
                    masks[cell] |= 1 << (value - 1)
            return answer

        def result(gave_up: str | None = None) -> TrueCandidates:
            undecided = tuple(full & ~(m | r) if gave_up else 0 for m, r in zip(masks, refuted_masks, strict=True))
            return TrueCandidates(n, tuple(masks), undecided, solves, refuted, gave_up)

        def spent_all() -> TrueCandidates:
            left = sum(bin(full & ~(m | r)).count("1") for m, r in zip(masks, refuted_masks, strict=True))
            return result(f"gave up after {plural(solves, 'SAT solve')}: its budget of {propagations:,} propagations "
                          f"is spent, {left:,} candidates undecided")

        first = solve([])
        if first is None:
            return spent_all()
        if not first:
            return result()
        for cell in range(cells):
            for value in range(1, n + 1):
                bit = 1 << (value - 1)
                if masks[cell] & bit:
                    continue
                answer = solve([var(cell, value, n)])
                if answer is None:
                    return spent_all()
                if not answer:
                    refuted += 1
                    refuted_masks[cell] |= bit
    return result()
