"""The command lines' shared flags: how methods are chosen and budgeted (compare.py and sudoku-generate alike),
and which of compare.py's flags each of its programs (a run, --ladder, --fuzz) has no use for."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from puzzles.fpuzzles import check_accepted
from puzzles.options import how_many
from puzzles.sudokupad import DECORATIONS

Number = TypeVar("Number", int, float)


def solutions_asked(text: str) -> int:
    """An argparse type: --solutions, a whole number 1 or more, or `all` (puzzles.options.ALL, a count's cap)."""
    try:
        return how_many(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: say a whole number, 1 or more, or all") from None


def positive(kind: type[Number]) -> Callable[[str], Number]:
    """An argparse type: a number of `kind` greater than 0."""
    return bounded(kind, lambda value: value > 0, "must be greater than 0")


def zero_or_more(kind: type[Number]) -> Callable[[str], Number]:
    """An argparse type: a number of `kind`, 0 or more."""
    return bounded(kind, lambda value: value >= 0, "must be 0 or more")


def bounded(kind: type[Number], allowed: Callable[[Number], bool], saying: str) -> Callable[[str], Number]:
    """An argparse type: a number of `kind` that `allowed` accepts, else the error `saying` what it must be."""
    def parse(text: str) -> Number:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {'a whole number' if kind is int else 'a number'}") \
                from None
        if not allowed(value):
            raise argparse.ArgumentTypeError(f"{text!r} {saying}")
        return value
    return parse


def add_method_flags(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, solver: bool = True) -> None:
    """--solver (unless the program names its methods otherwise), --registry, --command, --timeout, --jobs."""
    if solver:
        parser.add_argument("--solver", action="append", dest="methods", metavar="NAME[:key=value,...]",
                            help="a method and its options (repeatable); default every registered method")
    parser.add_argument("--registry", action="append", metavar="MODULE",
                        help="also the methods of MODULE.SOLVERS (name -> puzzles.Method), e.g. your own solver")
    parser.add_argument("--command", action="append", metavar="NAME[:mode=once,input=matrix|fpuzzles]='PROGRAM ARGS'",
                        help="also a method NAME that runs a program speaking the solver protocol "
                        "(docs/reference/protocol.md), in any language (repeatable)")
    parser.add_argument("--timeout", type=positive(float), default=10.0, metavar="SECONDS",
                        help="time budget per method per puzzle (default 10)")
    parser.add_argument("--jobs", type=positive(int), metavar="N",
                        help="worker processes (default: the number of cores this process may use)")


def add_decorations_flag(parser: argparse.ArgumentParser) -> None:
    """--decorations: what the f-puzzles and SudokuPad readers do with a cosmetic element (a line, a circle, a
    cage without a total, a drawn overlay), which a puzzle's rules text may give a meaning."""
    parser.add_argument("--decorations", choices=DECORATIONS, default="refuse",
                        help="f-puzzles' and SudokuPad's cosmetic elements (lines, circles, text, cosmetic cages, "
                        "drawn overlays): refuse such a puzzle (default: its rules may give them a meaning), or "
                        "ignore them, read it without them and say in its records which were not read as rules")


def field_names(text: str) -> tuple[str, ...]:
    """An argparse type: --accept-fields NAME,NAME, each a field the readers would refuse as unknown."""
    names = tuple(name.strip() for name in text.split(","))
    try:
        check_accepted(names)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def add_accept_fields_flag(parser: argparse.ArgumentParser) -> None:
    """--accept-fields: fields of f-puzzles or SudokuPad puzzles that the readers would refuse as unknown, read and
    ignored, each puzzle's records and report naming those it held."""
    parser.add_argument("--accept-fields", type=field_names, default=(), metavar="NAME[,NAME...]",
                        help="f-puzzles' and SudokuPad's fields of these names, which the readers refuse as unknown "
                        "(`source`, `version`), read and ignored; every record of a puzzle that held one says so. A "
                        "field that holds a rule, or is read, or is a drawing, cannot be named")


@dataclass(frozen=True)
class ProgramFlags:
    """One of compare.py's programs: the flags it has no use for (argparse dest -> as the user writes it), and
    the sentence that refuses them."""

    refuses: dict[str, str]
    why: str  # {flags}: the flags given

    def foreign(self, args: argparse.Namespace, parser: argparse.ArgumentParser) -> str | None:
        """The refusal of the flags given that this program has no use for; None when there are none."""
        given = [flag for dest, flag in self.refuses.items()
                 if getattr(args, dest) not in (None, False, []) and getattr(args, dest) != parser.get_default(dest)]
        return self.why.format(flags=", ".join(given)) if given else None


FUZZ_ONLY = {"against": "--against", "box": "--box", "variant": "--variant", "steps": "--steps"}
# what a fuzz run of a logic solver's steps (--fuzz --steps) has no use for: it runs no method
STEPS_FUZZ = ProgramFlags({"methods": "--solver", "command": "--command", "registry": "--registry",
                           "against": "--against", "solutions": "--solutions", "nodes": "--nodes", "jobs": "--jobs"},
                          "--fuzz --steps checks one logic solver's steps against each puzzle's true candidates: "
                          "{flags} is not for it")
PROGRAMS = {
    "run": ProgramFlags(FUZZ_ONLY, "{flags} is for a fuzz run (--fuzz)"),
    "ladder": ProgramFlags({"methods": "--solver", "command": "--command", "registry": "--registry",
                            "nodes": "--nodes", "plot": "--plot", "reference": "--reference", "list": "--list",
                            "resume": "--resume", "solutions": "--solutions", "candidates": "--candidates",
                            **FUZZ_ONLY},
                           "--ladder runs its own rungs (one solution, a node budget of 1), so it takes no {flags}"),
    "fuzz": ProgramFlags({"files": "FILE", "resume": "--resume", "html": "--html", "plot": "--plot",
                          "ladder": "--ladder", "watch": "--watch", "cluster": "--cluster", "sample": "--sample",
                          "isomorphs": "--isomorphs", "format": "--format",
                          "decorations": "--decorations ignore", "candidates": "--candidates",
                          "accept_fields": "--accept-fields"},
                         "--fuzz makes its own puzzles and writes failing ones to --output: {flags} is not for a "
                         "fuzz run"),
}
