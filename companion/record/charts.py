"""Charts as SVG drawn on the server: score over turns, wins per player.

They carry numbers and players' names only; every word around them (title, axis names) is
the page's, from the catalogue, so a chart reads the same in English and Hungarian. Drawn on
a white card with dark ink, they stay readable in a dark theme, and their viewBox lets a
phone scale them to its width. Names are escaped: they are user text.
"""

from __future__ import annotations

import json
import re
from xml.sax.saxutils import escape

from ..paths import static_root

# The players' colours, by seat: the pages' own list (static/js/palette.js), so a player has the
# same colour on the live chart as in the record.
PALETTE_JS = static_root() / "js" / "palette.js"
PALETTE: tuple[str, ...] = tuple(json.loads(re.search(r"PALETTE = (\[[^\]]*\])",
                                                      PALETTE_JS.read_text("utf-8"))[1]))
FONT = 'font-family="system-ui, sans-serif"'


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(label, {chr(34): "&quot;"})}">'
            f'<rect width="{width}" height="{height}" rx="12" fill="#ffffff"/>' + "".join(body) + "</svg>")


def _ticks(lo: int, hi: int, count: int = 5) -> list[int]:
    span = max(1, hi - lo)
    raw = span / count
    step = next(s * m for m in (1, 10, 100, 1000, 10000) for s in (1, 2, 5) if s * m >= raw)
    first = (lo // step) * step
    return list(range(first, hi + step, step))


def score_over_turns(series: list[tuple[str, list[int]]]) -> str:
    """One line per player: (name, scores), all of equal length; point 0 is the start and
    point i the score after turn i, as the x axis numbers them."""
    # 400 units wide: on a 390 px phone a unit is about a pixel, so the text stays legible.
    width, left, right, top = 400, 44, 14, 14
    legend_rows = (len(series) + 1) // 2
    plot_h = 210
    height = top + plot_h + 34 + legend_rows * 28 + 8
    turns = max((len(s) for _, s in series), default=0)
    values = [v for _, s in series for v in s] + [0]
    ticks = _ticks(min(values), max(values))
    lo, hi = ticks[0], ticks[-1]
    plot_w = width - left - right

    def x(i: int) -> float:
        return left + (plot_w * i / max(1, turns - 1) if turns > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h - (v - lo) * plot_h / max(1, hi - lo)

    body = []
    for t in ticks:
        body.append(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                    f'stroke="{"#888888" if t == 0 else "#dddddd"}" stroke-width="1"/>')
        body.append(f'<text x="{left - 6}" y="{y(t) + 5:.1f}" text-anchor="end" font-size="15" '
                    f'fill="#333333" {FONT}>{t}</text>')
    step = max(1, turns // 6)
    for i in range(0, turns, step):
        body.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 22}" text-anchor="middle" font-size="15" '
                    f'fill="#333333" {FONT}>{i}</text>')
    for k, (name, points) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        if points:
            path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
            body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="3.5" '
                        f'stroke-linejoin="round" stroke-linecap="round"/>')
            body.append(f'<circle cx="{x(len(points) - 1):.1f}" cy="{y(points[-1]):.1f}" r="5" '
                        f'fill="{colour}"/>')
        lx = 14 + (k % 2) * 196
        ly = top + plot_h + 48 + (k // 2) * 28
        last = points[-1] if points else 0
        body.append(f'<rect x="{lx}" y="{ly - 13}" width="18" height="18" rx="4" fill="{colour}"/>')
        body.append(f'<text x="{lx + 26}" y="{ly + 1}" font-size="17" fill="#111111" {FONT}>'
                    f'{escape(_short(name, 13))}: {last}</text>')
    return _svg(width, height, body, ", ".join(f"{n}: {s[-1] if s else 0}" for n, s in series))


def wins_per_player(rows: list[tuple[str, int, int]]) -> str:
    """Horizontal bars: (name, wins, games) for each player, most wins first."""
    width, bar_left, row_h = 400, 124, 38
    height = 16 + max(1, len(rows)) * row_h + 8
    most = max((games for _, _, games in rows), default=1) or 1
    body = []
    for i, (name, wins, games) in enumerate(rows):
        cy = 16 + i * row_h + row_h / 2
        full = (width - bar_left - 64) * games / most
        won = (width - bar_left - 64) * wins / most
        body.append(f'<text x="{bar_left - 10}" y="{cy + 6:.1f}" text-anchor="end" font-size="17" '
                    f'fill="#111111" {FONT}>{escape(_short(name, 12))}</text>')
        body.append(f'<rect x="{bar_left}" y="{cy - 12:.1f}" width="{max(full, 2):.1f}" height="24" rx="5" '
                    f'fill="#dfe7f2"/>')
        body.append(f'<rect x="{bar_left}" y="{cy - 12:.1f}" width="{won:.1f}" height="24" rx="5" '
                    f'fill="{PALETTE[i % len(PALETTE)]}"/>')
        body.append(f'<text x="{bar_left + max(full, 2) + 8:.1f}" y="{cy + 6:.1f}" font-size="17" '
                    f'fill="#111111" {FONT}>{wins}/{games}</text>')
    return _svg(width, height, body, ", ".join(f"{n}: {w}/{g}" for n, w, g in rows))


def _short(name: str, most: int = 16) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def game_chart(g: dict) -> str | None:
    """The score-over-turns chart of one game's record, or None for a game without scores."""
    if not g["scores"]:
        return None
    series = [(p["name"], [0, *(t["scores"].get(p["player_id"], 0) for t in g["turns"])])
              for p in g["players"]]
    return score_over_turns(series)
