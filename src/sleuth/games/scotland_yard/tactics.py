"""Greedy moves by distance, shared by the heuristic Mr. X and the search's playouts.

Distances are the board's hop counts over taxi, bus and underground (C8), read from
:func:`tables` as one ``bytes`` row per station (fast to index from Python).  Mr. X's greedy
move maximises the distance from his destination to the nearest detective; a detective's greedy
move minimises his distance to a target station.  Ties are broken at random; a transport ticket
is preferred to black for the same destination, and among transport tickets the one he holds
most of.  Every move returned is legal in the state given.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from sleuth.core.bitsets import mask_of, members
from sleuth.games.scotland_yard.board import Board, Transport
from sleuth.games.scotland_yard.moves import LEG_TICKETS, Action, DoubleMove, Move, Ticket
from sleuth.games.scotland_yard.tracker import leg_tables

if TYPE_CHECKING:
    from sleuth.games.scotland_yard.rules import ScotlandYardState

FAR = 255
"""The distance given to stations that no taxi, bus or underground path joins."""


class Tables:
    """Per-board lookups: ``dist[a][b]`` (C8 hop counts, :data:`FAR` if unreachable) and
    ``legs[i][s]``, the stations one move with leg ticket ``LEG_TICKETS[i]`` from ``s``."""

    def __init__(self, board: Board) -> None:
        matrix = board.distances
        rows = []
        for a in range(board.n + 1):
            row = bytearray(min(int(d), FAR) for d in matrix[a])
            for b in range(1, board.n + 1):
                if a and a != b and not row[b]:
                    row[b] = FAR
            rows.append(bytes(row))
        self.dist: tuple[bytes, ...] = tuple(rows)
        self.legs: tuple[tuple[int, ...], ...] = (
            board.neighbours[Transport.TAXI],
            board.neighbours[Transport.BUS],
            board.neighbours[Transport.UNDERGROUND],
            board.any_neighbours,
        )
        self.plain_only_taxi = tuple(
            not (
                board.neighbours[Transport.BUS][s]
                or board.neighbours[Transport.UNDERGROUND][s]
                or board.any_neighbours[s] & ~board.neighbours[Transport.TAXI][s]
            )
            for s in range(board.n + 1)
        )
        """Per station: every edge from it is a taxi edge (black hides no other transport)."""
        self.detective_moves: dict[
            tuple[int, int, int], tuple[tuple[Action, ...], dict[Hashable, tuple[Action]]]
        ] = {}
        """A detective's legal moves, and each as its own class, by (station, which of taxi,
        bus, underground he holds as bits 1, 2, 4, the other detectives' stations next to
        his): filled by the search."""


_TABLES: dict[int, tuple[weakref.ref[Board], Tables]] = {}


def tables(board: Board) -> Tables:
    """The :class:`Tables` of ``board``, built once per board object."""
    cached = _TABLES.get(id(board))
    if cached is not None and cached[0]() is board:
        return cached[1]
    built = Tables(board)
    key = id(board)
    _TABLES[key] = (weakref.ref(board, lambda _: _TABLES.pop(key, None)), built)
    return built


def mrx_greedy(
    t: Tables,
    station: int,
    tickets: Sequence[int],
    detectives: Sequence[int],
    rng: random.Random,
) -> Move | None:
    """Mr. X's single move to the free station farthest from the nearest detective (ties at
    random), or None if he has no single move.  ``tickets`` are his five counts."""
    blocked = 0
    for d in detectives:
        blocked |= 1 << d
    reach = 0
    for i in range(4):
        if tickets[i] > 0:
            reach |= t.legs[i][station]
    reach &= ~blocked
    if not reach:
        return None
    dist = t.dist
    best = -1
    choices: list[int] = []
    for s in members(reach):
        row = dist[s]
        score = min((row[d] for d in detectives), default=FAR)
        if score > best:
            best, choices = score, [s]
        elif score == best:
            choices.append(s)
    target = choices[0] if len(choices) == 1 else rng.choice(choices)
    return Move(target, mrx_ticket(t, station, target, tickets))


def mrx_ticket(t: Tables, station: int, target: int, tickets: Sequence[int]) -> Ticket:
    """The ticket Mr. X pays ``station`` -> ``target`` with: the transport ticket he holds most
    of among those whose edge joins them, else black.  The move must be possible."""
    slot = _most_held(t, station, target, tickets)
    return Ticket(LEG_TICKETS[3 if slot < 0 else slot])


def _most_held(t: Tables, station: int, target: int, tickets: Sequence[int]) -> int:
    """The slot of the transport ticket held most (taxi first on ties) whose edge joins
    ``station`` to ``target``; -1 if none."""
    slot = -1
    for i in range(3):
        if (
            tickets[i] > 0
            and t.legs[i][station] >> target & 1
            and (slot < 0 or tickets[i] > tickets[slot])
        ):
            slot = i
    return slot


def detective_greedy(
    t: Tables,
    station: int,
    tickets: Sequence[int],
    occupied: int,
    target: int,
    rng: random.Random,
) -> Move | None:
    """A detective's move from ``station`` that ends nearest to ``target`` (ties at random;
    among tickets to one destination, the one he holds most of), or None if he is stuck.
    ``occupied``: the other detectives' stations; ``tickets``: his taxi, bus, underground."""
    row = t.dist[target]
    best = FAR + 1
    choices: list[int] = []
    reach = 0
    for i in range(3):
        if tickets[i] > 0:
            reach |= t.legs[i][station]
    reach &= ~occupied
    for s in members(reach):
        d = row[s]
        if d < best:
            best, choices = d, [s]
        elif d == best:
            choices.append(s)
    if not choices:
        return None
    dest = choices[0] if len(choices) == 1 else rng.choice(choices)
    slot = _most_held(t, station, dest, tickets)
    return Move(dest, Ticket(LEG_TICKETS[slot]))


BLACK_GAIN = 2.0
"""The heuristic Mr. X pays with black when that leaves the detectives at least this many times
as many possible stations as the transport ticket would."""
DANGER = 1
"""The heuristic Mr. X considers a double move when his best single move ends this close (or
closer) to a detective."""


def heuristic_mrx(state: ScotlandYardState, possible: int, rng: random.Random) -> Action:
    """The heuristic Mr. X's move in ``state`` (his turn, not over), given the detectives'
    possible set ``possible`` (from their public view).

    He goes to the station whose nearest detective is farthest (then the largest total distance
    to the detectives, then at random) by a single move, or by a double move when the best single
    move ends within :data:`DANGER` of a detective and a double ends farther.  He pays with a
    transport ticket unless black hides him much better (:data:`BLACK_GAIN`) on an entry that is
    not revealed, or black is the only way."""
    t = tables(state.game.board)
    legal = state.legal_actions()
    detectives = state.detectives

    def score(station: int) -> tuple[int, int]:
        row = t.dist[station]
        return (min((row[d] for d in detectives), default=FAR), sum(row[d] for d in detectives))

    singles = [a for a in legal if isinstance(a, Move)]
    best = max(score(m.station) for m in singles)
    doubles = [a for a in legal if isinstance(a, DoubleMove)]
    if best[0] <= DANGER and doubles:
        best_double = max(score(d.second.station) for d in doubles)
        if best_double[0] > best[0]:
            ends = [d for d in doubles if score(d.second.station) == best_double]
            fewest = min(_blacks(d) for d in ends)
            return rng.choice([d for d in ends if _blacks(d) == fewest])
    target = rng.choice(sorted({m.station for m in singles if score(m.station) == best}))
    plain = mrx_ticket(t, state.mrx, target, state.mrx_tickets)
    black = Move(target, Ticket.BLACK)
    if plain is Ticket.BLACK or black not in singles:
        return Move(target, plain)
    if state.entries + 1 in state.game.profile.reveals:
        return Move(target, plain)
    if hides(state, possible, plain):
        return black
    return Move(target, plain)


def hides(state: ScotlandYardState, possible: int, plain: Ticket) -> bool:
    """True if a black leg from ``possible`` leaves at least :data:`BLACK_GAIN` times as many
    stations free of detectives as a ``plain`` leg would."""
    legs = leg_tables(state.game.board)
    free = ~mask_of(state.detectives)
    seen_plain = legs.reach(possible, str(plain)) & free
    seen_black = legs.reach(possible, "black") & free
    return seen_black.bit_count() >= BLACK_GAIN * seen_plain.bit_count()


def log_possible(state: ScotlandYardState) -> int:
    """Where Mr. X may be by his log alone: his last revealed station (before any reveal, his
    possible start stations) moved along every ticket shown since, detectives ignored.  A
    superset of the detectives' possible set that the state alone gives."""
    game = state.game
    last = max((k for k in game.profile.reveals if k <= state.entries), default=0)
    bits = 1 << state.log[last - 1][1] if last else game.mrx_start_set(())
    legs = leg_tables(game.board)
    for ticket, _ in state.log[last:]:
        bits = legs.reach(bits, str(ticket))
    return bits


def _blacks(move: DoubleMove) -> int:
    return (move.first.ticket is Ticket.BLACK) + (move.second.ticket is Ticket.BLACK)
