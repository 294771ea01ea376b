"""Killer puzzles made by another program: Solo, from Simon Tatham's Portable Puzzle Collection (MIT licence;
Debian's `sgt-puzzles`, whose Solo is /usr/games/sgt-solo). This runs Solo's generator (or reads Solo game IDs
from a file), reads each ID's description into the project's Grid, its cages Killer cages, and writes them in the
line form, Solo's ID as each puzzle's name, so that compare.py runs every method on Killers the project did not
make:

    apt-get install sgt-puzzles
    python benchmarks/solo_killers.py OUT.txt [--count 20] [--difficulty t,b,i,a,u] [--seed 1] [--shape 3x3]
    python benchmarks/solo_killers.py OUT.txt --ids IDS.txt     (Solo game IDs, one a line)
    python benchmarks/solo_killers.py --overdetermined [--count 60] [--ids IDS.txt]
    python compare.py OUT.txt

Solo's difficulties: t trivial, b basic, i intermediate, a advanced, e extreme, u unreasonable (Solo's generator
keeps a grid only when its own solver needs exactly that level; `e` is slow: about a minute a puzzle). `--shape`
is Solo's grid part: `3x3` (boxes 3 rows tall and 3 wide), `2x3`, `3x3x` (with both diagonals: Killer X), `9j`
(Jigsaw regions). A seed makes the run repeatable: Solo's `PARAMS#SEED` (its ids `SEED`, `SEED-1`, ...).

A Solo game ID is `PARAMS:DESCRIPTION`; the description's parts are separated by commas (solo.c, `validate_desc`
and `new_game`): the givens; for a Jigsaw, its regions; for a Killer, its cages and then the cage totals:

- givens and totals: a grid in reading order, a letter a..z for a run of 1..26 blank cells, a number for a cell
  that holds it, `_` between two numbers with no blank between them;
- regions and cages: which internal edges of the grid are drawn, each edge in turn: first the vertical edges
  between horizontal neighbours, row by row, then the horizontal edges between vertical neighbours, column by
  column, and one virtual drawn edge past the last. A letter a..y (1..25) or `_` (0) is that many undrawn edges,
  then a drawn one; `z` is 26 undrawn edges and no drawn one. Cells joined by undrawn edges form one cage (or
  region);
- a cage's total stands in one of its cells (Solo writes it in the cage's first cell in reading order); a cage
  with no total forbids repeats only.

Solo's own solution of each puzzle (its solver, run through `--save ... --with-solutions`) is checked against
the puzzle read here: a line `# Solo's solution of ... is not valid` says where it is not (the puzzle is still
written). `--overdetermined` counts, by CP-SAT, how many puzzles of each difficulty have exactly one solution under
the full rules, without the no-repeat rule inside cages, with the box rule on only boxes 1, 2, 4 and 5, and with no
box rule at all: a puzzle that stays unique under a weaker model cannot show that a solver drops that rule. (On a
9x9 grid the boxes-1,2,4,5 model is not weaker at all: rows 1-3 each hold every value, so boxes 1 and 2 holding
each once leave each once for box 3; so for box 6 by rows, boxes 7 and 8 by columns, then box 9. No puzzle can
show that bug; a test proves it.)
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere, as compare.py is

from commands.flags import positive  # noqa: E402
from puzzles import Grid  # noqa: E402
from puzzles.constraints.killer import Cage, cages_in  # noqa: E402
from puzzles.layouts import Layout, PuzzleError, box_regions, family  # noqa: E402

DIFFICULTIES = {"t": "trivial", "b": "basic", "i": "intermediate", "a": "advanced", "e": "extreme",
                "u": "unreasonable"}
INSTALL = "Solo (Simon Tatham's Portable Puzzle Collection) is not installed: apt-get install sgt-puzzles " \
          "(Debian, Ubuntu: /usr/games/sgt-solo), or give its program with --solo PATH"
SOLO_NAMES = ("sgt-solo", "/usr/games/sgt-solo", "solo")


class SoloIdError(ValueError):
    """A Solo game ID this reader cannot take; the message says why."""


@dataclass(frozen=True)
class SoloParams:
    """Solo's parameters as its ID's first part gives them (solo.c `decode_params`): `CxR` boxes C rows tall and
    R columns wide (a grid of side C*R), `Nj` a Jigsaw of side N, then `x` (both diagonals) and `k` (Killer)."""

    side: int
    box_height: int  # 0 for a Jigsaw
    box_width: int
    x: bool
    killer: bool


def params_of(text: str) -> SoloParams:
    """The parameters of an ID's first part; the difficulty and symmetry letters, which a description does not
    depend on, are passed over."""
    found = re.fullmatch(r"(\d+)(?:x(\d+))?(j?)([a-z\d]*)", text)
    if found is None:
        raise SoloIdError(f"{text!r} is not Solo's parameters (such as 3x3k, 2x3k, 9jk, 3x3xk)")
    first, second, jigsaw, flags = found.groups()
    c = int(first)
    r = c if second is None else int(second)
    if jigsaw:
        side, height, width = (c * r if second else c), 0, 0
    else:
        side, height, width = c * r, c, r  # solo.c: cell (x, y) is in block (y/c)*c + x/r
    flags = re.sub(r"d[tbiaeu]|md?\d+|r\d+", "", flags)  # difficulty and symmetry: not in a description
    return SoloParams(side, height, width, "x" in flags, "k" in flags)


def grid_numbers(spec: str, area: int, largest: int, what: str) -> list[int]:
    """The cells of a grid part (givens or totals): 0 for a blank, in reading order (solo.c `spec_to_grid`)."""
    cells: list[int] = []
    for token in re.findall(r"[a-z]|_|\d+|.", spec):
        if token.isdigit():
            if not 1 <= int(token) <= largest:
                raise SoloIdError(f"{what}: {token} is out of range (1 to {largest})")
            cells.append(int(token))
        elif "a" <= token <= "z":
            cells += [0] * (ord(token) - ord("a") + 1)
        elif token != "_":
            raise SoloIdError(f"{what}: {token!r} is not a run letter, a number or _")
    if len(cells) != area:
        raise SoloIdError(f"{what}: {len(cells)} cells, not {area}")
    return cells


def _edge_cells(position: int, side: int) -> tuple[int, int]:
    """The two cells an internal edge lies between: vertical edges row by row, then horizontal ones column by
    column."""
    per_line = side - 1
    if position < side * per_line:
        row, col = divmod(position, per_line)
        return row * side + col, row * side + col + 1
    col, row = divmod(position - side * per_line, per_line)
    return row * side + col, (row + 1) * side + col


def pieces(spec: str, side: int, what: str) -> list[tuple[int, ...]]:
    """The pieces (regions or cages) a block part draws, each its cells in reading order, the pieces in the order
    of their first cells (solo.c `spec_to_dsf`). Read as Solo reads: `z` is 26 undrawn edges. (Solo's writer,
    `encode_block_structure_desc`, counts a `z` as 25: the two differ only on a run of 26 undrawn edges or more,
    two whole rows or columns each one piece and more, which Solo's cages and regions all but never make.)"""
    parent = list(range(side * side))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    edges, position = 2 * side * (side - 1), 0
    for letter in spec:
        if letter != "_" and not "a" <= letter <= "z":
            raise SoloIdError(f"{what}: {letter!r} is not a run letter or _")
        undrawn = 0 if letter == "_" else ord(letter) - ord("a") + 1
        if position + undrawn > edges:
            raise SoloIdError(f"{what}: more edges than a {side}x{side} grid has")
        for _ in range(undrawn):
            one, other = _edge_cells(position, side)
            parent[root(one)] = root(other)
            position += 1
        position += letter != "z"  # the drawn edge after the run ('z': none)
    if position != edges + 1:
        raise SoloIdError(f"{what}: {position} edges, not {edges} and the closing one")
    members: dict[int, list[int]] = {}
    for cell in range(side * side):
        members.setdefault(root(cell), []).append(cell)
    return [tuple(cells) for cells in members.values()]  # in order of first cells: a dict keeps insertion order


def cages_of(blocks: list[tuple[int, ...]], totals: list[int]) -> list[Cage]:
    """Each cage with its total: the number in one of its cells (none: a cage without a total)."""
    cages: list[Cage] = []
    for cells in blocks:
        given = [totals[c] for c in cells if totals[c]]
        if len(given) > 1:
            raise SoloIdError(f"a cage holds {len(given)} totals ({', '.join(map(str, given))})")
        cages.append(Cage(cells, given[0] if given else None))
    return cages


def puzzle_of_id(game_id: str) -> Grid:
    """The puzzle a Solo game ID (`PARAMS:DESCRIPTION`) describes, as a Grid with its regions, diagonals and
    cages. SoloIdError (or PuzzleError, from the layout's own checks) says why an ID is not one."""
    text = game_id.strip()
    if ":" not in text:
        raise SoloIdError(f"{text!r} is not a descriptive Solo game ID (PARAMS:DESCRIPTION); a random seed ID "
                          "(PARAMS#SEED) describes no puzzle until Solo generates it")
    head, _, desc = text.partition(":")
    params = params_of(head)
    n, area = params.side, params.side * params.side
    parts = desc.split(",")
    expected = 1 + (params.box_height == 0) + 2 * params.killer
    if len(parts) != expected:
        raise SoloIdError(f"a {head} description has {expected} parts separated by commas, not {len(parts)}")
    givens = grid_numbers(parts[0], area, n, "the givens")
    if params.box_height:
        regions: Sequence[int] = box_regions(n, params.box_height, params.box_width)
    else:
        region_of = {cell: index for index, cells in enumerate(pieces(parts[1], n, "the regions"))
                     for cell in cells}
        regions = [region_of[cell] for cell in range(area)]
    cages: list[Cage] = []
    if params.killer:
        blocks = pieces(parts[-2], n, "the cages")
        cages = cages_of(blocks, grid_numbers(parts[-1], area, n * area, "the totals"))
    lay: Layout = family(n, regions, diagonals="+-" if params.x else "", constraints=cages)
    return Grid(lay, bytes(givens))


# -- running Solo -----------------------------------------------------------------------------------------------
def find_solo(given: str | None) -> str | None:
    """Solo's program: the one given, else sgt-solo on the PATH or where Debian puts it."""
    for name in [given] if given else SOLO_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def generate(solo: str, params: str, count: int, seed: str) -> list[str]:
    """`count` game IDs from Solo's generator, repeatable by the seed."""
    made = subprocess.run([solo, "--generate", str(count), f"{params}#{seed}"], capture_output=True, text=True,
                          check=False)
    if made.returncode:
        raise SoloIdError(f"{solo} --generate {count} {params}#{seed}: {made.stderr.strip()}")
    return [line.strip() for line in made.stdout.splitlines() if line.strip()]


def solo_solution(solo: str, game_id: str) -> list[int] | None:
    """Solo's own solver's solution of an ID (its save file's SOLVE move, `S` and the values), None when it
    finds none."""
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "solved")
        ran = subprocess.run([solo, "--save", prefix, "--with-solutions"], input=game_id + "\n",
                             capture_output=True, text=True, check=False)
        saved = Path(prefix + "0")
        if ran.returncode or not saved.exists():
            return None
        return solution_of_save(saved.read_text())


def solution_of_save(text: str) -> list[int] | None:
    """The values of a Solo save file's solve move (`SOLVE :162:S1,7,6,...`): each line is a key, the value's
    length and the value."""
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key.strip() == "SOLVE":
            move = rest.partition(":")[2]
            if move.startswith("S"):
                return [int(v) for v in move[1:].split(",")]
    return None


# -- how over-determined the puzzles are ------------------------------------------------------------------------
@dataclass(frozen=True)
class Model:
    """Which rules a count of solutions keeps: the cages' no-repeat rule, and which boxes hold every value."""

    name: str
    cage_repeats: bool  # the no-repeat rule inside cages
    boxes: tuple[int, ...] | None  # the regions kept (None: all)


MODELS = (Model("all rules", True, None), Model("no repeat rule in cages", False, None),
          Model("boxes 1,2,4,5 only", True, (0, 1, 3, 4)), Model("no box rule", True, ()))


def count_solutions(grid: Grid, model: Model, limit: int = 2) -> int:
    """Solutions of the puzzle under the model's rules, counted by CP-SAT up to `limit` (each found is then
    forbidden): a value per cell as n booleans, each house exactly one of each value, each cage its sum."""
    from ortools.sat.python import cp_model

    lay, n = grid.layout, grid.layout.side
    cp = cp_model.CpModel()
    is_value = [[cp.new_bool_var(f"r{c // n + 1}c{c % n + 1}={v + 1}") for v in range(n)] for c in range(n * n)]
    for cell, value in enumerate(grid.values):
        cp.add_exactly_one(is_value[cell])
        if value:
            cp.add(is_value[cell][value - 1] == 1)
    houses = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    houses += [[c for c in range(n * n) if lay.regions[c] == region] for region in range(n)
               if model.boxes is None or region in model.boxes]
    houses += [list(h.cells) for h in lay.extras]
    for house in houses:
        for v in range(n):
            cp.add_exactly_one(is_value[c][v] for c in house)
    for cage in cages_in(lay.constraints):
        if model.cage_repeats:
            for v in range(n):
                cp.add_at_most_one(is_value[c][v] for c in cage.cells)
        if cage.total is not None:
            cp.add(sum((v + 1) * is_value[c][v] for c in cage.cells for v in range(n)) == cage.total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    found = 0
    while found < limit and solver.solve(cp) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found += 1
        chosen = [next(is_value[c][v] for v in range(n) if solver.value(is_value[c][v])) for c in range(n * n)]
        cp.add_bool_or([~b for b in chosen])
    return found


def overdetermined_table(groups: dict[str, list[Grid]], count: Callable[[Grid, Model], int] = count_solutions) \
        -> list[str]:
    """A table: for each group (a difficulty), its puzzles and how many have exactly one solution under each
    model."""
    width = max([len("difficulty"), *map(len, groups)])
    head = f"{'difficulty':<{width}}  puzzles  " + "  ".join(m.name for m in MODELS)
    lines = [head, "-" * len(head)]
    for name, grids in groups.items():
        unique = [sum(count(g, m) == 1 for g in grids) for m in MODELS]
        lines.append(f"{name:<{width}}  {len(grids):>7}  "
                     + "  ".join(f"{u:>{len(m.name)}}" for u, m in zip(unique, MODELS, strict=True)))
    lines.append("(how many puzzles have exactly one solution under each model: CP-SAT, counting up to two; on 9x9, "
                 "rows and columns with boxes 1,2,4,5 imply the other boxes)")
    return lines


# -- the command line -------------------------------------------------------------------------------------------
def read_ids(path: Path) -> list[str]:
    """The game IDs of a file, one a line; blank lines and `#` comments passed over."""
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", type=Path, nargs="?", help="the puzzle file to write (line form)")
    parser.add_argument("--ids", type=Path, action="append", default=[],
                        help="read Solo game IDs from this file (one a line) instead of generating")
    parser.add_argument("--count", type=positive(int), default=20, help="puzzles of each difficulty (default 20)")
    parser.add_argument("--difficulty", default="t,b,i,a,u",
                        help="Solo's difficulties, comma separated: t,b,i,a,e,u (default t,b,i,a,u)")
    parser.add_argument("--shape", default="3x3", help="Solo's grid: 3x3 (default), 2x3, 3x3x, 9j, ...")
    parser.add_argument("--seed", default="1", help="Solo's random seed (default 1)")
    parser.add_argument("--solo", help="Solo's program (default: sgt-solo, or /usr/games/sgt-solo)")
    parser.add_argument("--overdetermined", action="store_true",
                        help="print how many puzzles stay unique without the cages' no-repeat rule, and with the "
                             "box rule on boxes 1,2,4,5 only (CP-SAT)")
    args = parser.parse_args(argv)
    if args.out is None and not args.overdetermined:
        parser.error("give a file to write, or --overdetermined")
    difficulties = [d.strip() for d in args.difficulty.split(",") if d.strip()]
    unknown = [d for d in difficulties if d not in DIFFICULTIES]
    if unknown:
        parser.error(f"unknown difficulty {unknown[0]!r} (Solo's: {', '.join(DIFFICULTIES)})")
    solo = find_solo(args.solo)
    if solo is None and (args.solo or not args.ids):  # IDs read from a file need Solo only to check its solutions
        parser.error(INSTALL if not args.solo else f"{args.solo}: no such program. {INSTALL}")
    groups: dict[str, list[str]] = {}
    try:
        for path in args.ids:
            groups[path.stem] = read_ids(path)
        if not args.ids:
            assert solo is not None
            for d in difficulties:
                groups[DIFFICULTIES[d]] = generate(solo, f"{args.shape}kd{d}", args.count, args.seed)
    except (OSError, SoloIdError) as exc:
        parser.error(str(exc))
    grids: dict[str, list[Grid]] = {}
    lines = [f"# made by Solo (Simon Tatham's Portable Puzzle Collection, MIT licence), {args.shape}k, seed "
             f"{args.seed} (benchmarks/solo_killers.py); each name is Solo's game ID"]
    if args.ids:
        lines[0] = (f"# Solo game IDs from {', '.join(map(str, args.ids))} (benchmarks/solo_killers.py)"
                    + ("" if solo else "; Solo's solutions not checked: Solo is not installed"))
    for group, ids in groups.items():
        lines.append(f"# {group}: {len(ids)} puzzles")
        for game_id in ids:
            try:
                grid = puzzle_of_id(game_id)
            except (SoloIdError, PuzzleError) as exc:
                lines.append(f"# not read: {game_id}: {exc}")
                continue
            grids.setdefault(group, []).append(grid)
            if solo is not None and args.out is not None:
                solved = solo_solution(solo, game_id)
                problems = (["Solo found none"] if solved is None
                            else grid.solution_problems(Grid(grid.layout, bytes(solved))))
                if problems:
                    lines.append(f"# Solo's solution of {game_id} is not valid: {'; '.join(problems)}")
            lines.append(f"{grid.text()} {game_id}")
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n")
        print(f"{args.out}: {sum(len(g) for g in grids.values())} puzzles, "
              f"{sum(1 for line in lines if line.startswith('# not read'))} IDs not read, "
              f"{sum(1 for line in lines if line.startswith('# Solo'))} with an invalid Solo solution")
    if args.overdetermined:
        print("\n".join(overdetermined_table(grids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
