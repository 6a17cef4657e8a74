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
    esc = escape
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{esc(title)}">',
        f"<title>{esc(title)}</title>",
        f'<text x="{LEFT}" y="18" font-size="14" font-weight="bold" fill="#222">{esc(title)}</text>',
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
    parts.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#999"/>'
    )
    for tick in _ticks(y_low, y_high, integer_y):
        y = at_y(tick)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="#e2e2e2"/>')
        parts.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" fill="#444">'
            f"{esc(_label(tick, integer_y))}</text>"
        )
    x_ticks = _ticks(x_low, x_high, True)
    if x_ticks and x_ticks[0] - x_low > (x_high - x_low) / 12:
        x_ticks.insert(0, x_low)  # the first partido too
    for tick in x_ticks:
        x = at_x(tick)
        parts.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="#999"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" font-size="11" text-anchor="middle" fill="#444">'
            f"{esc(_label(tick, True))}</text>"
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" font-size="12" text-anchor="middle" '
        f'fill="#222">{esc(x_label)}</text>'
    )
    middle = TOP + plot_h / 2
    parts.append(
        f'<text x="14" y="{middle:.1f}" font-size="12" text-anchor="middle" fill="#222" '
        f'transform="rotate(-90 14 {middle:.1f})">{esc(y_label)}</text>'
    )
    if points:
        path = " ".join(f"{at_x(x):.1f},{at_y(y):.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
        last_x, last_y = points[-1]
        parts.append(f'<circle cx="{at_x(last_x):.1f}" cy="{at_y(last_y):.1f}" r="3.5" fill="#1f5fa8"/>')
    parts.append("</svg>")
    return "".join(parts)
