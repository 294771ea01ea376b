"""`compare.py --fuzz DURATION`: methods run on puzzles made for the purpose, against a trusted method, and
each failure shrunk to a 1-minimal puzzle that reproduces it (the cnfuzz and cnfdd of Brummayer, Lonsing and
Biere, for Sudoku solvers).

Puzzles of seven kinds, at each box size asked for (--box) and of each variant of the Sudoku family asked for
(--variant NAME, 9x9, or NAME@SIDE; a Jigsaw's regions drawn anew for each puzzle), in turn (a Killer variant,
`killer`, `killer+x`, `killer@6`, has seven kinds of its own, KILLER_FUZZED: making/kinds.py says what each is;
a method that does not know cages is not run on them, which the report says, not a failure): unique (clues
taken away from a random full grid while SAT certifies it unique, stopped at random), several-solution (a
minimal puzzle less a clue or more), unsatisfiable (a minimal puzzle with one clue changed to a value no given
of its units holds, certified without solution), near-empty (a few clues of a full grid), nearly-full (a full
grid less a few cells), minimal, and hard (the generator's moves from a minimal puzzle, the one singles leave
most open). Minimal and hard puzzles are made up to 16x16: certifying a 25x25 minimal puzzle takes minutes. A
variant with constraints (`antiknight`, `thermometer@6`: puzzles/constraints/) adds rule-minimal puzzles, minimal
ones that need their constraints (RULE_FUZZED), so that a method that drops a rule is caught.

The run goes where failures can show: a give-up is no finding, so a method that gives up GIVE_UPS times in a
row on the puzzles of one kind at one size (backtracking, A* and python-constraint on most 16x16 puzzles, MRV
on the minimal, hard, several-solution and unsatisfiable ones, with the default budget) is not run on that
kind at that size for the rest of the run, and the report says so; a kind and size on which every method
under test is cut back gets no more puzzles. The report ends with the puzzles made and run per minute at each
size.

Each round's puzzles go through compare.py's own run (comparison/run/batch.py) with the methods as compare.py
selects them and the trusted method (--against, run with solutions=2): so every failure class compare.py knows
counts, by its own judge. A failure of a method on a puzzle is its class: an invalid answer, a false unsat, a
false unique, a disagreement, an error (crash, junk, protocol), a budget overrun (killed past its time). The
first puzzle of each (method, class) is shrunk (making/shrink.py) while that method fails that way on it, and
written to --output with a comment naming the method, the class and what the trusted method says, under a
Reproduce line (Rerun): the compare.py command, budgets, solutions and PYTHONPATH included, that fails so again.

The duration is a deadline, kept whatever the methods' budgets: the runs in flight when it comes are stopped
(comparison/run/batch.py), the puzzles judged by then are kept and judged as usual, and a shrink in progress ends
with the puzzle as small as it got (not 1-minimal, which the report says).
"""
from __future__ import annotations

import dataclasses
import itertools
import os
import random
import re
import shlex
import site
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from making.kinds import KILLER_KINDS, KINDS, RULE_KINDS
from making.minimal import givens_of
from making.shrink import shrink
from making.variants import Variant, variant
from puzzles import Grid, Method, Status, kernels
from puzzles.layouts import PuzzleError
from puzzles.options import MethodSpec, OptionError
from puzzles.signals import signals_held
from puzzles.words import plural

from ..core.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError
from ..core.settings import Settings
from ..execution.pool import KeptPool
from ..execution.result import RunResult
from ..judging.judge import OWN_FAILURES, FailureClass, Judged
from ..run.batch import run_batch
from ..run.comparison import registry_of
from ..run.methods import check_commands_selected, command_name, select_methods

FUZZED = ("unique", "several", "unsat", "near-empty", "nearly-full", "minimal", "hard")  # of making.kinds.KINDS
KILLER_FUZZED = tuple(KILLER_KINDS)  # a Killer variant's kinds (`Variant.caged`), all of them
RULE_FUZZED = ("rule-minimal",)  # a variant with constraints adds these (of making.kinds.RULE_KINDS)
MADE = {**KINDS, **KILLER_KINDS, **RULE_KINDS}
ROUND = 14  # puzzles a round: two of each kind
GIVE_UPS = 3  # give-ups in a row on a kind at a size after which a method is no longer run on those
DURATION = re.compile(r"(?P<number>\d+(?:\.\d*)?)\s*(?P<unit>s|m|h|)")


def parse_duration(text: str) -> float:
    """'90', '90s', '5m', '1.5h' -> seconds; ValueError otherwise."""
    match = DURATION.fullmatch(text.strip())
    if match is None or float(match["number"]) <= 0:
        raise ValueError(f"--fuzz {text}: a duration is a positive number of seconds, or with s, m or h (5m)")
    return float(match["number"]) * {"": 1, "s": 1, "m": 60, "h": 3600}[match["unit"]]


# -- the puzzles ------------------------------------------------------------------------------------------------

Where = tuple[str, Variant, str]  # a method, a size, a kind of puzzle


def kinds_for(size: Variant) -> tuple[str, ...]:
    """The kinds made at a size: a Killer variant's own (its cages drawn over each solution), else the others, and
    on a variant with constraints puzzles that need them."""
    names = KILLER_FUZZED if size.caged else FUZZED + (RULE_FUZZED if size.constrained else ())
    return tuple(name for name in names if size.side <= MADE[name].largest_side)


def fuzzed_variant(text: str) -> Variant:
    """--variant NAME (9x9) or NAME@SIDE; UsageError naming what is wrong."""
    name, at, side = text.partition("@")
    if at and not side.strip().isdigit():
        raise UsageError(f"--variant {text}: the side after @ is a number (jigsaw@16)")
    try:
        return variant(name, int(side) if at else 9)
    except PuzzleError as exc:
        raise UsageError(f"--variant {text}: {exc}") from None


def totals(grid: Grid) -> str:
    """`, 3 totals` for a Killer (the clues of the constraints a maker draws, `Constraint.clues`, which its
    shrinking takes away beside the givens), else nothing."""
    clued = [rule for rule in grid.layout.constraints if rule.CLUE]
    if not clued:
        return ""
    return f", {plural(sum(rule.clues() for rule in clued), clued[0].CLUE)}"


def size_of(grid: Grid) -> str:
    """A puzzle's size as the report names it: `9x9`, or `jigsaw 9x9` for a variant."""
    return Variant(grid.layout.variant, grid.side).label


# -- failures ---------------------------------------------------------------------------------------------------

def trusted_word(result: RunResult | None) -> str:
    if result is None:
        return "nothing"
    if result.status is Status.UNSATISFIABLE:
        return "no solution"
    if result.status is Status.SOLVED:
        return "a solution" if result.unique is None else "a unique solution" if result.unique else \
            "more than one solution"
    return f"{result.status.value} ({result.detail})" if result.detail else result.status.value


def told(result: RunResult) -> str:
    """What a method said of a puzzle, in its own words: why it gave up or erred, or why its answer is wrong."""
    return result.detail or "; ".join(result.problems)


@dataclass(frozen=True)
class Failure:
    method: str
    failure: FailureClass
    puzzle: Grid  # shrunk
    found_on: Grid  # the puzzle the fuzzer made
    puzzle_kind: str
    detail: str
    trusted: str  # what the trusted method says of the shrunk puzzle
    minimal: bool = True  # shrunk to the end: False when the run's time was up first

    def shrunk(self) -> str:
        """`shrunk to 2 clues (from 79)`, and why not 1-minimal when the time was up first."""
        return (f"shrunk to {plural(len(givens_of(self.puzzle)), 'clue')}{totals(self.puzzle)} (from "
                f"{len(givens_of(self.found_on)):,}{totals(self.found_on)})"
                + ("" if self.minimal else ", not 1-minimal: the time was up"))


@dataclass
class Fuzzer:
    settings: Settings  # solver: the methods under test (labels), and commands, registry, budget, jobs
    against: str  # the trusted method's label, with solutions=2
    variants: Sequence[Variant]  # the sizes fuzzed: classic Sudoku's and the variants'
    rng: random.Random
    methods: dict[str, Method] | None = None
    tried: Counter[tuple[str, Variant]] = field(default_factory=Counter)  # (kind, size) -> puzzles
    failing: Counter[tuple[str, FailureClass]] = field(default_factory=Counter)  # (method, class) -> puzzles
    failures: list[Failure] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # kind -> seconds spent making and running
    size_seconds: dict[Variant, float] = field(default_factory=dict)  # size -> seconds spent making and running
    gave_up: Counter[Where] = field(default_factory=Counter)  # give-ups in a row
    cut: set[Where] = field(default_factory=set)  # no longer run
    skipped: Counter[tuple[str, Variant]] = field(default_factory=Counter)  # (method, size) -> puzzles not run
    refused: dict[tuple[str, Variant], str] = field(default_factory=dict)  # (method, size) -> why it cannot run them
    on_found: Callable[[Failure], None] | None = None
    deadline: float | None = None  # time.monotonic()'s end of the run: a round, or a shrink, is cut short there
    unjudged: int = 0  # puzzles made whose runs the deadline stopped (not counted as tried)
    workers: KeptPool = field(default_factory=KeptPool)  # kept while the batches run the same methods (a shrink's)

    def time_up(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    @property
    def under_test(self) -> list[str]:
        return [label for label in self.settings.methods or [] if label != self.against]

    def run_on(self, kind: str, size: Variant) -> list[str]:
        """The methods under test still run on this kind of puzzle at this size."""
        return [label for label in self.under_test if (label, size, kind) not in self.cut]

    @property
    def plan(self) -> list[tuple[str, Variant]]:
        """The kinds and sizes that still get puzzles: those some method under test is still run on."""
        return [(k, v) for v in self.variants for k in kinds_for(v) if self.run_on(k, v) or not self.under_test]

    def run(self, grids: Sequence[Grid], labels: Sequence[str], alone: bool = False) -> list[Judged | None]:
        """Each grid judged, or None where the deadline stopped its runs first; `alone`: the methods without the
        trusted one and the certifier, for a failure a run has by itself (an invalid answer, a crash)."""
        if self.time_up():
            return [None] * len(grids)
        methods = list(dict.fromkeys(labels if alone else [*labels, self.against]))
        batches = run_batch(grids, dataclasses.replace(self.settings, methods=methods), self.methods,
                            certify=not alone, deadline=self.deadline, workers=self.workers)
        return [judged[0] if judged else None for judged in batches]  # one each: no isomorphs

    def round(self, count: int) -> None:
        start = self.rng.randrange(1000)  # where in the cycle of (kind, size) this round begins
        plan = list(itertools.islice(itertools.cycle(self.plan), start, start + count))
        made = []
        for kind, size in plan:
            if self.time_up():
                break
            started = time.perf_counter()
            made.append((kind, size, MADE[kind].make(size.layout(self.rng), self.rng)))
            self.spend(kind, size, time.perf_counter() - started)
        # the puzzles of the sizes that run the same methods in one batch (all of them, until a method is cut)
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, (kind, size, _) in enumerate(made):
            groups.setdefault(tuple(self.run_on(kind, size)), []).append(i)
        judged_of: dict[int, Judged | None] = {}
        for labels, indices in groups.items():
            started = time.perf_counter()
            judged_of.update(zip(indices, self.run([made[i][2] for i in indices], labels), strict=True))
            spent = (time.perf_counter() - started) / len(indices)
            for i in indices:
                self.spend(made[i][0], made[i][1], spent)
        for i, (kind, size, grid) in enumerate(made):
            judged = judged_of[i]
            if judged is None:  # the time was up before its runs were
                self.unjudged += 1
                continue
            self.tried[kind, size] += 1
            for label in self.under_test:
                if label not in judged.labels:
                    self.skipped[label, size] += 1
            for label, result in zip(judged.labels, judged.results, strict=True):
                if label == self.against:
                    continue
                if result.not_run:  # a puzzle it cannot take (a Killer's cages): no finding, and no more of them
                    self.refused.setdefault((label, size), result.detail)
                    self.cut.update((label, size, k) for k in kinds_for(size))
                    continue
                self.count_give_up((label, size, kind), result)
                what = judged.failure(label)
                if what is None:
                    continue
                self.failing[label, what] += 1
                if self.failing[label, what] == 1:
                    self.shrink(label, what, grid, kind, told(result), trusted_word(judged.of(self.against)))

    def spend(self, kind: str, size: Variant, seconds: float) -> None:
        self.seconds[kind] = self.seconds.get(kind, 0.0) + seconds
        self.size_seconds[size] = self.size_seconds.get(size, 0.0) + seconds

    def count_give_up(self, where: Where, result: RunResult) -> None:
        """A give-up adds to the method's give-ups in a row on the kind at the size (GIVE_UPS of them cut it
        there), any answer ends them."""
        if result.status is Status.GAVE_UP:
            self.gave_up[where] += 1
            if self.gave_up[where] >= GIVE_UPS:
                self.cut.add(where)
        else:
            self.gave_up[where] = 0

    def fails(self, label: str, what: FailureClass) -> Callable[[Sequence[Grid]], list[bool]]:
        """Which of the grids `label` fails on as `what`; none, once the time is up (the shrink ends there). A
        failure the method's run shows by itself is checked on that run alone: the trusted method (CP-SAT on a
        near-empty 9x9 spends 0.1 s) would change nothing."""
        alone = what in OWN_FAILURES

        def check(grids: Sequence[Grid]) -> list[bool]:
            return [judged is not None and judged.failure(label) == what
                    for judged in self.run(grids, [label], alone)]
        return check

    def shrink(self, label: str, what: FailureClass, grid: Grid, kind: str, detail: str, trusted: str) -> None:
        """The failure shrunk (as far as the time allows) and kept; `detail` and `trusted`: what the method and the
        trusted one said of `grid`, the puzzle it was found on."""
        small = shrink(grid, self.fails(label, what))
        minimal = not self.time_up()  # every run of the shrink was judged
        judged = self.run([small], [label])[0]
        if judged is None:  # the time was up: what was said of the puzzle found, if it was not made smaller
            mine, trusted = None, trusted if small == grid else "not asked (the time was up)"
        else:
            mine, trusted = judged.of(label), trusted_word(judged.of(self.against))
        said = (told(mine) if mine is not None else "") or detail
        failure = Failure(label, what, small, grid, kind, said or f"it said {mine.status.value if mine else None}",
                          trusted, minimal)
        self.failures.append(failure)
        if self.on_found is not None:
            self.on_found(failure)

    @property
    def puzzles(self) -> int:
        return sum(self.tried.values())


def trusted_label(against: str) -> str:
    """--against's method, asked to prove its solution unique; UsageError for a spec that cannot be read."""
    try:
        return MethodSpec.parse(against).replaced("solutions", "2").label
    except OptionError as exc:
        raise UsageError(f"--against {against}: {exc}") from None


REPOSITORY = Path(__file__).resolve().parents[2]  # where compare.py is: its folder is on its own sys.path


@dataclass(frozen=True)
class Rerun:
    """What a run of compare.py on the failing puzzles needs to fail as the fuzz run did: its --registry modules
    (and the folders they were imported from, which PYTHONPATH must give a run started elsewhere), the
    --command programs, the trusted method, the budgets and the solutions asked for."""

    registry: Sequence[str]
    commands: Sequence[str]
    against: str
    timeout: float
    nodes: int | None
    solutions: int
    paths: Sequence[str] = ()  # PYTHONPATH's folders

    def line(self, path: str, methods: Sequence[str]) -> str:
        """The shell command that runs compare.py on `path` with the failing `methods` and the trusted one."""
        names = {MethodSpec.name_of(label) for label in methods}
        words = [os.path.relpath(REPOSITORY / "compare.py"), path,
                 *itertools.chain.from_iterable(("--registry", r) for r in self.registry),
                 *itertools.chain.from_iterable(("--command", c) for c in self.commands if command_name(c) in names),
                 *itertools.chain.from_iterable(("--solver", m) for m in [*methods, self.against]),
                 "--timeout", f"{self.timeout:g}", *(["--nodes", str(self.nodes)] if self.nodes else []),
                 *(["--solutions", str(self.solutions)] if self.solutions > 1 else [])]
        prefix = f"PYTHONPATH={shlex.quote(os.pathsep.join(self.paths))} " if self.paths else ""
        return prefix + "python " + " ".join(shlex.quote(word) for word in words)


def import_folder(name: str) -> str | None:
    """The folder the --registry module `name` (imported already) was found in, where a compare.py started in
    the working folder would not find it by itself: None when it is the working folder, the repository or an
    installed package's (site-packages, the standard library)."""
    file = getattr(sys.modules.get(name), "__file__", None)
    if file is None:
        return None
    folder = Path(file).resolve().parent
    for _ in range(name.count(".") + (Path(file).name == "__init__.py")):  # a package's, or a dotted name's, root
        folder = folder.parent
    found = {Path.cwd().resolve(), REPOSITORY, *(Path(p).resolve() for p in site.getsitepackages()),
             Path(site.getusersitepackages()).resolve(),
             *(Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "purelib", "platlib"))}
    return None if folder in found else str(folder)


def failure_lines(fuzzer: Fuzzer, rerun: Rerun, path: str) -> list[str]:
    """The failing puzzles as a puzzle file: a comment on what each does, then the shrunk puzzle and a name."""
    failing = list(dict.fromkeys(f.method for f in fuzzer.failures))
    shrunk = "each shrunk to a 1-minimal puzzle" + ("" if all(f.minimal for f in fuzzer.failures) else
                                                    " where the time allowed")
    lines = [f"# compare.py --fuzz: {plural(len(fuzzer.failures), 'distinct failure')}, {shrunk}."]
    if failing:
        lines.append(f"# Reproduce: {rerun.line(path, failing)}")
    for i, f in enumerate(fuzzer.failures, 1):
        lines.append(f"# {f.method}: {f.failure} ({f.detail[:160]}); {fuzzer.against} (trusted) says: {f.trusted}; "
                     f"found on a {f.puzzle_kind} puzzle of {plural(len(givens_of(f.found_on)), 'clue')}"
                     + ("" if f.minimal else "; not 1-minimal: the time was up"))
        lines.append(f"{f.puzzle.text()} fuzz-{i}-{re.sub(r'[^A-Za-z0-9]+', '-', f.method)}-"
                     f"{f.failure.replace(' ', '-')}")
    return lines


def write_failures(path: str, fuzzer: Fuzzer, rerun: Rerun) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(failure_lines(fuzzer, rerun, path)) + "\n")


@dataclass(frozen=True)
class FuzzSettings:
    """What a fuzz run does: compare.py --fuzz's options, each of its own type (compare.py builds it once from its
    command line; a Python caller gets the same checks)."""

    duration: float | None  # seconds (--fuzz DURATION, parse_duration); None: --limit puzzles
    limit: int | None  # puzzles made
    output: str | None  # the failing puzzles' file, named as given: the report and the Reproduce line say it so
    methods: tuple[str, ...]  # --solver specs; none: every method
    command: tuple[str, ...]  # --command specs
    registry: tuple[str, ...]  # --registry modules
    timeout: float
    nodes: int | None
    solutions: int
    jobs: int | None
    seed: int
    against: str  # the trusted method's spec, as given
    variants: tuple[Variant, ...]  # each once (fuzzed_variant reads --variant NAME[@SIDE])
    boxes: tuple[int, ...]  # --box; none, and no variant: 2, 3 and 4

    def __post_init__(self) -> None:
        if self.duration is None and self.limit is None:
            raise UsageError("--fuzz needs a DURATION (--fuzz 5m) or --limit N puzzles")
        if self.output and self.output.lower().endswith((".csv", ".jsonl")):
            raise UsageError(f"--fuzz --output {self.output}: the failing puzzles are a puzzle file (line format); "
                             "name it .txt")

    @property
    def settings(self) -> Settings:
        """The run's settings: the methods under test, their budgets, the workers and the seed."""
        return Settings(methods=list(self.methods) or None, command=list(self.command) or None,
                        registry=list(self.registry) or None, timeout=self.timeout, nodes=self.nodes,
                        solutions=self.solutions, jobs=self.jobs, seed=self.seed)

    @property
    def sizes(self) -> list[Variant]:
        """The sizes fuzzed: classic Sudoku's at each box size, then the variants."""
        boxes = sorted(set(self.boxes or ([] if self.variants else [2, 3, 4])))
        return list(dict.fromkeys([variant("classic", box * box) for box in boxes] + list(self.variants)))


def fuzz_main(asked: FuzzSettings, methods: dict[str, Method] | None, console: Console) -> int:
    """compare.py --fuzz: returns the exit status (0 nothing found, 1 a failure found, 2 usage, 130 Ctrl-C)."""
    try:
        settings = asked.settings
        against = trusted_label(asked.against)
        wanted = dataclasses.replace(settings, methods=[*asked.methods, against]) if asked.methods else settings
        registry = registry_of(wanted, methods)  # the trusted method's registry imported too
        check_commands_selected(asked.command, asked.methods)
        selected = select_methods(asked.methods, registry, asked.solutions, settings.budget)
        select_methods([against], registry, 2, settings.budget)  # the trusted method must exist too
    except (UsageError, ValueError) as exc:
        print(f"compare.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    fuzzer = Fuzzer(dataclasses.replace(settings, methods=[s.label for s in selected]), against, asked.sizes,
                    random.Random(asked.seed), methods)
    paths = [folder for folder in map(import_folder, asked.registry) if folder is not None]
    rerun = Rerun(asked.registry, asked.command, asked.against, asked.timeout, asked.nodes, asked.solutions,
                  list(dict.fromkeys(paths)))
    duration, limit, output = asked.duration, asked.limit, asked.output

    def found(failure: Failure) -> None:
        console.print(f"[bold red]found[/] {failure.method}: {failure.failure} on a {failure.puzzle_kind} "
                      f"{size_of(failure.puzzle)} puzzle, {failure.shrunk()}")
        if output:
            write_failures(output, fuzzer, rerun)
    fuzzer.on_found = found
    status = EXIT_OK
    started = time.monotonic()
    fuzzer.deadline = None if duration is None else started + duration  # a round, or a shrink, is cut short there
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    total = duration if duration is not None else float(limit or 0)  # one of the two is given (FuzzSettings)
    bar = Progress(TextColumn("fuzzing"), BarColumn(), TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())
    try:  # from the first line on, a Ctrl-C ends the run with its report
        console.print(kernels.BUILD.line(), markup=False, highlight=False)  # first: which build of the searches runs
        with bar:
            task = bar.add_task("fuzz", total=total, note="")
            while True:
                left = None if limit is None else limit - fuzzer.puzzles
                if (left is not None and left <= 0) or fuzzer.time_up():
                    break
                if not fuzzer.plan:
                    console.print(f"Every method under test gave up {GIVE_UPS} times in a row on every kind at "
                                  "every size: the run stops here")
                    break
                fuzzer.round(min(ROUND, left) if left is not None else ROUND)
                done = time.monotonic() - started if duration is not None else fuzzer.puzzles
                bar.update(task, completed=min(done, total),
                           note=f"{plural(fuzzer.puzzles, 'puzzle')}, {plural(len(fuzzer.failures), 'failure')}")
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
    finally:
        with signals_held():
            fuzzer.workers.close()
    report(console, fuzzer, time.monotonic() - started, interrupted=status == EXIT_INTERRUPTED)
    if output:
        write_failures(output, fuzzer, rerun)
        console.print(f"Failing puzzles written to {output}" if fuzzer.failures
                      else f"No failure: {output} holds none")
    elif fuzzer.failures:  # not thrown away: shown as the file --output would hold (save them as FILE.txt)
        console.print("Failing puzzles (--output FILE.txt keeps them):")
        console.print("\n".join(failure_lines(fuzzer, rerun, "FILE.txt")), markup=False, highlight=False,
                      soft_wrap=True)
    return status or (EXIT_FAILED if fuzzer.failures else EXIT_OK)


def per_minute(count: int, seconds: float | None) -> float:
    return count / seconds * 60 if seconds else 0.0


def report(console: Console, fuzzer: Fuzzer, seconds: float, interrupted: bool = False) -> None:
    # the title on a line of its own: a table's title wraps at the table's width, which the per-minute figures set
    console.print(f"Puzzles tried against {fuzzer.against}, by kind and size")
    table = Table()
    table.add_column("kind")
    for size in fuzzer.variants:
        table.add_column(size.label, justify="right")
    table.add_column("per minute", justify="right")
    for kind in FUZZED + RULE_FUZZED + KILLER_FUZZED:
        counts = [fuzzer.tried[kind, size] for size in fuzzer.variants]
        if not any(counts):
            continue
        table.add_row(kind, *(f"{c:,}" for c in counts), f"{per_minute(sum(counts), fuzzer.seconds.get(kind)):,.1f}")
    table.add_section()
    at_size = [sum(fuzzer.tried[kind, size] for kind in kinds_for(size)) for size in fuzzer.variants]
    table.add_row("per minute", *(f"{per_minute(count, fuzzer.size_seconds.get(size)):,.1f}"
                                  for count, size in zip(at_size, fuzzer.variants, strict=True)),
                  f"{per_minute(sum(at_size), sum(fuzzer.size_seconds.values())):,.1f}")
    console.print(table)
    console.print(f"Methods under test: {', '.join(fuzzer.under_test)}")
    for label in fuzzer.under_test:
        for size in fuzzer.variants:
            if (label, size) in fuzzer.refused:
                console.print(f"{label}: not run on {size.label} puzzles ({fuzzer.refused[label, size]}), not a "
                              "failure", soft_wrap=True, markup=False)
                continue
            kinds = [kind for kind in kinds_for(size) if (label, size, kind) in fuzzer.cut]
            if kinds:
                skipped = fuzzer.skipped[label, size]
                since = f", not run on the {skipped:,} made since" if skipped else ""
                console.print(f"{label}: cut back at {size.label} on {', '.join(kinds)} puzzles after {GIVE_UPS} "
                              f"give-ups in a row on each{since}", soft_wrap=True)
    plan = fuzzer.plan
    for size in fuzzer.variants:
        dropped = [kind for kind in kinds_for(size) if (kind, size) not in plan]
        if dropped:
            console.print(f"{size.label}: no more {', '.join(dropped)} puzzles made once every method under test "
                          "was cut back on them", soft_wrap=True)
    if fuzzer.unjudged:
        console.print(f"The time was up: the runs of the last {plural(fuzzer.unjudged, 'puzzle')} made were stopped, "
                      "not counted", soft_wrap=True)
    for (method, what), count in sorted(fuzzer.failing.items()):
        console.print(f"[bold red]{method}: {what} on {plural(count, 'puzzle')}[/]")
    tried = f"{plural(fuzzer.puzzles, 'puzzle')} ({seconds:,.0f} s)"
    if interrupted:  # Ctrl-C: what was tried before it, no verdict on the rest
        found = (f"[bold red]{plural(len(fuzzer.failures), 'distinct failure')} found" if fuzzer.failures
                 else "[yellow]no failure found")
        console.print(f"[yellow]Interrupted after {tried}:[/] {found} so far[/]")
        return
    verdict = (f"[bold red]FAILED: {plural(len(fuzzer.failures), 'distinct failure')}" if fuzzer.failures
               else "[green]OK: no failure")
    console.print(f"{verdict} in {tried}[/]")
