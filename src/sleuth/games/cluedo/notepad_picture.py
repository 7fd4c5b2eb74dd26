"""The Cluedo notepad's picture in the web app's assistant: the notepad matrix and room map
(:mod:`sleuth.games.cluedo.picture` from the user's own view), the equally likely envelopes
left after each entry as a line, and the best suggestion in each room as bars (the recommended
one first, in red; the room the "This turn" line goes to outlined).

Invariant: :func:`notepad` never raises for a session in any state (an empty string before
the notepad has started).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sleuth.core.events import View, freeze
from sleuth.games.cluedo import picture as board
from sleuth.games.cluedo.table import room_table, turn_line, turn_plan
from sleuth.render.svg import HEAT, document, tag, text, title


def notepad(session: Any) -> str:
    """The notepad matrix and room map from the user's own view, then the entropy line."""
    pad = session.pad
    if not pad.started or pad.me is None:
        return ""
    game = pad.game
    view = View(pad.me, game.roles[pad.me], freeze(game.public_info()), list(pad.events))
    picture = board.svg(game, view, [])
    return picture + _entropy(pad.entropy) + ("" if pad.over else _suggestions(pad))


def _suggestions(pad: Any) -> str:
    """The best suggestion in each room as bars of its worth (the notepad's own advice:
    gain per expected turn when the token's place is known, else gain), best first; the room
    the notepad's "This turn" line goes to (to suggest or accuse there) outlined, the line its
    tooltip, while I am in the game (the text has no such line once my accusation was
    wrong)."""
    advice = room_table(pad)  # cached by the notepad's rendering
    if not advice:
        return ""
    plan = None if pad.me in pad.eliminated else turn_plan(pad)
    planned = None if plan is None or plan.action in ("roll", "end") else plan.room
    row, width, left = 22, 520, 130
    best = max(max(a.rate for a in advice), 1e-9)
    body = [text(4, 14, "best suggestion by room (bar: worth, best first)", font_weight=700)]
    for index, a in enumerate(advice):
        y = 22 + row * index
        room = pad.card_name(a.room)
        guess = f"{pad.card_name(a.suspect)}, {pad.card_name(a.weapon)}"
        worth = f"divides them by {math.exp(a.gain):.1f}" + (
            f" in {a.turns:.1f} turns" if a.turns else ""
        )
        body.append(text(4, y + 14, room, font_weight=700 if index == 0 else None))
        tip = f"{room}: suggest {guess} ({worth})"
        outline: dict[str, Any] = {}
        if a.room == planned:
            tip = f"{tip}. {turn_line(pad)}"
            outline = {"stroke": "#1d2330", "stroke_width": 2, "data_plan": "this-turn"}
        body.append(
            tag(
                "rect",
                title(tip),
                x=float(left),
                y=float(y + 2),
                width=round((width - left - 10) * a.rate / best, 2),
                height=row - 5,
                fill=HEAT if index == 0 else "#9fb3d9",
                class_="suggestion",
                data_room=room,
                **outline,
            )
        )
        body.append(text(left + 4, y + 15, f"{guess}: {worth}", font_size=11))
    height = 22 + row * len(advice) + 6
    chart = document(width, height, "".join(body), "Cluedo: the best suggestion in each room")
    return chart.replace("<svg ", '<svg class="chart" ', 1)


def _left(entropy: float) -> str:
    return f"about {max(1, round(math.exp(entropy))):,}"


def _entropy(points: Sequence[tuple[int, float]]) -> str:
    """The envelope's entropy (nats) after each entry, as a line chart labelled as players
    read it: the number of equally likely envelopes it is worth (e^H, on a log scale)."""
    if not points:
        return ""
    width, height, left, bottom = 360, 150, 36, 26
    last = max(max(n for n, _ in points), 1)
    first = min(n for n, _ in points)
    top_bits = max(max(h for _, h in points), 1.0)

    def at(n: int, h: float) -> tuple[float, float]:
        span = max(last - first, 1)
        x = left + (width - left - 10) * (n - first) / span
        y = 10 + (height - bottom - 10) * (1 - h / top_bits)
        return x, y

    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(n, h) for n, h in points))
    body = [
        tag("line", x1=left, y1=height - bottom, x2=width - 10, y2=height - bottom, stroke="#888"),
        tag("line", x1=left, y1=10, x2=left, y2=height - bottom, stroke="#888"),
        text(4, 16, f"{math.exp(top_bits):,.0f}", font_size=10),
        text(4, height - bottom, "1", font_size=10),
        tag("polyline", points=corners, fill="none", stroke=HEAT, stroke_width=2, class_="entropy"),
        text(
            left,
            height - 6,
            f"equally likely envelopes left by entry; now {_left(points[-1][1])}",
            fill="#5b6475",
        ),
    ]
    for n, h in points:
        x, y = at(n, h)
        tip = title(f"entry {n}: {_left(h)} equally likely envelopes left")
        body.append(tag("circle", tip, cx=x, cy=y, r=3, fill=HEAT))
    chart = document(width, height, "".join(body), "Cluedo: the envelopes left over time")
    return chart.replace("<svg ", '<svg class="chart" ', 1)
