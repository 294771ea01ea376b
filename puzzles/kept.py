"""What a process keeps of the layouts it has met, and the one way to forget it.

Each method reads a layout into a model of its own (the grid's houses and their crossings, the 45 rule's sums,
cdcl's propagators, the clauses of an encoding) and keeps it, so that a file of classic puzzles builds it once.
A layout drawn for one puzzle (a Jigsaw's regions, a Killer's cages, a thermometer) is met by every method of a
comparison in turn, and the kept models are partly shared (the 45 rule's sums by cdcl, mrv's rungs and the
formulations' `redundant=45`): the method that met it first would pay for the model and the next be timed
without it. So the timing harnesses (compare.py's call of one method on one puzzle, the benchmarks that set
methods side by side) call `fresh` before each timed call: every method's time then includes its whole model of
a puzzle drawn for itself, as a peer's does. What lasts is what a size reads alone: classic Sudoku's layout of
each size and what is read of it (a Killer's houses are its size's boxes), and a kind's tables of values.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Generic, ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")


class Kept(Generic[P, R]):
    """A function of a layout (its first argument: a layout, its geometry, a size, or one of a puzzle's rules),
    its answers kept: for good when the layout is classic Sudoku's or a size (`lasting`), else at most `most` of
    them (the last used) and until `fresh`."""

    def __init__(self, read: Callable[P, R], most: int | None) -> None:
        self.lasting = functools.cache(read)
        self.drawn = functools.lru_cache(maxsize=most)(read)
        # the caches, called with the function's own arguments (functools types them as any hashables)
        self._lasting, self._drawn = cast("Callable[P, R]", self.lasting), cast("Callable[P, R]", self.drawn)
        functools.update_wrapper(self, read)
        _FORGET.append(self.drawn.cache_clear)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return (self._lasting if lasting(args[0]) else self._drawn)(*args, **kwargs)

    def count(self) -> int:
        """How many answers it keeps."""
        return self.lasting.cache_info().currsize + self.drawn.cache_info().currsize


_FORGET: list[Callable[[], None]] = []  # each kept function's forgetting of the drawn layouts


def kept(most: int | None = None) -> Callable[[Callable[P, R]], Kept[P, R]]:
    """Keep a function's answers as `Kept` does (`most`: how many of the drawn layouts'; None, every one)."""
    def keeping(read: Callable[P, R]) -> Kept[P, R]:
        return Kept(read, most)
    return keeping


def kept_drawn(most: int | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep the answers of a function of one puzzle's rule (its first argument), always drawn: at most `most` of
    them (the last used; None, every one) and until `fresh`. functools' cache itself, for a function the engines
    ask at every placement (`Kept` would first ask which kind of layout it is)."""
    def keeping(read: Callable[P, R]) -> Callable[P, R]:
        cached = functools.lru_cache(maxsize=most)(read)
        _FORGET.append(cached.cache_clear)
        return cast("Callable[P, R]", cached)
    return keeping


def lasting(first: object) -> bool:
    """Whether what is read of `first` lasts the process: a size, classic Sudoku's layout, or its geometry."""
    if isinstance(first, int):
        return True
    lay = getattr(first, "layout", first)  # a geometry's layout
    return getattr(lay, "is_classic", False) is True


def fresh() -> None:
    """Before a timed call: forget what is kept of every layout drawn for a puzzle."""
    for forget in _FORGET:
        forget()
