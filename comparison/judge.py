"""Judging a puzzle: its methods' answers (and CP-SAT's certificate) -> agree, disagreement, invalid, ..."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from puzzles import Grid

from .methods import CERTIFIER
from .stream import Puzzle


@dataclass(slots=True)
class Result:
    status: str
    detail: str
    solution: str | None
    unique: bool | None
    seconds: float
    effort: dict[str, int]
    problems: list[str]

    @property
    def valid(self) -> bool | None:
        """True for a valid solution, False for an invalid one, None when nothing was solved."""
        return None if self.status != "solved" else not self.problems


@dataclass(frozen=True)
class Verdict:
    kind: str  # agree | multiple_solutions | disagreement | invalid | unsatisfiable | unsolved | interrupted
    note: str = ""
    disagree: frozenset[int] = frozenset()  # indices of the methods that disagree


def judge(puzzle: Puzzle, results: Sequence[Result], labels: Sequence[str], cert: Result | None,
          can_certify: bool) -> Verdict | None:
    """The verdict on one puzzle's answers; None when CP-SAT should certify first."""
    valid = {i: r.solution for i, r in enumerate(results) if r.valid}
    invalid = [i for i, r in enumerate(results) if r.valid is False]
    answers = set(valid.values())
    notes: list[str] = []
    file_wrong = False
    if puzzle.solution is not None:  # the file's solution counts as one more answer, when it is valid
        problems = puzzle.grid.solution_problems(Grid.parse(puzzle.solution))
        if problems:  # the file and the methods cannot both be right: worth a failing exit
            notes.append(f"the file's solution is not valid ({problems[0]})")
            file_wrong = True
        else:
            answers.add(puzzle.solution)
    claims = {i: results[i].unique for i in valid if results[i].unique is not None}
    if (len(answers) > 1 or False in claims.values()) and cert is None and can_certify:
        return None
    truth = cert.unique if cert is not None and cert.valid else None  # CP-SAT's word on uniqueness
    disagree: set[int] = set()
    if answers:
        disagree.update(i for i, r in enumerate(results) if r.status == "unsatisfiable")
    if truth is True:
        disagree.update(i for i, s in valid.items() if s != cert.solution)
        disagree.update(i for i, u in claims.items() if u is False)
        if len(answers | {cert.solution}) > 1:
            notes.append(f"{CERTIFIER} says the solution is unique, yet valid answers differ")
    elif len(answers) > 1 or truth is False:
        disagree.update(i for i, u in claims.items() if u is True)
    elif False in claims.values() and True in claims.values():
        disagree.update(claims)  # they contradict each other and nothing settles it
    multi = truth is False or (truth is None and (len(answers) > 1 or False in claims.values()))
    if invalid:
        notes[:0] = [f"{labels[i]}: {'; '.join(results[i].problems)}" for i in invalid]
        kind = "invalid"
    elif disagree or file_wrong:
        kind = "disagreement"
        if disagree:
            notes.insert(0, describe(results, labels, disagree))
    elif multi:
        kind = "multiple_solutions"
        notes.insert(0, f"certified by {CERTIFIER} (solutions=2)" if truth is False
                     else "valid answers differ" if len(answers) > 1 else "a method found a second solution")
    elif answers:
        kind = "agree"
    elif any(r.status == "unsatisfiable" for r in results):
        kind = "unsatisfiable"
    else:
        kind = "unsolved"
    return Verdict(kind, "; ".join(notes), frozenset(disagree))


def describe(results: Sequence[Result], labels: Sequence[str], disagree: set[int]) -> str:
    def said(r: Result) -> str:
        return "unique" if r.unique else "not unique" if r.unique is False else r.status
    return ", ".join(f"{labels[i]} said {said(results[i])}" for i in sorted(disagree))
