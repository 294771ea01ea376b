"""How sudoku-trace (commands/trace.py) shows a search: step by step, as JSON lines, or two compared.

    sudoku-trace PUZZLE_OR_FILE[:LINE] --solver SPEC [--solver SPEC2 [--diff]]
        [--max-steps N] [--compact] [--jsonl FILE|-]

PUZZLE_OR_FILE is a puzzle (81 symbols, or any size the project reads) or a
puzzle file, read as compare.py reads it; FILE:LINE takes the puzzle on that
line (1-based, as compare.py names puzzles), FILE alone its first puzzle.

The full view gives each step a line: its number, the depth, the step (the
cell chosen and why, the value tried, what inference placed or removed and by
which rule, a dead end, a step back), and the counters whenever they change.
--compact gives a search step one short line: the choice and the value tried
on one line, with what inference did after it summed up by rule. --jsonl
writes a `start` line (the puzzle and its start candidates), the events, and
an `end` line (status, counters), one JSON object a line; `-` is standard
output (the view is then left out). With two --solver and --diff, it prints
where the two searches part ways.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from puzzles.constraints import HOUSED, Constraint, Shape, names
from puzzles.constraints.killer import LETTERS
from puzzles.grid import SYMBOLS, Grid
from puzzles.layouts import Layout

from .record import Event, Trace

COUNTER_NAMES = {"nodes": "n", "guesses": "g", "backtracks": "b", "restarts": "r", "forced": "f",
                 "eliminated": "e", "expanded": "x", "generated": "gen", "frontier_peak": "peak"}


def where(event: Event) -> str:
    """A cell as people name it: r1c1 is the top left."""
    assert event.cell is not None
    return f"r{event.cell[0] + 1}c{event.cell[1] + 1}"


def shown(value: int | None) -> str:
    """A value as the grids print it: 1-9, then A, B, ... on 16x16 and 25x25."""
    return "?" if value is None else SYMBOLS[value - 1]


def said(event: Event) -> str:
    """What the step did, in words (the full view)."""
    detail, kind = event.detail, event.kind
    if kind == "choose":
        values = " ".join(map(shown, detail["values"]))
        why = f"the fewest, {detail['tied']} cells have {detail['candidates']}, ties: {detail['tie']}" \
            if "tied" in detail else detail.get("by", "")
        count = detail["candidates"]
        return f"choose {where(event)}: {count} candidate{'' if count == 1 else 's'} {{{values}}} ({why})"
    if kind == "try":
        if detail.get("path"):
            return f"[dim]try {where(event)} = {shown(event.value)} (on the path to this state)[/dim]"
        return f"[bold]try {where(event)} = {shown(event.value)}[/bold]" + (" (a guess)" if detail.get("guess") else "")
    if kind == "place":
        house = f" in {detail['house']}" if "house" in detail else ""
        return f"  place {where(event)} = {shown(event.value)} by {event.rule}{house}"
    if kind == "remove":
        return f"  remove {shown(event.value)} from {where(event)} by {event.rule}"
    if kind == "dead_end":
        at = f" at {where(event)}" if event.cell is not None else ""
        by = f" ({event.rule})" if event.rule else ""
        return f"[red]dead end{at}: {detail.get('reason', '')}{by}[/red]"
    if kind == "backtrack":
        return f"[yellow]back to depth {event.depth}[/yellow]" + ("" if detail.get("counted") else " (not a backtrack)")
    if kind == "solution":
        return "[green bold]solution: the grid is full[/green bold]"
    if kind == "restart":
        state = f" (state {detail['state']} off the frontier, g = {detail['g']})" if "state" in detail else ""
        return f"[magenta]restart from the original puzzle{state}[/magenta]"
    return kind


def drawn(grid: Grid) -> str:
    """A grid as the trace shows it, with its houses: its regions' borders (`Grid.pretty` for boxes; for other
    regions, Jigsaw's, a border wherever two neighbours lie in different regions), then, for a variant, its
    houses beyond rows, columns and regions."""
    lay = grid.layout

    def picture(of: Grid) -> str:
        return of.pretty() if lay.box_height else regions_drawn(of)

    lines = [picture(grid)]
    housed = [(rule, rule.drawing(grid.side)) for rule in lay.rules if rule.KIND in HOUSED]  # as the page draws them
    diagonals = [f"{shape.caption} {shape.label}" for _, shapes in housed for shape in shapes
                 if shape.kind == "diagonal"]
    if diagonals:
        lines.append(f"and {' and '.join(diagonals)} (diagonal +: bottom left to top right)")
    extra = [shape for _, shapes in housed if len(shapes) == 1 for shape in shapes if shape.kind == "shade"]
    if extra:  # a map: each cell by the number of its house (the first, where two overlap)
        marks = [0] * (grid.side ** 2)
        for k, shape in reversed(list(enumerate(extra, 1))):
            for cell in shape.cells:
                marks[cell] = k
        count = f"{extra[0].caption}s 1-{len(extra)}" if len(extra) > 1 else f"{extra[0].caption} 1"
        lines += [f"and {count}, each cell by its number:", picture(grid.with_values(marks))]
    # a rule of several shaded houses (the disjoint groups) by its name
    lines += [f"and {rule.name(0, grid.side)}" for rule, shapes in housed if len(shapes) > 1]
    named = names(lay.constraints, grid.side)
    lines += outlines_drawn(lay, named)
    # the others by the names their removals carry (`thermometer 2 (R4C1)`), each of some cells with its word
    lines += [f"and {name}" if rule.GLOBAL else f"and {name}: {rule.word(grid.side)}"
              for rule, name in zip(lay.constraints, named, strict=True) if outline(rule, grid.side) is None]
    return "\n".join(lines)


def outline(rule: Constraint, side: int) -> Shape | None:
    """The outline the page draws for a constraint (a Killer cage's), None for one drawn otherwise."""
    return next((shape for shape in rule.drawing(side) if shape.kind == "outline"), None)


def outlines_drawn(lay: Layout, named: Sequence[str]) -> list[str]:
    """The constraints drawn as outlines (a Killer's cages) as the trace draws them: a map of each cell's
    constraint by its letter (a is the first, as in the line form's `k=` word), a border between neighbours of
    different ones, `.` outside any, and the letters' constraints by name (`named`: each constraint's); overlapping
    ones take a map each (one for every `k=` word: in order, each map the next that overlap none it holds)."""
    n, lines = lay.side, list[str]()
    counts: dict[str, int] = {}
    drawn = [(shape, name) for rule, name in zip(lay.constraints, named, strict=True)
             if (shape := outline(rule, n)) is not None]
    for group in outline_groups(drawn):
        symbols, owner = ["."] * (n * n), [-1] * (n * n)
        for k, (shape, _) in enumerate(group):
            for cell in shape.cells:
                symbols[cell], owner[cell] = LETTERS[k], k
        caption = group[0][0].caption
        first = counts.get(caption, 0)
        last = counts[caption] = first + len(group)
        count = f"{caption}s {first + 1}-{last}" if len(group) > 1 else f"{caption} {first + 1}"
        lines.append(f"and {count}{' (over those above)' if first else ''}, each cell by its {caption}'s letter:")
        lines.append(borders_drawn("".join(symbols), owner, n))
        letters = [f"{LETTERS[k]} = {name}" for k, (_, name) in enumerate(group)]
        lines += [", ".join(letters[i:i + 6]) for i in range(0, len(letters), 6)]
    return lines


def outline_groups(drawn: Sequence[tuple[Shape, str]]) -> list[list[tuple[Shape, str]]]:
    """The outlines (with their constraints' names) in order, cut into runs of one caption that overlap nowhere (52
    at most a run, a letter each): the maps the trace draws; for cages, one a `k=` word of the line form."""
    groups: list[list[tuple[Shape, str]]] = []
    held: set[int] = set()
    for item in drawn:
        cells = set(item[0].cells)
        if not groups or held & cells or len(groups[-1]) == len(LETTERS) or groups[-1][0][0].caption != item[0].caption:
            groups.append([])
            held = set()
        groups[-1].append(item)
        held |= cells
    return groups


def regions_drawn(grid: Grid) -> str:
    """The grid with a border between neighbours of different regions: `|` between two cells of a row, `-`
    between two of a column, `+` where borders meet."""
    return borders_drawn(grid.line(), grid.layout.regions, grid.side)


def borders_drawn(symbols: str, group: Sequence[int], n: int) -> str:
    """Each cell's symbol, row by row, with a border between neighbours of different groups (`group`: each
    cell's, row-major): `|` between two cells of a row, `-` between two of a column, `+` where borders meet."""
    region, line = group, symbols

    def differ(a: tuple[int, int], b: tuple[int, int]) -> bool:
        inside = all(0 <= x < n for x in (*a, *b))
        return inside and region[a[0] * n + a[1]] != region[b[0] * n + b[1]]

    out = []
    for r in range(n):
        if r:
            border = []
            for c in range(n):
                if c:
                    across = differ((r - 1, c - 1), (r, c - 1)) or differ((r - 1, c), (r, c))
                    down = differ((r - 1, c - 1), (r - 1, c)) or differ((r, c - 1), (r, c))
                    border.append("+" if across and down else "-" if across else "|" if down else " ")
                border.append("-" if differ((r - 1, c), (r, c)) else " ")
            out.append(" " + "".join(border))
        cells = [("|" if c and differ((r, c - 1), (r, c)) else " ") + line[r * n + c] for c in range(n)]
        out.append("".join(cells))
    return "\n".join(row.rstrip() for row in out)


def counted(counters: dict[str, int]) -> str:
    return " ".join(f"{COUNTER_NAMES.get(name, name)}={value}" for name, value in counters.items())


class FullView:
    """Each event on its line, indented by depth, with the counters when they change."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.shown: dict[str, int] | None = None

    def __call__(self, event: Event) -> None:
        counters = "" if event.counters == self.shown else counted(event.counters)
        self.shown = event.counters
        indent = "│ " * min(event.depth, 30)
        line = f"{event.step:>6} {event.depth:>3} {indent}{said(event)}"
        self.console.print(line + (f"  [dim]{counters}[/dim]" if counters else ""), highlight=False)

    def close(self) -> None:
        pass


class CompactView:
    """One short line a search step: a choice and its try together, inference summed by rule."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.line: str | None = None
        self.rules: Counter[str] = Counter()
        self.counters: dict[str, int] = {}
        self.path = 0  # the steps shown again after a restart, to the state it starts over from

    def __call__(self, event: Event) -> None:
        kind = event.kind
        if event.detail.get("path"):  # the way back to a state after a restart: one line, its length
            self.path += 1
            return
        if kind in ("place", "remove"):
            if self.line is None:  # the inference at the root, before the first choice
                self.line = f"{event.step:>5} d{event.depth:<3} start"
            self.rules[f"{'+' if kind == 'place' else '-'}{event.rule}"] += 1
            self.counters = event.counters
            return
        if kind == "try" and self.line is not None and self.line.endswith("?"):
            self.line = self.line[:-1] + f"{shown(event.value)}" + (" guess" if event.detail.get("guess") else "")
            self.counters = event.counters
            return
        self.flush()
        self.counters = event.counters
        if kind == "choose":
            values = "".join(map(shown, event.detail["values"]))
            self.line = f"{event.step:>5} d{event.depth:<3} {where(event)} {{{values}}} =?"
        elif kind == "try":
            self.line = f"{event.step:>5} d{event.depth:<3} {where(event)} ={shown(event.value)}"
        elif kind == "dead_end":
            at = f" {where(event)}" if event.cell is not None else ""
            self.line = f"{event.step:>5} d{event.depth:<3} dead end{at}" + (f" ({event.rule})" if event.rule else "")
        elif kind == "backtrack":
            self.line = f"{event.step:>5} d{event.depth:<3} back"
        elif kind == "restart" and "state" in event.detail:
            state, g = event.detail["state"], event.detail["g"]
            self.line = f"{event.step:>5} d{event.depth:<3} restart: state {state}, g={g}"
        else:
            self.line = f"{event.step:>5} d{event.depth:<3} {kind}"

    def flush(self) -> None:
        if self.line is None:
            return
        inferred = " ".join(f"{rule}:{n}" for rule, n in self.rules.items())
        path = f", {self.path} steps back to it" if self.path else ""
        text = self.line + path + (f"  {inferred}" if inferred else "")
        self.path = 0
        self.console.print(f"{escape(text):<44} [dim]{counted(self.counters)}[/dim]", highlight=False)
        self.line, self.rules = None, Counter()

    def close(self) -> None:
        self.flush()


# -- two searches side by side --------------------------------------------------------------------

def decision(event: Event) -> tuple[Any, ...]:
    """What a step did, without its number and counters: two searches agree while these agree."""
    rule = None if event.kind == "dead_end" else event.rule  # a dead end's is the rung's name: not a step
    return event.kind, event.depth, tuple(event.cell or ()), event.value, rule


def parting(a: Trace, b: Trace) -> int:
    """The first step at which the two traces differ (the shorter's length if one is a prefix)."""
    for i, (x, y) in enumerate(zip(a.events, b.events, strict=False)):
        if decision(x) != decision(y):
            return i
    return min(len(a.events), len(b.events))


def print_diff(console: Console, a: Trace, b: Trace, context: int = 3, after: int = 6) -> None:
    i = parting(a, b)
    if i == len(a.events) == len(b.events):
        console.print(f"{a.method} and {b.method} take the same {i} steps")
        return
    console.print(f"{escape(a.method)} and {escape(b.method)} take the same {i} steps, then part ways:")
    view: Callable[[Event], None]
    for traced in (a, b):
        console.print(f"[bold]{escape(traced.method)}[/bold] ({len(traced.events)} steps, {counted(traced.counters)})")
        view = FullView(console)
        for event in traced.events[max(0, i - context): i + after]:
            view(event)
