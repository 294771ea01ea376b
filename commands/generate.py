"""Unique-solution puzzles of any size, made without a search.

`sudoku-generate` (`python -m commands.generate` in a checkout not installed):

    sudoku-generate --box 4 --count 3 --seed 1 [--rule naked]
    sudoku-generate --variant jigsaw --side 6 --minimal --output jigsaw6.jsonl

By default, unique puzzles that naked and hidden singles solve alone (making/singles.py): easy for propagation,
the project's own sizes-and-formats material. With --minimal, unique and minimal puzzles certified by SAT;
with --hard-for, puzzles made hard for a method by a local search (comparison/programs/to_order.py). Each of
them on classic Sudoku or, with --variant, on a variant of the Sudoku family (making/variants.py; a Jigsaw's
regions drawn anew for each puzzle), constraints included (`antiknight`, `thermometer`, ...: thermometers drawn
for each puzzle over a random full grid that keeps them).

A Killer (`--variant killer`, `killer+x`, `killer+jigsaw`, ...) is made by making/kinds.py's `killer`: cages
drawn over a random full grid and made unique, no givens unless --givens; --minimal makes it cage-minimal,
--needs RULE one that is unique only with that rule (puzzles/constraints/killer_maker.py and making/kinds.py say
exactly what).
--hard-for moves givens (making/moves.py), which a Killer has none of: it is refused for a Killer.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from making.kinds import NEEDED, killer, needing_killer
from making.singles import SOLVES_BY_SINGLES, generate
from making.variants import Variant, drawn_kinds, variant
from puzzles.constraints import made as made_rules
from puzzles.formats import format_line
from puzzles.fpuzzles import json_line
from puzzles.layouts import PuzzleError
from puzzles.words import plural

from .flags import add_method_flags, positive, zero_or_more

if TYPE_CHECKING:
    from comparison.programs.to_order import OrderSettings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku-generate", description=__doc__.split("\n")[0],
        epilog="Exit status: 0 done; 2 a usage error; 130 or 143 interrupted by Ctrl-C or SIGTERM (what was made "
        "so far is written).")
    parser.add_argument("--box", type=int, choices=(2, 3, 4, 5), help="box size (3 = 9x9, the default)")
    parser.add_argument("--side", type=int, metavar="N", help="the grid's side instead of --box: 6, 8, 10 and "
                        "12 have rectangular boxes (2x3, 2x4, 2x5, 3x4); a Jigsaw any side from 4 to 16")
    parser.add_argument("--variant", default="classic", metavar="NAME",
                        help="a variant of the Sudoku family: jigsaw, x, windoku, disjoint, diagonal+, diagonal-, "
                        "antiknight, antiking, nonconsecutive; a kind of rule drawn over each puzzle's solution ("
                        f"{', '.join(drawn_kinds())}); or several joined by + (jigsaw+x, x+windoku, "
                        "jigsaw+thermometer); killer (or killer+x, killer+antiknight, ...) for Killer puzzles "
                        "(below); default classic")
    parser.add_argument("--count", type=positive(int), default=None,
                        help="how many puzzles (default 1; with --hard-for, the whole pool)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed makes the same puzzles")
    parser.add_argument("--keep", type=zero_or_more(int), default=0, help="keep at least this many givens")
    parser.add_argument("--rule", choices=sorted(SOLVES_BY_SINGLES), default="singles",
                        help="what must solve the puzzle alone: naked and hidden singles, or naked singles only")
    parser.add_argument("--minimal", action="store_true",
                        help="unique and minimal puzzles (removing any clue leaves more than one solution), "
                        "certified by SAT")
    parser.add_argument("--output", metavar="FILE", help="write the puzzles to FILE (CSV with clue count and effort "
                        "columns when it ends in .csv; f-puzzles JSON, one puzzle a line, when it ends in .jsonl; "
                        "else the line format); default standard output")
    made = parser.add_argument_group("puzzles made hard for a method (comparison/programs/hard_search.py)")
    made.add_argument("--hard-for", metavar="SPEC", help="a compare.py method spec: puzzles that take it the most "
                      "effort, by its own counter (guesses, nodes, conflicts, branches)")
    made.add_argument("--easy-for", metavar="SPEC", help="with --hard-for: the score is the ratio of the two "
                      "methods' efforts (puzzles that split them)")
    made.add_argument("--minutes", type=positive(float), default=1.0, help="how long the search runs (default 1)")
    made.add_argument("--isomorphs", type=positive(int), default=8, metavar="K",
                      help="a puzzle's effort is the geometric mean over K random isomorphs (default 8)")
    made.add_argument("--solutions", type=int, choices=(1, 2), default=1,
                      help="2: score the effort to prove each isomorph's solution unique (the whole search tree), "
                      "which depends less on the luck of the value order than the effort to the first solution; "
                      "for complete searches")
    made.add_argument("--pool", type=positive(int), default=12, help="the pool of best puzzles kept (default 12)")
    made.add_argument("--start", action="append", metavar="FILE", help="score the unique puzzles of FILE first, "
                      "and let the best of them into the pool (tdoku's generator loads its pool so); in the "
                      "output such a puzzle is named where it was read")
    add_method_flags(made, solver=False)  # the methods are --hard-for's and --easy-for's
    caged = parser.add_argument_group("Killer puzzles (--variant killer, killer+x, killer+jigsaw, ...)")
    caged.add_argument("--givens", action="store_true", help="a Killer may have givens beside its cages: one is "
                       "added where two solutions differ (by default the cages are split there, no givens)")
    caged.add_argument("--needs", choices=NEEDED, metavar="RULE", help="a cage-minimal Killer that has a second "
                       "solution without RULE: no-repeat (its cages' no-repeat rule) or regions (four boxes at a "
                       "rectangle's corners, two Jigsaw regions: fewer are implied); what was dropped is the CSV's "
                       "`needs` column")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    asked = settings_of(args, parser)
    if asked.variant.caged:
        from comparison.execution.interrupts import stopped_by_signals  # SIGINT and SIGTERM alike

        try:
            return stopped_by_signals(killers)(asked)
        except PuzzleError as exc:
            parser.error(f"--variant {asked.variant.name}: {exc}")
    if args.hard_for or args.minimal:
        from comparison.programs.to_order import made_to_order  # compare.py's machinery: loaded only when used

        return made_to_order(order_of(args, asked.variant))
    return by_singles(asked)


@dataclass(frozen=True)
class GenerateSettings:
    """What the generator makes (the command line's flags, checked and typed once; --minimal and --hard-for on
    puzzles with givens go to comparison/programs/to_order.py with its OrderSettings)."""

    variant: Variant
    count: int | None  # None: one puzzle
    seed: int
    output: str | None  # the file, named as given; None: standard output
    keep: int  # givens kept at least (puzzles singles solve)
    rule: str  # what must solve them alone (making.singles.SOLVES_BY_SINGLES)
    minimal: bool  # a Killer: cage-minimal
    givens: bool  # a Killer: givens beside its cages
    needs: str | None  # a Killer that needs this rule (making.kinds.NEEDED)


def settings_of(args: argparse.Namespace, parser: argparse.ArgumentParser) -> GenerateSettings:
    """The generator's settings; the parser's error for a flag that does not go with the others."""
    made = chosen(args.variant, args.box, args.side, parser)
    if made.caged:
        if args.hard_for or args.easy_for:
            parser.error("--hard-for moves givens (making/moves.py) and a Killer is made of cages: not for "
                         f"--variant {made.name}")
        if args.rule != "singles" or args.keep:
            parser.error(f"--{'rule' if args.rule != 'singles' else 'keep'} is for puzzles singles solve; a "
                         "Killer is certified unique by SAT")
    else:
        if args.givens or args.needs:
            parser.error(f"--{'givens' if args.givens else 'needs'} is for a Killer (--variant killer)")
        if args.easy_for and not (args.hard_for or args.minimal):
            parser.error("--easy-for needs --hard-for")
    return GenerateSettings(variant=made, count=args.count, seed=args.seed, output=args.output, keep=args.keep,
                            rule=args.rule, minimal=args.minimal, givens=args.givens, needs=args.needs)


def order_of(args: argparse.Namespace, made: Variant) -> OrderSettings:
    """--minimal's or --hard-for's settings (comparison/programs/to_order.py)."""
    from comparison.programs.to_order import HardFor, OrderSettings

    hard_for = HardFor(hard=args.hard_for, easy=args.easy_for, command=tuple(args.command or ()),
                       registry=tuple(args.registry or ()), timeout=args.timeout, jobs=args.jobs,
                       solutions=args.solutions, minutes=args.minutes, isomorphs=args.isomorphs, pool=args.pool,
                       start=tuple(args.start or ())) if args.hard_for else None
    return OrderSettings(variant=made, count=args.count, seed=args.seed, output=args.output, hard_for=hard_for)


def by_singles(asked: GenerateSettings) -> int:
    """Unique puzzles that `asked.rule` solves alone, in the line form or f-puzzles JSON lines."""
    rng = random.Random(asked.seed)
    as_json = asked.output is not None and asked.output.lower().endswith(".jsonl")
    lines = []
    for i in range(asked.count or 1):
        puzzle, solution = generate(asked.variant.layout(rng), rng, asked.keep, asked.rule)
        name = f"generated-{asked.variant.tag}-seed{asked.seed}-{i + 1}"
        lines.append(json_line(puzzle, name, solution) if as_json else format_line(puzzle, name))
    if asked.output:
        with open(asked.output, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
    else:
        print("\n".join(lines))
    return 0


def killers(asked: GenerateSettings) -> int:
    """--variant killer...: unique Killers (cage-minimal with --minimal; needing a rule with --needs), written as
    --minimal's puzzles are (line form, CSV with what certifying took, or f-puzzles JSON lines)."""
    from comparison.programs.to_order import progress_bar, write  # compare.py's machinery: loaded only when used

    rng = random.Random(asked.seed)
    what = f"needs-{asked.needs}" if asked.needs else "minimal" if asked.minimal else "generated"
    rows: list[dict[str, object]] = []
    count = asked.count or 1
    with progress_bar(f"{asked.variant.name} puzzles", count) as bar:  # on a terminal: a 16x16 takes minutes
        task = bar.add_task("made", total=count, note="")
        status = made_killers(asked, rng, what, rows, lambda note: bar.update(task, advance=1, note=note))
    write(asked.output, rows)
    return status


def made_killers(asked: GenerateSettings, rng: random.Random, what: str, rows: list[dict[str, object]],
                 advance: Callable[[str], None]) -> int:
    """Killer puzzles added to `rows` one by one (`advance` told of each): the exit status, 130 or 143 when
    Ctrl-C or SIGTERM stopped it (the rows made are kept)."""
    from comparison.execution.interrupts import Interrupted

    try:
        for i in range(asked.count or 1):
            started = time.perf_counter()
            lay = asked.variant.layout(rng)
            dropped = ""
            if asked.needs:
                needing = needing_killer(lay, rng, asked.needs)
                made, dropped = needing.made, needing.dropped
            else:
                made = killer(lay, rng, minimal=asked.minimal, givens=asked.givens)
            puzzle = made.puzzle
            drawn = made_rules(puzzle.layout.constraints)  # the cages its maker drew
            rows.append({"puzzle": puzzle.text(), "name": f"{what}-{asked.variant.tag}-seed{asked.seed}-{i + 1}",
                         "clues": puzzle.givens, "cages": len(drawn),
                         "totals": sum(rule.clues() for rule in drawn),
                         "sat_checks": made.checks, "undecided": made.undecided,
                         **({"needs": dropped} if asked.needs else {}),
                         "seconds": round(time.perf_counter() - started, 3)})
            advance(f"{plural(len(drawn), 'cage')}, {plural(made.checks, 'SAT check')}")
    except KeyboardInterrupt as exc:
        return exc.status if isinstance(exc, Interrupted) else 130
    return 0


def chosen(name: str, box: int | None, side: int | None, parser: argparse.ArgumentParser) -> Variant:
    """The variant and side asked for (--variant, --box or --side), checked: the parser's error otherwise."""
    if box is not None and side is not None:
        parser.error("give --box or --side, not both")
    at = side if side is not None else (box or 3) ** 2
    try:
        return variant(name, at)
    except PuzzleError as exc:
        parser.error(f"--variant {name} at {at}x{at}: {exc}")


if __name__ == "__main__":
    sys.exit(main())
