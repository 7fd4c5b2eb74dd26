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
        move_token(game, positions, event)
    return positions


def move_token(game: CluedoGame, positions: list[Position], event: Event) -> int | None:
    """Move the token ``event`` moves in ``positions`` (by suspect); return that suspect, or
    None for an event that moves no token."""
    if event.kind == "moved":
        suspect = game.suspects[int(event.public["seat"])]
        positions[suspect] = parse_position(str(event.public["position"]))
        return suspect
    if event.kind == "suggested":
        suspect = int(event.public["suspect"])
        positions[suspect] = InRoom(int(event.public["room"]))
        return suspect
    return None


def last_roll(view: View) -> int:
    """The latest ``rolled`` event's roll in ``view`` (a bot reads it to choose where to go)."""
    for event in reversed(view.events):
        if event.kind == "rolled":
            return int(event.public["roll"])
    raise ValueError("no roll in the view")
