"""Cluedo's movement model without a square-level board (M1-M10 of ``docs/cluedo.md``).

A token's :data:`Position` is at its start square (:class:`AtStart`), in a room
(:class:`InRoom`) or on the way to a room (:class:`Transit`, M2).  Distances are the pips
from a room or a start square into a room (M1, M6: :data:`ROOM_DISTANCES`,
:data:`START_DISTANCES`); a roll either reaches the chosen room or leaves the token that many
squares closer (M3, M4): :func:`reachable` is the whole move generator, the interface a future
square board keeps (M5).  Secret passages (C14) are :data:`PASSAGES`.

For planning: :func:`expected_throws` (M7), :func:`prob_at_least` (M8), :func:`travel_time`
(M9) and :func:`remoteness` (M10).

Invariants: distances are symmetric between rooms and positive off the diagonal; a
:class:`Transit` always has ``left >= 1`` and ``walked >= 1``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from sleuth.core.numbers import whole_number
from sleuth.games.cluedo.cards import NAMES, ROOMS, SUSPECTS, Category, card_named

_R = ROOMS.start
"""The card index of the first room (Hall): room ``r`` is row ``r - _R`` of the tables."""

ROOM_DISTANCES: tuple[tuple[int, ...], ...] = (
    # Hall Lounge Dining Kitchen Ballroom Conserv Billiard Library Study
    (0, 8, 8, 19, 13, 20, 15, 7, 4),  # Hall
    (8, 0, 4, 19, 15, 27, 22, 14, 17),  # Lounge
    (8, 4, 0, 11, 7, 19, 14, 14, 17),  # Dining Room
    (19, 19, 11, 0, 7, 20, 17, 23, 28),  # Kitchen
    (13, 15, 7, 7, 0, 4, 6, 12, 17),  # Ballroom
    (20, 27, 19, 20, 4, 0, 7, 14, 20),  # Conservatory
    (15, 22, 14, 17, 6, 7, 0, 4, 15),  # Billiard Room
    (7, 14, 14, 23, 12, 14, 4, 0, 7),  # Library
    (4, 17, 17, 28, 17, 20, 15, 7, 0),  # Study
)
"""Pips from room to room (M6), rows and columns in room order (card 12 first)."""

START_DISTANCES: tuple[tuple[int, ...], ...] = (
    (12, 8, 10, 23, 19, 31, 26, 18, 21),  # Scarlet
    (12, 8, 8, 23, 19, 31, 26, 18, 21),  # Mustard
    (24, 24, 16, 13, 8, 25, 22, 28, 33),  # White
    (24, 31, 23, 24, 8, 10, 13, 19, 24),  # Green
    (23, 30, 22, 23, 9, 7, 10, 17, 23),  # Peacock
    (10, 21, 21, 32, 21, 24, 19, 11, 8),  # Plum
)
"""Pips from each suspect's start square into each room (M6), rooms in card order."""

PASSAGES = {13: 17, 17: 13, 15: 20, 20: 15}
"""Secret passages (C14): Lounge and Conservatory, Kitchen and Study, both ways."""


@dataclass(frozen=True, slots=True)
class AtStart:
    """A suspect's token on its start square."""

    suspect: int

    def __str__(self) -> str:
        return f"start {NAMES[self.suspect]}"


@dataclass(frozen=True, slots=True)
class InRoom:
    """A token in a room (card index 12-20)."""

    room: int

    def __str__(self) -> str:
        return NAMES[self.room]


@dataclass(frozen=True, slots=True)
class Transit:
    """On the way from ``origin`` into room ``target``: ``left`` squares to go, ``walked``
    pips walked since leaving ``origin`` (M2)."""

    origin: AtStart | InRoom
    target: int
    left: int
    walked: int

    def __str__(self) -> str:
        return f"{self.origin} -> {NAMES[self.target]} ({self.left} to go, {self.walked} walked)"


Position = AtStart | InRoom | Transit
_TRANSIT = re.compile(r"^(.+?) -> (.+?) \((\d+) to go, (\d+) walked\)$")


@lru_cache(maxsize=4096)
def parse_position(text: str) -> Position:
    """The position whose text form is ``text`` (inverse of ``str``); a ``ValueError``
    (:class:`~sleuth.games.cluedo.cards.CardNameError`) names a bad part.  Positions are
    immutable, so the answers for the latest texts are kept (every ``moved`` event of every
    view is read with it)."""
    text = text.strip()
    match = _TRANSIT.match(text)
    if match:
        origin = parse_position(match.group(1))
        if isinstance(origin, Transit):
            raise ValueError(f"{text!r}: a journey starts at a start square or in a room")
        target = card_named(match.group(2), kind=Category.ROOM)
        left, walked = whole_number(match.group(3)), whole_number(match.group(4))
        if left < 1 or walked < 1:
            raise ValueError(f"{text!r}: a token on its way has walked and has squares to go")
        return Transit(origin, target, left, walked)
    if text.lower().startswith("start "):
        return AtStart(card_named(text[6:], kind=Category.SUSPECT))
    return InRoom(card_named(text, kind=Category.ROOM))


def distance(origin: AtStart | InRoom, room: int) -> int:
    """Pips from ``origin`` into ``room`` (M1; 0 from a room to itself)."""
    if isinstance(origin, AtStart):
        return START_DISTANCES[origin.suspect][room - _R]
    return ROOM_DISTANCES[origin.room - _R][room - _R]


def reachable(position: Position, roll: int, retarget: bool = False) -> dict[int, Position]:
    """Where a roll of ``roll`` pips takes a token at ``position``, by the room it heads for.

    From a start square or room A (M3): every room but A, reached if ``roll`` covers the
    distance, else the token is on its way.  On the way (M4): committed to its target unless
    ``retarget``, when any room R' may become the target at ``walked + distance(origin, R')``
    squares (``walked`` back to the origin room).  Rooms are listed in card order.  A roll
    under 1 is refused (``ValueError``): the dice show at least 1."""
    if roll < 1:
        raise ValueError(f"a roll of {roll}: the dice show at least 1")
    if isinstance(position, Transit):
        if not retarget:
            return {position.target: _advance(position, position.target, position.left, roll)}
        out: dict[int, Position] = {}
        for room in ROOMS:
            left = position.left if room == position.target else _back(position, room)
            out[room] = _advance(position, room, left, roll)
        return out
    out = {}
    for room in ROOMS:
        if isinstance(position, InRoom) and room == position.room:
            continue
        d = distance(position, room)
        out[room] = InRoom(room) if roll >= d else Transit(position, room, d - roll, roll)
    return out


def _back(position: Transit, room: int) -> int:
    """Squares to ``room`` from a token on its way, bounded through its origin (M4)."""
    return position.walked + distance(position.origin, room)


def _advance(position: Transit, room: int, left: int, roll: int) -> Position:
    if roll >= left:
        return InRoom(room)
    return Transit(position.origin, room, left - roll, position.walked + roll)


def passage(room: int) -> int | None:
    """The room a secret passage leads to from ``room``, if it has one (C14)."""
    return PASSAGES.get(room)


@cache
def roll_distribution(dice: int) -> tuple[tuple[int, float], ...]:
    """Each possible roll of ``dice`` six-sided dice (1 or 2) and its probability."""
    if dice == 1:
        return tuple((t, 1 / 6) for t in range(1, 7))
    if dice == 2:
        return tuple((t, (6 - abs(t - 7)) / 36) for t in range(2, 13))
    raise ValueError(f"{dice} dice: the game is played with 1 or 2")


@cache
def expected_throws(d: int, dice: int) -> float:
    """Expected number of throws of ``dice`` dice to cover ``d`` squares (M7):
    E(d) = 0 for d <= 0, else 1 + sum over rolls t of P(t) E(d - t)."""
    if d <= 0:
        return 0.0
    return 1.0 + sum(p * expected_throws(d - t, dice) for t, p in roll_distribution(dice))


def prob_at_least(d: int, dice: int) -> float:
    """The probability that one roll of ``dice`` dice is at least ``d`` (M8)."""
    return sum(p for t, p in roll_distribution(dice) if t >= d)


@cache
def _room_times(dice: int) -> tuple[tuple[float, ...], ...]:
    """T between rooms (M9): shortest paths with edge weights E(D) and 1 for a passage."""
    n = len(ROOMS)
    times = [
        [0.0 if a == b else expected_throws(ROOM_DISTANCES[a][b], dice) for b in range(n)]
        for a in range(n)
    ]
    for a, b in PASSAGES.items():
        times[a - _R][b - _R] = min(times[a - _R][b - _R], 1.0)
    for k in range(n):
        for a in range(n):
            for b in range(n):
                times[a][b] = min(times[a][b], times[a][k] + times[k][b])
    return tuple(tuple(row) for row in times)


@cache
def _start_times(dice: int) -> tuple[tuple[float, ...], ...]:
    """T from each start square to each room (M9): the first leg, then room to room."""
    rooms = _room_times(dice)
    return tuple(
        tuple(
            min(
                expected_throws(START_DISTANCES[s][first], dice) + rooms[first][goal]
                for first in range(len(ROOMS))
            )
            for goal in range(len(ROOMS))
        )
        for s in SUSPECTS
    )


def travel_time(position: Position, room: int, dice: int, retarget: bool = False) -> float:
    """Expected turns to get from ``position`` into ``room`` (M9)."""
    if isinstance(position, InRoom):
        return _room_times(dice)[position.room - _R][room - _R]
    if isinstance(position, AtStart):
        return _start_times(dice)[position.suspect][room - _R]
    via = expected_throws(position.left, dice) + travel_time(InRoom(position.target), room, dice)
    if retarget:
        return min(via, expected_throws(_back(position, room), dice))
    return via


def remoteness(
    position: Position, room_probabilities: Sequence[float], dice: int, retarget: bool = False
) -> float:
    """Expected travel time from ``position`` to the murder room (M10), given the probability
    of each room (9 values in room order)."""
    if len(room_probabilities) != len(ROOMS):
        raise ValueError(f"{len(room_probabilities)} room probabilities for {len(ROOMS)} rooms")
    return sum(
        p * travel_time(position, room, dice, retarget)
        for room, p in zip(ROOMS, room_probabilities, strict=True)
        if p
    )
