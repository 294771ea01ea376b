"""Words for messages and reports: a count with its noun, as every report of the project writes it, and a value
a message quotes."""
from __future__ import annotations

from typing import Any

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # the symbol of value v is SYMBOLS[v - 1], of region k SYMBOLS[k]
QUOTED = 40  # the longest a message quotes a value it refuses


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 puzzle`, `1,465 puzzles`; `many` when the plural is not `one` + s (`bad entries`)."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def quoted(value: Any, limit: int = QUOTED) -> str:
    """A value as a message quotes it (its repr), cut to `limit` characters with its full length said: a message
    about a 5,000-digit cell name stays one short line."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"  # repr would refuse past 4,300
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 1]}… ({len(text):,} characters)"


def json_type(value: Any) -> str:
    """A JSON value's type as JSON names it, with its article: `a number`, `an array`, `null`."""
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), "null" if value is None else type(value).__name__)
