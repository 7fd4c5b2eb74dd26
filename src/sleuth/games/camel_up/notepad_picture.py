"""Camel Up's picture in the web app's assistant: bars of each camel's odds (leg first and
second, race winner and loser), the odds the session's text shows (computed once per state).

Invariant: :func:`notepad` never raises for a session in any state (an empty string when
there are no odds: before the start, after the end or past the turn cap).
"""

from __future__ import annotations

from typing import Any

from sleuth.render.svg import document, tag, text, title

CAMEL_COLOURS = {
    "blue": "#2f6fd0",
    "green": "#2e9c5a",
    "orange": "#e67e22",
    "yellow": "#e0b100",
    "white": "#d8d8d8",
    "red": "#c0392b",
    "purple": "#7b3fb3",
    "pink": "#e377c2",
    "black": "#1d2330",
}


ODDS_TEXT = 13
"""The odds chart's font size: its width (356) is about a phone's panel, so its numbers read
at about this many pixels there (at most 36rem wide on a larger screen)."""


def notepad(session: Any) -> str:
    """Each camel's odds as bars: leg first, leg second, race winner, race loser, each with its
    percentage in readable type on a phone."""
    state = session.state
    if state.order is None or state.is_terminal() or state.turns >= state.game.turn_cap:
        return ""  # no odds before the start, after the end or past the turn cap (no advice)
    odds = session.advice().odds  # computed once per state, shared with the text
    game = state.game
    columns = [
        ("leg 1st", odds.leg.first),
        ("leg 2nd", odds.leg.second),
        ("wins race", odds.win),
        ("last", odds.last),
    ]
    row, label_w, bar_w, gap = 26, 58, 66, 6
    width = label_w + len(columns) * (bar_w + gap) + 10
    height = 30 + row * 5 + 10
    body = [
        text(label_w + i * (bar_w + gap), 16, heading, font_weight=700, font_size=ODDS_TEXT)
        for i, (heading, _) in enumerate(columns)
    ]
    for camel in range(5):
        name = game.camel_name(camel)
        y = 26 + row * camel
        body.append(text(4, y + 17, name, font_size=ODDS_TEXT))
        colour = CAMEL_COLOURS.get(name.lower(), "#5b6475")
        for i, (heading, values) in enumerate(columns):
            p = float(values[camel])
            x = label_w + i * (bar_w + gap)
            body.append(
                tag("rect", x=float(x), y=float(y + 2), width=bar_w, height=row - 5, fill="#f0f2f5")
            )
            body.append(
                tag(
                    "rect",
                    title(f"{name} {heading}: {p:.1%}"),
                    x=float(x),
                    y=float(y + 2),
                    width=round(bar_w * p, 2),
                    height=row - 5,
                    fill=colour,
                    stroke="#1d2330",
                    stroke_width=0.5,
                    class_="odds",
                    data_camel=name,
                    data_p=f"{p:.4f}",
                )
            )
            body.append(text(x + 3, y + 17, f"{p:.0%}", font_size=ODDS_TEXT))
    chart = document(width, height, "".join(body), "Camel Up odds")
    return chart.replace("<svg ", '<svg class="chart" ', 1)
