"""The runs the identity test makes in one build (tests/test_kernels.py), each outcome as JSON.

    python tests/kernels_identity.py OUT.json [public] [SHARD/SHARDS]
    python tests/kernels_identity.py choose      (writes tests/kernels_identity_cases.txt; needs coverage.py)

The full set (`every_case`): every method of search/, with its defaults and with each choice of each option (one
at a time), on the seeds (puzzles/seeds.txt), a few puzzles of the Sudoku family (tests/variant_grids.py), a
generated 9x9 Killer and 16x16 Jigsaw (cdcl's alone) and, with `public`, random isomorphs of top1465 (a fixed
seed), a 16x16 and two 25x25 puzzles of the public collections (puzzles/data.py finds them), each under a node
budget (and no clock: a budget of time would make the counters depend on the machine); and the pinned figures,
without a budget. The runs compared (`cases`) are those of it that `choose` kept: run interpreted under
coverage.py, the fewest (by their time) that between them run every line and every branch of the compiled
modules that the full set runs and show every outcome it shows, method spec by method spec (each status, detail
and uniqueness, each counter made nonzero, each key of the info, a solution or none), on every puzzle; with the
pinned figures, and every run of a method spec or a puzzle the choice has not seen (a new option runs on every
puzzle until the choice is made again). The test runs this twice, compiled and SUDOKU_SEARCH_COMPILED=0, and
compares the two files; it reads no counter of its own but the pinned ones. With SHARD/SHARDS it makes every
SHARDS-th run from the SHARD-th (0 first): the test's shards run side by side.
"""
from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from variant_grids import PUZZLES
from variant_grids import grid as variant_grid
from variant_puzzles import JIGSAW16

from puzzles import Budget, Grid, Outcome, kernels, random_isomorph
from puzzles.data import locate
from search import SOLVERS

ROOT = Path(__file__).resolve().parents[1]
# The isomorphs run, by their place among those drawn (ISOMORPH_SEED): 8 of the first hundred, which run every line
# and branch of search/ and puzzles/ that the hundred run beside the other puzzles (two lines of search/rules.py's
# subsets and their branches, which no other puzzle reaches), and every outcome they show (a method's status,
# detail and uniqueness, each counter it makes nonzero, each key of its info): "solved, uniqueness not proved:
# nodes" for mrv and seven of its variants, which no other puzzle shows. Chosen so that each of those is shown by
# two of them where the hundred have two (coverage.py with branches on the interpreted runs, one context an
# isomorph, greedily; 2026-11-28). A second hundred ran nothing the first hundred do not.
ISOMORPHS = (2, 3, 5, 6, 27, 59, 97, 98)
ISOMORPH_SEED = 23
# nodes per run, by side (the 9x9 isomorphs' own below): enough to search, bounded for a test
NODES = {4: 2_000, 6: 2_000, 8: 2_000, 9: 2_000, 16: 300, 25: 60}
ISOMORPH_NODES = 200
# budgets divided by: a method that rarely finishes early (backtracking places a value per node, restart starts
# over at each dead end), a rung whose node costs more propagations (probing tries every candidate)
SMALL = {"backtracking": 4, "restart": 5}
COSTLY = {"subsets": 2, "alldiff": 2, "pairs": 5, "probe": 20}
ROOT_PROBE = 16  # probe's root propagation on a 25x25 takes minutes, before any node: up to 16x16 only
# restart with a rung above locked spends its whole budget on most isomorphs (0.1 s each, compiled): one in five
FEWER = ("restart", ("subsets", "alldiff", "pairs", "probe"), 5)
# the pinned figures: method, options, seed line name, counter, value
PINNED = (("mrv", {}, "seed000-homework", "nodes", 51),
          ("mrv", {"tie": "requeue"}, "seed001-hard", "nodes", 444),
          ("backtracking", {}, "seed003-backtracking", "nodes", 1_027_695))


class Case(NamedTuple):
    key: str  # how the JSON names it: method spec @ puzzle name
    method: str
    options: dict[str, Any]
    grid: Grid
    nodes: int | None
    solutions: int  # 2: the search goes on past a solution (the pinned figures are for 1)


def variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every method with its defaults, then with each other choice of each option, one at a time."""
    for name, method in SOLVERS.items():
        spec = sys.modules[method.solve.__module__].OPTIONS
        yield name, {}
        for option, described in spec.items():
            for choice in described.choices:
                if choice != described.default:
                    yield name, {option: choice}


def spec_of(method: str, options: dict[str, Any]) -> str:
    return method + "".join(f":{k}={v}" for k, v in options.items())


def seeds() -> list[tuple[str, Grid]]:
    puzzles = []
    for line in (ROOT / "puzzles" / "seeds.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            text, name = line.split()
            puzzles.append((name, Grid.parse(text)))
    return puzzles


def lines_of(path: Path, count: int) -> list[str]:
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return lines[:count]


def runs_on(method: str, options: dict[str, Any], name: str, grid: Grid) -> bool:
    if name.endswith("-generated") and method != "cdcl":
        return False
    if options.get("propagate") == "probe" and grid.side > ROOT_PROBE:
        return False
    fewer, rungs, every = FEWER
    if method == fewer and options.get("propagate") in rungs and "-isomorph-" in name:
        return int(name.rpartition("-")[2]) % every == 0
    return True


# the Sudoku family's puzzles it runs on: X, Windoku, Jigsaw, disjoint groups, rectangular boxes
VARIANTS = (("x-9", "unique"), ("windoku-9", "several"), ("jigsaw-9", "unique"), ("disjoint-9", "unsat"),
            ("jigsaw-6", "unique"), ("boxes-8", "unique"))
PUBLIC = ("top1465", "gecode-16x16", "gecode-25x25")  # the public collections it runs on, when asked
# a 9x9 Killer (`sudoku-generate --variant killer --count 3 --seed 2026`, the third: cdcl guesses on it, with the 45
# rule's sums and without), run by cdcl alone (its propagators of cages and derived sums), under a smaller budget
KILLER = ("............................................................"
          ".....................;k=abbbcddeeaffbddggeafhidgggjafhikkkjjllhhmnnnjllhmmoonnpqrsmoootpqsssutttpqquuuvvt:20,17,7,26,6,22,27,27,13,27,12,16,19,26,31,16,17,7,23,19,18,9")
KILLER_NODES = 100


def puzzles(public: bool) -> list[tuple[str, Grid, int | None]]:
    """(name, grid, node budget) of every puzzle the variants run on."""
    chosen = [(name, grid, NODES[grid.side]) for name, grid in seeds()]
    for name, kind in VARIANTS:
        puzzle = variant_grid(name, getattr(PUZZLES[name], kind))
        chosen.append((f"{name}-{kind}", puzzle, NODES[puzzle.side]))
    chosen.append(("killer-9-generated", Grid.parse(KILLER), KILLER_NODES))
    # a minimal 16x16 Jigsaw, run by cdcl alone (its law of leftovers, kept from 12x12 up, and its reason-side
    # bumping, from 16x16), under the Killer's budget
    chosen.append(("jigsaw-16-generated", Grid.parse(JIGSAW16), KILLER_NODES))
    if public:
        rng = random.Random(ISOMORPH_SEED)
        top = [Grid.parse(line) for line in lines_of(locate("top1465"), 10**6)]
        for i in range(max(ISOMORPHS) + 1):  # every one drawn, in turn: the same isomorphs whichever are kept
            index = rng.randrange(len(top))
            isomorph = random_isomorph(top[index], rng)
            if i in ISOMORPHS:
                chosen.append((f"top1465-{index + 1}-isomorph-{i}", isomorph, ISOMORPH_NODES))
        chosen += [(f"gecode-16x16-{i + 1}", Grid.parse(line), NODES[16])
                   for i, line in enumerate(lines_of(locate("gecode-16x16"), 1))]
        chosen += [(f"gecode-25x25-{i + 1}", Grid.parse(line), NODES[25])
                   for i, line in enumerate(lines_of(locate("gecode-25x25"), 2))]
    return chosen


def every_case(public: bool) -> list[Case]:
    """The full set: every variant of every method on every puzzle it runs on, and the pinned figures."""
    every = puzzles(public)
    found = []
    for method, options in variants():
        scale = SMALL.get(method, 1) * COSTLY.get(str(options.get("propagate")), 1)
        for name, grid, nodes in every:
            if not runs_on(method, options, name, grid):
                continue
            budget = None if nodes is None else max(nodes // scale, 3)
            found.append(Case(f"{spec_of(method, options)} @ {name}", method, options, grid, budget, 2))
    by_name = dict(seeds())
    found += [Case(f"pinned {spec_of(method, options)} @ {name}", method, options, by_name[name], None, 1)
              for method, options, name, _counter, _value in PINNED]
    return found


CHOSEN = ROOT / "tests" / "kernels_identity_cases.txt"


def spec_and_puzzle(key: str) -> tuple[str, str]:
    spec, _, name = key.partition(" @ ")
    return spec, name


def chosen_keys() -> set[str]:
    """The runs `choose` kept (CHOSEN's lines but its comments)."""
    return {line for line in CHOSEN.read_text().splitlines() if line and not line.startswith("#")}


def cases(public: bool) -> list[Case]:
    """The runs compared: those `choose` kept, the pinned figures, and every run of a method spec or a puzzle the
    choice has not seen (without the public collections, a spec chosen only on their puzzles runs on every puzzle
    there is)."""
    every = every_case(public)
    chosen = chosen_keys()
    names = {spec_and_puzzle(key)[1] for key in chosen}
    specs = {spec_and_puzzle(key)[0] for key in chosen & {case.key for case in every}}
    found = []
    for case in every:
        spec, name = spec_and_puzzle(case.key)
        if case.key in chosen or case.key.startswith("pinned ") or spec not in specs or name not in names:
            found.append(case)
    return found


def shown(key: str, outcome: dict[str, Any]) -> set[tuple[object, ...]]:
    """What a run shows of its method spec: status, detail, uniqueness, counters made nonzero, info's keys."""
    spec, name = spec_and_puzzle(key)
    return {("spec", spec), ("puzzle", name), ("status", spec, outcome["status"]), ("detail", spec, outcome["detail"]),
            ("unique", spec, str(outcome["unique"])), ("solution", spec, outcome["solution"] is None),
            *(("counter", spec, counter) for counter, value in outcome["effort"].items() if value),
            *(("info", spec, key) for key in outcome["info"])}


def choose() -> None:
    """Every run of the full set, interpreted under coverage.py (lines and branches of the compiled modules, a
    context a run); then, greedily, the runs that show the most not yet shown for their time, until the chosen
    show all the full set does; written to CHOSEN. Minutes, on the public collections (`sudoku-data fetch top1465
    gecode-16x16 gecode-25x25`); rerun when search/ or puzzles/ gain code."""
    import os
    import time

    import coverage  # a tool for this choice only, not a dependency of the suite

    if os.environ.get(kernels.SWITCH) != "0":
        sys.exit(f"run it interpreted: {kernels.SWITCH}=0 python tests/kernels_identity.py choose")
    files = [str(ROOT / (module.replace(".", "/") + ".py")) for module in kernels.MODULES]
    measured = coverage.Coverage(branch=True, include=files, data_file=None)
    measured.start()
    every = every_case(True)
    took, shows = {}, {}
    for case in every:
        measured.switch_context(case.key)
        started = time.perf_counter()
        outcome = SOLVERS[case.method](case.grid, Budget(nodes=case.nodes), solutions=case.solutions,
                                       **case.options)
        took[case.key] = time.perf_counter() - started
        shows[case.key] = shown(case.key, json.loads(json.dumps(record(outcome), default=repr)))
    measured.stop()
    data = measured.get_data()
    for path in data.measured_files():
        name = Path(path).relative_to(ROOT).as_posix()
        for key in shows:
            data.set_query_contexts([key])
            shows[key] |= {("line", name, line) for line in data.lines(path) or ()}
            shows[key] |= {("arc", name, arc) for arc in data.arcs(path) or ()}
    unseen = set().union(*shows.values())
    chosen = [case.key for case in every if case.key.startswith("pinned ")]
    unseen -= set().union(*(shows[key] for key in chosen))
    left = [case.key for case in every if case.key not in chosen]
    while unseen:
        # new things shown a second (2 ms more each: a run's own cost, so the quickest are not free)
        best = max(left, key=lambda key: len(shows[key] & unseen) / (took[key] + 0.002))
        chosen.append(best)
        left.remove(best)
        unseen -= shows[best]
    kept = sum(took[key] for key in chosen)
    header = (f"# The identity test's runs (tests/kernels_identity.py choose, {time.strftime('%Y-%m-%d')}): "
              f"{len(chosen)} of the full set's {len(every)},\n# {kept:.0f} s of its {sum(took.values()):.0f} s"
              " interpreted under coverage.py; between them every line, branch and outcome the full set runs and"
              " shows.\n")
    CHOSEN.write_text(header + "".join(f"{key}\n" for key in sorted(chosen)))


def record(outcome: Outcome) -> dict[str, Any]:
    """The Outcome's fields but its time: status, solution, counters, uniqueness, detail, info."""
    return {"status": outcome.status.value, "solution": None if outcome.solution is None else outcome.solution.line(),
            "effort": outcome.effort, "unique": outcome.unique, "detail": outcome.detail, "info": outcome.info}


def shard_of(cases: list[Case], shard: str) -> list[Case]:
    """Every SHARDS-th case from the SHARD-th, for `SHARD/SHARDS` (all of them for an empty `shard`)."""
    if not shard:
        return cases
    index, count = (int(part) for part in shard.split("/"))
    return cases[index::count]


def main(out: str, public: str = "", shard: str = "") -> None:
    runs = {}
    for case in shard_of(cases(public == "public"), shard):
        outcome = SOLVERS[case.method](case.grid, Budget(nodes=case.nodes), solutions=case.solutions,
                                      **case.options)
        runs[case.key] = json.loads(json.dumps(record(outcome), sort_keys=True, default=repr))
    Path(out).write_text(json.dumps({"kernels": kernels.BUILD.line(), "loaded": kernels.loaded(), "runs": runs},
                                    indent=0, sort_keys=True))


if __name__ == "__main__":
    if sys.argv[1:] == ["choose"]:
        choose()
    else:
        main(*sys.argv[1:])
