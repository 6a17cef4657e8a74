"""A line chart as server-side SVG: no script, no library, nothing loaded from anywhere.

The student's version page draws its strength and its place over its partidos with it. Every text
(title, axes' labels) comes in already translated; numbers are escaped as any text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 30, 44
MAX_POINTS = 200
"""At most this many points are drawn (see :func:`sample`)."""


def sample(count: int, most: int = MAX_POINTS) -> list[int]:
    """At most ``most`` indices of ``range(count)`` spread evenly, the first and the last among them."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(k * step) for k in range(most)})


def _ticks(low: float, high: float, integer: bool, most: int = 6) -> list[float]:
    """Round values for an axis from ``low`` to ``high``."""
    if high <= low:
        return [low]
    raw = (high - low) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    if integer:
        step = max(1.0, math.ceil(step))
    first = math.ceil(low / step - 1e-9) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(round(value, 10))
        value += step
    return out


def _label(value: float, integer: bool) -> str:
    if integer:
        return str(round(value))
    return f"{value:.2f}".rstrip("0").rstrip(".") if abs(value) < 100 else f"{value:.0f}"


def _el(tag: str, text: str | None = None, **attrs: object) -> str:
    """One SVG element: its attributes (``font_size`` written ``font-size``) and its text, escaped."""
    shown = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
    return f"<{tag}{shown}/>" if text is None else f"<{tag}{shown}>{escape(text)}</{tag}>"


def _n(value: float) -> str:
    return f"{value:.1f}"


def line_chart(
    points: Sequence[tuple[float, float]],
    title: str,
    x_label: str,
    y_label: str,
    *,
    inverted: bool = False,
    integer_y: bool = False,
    y_range: tuple[float, float] | None = None,
) -> str:
    """An ``<svg>`` element of ``points`` (x, y) joined by a line, with both axes, their ticks and
    labels and the ``title`` (also the element's accessible name). ``inverted``: the smallest y at
    the top (a place: 1 is best); ``integer_y``: whole ticks; ``y_range``: the y axis's extent
    (else the points')."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    svg = {"xmlns": "http://www.w3.org/2000/svg", "class": "chart", "viewBox": f"0 0 {WIDTH} {HEIGHT}"}
    opening = "".join(f' {k}="{escape(v)}"' for k, v in {**svg, "role": "img", "aria-label": title}.items())
    parts = [
        f"<svg{opening}>",
        _el("title", title),
        _el("text", title, x=LEFT, y=18, font_size=14, font_weight="bold", fill="#222"),
    ]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x_low, x_high = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if x_high == x_low:
        x_low, x_high = x_low - 1, x_high + 1
    y_low, y_high = y_range if y_range else ((min(ys), max(ys)) if ys else (0.0, 1.0))
    if y_high == y_low:
        y_low, y_high = y_low - 1, y_high + 1

    def at_x(x: float) -> float:
        return LEFT + (x - x_low) / (x_high - x_low) * plot_w

    def at_y(y: float) -> float:
        share = (y - y_low) / (y_high - y_low)
        return TOP + (share if inverted else 1 - share) * plot_h

    bottom, right = TOP + plot_h, LEFT + plot_w
    parts.append(_el("rect", x=LEFT, y=TOP, width=plot_w, height=plot_h, fill="#fafafa", stroke="#999"))
    for tick in _ticks(y_low, y_high, integer_y):
        y = at_y(tick)
        parts.append(_el("line", x1=LEFT, y1=_n(y), x2=right, y2=_n(y), stroke="#e2e2e2"))
        label = _label(tick, integer_y)
        parts.append(
            _el("text", label, x=LEFT - 6, y=_n(y + 4), font_size=11, text_anchor="end", fill="#444")
        )
    x_ticks = _ticks(x_low, x_high, True)
    if x_ticks and x_ticks[0] - x_low > (x_high - x_low) / 12:
        x_ticks.insert(0, x_low)  # the first partido too
    for tick in x_ticks:
        x = at_x(tick)
        parts.append(_el("line", x1=_n(x), y1=bottom, x2=_n(x), y2=bottom + 4, stroke="#999"))
        label = _label(tick, True)
        parts.append(
            _el("text", label, x=_n(x), y=bottom + 16, font_size=11, text_anchor="middle", fill="#444")
        )
    middle = _n(TOP + plot_h / 2)
    parts.append(
        _el(
            "text",
            x_label,
            x=_n(LEFT + plot_w / 2),
            y=HEIGHT - 8,
            font_size=12,
            text_anchor="middle",
            fill="#222",
        )
    )
    turned = f"rotate(-90 14 {middle})"
    parts.append(
        _el(
            "text", y_label, x=14, y=middle, font_size=12, text_anchor="middle", fill="#222", transform=turned
        )
    )
    if points:
        path = " ".join(f"{_n(at_x(x))},{_n(at_y(y))}" for x, y in points)
        parts.append(_el("polyline", points=path, fill="none", stroke="#1f5fa8", stroke_width=2))
        last_x, last_y = points[-1]
        parts.append(_el("circle", cx=_n(at_x(last_x)), cy=_n(at_y(last_y)), r=3.5, fill="#1f5fa8"))
    parts.append("</svg>")
    return "".join(parts)
