"""SIGINT and SIGTERM held for the length of a block, for the layers above: comparison/ writes a puzzle's records
whole under it, and formulations/pysat_solvers.py deletes a PySAT solver under it."""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done: what it writes is written whole; then the first that came
    is raised again, to the handlers the block found.

    Held by Python's handlers, not by a signal mask: a mask holds a signal for one thread, and the process has
    others (numpy's BLAS pool), any of which the kernel may hand a SIGTERM to; Python then runs its handler in
    the main thread all the same. Only the main thread runs handlers, so another thread needs no hold."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def defer(signum: int, frame: FrameType | None) -> None:
        came.append(signum)

    previous = {s: signal.getsignal(s) for s in HELD}
    swapped = [s for s, handler in previous.items() if handler is not None]  # None: a handler set outside Python
    for s in swapped:
        signal.signal(s, defer)
    try:
        yield
    finally:
        for s in swapped:
            signal.signal(s, previous[s])
        if came:
            signal.raise_signal(came[0])
