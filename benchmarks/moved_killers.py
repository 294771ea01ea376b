"""Equivalent copies of Killers, their cages moved with their cells: more puzzles of the same difficulty, so a change
of a search's settings is measured on more than the draw of a few searches.

    python benchmarks/moved_killers.py extreme-killers.txt --copies 8 --seed 7 --output moved.txt
    python compare.py moved.txt --solver cdcl --solutions 2

Each copy has its bands and stacks shuffled, the rows and columns within each, and (square boxes) is transposed half
the time, every cage moved with its cells (`puzzles.isomorph.moved_killer`): the same solution, moved. A Killer's
isomorphs on its own layout (`compare.py --isomorphs`) are few or none, as a move must map each cage onto a cage of
the same total. The copies of a puzzle are named after it, `-moved0`, `-moved1` and so on; the same seed writes the
same file. A line that is not a Killer on boxes (a diagonal, another rule) is named on standard error and left out.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzles import PuzzleError, PuzzleFileError  # noqa: E402
from puzzles.formats import Entry, format_line, read_puzzles  # noqa: E402
from puzzles.isomorph import moved_killer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a puzzle file of Killers (any format the project reads)")
    parser.add_argument("--copies", type=int, default=1, metavar="K", help="copies of each puzzle (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0)")
    parser.add_argument("--output", metavar="FILE", help="where to write them (default: standard output)")
    args = parser.parse_args(argv)
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    rng = random.Random(args.seed)
    lines = [f"# {args.copies} moved copies of each Killer of {Path(args.file).name}, seed {args.seed} "
             f"(benchmarks/moved_killers.py)"]
    try:
        entries = list(read_puzzles(args.file, on_note=lambda note: print(note, file=sys.stderr)))
    except (OSError, PuzzleError, PuzzleFileError) as exc:  # no such file, a folder, not text
        print(f"moved_killers: {exc}", file=sys.stderr)
        return 2
    for entry in entries:
        if not isinstance(entry, Entry):
            print(f"{entry} (left out)", file=sys.stderr)
            continue
        name = entry.name or f"line{entry.line}"
        try:
            lines += [format_line(moved_killer(entry.grid, rng), f"{name}-moved{k}") for k in range(args.copies)]
        except PuzzleError as exc:
            print(f"{entry.file}:{entry.line}: {exc} (left out)", file=sys.stderr)
    text = "\n".join(lines) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
