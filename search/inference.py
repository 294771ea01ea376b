"""The inference rungs: what a search deduces after each placement (the `propagate` option).

A rung is called with the engine after a placement. It places values by
inference and removes candidates by its rules until nothing more follows, and
returns how many values it placed, or -1 when it finds a contradiction (the
placement is then a dead end). Each rung adds to the one below (DESIGN.md):

    none     the seeds: nothing (a cell with no candidate is a dead end)
    naked    naked singles to a fixpoint: a cell with one candidate takes it
    singles  and hidden singles: a value with one place left in a unit goes there
             (Norvig's propagation)
    locked   and locked candidates: a value confined to one line inside a box, or
             to one box inside a line, leaves the rest of that line or box
    subsets  and naked and hidden subsets (pairs, triples, quads) inside a unit
    alldiff  singles, locked candidates and generalised arc consistency of each
             unit's AllDifferent (Régin's filtering: every subset of any size)
    probe    and failed-candidate probing: a candidate whose placement the
             alldiff rung refutes leaves its cell

The rules themselves are search/rules.py's pure functions on candidate masks;
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
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from puzzles.grid import Geometry, geometry, values_of

from . import rules
from .engine import Eliminating


class OutOfTime(Exception):
    """The budget's time ran out inside a propagation (probing a 25x25 takes seconds): the search
    stops as when its own clock check finds the time spent."""


class Inference(Protocol):
    """A rung: called after each placement; values placed, or -1 on a contradiction."""

    deadline: float  # the budget's, set by the search: a long propagation checks it (OutOfTime)
    removes: bool  # whether it removes candidates (then it reports `eliminated`)
    eliminated: int  # candidates removed by its rules, in propagations that succeeded
    by_rule: Counter[str]  # values placed and candidates removed, per rule

    def __call__(self, engine: Any) -> int: ...


class Singles:
    """Naked and hidden singles to a fixpoint (or naked singles alone): no candidate removed."""

    removes = False

    def __init__(self, hidden: bool = True) -> None:
        self.hidden = hidden
        self.deadline = float("inf")  # singles are quick: the search's own clock checks suffice
        self.eliminated = 0
        self.by_rule: Counter[str] = Counter()

    def __call__(self, engine: Any) -> int:
        placed: int = engine.force_singles() if self.hidden else engine.force_naked_singles()
        if placed > 0:
            self.by_rule["singles" if self.hidden else "naked singles"] += placed
        return placed


GridRule = Callable[[Sequence[int], Geometry], "rules.Removals | None"]

# The rules above singles, cheapest first: what each rung adds to singles.
LOCKED: tuple[tuple[str, GridRule], ...] = (("locked candidates", rules.locked_candidates),)
SUBSETS = (*LOCKED, ("naked subsets", rules.naked_subsets_in_units),
           ("hidden subsets", lambda masks, geo: rules.hidden_subsets_in_units(masks, geo)))
MEMO_LIMIT = 50_000  # units remembered per solve (then forgotten at once): about 25 MB at 25x25


def memoised(unit_rule: Callable[[list[int], int | None], list[int] | None]) -> GridRule:
    """A unit rule over every unit, remembering what it said of each unit's masks: a rule's verdict
    depends on the masks alone, and most units are unchanged from one pass (or node) to the next,
    so the confirming pass of a fixpoint, AllDifferent's costliest, is mostly look-ups."""
    said: dict[tuple[int, ...], list[int] | None] = {}

    def recalled(unit: list[int], needed: int | None) -> list[int] | None:
        key = tuple(unit)
        if key not in said:
            if len(said) >= MEMO_LIMIT:
                said.clear()
            said[key] = unit_rule(unit, needed)
        return said[key]

    return lambda masks, geo: rules.in_every_unit(masks, geo, recalled, None)


def alldiff_steps() -> tuple[tuple[str, GridRule], ...]:
    """Locked candidates, then AllDifferent in every unit (memoised for one solve)."""
    return (*LOCKED, ("alldiff", memoised(rules.alldiff_filter)))


class Propagation:
    """Singles, then each rule in turn, back to singles after any removal, to a fixpoint;
    with `probe`, then failed-candidate probing on top of that fixpoint."""

    removes = True

    def __init__(self, steps: Sequence[tuple[str, GridRule]], probe: bool = False) -> None:
        self.steps = steps
        self.probe = probe
        self.deadline = float("inf")
        self.eliminated = 0
        self.by_rule: Counter[str] = Counter()

    def __call__(self, engine: Eliminating[Any]) -> int:
        tally: Counter[str] = Counter()
        placed = self.settle(engine, tally)
        if placed >= 0 and self.probe:
            probed = self.probing(engine, tally)
            placed = -1 if probed < 0 else placed + probed
        if placed >= 0:  # only what a successful propagation did counts
            self.by_rule.update(tally)
            self.eliminated += sum(n for rule, n in tally.items() if rule != "singles")
        return placed

    def settle(self, engine: Eliminating[Any], tally: Counter[str]) -> int:
        """The fixpoint of singles and the rules; values placed, or -1 on a contradiction."""
        geo = geometry(engine.box)
        placed = 0
        while True:
            if time.perf_counter() > self.deadline:  # a 25x25 node takes milliseconds: keep to the budget
                raise OutOfTime
            forced = engine.force_singles()
            if forced < 0:
                return -1
            placed += forced
            tally["singles"] += forced
            for name, rule in self.steps:
                removals = rule(engine.masks(), geo)
                if removals is None:
                    return -1
                if removals:
                    tally[name] += remove(engine, removals)
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
                    refuted = self.settle(engine, Counter()) < 0
                    engine.restore(before)
                    if refuted:
                        engine.eliminate(cell, 1 << (value - 1))
                        tally["probe"] += 1
                        settled = self.settle(engine, tally)
                        if settled < 0:
                            return -1
                        placed += settled
                        changed = True
                        break
                if changed:
                    break  # the masks changed: read them again
        return placed


def remove(engine: Eliminating[Any], removals: rules.Removals) -> int:
    """Apply a rule's removals to the engine; how many candidates left."""
    for cell, mask in removals.items():
        engine.eliminate(cell, mask)
    return sum(mask.bit_count() for mask in removals.values())


# The rungs, weakest first: each makes a fresh rung (its tally is one solve's); `none` infers nothing.
RUNGS: dict[str, Callable[[], Inference] | None] = {
    "none": None,
    "naked": lambda: Singles(hidden=False),
    "singles": Singles,
    "locked": lambda: Propagation(LOCKED),
    "subsets": lambda: Propagation(SUBSETS),
    "alldiff": lambda: Propagation(alldiff_steps()),
    "probe": lambda: Propagation(alldiff_steps(), probe=True),
}
REMOVING = ("locked", "subsets", "alldiff", "probe")  # the rungs that need an Eliminating engine
