"""The plot: a cactus plot and effort against a reference method's time, in one PNG or SVG (needs matplotlib)."""
from __future__ import annotations

import io
import math
import re
from typing import Any

from ..judging.stats import Summary

PLOT_COUNTERS = ("nodes", "guesses", "decisions", "branches", "conflicts")  # y axis of the effort plot, first found


RASTER_ABOVE = 3000  # scatter points in a panel beyond which an SVG holds them as one image, not a shape each


def plot(summary: Summary, reference: int | None, path: str) -> None:
    """Cactus plot (puzzles solved against time) and effort against the reference's time, in one PNG."""
    fig = figure(summary, reference)
    fig.savefig(path, dpi=110)
    close(fig)


def svg(summary: Summary, reference: int | None) -> str:
    """The same plot as inline SVG for a web page: text kept as text, no XML prologue, no metadata."""
    import matplotlib.pyplot as plt

    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "sudoku-search"}):
        fig = figure(summary, reference)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", dpi=80, metadata={"Date": None})
        close(fig)
    text = buffer.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.DOTALL)
    return text


def default_reference(summary: Summary) -> int:
    """The method that solved most puzzles (the first of those): its time per puzzle is the closest
    thing to each puzzle's difficulty that the run measured."""
    return max(range(len(summary.stats)), key=lambda i: (sum(summary.stats[i].solved), -i))


def close(fig: Any) -> None:
    import matplotlib.pyplot as plt

    plt.close(fig)


def figure(summary: Summary, reference: int | None) -> Any:
    """The two panels as a matplotlib Figure; the reference is `default_reference` unless chosen."""
    if reference is None:
        reference = default_reference(summary)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (cactus, effort) = plt.subplots(1, 2, figsize=(14, 6))
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = [cycle[i % len(cycle)] for i in range(len(summary.stats))]  # one colour a method, both panels
    for s, colour in zip(summary.stats, colours, strict=True):
        times = sorted(t for t, ok in zip(s.seconds, s.solved, strict=True) if ok)
        if times:
            cactus.step(times, range(1, len(times) + 1), where="post", label=s.label, color=colour)
    cactus.set(xscale="log", xlabel="time per puzzle (s, log)", ylabel="puzzles solved within that time",
               title="Cactus plot: further up and left is better")
    ref = summary.stats[reference]
    for s, colour in zip(summary.stats, colours, strict=True):
        counter = next((c for c in PLOT_COUNTERS if c in s.effort), next(iter(s.effort), None))
        if counter is None:
            continue
        points = [(x, y + 1, ok) for x, y, ok in zip(ref.seconds, s.effort[counter], s.solved, strict=True)
                  if x > 0 and not math.isnan(y)]
        solved = [(x, y) for x, y, ok in points if ok]
        unsolved = [(x, y) for x, y, ok in points if not ok]
        many = len(points) > RASTER_ABOVE
        if solved:
            effort.scatter(*zip(*solved, strict=True), s=8, alpha=0.5, color=colour, label=f"{s.label}: {counter}",
                           rasterized=many)
        if unsolved:  # gave up, unsatisfiable or failed: its effort is what it spent
            effort.scatter(*zip(*unsolved, strict=True), s=14, alpha=0.7, color=colour, marker="x", rasterized=many)
    effort.set(xscale="log", yscale="log", xlabel=f"{ref.label}: time per puzzle (s, log)",
               ylabel="effort per puzzle + 1 (log; x = not solved)",
               title=f"Effort against the difficulty for {ref.label}")
    for ax in (cactus, effort):
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    # margins fixed for the labels above (tight_layout measured them by drawing the figure once more: half its time)
    fig.subplots_adjust(left=0.055, right=0.99, bottom=0.1, top=0.94, wspace=0.14)
    return fig
