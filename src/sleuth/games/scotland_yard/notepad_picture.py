"""Scotland Yard's picture in the web app's assistant: the map
(:mod:`sleuth.games.scotland_yard.picture` from the detectives' view) with a ring around each of
Mr. X's possible stations, stronger for likelier ones, and the likeliest labelled with their
probability.

Invariant: :func:`notepad` never raises for a session in any state.
"""

from __future__ import annotations

from typing import Any

from sleuth.core.events import View, freeze
from sleuth.games.scotland_yard import picture as board
from sleuth.render.svg import HEAT, tag, text, title

LABELLED = 8
"""How many of Mr. X's likeliest stations get their probability written beside them."""


def notepad(session: Any) -> str:
    """The map, Mr. X's possible stations shaded by probability, the likeliest labelled."""
    table = session.table
    game = session.game
    seat = game.roles.index("detectives")
    view = View(seat, game.roles[seat], freeze(game.public_info()), list(table.events))
    picture = board.svg(game, view, [], append=True)
    if table.tracker is None or table.over == "caught":
        return picture
    probabilities = table.tracker.probabilities()
    if not probabilities:
        return picture
    points = board._points(game.board.coordinates)
    most = max(probabilities.values())
    shades = []
    ranked = sorted(probabilities.items(), key=lambda kv: (-kv[1], kv[0]))
    for rank, (station, p) in enumerate(ranked):
        if station not in points or p <= 0:
            continue
        x, y = points[station]
        shades.append(
            tag(
                "circle",
                title(f"station {station}: {p:.1%}"),
                cx=x,
                cy=y,
                r=board.RADIUS + 5,
                fill="none",
                stroke=HEAT,
                stroke_width=9,
                stroke_opacity=round(0.2 + 0.8 * p / most, 3),
                class_="chance",
                data_station=station,
                data_p=f"{p:.4f}",
                pointer_events="none",
            )
        )
        if rank < LABELLED:
            shades.append(
                text(
                    x + board.RADIUS + 4,
                    y - board.RADIUS,
                    f"{p:.0%}",
                    font_size=18,
                    font_weight=700,
                    fill=HEAT,
                    pointer_events="none",
                )
            )
    return picture.replace("</svg>", "".join(shades) + "</svg>")
