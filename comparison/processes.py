"""Worker processes that never outlive compare.py, nor leave processes of their own behind.

Each worker leads a process group of its own, so that one os.killpg ends it with
every process its methods started (unless one of those leaves the group itself).
The parent kills a worker's group whenever it stops or retires that worker.
When the parent dies, however it dies (SIGKILL and the out-of-memory killer too):
- the kernel kills each worker (PR_SET_PDEATHSIG, Linux only);
- each worker's group holds a watchdog, a process the worker forks at its start,
  blocked on reading the lifeline: a pipe whose write end only the parent holds,
  so that the read sees EOF when the parent is gone. The watchdog then kills its
  group, which PR_SET_PDEATHSIG does not reach: the methods' own children.
A thread of the worker could not do the watchdog's job reliably: the kernel's
SIGKILL may come first, and a method busy in C code may hold the GIL.
"""
from __future__ import annotations

import ctypes
import os
import signal
from typing import Any, NoReturn

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class Lifeline:
    """A pipe that nobody writes to: its read end sees EOF once the parent (and only it) has closed the write end."""

    def __init__(self) -> None:
        self.parent = os.getpid()
        self.read_end, self.write_end = os.pipe()

    def close(self) -> None:
        """In the parent: the watchdogs kill their groups, if anything is left in them."""
        os.close(self.write_end)
        os.close(self.read_end)


def bind_worker(lifeline: Lifeline) -> None:
    """In a worker, first thing: lead a process group, die with the parent, and start the group's watchdog."""
    os.setpgid(0, 0)
    os.close(lifeline.write_end)  # were it held here, the parent's death would bring no EOF
    die_with_parent()
    if os.getppid() != lifeline.parent:  # the parent died before prctl: no signal will come
        os._exit(1)
    if os.fork() == 0:
        watchdog(lifeline.read_end)
    os.close(lifeline.read_end)


def die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the parent dies (strictly: the parent's thread that forked this process)."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    except AttributeError:  # not Linux: the watchdog alone ends the group
        pass


def watchdog(lifeline_end: int) -> NoReturn:
    """Wait for the parent's death, then kill this process group: the worker, its methods' children, and itself."""
    try:
        # Only the lifeline is kept: held here, the worker's pipes would hide its death from the parent.
        os.closerange(0, lifeline_end)
        os.closerange(lifeline_end + 1, os.sysconf("SC_OPEN_MAX"))
        while os.read(lifeline_end, 1):
            pass
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


def lead_group(process: Any) -> None:
    """In the parent, just after the fork: so the group exists before the worker gets to make it (the shells' way)."""
    try:
        os.setpgid(process.pid, process.pid)
    except ProcessLookupError:  # it has died already
        pass


def kill_group(process: Any) -> None:
    """Kill a worker's process group (the worker, its watchdog, its methods' children) and reap the worker."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:  # nothing left in it
        pass
    process.join()
