"""What a seat can read off the public events: where the tokens are, and the last roll.

Tokens start on their start squares (C6), move by ``moved`` events (the position's text form)
and are summoned by ``suggested`` events (C18), all public.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.core.events import Event, View
from sleuth.games.cluedo.cards import SUSPECTS
from sleuth.games.cluedo.movement import AtStart, InRoom, Position, parse_position
from sleuth.games.cluedo.rules import CluedoGame


def token_positions(game: CluedoGame, events: Iterable[Event]) -> list[Position]:
    """Each suspect's token position after ``events`` (any seat's view of a game)."""
    positions: list[Position] = [AtStart(s) for s in SUSPECTS]
    for event in events:
        if event.kind == "moved":
            seat = int(event.public["seat"])
            positions[game.suspects[seat]] = parse_position(str(event.public["position"]))
        elif event.kind == "suggested":
            positions[int(event.public["suspect"])] = InRoom(int(event.public["room"]))
    return positions


def last_roll(view: View) -> int:
    """The latest ``rolled`` event's roll in ``view`` (a bot reads it to choose where to go)."""
    for event in reversed(view.events):
        if event.kind == "rolled":
            return int(event.public["roll"])
    raise ValueError("no roll in the view")
