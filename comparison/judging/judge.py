"""Judging a puzzle: its methods' answers (and CP-SAT's certificate) -> agree, disagreement, invalid, ..."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from puzzles import Count, GaveUp, Grid, Status

from ..core.selected import CERTIFIER
from ..core.stream import Puzzle
from ..execution.result import RunResult

VerdictKind = Literal["agree", "multiple_solutions", "disagreement", "invalid", "unsatisfiable", "unsolved",
                      "interrupted"]
VERDICT_KINDS: tuple[VerdictKind, ...] = get_args(VerdictKind)
# what went wrong with one method's run, by this judgement (None: nothing did); the fuzzer hunts these
FailureClass = Literal["error", "budget overrun", "invalid answer", "false unsat", "false unique", "false not-unique",
                       "false count", "disagreement"]
# the classes of an answer that others refute (the report's "disagree" column), and of a wrong answer, refuted or
# invalid in itself (not a crash, not a budget overrun)
DISAGREEING: frozenset[FailureClass] = frozenset({"false unsat", "false unique", "false not-unique", "false count",
                                                  "disagreement"})
WRONG_ANSWER: frozenset[FailureClass] = DISAGREEING | {"invalid answer"}
# the classes a run has by itself, whatever the other runs of the puzzle say (failure_of finds them first)
OWN_FAILURES: frozenset[FailureClass] = frozenset({"error", "budget overrun", "invalid answer"})
# the verdicts that fail a run (compare.py exits 1): an invalid answer, or answers that cannot all be right (a
# disagreement, or the file's solution or the certifier against the answers: no method's failure then)
FAILING_VERDICTS: tuple[VerdictKind, ...] = ("invalid", "disagreement")
# the verdicts the reports list, puzzle by puzzle: the failing ones, and more than one solution
LISTED_VERDICTS: tuple[VerdictKind, ...] = (*FAILING_VERDICTS, "multiple_solutions")


@dataclass(frozen=True)
class Verdict:
    kind: VerdictKind  # a record's `verdict`
    note: str = ""
    disagree: frozenset[int] = frozenset()  # indices of the methods that disagree
    unchecked: int = 0  # claims (unsatisfiable, unique) that nothing corroborated and no certificate settled
    confirmed: int = 0  # such claims the certificate settled, and found true
    refuted: int = 0  # and found false (their methods disagree)
    failures: tuple[FailureClass | None, ...] = ()  # each method's failure class, in the run's order
    count: Count | None = None  # counting (solutions=N, N > 2): the puzzle's count, as the runs that agree give it

    @property
    def certified(self) -> int:
        """The claims the certificate settled, confirmed or refuted."""
        return self.confirmed + self.refuted

    @property
    def failed(self) -> bool:
        """Whether this verdict fails the run."""
        return self.kind in FAILING_VERDICTS


def failure_of(result: RunResult, disagrees: bool) -> FailureClass | None:
    """What went wrong with one method's run; None when nothing did."""
    if result.status is Status.ERROR:
        return "error"
    if result.status is Status.GAVE_UP and result.detail == GaveUp.KILLED.value:
        return "budget overrun"
    if result.valid is False:
        return "invalid answer"
    if disagrees:
        if result.status is Status.UNSATISFIABLE:
            return "false unsat"
        if result.unique is True:
            return "false unique"
        if result.count is not None:
            return "false count"
        if result.unique is False:
            return "false not-unique"
        return "disagreement"
    return None


@dataclass(frozen=True)
class Claims:
    """What a puzzle's answers assert beyond their own evidence, and whether a certificate should settle it."""

    unsat: tuple[int, ...]  # methods that say there is no solution
    unique: dict[int, bool]  # method -> its word on uniqueness, for the valid answers that give one
    lone_unsat: int | None  # the method whose "no solution" no second complete method of the run corroborates
    lone_unique: int | None  # the method whose "the only solution" none corroborates
    differ: bool  # valid answers differ, or a method says it saw a second solution

    @classmethod
    def of(cls, results: Sequence[RunResult], answers: set[str]) -> Claims:
        unsat = tuple(i for i, r in enumerate(results) if r.status is Status.UNSATISFIABLE)
        unique = {i: r.unique for i, r in enumerate(results) if r.valid and r.unique is not None}
        # a valid answer refutes "no solution" already; a second method corroborates it
        lone_unsat = unsat[0] if len(unsat) == 1 and not answers else None
        sure = [i for i, u in unique.items() if u]
        lone_unique = sure[0] if len(sure) == 1 and len(answers) == 1 and False not in unique.values() else None
        return cls(unsat, unique, lone_unsat, lone_unique, len(answers) > 1 or False in unique.values())

    @property
    def lone(self) -> int:
        """How many claims no second method corroborates: the certificate's to settle."""
        return (self.lone_unsat is not None) + (self.lone_unique is not None)

    def settled(self, disagree: set[int] | frozenset[int], cert: RunResult | None, solution: str | None
                ) -> tuple[int, int]:
        """How many of the lone claims the certificate confirmed, and how many it refuted: a claim is refuted when
        its method disagrees, confirmed when the certificate says the same (no solution; `solution`, unique)."""
        confirmed = refuted = 0
        if self.lone_unsat is not None:
            if self.lone_unsat in disagree:
                refuted += 1
            elif cert is not None and cert.status is Status.UNSATISFIABLE:
                confirmed += 1
        if self.lone_unique is not None:
            if self.lone_unique in disagree:
                refuted += 1
            elif cert is not None and cert.valid and cert.unique is True and cert.solution == solution:
                confirmed += 1
        return confirmed, refuted

    @property
    def doubtful(self) -> bool:
        return bool(self.lone) or self.differ


def judge(puzzle: Puzzle, results: Sequence[RunResult], labels: Sequence[str], cert: RunResult | None,
          can_certify: bool) -> Verdict | None:
    """The verdict on one puzzle's answers; None when the certifier should settle a claim first.

    A claim (no solution; the only solution) that no second method of the run corroborates, and
    answers that differ, are settled by the certifier (CP-SAT, solutions=2) when it can run.
    """
    valid = {i: r.solution for i, r in enumerate(results) if r.valid}
    invalid = [i for i, r in enumerate(results) if r.valid is False]
    answers = {s for s in valid.values() if s is not None}
    notes: list[str] = []
    cannot_agree = False  # the file's solution, or the certifier, is wrong: a disagreement whoever else is right
    if puzzle.solution is not None:  # the file's solution counts as one more answer, when it is valid
        problems = puzzle.grid.solution_problems(Grid.parse(puzzle.solution))
        if problems:  # the file and the methods cannot both be right: worth a failing exit
            notes.append(f"the file's solution is not valid ({problems[0]})")
            cannot_agree = True
        else:
            answers.add(puzzle.solution)
    claims = Claims.of(results, answers)
    if claims.doubtful and cert is None and can_certify:
        return None
    settled = cert is not None and (cert.valid is True or cert.status is Status.UNSATISFIABLE)
    truth = cert.unique if cert is not None and cert.valid else None  # the certifier's word on uniqueness
    evidence = answers | ({cert.solution} if cert is not None and cert.valid and cert.solution else set())
    disagree: set[int] = set()
    if evidence:  # a valid solution refutes "no solution"
        disagree.update(claims.unsat)
    if cert is not None and cert.status is Status.UNSATISFIABLE and answers:
        notes.append(f"{CERTIFIER} (certifying) said unsatisfiable, against a valid answer")
        cannot_agree = True
    if truth is True and cert is not None:
        disagree.update(i for i, s in valid.items() if s != cert.solution)
        disagree.update(i for i, u in claims.unique.items() if u is False)
        if len(evidence) > 1:
            notes.append(f"{CERTIFIER} says the solution is unique, yet valid answers differ")
    elif len(evidence) > 1 or truth is False:
        disagree.update(i for i, u in claims.unique.items() if u is True)
    elif False in claims.unique.values() and True in claims.unique.values():
        disagree.update(claims.unique)  # they contradict each other and nothing settles it
    counts = {i: r.count for i, r in enumerate(results) if r.count is not None and r.valid is not False}
    cert_count = cert.count if cert is not None and (cert.valid or cert.status is Status.UNSATISFIABLE) else None
    wrong_counts = miscounts(counts, len(evidence), cert_count)
    disagree.update(wrong_counts)
    multi = truth is False or (truth is None and (len(evidence) > 1 or False in claims.unique.values()))
    lone_answer = results[claims.lone_unique].solution if claims.lone_unique is not None else None
    confirmed, refuted = claims.settled(disagree, cert, lone_answer) if settled else (0, 0)
    unchecked = claims.lone - confirmed - refuted  # the certificate gave up, or was refuted itself
    kind: VerdictKind
    if invalid:
        notes[:0] = [f"{labels[i]}: {'; '.join(results[i].problems)}" for i in invalid]
        kind = "invalid"
    elif disagree or cannot_agree:
        kind = "disagreement"
        if disagree:
            notes.insert(0, describe(results, labels, disagree, cert if settled else None))
    elif multi:
        kind = "multiple_solutions"
        notes.insert(0, f"certified by {CERTIFIER} ({'counting' if cert_count else 'solutions=2'})" if truth is False
                     else "valid answers differ" if len(evidence) > 1 else "a method found a second solution")
    elif evidence:
        kind = "agree"
    elif claims.unsat:
        kind = "unsatisfiable"
    else:
        kind = "unsolved"
    if puzzle.decorations or puzzle.accepted:  # every record of the puzzle says what it was read without
        notes.append(left_out(puzzle))
    failures = tuple(failure_of(r, i in disagree) for i, r in enumerate(results))
    agreed = settled_count([c for i, c in counts.items() if i not in disagree] + ([cert_count] if cert_count else []))
    if agreed is not None and kind != "disagreement":
        notes.insert(0, f"{agreed} solution{'' if agreed.found == 1 and agreed.exact else 's'}")
    return Verdict(kind, "; ".join(notes), frozenset(disagree), unchecked, confirmed, refuted, failures, agreed)


def miscounts(counts: dict[int, Count], seen: int, cert: Count | None) -> set[int]:
    """The methods whose count cannot be right: an exact count below the distinct valid answers `seen`; then, by
    the certifier's exact count when it has one (and it is not refuted so), or else every count that another
    contradicts (nothing settles which is right)."""
    wrong = {i for i, c in counts.items() if c.exact and c.found < seen}
    rest = {i: c for i, c in counts.items() if i not in wrong}
    if cert is not None and cert.exact and cert.found >= seen:
        return wrong | {i for i, c in rest.items() if not c.agrees(cert)}
    return wrong | {i for i, c in rest.items() if any(not c.agrees(d) for d in rest.values())}


def settled_count(counts: Sequence[Count]) -> Count | None:
    """What counts that agree say together: the exact one if any gives it, else the highest floor."""
    exact = [c for c in counts if c.exact]
    if exact:
        return exact[0]
    return max(counts, key=lambda c: c.found, default=None)


def left_out(puzzle: Puzzle) -> str:
    """What a puzzle read with its decorations ignored did not read as rules, and the unknown fields it was read
    accepting and ignoring, as its records' note says them; '' for any other puzzle."""
    said = [f"decorations not read as rules: {puzzle.decorations}"] if puzzle.decorations else []
    said += [f"fields read and ignored: {puzzle.accepted}"] if puzzle.accepted else []
    return "; ".join(said)


def describe(results: Sequence[RunResult], labels: Sequence[str], disagree: set[int],
             cert: RunResult | None) -> str:
    def said(r: RunResult) -> str:
        if r.count is not None:
            return f"{r.count} solution{'' if r.count == Count(1, True) else 's'}"
        return "unique" if r.unique else "not unique" if r.unique is False else r.status.value
    told = ", ".join(f"{labels[i]} said {said(results[i])}" for i in sorted(disagree))
    return told + (f" ({CERTIFIER}, certifying, said {said(cert)})" if cert is not None else "")


@dataclass(frozen=True)
class Judged:
    """One puzzle's runs as judged: what a program that runs puzzles in memory reads back (run/batch.py)."""

    puzzle: Puzzle
    labels: tuple[str, ...]  # the methods, in the run's order
    results: tuple[RunResult, ...]  # one a method
    verdict: Verdict

    def of(self, label: str) -> RunResult | None:
        """The run of the method labelled so, if it ran."""
        return self.results[self.labels.index(label)] if label in self.labels else None

    def failure(self, label: str) -> FailureClass | None:
        index = self.labels.index(label)
        return self.verdict.failures[index] if self.verdict.failures else None
