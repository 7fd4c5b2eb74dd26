"""The Scotland Yard map as one seat sees it: stations at their coordinates, edges coloured by
transport, the detectives, Mr. X's possible stations shaded (the detectives' exact tracker,
from public events), Mr. X's last revealed station, and Mr. X himself only in his own view.
A station that exactly one legal action reaches is clickable (``data-action``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.plugins import named
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.board import Board
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.render.svg import document, tag, text

COLOURS = {"taxi": "#e0b100", "bus": "#2e9c5a", "underground": "#d2363c", "ferry": "#3565c9"}
DETECTIVE_COLOURS = ("#2f5fb3", "#7b3fb3", "#1f8a8a", "#b35a1f", "#5b6475")
MARGIN = 40
RADIUS = 20


def svg(game: Game[Any], view: View, legal: Sequence[str], append: bool = False) -> str:
    """The map from ``view`` alone, each station a part the page finds by its number
    (``data-find``); with ``append`` (the notepad's map), a click on a station that no action
    reaches adds its number to the entry being typed (``data-append``)."""
    assert isinstance(game, ScotlandYardGame)
    board = game.board
    points = _points(board.coordinates)
    width = max(x for x, _ in points.values()) + MARGIN
    height = max(y for _, y in points.values()) + MARGIN
    detectives = _detectives(view.events)
    belief = MrXBelief.from_view(game, view)
    possible = set(belief.possible()) if belief.tracker is not None else set()
    seen = _last_reveal(view.events)
    mrx = _own_station(view.events)
    targets: dict[int, list[str]] = {}
    for action in legal:
        words = action.split()
        if len(words) == 2 and words[1].isdigit():
            targets.setdefault(int(words[1]), []).append(action)
    body = [_edges(board)]
    for station, (x, y) in sorted(points.items()):
        classes = ["station"]
        fill = "#ffffff"
        if station in possible:
            classes.append("possible")
            fill = "#ffd27a"
        if station == seen:
            classes.append("last-seen")
        if station == mrx:
            classes.append("mrx")
            fill = "#1d2330"
        reaching = targets.get(station, [])
        clicked = reaching[0] if len(reaching) == 1 else None
        if station in targets:
            classes.append("target")
        body.append(
            tag(
                "g",
                tag(
                    "circle",
                    cx=x,
                    cy=y,
                    r=RADIUS,
                    fill=fill,
                    stroke="#d2363c" if station == seen else "#1d2330",
                    stroke_width=5 if station in targets or station == seen else 1.5,
                )
                + text(
                    x,
                    y + 7,
                    station,
                    text_anchor="middle",
                    font_size=20,
                    fill="white" if station == mrx else "#1d2330",
                ),
                class_=" ".join(classes),
                data_station=station,
                data_find=station,
                data_action=clicked,
                data_append=station if append and clicked is None else None,
            )
        )
    for index, station in enumerate(detectives):
        if station in points:
            x, y = points[station]
            colour = DETECTIVE_COLOURS[index % len(DETECTIVE_COLOURS)]
            body.append(
                tag(
                    "g",
                    tag("rect", x=x - 22, y=y - 56, width=44, height=32, rx=6, fill=colour)
                    + text(
                        x, y - 33, f"D{index + 1}", text_anchor="middle", fill="white", font_size=20
                    ),
                    class_="detective",
                    data_detective=index,
                )
            )
    caption = "before the start"
    if possible:
        caption = f"Mr. X may be at {len(possible)} station{'s' if len(possible) > 1 else ''}"
    if seen is not None:
        caption += f"; last seen at {seen}"
    body.append(text(MARGIN, height - 12, caption, font_size=28, fill="#1d2330"))
    return document(
        width, height, "".join(body), "Scotland Yard map", min_width=1100, find="station"
    )


@lru_cache(maxsize=4)
def _edges(board: Board) -> str:
    """The board's edges, coloured by transport: the same in every picture of the board, so
    drawn once per board (a process loads each board once)."""
    points = _points(board.coordinates)
    lines = []
    for u, v, transport in board.edges:
        (x1, y1), (x2, y2) = points[u], points[v]
        lines.append(
            tag(
                "line",
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                stroke=COLOURS.get(str(transport), "#888"),
                stroke_width=6 if str(transport) == "underground" else 3,
                stroke_dasharray="10 6" if str(transport) == "ferry" else None,
                opacity=0.7,
            )
        )
    return "".join(lines)


def describe(
    game: Game[Any], event: Event, viewer: int | None, names: Sequence[str | None]
) -> str | None:
    """Scotland Yard's events in words (Mr. X and each detective after the ``names`` of the
    people who play their seats)."""
    assert isinstance(game, ScotlandYardGame)
    public = event.public

    def detective(number: int) -> str:
        return named(f"detective {number + 1}", game.seat_of(number), names)

    if event.kind == "start":
        where = ", ".join(map(str, public["detectives"]))
        own = f"; Mr. X starts at {event.private['mrx']}" if event.private else ""
        return f"the detectives start at {where}{own}"
    if event.kind == "mrx_moved":
        where = f" to {event.private['station']}" if event.private else ""
        shown = f", seen at {public['reveal']}" if public["reveal"] is not None else ""
        return (
            f"{named('Mr. X', 0, names)}, entry {public['entry']}: {public['ticket']}{where}{shown}"
        )
    if event.kind == "detective_moved":
        caught = ": Mr. X is caught" if public["captured"] else ""
        who = detective(int(public["detective"]))
        return f"{who}: {public['ticket']} to {public['station']}{caught}"
    if event.kind == "detective_passed":
        return f"{detective(int(public['detective']))} cannot move"
    if event.kind == "game_over":
        return (
            f"game over: {public['winner']} win ({public['termination']}); Mr. X at {public['mrx']}"
        )
    return None


def _points(coordinates: Sequence[tuple[int, int] | None]) -> dict[int, tuple[float, float]]:
    """Station -> position, margins added; stations without coordinates go on a ring."""
    known = [c for c in coordinates if c is not None]
    left = min((x for x, _ in known), default=0)
    top = min((y for _, y in known), default=0)
    out = {}
    n = len(coordinates)
    for index, found in enumerate(coordinates):
        if found is None:
            angle = 2 * math.pi * index / max(1, n)
            found_x, found_y = 500 + 450 * math.sin(angle), 500 - 450 * math.cos(angle)
        else:
            found_x, found_y = found[0] - left, found[1] - top
        out[index + 1] = (found_x + MARGIN, found_y + MARGIN)
    return out


def _detectives(events: Sequence[Event]) -> list[int]:
    """The detectives' stations now (public)."""
    stations: list[int] = []
    for event in events:
        if event.kind == "start":
            stations = list(event.public["detectives"])
        elif event.kind == "detective_moved":
            stations[int(event.public["detective"])] = int(event.public["station"])
    return stations


def _last_reveal(events: Sequence[Event]) -> int | None:
    seen = None
    for event in events:
        if event.kind == "mrx_moved" and event.public["reveal"] is not None:
            seen = int(event.public["reveal"])
    return seen


def _own_station(events: Sequence[Event]) -> int | None:
    """Mr. X's station, only from the private fields of his own view."""
    station = None
    for event in events:
        if event.private is not None and event.kind == "start":
            station = int(event.private["mrx"])
        elif event.private is not None and event.kind == "mrx_moved":
            station = int(event.private["station"])
    return station
