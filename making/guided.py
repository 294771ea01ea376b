"""The work a profile-guided build of the searches trains on (setup.py, SUDOKU_SEARCH_GUIDED=1): every method of
search/ on the project's own puzzles, and cdcl on a 16x16 Killer and a 16x16 Jigsaw made here from a fixed seed,
each under a budget of nodes (no clock: the same work on every machine). The C compiler measures which branches
and calls these runs take, and the second build lays the code out for them.

    python -m making.guided [ROOT]        (what the build runs between its two compilations; ROOT: the checkout
                                          whose puzzles it reads, by default this one)
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from making.solutions import random_solution
from making.variants import jigsaw_layout
from puzzles import Budget, Grid
from puzzles.constraints.killer_maker import killer_puzzle, random_cages
from puzzles.formats import Entry, read_puzzles
from puzzles.layouts import boxes
from search import SOLVERS

ROOT = Path(__file__).resolve().parent.parent
FILES = ("puzzles/seeds.txt", "puzzles/family.txt", "examples/killer.jsonl", "examples/jigsaw.jsonl")
NODES = 20_000  # a method's budget on each puzzle
MADE_NODES = 8_000  # cdcl's on the puzzles made here (a few seconds compiled)
SEED = 2026


def made() -> list[Grid]:
    """A 16x16 Killer (cages over a random solution, no given) and a 16x16 Jigsaw (random regions, a given in
    three cells of ten): each has many solutions, so a search for two meets conflicts on the way."""
    rng = random.Random(SEED)
    square = random_solution(boxes(16), rng)
    killer = killer_puzzle(square, random_cages(square, rng))
    regions = random_solution(jigsaw_layout("jigsaw", 16, rng), rng)
    jigsaw = Grid(regions.layout, bytes(v if rng.random() < 0.3 else 0 for v in regions.values))
    return [killer, jigsaw]


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else ROOT
    grids = [entry.grid for name in FILES for entry in read_puzzles(root / name) if isinstance(entry, Entry)]
    for grid in grids:
        for method in SOLVERS.values():
            method(grid, Budget(nodes=NODES), solutions=2)
    for grid in made():
        SOLVERS["cdcl"](grid, Budget(nodes=MADE_NODES), solutions=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
