"""Following puzzles through the run: their items out, their results in, judged and recorded when complete."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from making.candidates import true_candidates
from puzzles import BadEntry, Status

from ..core.selected import Selected
from ..core.stream import Puzzle, where
from ..execution.check import Item
from ..execution.result import RunResult
from ..judging.judge import Judged, Verdict, judge, left_out
from ..judging.stats import Summary, tally
from ..records.format import Record, Records
from ..report.terminal import ProgressBar


@dataclass(slots=True)
class PuzzleRun:
    puzzle: Puzzle
    results: dict[int, RunResult] = field(default_factory=dict)
    cert: RunResult | None = None
    cert_asked: bool = False


class Tracker:
    """Hands out the items of each puzzle, gathers their results, judges and records finished puzzles.

    The records of finished puzzles and of bad entries wait in `done` until the run takes them, in groups:
    a puzzle's records, or a bad entry's, which a writer keeps whole (flushed together).
    """

    def __init__(self, selected: Sequence[Selected], certify: bool, pool_queue: deque[Item],
                 summary: Summary, records: Records, progress: ProgressBar, candidates: bool = False,
                 twin: int | None = None) -> None:
        """`candidates`: each judged puzzle's true candidates found here (SAT, a few milliseconds a 9x9) and
        recorded with it. `twin`: the index of a selected method whose run is the certifier's own (the same
        method, options and budget, as `cpsat:solutions=2` is): its conclusive answer is the certificate."""
        self.candidates = candidates
        self.selected, self.labels = selected, [s.label for s in selected]
        self.cert_index = len(selected) if certify else None
        self.twin = twin if certify else None
        self.queue, self.summary, self.records, self.progress = pool_queue, summary, records, progress
        self.open: dict[int, PuzzleRun] = {}
        self.done: list[list[Record]] = []
        self.on_judged: Callable[[Judged], None] | None = None  # hears each judged puzzle, typed (run/batch.py)

    def items(self, puzzles: Iterable[Puzzle]) -> Iterator[Item]:
        for puzzle in puzzles:
            self.open[puzzle.id] = PuzzleRun(puzzle)
            for index in range(len(self.selected)):
                yield Item(puzzle.id, index, puzzle.grid.layout, puzzle.grid.values)

    def bad_entry(self, entry: BadEntry) -> None:
        self.summary.add_bad(entry)
        self.done.append([self.records.bad_record(entry)])

    def add(self, result: RunResult) -> None:
        run = self.open[result.puzzle]
        if result.method == self.cert_index:
            run.cert = result
        else:
            run.results[result.method] = result
        if len(run.results) < len(self.selected) or (run.cert_asked and run.cert is None):
            return
        results = [run.results[i] for i in range(len(self.selected))]
        verdict = judge(run.puzzle, results, self.labels, run.cert, self.cert_index is not None)
        if verdict is None and self.twin is not None and conclusive(twin := results[self.twin]):
            # the certifier would run what this method ran, with the same settings: the same answer, already here
            run.cert = replace(twin, method=len(self.selected))
            verdict = judge(run.puzzle, results, self.labels, run.cert, True)
        if verdict is not None:
            self.finish(run, results, verdict)
        elif self.cert_index is not None:  # the certifier settles a claim first, before anything new
            run.cert_asked = True
            self.queue.appendleft(Item(run.puzzle.id, self.cert_index, run.puzzle.grid.layout, run.puzzle.grid.values))

    def finish(self, run: PuzzleRun, results: list[RunResult], verdict: Verdict) -> None:
        del self.open[run.puzzle.id]
        puzzle = run.puzzle
        named = where(puzzle.file, puzzle.line, puzzle.name, puzzle.isomorph)
        tally(self.summary, self.labels, named, results, verdict, puzzle.decorations, puzzle.accepted)
        marks = None
        if self.candidates:
            found = true_candidates(puzzle.grid)
            self.summary.add_candidates(named, found.kind, found.gave_up)
            marks = found.text()
        judged = Judged(puzzle, tuple(self.labels), tuple(results), verdict)
        self.done.append(self.records.of_judged(judged, self.selected, marks))
        if self.on_judged is not None:
            self.on_judged(judged)
        self.progress.advance()

    def take(self) -> list[list[Record]]:
        done, self.done = self.done, []
        return done

    def write_unfinished(self) -> None:
        """After Ctrl-C: the runs that did finish, of puzzles that did not, are records too."""
        for run in list(self.open.values()):
            unjudged = Verdict("interrupted", left_out(run.puzzle))
            self.done.append([self.records.run_record(run.puzzle, self.selected[i], result, unjudged, i)
                              for i, result in sorted(run.results.items())])


def conclusive(result: RunResult) -> bool:
    """An answer that settles claims as a certificate: a valid solution, or no solution (not a give-up, an error)."""
    return result.valid is True or result.status is Status.UNSATISFIABLE
