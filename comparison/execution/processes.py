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

An external program (comparison/execution/external.py) leads a process group of its own,
so that the worker can kill it with its children on overrun and go on. Its
group id is kept in the worker's program slots, memory shared with the parent
and the watchdog: killing a worker, the parent kills the groups in its slots
too, and so does the watchdog when the parent dies; the program itself gets
PR_SET_PDEATHSIG, so it dies with the worker even before it is in a slot.

A process that a program started and that left the program's group (setsid) is
in none of those groups. It carries the run's mark in its environment, and the
worker (and the parent, while a pool runs) is a subreaper: when the program
dies, the process becomes the worker's child (the parent's, if the worker is
gone), which kills its marked children that are no program of its own
(kill_orphans) whenever it kills a program, and before it ends. Only the
parent's own SIGKILL leaves such a process to init.
"""
from __future__ import annotations

import ctypes
import os
import signal
from typing import Any, NoReturn

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36  # from <linux/prctl.h>
PROGRAM_MARK = "SUDOKU_SEARCH_PROGRAM"  # in a program's environment, and so in its descendants': the run's mark
_slots: Any = None  # in a worker: its program slots (a shared array of process group ids, 0 = free)
_mark: str | None = None  # the run's mark (set by the pool, inherited by its workers); None: no run marks
_watchdog = 0  # in a worker: its watchdog's pid, a child it keeps


class Lifeline:
    """A pipe that nobody writes to: its read end sees EOF once the parent (and only it) has closed the write end."""

    def __init__(self) -> None:
        self.parent = os.getpid()
        self.read_end, self.write_end = os.pipe()

    def close(self) -> None:
        """In the parent: the watchdogs kill their groups, if anything is left in them."""
        os.close(self.write_end)
        os.close(self.read_end)


def bind_worker(lifeline: Lifeline, slots: Any) -> None:
    """In a worker, first thing: lead a process group, die with the parent, and start the group's watchdog."""
    global _slots
    _slots = slots
    os.setpgid(0, 0)
    os.close(lifeline.write_end)  # were it held here, the parent's death would bring no EOF
    die_with_parent()
    if os.getppid() != lifeline.parent:  # the parent died before prctl: no signal will come
        os._exit(1)
    global _watchdog
    _watchdog = os.fork()
    if _watchdog == 0:
        watchdog(lifeline.read_end, slots)
    os.close(lifeline.read_end)
    become_subreaper()


def die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the parent dies (strictly: the parent's thread that forked this process)."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    except AttributeError:  # not Linux: the watchdog alone ends the group
        pass


def become_subreaper(on: bool = True) -> None:
    """Ask the kernel to make this process the parent of its orphaned descendants (Linux): a process that a
    program started and that left the program's group or session (setsid) comes back here when its parent
    dies, where kill_orphans finds it."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    except AttributeError:  # not Linux: such a process is not reached
        pass


def mark_run() -> None:
    """In the parent, as a pool starts: the mark its programs carry, and it takes in their orphans."""
    global _mark
    if _mark is None:
        _mark = f"{os.getpid()}.{os.urandom(6).hex()}"
    become_subreaper()


def program_environment() -> dict[str, str] | None:
    """A program's environment: this process's, with the run's mark (None: unchanged, no run marks)."""
    return None if _mark is None else {**os.environ, PROGRAM_MARK: _mark}


def children() -> list[int]:
    """This process's children (Linux; none found elsewhere): each thread's list of the children it started or
    took in (/proc/self/task/*/children), read where the kernel has it; else by every process's parent in
    /proc, a read of every process of the machine."""
    me, found = os.getpid(), []
    try:
        threads = os.listdir(f"/proc/{me}/task")
    except OSError:
        return []
    for thread in threads:
        try:
            with open(f"/proc/{me}/task/{thread}/children", "rb") as handle:
                found += [int(pid) for pid in handle.read().split()]
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{me}/task/{thread}"):  # the thread is gone: its children are its process's
                continue
            return by_parent(me)  # a kernel without the lists
    return found


def by_parent(me: int) -> list[int]:
    """The processes whose parent is `me`, by /proc/PID/stat."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):  # gone
                continue
            if int(fields[1]) == me:
                found.append(int(name))
    return found


def carries_mark(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return f"{PROGRAM_MARK}={_mark}".encode() in handle.read().split(b"\0")
    except OSError:  # gone, a zombie, or not ours
        return False


def kill_orphans() -> None:
    """Kill, with their groups, and reap the processes programs started and left behind, come back here as to
    their subreaper: this process's children that carry the run's mark, and are no program it runs."""
    if _mark is None:
        return
    for _ in range(100):  # each round's victims may leave orphans of their own
        keep = {int(group) for group in _slots or () if group}
        found = [pid for pid in children() if pid not in keep and pid != _watchdog and carries_mark(pid)]
        if not found:
            return
        for pid in found:
            for kill in (os.killpg, os.kill):  # its group, if it leads one, and itself
                try:
                    kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        for pid in found:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def watchdog(lifeline_end: int, slots: Any) -> NoReturn:
    """Wait for the parent's death, then kill this process group (the worker, its methods' children, and
    itself) and its programs' groups."""
    try:
        # Only the lifeline is kept: held here, the worker's pipes would hide its death from the parent.
        os.closerange(0, lifeline_end)
        os.closerange(lifeline_end + 1, os.sysconf("SC_OPEN_MAX"))
        while os.read(lifeline_end, 1):
            pass
        # The worker first, so that it starts no program after its slots are read. Its pid is this group's
        # id, which no other process can take while the group exists.
        os.kill(os.getpgrp(), signal.SIGKILL)
        kill_programs(slots)
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


def lead_group(process: Any) -> None:
    """In the parent, just after the fork: so the group exists before the worker gets to make it (the shells' way)."""
    try:
        os.setpgid(process.pid, process.pid)
    except ProcessLookupError:  # it has died already
        pass


def kill_group(process: Any, slots: Any) -> None:
    """Kill a worker's process group (the worker, its watchdog, its methods' children) and reap the worker;
    then its programs' groups, which the dead worker can no longer change."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:  # nothing left in it
        pass
    process.join()
    kill_programs(slots)


def kill_programs(slots: Any) -> None:
    for i, group in enumerate(slots):
        if group:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:  # the program and its children are gone already
                pass
            try:  # ours since its worker died, when this process is their subreaper: reaped, its orphans ours
                os.waitpid(group, 0)
            except ChildProcessError:
                pass
            slots[i] = 0


def program_child() -> None:
    """In a program's process, between fork and exec: lead a group of its own, and die with the worker."""
    os.setpgid(0, 0)
    die_with_parent()


def adopt_program(group: int) -> None:
    """In a worker: a program's group goes in a free slot, where the parent and the watchdog find it."""
    if _slots is None:  # not in a worker (a direct call): the caller kills its programs itself
        return
    for i, held in enumerate(_slots):
        if not held:
            _slots[i] = group
            return
    raise RuntimeError("no program slot left")  # one slot per method: a method holds one program at a time


def release_program(group: int) -> None:
    """In a worker, once the program's group is killed and the program reaped."""
    if _slots is None:
        return
    for i, held in enumerate(_slots):
        if held == group:
            _slots[i] = 0


def exit_reason(code: int | None) -> str:
    """A process's end as words: `exit status 3`, `killed by SIGSEGV`."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
