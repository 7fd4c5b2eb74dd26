"""The Fox in a Hole board as one seat sees it: holes and tunnels, the day's inspections,
and, for the hunter, the holes the fox may be in (from the hunter's own deduction); for the
fox, its own hole.  Holes a legal action names alone are clickable (``data-action``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.plugins import named
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.layout import positions
from sleuth.games.fox.rules import FOX, HUNTER, FoxGame
from sleuth.render.svg import document, tag, text

SIZE = 400


def svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The board from ``view`` alone."""
    assert isinstance(game, FoxGame)
    graph = game.graph
    points = positions(graph)
    rows = max(1, len({round(y, 6) for _, y in points}))
    height = SIZE if rows > 1 else 120
    radius = max(6.0, min(22.0, 0.35 * SIZE / max(2, _span(points))))

    def at(hole: int) -> tuple[float, float]:
        x, y = points[hole]
        return 20 + x * (SIZE - 40), 20 + y * (height - 40)

    inspected = [e for e in view.events if e.kind == "inspected"]
    last = set(inspected[-1].public["holes"]) if inspected else set()
    mine = _own_holes(view)
    possible: set[int] = set()
    caught = _caught_in(view)
    if caught is not None:
        mine = {caught}  # the fox's path, public once it is caught
    elif view.role == "hunter":
        possible = set(FoxBelief.from_view(game, view).possible_holes())
    clickable = {_single(a): a for a in legal if _single(a) is not None}
    body = [
        tag("line", x1=at(u)[0], y1=at(u)[1], x2=at(v)[0], y2=at(v)[1], stroke="#8a94a6")
        for u, v in graph.edges
    ]
    for hole in range(graph.n):
        x, y = at(hole)
        classes = ["hole"]
        fill = "#ffffff"
        if hole in possible:
            classes.append("possible")
            fill = "#ffe3a3"
        if hole in mine:
            classes.append("fox")
            fill = "#e07b39"
        if hole in last:
            classes.append("inspected")
        action = clickable.get(hole)
        body.append(
            tag(
                "g",
                tag(
                    "circle",
                    cx=x,
                    cy=y,
                    r=radius,
                    fill=fill,
                    stroke="#2f5fb3" if hole in last else "#1d2330",
                    stroke_width=4 if hole in last else 1.5,
                )
                + text(x, y + 4, hole, text_anchor="middle"),
                class_=" ".join(classes),
                data_action=action,
                data_hole=hole,
            )
        )
    day = len(inspected) + 1
    caption = f"day {day}" + (
        f": the fox may be in {len(possible)} of {graph.n} holes" if view.role == "hunter" else ""
    )
    if caught is not None:
        caption = f"day {day - 1}: the fox was caught in hole {caught}"
    body.append(text(8, height - 6, caption, fill="#5b6475"))
    return document(SIZE, height, "".join(body), f"Fox in a Hole on {graph.spec}")


def describe(
    game: Game[Any], event: Event, viewer: int | None, names: Sequence[str | None]
) -> str | None:
    """The fox's events in words (the hunter and the fox after their people's ``names``)."""
    if event.kind == "inspected":
        holes = ", ".join(map(str, event.public["holes"]))
        caught = "caught the fox" if event.public["caught"] else "no fox"
        hunter = named("the hunter", HUNTER, names)
        return f"day {event.public['day']}: {hunter} inspected {holes}: {caught}"
    if event.kind == "fox_moved":
        fox = named("the fox", FOX, names)
        if event.private is None:
            return f"night {event.public['night']}: {fox} moved (unseen)"
        holes = ", ".join(map(str, event.private["holes"]))
        return f"night {event.public['night']}: {fox} is in {holes}"
    if event.kind == "fox_path":
        path = " → ".join(map(str, event.public["path"]))
        return f"the fox's path: {path}"
    return None


def _own_holes(view: View) -> set[int]:
    """The fox's holes after its last night, as the seat sees them (only the fox does)."""
    for event in reversed(view.events):
        if event.kind == "fox_moved" and event.private is not None:
            return set(event.private["holes"])
    return set()


def _caught_in(view: View) -> int | None:
    """The hole where the fox was caught (the end of its public path), if it was."""
    for event in view.events:
        if event.kind == "fox_path" and event.public["caught"]:
            return int(event.public["path"][-1])
    return None


def _single(action: str) -> int | None:
    """The one hole an action names (``inspect 3``, ``hole 3``), else None."""
    word, _, rest = action.partition(" ")
    if word in ("inspect", "hole") and rest.isdigit():
        return int(rest)
    return None


def _span(points: list[tuple[float, float]]) -> int:
    """About how many holes side by side the picture holds."""
    xs = {round(x, 6) for x, _ in points}
    return len(xs)
