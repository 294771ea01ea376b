"""Puzzles and helpers that several test modules share: one definition each, named for what it is.

Test modules import these (`from fixtures import ...`), never each other.
"""
from __future__ import annotations

import errno
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from formulations import SOLVERS as FORMULATIONS
from making.solutions import pattern_solution
from puzzles import Budget, Candidates, CellMasks, Grid, Outcome, Status, classic, random_isomorph, values_of
from search import SOLVERS, rules
from search.inference import MAKE_RUNG

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds.txt"

# -- puzzles ---------------------------------------------------------------------------------------------
# puzzles/seeds.txt's, by the seed that brought each
SEED000 = "000702000100040007650000094470801062000000000580209013860000075900060008000908000"  # homework: singles
SEED001 = "005300000800000020070010500400005300010070006003200080060500009004000030000009700"  # needs guesses
SEED002_MULTI = "570010300000500907830000000000030020600405009010060000000007004205000090007050012"  # 2+ solutions
SEED003 = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."  # 1,027,695 placements
# seed 001 with row 8's 4 made an 8: no solution, which singles alone do not see
SEED001_UNSAT = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..8....3......97.."
# no solution, seen at once: row 1 leaves its last cell a 9, and column 9 has one
ROW_COLUMN_UNSAT = "12345678." + "........9" + "." * 63
ROW_COLUMN_UNSAT_4 = "123." + "...." + "...4" + "...."  # the same contradiction, 4x4
UNSAT_4 = "31....4........3"  # a 4x4 with no solution: row 1's last two cells both need its 2
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"  # Norvig's hard1
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."  # "the world's hardest"
PUZZLES = [line.split()[0] for line in SEEDS.read_text().splitlines() if line and not line.startswith("#")]
# A 9x9 Killer with a few givens, unique (test_killer_search.py solves it; test_kept.py reads its layout).
KILLER_9 = ("..4.7..1...2.......9.....6....7.....4.......1.....4..........8.....1..3..........;"
            "k=aaghLmdOGlaggjmHiilggMzzIiilCCbbzAKiwpxxyfAAErNxxeksBEcccxekkBBcFFnukvJtcFFoqDvtt:"
            "15,13,21,9,5,3,24,6,28,9,22,15,13,4,2,2,8,7,8,21,1,7,4,31,5,7,20,17,14,6,7,24,2,3,5,3,2,7,3,1,1")

# Small puzzles whose counters test_search.py and test_learning.py count by hand, cells numbered row-major.
# P4 (4x4, unique), cells numbered row-major 0..15, blanks 0 1 2 4 8:
#     . . . 1        solution  4 3 2 1
#     . 1 4 3                  2 1 4 3
#     . 4 1 2                  3 4 1 2
#     1 2 3 4                  1 2 3 4
# Candidates at the start: cell 0 {2,3,4}, cell 1 {3}, cell 2 {2}, cell 4 {2}, cell 8 {3}.
P4 = "...1.143.4121234"

# Q4 (4x4, two solutions: the 1s and 2s of the top-left 2x2 of rows 1 and 3 can swap):
#     . . 3 4
#     3 4 1 2
#     . . 4 3
#     4 3 2 1       blanks 0 1 8 9, each with candidates {1,2} at the start
Q4 = "..343412..434321"

# N9 (9x9): seed 000's solution with 5 blanks, at cells 18 19 (row 3), 45 49 (row 6), 74 (row 9).
#   row 3: . . 7 1 8 3 2 9 4    row 6: . 8 6 2 . 9 4 1 3    row 9: 7 2 . 9 1 8 3 4 6
# Candidates at the start: cell 18 {5,6} (row 3 lacks 5 6, column 1 lacks 5 6),
# cell 19 {5} (column 2 lacks only 5), cell 45 {5} (row {5,7} and column {5,6}),
# cell 49 {7} (column 5 lacks only 7), cell 74 {5}.
N9 = "348792651192645837..7183294479831562213456789.862.941386132497593456712872.918346"

# D4 (4x4, no solution): cell 5 (row 2, column 2) sees 1 2 3 4 in its box, row and column.
#     1 2 . .
#     3 . . .
#     . . . .
#     . 4 . .
D4 = "12..3........4.."

LADDER = ("naked", "singles", "locked", "subsets", "alldiff", "pairs", "probe")  # the rungs above none


# -- grids -------------------------------------------------------------------------------------------------
def blanked(box: int, seed: int, blank: float) -> Grid:
    """A random isomorph of a full grid with a share `blank` of its cells emptied at random."""
    rng = random.Random(seed)
    solution = random_isomorph(pattern_solution(box), rng)
    return solution.with_values([0 if rng.random() < blank else v for v in solution.values])


def pattern(box: int) -> list[int]:
    """A valid full grid of any box size: the classic shifted-rows pattern."""
    n = box * box
    return [(box * (r % box) + r // box + c) % n + 1 for r in range(n) for c in range(n)]


def scattered(box: int, keep: float) -> Grid:
    """The pattern with a deterministic scatter of blanks; `keep` of the cells stay givens."""
    values = pattern(box)
    for i in range(len(values)):
        if (i * 7919) % 100 >= keep * 100:
            values[i] = 0
    return Grid(classic(box), bytes(values))


def partial_grid(box: int, seed: int, blank: float, wrong: int) -> Grid:
    """A solved grid with a share of its cells blanked, and `wrong` blanks then given a value that
    clashes with no given (but not the solution's): grids with and without contradictions."""
    rng = random.Random(seed)
    solution = random_isomorph(pattern_solution(box), rng)
    values = bytearray(v if rng.random() > blank else 0 for v in solution.values)
    blanks = [c for c, v in enumerate(values) if not v]
    for cell in rng.sample(blanks, min(wrong, len(blanks))):
        board = Candidates(Grid(classic(box), bytes(values)))
        choices = [v for v in range(1, box * box + 1) if board.allows(cell, v) and v != solution.values[cell]]
        if choices:
            values[cell] = rng.choice(choices)
    return Grid(classic(box), bytes(values))


# -- the ladder's reference semantics ------------------------------------------------------------------------
def reference(grid: Grid, rung: str) -> list[int] | None:
    """The same by the rules' fixpoint (the reference semantics of a rung), given what each
    unit still needs."""
    board = Candidates(grid)
    masks = [0 if v else board.candidates(c) for c, v in enumerate(grid.values)]
    if any(not v and not m for v, m in zip(grid.values, masks, strict=True)):
        return None  # an empty cell without a candidate: the engine's first check, which masks cannot show
    needed = [board.full & ~used for used in board.used]
    return rules.fixpoint(masks, grid.geometry, rules.ladder(rung, needed))


def rung_settles(grid: Grid, rung: str) -> bool:
    """An independent check: candidate elimination with naked singles, + hidden singles, + locked candidates."""
    geo = grid.geometry
    n = grid.side
    cands = [{v} if v else set(range(1, n + 1)) for v in grid.values]
    changed = True
    while changed:
        changed = False
        for c in range(geo.cells):
            if len(cands[c]) == 1:
                for peer in geo.peers[c]:
                    changed |= bool(cands[peer] & cands[c])
                    cands[peer] -= cands[c]
        if rung == "naked":
            continue
        for unit in geo.units:
            for v in range(1, n + 1):
                where = [c for c in unit if v in cands[c]]
                if len(where) == 1 and len(cands[where[0]]) > 1:
                    cands[where[0]] = {v}
                    changed = True
                if rung == "locked" and len(where) > 1:  # pointing and claiming
                    for other in geo.units:
                        if other != unit and set(where) <= set(other):
                            for c in set(other) - set(where):
                                changed |= v in cands[c]
                                cands[c].discard(v)
    return all(len(c) == 1 for c in cands)


# -- running the searches -------------------------------------------------------------------------------------
# Every variant a test runs; restart's are the complete one and the seed's (incomplete) one.
COMPLETE = {
    "backtracking": {},
    "mrv": {},
    "mrv-swap": {"tie": "swap"},
    "mrv-requeue": {"tie": "requeue"},
    "mrv-singles": {"propagate": "singles"},
    "mrv-singles-swap": {"propagate": "singles", "tie": "swap"},
    "restart-luby": {"cutoff": "luby", "seed": 1},
    "astar": {},
    "astar-zero": {"heuristic": "zero"},
    "astar-weighted": {"weight": "2.5"},
    "cdcl": {},
    "cdcl-unit": {"unit": 1},
    "cdcl-locked": {"propagate": "locked"},
}
ALL = {**COMPLETE, "restart-none": {"cutoff": "none", "seed": 1, "max_restarts": 200}}


def run(variant: str, puzzle: str | Grid, budget: Budget = Budget(), **extra):
    grid = Grid.parse(puzzle) if isinstance(puzzle, str) else puzzle
    name = variant.split("-")[0]
    out = SOLVERS[name](grid, budget, **{**ALL[variant], **extra})
    assert out.status is not Status.ERROR, out.detail
    if out.solution is not None:
        assert grid.solution_problems(out.solution) == []  # checked cell by cell
    return out


def counters(out, *names: str) -> tuple[int, ...]:
    return tuple(out.effort[n] for n in names)


class OutOfBudget(Exception):
    pass


def tiny_solve(grid: Grid, budget: Budget = Budget(), solutions: object = 1, order: str = "up",
               **unknown: object) -> Outcome:
    """Depth-first, fewest candidates first, singles after each placement; `order` of values up or down."""
    started = time.perf_counter()
    if unknown or order not in ("up", "down") or str(solutions) not in ("1", "2"):
        return Outcome(Status.ERROR, detail=f"bad options {unknown or order or solutions}")
    wanted, deadline = int(str(solutions)), budget.deadline(started)
    cand, trail, found, nodes = Candidates(grid), [], [], 0

    def search() -> bool:
        nonlocal nodes
        mark = len(trail)
        if cand.singles(trail):
            empty = cand.empty_cells()
            if not empty:
                found.append(cand.grid())
                if len(found) >= wanted:
                    return True
            else:
                cell, mask = cand.fewest(empty)
                values = values_of(mask)
                for value in values if order == "up" else reversed(values):
                    if nodes >= budget.node_limit:
                        raise OutOfBudget("nodes")
                    nodes += 1
                    if time.perf_counter() > deadline:
                        raise OutOfBudget("time")
                    cand.place(cell, value)
                    trail.append(cell)
                    if search():
                        return True
                    cand.undo(trail, len(trail) - 1)
        cand.undo(trail, mark)
        return False

    effort = {"nodes": 0, "depth_sum": 0}
    try:
        search()
    except OutOfBudget as exc:
        effort["nodes"] = nodes
        if found:
            return Outcome(Status.SOLVED, found[0], effort, time.perf_counter() - started, None, str(exc))
        return Outcome(Status.GAVE_UP, None, effort, time.perf_counter() - started, None, str(exc))
    effort["nodes"] = nodes
    effort["depth_sum"] = len(trail)  # undeclared: lands in the records' extra column
    seconds = time.perf_counter() - started
    if not found:
        return Outcome(Status.UNSATISFIABLE, None, effort, seconds)
    return Outcome(Status.SOLVED, found[0], effort, seconds, len(found) == 1 if wanted == 2 else None)


# -- looking at processes ---------------------------------------------------------------------------------------
GRACE = 30.0  # seconds at most for the processes of a run to be gone after it ends: a cap, not a speed
MARK = "SUDOKU_RUN_MARK"


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")  # a zombie is dead, only not yet reaped


def all_pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and int(p.name) != os.getpid()]


def marked(mark: str) -> list[int]:
    """The live processes whose environment holds this run's mark."""
    wanted = f"{MARK}={mark}".encode()
    found = []
    for pid in all_pids():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:  # gone, or not ours to read
            continue
        if wanted in environ.split(b"\0") and alive(pid):
            found.append(pid)
    return found


def eventually(condition: Callable[[], Any], seconds: float = GRACE) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def lines_in(path: Path) -> int:
    """How many whole lines the file holds (0 while it does not exist): what a program has written so far."""
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def json_of(path: Path) -> Any:
    """The file's JSON once it is there whole: a written file is polled for, never waited on by a sleep."""
    holder: list[Any] = []

    def parsed() -> bool:
        try:
            holder.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            return False
        return True

    assert eventually(parsed, 120), f"{path} never held JSON"
    return holder[0]


# -- starting a program that a test signals ---------------------------------------------------------------
DEFAULT_SIGNALS = """import os, signal, sys
for signum in (signal.SIGINT, signal.SIGTERM):
    signal.signal(signum, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
"""


def interrupted(process: subprocess.Popen[str], cue: Callable[[], object]) -> tuple[str, str]:
    """Ctrl-C for a program under way: once `cue()` says the program is (its own output, not a guess of how long it
    takes to start), SIGINT, and what it wrote; the program is killed whatever the test found on the way."""
    try:
        assert cue(), "the program never said it was under way"
        process.send_signal(signal.SIGINT)
        return process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def signalled_child(argv: list[str], **popen: Any) -> subprocess.Popen[str]:
    """`argv` started as a program a test will signal: SIGINT and SIGTERM at their defaults, as a shell gives them,
    whatever this process inherited. A suite started in the background from a shell (`nohup python -m pytest &`)
    has SIGINT ignored, and a child inherits an ignored signal; Python then installs no handler of its own for it.
    A small Python resets them and execs `argv` in its place: the same process, so `.pid` and signals reach the
    program (no preexec_fn, which is not safe in a process with threads)."""
    return subprocess.Popen([sys.executable, "-S", "-c", DEFAULT_SIGNALS, *argv], **popen)


def count_by_cpsat(grid: Grid, model: str = "integer") -> int:
    """0, 1 or 2 (two or more) solutions, by CP-SAT (Killer cages and constraints included: the method reads them):
    not the SAT certifier that made the puzzle. `model`: CP-SAT's integer or boolean model."""
    outcome = FORMULATIONS["cpsat"](grid, Budget(seconds=60), solutions=2, model=model)
    if outcome.status is Status.UNSATISFIABLE:
        return 0
    assert outcome.status is Status.SOLVED and outcome.solution is not None
    assert grid.solution_problems(outcome.solution) == []
    return 1 if outcome.unique else 2


def engine_result(puzzle: Grid, rung: str) -> list[int] | None:
    """What a rung deduces on the engine: per empty cell its candidates (the bit of its value once placed), 0 for
    a given; None for a contradiction."""
    make = MAKE_RUNG[rung]
    assert make is not None
    engine = CellMasks(puzzle)
    if make()(engine) < 0:
        return None
    state, masks = engine.state(), engine.masks()
    return [0 if puzzle.values[c] else (1 << (state[c] - 1) if state[c] else masks[c]) for c in range(len(state))]


class RefusingWrites:
    """A text file whose writes fail with ENOSPC once `room` characters have gone through: a record refused
    whole, after the records of its puzzle written before it (buffered: closing the file writes them)."""

    def __init__(self, handle: io.TextIOWrapper, room: int) -> None:
        self.handle, self.room = handle, room

    def write(self, text: str) -> int:
        if len(text) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(text)
        return self.handle.write(text)

    def tell(self) -> int:
        return self.handle.tell()

    def flush(self) -> None:
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()
