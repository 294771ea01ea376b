"""Check puzzle files: how many puzzles of each size, their givens, every bad entry.

    sudoku-check FILE...   ('-' reads standard input; python -m commands.check in a checkout not installed)
    sudoku-check --candidates FILE...   (and each puzzle's true candidates: making/candidates.py)
    sudoku-check --steps 'PROGRAM ARGS' FILE...   (a logic solver's every step checked on each puzzle:
                                                   making/steps.py; --shrink: a puzzle it is unsound on, shrunk)

Exit status 0 when every entry is a puzzle, 1 if any entry was bad (with --steps: or the program was unsound
on a puzzle, broke the steps' line form, or ran out of time), 2 if a
file could not be read (standard input closed too) or standard output failed
(closed or full), 141 quietly when the reader of standard output has gone
(`| head -1`: the check stops there). A note on standard error says when a
file's format was a choice between two readings (--input-format picks the
other one).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from comparison.programs.steps import TIMEOUT, StepsProgram, program_argv
from making.candidates import PROPAGATIONS, TrueCandidates, true_candidates
from making.steps import Verdict
from puzzles import SYMBOLS, Grid
from puzzles.formats import ACCEPTED_KEY, DECORATIONS_KEY, FORMATS, BadEntry, PuzzleFileError, read_puzzles
from puzzles.words import plural

from .flags import add_accept_fields_flag, add_decorations_flag, positive
from .output import Guarded, guarded_stdout, status_of, stdin_closed


def median_of(histogram: Counter[int]) -> float:
    """The median of values held as a histogram {value: count} (flat memory for any count)."""
    total = sum(histogram.values())
    middle = [(total - 1) // 2, total // 2]
    found, seen = [], 0
    for value in sorted(histogram):
        seen += histogram[value]
        while middle and middle[0] < seen:
            found.append(value)
            middle.pop(0)
    return float(sum(found) / len(found))


def check_file(path: str, fmt: str | None, out: TextIO | Guarded, decorations: str = "refuse",
               candidates: int | None = None, steps: StepsProgram | None = None,
               shrink: bool = False, accepted: Sequence[str] = ()) -> tuple[int, int, int]:
    """Print one file's summary and bad entries (and the decorations of each puzzle not read as rules, when
    `decorations` is "ignore", and the `accepted` unknown fields each held; and each puzzle's true candidates
    within a budget of `candidates` SAT propagations, when it is given; and the check of a logic solver's steps on
    each puzzle, with `steps`, a puzzle it is unsound on shrunk with `shrink`); return (puzzles, bad entries,
    puzzles the steps' check failed on). Reading stops when `out`, a Guarded stream, has failed: nobody would read
    what follows."""
    givens: dict[int, Counter[int]] = {}
    bad = failed = 0
    kinds: Counter[str] = Counter()  # the puzzles' true candidates: no solution, one, several, gave up
    verdicts: Counter[Verdict] = Counter()  # the steps' checks
    for record in read_puzzles(path, fmt, on_note=lambda note: print(f"note: {note}", file=sys.stderr),
                               decorations=decorations, accepted=accepted):
        if isinstance(out, Guarded) and out.failed is not None:
            break
        if isinstance(record, BadEntry):
            bad += 1
            print(record, file=out)
        else:
            givens.setdefault(record.grid.side, Counter())[record.grid.givens] += 1
            if record.meta.get(DECORATIONS_KEY):
                print(f"{record.where}: decorations not read as rules: {record.meta[DECORATIONS_KEY]}", file=out)
            if record.meta.get(ACCEPTED_KEY):
                print(f"{record.where}: fields read and ignored: {record.meta[ACCEPTED_KEY]}", file=out)
            named = f"{record.where}{' ' + record.name if record.name else ''}"
            found = None
            if candidates is not None:
                found = true_candidates(record.grid, candidates)
                kinds[found.kind] += 1
                print(f"{named}: {summary_of(found)}", file=out)
                if found.solvable:
                    print(pencil_marks(found, record.grid), file=out)
            if steps is not None:
                checked = steps.check(record.grid, found)
                verdicts[checked.verdict] += 1
                failed += checked.verdict in FAILED
                print(f"{named}: steps {checked.describe()}", file=out)
                if shrink and checked.verdict is Verdict.UNSOUND:
                    small, again = steps.shrunk(record.grid, checked)
                    print(f"  shrunk to {plural(small.givens, 'given')}, on which it is still unsound: {small.text()}\n"
                          f"  steps {again.describe()}", file=out)
    puzzles = sum(sum(h.values()) for h in givens.values())
    name = "<stdin>" if path == "-" else path  # as its records name it
    print(f"{name}: {plural(puzzles, 'puzzle')}, {plural(bad, 'bad entry', 'bad entries')}", file=out)
    for side in sorted(givens):
        h = givens[side]
        print(
            f"  {side}x{side}: {plural(sum(h.values()), 'puzzle')}, givens min {min(h)} / "
            f"median {median_of(h):g} / max {max(h)}",
            file=out,
        )
    if candidates is not None and puzzles:
        print("  true candidates: " + ", ".join(f"{n:,} {kind}" for kind, n in kinds.items()), file=out)
    if steps is not None and puzzles:
        print("  steps: " + ", ".join(f"{verdicts[v]:,} {v.value}" for v in Verdict if verdicts[v]), file=out)
    return puzzles, bad, failed


FAILED = (Verdict.UNSOUND, Verdict.MALFORMED, Verdict.TIME)  # a check of steps the program fails (exit status 1)


def summary_of(found: TrueCandidates) -> str:
    """`true candidates: several solutions, 70 of 81 cells settled, 95 candidates (220 SAT solves)`, or that it
    has no solution, or that it gave up (and why)."""
    cells = len(found.masks)
    solves = f"({plural(found.solves, 'SAT solve')})"
    if found.gave_up:
        return (f"true candidates: {found.gave_up}; {found.settled:,} of {cells:,} cells settled so far "
                "(raise --candidates-budget to go on)")
    if not found.solvable:
        return f"true candidates: none, no solution {solves}"
    if found.unique:
        return f"true candidates: one solution, every cell settled {solves}"
    count = sum(bin(m).count("1") for m in found.masks)
    return (f"true candidates: several solutions, {found.settled:,} of {cells:,} cells settled, "
            f"{count:,} candidates {solves}")


def pencil_marks(found: TrueCandidates, grid: Grid) -> str:
    """The true candidates as a pencil-mark grid: each cell its values' symbols (`?` after them when some are
    undecided), the boxes drawn where the layout has boxes."""
    fields = ["".join(SYMBOLS[v - 1] for v in found.values(c)) + ("?" if found.undecided[c] else "")
              for c in range(len(found.masks))]
    width, n = max(map(len, fields)), grid.side
    h, w = grid.layout.box_height or n, grid.layout.box_width or n
    rows = []
    for r in range(n):
        if r and r % h == 0:
            rows.append("-+-".join("-" * ((width + 1) * w - 1) for _ in range(0, n, w)))
        cells = [fields[r * n + c].ljust(width) for c in range(n)]
        rows.append(" | ".join(" ".join(cells[c:c + w]) for c in range(0, n, w)).rstrip())
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sudoku-check", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE", help="puzzle files; '-' for standard input")
    parser.add_argument("--input-format", "--format", dest="format", choices=FORMATS, help="skip format detection")
    add_decorations_flag(parser)
    add_accept_fields_flag(parser)
    parser.add_argument("--candidates", action="store_true",
                        help="print each puzzle's true candidates (the values each cell takes in some solution, "
                        "found exactly by SAT) as a pencil-mark grid, and whether it has no solution, one or several")
    parser.add_argument("--candidates-budget", type=positive(int), default=PROPAGATIONS, metavar="N",
                        help=f"with --candidates: the SAT propagations a puzzle may take before its search gives up "
                        f"(default {PROPAGATIONS:,}: a 16x16 takes a fifth of it at most, a 25x25 more)")
    parser.add_argument("--steps", metavar="'PROGRAM ARGS'",
                        help="run this logic solver on each puzzle (its line on standard input) and check its every "
                        "step against the puzzle's true candidates (docs/reference/steps.md): sound, or the first "
                        "unsound step and why")
    parser.add_argument("--timeout", type=positive(float), default=TIMEOUT, metavar="SECONDS",
                        help=f"with --steps: the time the program has for one puzzle before it is killed "
                        f"(default {TIMEOUT:g})")
    parser.add_argument("--shrink", action="store_true",
                        help="with --steps: shrink each puzzle the program is unsound on to a 1-minimal one on which "
                        "it still is, at a step of the same technique")
    with guarded_stdout() as out:
        args = parser.parse_args(argv)
        steps = steps_program(parser, args)
        status = 0
        for path in args.files:
            if out.failed is not None:
                break
            try:
                if stdin_closed([path]):
                    raise PuzzleFileError("-: standard input is closed: there is nothing to read")
                _, bad, failed = check_file(path, args.format, out, args.decorations,
                                            args.candidates_budget if args.candidates else None, steps, args.shrink,
                                            args.accept_fields)
            except PuzzleFileError as exc:
                print(f"{parser.prog}: error: {exc}", file=sys.stderr)
                status = 2
                continue
            if (bad or failed) and status == 0:
                status = 1
    return status_of(out, status, parser.prog)


def steps_program(parser: argparse.ArgumentParser, args: argparse.Namespace) -> StepsProgram | None:
    """The --steps program, checked before any run (a usage error when it cannot be); None without --steps."""
    if args.steps is None:
        if args.shrink:
            parser.error("--shrink shrinks a puzzle a --steps program is unsound on: give --steps")
        return None
    try:
        argv = program_argv(args.steps)
    except ValueError as exc:
        parser.error(str(exc))
    return StepsProgram(argv, args.timeout, args.candidates_budget)


if __name__ == "__main__":
    sys.exit(main())
