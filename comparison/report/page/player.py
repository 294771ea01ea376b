"""--watch LINE: one puzzle's search by each hand-written method of the run, as data for the report's player.

The puzzle is found before the run starts (a line that holds none is a usage error); after the run, each
hand-written method (search.SOLVERS) is traced on it (search/trace/: the same search with an observer),
at most `steps` events each, and the events are packed into short lists for the page.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzles import BadEntry, Budget, Entry, Grid, PuzzleFileError, read_puzzles
from puzzles import constraints as rules
from puzzles.candidates import Scopes
from puzzles.grid import Layout, values_of
from puzzles.options import MethodSpec
from puzzles.outcome import not_run_reason
from puzzles.words import plural
from search.trace import EVENT_KINDS, trace

from ...core.errors import UsageError
from ...core.selected import Selected
from .houses import cage_marks, cell_marks, drawn_outlined, drawn_shaped, legend, outside_marks, shape_marks

DEFAULT_STEPS = 1000  # events a method's trace embeds at most: about 60 KB of page


@dataclass(frozen=True)
class Watched:
    """The puzzle to watch: where it is, and its entry."""

    file: str
    line: int
    entry: Entry

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" + (f" {self.entry.name}" if self.entry.name else "")


def find_watched(spec: str, files: Sequence[str], input_format: str | None = None,
                 decorations: str = "refuse", accepted: Sequence[str] = ()) -> Watched:
    """`LINE` (in the first file) or `FILE:LINE` -> the puzzle there; UsageError if there is none."""
    path, _, number = spec.rpartition(":")
    path = path or files[0]
    try:
        line = int(number)
    except ValueError:
        raise UsageError(f"--watch {spec}: say LINE or FILE:LINE (a line number of a puzzle file)") from None
    if path == "-":
        raise UsageError("--watch: standard input can be read only once; save the puzzles to a file")
    try:
        for record in read_puzzles(path, input_format, decorations=decorations, accepted=accepted):
            if record.line == line:
                if isinstance(record, BadEntry):
                    raise UsageError(f"--watch {spec}: {record}")
                return Watched(path, line, record)
            if record.line > line:
                break
    except PuzzleFileError as exc:
        raise UsageError(f"--watch {spec}: {exc}") from None
    raise UsageError(f"--watch {spec}: {path} has no puzzle that starts at line {line}")


def hand_written(selected: Sequence[Selected]) -> list[Selected]:
    """The methods of the run that the tracer can follow: the hand-written searches (search.SOLVERS)."""
    import search

    return [s for s in selected if MethodSpec.name_of(s.label) in search.SOLVERS]


def traces(watched: Watched, selected: Sequence[Selected], steps: int, budget: Budget) -> dict[str, Any]:
    """The player's data: the puzzle, and each hand-written method's trace, packed (see `pack`).

    Each trace stops at `steps` events or at the run's budget, whichever comes first.
    """
    methods = hand_written(selected)
    grid = watched.entry.grid
    data: dict[str, Any] = {"where": watched.where, "puzzle": grid.line(), **houses(grid), "traces": [],
                            "notes": []}
    if not methods:
        data["notes"].append("no hand-written method (backtracking, mrv, restart, astar, cdcl) in this run: "
                             "nothing to watch")
        return data
    for method in methods:
        spec = method.label
        if method.asks_more and "solutions=" not in spec:  # the watch follows the search the run made
            spec += (":" if ":" not in spec else ",") + f"solutions={method.options['solutions']}"
        try:
            traced = trace(watched.entry.grid, spec, max_steps=steps, budget=budget).as_dict()
        except (ValueError, NotImplementedError) as exc:  # a method or option the tracer does not follow
            data["notes"].append(f"{method.label}: not traced ({exc})")
            continue
        if not_run_reason(traced.get("status", ""), traced.get("detail")) is not None:  # say why (its board stays)
            data["notes"].append(f"{method.label}: {traced['detail']}")
        packed = pack(method.label, traced)
        narrowed = scope_narrowings(grid, traced["events"])
        if narrowed:
            packed["narrowed"] = narrowed
        data["traces"].append(packed)
    return data


def scope_narrowings(grid: Grid, events: Sequence[dict[str, Any]]) -> dict[str, list[list[int]]]:
    """What the rules kept by their filter (`Constraint.SCOPED`: an arrow, a quadruple) leave the other empty cells
    of their scopes after each placement, as the engines narrow them (puzzles/candidates.py's `Scopes`): by event
    index, [cell, mask of the values it may still hold] pairs. The player replays links and rooms from the puzzle's
    own tables; a scoped rule's filter is the kind's, so its effect on the way is given here, along the trace's own
    placements, backtracks and restarts (the values alone: what the filter reads)."""
    scopes = Scopes(grid.layout)
    if not scopes.rules:
        return {}
    side = grid.side
    values = list(grid.values)
    saved: dict[int, list[int]] = {}  # per depth, the values before its try: what a backtrack to it restores
    root: list[int] | None = None  # the values when the search first chose a cell: where a restart goes
    found: dict[str, list[list[int]]] = {}
    for index, event in enumerate(events):
        kind, depth, cell = event["kind"], event.get("depth") or 0, event.get("cell")
        if kind == "choose" and root is None:
            root = values[:]
        if kind == "backtrack":
            values = saved.get(depth, values)[:]
            saved = {d: kept for d, kept in saved.items() if d <= depth}
        elif kind == "restart":
            values, saved = (root or list(grid.values))[:], {}
        elif kind in ("try", "place") and cell is not None:
            at = int(cell[0]) * side + int(cell[1])
            if kind == "try":
                saved[depth] = values[:]
            values[at] = int(event["value"])
            narrowed = [[mate, allowed] for k, _ in scopes.of_cell[at]
                        for mate, allowed in zip(scopes.cells[k], scopes.allowed(k, values), strict=True)
                        if not values[mate]]
            if narrowed:
                found[str(index)] = narrowed
    return found


def houses(grid: Grid) -> dict[str, Any]:
    """The puzzle's houses as the player draws them and replays candidates in them: its side, each cell's
    region, the cells of its other houses (diagonals, extra regions, disjoint groups), and, for a variant, each
    cell's marks (houses.py: [classes, style]) and the words that say what they stand for; for a Killer, each
    cell's share of the cages' drawing ([outline path, total, cage names]) and, for each rule with a room
    (`Constraint.ROOMS`: a cage), its cells and its fillings (the value sets it may hold, masks; null: any set of
    different values), from which the replay narrows its empty cells to its room (search/trace/record.py); for
    constraints, each cell's share of their drawing ([lines path, discs path, names, marks], houses.py) and the
    links a placement follows (puzzles/constraints/: per cell, [another cell, a table's index], a table the values
    each value forbids there as masks), and the clues written outside the grid (houses.py's outside marks)."""
    lay = grid.layout
    found: dict[str, Any] = {"side": grid.side, "regions": list(lay.regions),
                             "extras": [list(house.cells) for house in lay.extras]}
    if grid.text() != grid.line():  # not the side's boxes alone
        found["marks"] = [[mark.classes, mark.style] for mark in cell_marks(lay)]
        found["legend"] = legend(lay)
    if drawn_outlined(lay):  # each cell's share of the outlines (cages'), the total it holds, their names (houses.py)
        found["cages"] = [[cage.path, cage.total, cage.names] for cage in cage_marks(lay)]
    roomed = [rule for rule in lay.constraints if rule.ROOMS]
    if roomed:  # the player's replay narrows a cage's empty cells to its room, from the cage's fillings
        found["rooms"] = [[list(rule.scope()), _listed(rule.fillings(lay.side))] for rule in roomed]
    if drawn_shaped(lay):
        found["shapes"] = [[m.lines, m.discs, m.names, m.marks] for m in shape_marks(lay)]
        found["links"], found["tables"] = links_of(lay)
        outside = outside_marks(lay)
        if outside:  # the clues written outside the grid: [row, column, text, names], a row or column -1 or n
            found["outside"] = [[m.row, m.column, m.text, m.names] for m in outside]
    return found


def _listed(fillings: tuple[int, ...] | None) -> list[int] | None:
    return None if fillings is None else list(fillings)


def links_of(lay: Layout) -> tuple[list[list[list[int]]], list[list[int]]]:
    """The constraints' links as the player replays a placement: per cell, [another cell, a table's index] for each
    cell its value forbids values at; a table the masks each value forbids (index: the value), each table once."""
    tables: dict[tuple[int, ...], int] = {}
    out, _ = rules.links_by_cell(lay.constraints, lay.side)
    links = [[[other, tables.setdefault(masks, len(tables))] for other, masks in cell] for cell in out]
    return links, [list(masks) for masks in tables]


def pack(label: str, traced: dict[str, Any]) -> dict[str, Any]:
    """A trace as the player reads it: candidates as lists of values, an event as one short list
    [kind index, depth, cell index or -1, value or 0, rule, detail, counter values...]."""
    side = int(traced["size"])
    counter_names = list(dict.fromkeys(name for e in traced["events"] for name in (e.get("counters") or {})))
    events = []
    for e in traced["events"]:
        cell = e.get("cell")
        index = -1 if cell is None else int(cell[0]) * side + int(cell[1])
        counters = e.get("counters") or {}
        events.append([EVENT_KINDS.index(e["kind"]), e.get("depth") or 0, index, e.get("value") or 0,
                       e.get("rule") or "", explain(e["kind"], e.get("detail") or {}),
                       *(counters.get(n, 0) for n in counter_names)])
    return {"method": label, "size": side, "candidates": [candidate_list(c) for c in traced["candidates"]],
            "kinds": EVENT_KINDS, "counter_names": counter_names, "events": events, "status": traced.get("status"),
            "truncated": bool(traced.get("truncated")), "counters": traced.get("counters") or {}}


def explain(kind: str, detail: dict[str, Any]) -> str:
    """An event's detail in words: why this cell, whether a try was a guess, why a dead end."""
    if kind == "choose" and "candidates" in detail:
        values = ",".join(str(v) for v in detail.get("values", []))
        words = f"{plural(detail['candidates'], 'candidate')} {{{values}}}, {detail.get('by', '')}"
        tied = detail.get("tied", 0)
        return words + (f"; {tied} cells tied, tie rule {detail.get('tie')}" if tied and tied > 1 else "")
    if kind == "try" and "guess" in detail:
        return "a guess: another value is left" if detail["guess"] else "forced: no other value left"
    if kind == "dead_end" and "reason" in detail:
        return str(detail["reason"])
    if kind == "place" and "house" in detail:  # a variant's hidden single: the house it is the only place in
        return f"in {detail['house']}"
    if kind == "backtrack" and "counted" in detail:
        return "" if detail["counted"] else "not a backtrack in the counters"
    return ", ".join(f"{k} {v}" for k, v in detail.items())


def candidate_list(candidates: Any) -> list[int]:
    """A cell's candidates as ascending values, whether the trace gives a bit mask or a list."""
    if isinstance(candidates, int):
        return values_of(candidates)
    return sorted(int(v) for v in candidates)
