"""Words for messages and reports: a count with its noun, as every report of the project writes it."""
from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 puzzle`, `1,465 puzzles`; `many` when the plural is not `one` + s (`bad entries`)."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"
