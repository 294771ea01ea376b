"""The plot: a cactus plot and effort against a reference method's time, in one PNG (needs matplotlib)."""
from __future__ import annotations

import math

from .stats import Summary

PLOT_COUNTERS = ("nodes", "guesses", "decisions", "branches", "conflicts")  # y axis of the effort plot, first found


def plot(summary: Summary, reference: int | None, path: str) -> None:
    """Cactus plot (puzzles solved against time) and effort against the reference's time, in one PNG.

    The reference, unless chosen, is the method that solved most puzzles (the first of those): its
    time per puzzle is the closest thing to each puzzle's difficulty that the run measured.
    """
    if reference is None:
        reference = max(range(len(summary.stats)), key=lambda i: (sum(summary.stats[i].solved), -i))
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
        if solved:
            effort.scatter(*zip(*solved, strict=True), s=8, alpha=0.5, color=colour, label=f"{s.label}: {counter}")
        if unsolved:  # gave up, unsatisfiable or failed: its effort is what it spent
            effort.scatter(*zip(*unsolved, strict=True), s=14, alpha=0.7, color=colour, marker="x")
    effort.set(xscale="log", yscale="log", xlabel=f"{ref.label}: time per puzzle (s, log)",
               ylabel="effort per puzzle + 1 (log; x = not solved)",
               title=f"Effort against the difficulty for {ref.label}")
    for ax in (cactus, effort):
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
