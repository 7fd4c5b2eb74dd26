"""Scotland Yard's tickets, actions and move generation (rules S2, S3, S7, S14, S15, S20, S30).

Actions are immutable and hashable, and their text forms round-trip through :func:`parse_action`:

* :class:`Move` — one edge paid with one ticket: ``taxi 34``, ``black 115`` (Mr. X's single
  move and every detective move);
* :class:`DoubleMove` — Mr. X's double ticket and two single moves: ``double bus 46 black 79``;
* :data:`PASS` — ``pass``, a stuck detective's only action (S25);
* :class:`Start` — the chance action that deals the start cards: ``start 45 13,26,29,34,50``
  (Mr. X's station, then the detectives' in seat order).

Move lists are sets (S30): a destination reached by several edges of one transport, or a black
ticket on a pair joined by several transports, is one move.  Lists are sorted by (station,
ticket) with tickets in the order taxi < bus < underground < black, doubles after singles.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sleuth.core.errors import ActionParseError
from sleuth.core.numbers import whole_number
from sleuth.games.scotland_yard.board import Board, Transport


class Ticket(StrEnum):
    """The five tickets; black and double are Mr. X's only."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    BLACK = "black"
    DOUBLE = "double"

    @property
    def slot(self) -> int:
        """Place in a ticket-count list: taxi 0, bus 1, underground 2, black 3, double 4."""
        return TICKET_INDEX[self]


TICKET_INDEX = {ticket: i for i, ticket in enumerate(Ticket)}
TRANSPORT_TICKETS = (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND)
"""The tickets named after a transport, in ticket order (a detective holds only these)."""
LEG_TICKETS = (*TRANSPORT_TICKETS, Ticket.BLACK)
"""The tickets that pay for one leg of a move, in the order moves are sorted."""


@dataclass(frozen=True, slots=True)
class Move:
    """One edge to ``station`` paid with ``ticket`` (never ``double``)."""

    station: int
    ticket: Ticket

    def __str__(self) -> str:
        return f"{self.ticket} {self.station}"

    @property
    def key(self) -> tuple[int, int]:
        """The sort key of move lists: station, then ticket order."""
        return (self.station, TICKET_INDEX[self.ticket])


@dataclass(frozen=True, slots=True)
class DoubleMove:
    """Mr. X's double move: two single moves, the second from the first's station (S20)."""

    first: Move
    second: Move

    def __str__(self) -> str:
        return f"double {self.first} {self.second}"

    @property
    def key(self) -> tuple[int, int, int, int]:
        """The sort key of move lists: the first leg's key, then the second's."""
        return (*self.first.key, *self.second.key)


@dataclass(frozen=True, slots=True)
class Pass:
    """A stuck detective's turn (S25)."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True, slots=True)
class Start:
    """The deal of the start cards: Mr. X's station and each detective's, in seat order."""

    mrx: int
    detectives: tuple[int, ...]

    def __str__(self) -> str:
        return f"start {self.mrx} {','.join(map(str, self.detectives))}"


Action = Move | DoubleMove | Pass | Start
_FORMS = "taxi 34 / bus 46 / underground 89 / black 115 / double taxi 10 bus 34 / pass"


def parse_action(text: str) -> Action:
    """The action whose text form is ``text`` (extra spaces and upper case are accepted)."""
    words = text.lower().split()
    try:
        if words == ["pass"]:
            return PASS
        if len(words) == 2:
            return _move(words[0], words[1])
        if len(words) == 5 and words[0] == "double":
            return DoubleMove(_move(words[1], words[2]), _move(words[3], words[4]))
        if len(words) == 3 and words[0] == "start":
            detectives = tuple(_station(w) for w in words[2].split(","))
            return Start(_station(words[1]), detectives)
    except ValueError as err:
        raise ActionParseError(f"{text!r}: {err}") from None
    raise ActionParseError(f"{text!r} is not a Scotland Yard action ({_FORMS})")


def _move(ticket: str, station: str) -> Move:
    if ticket not in LEG_TICKETS:
        known = ", ".join(LEG_TICKETS)
        raise ValueError(f"unknown ticket {ticket!r} (a move takes one of {known})")
    return Move(_station(station), Ticket(ticket))


def _station(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise ValueError(f"{word!r} is not a station number")
    return whole_number(word)


def _key(move: Move) -> tuple[int, int]:
    return move.key


def stations_of(bits: int) -> list[int]:
    """The stations of a bitset, in increasing order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def ticket_targets(board: Board, station: int, ticket: Ticket) -> int:
    """The bitset of stations one ``ticket`` move from ``station``, ignoring pawns (S2, S3)."""
    if ticket is Ticket.BLACK:
        return board.any_neighbours[station]
    return board.neighbours[Transport(ticket.value)][station]


def detective_moves(
    board: Board, station: int, tickets: list[int] | tuple[int, ...], occupied: int
) -> tuple[Move, ...]:
    """A detective's legal moves from ``station`` with ``tickets`` (taxi, bus, underground
    counts) when the stations of ``occupied`` hold other detectives (S2, S7, S14)."""
    moves = [
        Move(target, ticket)
        for i, ticket in enumerate(TRANSPORT_TICKETS)
        if tickets[i] > 0
        for target in stations_of(ticket_targets(board, station, ticket) & ~occupied)
    ]
    moves.sort(key=_key)
    return tuple(moves)


def single_moves(
    board: Board, station: int, tickets: list[int] | tuple[int, ...], blocked: int
) -> list[Move]:
    """Mr. X's legal single moves with ``tickets`` (five counts) when the stations of
    ``blocked`` hold detectives (S2, S3, S7, S15), sorted."""
    moves = [
        Move(target, ticket)
        for i, ticket in enumerate(LEG_TICKETS)
        if tickets[i] > 0
        for target in stations_of(ticket_targets(board, station, ticket) & ~blocked)
    ]
    moves.sort(key=_key)
    return moves


def mrx_moves(
    board: Board,
    station: int,
    tickets: list[int] | tuple[int, ...],
    blocked: int,
    double_allowed: bool,
) -> tuple[Move | DoubleMove, ...]:
    """Mr. X's legal moves (S12, S15, S20, S22): his single moves, then, if he holds a double
    ticket and ``double_allowed`` (enough log entries left, C3), every pair of single moves the
    tickets allow cumulatively.  The detectives do not move between the legs."""
    singles = single_moves(board, station, tickets, blocked)
    if not double_allowed or tickets[Ticket.DOUBLE.slot] < 1:
        return tuple(singles)
    doubles: list[Move | DoubleMove] = []
    rest = list(tickets)
    for first in singles:
        rest[first.ticket.slot] -= 1
        doubles.extend(
            DoubleMove(first, second)
            for second in single_moves(board, first.station, rest, blocked)
        )
        rest[first.ticket.slot] += 1
    return (*singles, *doubles)
