"""The puzzle stream: good entries of every file in order, bad ones aside, --limit, --sample and --isomorphs."""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from puzzles import BadEntry, Entry, Grid, Isomorph, read_puzzles
from puzzles.formats import ACCEPTED_KEY, DECORATIONS_KEY


@dataclass(slots=True)
class Puzzle:
    """One puzzle to run: where it came from, which isomorph it is, its line form."""

    id: int
    file: str
    line: int
    name: str
    isomorph: int  # 0 = the file's own puzzle; 1..K = random isomorphs
    grid: Grid
    solution: str | None  # the file's solution, when it gives one
    rating: float | None = None  # a CSV's `rating` column (a human-technique rating), when it has one
    decorations: str = ""  # the decorations not read as rules (`2 lines, 1 circle`), when read ignoring them
    accepted: str = ""  # the unknown fields read and ignored (`source, version`), when read accepting them


def open_inputs(paths: Sequence[str], fmt: str | None = None,
                on_note: Callable[[str], None] | None = None,
                decorations: str = "refuse", accepted: Sequence[str] = ()) -> list[Iterator[Entry | BadEntry]]:
    """Open every file first, so that an unreadable one stops the run before any work.

    `fmt` forces a format (else each file's is detected); `on_note` hears which was chosen where it was a choice;
    `decorations`: refuse or ignore a puzzle's cosmetic elements; `accepted`: the unknown fields read and ignored
    (puzzles.read_puzzles).
    """
    return [read_puzzles(path, fmt, on_note, decorations=decorations, accepted=accepted) for path in paths]


def good_entries(inputs: Iterable[Iterator[Entry | BadEntry]],
                 on_bad: Callable[[BadEntry], None]) -> Iterator[tuple[int, Entry]]:
    """The good entries of every input with their position in the whole stream; bad ones go to on_bad."""
    position = 0
    for record in itertools.chain.from_iterable(inputs):
        if isinstance(record, BadEntry):
            on_bad(record)
            continue
        yield position, record
        position += 1


def reservoir(stream: Iterable[tuple[int, Entry]], k: int, rng: random.Random) -> Iterator[tuple[int, Entry]]:
    """A uniform random sample of k entries, holding only k in memory, in file order."""
    kept: list[tuple[int, Entry]] = []
    for i, item in enumerate(stream):
        if i < k:
            kept.append(item)
        else:
            j = rng.randrange(i + 1)
            if j < k:
                kept[j] = item
    yield from sorted(kept, key=lambda item: item[0])


def puzzles_of(entries: Iterable[tuple[int, Entry]], isomorphs: int | None, seed: int) -> Iterator[Puzzle]:
    """Each entry as a Puzzle, or as `isomorphs` random isomorphs of it."""
    ids = itertools.count()
    for position, entry in entries:
        solution = entry.solution.line() if entry.solution is not None else None
        rating = rating_of(entry)
        left_out, accepted = entry.meta.get(DECORATIONS_KEY, ""), entry.meta.get(ACCEPTED_KEY, "")
        if not isomorphs:
            yield Puzzle(next(ids), entry.file, entry.line, entry.name, 0, entry.grid, solution, rating, left_out,
                         accepted)
            continue
        # Seeded by the puzzle's position: the same isomorphs whatever --jobs, --limit or --sample.
        rng = random.Random(f"{seed}:{position}")
        for k in range(1, isomorphs + 1):
            moves = Isomorph.draw(entry.grid.layout, rng)  # the same moves map the file's solution alike
            iso_solution = moves.apply(entry.solution).line() if entry.solution is not None else None
            yield Puzzle(next(ids), entry.file, entry.line, entry.name, k, moves.apply(entry.grid), iso_solution,
                         rating, left_out, accepted)


def rating_of(entry: Entry) -> float | None:
    """The entry's `rating` column as a number (an isomorph keeps its puzzle's); None if absent or not a number."""
    try:
        rating = float(entry.meta["rating"])
    except (KeyError, ValueError):
        return None
    return rating if math.isfinite(rating) else None


def where(file: str, line: int, name: str, isomorph: int) -> str:
    """A puzzle as the report names it: `file:line name (isomorph k)`."""
    text = f"{file}:{line}" + (f" {name}" if name else "")
    return text + (f" (isomorph {isomorph})" if isomorph else "")
