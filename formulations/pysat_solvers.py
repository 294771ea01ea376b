"""PySAT's solvers, as formulations.sat and making/ use them: the back ends and what each cannot do, a fresh
solver or one kept across puzzles, the clauses loaded, a solver deleted under held signals.

A layout's clauses (formulations.cnf's `layout_clauses`) are built once per process; a fresh solver per
puzzle (formulations.sat's default, so that runs stay independent) takes them through its own
C function in one loop (`load`), 0.6 of the set-up of PySAT's bootstrap_with on
a 16x16 (benchmarks/sat_setup.py). A kept solver (`kept`) is one per process, solver, encoding and layout,
for the last few layouts.

Importing this module tells PySAT that no thread is the main one (the comment at the patch says why).
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import pysat._utils as _pysat_utils
from pysat.solvers import Solver

try:  # PySAT's C module, not its documented API: load() says why it is used, and falls back to append_formula
    import pysolvers
except ImportError:  # a PySAT built otherwise: every solver takes its clauses through the public API
    pysolvers = None

from puzzles.grid import Layout
from puzzles.signals import signals_held

from .cnf import LAYOUTS_KEPT, Form, beyond_houses, form, layout_clauses, variables

# Ctrl-C is Python's to handle, not PySAT's. In the main thread PySAT's C code takes a SIGINT that lands during a
# solve itself: it jumps out of the solver (left so, a solver can hang when deleted) and raises an error of its
# own, which neither a run's handler (comparison/execution/interrupts.py) nor a worker's SIG_IGN sees; and when
# the kernel hands the signal to another thread, the jump crashes the process. Told that no thread is the main
# one, PySAT leaves SIGINT alone, and the handler acts as soon as the solve returns.
_pysat_utils.MainThread.check = staticmethod(lambda: False)

# PySAT's solvers, the `solver` option's values (formulations.SOLVERS is the registry of methods)
BACKENDS = ("minisat22", "cadical195", "cadical153", "glucose4", "glucose3", "maplechrono", "lingeling")
DEFAULT_SOLVER = "minisat22"
NO_INTERRUPT = ("cadical195", "cadical153")  # pysat raises NotImplementedError on interrupt()
NO_CONFLICT_BUDGET = ("glucose4", "glucose3")  # they take conf_budget, and run on past it
NO_LIMITS = ("lingeling",)  # pysat has no limited solve for it: no budget can stop it
NO_PROPAGATE = ("lingeling",)  # pysat raises NotImplementedError on propagate()
ASSUMPTIONS_DECIDED = ("lingeling",)  # it counts each assumption as a decision (25 givens: 25 decisions)

# Decisions a solver counts that are no choice, per solve that ends with a model. Measured through
# PySAT 1.9 on [[1]], and on the unbiased-1000 puzzles that unit propagation settles (complete
# encoding): the MiniSat family counts 2 there, one on variable 0 (PySAT makes MiniSat's variables
# 0..max, and DIMACS never names 0, so it is free) and one that finds nothing left to decide and
# returns the model; tdoku, on MiniSat without the spare variable, subtracts 1. CaDiCaL and Lingeling
# count 0 there. Guesses (tdoku's sense) = decisions - this per model found; tests/test_sat_encodings.py
# checks it per solver. Where search is needed, a backjump past the spare variable makes MiniSat decide
# it again, counted as a guess (an overcount, rare); CaDiCaL settles some such puzzles with no decision
# counted (its lucky-phase and probing passes), so its guesses are a lower bound.
FREE_DECISIONS = {"minisat22": 2, "glucose4": 2, "glucose3": 2, "maplechrono": 2,
                  "cadical195": 0, "cadical153": 0, "lingeling": 0}


@dataclass
class KeptSolver:
    """A solver kept across puzzles (one per process, solver and encoding, layout), and its last variable.

    A clause meant for one puzzle only is switched on by a selector variable (assumed while that puzzle is
    solved) and retired afterwards, so the solver is left as it was, learnt clauses aside, for the next one.
    """

    sat: Solver
    last: int

    def switchable(self, clause: list[int]) -> int:
        """A new selector s and the clause (not s, or `clause`): `clause` holds while s is assumed."""
        self.last += 1
        self.sat.add_clause([-self.last, *clause])
        return self.last

    def retire(self, selectors: Sequence[int]) -> None:
        self.sat.append_formula([[-s] for s in selectors])


_KEPT: dict[tuple[str, str, Layout, bool, Form], KeptSolver] = {}


# Each solver's own clause-adding function in PySAT's C module, and where its wrapper keeps the
# solver's handle: handing the rules to it in one C-level loop skips the two Python calls per clause
# of PySAT's append_formula and bootstrap_with (which end in the same function), the larger part of
# a fresh solver's set-up (benchmarks/sat_setup.py). A solver missing here, or a PySAT without these
# names, takes the clauses through append_formula: the same clauses in the same order either way.
_ADD_CLAUSE = {"minisat22": ("minisat22_add_cl", "minisat"), "glucose4": ("glucose41_add_cl", "glucose"),
               "glucose3": ("glucose3_add_cl", "glucose"), "maplechrono": ("maplechrono_add_cl", "maplesat"),
               "cadical153": ("cadical153_add_cl", "cadical"), "cadical195": ("cadical195_add_cl", "cadical")}


def load(sat: Solver, name: str, clauses: Sequence[list[int]], direct: bool = True, caged: bool = False) -> None:
    """Add `clauses` to a solver without a contradiction among them (the rules of a size are satisfiable).

    A Killer's cages may contradict its houses (`caged`: a puzzle with no solution, which a solve then says):
    the solver, inconsistent once a clause makes it so, needs none of the clauses after that one."""
    function, handle = _ADD_CLAUSE.get(name, ("", ""))
    add: Callable[..., bool] | None = getattr(pysolvers, function, None)
    solver = getattr(sat.solver, handle, None)
    if not direct or add is None or solver is None:
        sat.append_formula(clauses)
    elif not all(map(add, repeat(solver), clauses)) and not caged:  # each call: is the formula still consistent
        raise ValueError("the rules contradict themselves")


def deleted(sat: Solver) -> None:
    """PySAT's delete with SIGINT and SIGTERM held: a handler that raised (Ctrl-C, compare.py's and the generator's
    SIGTERM) between the C solver's deletion and PySAT's note of it would leave the solver to be deleted again when
    collected, a crash on the way out."""
    with signals_held():
        sat.delete()


@contextlib.contextmanager
def opened(name: str, **kwargs: Any) -> Iterator[Solver]:
    """`with Solver(name) as sat`, deleted as `deleted` does."""
    sat = Solver(name=name, **kwargs)
    try:
        yield sat
    finally:
        deleted(sat)


def new_solver(name: str, encoding: str, lay: Layout, options: Mapping[str, Any] | None = None) -> Solver:
    """A solver holding the rules, its constraints' with the options their kinds read (their unit clauses aside:
    `layout_facts`). Decisions place values first
    (phase true on cell-values, and only on them: triads and a cage's auxiliaries are left to the solver), as
    tdoku's MiniSat literals do."""
    sat = Solver(name=name)
    clauses = layout_clauses(lay, encoding, options)
    if beyond_houses(lay):
        load(sat, name, [clause for clause in clauses if len(clause) > 1], caged=True)
    else:
        load(sat, name, clauses)
    sat.set_phases(range(1, lay.side**3 + 1))
    return sat


def kept(name: str, encoding: str, lay: Layout, search: bool = True,
         options: Mapping[str, Any] | None = None) -> KeptSolver:
    # Propagation alone (search off) gets a solver that never searches: one that had learnt clauses
    # from other puzzles' searches would propagate more than the encoding's clauses do.
    key = (name, encoding, lay, search, form(lay, options))
    if key not in _KEPT:
        layouts = list(dict.fromkeys(k[2] for k in _KEPT))  # in the order they were first kept
        if lay not in layouts and len(layouts) >= LAYOUTS_KEPT:  # the oldest layout's solvers go
            for old in [k for k in _KEPT if k[2] is layouts[0]]:
                deleted(_KEPT.pop(old).sat)
        _KEPT[key] = KeptSolver(new_solver(name, encoding, lay, options), variables(lay, encoding, options))
    return _KEPT[key]

