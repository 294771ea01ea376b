"""XV (f-puzzles' `xv`): an X between two orthogonal neighbours, their values sum to 10; a V, to 5 (dots.py).
With f-puzzles' `negative` holding "xv" (negative.py), the pairs without an X or a V sum to neither."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..words import quoted
from .dots import Dot

LETTERS = {"X": 10, "V": 5}


@dataclass(frozen=True)
class XV(Dot):
    """`value`: the sum, 10 (an X) or 5 (a V)."""

    KIND = FIELD = "xv"
    WORD = "xv="
    DEFAULT = 0  # none: an entry names its letter
    NEGATED = (10, 5)
    FAMILY = "xv"
    TITLE = "XV"
    SHAPE = "letter"

    @classmethod
    def related(cls, v: int, w: int, value: int) -> bool:
        return v + w == value

    @classmethod
    def value_word(cls, value: int) -> str:
        return next((letter for letter, total in LETTERS.items() if total == value), str(value))

    @classmethod
    def value_of(cls, text: Any) -> int:
        """X or V (either case), as f-puzzles writes them."""
        if isinstance(text, str) and text.strip().upper() in LETTERS:
            return LETTERS[text.strip().upper()]
        raise ValueError(f"its value {quoted(text)} is not X or V")

    def says(self) -> str:
        letter = self.value_word(self.value)
        return f"{'an' if letter == 'X' else 'a'} {letter} between them asks a sum of {self.value}"
