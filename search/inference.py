"""The inference rungs: what a search deduces after each placement (the `propagate` option).

A rung is called with the engine after a placement. It places values by
inference and removes candidates by its rules until nothing more follows, and
returns how many values it placed, or -1 when it finds a contradiction (the
placement is then a dead end). Each rung adds to the one below: none (the seeds:
nothing), naked, singles (Norvig's propagation), locked, subsets, alldiff, pairs,
probe; and, for Killer cages, a branch from singles: cages (the cage combinations
and their required values), innies (and the 45 rule), killer (alldiff with both). What each deduces, rule by
rule, is said once, by search/rules.py's `ladder()` (docs/concepts/inference-ladder.md
tells the ladder at length, docs/concepts/killer.md the Killer rungs).

Every rung that removes candidates (locked and up, and the Killer rungs) also
applies the filters of the puzzle's constraints (puzzles/constraints/: thermometers,
non-consecutive, ...; `Constraint.narrow`), one step a constraint, after the houses'
rules and before the cages', each removal counted under the constraint's name
(`thermometer 2 (R4C1)`); on a puzzle without constraints there is none, nor for a
constraint whose filter finds nothing a placement does not (`Constraint.narrows`:
anti-knight, anti-king). What a
placement forbids at the cells a constraint links to it, the engine removes itself
(puzzles/cellmasks.py), at every rung.

The rules themselves are search/rules.py's pure functions on candidate masks
(a list of per-cell masks of n bits: machine words, as the engine holds them);
here they run on the engine: singles first (cheapest), then each rule in
order, back to singles after any removal, until a whole round removes nothing.
A rung keeps its tally: values placed (the search's `forced`), candidates
removed (`eliminated`), and both per rule, for the Outcome's info. Only
propagations that succeed count, as for `forced`: one that ends in a
contradiction is undone whole, and how far it got depends on the order it
looked in.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol

from puzzles.bits import popcount
from puzzles.cellmasks import CellMasks
from puzzles.constraints import names
from puzzles.constraints.innies import bounded_sums
from puzzles.grid import Geometry, geometry, values_of
from puzzles.layouts import Layout

from . import rules
from .engine import Eliminating, Engine
from .watch import RungWatch, watching


class OutOfTime(Exception):
    """The budget's time ran out inside a propagation (probing a 25x25 takes seconds): the search
    stops as when its own clock check finds the time spent."""


class Inference(Protocol):
    """A rung: called after each placement; values placed, or -1 on a contradiction."""

    name: str  # its rung of the ladder (the `propagate` option's value)
    deadline: float  # the budget's, set by the search: a long propagation checks it (OutOfTime)
    removes: bool  # whether it removes candidates (then it reports `eliminated`)
    eliminated: int  # candidates removed by its rules, in propagations that succeeded
    by_rule: Counter[str]  # values placed and candidates removed, per rule

    def __call__(self, engine: Engine[Any]) -> int: ...


def eliminating(engine: Engine[Any]) -> Eliminating[Any]:
    """The engine as one that removes candidates: the per-cell masks, which every search with a rung
    runs on (search/engine.py's `on_engine`; the per-unit masks cannot take a removal back)."""
    if not isinstance(engine, CellMasks):
        raise TypeError("this rung removes candidates or places naked singles alone: it runs on CellMasks")
    return engine


def singles(engine: Engine[Any], hidden: bool = True) -> int:
    """Singles to a fixpoint: naked and hidden (`force_singles`), or naked alone."""
    return engine.force_singles() if hidden else eliminating(engine).force_naked_singles()


def told_singles(engine: Engine[Any], watch: RungWatch, hidden: bool = True) -> int:
    """`singles`, and the watch told what they placed."""
    before = engine.state()
    placed = singles(engine, hidden)
    if placed > 0:
        after = engine.state()
        watch.placed_singles({cell: v for cell, (v, was) in enumerate(zip(after, before, strict=True)) if v != was})
    return placed


class Singles:
    """Naked and hidden singles to a fixpoint (or naked singles alone): no candidate removed."""

    removes = False

    def __init__(self, hidden: bool = True) -> None:
        self.hidden = hidden
        self.name = "singles" if hidden else "naked"
        self.deadline = float("inf")  # singles are quick: the search's own clock checks suffice
        self.eliminated = 0
        self.by_rule: Counter[str] = Counter()
        self.watch: RungWatch | None = watching.get()  # told each step, when there is one (search/watch.py)

    def __call__(self, engine: Engine[Any]) -> int:
        if self.watch is None:
            placed = singles(engine, self.hidden)
        else:
            self.watch.propagating(self.name, engine.masks(), engine.state())
            placed = told_singles(engine, self.watch, self.hidden)
        if placed > 0:
            self.by_rule["singles" if self.hidden else "naked singles"] += placed
        return placed


# A rule over the units given (indices into geo.units; None: every unit), as rules.py's grid rules.
LocalRule = Callable[[Sequence[int], Geometry, "Collection[int] | None"], "rules.Removals | None"]


def in_units(unit_rule: rules.UnitRule) -> LocalRule:
    """A unit rule over the units given, each unit's masks read alone."""
    return lambda masks, geo, units: rules.in_every_unit(masks, geo, unit_rule, None, units)


MEMO_LIMIT = 50_000  # units remembered per solve (then forgotten at once): about 25 MB at 25x25


def memoised(unit_rule: rules.UnitRule) -> LocalRule:
    """A unit rule over the units given, remembering what it said of each unit's masks: a rule's
    verdict depends on the masks alone, and many units come back unchanged from one node to the
    next (a sibling's, after a backtrack), so AllDifferent's costliest work is often a look-up."""
    said: dict[tuple[int, ...], list[int] | None] = {}

    def recalled(unit: list[int], needed: int | None) -> list[int] | None:
        key = tuple(unit)
        if key not in said:
            if len(said) >= MEMO_LIMIT:
                said.clear()
            said[key] = unit_rule(unit, needed)
        return said[key]

    return in_units(recalled)


# The rules above singles, cheapest first: what each rung adds to singles, by name.
LOCKED: tuple[tuple[str, LocalRule], ...] = (("locked candidates", rules.locked_candidates),)
SUBSETS = (*LOCKED, ("naked subsets", in_units(lambda unit, _needed: rules.naked_subsets(unit))),
           ("hidden subsets", in_units(lambda unit, needed: rules.hidden_subsets(unit, needed=needed))))


def alldiff_steps() -> tuple[tuple[str, LocalRule], ...]:
    """Locked candidates, then AllDifferent in every unit (memoised for one solve)."""
    return (*LOCKED, ("alldiff", memoised(rules.alldiff_filter)))


class Step:
    """A rule of a rung, run only where the grid changed since it last removed nothing anywhere.

    Each rule reads a unit's masks (AllDifferent, subsets) or the masks of two houses that cross
    (locked candidates) alone, so a unit whose masks are as they were when the whole grid was quiet
    for the rule is quiet still, whatever the search did in between (placed, backtracked):
    the pass over the changed units removes exactly what a pass over every unit would.
    """

    def __init__(self, name: str, rule: LocalRule) -> None:
        self.name, self.rule = name, rule
        self.quiet: list[int] | None = None  # the masks of a state where the rule removed nothing

    def __call__(self, masks: list[int], engine: Eliminating[Any], geo: Geometry) -> rules.Removals | None:
        units = None if self.quiet is None else engine.units_touched(changed(masks, self.quiet))
        if units == []:
            return {}
        removals = self.rule(masks, geo, units)
        if removals == {}:
            self.quiet = masks
        return removals


# A rule over groups of cells given (indices; None: every group), reading their masks and values: rules.py's
# cage_combinations (the layout's cages) and innies_and_outies (the 45 rule's sums).
# With `said`, the rule remembers what it said of a group's masks (for one solve).
GroupRule = Callable[[Sequence[int], Geometry, Sequence[int], "Collection[int] | None", "rules.Said | None"],
                     "rules.Removals | None"]


def cage_cells(lay: Layout) -> list[tuple[int, ...]]:
    """The cells of each of the layout's rules that keep a room (a Killer's cages), in order: the groups of the cage
    combinations."""
    return [rule.scope() for rule in rules.rooms(lay)]


def sum_cells(lay: Layout) -> list[tuple[int, ...]]:
    """The cells of each sum the 45 rule derives, in order, then of each innies less outies: the groups of
    innies_and_outies."""
    return [(*known.plus, *known.minus) for known in bounded_sums(lay)]


class GroupStep:
    """A rule over groups of cells (Killer cages, the 45 rule's sums), run only on the groups with a cell whose
    candidates or value changed since it last removed nothing anywhere: the rule reads a group's cells alone,
    so the others would say nothing again (as `Step` over units)."""

    def __init__(self, name: str, rule: GroupRule, groups: Callable[[Layout], list[tuple[int, ...]]]) -> None:
        self.name, self.rule, self.groups = name, rule, groups
        self.of_cell: list[list[int]] = []  # per cell, the groups holding it (read from the first engine's layout)
        self.quiet: list[int] | None = None  # the masks ...
        self.quiet_values = b""  # ... and values of a state where the rule removed nothing
        self.said: rules.Said = {}  # what the rule said of each group's masks, for one solve

    def __call__(self, masks: list[int], engine: Eliminating[Any], geo: Geometry) -> rules.Removals | None:
        values = engine.state()
        if not self.of_cell:
            self.of_cell = [[] for _ in masks]
            for g, cells in enumerate(self.groups(geo.layout)):
                for cell in cells:
                    self.of_cell[cell].append(g)
        quiet, quiet_values = self.quiet, self.quiet_values
        chosen: list[int] | None = None
        if quiet is not None:
            touched: set[int] = set()
            for cell in range(len(masks)):
                if masks[cell] != quiet[cell] or values[cell] != quiet_values[cell]:
                    touched.update(self.of_cell[cell])
            if not touched:
                return {}
            chosen = sorted(touched)
        removals = self.rule(masks, geo, list(values), chosen, self.said)
        if removals == {}:
            self.quiet, self.quiet_values = masks, values
        return removals


class ConstraintStep:
    """One constraint's filter (puzzles/constraints/: `rules.constraint_filters` of it alone), named as the puzzle
    names it (`thermometer 2 (R4C1)`), run only when a cell it links changed (candidates or value) since it last
    removed nothing: the filter reads those cells alone."""

    def __init__(self, name: str, index: int, cells: Collection[int]) -> None:
        self.name, self.index, self.cells = name, index, sorted(cells)
        self.quiet: list[int] | None = None  # the masks ...
        self.quiet_values = b""  # ... and values of a state where the filter removed nothing

    def __call__(self, masks: list[int], engine: Eliminating[Any], geo: Geometry) -> rules.Removals | None:
        values = engine.state()
        quiet, quiet_values = self.quiet, self.quiet_values
        if quiet is not None and all(masks[c] == quiet[c] and values[c] == quiet_values[c] for c in self.cells):
            return {}
        removals = rules.constraint_filters(masks, geo, values, self.index)
        if removals == {}:
            self.quiet, self.quiet_values = masks, values
        return removals


def constraint_steps(lay: Layout) -> list[ConstraintStep]:
    """A step for each of the layout's constraints whose filter can remove what no placement does
    (`Constraint.narrows`: after singles, anti-knight's would find nothing the engine's placements left), in
    order; none in the Sudoku family. (A Killer cage's filter is the cage rungs' own step.)"""
    return [ConstraintStep(name, k, {cell for link in rule.links(lay.side) for cell in (link.a, link.b)})
            for k, (rule, name) in enumerate(zip(lay.constraints, names(lay.constraints, lay.side), strict=True))
            if k in rules.filtered(lay) and rule.narrows(lay.side)]


def changed(masks: Sequence[int], then: Sequence[int]) -> list[int]:
    """The cells whose candidates differ between two states' masks."""
    return [cell for cell, (now, before) in enumerate(zip(masks, then, strict=True)) if now != before]


class Propagation:
    """Singles, then each rule in turn, back to singles after any removal, to a fixpoint;
    with `probe`, then failed-candidate probing on top of that fixpoint: of every candidate,
    each refuted by that fixpoint ("every"), or of the cells with two candidates, each refuted
    by singles alone ("pairs": a trial costs a tenth of a millisecond at 25x25, not tens)."""

    removes = True

    def __init__(self, name: str, steps: Sequence[tuple[str, LocalRule]], probe: str | None = None,
                 groups: Sequence[GroupStep] = ()) -> None:
        self.name = name
        self.house_steps: list[Step] = [Step(name, rule) for name, rule in steps]
        self.groups = list(groups)  # the Killer rules, after the houses
        self.steps: list[Step | ConstraintStep | GroupStep] = [*self.house_steps, *self.groups]
        self.layout: Layout | None = None  # the layout the steps were made for (a filter a constraint, after the
        # houses' rules and before the cages', once the first engine shows its layout)
        self.probe = probe
        self.deadline = float("inf")
        self.eliminated = 0
        self.by_rule: Counter[str] = Counter()
        self.watch: RungWatch | None = watching.get()  # told each step, when there is one (search/watch.py)

    def __call__(self, engine: Engine[Any]) -> int:
        board = eliminating(engine)
        if self.watch is not None:
            self.watch.propagating(self.name, board.masks(), board.state())
        tally: Counter[str] = Counter()
        placed = self.settle(board, tally, self.watch)
        if placed >= 0 and self.probe:
            probed = self.probing(board, tally) if self.probe == "every" else self.probing_pairs(board, tally)
            placed = -1 if probed < 0 else placed + probed
        if placed >= 0:  # only what a successful propagation did counts
            self.by_rule.update(tally)
            self.eliminated += sum(n for rule, n in tally.items() if rule != "singles")
        return placed

    def settle(self, engine: Eliminating[Any], tally: Counter[str], watch: RungWatch | None) -> int:
        """The fixpoint of singles and the rules; values placed, or -1 on a contradiction. `watch`
        is told each step (None for a probe's trial, which is undone)."""
        geo = geometry(engine.layout)
        if self.layout is not engine.layout:
            self.layout = engine.layout
            self.steps = [*self.house_steps, *constraint_steps(engine.layout), *self.groups]
        placed = 0
        while True:
            if time.perf_counter() > self.deadline:  # a 25x25 node takes milliseconds: keep to the budget
                raise OutOfTime
            forced = engine.force_singles() if watch is None else told_singles(engine, watch)
            if forced < 0:
                return -1
            placed += forced
            tally["singles"] += forced
            masks = engine.masks()  # a copy: the rules read it while the engine changes
            for step in self.steps:
                removals = step(masks, engine, geo)
                if removals is None:
                    return -1
                if removals:
                    tally[step.name] += remove(engine, removals)
                    if watch is not None:
                        watch.removed(step.name, removals)
                    break  # back to singles, the cheapest, before the costlier rules
            else:
                return placed

    def probing(self, engine: Eliminating[Any], tally: Counter[str]) -> int:
        """Failed candidates: each candidate of each empty cell is tried alone; one the rung
        below refutes leaves its cell, and the fixpoint is settled again. Values placed by
        the settling, or -1 on a contradiction."""
        placed, changed = 0, True
        while changed:
            changed = False
            for cell, mask in enumerate(engine.masks()):
                for value in values_of(mask):
                    if time.perf_counter() > self.deadline:
                        raise OutOfTime
                    before = engine.mark()
                    engine.assign(cell, value)
                    refuted = self.settle(engine, Counter(), None) < 0
                    engine.restore(before)
                    if refuted:
                        self.refute(engine, cell, value, tally)
                        settled = self.settle(engine, tally, self.watch)
                        if settled < 0:
                            return -1
                        placed += settled
                        changed = True
                        break
                if changed:
                    break  # the masks changed: read them again
        return placed

    def probing_pairs(self, engine: Eliminating[Any], tally: Counter[str]) -> int:
        """Failed candidates of the cells with two: each of a cell's two values is tried alone with
        naked and hidden singles; one they refute leaves its cell, and the fixpoint is settled again.
        The cells are scanned row-major, round and round from the cell after the last refutation,
        until a whole round refutes nothing. Values placed by the settling, or -1 on a contradiction."""
        placed, start = 0, 0
        while True:
            pairs = engine.cells_with(2)
            after = [cell for cell in pairs if cell >= start]
            refuted_at = self.refuted_pair(engine, after, tally)
            if refuted_at < 0 and len(after) < len(pairs):  # the round goes on from the top
                refuted_at = self.refuted_pair(engine, pairs[:len(pairs) - len(after)], tally)
            if refuted_at < 0:
                return placed
            settled = self.settle(engine, tally, self.watch)
            if settled < 0:
                return -1
            placed += settled
            start = refuted_at + 1

    def refute(self, engine: Eliminating[Any], cell: int, value: int, tally: Counter[str]) -> None:
        """A probe's trial of `value` in `cell` failed: the value leaves the cell."""
        engine.eliminate(cell, 1 << (value - 1))
        tally["probe"] += 1
        if self.watch is not None:
            self.watch.removed("probe", {cell: 1 << (value - 1)})

    def refuted_pair(self, engine: Eliminating[Any], cells: list[int], tally: Counter[str]) -> int:
        """The first of `cells` (cells with two candidates) with a value that singles refute; that
        value leaves the cell. -1 when none has one."""
        for cell in cells:
            for value in values_of(engine.candidates(cell)):
                if time.perf_counter() > self.deadline:
                    raise OutOfTime
                before = engine.mark()
                engine.assign(cell, value)
                refuted = engine.force_singles() < 0
                engine.restore(before)
                if refuted:
                    self.refute(engine, cell, value, tally)
                    return cell
        return -1


def remove(engine: Eliminating[Any], removals: rules.Removals) -> int:
    """Apply a rule's removals to the engine; how many candidates left."""
    for cell, mask in removals.items():
        engine.eliminate(cell, mask)
    return sum(popcount(mask) for mask in removals.values())


def cage_steps(innies: bool) -> list[GroupStep]:
    """The Killer rules, fresh for one solve: the cage combinations, their required values, and with `innies` the
    45 rule."""
    steps = [GroupStep("cage combinations", rules.cage_combinations, cage_cells),
             GroupStep("cage's required values", rules.cage_required, cage_cells)]
    if innies:
        steps.append(GroupStep("45 rule", rules.innies_and_outies, sum_cells))
    return steps


# The rungs by name (the `propagate` option), weakest first, then the Killer rungs: each maker makes a fresh
# rung (its tally and its watch are one solve's); `none` infers nothing. (rules.RUNG_NAMES and
# rules.CAGE_RUNG_NAMES: the same names; the Killer rungs' are said there alone.)
CAGES, INNIES, KILLER_RUNG = rules.CAGE_RUNG_NAMES
MAKE_RUNG: dict[str, Callable[[], Inference] | None] = {
    "none": None,
    "naked": lambda: Singles(hidden=False),
    "singles": Singles,
    "locked": lambda: Propagation("locked", LOCKED),
    "subsets": lambda: Propagation("subsets", SUBSETS),
    "alldiff": lambda: Propagation("alldiff", alldiff_steps()),
    "pairs": lambda: Propagation("pairs", alldiff_steps(), probe="pairs"),
    "probe": lambda: Propagation("probe", alldiff_steps(), probe="every"),
    CAGES: lambda: Propagation(CAGES, (), groups=cage_steps(innies=False)),
    INNIES: lambda: Propagation(INNIES, (), groups=cage_steps(innies=True)),
    KILLER_RUNG: lambda: Propagation(KILLER_RUNG, alldiff_steps(), groups=cage_steps(innies=True)),
}
# the rungs that need an Eliminating engine
REMOVING = ("locked", "subsets", "alldiff", "pairs", "probe", *rules.CAGE_RUNG_NAMES)


def make_rung(name: str) -> Inference | None:
    """The inference of the rung named (`propagate`), made for one solve; None for "none"."""
    make = MAKE_RUNG[name]
    return make() if make is not None else None
