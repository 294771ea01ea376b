"""Small inline SVG charts for the HTML report: scatter, steps and ranges on linear or log axes, and bars.

They need nothing installed: the report draws with them what matplotlib does not (or when the plot extra is
absent), and each is a few kilobytes of text inside the page.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

# matplotlib's default colour cycle (tab10): a method keeps one colour in every chart of the page
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
Place = Callable[[float], "float | None"]  # a value to a pixel, or None where the axis cannot show it
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 62, 12, 26, 40


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@dataclass
class Axis:
    """One axis: its label, whether it is logarithmic, and the values it must show."""

    label: str
    log: bool = False
    lo: float = math.inf
    hi: float = -math.inf

    def include(self, values: Iterable[float]) -> None:
        for v in values:
            if math.isfinite(v) and (v > 0 or not self.log):
                self.lo, self.hi = min(self.lo, v), max(self.hi, v)

    def bounds(self) -> tuple[float, float]:
        lo, hi = (self.lo, self.hi) if self.lo <= self.hi else (1.0, 10.0) if self.log else (0.0, 1.0)
        if self.log:
            return math.floor(math.log10(lo)), max(math.ceil(math.log10(hi)), math.floor(math.log10(lo)) + 1)
        if lo == hi:
            lo, hi = lo - 1, hi + 1
        pad = (hi - lo) * 0.04
        return lo - pad, hi + pad

    def ticks(self) -> list[tuple[float, str]]:
        """(position in bounds' units, label)."""
        lo, hi = self.bounds()
        if self.log:
            step = max(1, math.ceil((hi - lo) / 8))
            return [(float(e), tick_label(10.0 ** e)) for e in range(int(lo), int(hi) + 1, step)]
        raw = (hi - lo) / 6
        magnitude = 10 ** math.floor(math.log10(raw))
        step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
        first = math.ceil(lo / step) * step
        return [(first + i * step, tick_label(first + i * step)) for i in range(int((hi - first) / step) + 1)]

    def position(self, value: float) -> float | None:
        """The value in bounds' units (log10 on a log axis); None when a log axis cannot show it."""
        if self.log:
            return math.log10(value) if value > 0 else None
        return value


def tick_label(value: float) -> str:
    if value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.0e}".replace("e+0", "e").replace("e-0", "e-")
    return f"{value:,.10g}" if value == int(value) else f"{value:.3g}"


@dataclass
class Chart:
    """A chart on two axes; add series, then `svg()`."""

    title: str
    x: Axis
    y: Axis
    width: int = 460
    height: int = 300
    parts: list[tuple[str, Sequence[Sequence[float]], dict[str, str]]] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)  # (label, colour)
    notes: list[str] = field(default_factory=list)  # lines under the title

    def add(self, kind: str, points: Sequence[Sequence[float]], **style: str) -> None:
        self.x.include(p[0] for p in points)
        self.y.include(v for p in points for v in p[1:])
        self.parts.append((kind, points, style))

    def steps(self, points: Sequence[tuple[float, float]], stroke: str) -> None:
        self.add("steps", points, stroke=stroke)

    def dots(self, points: Sequence[tuple[float, float]], fill: str, marker: str = "o") -> None:
        self.add("dots", points, fill=fill, marker=marker)

    def line(self, points: Sequence[tuple[float, float]], stroke: str) -> None:
        self.add("line", points, stroke=stroke)

    def ranges(self, points: Sequence[tuple[float, float, float, float]], stroke: str) -> None:
        """(x, low, middle, high): a vertical bar from low to high, a dot at the middle."""
        self.add("ranges", points, stroke=stroke)

    def svg(self) -> str:
        (x0, x1), (y0, y1) = self.x.bounds(), self.y.bounds()
        plot_w = self.width - MARGIN_LEFT - MARGIN_RIGHT
        plot_h = self.height - MARGIN_TOP - MARGIN_BOTTOM

        def px(v: float) -> float | None:
            p = self.x.position(v)
            return None if p is None else MARGIN_LEFT + (p - x0) / (x1 - x0) * plot_w

        def py(v: float) -> float | None:
            p = self.y.position(v)
            return None if p is None else MARGIN_TOP + plot_h - (p - y0) / (y1 - y0) * plot_h

        out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {self.width} {self.height}" '
               f'width="{self.width}" height="{self.height}" role="img" aria-label="{escape(self.title)}">',
               f'<text x="{self.width / 2:.0f}" y="15" class="title">{escape(self.title)}</text>']
        for pos, label in self.x.ticks():
            x = MARGIN_LEFT + (pos - x0) / (x1 - x0) * plot_w
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{MARGIN_TOP}" y2="{MARGIN_TOP + plot_h}" class="grid"/>'
                       f'<text x="{x:.1f}" y="{MARGIN_TOP + plot_h + 14}" class="tick">{escape(label)}</text>')
        for pos, label in self.y.ticks():
            y = MARGIN_TOP + plot_h - (pos - y0) / (y1 - y0) * plot_h
            out.append(f'<line x1="{MARGIN_LEFT}" x2="{MARGIN_LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                       f'<text x="{MARGIN_LEFT - 4}" y="{y + 4:.1f}" class="tick end">'
                       f'{escape(label)}</text>')
        out.append(f'<rect x="{MARGIN_LEFT}" y="{MARGIN_TOP}" width="{plot_w}" height="{plot_h}" class="frame"/>')
        out.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.0f}" y="{self.height - 6}" class="label">'
                   f'{escape(self.x.label)}</text>')
        out.append(f'<text transform="translate(12 {MARGIN_TOP + plot_h / 2:.0f}) rotate(-90)" class="label">'
                   f'{escape(self.y.label)}</text>')
        for kind, points, style in self.parts:
            out.append(self.series(kind, points, style, px, py))
        for i, text in enumerate(self.notes):
            out.append(f'<text x="{MARGIN_LEFT + 6}" y="{MARGIN_TOP + 14 + 13 * i}" class="note">{escape(text)}</text>')
        for i, (label, paint) in enumerate(self.legend):
            y = MARGIN_TOP + 8 + 14 * (i + len(self.notes))
            out.append(f'<rect x="{MARGIN_LEFT + 8}" y="{y - 7}" width="9" height="9" fill="{paint}"/>'
                       f'<text x="{MARGIN_LEFT + 21}" y="{y + 1}" class="legend">{escape(label)}</text>')
        out.append("</svg>")
        return "".join(out)

    @staticmethod
    def series(kind: str, points: Sequence[Sequence[float]], style: dict[str, str], px: Place, py: Place) -> str:
        if kind in ("steps", "line"):
            coords: list[str] = []
            last_y: float | None = None
            for x, y in ((px(p[0]), py(p[1])) for p in points):
                if x is None or y is None:
                    continue
                if kind == "steps" and last_y is not None:
                    coords.append(f"{x:.1f},{last_y:.1f}")
                coords.append(f"{x:.1f},{y:.1f}")
                last_y = y
            return f'<polyline points="{" ".join(coords)}" fill="none" stroke="{style["stroke"]}" stroke-width="1.6"/>'
        if kind == "dots":
            crosses = style.get("marker") == "x"
            shapes = []
            for p in points:
                x, y = px(p[0]), py(p[1])
                if x is None or y is None:
                    continue
                if crosses:
                    shapes.append(f"M{x - 3:.1f},{y - 3:.1f}l6,6m0,-6l-6,6")
                else:
                    shapes.append(f"M{x - 2:.1f},{y:.1f}a2,2 0 1,0 4,0a2,2 0 1,0 -4,0")
            paint = (f'fill="none" stroke="{style["fill"]}" stroke-width="1.2"' if crosses
                     else f'fill="{style["fill"]}" fill-opacity="0.55"')
            return f'<path d="{"".join(shapes)}" {paint}/>'
        bars = []
        for x_value, low, middle, high in points:
            x, y_low, y_mid, y_high = px(x_value), py(low), py(middle), py(high)
            if x is None or y_low is None or y_mid is None or y_high is None:
                continue
            bars.append(f"M{x:.1f},{y_low:.1f}V{y_high:.1f}M{x - 2.5:.1f},{y_mid:.1f}h5")
        return f'<path d="{"".join(bars)}" stroke="{style["stroke"]}" stroke-width="1.4" fill="none"/>'


def bars(title: str, rows: Sequence[tuple[str, float | None, str]], text: Sequence[str], width: int = 460) -> str:
    """A horizontal bar chart: (label, value or None, colour) a row, `text` written beside each bar."""
    label_w, row_h = 170, 20
    height = MARGIN_TOP + row_h * len(rows) + 8
    top = max((v for _, v, _ in rows if v is not None), default=0.0) or 1.0
    room = width - label_w - 90
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="{escape(title)}">',
           f'<text x="{width / 2:.0f}" y="15" class="title">{escape(title)}</text>']
    for i, ((label, value, paint), words) in enumerate(zip(rows, text, strict=True)):
        y = MARGIN_TOP + i * row_h
        out.append(f'<text x="{label_w - 6}" y="{y + 13}" class="tick end">{escape(label)}</text>')
        length = 0.0 if value is None else max(value / top * room, 0.0)
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{length:.1f}" height="{row_h - 6}" fill="{paint}"/>'
                   f'<text x="{label_w + length + 5:.1f}" y="{y + 13}" class="tick start">'
                   f'{escape(words)}</text>')
    out.append("</svg>")
    return "".join(out)
