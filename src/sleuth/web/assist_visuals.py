"""Each assistant's picture, drawn as SVG from its session's own deduction.

An assistant shows what its user knows, so a picture may draw anything the session holds:

- fox: the board with the holes the fox may be in (the hunter's view, drawn by
  :mod:`sleuth.render.fox`); a hole alone is one click's inspection when ``k`` is 1;
  after the end, the fox's walk (caught, escaped, or given up: one that dodged every look)
  as a caption and as the days written above each hole;
- fugitive: a heat map of each position's possible values (rows: positions; columns: 1-41),
  darker for likelier, face-up hideouts solid;
- camel-up: bars of each camel's odds (leg first and second, race winner and loser), the odds
  the session's text shows (computed once per state);
- scotland-yard: the map (:mod:`sleuth.render.scotland_yard` from the detectives' view)
  with a ring around each of Mr. X's possible stations, stronger for likelier ones, and the
  likeliest labelled with their probability;
- cluedo: the notepad matrix and room map (:mod:`sleuth.render.cluedo` from the user's
  own view), the equally likely envelopes left after each entry as a line, and the best
  suggestion in each room as bars (the recommended one first, in red; the room the "This
  turn" line goes to outlined).

Invariant: :func:`visual` never raises for a session in any state (an empty string when there
is nothing to draw yet).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from sleuth.core.events import Event, View, freeze
from sleuth.core.game import Game
from sleuth.core.table import TableSession
from sleuth.render.svg import document, tag, text, title

HEAT = "#c0392b"
"""The colour of certainty in the heat maps and bars (lighter: less likely)."""
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


def visual(name: str, session: TableSession) -> str:
    """The picture of ``session`` (an assistant of game ``name``), or ``""``."""
    draw = DRAWERS.get(name)
    return "" if draw is None else draw(session)


def _view(game: Game[Any], seat: int, events: Sequence[Event]) -> View:
    return View(seat, game.roles[seat], freeze(game.public_info()), list(events))


# --- fox ---------------------------------------------------------------------------------------


def fox(session: Any) -> str:
    """The board with the possible holes; clickable holes while the hunt goes on."""
    from sleuth.games.fox.rules import HUNTER
    from sleuth.render import fox as board

    game = session.game
    legal = []
    if not session.finished and game.k == 1:
        legal = [f"inspect {hole}" for hole in range(game.graph.n)]
    picture: str = board.svg(game, _view(game, HUNTER, session.events), legal)
    if session.finished and session.entries:
        walk = session._walk()
        picture = _caption(picture, f"the fox's walk: {' → '.join(map(str, walk))}")
        picture = _days(picture, walk)
    return picture


def _caption(picture: str, words: str) -> str:
    """``picture`` with a caption line added at its top."""
    line = text(8, 14, words, fill="#b3261e", font_weight=700, class_="walk")
    return picture.replace("</svg>", line + "</svg>")


HOLE = re.compile(
    r'<g [^>]*data-hole="(\d+)"[^>]*><circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"'
)
"""A hole's group in the board picture, with its circle's centre and radius."""


def _days(picture: str, walk: Sequence[int]) -> str:
    """``picture`` with the days of ``walk`` written above each hole the fox was in then
    (``1,3`` above a hole it hid in on days 1 and 3)."""
    days: dict[int, list[int]] = {}
    for day, hole in enumerate(walk, start=1):
        days.setdefault(hole, []).append(day)
    labels = []
    for found in HOLE.finditer(picture):
        hole, x, y, r = int(found[1]), float(found[2]), float(found[3]), float(found[4])
        if hole in days:
            words = ",".join(map(str, days[hole]))
            labels.append(
                text(
                    x,
                    y - r - 4,
                    words,
                    text_anchor="middle",
                    fill="#b3261e",
                    font_weight=700,
                    class_="walk-days",
                    data_hole=hole,
                )
            )
    return picture.replace("</svg>", "".join(labels) + "</svg>")


# --- fugitive ----------------------------------------------------------------------------------


def fugitive(session: Any) -> str:
    """Each position's possible values as a heat map."""
    deduction = session.table.deduction
    slots = deduction.belief.timeline.slots
    if not slots:
        return ""
    probabilities = deduction.counts.probabilities()
    low, high = 1, 41
    cell, left, top = 14, 34, 24
    width = left + cell * (high - low + 1) + 8
    height = top + cell * len(slots) + 24
    body = []
    for value in range(low, high + 1, 5):
        x = left + cell * (value - low) + cell / 2
        body.append(text(x, top - 8, value, text_anchor="middle", font_size=10))
    for row, slot in enumerate(slots):
        y = top + cell * row
        body.append(text(left - 6, y + cell - 3, slot.position, text_anchor="end", font_size=10))
        chances = {} if slot.value is not None else probabilities.get(slot.position, {})
        top_p = max(chances.values(), default=0)
        for value in range(low, high + 1):
            x = left + cell * (value - low)
            if slot.value == value:
                shade, label = 1.0, f"position {slot.position}: {value} face up"
            elif value in chances:
                p = float(chances[value])
                shade = 0.12 + 0.88 * p / float(top_p)
                label = f"position {slot.position}: {value} ({p:.1%})"
            else:
                shade, label = 0.0, ""
            body.append(
                tag(
                    "rect",
                    title(label) if label else "",
                    x=float(x),
                    y=float(y),
                    width=cell - 1,
                    height=cell - 1,
                    fill=HEAT if shade else "#f0f2f5",
                    fill_opacity=round(shade, 3) if shade else None,
                    class_="value" if shade else None,
                    data_position=slot.position,
                    data_value=value if shade else None,
                )
            )
    body.append(
        text(
            left,
            height - 6,
            "possible hideout values by position (darker: likelier; solid: face up)",
            fill="#5b6475",
        )
    )
    return document(width, height, "".join(body), "Fugitive: possible values by position")


# --- camel up ----------------------------------------------------------------------------------


ODDS_TEXT = 13
"""The odds chart's font size: its width (356) is about a phone's panel, so its numbers read
at about this many pixels there (at most 36rem wide on a larger screen)."""


def camel_up(session: Any) -> str:
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


# --- scotland yard -----------------------------------------------------------------------------

LABELLED = 8
"""How many of Mr. X's likeliest stations get their probability written beside them."""


def scotland_yard(session: Any) -> str:
    """The map, Mr. X's possible stations shaded by probability, the likeliest labelled."""
    from sleuth.render import scotland_yard as board

    table = session.table
    game = session.game
    picture: str = board.svg(game, _view(game, game.roles.index("detectives"), table.events), [])
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


# --- cluedo ------------------------------------------------------------------------------------


def cluedo(session: Any) -> str:
    """The notepad matrix and room map from the user's own view, then the entropy line."""
    from sleuth.render import cluedo as notepad

    pad = session.pad
    if not pad.started or pad.me is None:
        return ""
    picture: str = notepad.svg(pad.game, _view(pad.game, pad.me, pad.events), [])
    return picture + _entropy(pad.entropy) + ("" if pad.over else _suggestions(pad))


def _suggestions(pad: Any) -> str:
    """The best suggestion in each room as bars of its worth (the notepad's own advice:
    gain per expected turn when the token's place is known, else gain), best first; the room
    the notepad's "This turn" line goes to (to suggest or accuse there) outlined, the line its
    tooltip, while I am in the game (the text has no such line once my accusation was
    wrong)."""
    from sleuth.games.cluedo.table import room_table, turn_line, turn_plan

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


DRAWERS: dict[str, Callable[[Any], str]] = {
    "fox": fox,
    "fugitive": fugitive,
    "camel-up": camel_up,
    "scotland-yard": scotland_yard,
    "cluedo": cluedo,
}
"""Each game's picture by game name."""
