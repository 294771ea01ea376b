#!/usr/bin/env python3
"""What a fresh PySAT solver costs per puzzle before it searches: the rules handed over, each way.

    python benchmarks/sat_setup.py [--box 3 4] [--repeat K] [--solver NAME ...] [--encoding NAME]

For every box size and PySAT solver, the shared clauses of the encoding
(formulations/cnf.py's `layout_clauses`, built once) go into a new solver in each of
the forms PySAT offers, and the time is taken until the solver holds them:

- bootstrap: Solver(name, bootstrap_with=clauses), PySAT's constructor;
- append:    Solver(name), then append_formula(clauses);
- CNF:       bootstrap_with a pysat.formula.CNF built once;
- direct:    formulations.pysat_solvers.load, the solver's own C function mapped over
             the clauses (what `sat` does), the same clauses in the same order.

The forms take turns within each repetition, so the machine's noise falls on
all of them alike. It prints the median milliseconds of each form and
direct's ratio to bootstrap (below 1: direct is faster). With a kept solver
(`sat:incremental=on`) this cost is paid once per process instead.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from pysat.formula import CNF  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

from benchmarks.turns import in_turn  # noqa: E402
from commands.flags import positive  # noqa: E402
from formulations.cnf import ENCODINGS, layout_clauses  # noqa: E402
from formulations.pysat_solvers import BACKENDS, load  # noqa: E402
from puzzles.grid import classic  # noqa: E402

FORMS = ("bootstrap", "append", "CNF", "direct")


def builders(name: str, clauses: list[list[int]]) -> dict[str, Callable[[], Solver]]:
    """Each form of handing `clauses` to a new solver `name`."""
    cnf = CNF(from_clauses=clauses)

    def append() -> Solver:
        sat = Solver(name=name)
        sat.append_formula(clauses)
        return sat

    def direct() -> Solver:
        sat = Solver(name=name)
        load(sat, name, clauses)
        return sat

    return {"bootstrap": lambda: Solver(name=name, bootstrap_with=clauses), "append": append,
            "CNF": lambda: Solver(name=name, bootstrap_with=cnf), "direct": direct}


def set_up_times(name: str, clauses: list[list[int]], repeat: int) -> dict[str, list[float]]:
    """Seconds per form, the forms taking turns in each repetition; every solver is checked to hold them all."""
    times: dict[str, list[float]] = {form: [] for form in FORMS}
    build = builders(name, clauses)
    for i in range(repeat):
        for form in in_turn(FORMS, i):
            started = time.perf_counter()
            sat = build[form]()
            times[form].append(time.perf_counter() - started)
            held = sat.nof_clauses()
            sat.delete()
            if held is not None and held > len(clauses):
                raise SystemExit(f"{name} {form}: holds {held} clauses, more than the {len(clauses)} given")
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--box", type=int, nargs="+", default=[3, 4], choices=[2, 3, 4, 5])
    parser.add_argument("--repeat", type=positive(int), default=9, help="repetitions per form (default 9)")
    parser.add_argument("--solver", nargs="+", default=[s for s in BACKENDS if s != "lingeling"], choices=BACKENDS)
    parser.add_argument("--encoding", default="complete", choices=ENCODINGS)
    args = parser.parse_args(argv)
    for box in args.box:
        clauses = [list(c) for c in layout_clauses(classic(box), args.encoding)]
        print(f"{box * box}x{box * box}, {args.encoding} encoding: {len(clauses):,} clauses; "
              f"median ms over {args.repeat} set-ups")
        print(f"  {'solver':12}" + "".join(f"{form:>11}" for form in FORMS) + "   direct/bootstrap")
        for name in args.solver:
            times = set_up_times(name, clauses, args.repeat)
            medians = {form: statistics.median(ts) * 1000 for form, ts in times.items()}
            print(f"  {name:12}" + "".join(f"{medians[form]:11.2f}" for form in FORMS)
                  + f"   {medians['direct'] / medians['bootstrap']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
