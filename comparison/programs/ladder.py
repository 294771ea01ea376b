"""The ladder report (compare.py --ladder): which rungs of both ladders settle each puzzle without a guess.

A rung settles a puzzle when, alone, it solves it (or refutes it) with no guess, by the method's own
count (`Method.no_guess`: guesses for the searches and SAT, branches for CP-SAT, B&B nodes for the MIP).
Each rung is a method of the registries with the options that make it that rung, run by the one
Comparison (its pool, budgets, isolation, judging and records) with a node budget of 1: a rung that
cannot settle a puzzle stops at its first node instead of searching on. A run that ran out of time or
failed is neither settled nor unsettled: the report says so. A rung may instead be told by a fact of
another rung's run (its Outcome's info, in the records): the MIP's root LP is solved by the MIP rung's
run, whose one record gives both rungs' verdicts (measured on top1465: 8 ms a puzzle more, where a run of its
own costs 22).

The literature states three equivalences (Lynce and Ouaknine 2006; tdoku's benchmark), checked on every
puzzle: unit propagation on the complete encoding settles a puzzle exactly when naked and hidden singles
do; on the augmented (triad) encoding exactly when singles and locked candidates do; on the minimal and
the natural encodings exactly when naked singles alone do. Each is a theorem about the clauses, on classic
Sudoku and on every layout of its family (the rules stated for houses, the triads where any two houses cross:
formulations/cnf.py's `segments`): any counterexample is a bug, printed with its puzzle and the rungs that
differ, and fails the run.

On Killer puzzles (when the first puzzles of a file have cages) the ladder adds the Killer's rungs
(`killer_rungs`): the hand-written cage rungs, unit propagation with each SAT sum encoding, CP-SAT's presolve
on each way of stating a cage, and the 45 rule's sums in SAT, CP-SAT and the MIP. Which of them settle the same
puzzles is measured, not a theorem: the equivalences above are checked on the puzzles without cages only.
"""
from __future__ import annotations

import dataclasses
import itertools
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from puzzles import Entry, GaveUp, Method, PuzzleFileError, Status, read_puzzles
from puzzles.words import plural

from ..core.settings import Settings
from ..records.format import Record, RecordWriter
from ..report.terminal import NOTABLE, red_if
from ..run.comparison import Comparison

SETTLED, NOT_SETTLED, GAVE_UP, ERROR, INVALID = "settled", "not settled", "gave up", "error", "invalid"
NOT_SETTLED_REASONS = (GaveUp.NODES.value, GaveUp.INCOMPLETE.value)  # stopped at its first node: no more to it
LADDER_FIELDS = ("rung", "ladder", "settled")  # added in front of each record's fields


@dataclass(frozen=True)
class Rung:
    """One rung: what the table calls it, its ladder, the method spec that runs it, tdoku's share by set.

    `by_info`, when given, tells from the run's info whether the rung settled the puzzle (True, False, or
    None when the info does not say: the run stopped first), and `seconds` which fact is the rung's time;
    its run may serve another rung too (the same method spec), and is run once.
    """

    name: str
    ladder: str
    method: str  # NAME[:key=value,...]
    reference: dict[str, float] = dataclasses.field(default_factory=dict)  # set -> % settled (docs/reference/data.md)
    by_info: Callable[[Mapping[str, Any]], bool | None] | None = None
    seconds: str | None = None  # the info's fact that is the rung's own time (else the run's)


def root_lp_settles(info: Mapping[str, Any]) -> bool | None:
    """The MIP's root LP settles a puzzle when its optimal vertex is 0-1 (then a solution: no objective, and
    every constraint met) or when it is infeasible (then no solution either); None when it was not solved."""
    if info.get("root_lp_infeasible"):
        return True
    integral = info.get("root_lp_integral")
    return integral if isinstance(integral, bool) else None


# In the order of strength, the formulations' rungs beside the hand-written rung they match.
LADDER_RUNGS = (
    Rung("naked", "hand-written", "mrv:propagate=naked", {"17-clue": 0.0, "top1465": 0.0}),
    Rung("UP minimal", "SAT", "sat:encoding=minimal,search=off,incremental=on", {"17-clue": 0.0, "top1465": 0.0}),
    Rung("UP natural", "SAT", "sat:encoding=natural,search=off,incremental=on", {"17-clue": 0.0, "top1465": 0.0}),
    Rung("singles", "hand-written", "mrv:propagate=singles", {"17-clue": 44.6, "top1465": 0.0}),
    Rung("UP complete", "SAT", "sat:encoding=complete,search=off,incremental=on", {"17-clue": 44.5, "top1465": 0.0}),
    Rung("locked", "hand-written", "mrv:propagate=locked", {"17-clue": 76.0, "top1465": 4.1}),
    Rung("UP augmented", "SAT", "sat:encoding=augmented,search=off,incremental=on", {"17-clue": 76.0, "top1465": 4.0}),
    Rung("subsets", "hand-written", "mrv:propagate=subsets"),
    Rung("alldiff", "hand-written", "mrv:propagate=alldiff"),
    Rung("probe", "hand-written", "mrv:propagate=probe"),
    Rung("failed literals", "SAT", "sat:encoding=complete,search=off,probe=on,incremental=on"),
    Rung("CP-SAT presolve", "CP-SAT", "cpsat"),  # no branch: presolve (and root propagation) settled it
    # The root LP (GLOP, once, before SCIP) and the root node (no branching: the LP, SCIP's cuts and
    # heuristics, no presolve) from one run.
    Rung("MIP root LP", "MIP", "mip:presolve=off,root_lp=on", by_info=root_lp_settles, seconds="root_lp_seconds"),
    Rung("MIP root node", "MIP", "mip:presolve=off,root_lp=on"),
)

# A Killer's rungs, added to the ladder when the files hold Killer puzzles: the hand-written cage rungs
# (docs/concepts/killer.md), unit propagation on the complete encoding with each sum encoding of the cages (and
# the 45 rule's sums), CP-SAT's presolve on each way of stating a cage, the MIP's root LP with the 45 rule.
def killer_rungs() -> tuple[Rung, ...]:
    """The Killer's rungs, built when a run needs them: the SAT sum encodings' names come from formulations.cnf,
    which compare.py's process does not import otherwise (its workers load the solvers)."""
    from formulations.constraints.sat import SUMS as SAT_SUMS
    from search.rules import CAGE_RUNG_NAMES

    return (
        *(Rung(name, "hand-written", f"mrv:propagate={name}") for name in CAGE_RUNG_NAMES),
        *(Rung(f"UP {sums}", "SAT", f"sat:encoding=complete,sums={sums},search=off,incremental=on")
          for sums in SAT_SUMS),
        Rung("UP combinations + 45", "SAT",
             "sat:encoding=complete,sums=combinations,redundant=45,search=off,incremental=on"),
        Rung("CP-SAT presolve, table", "CP-SAT", "cpsat:sums=table"),
        Rung("CP-SAT presolve + 45", "CP-SAT", "cpsat:redundant=45"),
        Rung("MIP root LP + 45", "MIP", "mip:presolve=off,root_lp=on,redundant=45", by_info=root_lp_settles,
             seconds="root_lp_seconds"),
    )

# (UP rung, hand-written rung): each settles a puzzle exactly when the other does. Theorems about the houses'
# clauses: checked on the puzzles without cages (a cage's clauses are another matter, measured, not assumed).
EQUIVALENCES = (("UP minimal", "naked"), ("UP natural", "naked"), ("UP complete", "singles"),
                ("UP augmented", "locked"))
# How many puzzles of each file are read to tell whether it holds Killers (and so the ladder its rungs).
LOOKED_AT = 20


def has_killers(files: Sequence[str], decorations: str = "refuse", accepted: Sequence[str] = ()) -> bool:
    """Whether the first puzzles of any file (standard input is not looked at) have rules that keep a room
    (`Constraint.ROOMS`: a Killer's cages), which the cage rungs filter."""
    for path in files:
        if path == "-":
            continue
        try:
            entries = itertools.islice(read_puzzles(path, decorations=decorations, accepted=accepted), LOOKED_AT)
            if any(isinstance(e, Entry) and any(rule.ROOMS for rule in e.grid.layout.constraints) for e in entries):
                return True
        except PuzzleFileError:
            continue  # the run itself says what is wrong with the file
    return False


@dataclass(frozen=True)
class Counterexample:
    """A puzzle on which two rungs that should agree do not."""

    where: str  # file:line (and the isomorph)
    settled_by: str
    not_by: str


class Ladder:
    """The ladder run: a Comparison of the rungs, and the tally of what each settled, puzzle by puzzle."""

    def __init__(self, settings: Settings, methods: dict[str, Method] | None = None,
                 rungs: Sequence[Rung] | None = None) -> None:
        if rungs is None:
            killers = has_killers(settings.files, settings.decorations, settings.accept_fields)
            rungs = (*LADDER_RUNGS, *killer_rungs()) if killers else LADDER_RUNGS
        specs = list(dict.fromkeys(r.method for r in rungs))  # a run serves every rung of its method spec
        settings = dataclasses.replace(settings, methods=specs, nodes=1, solutions=1)
        self.comparison = Comparison(settings, methods)
        self.rungs = list(rungs)
        selected = self.comparison.selected
        self.rungs_of = {s.label: [r for r in rungs if r.method == spec]
                         for s, spec in zip(selected, specs, strict=True)}
        self.no_guess = {s.label: s.method.no_guess if isinstance(s.method, Method) else None for s in selected}
        self.tally = {r.name: Counter[str]() for r in rungs}
        self.seconds: dict[str, list[float]] = {r.name: [] for r in rungs}
        self.puzzles = 0
        self.checked: Counter[tuple[str, str]] = Counter()
        self.counterexamples: dict[tuple[str, str], list[Counterexample]] = {pair: [] for pair in EQUIVALENCES}

    def open_records(self, output: str, fmt: str, resume: bool,
                     on_kept: Callable[[list[Record]], None] | None) -> RecordWriter:
        """The --output writer: a row per puzzle and rung (--resume is refused, so there is nothing to keep)."""
        return LadderWriter(output, fmt, self)

    def page_ladder(self) -> list[dict[str, Any]]:
        """The --html page's ladder section."""
        return self.rows()

    def run(self) -> Ladder:
        """The whole run, from Python (compare.py runs it round by round, with its progress bar and writer)."""
        for batch in self.comparison.batches():
            self.add(batch)
        return self

    # -- a record, and a puzzle's records --------------------------------------------------------

    def verdict(self, record: Record, rung: Rung) -> str:
        """Settled, not settled, gave up (out of time), error or invalid: what the rung did on the puzzle."""
        if record.status is Status.ERROR:
            return ERROR
        if record.valid is False:
            return INVALID
        if rung.by_info is not None:
            settled = rung.by_info(record.info)
            return GAVE_UP if settled is None else SETTLED if settled else NOT_SETTLED
        if record.status is Status.GAVE_UP:
            return NOT_SETTLED if record.detail in NOT_SETTLED_REASONS else GAVE_UP
        measure = self.no_guess.get(record.method or "")
        if measure is None:
            return NOT_SETTLED
        counter, at_most = measure
        value = record.effort.get(counter)
        return SETTLED if value is not None and value <= at_most else NOT_SETTLED

    def marks(self, record: Record) -> list[dict[str, Any]]:
        """The ladder's fields for each rung the record's run serves: the rung, its ladder, and settled (true,
        false, or none when the rung ran out of time or failed); none for a bad entry."""
        return [{"rung": rung.name, "ladder": rung.ladder,
                 "settled": {SETTLED: True, NOT_SETTLED: False}.get(self.verdict(record, rung))}
                for rung in self.rungs_of.get(record.method or "", [])]

    def add(self, records: Iterable[Record]) -> None:
        """The records of whole puzzles, as a round of the run yields them."""
        puzzles: dict[tuple[Any, ...], dict[str, str]] = {}
        beyond: set[tuple[Any, ...]] = set()  # puzzles with rules beyond houses (cages, constraints): the
        # equivalences are the houses' alone
        for record in records:
            for rung in self.rungs_of.get(record.method or "", []):  # none for a bad entry, the certifier
                key = (record.file, record.line, record.isomorph)
                if key not in beyond and record.layout is not None and record.layout.houses is not record.layout:
                    beyond.add(key)
                puzzles.setdefault(key, {})[rung.name] = self.verdict(record, rung)
                seconds = record.info.get(rung.seconds) if rung.seconds else record.seconds or 0.0
                if isinstance(seconds, int | float):
                    self.seconds[rung.name].append(float(seconds))
        for (file, line, isomorph), verdicts in puzzles.items():
            self.puzzles += 1
            for name, verdict in verdicts.items():
                self.tally[name][verdict] += 1
            if (file, line, isomorph) not in beyond:
                self.check(f"{file}:{line}" + (f" (isomorph {isomorph})" if isomorph else ""), verdicts)

    def check(self, where: str, verdicts: dict[str, str]) -> None:
        for pair in EQUIVALENCES:
            a, b = (verdicts.get(name) for name in pair)
            if a not in (SETTLED, NOT_SETTLED) or b not in (SETTLED, NOT_SETTLED):
                continue  # a run out of time or failed says nothing either way
            self.checked[pair] += 1
            if a != b:
                settled_by, not_by = pair if a == SETTLED else pair[::-1]
                self.counterexamples[pair].append(Counterexample(where, settled_by, not_by))

    # -- the verdict and the report --------------------------------------------------------------

    def share(self, name: str) -> float | None:
        return self.tally[name][SETTLED] / self.puzzles if self.puzzles else None

    @property
    def counterexample_count(self) -> int:
        return sum(len(found) for found in self.counterexamples.values())

    @property
    def failed(self) -> bool:
        """A counterexample to an equivalence, or (the comparison's own) an invalid answer or a disagreement."""
        return bool(self.counterexample_count) or self.comparison.failed

    def reference_set(self) -> str | None:
        """The published set the input is, when it is one file whose figures docs/reference/data.md gives."""
        files = self.comparison.files
        if len(files) != 1:
            return None
        name = Path(files[0]).stem
        return name if any(name in r.reference for r in self.rungs) else None

    def rows(self) -> list[dict[str, Any]]:
        """The table's rows as data, one a rung (the terminal's table and the --html page's both show these)."""
        reference = self.reference_set()
        rows = []
        for rung in self.rungs:
            counts, seconds = self.tally[rung.name], self.seconds[rung.name]
            row: dict[str, Any] = {"rung": rung.name, "method": rung.method, "settled": counts[SETTLED],
                                   "share %": None if (share := self.share(rung.name)) is None
                                   else 100 * share}
            if reference:
                row["tdoku %"] = rung.reference.get(reference)
            row |= {"not settled": counts[NOT_SETTLED], "gave up": counts[GAVE_UP],
                    "errors": counts[ERROR] + counts[INVALID],
                    "median ms": statistics.median(seconds) * 1000 if seconds else None}
            rows.append(row)
        return rows

    def table(self) -> Table:
        reference = self.reference_set()
        title = "The ladder: puzzles each rung settles alone, without a guess"
        table = Table(title=title + (f" (tdoku: its published share on {reference})" if reference else ""),
                      title_justify="left")
        rows = self.rows()
        for column in rows[0] if rows else ():
            name = column.removesuffix(" %")
            table.add_column(name, justify="left" if name in ("rung", "method") else "right")
        for row in rows:
            share, known, median = row["share %"], row.get("tdoku %"), row["median ms"]
            cells = [escape(row["rung"]), escape(row["method"]), f"{row['settled']:,}",
                     "-" if share is None else f"{share:.1f}%"]
            if reference:
                cells.append("" if known is None else f"{known:.1f}%")
            cells += [f"{row['not settled']:,}", red_if(row["gave up"], "yellow"), red_if(row["errors"], "bold red"),
                      "-" if median is None else f"{median:.2f}"]
            table.add_row(*cells)
        return table

    def report(self, console: Console, interrupted: bool = False) -> None:
        comparison = self.comparison
        console.print(comparison.header(interrupted))
        console.print(self.table())
        for (up, hand), found in self.counterexamples.items():
            checked = self.checked[(up, hand)]
            line = f"{up} settles exactly when {hand} does: {plural(checked, 'puzzle')} checked, "
            if not found:
                console.print(line + "[green]no counterexample[/]")
                continue
            console.print(line + f"[bold red]{plural(len(found), 'counterexample')}[/]")
            for c in found:
                console.print(f"  {escape(c.where)}: settled by {c.settled_by}, not by {c.not_by}", highlight=False)
        summary = comparison.summary
        for kind, heading, style in NOTABLE:  # what went wrong; not settling is no news here
            count = summary.notable_count[kind]
            if kind == "gave_up" or not count:
                continue
            console.print(f"[{style}]{heading}: {count:,}[/]")
            for line in summary.notable.get(kind, []):
                console.print(f"  {line}", highlight=False)
            if count > len(summary.notable.get(kind, [])):
                console.print(f"  ... {count - len(summary.notable.get(kind, [])):,} more (the records have them all)")
        if summary.bad_count:
            console.print(f"[yellow]Bad entries (skipped): {summary.bad_count:,}[/]")
        if self.failed:
            console.print("[bold red]FAILED: see above[/]")
        elif interrupted:
            console.print("[yellow]Interrupted: the table counts the puzzles finished[/]")
        elif self.puzzles:
            console.print("[green]OK: every answer valid, every equivalence holds on every puzzle[/]")


class LadderWriter(RecordWriter):
    """The run's records with the ladder's fields (rung, ladder, settled) in front: a row per puzzle and rung."""

    def __init__(self, path: str, fmt: str, ladder: Ladder) -> None:
        super().__init__(path, fmt, [*LADDER_FIELDS, *ladder.comparison.records.fields])
        self.ladder = ladder

    def write_record(self, record: Record) -> None:
        row = record.row(self.ladder.comparison.records.fields)
        for marks in self.ladder.marks(record) or [dict.fromkeys(LADDER_FIELDS)]:  # a bad entry has no rung
            self.write({**marks, **row})

