"""The Cluedo notepad and room map as one seat sees them.

The notepad is the seat's exact deduction (:class:`~sleuth.games.cluedo.deduction.belief.
CluedoBelief` over its own view): for each card, the probability that each seat, the envelope
or the face-up table holds it (✓ certain, ✗ impossible, else a percentage, shaded), then the
envelope's most likely card of each kind as bars and how many equally likely envelopes are
left (the envelope's entropy as players read it).  The room map is a
simple grid of the nine rooms with the tokens where the public ``moved`` events put them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.plugins import named
from sleuth.games.cluedo.cards import NAMES, ROOMS
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.table import envelopes_left
from sleuth.render.svg import document, tag, text

ROW, NAME_W, COL = 20, 118, 46
GRID = {
    "Kitchen": (0, 0),
    "Ballroom": (0, 1),
    "Conservatory": (0, 2),
    "Dining Room": (1, 0),
    "Billiard Room": (1, 2),
    "Library": (2, 2),
    "Lounge": (3, 0),
    "Hall": (3, 1),
    "Study": (3, 2),
}
"""Each room's cell on a 4 x 3 map, as on the classic board (the stairs in the middle)."""


def svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The notepad and the map from ``view`` alone."""
    assert isinstance(game, CluedoGame)
    names = game.edition.display
    belief = CluedoBelief.from_view(game, view)
    players = game.players
    heads = [_short(game, s, view.seat) for s in range(players)] + ["env", "table"]
    width = NAME_W + COL * len(heads) + 10
    body = [
        text(NAME_W + COL * i + COL / 2, 16, h, text_anchor="middle", font_weight=700)
        for i, h in enumerate(heads)
    ]
    try:
        posterior = belief.posterior
    except ValueError:  # before the deal
        posterior = None
    matrix = posterior.matrix() if posterior is not None else None
    for card in range(len(NAMES)):
        y = 24 + card * ROW
        body.append(text(4, y + 14, names[card], font_size=12))
        for column in range(len(heads)):
            x = NAME_W + COL * column
            p = None if matrix is None else float(matrix[card, column])
            body.append(_cell(x, y, p, card, column))
    y = 24 + len(NAMES) * ROW + 24
    if posterior is not None:
        body.append(text(4, y, "The envelope (most likely of each kind)", font_weight=700))
        for kind in posterior.category_marginals():
            y += 22
            best = sorted(kind.items(), key=lambda item: -item[1])[:3]
            x = 4
            for card, p in best:
                bar = 170 * p
                body.append(
                    tag("rect", x=x, y=y - 13, width=max(1.0, bar), height=16, fill="#9fb8e6")
                )
                body.append(text(x + 2, y, f"{names[card]} {p:.0%}", font_size=11))
                x += 180
        y += 24
        left = envelopes_left(posterior.entropy())  # the envelope's entropy as players read it
        body.append(text(4, y, left[0].upper() + left[1:], font_size=12))
    y += 16
    map_svg, map_height = _room_map(game, view, legal, y, width)
    body.append(map_svg)
    return document(width, y + map_height, "".join(body), "Cluedo: your notepad and the rooms")


def _cell(x: float, y: float, p: float | None, card: int, column: int) -> str:
    if p is None:
        label, fill = "", "#ffffff"
    elif p >= 1 - 1e-12:
        label, fill = "✓", "#8fd19e"
    elif p <= 1e-12:
        label, fill = "✗", "#f1f3f6"
    else:
        label = f"{100 * p:.0f}%"
        shade = int(255 - 120 * p)
        fill = f"rgb(255,{shade},{int(shade * 0.7)})"
    return tag(
        "g",
        tag("rect", x=x, y=y, width=COL - 2, height=ROW - 2, fill=fill, stroke="#d5dae3")
        + text(x + COL / 2 - 1, y + 14, label, text_anchor="middle", font_size=11),
        class_="cell",
        data_card=card,
        data_owner=column,
    )


def _room_map(
    game: CluedoGame, view: View, legal: Sequence[str], top: float, width: float
) -> tuple[str, float]:
    """The rooms as a grid with the tokens in them; tokens on their way are listed below."""
    where: dict[int, str] = {}
    for event in view.events:
        if event.kind == "moved":
            where[int(event.public["seat"])] = str(event.public["position"])
        elif event.kind == "suggested":  # the suspect named is brought to the room
            summoned = game.seat_of_suspect.get(int(event.public["suspect"]))
            if summoned is not None:
                where[summoned] = NAMES[int(event.public["room"])]
    cell_w, cell_h = (width - 8) / 3, 54
    parts = [text(4, top + 14, "The rooms", font_weight=700)]
    top += 22
    walking = []
    for seat in range(game.players):
        place = where.get(seat, "start")
        if place not in GRID:
            walking.append(f"{_short(game, seat, view.seat)}: {place}")
    for room in ROOMS:
        name = NAMES[room]
        row, column = GRID[name]
        x, y = 4 + column * cell_w, top + row * cell_h
        here = [_short(game, s, view.seat) for s in range(game.players) if where.get(s) == name]
        parts.append(
            tag(
                "g",
                tag(
                    "rect",
                    x=x,
                    y=y,
                    width=cell_w - 4,
                    height=cell_h - 4,
                    rx=6,
                    fill="#f6ecd0",
                    stroke="#8a7a5a",
                )
                + text(x + 6, y + 18, game.edition.display[room], font_size=12, font_weight=700)
                + text(x + 6, y + 38, " ".join(here), font_size=12, fill="#2f5fb3"),
                class_="room",
                data_room=name,
                data_action=f"go {name}" if f"go {name}" in legal else None,
            )
        )
    y = top + 4 * cell_h + 6
    for line in walking:
        parts.append(text(4, y + 12, line, font_size=11, fill="#5b6475"))
        y += 16
    return "".join(parts), y - top + 30


def _short(game: CluedoGame, seat: int, viewer: int) -> str:
    """A seat in the picture: you, else the suspect it plays, short (``Mustard``)."""
    return "you" if seat == viewer else NAMES[game.suspects[seat]]


def describe(
    game: Game[Any], event: Event, viewer: int | None, names: Sequence[str | None]
) -> str | None:
    """Cluedo's events in words: the ``viewer``'s seat as you, the others by the suspects they
    play, in this edition's names (``Colonel Mustard shows a card``), after their people's
    ``names`` (``Ann (Colonel Mustard) shows a card``); cards by their canonical names, as
    actions write them."""
    assert isinstance(game, CluedoGame)
    public = event.public

    def who(seat: int, verb: str, yours: str | None = None) -> str:
        """``seat`` doing ``verb`` (third person; ``yours``: the verb for you, if it differs)."""
        if seat == viewer:
            return f"you {yours or verb}".rstrip()
        return f"{named(game.edition.display[game.suspects[seat]], seat, names)} {verb}".rstrip()

    def cards() -> str:
        return ", ".join(NAMES[int(public[k])] for k in ("suspect", "weapon", "room"))

    if event.kind == "hand":
        if event.private is None:
            return who(public["seat"], "was dealt a hand", "were dealt a hand")
        return f"your hand: {', '.join(NAMES[c] for c in event.private['cards'])}"
    if event.kind == "suggested":
        return f"{who(public['seat'], 'suggests', 'suggest')} {cards()}"
    if event.kind == "passed":
        return who(public["seat"], "cannot answer")
    if event.kind == "refuted":
        card = f" {NAMES[event.private['card']]}" if event.private else " a card"
        return f"{who(public['seat'], 'shows', 'show')}{card}"
    if event.kind == "unrefuted":
        return "nobody could answer"
    if event.kind == "rolled":
        return f"{who(public['seat'], 'rolled')} {public['roll']}"
    if event.kind == "moved":
        return f"{who(public['seat'], '')} → {public['position']}"
    if event.kind == "ended":
        return who(public["seat"], "ends the turn", "end the turn")
    if event.kind == "accused":
        verdict = "right" if public["correct"] else "wrong"
        return f"{who(public['seat'], 'accuses', 'accuse')} {cards()}: {verdict}"
    if event.kind == "game_over":
        envelope = ", ".join(NAMES[c] for c in public["envelope"])
        if public["winner"] is None:
            return f"game over: nobody wins; the envelope held {envelope}"
        return f"game over: {who(public['winner'], 'wins', 'win')}; the envelope held {envelope}"
    return None
