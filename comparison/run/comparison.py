"""One run, the same from the shell and from Python: settings in, records out as puzzles finish, a summary.

compare.py builds a Comparison from its command line and prints its report;
`compare(...)` builds one from keyword arguments for a notebook. Iterating it
runs it (once) and yields one record a (puzzle, method), a dict, as each puzzle is judged;
`batches` hands them typed (records/format.py's Record) to compare.py, the page and the ladder.
"""
from __future__ import annotations

import itertools
import os
import random
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.markup import escape

from puzzles import BadEntry, Entry, Grid, Method, PuzzleFileError, data
from puzzles.conclusion import COUNTING
from puzzles.isomorph import group_of, swaps_lines
from puzzles.options import ALL, MethodSpec
from puzzles.signals import signals_held
from puzzles.words import plural

from ..core.errors import UsageError
from ..core.selected import CERTIFIER, Selected, certifier
from ..core.settings import Settings
from ..core.stream import Puzzle, good_entries, open_inputs, puzzles_of, reservoir
from ..execution.cluster import Cluster
from ..execution.pool import GRACE_FRACTION, GRACE_SECONDS, KeptPool, Pool
from ..judging.judge import Judged
from ..judging.stats import MethodStats, Summary
from ..records.format import Record, Records, RecordWriter, counter_columns
from ..records.resume import KeptRecords, contents, real_paths, resume, write_settings
from ..report.terminal import ProgressBar, print_report
from .methods import (
    check_commands_selected,
    command_methods,
    command_name,
    extra_methods,
    load_registry,
    select_methods,
)
from .tracker import Tracker

if TYPE_CHECKING:  # pandas is an optional extra
    import pandas as pd

IN_MEMORY = "<memory>"  # the file of puzzles made in memory
DEFAULT_FILE = Path(__file__).resolve().parents[2] / "puzzles" / "seeds.txt"


def registry_of(settings: Settings, methods: dict[str, Method] | None = None, everything: bool = False
                ) -> dict[str, Method]:
    """The methods to choose from: the registries (or `methods`, as tests give them), --registry modules and
    --command programs. Only the registries that the chosen methods need are imported, unless `everything`."""
    extra = extra_methods(settings.registry or [])
    specs = settings.methods if settings.methods and not everything else None
    wanted = None if specs is None else [MethodSpec.name_of(spec) for spec in specs]
    own = {command_name(spec) for spec in settings.command or []}
    if wanted is not None:
        wanted = [name for name in wanted if name not in extra and name not in own]
    registry = {**(load_registry(wanted) if methods is None else methods), **extra}
    return {**registry, **command_methods(settings.command or [], [*registry, CERTIFIER])}


class Comparison:
    """A run of methods on puzzle files: iterate it for its records as puzzles finish; `summary` says the rest.

    Everything that can be refused (methods, options, files) is refused here, with a UsageError or a
    PuzzleFileError, before any worker starts. The run starts at the first record asked for, and runs once:
    iterating again yields the records kept so far, then the rest.
    """

    def __init__(self, settings: Settings, methods: dict[str, Method] | None = None,
                 puzzles: Sequence[Grid] | None = None) -> None:
        """`puzzles`: run these grids, made in memory, instead of the settings' files (run/batch.py)."""
        self.settings = settings
        self.registry = registry_of(settings, methods)
        check_commands_selected(settings.command or [], settings.methods)
        self.selected = select_methods(settings.methods, self.registry, settings.solutions, settings.budget)
        if puzzles is None:
            self.files = [puzzle_file(str(f)) for f in settings.files] or [os.path.relpath(DEFAULT_FILE)]
            self.inputs = open_inputs(self.files, settings.input_format, note, settings.decorations,
                                      settings.accept_fields)
        else:
            self.files = []
            self.inputs = [iter([Entry(IN_MEMORY, i + 1, grid) for i, grid in enumerate(puzzles)])]
        known = None if puzzles is None else len(puzzles)
        self.jobs = worker_count(settings, self.files, len(self.selected), known) if settings.cluster is None else 0
        self.certify_with = certifier(self.registry, methods is not None) if settings.certify else None
        self.records = Records(counter_columns(self.selected), counting=settings.solutions >= COUNTING,
                               candidates=settings.candidates)
        self.summary = Summary([MethodStats(s.label, s.method.no_guess if isinstance(s.method, Method) else None)
                                for s in self.selected])
        self.wall = self.busy_seconds = 0.0
        self.kept: list[Record] = []  # the records iteration has yielded
        self.tracker: Tracker | None = None
        self.resumed: KeptRecords | None = None  # what --resume kept of the output file
        self._running: Iterator[list[Record]] | None = None
        self.on_judged: Callable[[Judged], None] | None = None  # hears each judged puzzle, typed
        self.groups: dict[str, str] = {}  # a variant whose isomorphs were drawn -> the group they came from
        self.cut_short = False  # the run's deadline came before its end (batches)

    def batches(self, writer: RecordWriter | None = None, progress: ProgressBar | None = None,
                deadline: float | None = None, workers: KeptPool | None = None) -> Generator[list[Record], None, None]:
        """The run, round by round: the records of the puzzles each round finished (and of the bad entries
        met), written to `writer` first, under held signals, so that a puzzle's records are written whole.

        A writer that fails stops the run (its `failed` says why); so does the `deadline` (time.monotonic's,
        read at least every half second: `cut_short` then says so, the runs in flight are stopped and the
        puzzles they leave unjudged are not recorded); anything raised stops it too, and the workers, with
        whatever their methods started, are gone when this ends, however it ends: unless `workers` keeps them for
        the next batch of the same runs, after a batch that ran to its end.
        """
        settings = self.settings
        runners = list(self.selected)
        if self.certify_with is not None:
            asked = max(settings.solutions, 2)  # uniqueness, or the count when the run counts
            runners.append(Selected(f"{CERTIFIER}:solutions={asked}", self.certify_with, {"solutions": asked}))
        started = time.perf_counter()  # the wall time covers the workers' start-up
        limit = settings.timeout * (1 + GRACE_FRACTION) + GRACE_SECONDS
        pool: Pool | Cluster
        if settings.cluster is None:
            pool = Pool(self.jobs, runners, settings.budget, limit) if workers is None \
                else workers.take(self.jobs, runners, settings.budget, limit)
        else:  # the same chunks, as Dask tasks
            pool = Cluster(settings.cluster, runners, settings.budget, limit)
            self.jobs = pool.jobs
        tracker = self.tracker = Tracker(self.selected, self.certify_with is not None, pool.queue, self.summary,
                                         self.records, progress or ProgressBar(None, False), settings.candidates,
                                         twin_of(runners[-1], self.selected) if self.certify_with is not None else None)
        tracker.on_judged = self.on_judged
        kept = self.resumed or KeptRecords("")
        for _ in range(len(kept.puzzles)):
            tracker.progress.advance()

        def bad_entry(entry: BadEntry) -> None:
            if (entry.file, entry.line) not in kept.bad:  # recorded already
                tracker.bad_entry(entry)
        entries: Iterable[tuple[int, Any]] = good_entries(self.inputs, bad_entry)
        if settings.limit:
            entries = itertools.islice(entries, settings.limit)
        if settings.sample:
            entries = reservoir(entries, settings.sample, random.Random(settings.seed))
        puzzles = (self.seen(p) for p in puzzles_of(entries, settings.isomorphs, settings.seed)
                   if (p.file, p.line, p.isomorph) not in kept.puzzles)
        items = tracker.items(puzzles)
        whole = False  # the batch ran to its end: a kept pool stays
        try:
            while not pool.finished() or tracker.done:
                pool.dispatch(items)
                messages = [] if pool.finished() else pool.collect()
                with signals_held():  # a puzzle's records are written whole, or not at all
                    for result in messages:
                        tracker.add(result)
                    done = self.write(tracker.take(), writer)
                if writer is not None and writer.failed:  # records that cannot be kept are not worth computing
                    pool.terminate()
                    return
                if done:
                    yield done
                if deadline is not None and time.monotonic() >= deadline and not pool.finished():
                    self.cut_short = True
                    pool.terminate()
                    return
            whole = True
        except BaseException:  # an interrupt, a file failing mid-read, or the caller closing this generator
            pool.terminate()
            for result in pool.unsettled():  # finished runs whose programs' later output is now unseen
                tracker.add(result)
            raise
        finally:
            with signals_held():
                if workers is None or pool is not workers.pool:
                    pool.close()
                elif not whole:
                    workers.close()
            self.wall = time.perf_counter() - started
            self.busy_seconds = pool.busy_seconds

    def resume(self, output: str, fmt: str, identity: dict[str, Any],
               on_kept: Callable[[list[Record]], None] | None = None) -> bool:
        """--resume: keep the judged puzzles of `output` (their records, in the summary, and to `on_kept`), run
        the rest; whether the file holds records to append to. UsageError naming the difference if it was run
        otherwise than this run's `identity` (the caller's: it hashes every input file, once)."""
        self.resumed = resume(output, fmt, identity, [s.label for s in self.selected],
                              self.records.fields, self.settings.certify, self.summary, on_kept)
        return self.resumed is not None

    def identity(self, fmt: str) -> dict[str, Any]:
        """What makes the records of two runs the same records (FILE.settings.json): everything but how many
        workers ran them (and the names of the inputs: `paths` makes two names the same file, records/resume.py)."""
        s = self.settings
        return {"files": self.files, "paths": real_paths(self.files), "input_format": s.input_format,
                "methods": sorted(sel.label for sel in self.selected), "commands": s.command or [],
                "timeout": s.timeout, "nodes": s.nodes, "solutions": s.solutions, "limit": s.limit, "sample": s.sample,
                "seed": s.seed, "isomorphs": s.isomorphs, "certify": s.certify, "format": fmt,
                "fields": self.records.fields, "contents": contents(self.files),
                **({"decorations": s.decorations} if s.decorations != "refuse" else {}),  # older runs' stay the same
                **({"accept_fields": list(s.accept_fields)} if s.accept_fields else {})}

    @staticmethod
    def write(groups: list[list[Record]], writer: RecordWriter | None) -> list[Record]:
        """Each group of records (a puzzle's) written and flushed whole; all of them, as one list."""
        for group in groups:
            if writer is not None:
                for record in group:
                    writer.write_record(record)
                writer.flush()
        return list(itertools.chain.from_iterable(groups))

    def unfinished(self) -> list[list[Record]]:
        """After an interrupt: the records not yet taken, and the runs that finished, of puzzles that did not."""
        if self.tracker is None:
            return []
        self.tracker.write_unfinished()
        return self.tracker.take()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The records as dicts (a record's line in the file: Records.row), the Python API's form."""
        yield from [self.records.row(record) for record in self.kept]
        if self._running is None:
            self._running = self.batches()
        for batch in self._running:
            self.kept.extend(batch)
            yield from (self.records.row(record) for record in batch)

    def to_pandas(self) -> pd.DataFrame:
        """Every record (running what is left of the run) as a DataFrame: a row a (puzzle, method), a column
        a record field, and one a counter (needs pandas: pip install 'sudoku-search[pandas]'). The `info` column
        stays one of dicts: its facts differ from method to method and nest (the searches' rules), and a fact's
        name may be a counter's or a field's; pd.json_normalize(frame["info"]) spreads them when wanted."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install 'sudoku-search[pandas]'") from None
        rows = [{k: v for k, v in record.items() if k != "extra"} | (record["extra"] or {}) for record in self]
        columns = [c for c in dict.fromkeys(itertools.chain(self.records.fields, *rows)) if c != "extra"]
        return pd.DataFrame(rows, columns=columns)

    @property
    def failed(self) -> bool:
        """An invalid answer or a disagreement so far (compare.py's exit status 1)."""
        return self.summary.failed

    def header(self, interrupted: bool = False) -> str:
        """The report's first line: what ran, on what, how long it took and with which settings."""
        s = self.settings
        busy = self.busy_seconds / (self.jobs * self.wall) if self.wall > 0 else 0.0
        names = ", ".join("<stdin>" if f == "-" else f for f in self.files)
        where = f" on the Dask cluster {s.cluster}" if s.cluster else ""
        settings = [f"{plural(self.jobs, 'worker')}{where} ({busy:.0%} busy)", f"timeout {s.timeout:g} s"]
        settings += [f"nodes {s.nodes}"] if s.nodes else []
        settings += [f"solutions={s.solutions}"] if s.solutions > 1 else []
        settings += [f"first {s.limit}"] if s.limit else []
        settings += [f"sample of {s.sample} (seed {s.seed})"] if s.sample else []
        settings += [f"{plural(s.isomorphs, 'isomorph')} each (seed {s.seed})"] if s.isomorphs else []
        settings += [f"{variant}'s isomorphs by {group}" for variant, group in sorted(self.groups.items())]
        if self.resumed is not None:
            settings += [f"{plural(len(self.resumed.puzzles), 'puzzle')} kept from {self.resumed.path}"]
        line = (f"{escape(names)}: {plural(self.summary.puzzles, 'puzzle')} x "
                f"{plural(len(self.summary.stats), 'method')} in {self.wall:.2f} s wall, " + ", ".join(settings))
        return line + ("  [yellow](interrupted)[/]" if interrupted else "")

    def seen(self, puzzle: Puzzle) -> Puzzle:
        """A puzzle on its way to the workers: a variant's isomorph group noted for the header."""
        lay = puzzle.grid.layout
        if puzzle.isomorph and not swaps_lines(lay) and lay.variant not in self.groups:
            self.groups[lay.variant] = group_of(lay)
        return puzzle

    def report(self, console: Console | None = None, interrupted: bool = False) -> None:
        """compare.py's report: the tables and the lists of what went wrong."""
        print_report(console or Console(), self.summary, self.header(interrupted), interrupted=interrupted,
                     certifying=self.certify_with is not None)


def twin_of(cert: Selected, selected: Sequence[Selected]) -> int | None:
    """The index of the selected method whose run is the certifier's `cert` itself (the same method with the same
    options, under the run's one budget), if one is: CP-SAT asked to prove uniqueness, as the certifier is."""
    asked = {name: str(value) for name, value in cert.options.items()}
    return next((i for i, s in enumerate(selected) if s.method is cert.method
                 and {name: str(value) for name, value in s.options.items()} == asked), None)


class Runner(Protocol):
    """What compare.py runs, one way for both: a plain comparison (Plain) or the ladder (ladder.py's Ladder)."""

    @property
    def comparison(self) -> Comparison: ...
    def open_records(self, output: str, fmt: str, resume: bool,
                     on_kept: Callable[[list[Record]], None] | None) -> RecordWriter: ...
    def add(self, records: Iterable[Record]) -> None: ...
    def report(self, console: Console, interrupted: bool = False) -> None: ...
    @property
    def failed(self) -> bool: ...
    def page_ladder(self) -> list[dict[str, Any]] | None: ...


class Plain:
    """compare.py without --ladder: the Comparison, its records as they are, its report."""

    def __init__(self, settings: Settings, methods: dict[str, Method] | None = None) -> None:
        self.comparison = Comparison(settings, methods)

    def open_records(self, output: str, fmt: str, resume: bool,
                     on_kept: Callable[[list[Record]], None] | None) -> RecordWriter:
        """The --output writer; with --resume, after the records the file keeps (each group to `on_kept` too).
        Its settings go beside it."""
        identity = self.comparison.identity(fmt)
        append = self.comparison.resume(output, fmt, identity, on_kept) if resume else False
        kept = self.comparison.resumed.records if self.comparison.resumed is not None else 0
        writer = RecordWriter(output, fmt, self.comparison.records.fields, append=append, kept=kept)
        write_settings(output, identity)
        return writer

    def add(self, records: Iterable[Record]) -> None:
        """The records are the run's whole result: nothing to add them to."""

    def report(self, console: Console, interrupted: bool = False) -> None:
        self.comparison.report(console, interrupted)

    @property
    def failed(self) -> bool:
        return self.comparison.failed

    def page_ladder(self) -> list[dict[str, Any]] | None:
        return None


def compare(files: Sequence[str | os.PathLike[str]] = (), solvers: Sequence[str] | None = None, *,
            commands: Sequence[str] = (), registry: Sequence[str] = (), timeout: float = 10.0,
            nodes: int | None = None, solutions: int | str = 1, limit: int | None = None, sample: int | None = None,
            seed: int = 0, isomorphs: int | None = None, jobs: int | None = None, certify: bool = True,
            input_format: str | None = None, decorations: str = "refuse", cluster: str | None = None,
            candidates: bool = False, accept_fields: Sequence[str] = ()) -> Comparison:
    """compare.py from Python: the same options by the same names (`solvers` for --solver).

    >>> run = compare(["puzzles/seeds.txt"], solvers=["mrv:propagate=singles", "cpsat"], timeout=5)
    >>> frame = run.to_pandas()   # or: for record in run: ...; then run.summary, run.report()

    `solutions`: 1, 2, N > 2 to count the solutions up to N, or "all" (up to puzzles.options.ALL).
    """
    if solutions == "all":
        solutions = ALL
    if isinstance(solutions, str):
        raise UsageError(f"solutions={solutions!r}: a whole number, 1 or more, or all")
    return Comparison(Settings(files=[os.fspath(f) for f in files], methods=list(solvers) if solvers else None,
                               command=list(commands), registry=list(registry), timeout=timeout, nodes=nodes,
                               solutions=solutions, limit=limit, sample=sample, seed=seed, isomorphs=isomorphs,
                               jobs=jobs, certify=certify, input_format=input_format, decorations=decorations,
                               cluster=cluster, candidates=candidates, accept_fields=tuple(accept_fields)))


def puzzle_file(file: str) -> str:
    """A path as it is; the name of a public collection (`top95`, see `sudoku-data list`) as its file, found by
    puzzles/data.py's lookup, or a PuzzleFileError naming the command that fetches it."""
    try:
        return data.resolve(file)
    except data.MissingCollection as exc:
        raise PuzzleFileError(str(exc)) from None


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # honours taskset and container CPU sets
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def worker_count(settings: Settings, files: Sequence[str], methods: int, known: int | None = None) -> int:
    """--jobs, capped at the cores this process may use and at the runs there are, with a note when capped."""
    cores = usable_cores()
    # the default is capped quietly, and so is a batch of puzzles made in memory (`known`): a program runs many,
    # some smaller than its --jobs (a shrink's checks of one method on one puzzle), and the note would say nothing
    explicit = settings.jobs is not None and known is None
    jobs = settings.jobs if settings.jobs is not None else cores
    if jobs > cores:
        note(f"--jobs {jobs}: this process may use {plural(cores, 'core')}, so {plural(cores, 'worker')} run")
        jobs = cores
    puzzles = expected_puzzles(settings, files, at_most=jobs, known=known)
    if puzzles is None:
        return jobs
    runs = puzzles * methods
    if runs < jobs:
        if explicit:
            note(f"--jobs {jobs}: only {plural(runs, 'run')} to do, so {plural(max(runs, 1), 'worker')}")
        jobs = max(runs, 1)
    return jobs


def expected_puzzles(settings: Settings, files: Sequence[str], at_most: int | None = None,
                     known: int | None = None) -> int | None:
    """How many puzzles the run will judge (counting stops past `at_most` of the files', or `known` of puzzles
    held in memory); None if unknown.

    Counting reads the files once more (about 30 us a puzzle): the progress bar's time left needs the
    whole count, and --jobs needs to know only whether there are fewer runs than workers.
    """
    count = known
    if known is None and "-" not in files:  # standard input can be read only once
        try:
            inputs = open_inputs(files, settings.input_format, decorations=settings.decorations,
                                 accepted=settings.accept_fields)
            entries = good_entries(inputs, lambda _: None)
            count = sum(1 for _ in itertools.islice(entries, at_most))
        except PuzzleFileError:
            count = None
    bounds = [n for n in (count, settings.limit, settings.sample) if n is not None]
    return min(bounds) * (settings.isomorphs or 1) if bounds else None


def note(message: str) -> None:
    print(f"compare.py: note: {message}", file=sys.stderr)

