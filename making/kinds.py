"""Every kind of puzzle the project makes, in one registry: `KINDS[name].make(layout, rng)` is a puzzle of that
kind on that layout (classic Sudoku's or a variant's: making/variants.py draws them, constraints included).
RULE_KINDS are made only on a layout with constraints: `rule-minimal`, a minimal puzzle that needs them (without
them it has another solution, which a method that drops a rule may answer).

The generator (`sudoku-generate`) and the fuzzer (`compare.py --fuzz`) draw from it; the hard search starts
from its minimal puzzles and moves on with making/moves.py. Each kind says what it is and up to which side it
is made: certifying a 25x25 minimal puzzle takes minutes.

The Killer kinds (KILLER_KINDS, each `caged`) put cages on the layout they are given (its houses:
puzzles/constraints/killer_maker.py draws the cages over a random solution and makes them unique, SAT certifying
each step). Two of them need one rule for their uniqueness, so that a method that drops the rule finds a second,
wrong answer: `killer-needs-no-repeat` (with its cages' no-repeat rule dropped, the totals kept, the puzzle has another
solution) and `killer-needs-regions` (without some regions' rules it has another solution). One region alone is
never needed: the rows hold each value n times and the other n - 1 regions once each, so the last region holds
it once too, whatever the cages. Nor are two boxes: a box whose band (or stack) keeps its other boxes holds each
value once by the same count over the band's rows (the stack's columns). So the regions dropped are four boxes
at the corners of a rectangle (two bands by two stacks), or two regions of a Jigsaw. Each is a cage-minimal
Killer checked for that (such sets in random order, SETS_TRIED at most), drawn again until one is (`NEED_TRIES`
at most).
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from puzzles import constraints as rules
from puzzles.candidates import Candidates
from puzzles.constraints.killer_maker import (
    Undecided,
    cage_minimal,
    cages_of,
    killer_puzzle,
    made_unique,
    random_cages,
    totals_near,
    with_total,
    without_cages,
    without_total,
)
from puzzles.grid import Grid, Layout
from puzzles.layouts import House, PuzzleError, layout

from .certify import CageCertifier, SolutionCertifier, repeating_other, solutions
from .minimal import completed, givens_of, minimise, puzzle_of
from .moves import move
from .singles import generate
from .solutions import random_solution

MINIMAL_UP_TO = 16  # sides whose minimal (and hard) puzzles are made: 25x25 ones take minutes each
KILLER_MINIMAL_UP_TO = 9  # sides whose cage-minimal Killers the fuzzer makes (a 16x16 one takes minutes)
NEED_TRIES = 20  # cage-minimal Killers drawn at most for one that needs a rule
SETS_TRIED = 12  # sets of regions a Killer is checked without, at most
NEED_SECONDS = 20.0  # CP-SAT's time to decide a Killer without its cages' no-repeat rule


@dataclass(frozen=True)
class MinimalPuzzle:
    """A minimal puzzle made from a random full grid, and what certifying it took."""

    puzzle: Grid
    solution: Grid
    checks: int  # SAT solves
    forced: int  # uniqueness settled by singles alone


def minimal_puzzle(lay: Layout, rng: random.Random) -> MinimalPuzzle:
    """A random full grid with its clues taken away in random order while it stays the only solution: a unique
    and minimal puzzle (making/minimal.py says why one pass suffices)."""
    solution = random_solution(lay, rng)
    with SolutionCertifier(solution) as certifier:
        cells = minimise(range(len(solution.values)), certifier.unique, rng)
    return MinimalPuzzle(puzzle_of(solution, cells), solution, certifier.checks, certifier.forced)


def unique_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A random full grid's clues, a quarter to three quarters of them, completed to a unique puzzle."""
    solution = random_solution(lay, rng)
    cells = list(range(len(solution.values)))
    rng.shuffle(cells)
    kept = cells[:rng.randint(len(cells) // 4, len(cells) * 3 // 4)]
    with SolutionCertifier(solution) as certifier:
        return puzzle_of(solution, completed(kept, solution, certifier.unique, rng))


def base_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A unique puzzle with few clues: minimal where that is quick, else a unique one."""
    return minimal_puzzle(lay, rng).puzzle if lay.side <= MINIMAL_UP_TO else unique_puzzle(lay, rng)


def several_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A unique puzzle less one to three clues, with two solutions or more (certified)."""
    while True:
        puzzle = base_puzzle(lay, rng)
        cells = givens_of(puzzle)
        if not cells:
            continue  # unique with no clue (its constraints alone): none to drop
        dropped = set(rng.sample(cells, rng.randint(1, min(3, len(cells)))))
        fewer = puzzle.with_values(bytes(0 if c in dropped else v for c, v in enumerate(puzzle.values)))
        if len(solutions(fewer, 2)) == 2:
            return fewer


def unsat_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """One clue of a unique puzzle changed to a value that no given of its units holds, and no solution left."""
    while True:
        puzzle = base_puzzle(lay, rng)
        cells = givens_of(puzzle)
        for cell in rng.sample(cells, len(cells)):
            values = bytearray(puzzle.values)
            values[cell] = 0
            board = Candidates(puzzle.with_values(bytes(values)))
            others = [v for v in range(1, puzzle.side + 1) if v != puzzle.values[cell] and board.allows(cell, v)]
            if not others:
                continue
            values[cell] = rng.choice(others)
            changed = puzzle.with_values(bytes(values))
            if not has_solution(changed):
                return changed


def near_empty_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """At most n clues of a random full grid."""
    solution = random_solution(lay, rng)
    n = solution.side
    return puzzle_of(solution, rng.sample(range(n * n), rng.randint(0, n)))


def nearly_full_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """A random full grid less 1 to n cells."""
    solution = random_solution(lay, rng)
    n = solution.side
    blanks = set(rng.sample(range(n * n), rng.randint(1, n)))
    return puzzle_of(solution, [c for c in range(n * n) if c not in blanks])


def open_after_singles(puzzle: Grid) -> int:
    """The cells naked and hidden singles leave empty."""
    board = Candidates(puzzle)
    board.singles([])
    return board.values.count(0)


def hard_puzzle(lay: Layout, rng: random.Random) -> Grid:
    """The hard search's moves from a minimal puzzle: of three, the one that naked and hidden singles leave most
    open."""
    made = minimal_puzzle(lay, rng)
    puzzle, solution = made.puzzle, made.solution
    tries = [puzzle]
    for _ in range(2):
        puzzle, solution = move(puzzle, solution, rng)
        tries.append(puzzle)
    return max(tries, key=open_after_singles)


def without_constraints(lay: Layout) -> Layout:
    """The layout without its constraints (puzzles/constraints/) but those its makers draw: its houses and cages
    alone."""
    return layout(lay.side, lay.regions, lay.extras, rules.made(lay.constraints)) if rules.unmade(lay.constraints) \
        else lay


def rule_minimal(lay: Layout, rng: random.Random) -> Grid:
    """A minimal puzzle of a layout with constraints that needs them: without them it has another solution, which
    a method that drops a rule may give. Made again (on the same layout) until one does, NEED_TRIES at most;
    PuzzleError after, or at once for a layout without constraints."""
    if rules.unmade(lay.constraints):
        for _ in range(NEED_TRIES):
            puzzle = minimal_puzzle(lay, rng).puzzle
            if len(solutions(Grid(without_constraints(lay), puzzle.values), 2)) == 2:
                return puzzle
    raise PuzzleError(f"no {lay.variant} {lay.side}x{lay.side} puzzle needing its constraints found"
                      + (f" in {NEED_TRIES} tries" if rules.unmade(lay.constraints) else ": it has none"))


@dataclass(frozen=True)
class MadeKiller:
    """A unique Killer made over a random full grid, and what certifying it took."""

    puzzle: Grid
    solution: Grid
    checks: int  # SAT solves
    undecided: int  # cage-minimal checks the conflict budget left undecided (the change was not made)


def killer(lay: Layout, rng: random.Random, minimal: bool = False, givens: bool = False) -> MadeKiller:
    """A unique Killer on the houses of `lay`: cages drawn over a random full grid and made unique (with `givens`,
    givens may be added where two solutions differ), then, with `minimal`, made cage-minimal
    (puzzles/constraints/killer_maker.py)."""
    solution = random_solution(without_cages(lay), rng)
    with CageCertifier(solution) as certifier:
        cages, cells = made_unique(solution, random_cages(solution, rng), certifier.other, rng, givens)
        if minimal:
            cages, cells = cage_minimal(solution, cages, cells, certifier.unique, rng)
    return MadeKiller(killer_puzzle(solution, cages, cells), solution, certifier.checks, certifier.undecided)


NEEDED = ("no-repeat", "regions")  # the rules a Killer can be made to need: its cages' no-repeat, two regions'


@dataclass(frozen=True)
class NeedingKiller:
    """A unique Killer that needs one rule: without it, `witness` is a second solution (which breaks the rule)."""

    made: MadeKiller
    rule: str  # one of NEEDED
    dropped: str  # what was dropped: `the cages' no-repeat rule`, `boxes 1, 2, 4 and 5`, `regions 2 and 5`
    witness: Grid  # a solution of the puzzle without the rule, not the puzzle's own


def without_regions(lay: Layout, dropped: Sequence[int]) -> Layout:
    """The houses of `lay` less some regions' rules, cages kept: the rows stand as the regions (a layout needs n)
    and the other regions become extra houses."""
    n = lay.side
    others = [House(f"region {k + 1}", tuple(c for c in range(n * n) if lay.regions[c] == k))
              for k in range(n) if k not in dropped]
    return layout(n, [c // n for c in range(n * n)], [*others, *lay.extras], lay.constraints)


def second_without(made: MadeKiller, rule: str, rng: random.Random) -> tuple[str, Grid] | None:
    """What dropping `rule` from the puzzle lets in: (what was dropped, a second solution), or None when the
    puzzle stays unique without it (or CP-SAT could not tell in NEED_SECONDS)."""
    puzzle, solution = made.puzzle, made.solution
    if rule == "no-repeat":
        try:
            other = repeating_other(puzzle, solution, NEED_SECONDS)
        except TimeoutError:
            return None
        return None if other is None else ("the cages' no-repeat rule", other)
    word = "boxes" if puzzle.layout.box_height else "regions"
    sets = region_sets(puzzle.layout)
    for dropped in rng.sample(sets, min(SETS_TRIED, len(sets))):
        found = [s for s in solutions(Grid(without_regions(puzzle.layout, dropped), puzzle.values), 2)
                 if s.values != solution.values]
        if found:
            names = [str(k + 1) for k in dropped]
            return f"{word} {', '.join(names[:-1])} and {names[-1]}", puzzle.with_values(found[0].values)
    return None


def region_sets(lay: Layout) -> list[tuple[int, ...]]:
    """The smallest sets of regions whose rules the others do not imply (the module's docstring says why): four
    boxes at the corners of a rectangle of bands and stacks, or two regions of a Jigsaw."""
    if not lay.box_height:
        return list(itertools.combinations(range(lay.side), 2))
    across, down = lay.side // lay.box_width, lay.side // lay.box_height
    return [(a * across + x, a * across + y, b * across + x, b * across + y)
            for a, b in itertools.combinations(range(down), 2) for x, y in itertools.combinations(range(across), 2)]


def needing_killer(lay: Layout, rng: random.Random, rule: str) -> NeedingKiller:
    """A cage-minimal Killer that is unique only with `rule` (NEEDED); PuzzleError after NEED_TRIES tries."""
    for _ in range(NEED_TRIES):
        made = killer(lay, rng, minimal=True)
        found = second_without(made, rule, rng)
        if found is not None:
            return NeedingKiller(made, rule, *found)
    raise PuzzleError(f"no {lay.side}x{lay.side} Killer needing its {rule} rule found in {NEED_TRIES} tries")


def has_solution(puzzle: Grid) -> bool:
    """Whether a puzzle has a solution (SAT); a Killer whose clauses contradict each other as they are loaded
    (formulations.pysat_solvers's load: a total no combination of its cells reaches beside the others) has none."""
    try:
        return bool(solutions(puzzle, 1))
    except ValueError:
        return False


def several_killer(lay: Layout, rng: random.Random) -> Grid:
    """A unique Killer with cage totals dropped, in random order, until it has two solutions or more
    (certified)."""
    made = killer(lay, rng)
    cages = cages_of(made.puzzle.layout)
    with CageCertifier(made.solution) as certifier:
        for index in rng.sample(range(len(cages)), len(cages)):
            cages[index] = without_total(cages[index])
            try:
                if certifier.other(cages) is not None:
                    return killer_puzzle(made.solution, cages, [c for c, v in enumerate(made.puzzle.values) if v])
            except Undecided:
                continue  # looser still with the next total dropped
    raise AssertionError("a Killer with no total left has more than one solution")  # every value free to move


def unsat_killer(lay: Layout, rng: random.Random) -> Grid:
    """A unique Killer with one cage's total changed (by 1 to 3, within what its cells can sum to) so that it has no
    solution (certified)."""
    while True:
        made = killer(lay, rng)
        cages = cages_of(made.puzzle.layout)
        for index in rng.sample(range(len(cages)), len(cages)):
            cage = cages[index]
            totals = totals_near(cage, lay.side)
            if not totals:
                continue
            houses = made.puzzle.layout
            changed = Grid(layout(lay.side, houses.regions, houses.extras,
                                  [*cages[:index], with_total(cage, rng.choice(totals)), *cages[index + 1:],
                                   *rules.unmade(houses.constraints)]), made.puzzle.values)
            if not has_solution(changed):
                return changed


@dataclass(frozen=True)
class Kind:
    """A kind of puzzle: how one is made on a layout, what it is, and up to which side it is made."""

    name: str
    make: Callable[[Layout, random.Random], Grid]
    summary: str
    largest_side: int = 25
    caged: bool = False  # a Killer kind: its cages drawn on the layout it is given (the houses)


KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("singles", lambda lay, rng: generate(lay, rng)[0], "unique: naked and hidden singles fill it alone"),
    Kind("naked", lambda lay, rng: generate(lay, rng, rule="naked")[0],
         "unique: naked singles fill it alone (MRV never backtracks)"),
    Kind("unique", unique_puzzle, "unique: a random grid's clues completed until SAT certifies it unique"),
    Kind("several", several_puzzle, "two solutions or more: a minimal puzzle less one to three clues"),
    Kind("unsat", unsat_puzzle, "no solution: one clue of a minimal puzzle changed (certified)"),
    Kind("near-empty", near_empty_puzzle, "at most n clues of a random full grid"),
    Kind("nearly-full", nearly_full_puzzle, "a random full grid less 1 to n cells"),
    Kind("minimal", lambda lay, rng: minimal_puzzle(lay, rng).puzzle,
         "unique and minimal: every clue needed (certified by SAT)", MINIMAL_UP_TO),
    Kind("hard", hard_puzzle, "the hard search's moves from a minimal puzzle, the one singles leave most open",
         MINIMAL_UP_TO),
)}

# The Killer kinds: on the houses they are given they make Killers (their own registry, so that what reads KINDS
# finds puzzles of the variant it asked for), in the order the fuzzer makes them
KILLER_KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind(rules.KILLER, lambda lay, rng: killer(lay, rng).puzzle,
         "a unique Killer, no givens: random cages split where two solutions differ (certified by SAT)",
         caged=True),
    Kind("killer-givens", lambda lay, rng: killer(lay, rng, givens=True).puzzle,
         "a unique Killer: random cages and givens added where two solutions differ", caged=True),
    Kind("killer-several", several_killer, "two solutions or more: a unique Killer stripped of totals",
         caged=True),
    Kind("killer-unsat", unsat_killer, "no solution: one cage's total of a unique Killer changed (certified)",
         caged=True),
    Kind("killer-minimal", lambda lay, rng: killer(lay, rng, minimal=True).puzzle,
         "a cage-minimal Killer: no cage merged with a neighbour nor stripped of its total stays unique",
         KILLER_MINIMAL_UP_TO, caged=True),
    Kind("killer-needs-no-repeat", lambda lay, rng: needing_killer(lay, rng, "no-repeat").made.puzzle,
         "a cage-minimal Killer with a second solution when its cages' no-repeat rule is dropped",
         KILLER_MINIMAL_UP_TO, caged=True),
    Kind("killer-needs-regions", lambda lay, rng: needing_killer(lay, rng, "regions").made.puzzle,
         "a cage-minimal Killer with a second solution when some regions' rules are dropped",
         KILLER_MINIMAL_UP_TO, caged=True),
)}

# The kinds made only of a variant with constraints (antiknight, thermometer, ...: puzzles/constraints/)
RULE_KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("rule-minimal", rule_minimal,
         "a minimal puzzle with a second solution when its constraints are dropped (certified by SAT)",
         MINIMAL_UP_TO),
)}
