"""`sudoku-export`: a puzzle's model in its solver's own text form, or the puzzle as a link that a puzzle site
loads (in a checkout not installed: `python -m commands.export`).

- --model cpsat: the CP-SAT model proto as text (either formulation)
- --model mip:   the 0-1 program as an LP file (or MPS with --format mps)
- --model sat:   the CNF as DIMACS
- --link f-puzzles|sudokupad: the puzzle as f-puzzles' link, or SudokuPad's (its `fpuzzles` form), which
  compare.py and sudoku-check read back
"""
from __future__ import annotations

import argparse
import sys

from formulations import cpsat, sat
from formulations.export import MODELS, export_text
from puzzles.fpuzzles import link_of, object_of
from puzzles.grid import Grid, PuzzleError

SITES = ("f-puzzles", "sudokupad")  # --link's choices (puzzles.fpuzzles.link_of's sites)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sudoku-export",
                                     description="Write a puzzle's model in its solver's own text form, for study; or "
                                     "the puzzle as a link that f-puzzles or SudokuPad loads.")
    parser.add_argument("puzzle", help="the puzzle on one line (16, 81, 256 or 625 symbols)")
    written = parser.add_mutually_exclusive_group(required=True)
    written.add_argument("--model", choices=MODELS, help="the formulation whose model is written")
    written.add_argument("--link", choices=SITES,
                         help="write the puzzle as a link instead: f-puzzles' (https://www.f-puzzles.com/?load=...) "
                         "or SudokuPad's (https://sudokupad.app/fpuzzles...), its houses, cages and rules included")
    parser.add_argument("--title", default="", help="with --link: the puzzle's title in the link")
    parser.add_argument("--out", help="file to write (default: standard output)")
    parser.add_argument("--cpsat-model", choices=cpsat.MODELS, default="integer",
                        help="the CP-SAT formulation (default integer)")
    parser.add_argument("--format", choices=("lp", "mps"), default="lp", help="MIP file format (default lp)")
    parser.add_argument("--sums", help="a Killer's cage sums: cpsat " + "|".join(cpsat.OPTIONS["sums"].choices)
                        + f" (default {cpsat.OPTIONS['sums'].default}); sat " + "|".join(sat.OPTIONS["sums"].choices)
                        + f" (default {sat.OPTIONS['sums'].default}); the MIP states them as linear rows")
    parser.add_argument("--redundant", choices=("none", "45"), default="none",
                        help="with 45, the 45 rule's derived sums as redundant constraints (default none)")
    args = parser.parse_args(argv)
    if args.link is not None:
        modelled = [flag for flag, given in (("--cpsat-model", args.cpsat_model != "integer"),
                                             ("--format", args.format != "lp"), ("--sums", args.sums is not None),
                                             ("--redundant", args.redundant != "none")) if given]
        if modelled:
            parser.error(f"{', '.join(modelled)}: for a --model; a --link writes the puzzle itself")
    elif args.title:
        parser.error("--title names the puzzle in a --link")
    if args.sums is not None:
        known = {"cpsat": cpsat.OPTIONS["sums"].choices, "sat": sat.OPTIONS["sums"].choices}.get(args.model, ())
        if args.sums not in known:
            parser.error(f"--sums {args.sums}: " + (f"--model {args.model} takes " + "|".join(known) if known
                                                    else f"--model {args.model} has no choice of sums"))
    try:
        grid = Grid.parse(args.puzzle)
    except PuzzleError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    if grid.conflicts():
        print(f"{parser.prog}: error: invalid puzzle: " + "; ".join(grid.conflicts()), file=sys.stderr)
        return 2
    if args.link is not None:
        return written_out(link_of(object_of(grid, args.title), site=args.link) + "\n", args.out)
    sums = {} if args.sums is None else {"sums": args.sums} if args.model == "cpsat" else {"sat_sums": args.sums}
    try:
        text = export_text(grid, args.model, cpsat_model=args.cpsat_model, mip_format=args.format,
                           redundant=args.redundant, **sums)
    except ValueError as exc:  # a sum encoding whose package is missing, say: the message says what to do
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return written_out(text, args.out)


def written_out(text: str, path: str | None) -> int:
    """The text written to `path`, or to standard output when there is none; the exit status."""
    if path:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
