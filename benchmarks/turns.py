"""The order the benchmarks' sides meet a puzzle: each puzzle (or repetition) starts one side further along, so that
the machine's load falls on all of them alike."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def in_turn(sides: Sequence[T], index: int) -> list[T]:
    """The sides as the index-th puzzle meets them."""
    turn = index % len(sides)
    return [*sides[turn:], *sides[:turn]]
