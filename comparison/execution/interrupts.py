"""How a run stops on a signal: SIGINT and SIGTERM alike, records written whole, a second signal at once."""
from __future__ import annotations

import functools
import os
import signal
import threading
from collections.abc import Callable
from typing import ParamSpec

P = ParamSpec("P")  # the run's own parameters, kept through the wrapper


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: the run stops as Ctrl-C always stopped it, and exits with 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.status = 128 + signum


def stopped_by_signals(run: Callable[P, int]) -> Callable[P, int]:
    """The run's handling of SIGINT and SIGTERM, alike.

    The first raises Interrupted: the run stops, writes its records and prints its summary
    (coming once the records are closed, it only cuts the summary short). A second one
    ends compare.py at once, without a traceback, with the first one's status: the records
    were flushed as they were written, and the workers end with this process (comparison/execution/processes.py).
    After a first signal the handler stays when the run returns, since compare.py is then on
    its way out: a second signal that comes after the summary ends it the same way. (One that
    lands while the interpreter itself shuts down meets the default handler it puts back, and
    ends the process by the signal: a shell reports that as the same status, 128 + the signal.)
    """
    @functools.wraps(run)
    def stoppable(*args: P.args, **kwargs: P.kwargs) -> int:
        if threading.current_thread() is not threading.main_thread():  # only it may handle signals
            return run(*args, **kwargs)
        first: list[Interrupted] = []

        def handle(signum: int, frame: object) -> None:
            if first:
                os._exit(first[0].status)
            first.append(Interrupted(signum))
            raise first[0]

        previous = {s: signal.signal(s, handle) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            return run(*args, **kwargs)
        except Interrupted as exc:
            return exc.status
        finally:
            if not first:
                for s, handler in previous.items():
                    signal.signal(s, handler)
    return stoppable
