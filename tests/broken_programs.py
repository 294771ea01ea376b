"""Programs that break the solver protocol, one way each, for the fault tests of `compare.py --command`.

    python broken_programs.py MODE        (streaming: reads puzzles one a line on standard input)
    python broken_programs.py once FILE   (once mode: one puzzle in matrix form, in FILE or '-' for stdin)

`good` answers correctly (MRV with singles), with counters; every other mode answers its first puzzle
correctly too when its name ends in `_later`, so that the fault comes mid-stream. $MISBEHAVING_PIDS,
when set, receives the pid of every child a program starts, so that a test can look for it; $MISBEHAVING_TAG,
when set, ends each child's argv.
"""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from puzzles import Grid
from search import SOLVERS

SLEEP = 600


def solve(line: str) -> str:
    outcome = SOLVERS["mrv"](Grid.parse(line), propagate="singles")
    if outcome.solution is None:
        return "unsat nodes=0"
    return f"{outcome.solution.line()} nodes={outcome.effort['nodes']} guesses={outcome.effort['guesses']}"


def start_child(new_session: bool = False) -> None:
    """A child that sleeps, its argv ending with $MISBEHAVING_TAG when set (so that a test finds it by /proc)."""
    tag = [os.environ["MISBEHAVING_TAG"]] if "MISBEHAVING_TAG" in os.environ else []
    child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({SLEEP})", *tag],
                             start_new_session=new_session)
    record = os.environ.get("MISBEHAVING_PIDS")
    if record:
        with open(record, "a") as handle:
            handle.write(f"{child.pid}\n")


def answer(mode: str, line: str) -> None:
    out = sys.stdout
    if mode == "good":
        out.write(solve(line) + "\n")
    elif mode == "wrong":  # every blank a 1: a full grid that breaks the rules
        out.write(line.replace(".", "1").replace("0", "1") + "\n")
    elif mode == "crash":
        sys.stderr.write("about to fail\nSegmentation fault (pretend)\n")
        sys.stderr.flush()
        os._exit(3)
    elif mode == "chatty_crash":  # Octave's way: the cause first, a call stack, then a line that hides it
        sys.stderr.write("error: max_recursion_depth exceeded\nerror: called from\n" +
                         "".join(f"    search at line 41 column {k}\n" for k in range(40)) +
                         "error: ignoring const execution_exception& while preparing to exit\n")
        sys.stderr.flush()
        os._exit(1)
    elif mode == "hang":
        time.sleep(SLEEP)
    elif mode == "garbage":
        out.write("hello world\n")
    elif mode == "partial":  # half an answer, then the end
        out.write(solve(line)[:40])
        out.flush()
        os._exit(0)
    elif mode == "forker":  # a child of its own, then it hangs
        start_child()
        time.sleep(SLEEP)
    elif mode in ("sessioner", "sessioner_hang"):  # a child in a session of its own (setsid), then an answer or not
        start_child(new_session=True)
        if mode == "sessioner_hang":
            time.sleep(SLEEP)
        out.write(solve(line) + "\n")
    elif mode == "wrong_size":  # a 4x4 solution, whatever the puzzle
        out.write("1234341221434321\n")
    elif mode == "bad_counter":
        out.write(solve(line).split()[0] + " nodes=lots\n")
    elif mode == "two_answers":
        out.write(solve(line) + "\n" + solve(line) + "\n")
    elif mode == "late_repeat":  # its answer, then the same again once the next puzzle (or the end) is there
        text = solve(line)
        out.write(text + "\n")
        out.flush()
        select.select([sys.stdin], [], [])
        out.write(text + "\n")
    elif mode == "matrix":  # the answer as a matrix, counters on its last row
        rows = solve(line).split()[0]
        side = int(len(rows) ** 0.5)
        out.write("\n".join(" ".join(rows[r * side:(r + 1) * side]) for r in range(side)) + " nodes=7\n")
    out.flush()


def main(mode: str) -> None:
    if mode == "once":
        text = sys.stdin.read() if sys.argv[2] == "-" else Path(sys.argv[2]).read_text()
        print(solve(Grid.from_values([int(word) for word in text.split()]).line()))
        return
    first = True
    for line in sys.stdin:
        answer("good" if first and mode.endswith("_later") else mode.removesuffix("_later"), line.strip())
        first = False


if __name__ == "__main__":
    main(sys.argv[1])
