"""Standard output and input as a command line meets them: closed, full, or a pipe whose reader has gone.

Standard output is a command's report. `Guarded` stands in for it: a write that fails (closed, `>&-`;
full, `>/dev/full`; a pipe whose reader has gone, `| head -1`) is noted, once, and every later write is
dropped, so that the command's work (compare.py's records, written to --output) goes on and ends as it
would. The command then ends with `status_of`: quietly with 141 (128 + SIGPIPE, as a shell reports a tool
that a closed pipe stopped) when the reader has gone, else with one line on standard error and status 2.
See docs/reference/exit-status.md.
"""
from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import Any

EXIT_PIPE = 141  # 128 + SIGPIPE: the reader of standard output has gone


class Guarded:
    """A text stream that never raises on write: the first failure is kept in `failed`, later writes dropped."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.failed: OSError | None = None if stream is not None else OSError(errno.EBADF, "it is closed")

    def write(self, text: str) -> int:
        if self.failed is None:
            try:
                self.stream.write(text)
            except OSError as exc:
                self._fail(exc)
        return len(text)

    def flush(self) -> None:
        if self.failed is None:
            try:
                self.stream.flush()
            except OSError as exc:
                self._fail(exc)

    def isatty(self) -> bool:
        return self.failed is None and bool(self.stream.isatty())

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, ...: the stream's
        if self.stream is None:
            raise AttributeError(name)
        return getattr(self.stream, name)

    def _fail(self, exc: OSError) -> None:
        self.failed = exc
        # What the stream still buffers would fail again when Python exits, with a traceback of its own: its
        # descriptor now writes to /dev/null.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)

    @property
    def pipe_closed(self) -> bool:
        return isinstance(self.failed, BrokenPipeError)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[Guarded]:
    """sys.stdout replaced by a Guarded one for the block (then put back)."""
    saved = sys.stdout
    guarded = Guarded(saved)
    sys.stdout = guarded  # a text stream in all a command uses
    try:
        yield guarded
    finally:
        sys.stdout = saved


def why(exc: OSError) -> str:
    return "it is closed" if exc.errno == errno.EBADF else exc.strerror or str(exc)


def status_of(guarded: Guarded, status: int, program: str, kept: str = "") -> int:
    """The exit status once standard output failed (else `status`): 141 quietly when its reader has gone, else
    2 with one line on standard error (what was kept, when `kept` says)."""
    if guarded.failed is None:
        return status
    if guarded.pipe_closed:
        return EXIT_PIPE
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(f"{program}: error: cannot write the report to standard output ({why(guarded.failed)})"
                  f"{kept}", file=sys.stderr)
    return 2


def stdin_closed(paths: list[str]) -> bool:
    """Whether one of `paths` is '-' (standard input) and standard input is closed (`<&-`)."""
    return "-" in paths and sys.stdin is None
