"""A search you can watch: the events of one solve (record.py) and the command line that prints them
(view.py; `sudoku-trace`). The searches tell their steps to a watch (search/watch.py); the
`Recorder` here is one."""
from __future__ import annotations

from .record import EVENT_KINDS, Enough, Event, Recorder, Trace, read_puzzle, selected, trace

__all__ = ["EVENT_KINDS", "Enough", "Event", "Recorder", "Trace", "read_puzzle", "selected", "trace"]
