"""Scotland Yard's rules engine (rules S1-S30, options O1-O8, conventions C1-C8 of
``docs/scotland-yard.md``).

Seat 0 is Mr. X (role ``mrx``).  The detectives are one side (``detectives``) played either by
one seat that moves every detective in turn (``seats=2``, role ``detectives``) or by one seat
per detective (``seats = detectives + 1``, role ``detective``).

A game starts with a chance action (:class:`~sleuth.games.scotland_yard.moves.Start`) that
deals the start cards (S8-S10).  Each round is Mr. X's turn (a single or a double move), then
the detective phase in seat order (C1); a stuck detective's only action is ``pass`` (S25).
States are checked at every change of turn, so a finished game is always marked terminal:
Mr. X without a move at his turn (S26), every detective without one at the start of their phase
(S27), a capture (S17), the log full after the last detective phase (S24, C2) or the round
limit (O8).

Events (what each seat sees is set by their audience; Mr. X's station is private to seat 0):
``start``, ``mrx_moved``, ``detective_moved``, ``detective_passed``, ``game_over`` — their
fields are listed in ``docs/scotland-yard.md`` ("Who sees what").

Invariants: ticket counts never go below 0 (S7); no two detectives share a station (S14);
Mr. X never shares a station with a detective while the game goes on (S15, S17); in the classic
edition the total number of tickets in play is constant (S5).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import ClassVar

from sleuth.core.errors import OptionError
from sleuth.core.events import JSON, Event
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.games.scotland_yard.board import Board, builtin_board, load_board
from sleuth.games.scotland_yard.edition import UNLIMITED, Profile
from sleuth.games.scotland_yard.moves import (
    PASS,
    Action,
    DoubleMove,
    Move,
    Pass,
    Start,
    Ticket,
    detective_moves,
    mrx_moves,
    parse_action,
    ticket_targets,
)

MRX = 0
MRX_SIDE = "mrx"
DETECTIVES_SIDE = "detectives"
MAP_ENV = "SLEUTH_SCOTLAND_YARD_MAP"
"""Environment variable naming the board folder used when ``-o map`` is not given."""
BUILTIN = "builtin"
MRX_ONLY = frozenset((MRX,))
TO_MRX = -1
"""``to_move`` when it is Mr. X's turn (else the index of the detective to move)."""


def names_folder(text: str) -> bool:
    """Whether the map option ``text`` names a board folder: any text but ``builtin`` and the
    empty one (which stands for the folder in :data:`MAP_ENV`, chosen by whoever runs Sleuth,
    else the built-in board).  Decided from the text alone."""
    return text.strip() not in ("", BUILTIN)


def resolve_map(text: str) -> str:
    """The canonical map option: ``builtin`` or an absolute folder path.  An empty text means
    the folder in :data:`MAP_ENV` if that is set, else the built-in board."""
    text = text.strip() or os.environ.get(MAP_ENV, "").strip()
    return str(Path(text).expanduser().resolve()) if names_folder(text) else BUILTIN


@cache
def _load(canonical: str) -> Board:
    return builtin_board() if canonical == BUILTIN else load_board(canonical)


def board_for(map_option: str) -> Board:
    """The board a ``map`` option names (loaded once per process)."""
    return _load(resolve_map(map_option))


class ScotlandYardGame(Game[Action]):
    """Scotland Yard on ``board`` under ``profile``, with ``seats`` 2 or detectives + 1."""

    name: ClassVar[str] = "scotland-yard"
    terminations: ClassVar[tuple[str, ...]] = ("caught", "cornered", "escaped", "blocked")
    """A detective landed on Mr. X (S17); Mr. X had no move (S26); the log filled up or the
    round limit came without a capture (S24, O8); no detective could move (S27)."""

    def __init__(self, board: Board, profile: Profile, seats: int, map_option: str) -> None:
        profile.check(board.n)
        if seats not in (2, profile.detectives + 1):
            raise OptionError(
                f"seats={seats}: 2 (one seat moves every detective) or {profile.detectives + 1} "
                f"(one seat per detective, with detectives={profile.detectives})"
            )
        self.board = board
        self.profile = profile
        self.seats = seats
        self.map_option = map_option

    @property
    def team_seat(self) -> bool:
        """True when one seat moves every detective."""
        return self.seats == 2

    @property
    def roles(self) -> tuple[str, ...]:
        if self.team_seat:
            return ("mrx", "detectives")
        return ("mrx",) + ("detective",) * self.profile.detectives

    def sides(self) -> tuple[str, ...]:
        return (MRX_SIDE,) + (DETECTIVES_SIDE,) * (self.seats - 1)

    def seat_of(self, detective: int) -> int:
        """The seat that moves detective ``detective`` (0-based)."""
        return 1 if self.team_seat else 1 + detective

    def options(self) -> dict[str, JSON]:
        p = self.profile
        mrx = p.mrx_tickets
        transport = "inf/inf/inf" if p.mrx_unlimited else "/".join(map(str, mrx[:3]))
        return {
            "map": self.map_option,
            "edition": p.edition,
            "detectives": p.detectives,
            "seats": self.seats,
            "detective_tickets": "/".join(map(str, p.detective_tickets)),
            "mrx_tickets": f"{transport}/{mrx[3]}/{mrx[4]}",
            "tickets_to_mrx": "yes" if p.tickets_to_mrx else "no",
            "mrx_start": p.mrx_start,
            "detective_starts": ",".join(map(str, p.detective_starts)),
            "bobbies": 0,
            "reveals": ",".join(map(str, sorted(p.reveals))),
            "log_length": p.log_length,
            "max_rounds": p.max_rounds,
            "final_detective_phase": p.final_detective_phase,
        }

    def new_initial_state(self) -> ScotlandYardState:
        return ScotlandYardState(self)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def mrx_start_set(self, detectives: Sequence[int]) -> int:
        """The bitset of Mr. X's possible start stations as the detectives see it once their
        own start stations are known (tracker step 1): his fixed start, else his start cards
        without the detectives' stations."""
        if self.profile.mrx_start:
            return 1 << self.profile.mrx_start
        bits = 0
        for card in self.profile.mrx_cards:
            bits |= 1 << card
        for station in detectives:
            bits &= ~(1 << station)
        return bits

    @cached_property
    def _start_is_fixed(self) -> bool:
        return bool(self.profile.mrx_start and self.profile.detective_starts)

    def deal(self, rng: random.Random) -> Start:
        """Draw the start cards (S8, S9): Mr. X first, then each detective from what is left."""
        p = self.profile
        mrx = p.mrx_start
        if not mrx:
            mrx = rng.choice([c for c in p.mrx_cards if c not in p.detective_starts])
        if p.detective_starts:
            return Start(mrx, p.detective_starts)
        cards = [c for c in p.detective_cards if c != mrx]
        return Start(mrx, tuple(rng.sample(cards, p.detectives)))

    def illegal_start(self, start: Start) -> str | None:
        """Why ``start`` is not a possible deal (None if it is)."""
        p = self.profile
        if len(start.detectives) != p.detectives:
            return f"deals {len(start.detectives)} detectives, the game has {p.detectives}"
        if p.mrx_start and start.mrx != p.mrx_start:
            return f"Mr. X starts at {p.mrx_start} in this game"
        if not p.mrx_start and start.mrx not in p.mrx_cards:
            return f"{start.mrx} is not one of Mr. X's start cards"
        if p.detective_starts and start.detectives != p.detective_starts:
            return f"the detectives start at {','.join(map(str, p.detective_starts))}"
        for station in start.detectives:
            if not p.detective_starts and station not in p.detective_cards:
                return f"{station} is not one of the detectives' start cards"
        if len({start.mrx, *start.detectives}) != 1 + p.detectives:
            return "two pawns on one start station"
        return None


class ScotlandYardState(State[Action]):
    """A position.  Public attributes are read by beliefs' tests, bots' search and the tracker's
    checks; only the engine changes them."""

    __slots__ = (
        "_legal",
        "detective_tickets",
        "detectives",
        "entries",
        "game",
        "log",
        "mrx",
        "mrx_tickets",
        "round",
        "termination_reason",
        "to_move",
        "winner",
    )

    def __init__(self, game: ScotlandYardGame) -> None:
        self.game: ScotlandYardGame = game
        p = game.profile
        self.mrx = 0
        """Mr. X's station (0 before the deal)."""
        self.detectives: list[int] = []
        self.detective_tickets = [list(p.detective_tickets) for _ in range(p.detectives)]
        self.mrx_tickets = list(p.mrx_tickets)
        self.entries = 0
        """Log entries filled (S18)."""
        self.log: list[tuple[Ticket, int]] = []
        """Mr. X's log: the ticket and station of each entry."""
        self.round = 0
        """The current round (1-based; 0 before the deal)."""
        self.to_move = TO_MRX
        self.winner: str | None = None
        self.termination_reason: str | None = None
        self._legal: tuple[Action, ...] | None = None

    # --- whose turn, what is legal -----------------------------------------------------------

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if not self.round:
            return CHANCE
        if self.to_move == TO_MRX:
            return MRX
        return self.game.seat_of(self.to_move)

    def legal_actions(self) -> Sequence[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.winner is not None or not self.round:
            return ()
        if self.to_move == TO_MRX:
            return self.mrx_moves()
        moves = self.detective_moves(self.to_move)
        return moves if moves else (PASS,)

    def mrx_moves(self) -> tuple[Action, ...]:
        """Mr. X's legal moves from his station now (S12, S15, S20, S22, C3)."""
        blocked = 0
        for station in self.detectives:
            blocked |= 1 << station
        double_allowed = self.entries + 2 <= self.game.profile.log_length
        return mrx_moves(self.game.board, self.mrx, self.mrx_tickets, blocked, double_allowed)

    def detective_moves(self, detective: int) -> tuple[Move, ...]:
        """Detective ``detective``'s legal moves now (S2, S7, S14); empty if he is stuck."""
        occupied = 0
        for i, station in enumerate(self.detectives):
            if i != detective:
                occupied |= 1 << station
        return detective_moves(
            self.game.board,
            self.detectives[detective],
            self.detective_tickets[detective],
            occupied,
        )

    def is_legal(self, action: object) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: object) -> str | None:
        if self.winner is not None:
            return "the game is over"
        if not self.round:
            if not isinstance(action, Start):
                return "the start cards have not been dealt"
            return self.game.illegal_start(action)
        if action in self.legal_actions():
            return None
        if isinstance(action, Start):
            return "the start cards were dealt already"
        if self.to_move == TO_MRX:
            return self._why_not_mrx(action)
        return self._why_not_detective(action)

    def _why_not_detective(self, action: object) -> str:
        who = f"detective {self.to_move + 1}"
        if isinstance(action, DoubleMove):
            return f"only Mr. X has double tickets ({who} to move)"
        if isinstance(action, Pass):
            return f"{who} has a legal move, so he may not pass (S13)"
        assert isinstance(action, Move)
        if action.ticket in (Ticket.BLACK, Ticket.DOUBLE):
            return f"only Mr. X has {action.ticket} tickets ({who} to move)"
        station = self.detectives[self.to_move]
        tickets = self.detective_tickets[self.to_move]
        return self._why_not_leg(action, station, tickets, who, detective=True)

    def _why_not_mrx(self, action: object) -> str:
        if isinstance(action, Pass):
            return "Mr. X may not pass while he has a legal move (S12)"
        tickets = list(self.mrx_tickets)
        if isinstance(action, Move):
            return self._why_not_leg(action, self.mrx, tickets, "Mr. X", detective=False)
        assert isinstance(action, DoubleMove)
        if tickets[Ticket.DOUBLE.slot] < 1:
            return "Mr. X has no double ticket left"
        if self.entries + 2 > self.game.profile.log_length:
            return "a double move needs two free log entries (C3)"
        first = self._why_not_leg(action.first, self.mrx, tickets, "Mr. X", detective=False)
        if first:
            return f"first leg: {first}"
        tickets[action.first.ticket.slot] -= 1
        second = self._why_not_leg(
            action.second, action.first.station, tickets, "Mr. X", detective=False
        )
        return f"second leg: {second}" if second else "not a legal move"

    def _why_not_leg(
        self, move: Move, origin: int, tickets: list[int], who: str, *, detective: bool
    ) -> str:
        """Why one leg from ``origin`` is illegal ('' if it is legal)."""
        board = self.game.board
        if not 1 <= move.station <= board.n:
            return f"station {move.station} is not on the board (1..{board.n})"
        if tickets[move.ticket.slot] < 1:
            return f"{who} has no {move.ticket} ticket left (S7)"
        if not ticket_targets(board, origin, move.ticket) >> move.station & 1:
            return f"no {move.ticket} route from {origin} to {move.station}"
        others = [s for i, s in enumerate(self.detectives) if not detective or i != self.to_move]
        if move.station in others:
            return f"station {move.station} is held by a detective (S14, S15)"
        return ""

    # --- playing ------------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        if isinstance(action, Start):
            return self._start(action)
        if self.to_move == TO_MRX:
            assert isinstance(action, Move | DoubleMove)
            return self._mrx_turn(action)
        return self._detective_turn(action)

    def _start(self, start: Start) -> list[Event]:
        self.mrx = start.mrx
        self.detectives = list(start.detectives)
        self.round = 1
        events = [Event("start", {"detectives": start.detectives}, {"mrx": start.mrx}, MRX_ONLY)]
        return events + self._begin_mrx_turn()

    def _mrx_turn(self, action: Move | DoubleMove) -> list[Event]:
        if isinstance(action, Move):
            events = [self._mrx_leg(action, leg=0)]
        else:
            self.mrx_tickets[Ticket.DOUBLE.slot] -= 1
            events = [self._mrx_leg(action.first, leg=1), self._mrx_leg(action.second, leg=2)]
        p = self.game.profile
        if self.entries >= p.log_length and not p.final_detective_phase:
            return events + self._end(MRX_SIDE, "escaped")
        return events + self._begin_detective_phase()

    def _mrx_leg(self, move: Move, leg: int) -> Event:
        p = self.game.profile
        if not (p.mrx_unlimited and move.ticket is not Ticket.BLACK):
            self.mrx_tickets[move.ticket.slot] -= 1
        self.mrx = move.station
        self.entries += 1
        self.log.append((move.ticket, move.station))
        reveal = move.station if self.entries in p.reveals else None
        public = {"entry": self.entries, "ticket": str(move.ticket), "leg": leg, "reveal": reveal}
        return Event("mrx_moved", public, {"station": move.station}, MRX_ONLY)

    def _detective_turn(self, action: Action) -> list[Event]:
        detective = self.to_move
        if isinstance(action, Pass):
            events = [Event("detective_passed", {"detective": detective})]
        else:
            assert isinstance(action, Move)
            self.detective_tickets[detective][action.ticket.slot] -= 1
            if self.game.profile.tickets_to_mrx:
                self.mrx_tickets[action.ticket.slot] += 1
            self.detectives[detective] = action.station
            captured = action.station == self.mrx
            public = {
                "detective": detective,
                "ticket": str(action.ticket),
                "station": action.station,
                "captured": captured,
            }
            events = [Event("detective_moved", public)]
            if captured:
                return events + self._end(DETECTIVES_SIDE, "caught")
        if detective + 1 < self.game.profile.detectives:
            self.to_move = detective + 1
            return events
        return events + self._end_round()

    def _begin_detective_phase(self) -> list[Event]:
        """S27: if no detective can move, Mr. X wins at once; else detective 1 is to move."""
        if not any(self.detective_moves(i) for i in range(len(self.detectives))):
            return self._end(MRX_SIDE, "blocked")
        self.to_move = 0
        return []

    def _end_round(self) -> list[Event]:
        p = self.game.profile
        if self.entries >= p.log_length or (p.max_rounds and self.round >= p.max_rounds):
            return self._end(MRX_SIDE, "escaped")
        self.round += 1
        return self._begin_mrx_turn()

    def _begin_mrx_turn(self) -> list[Event]:
        """S26: Mr. X without a legal move at his turn loses."""
        self.to_move = TO_MRX
        if not self.legal_actions():
            return self._end(DETECTIVES_SIDE, "cornered")
        return []

    def _end(self, winner: str, reason: str) -> list[Event]:
        self.winner, self.termination_reason = winner, reason
        self._legal = ()
        log = tuple((str(ticket), station) for ticket, station in self.log)
        public = {"winner": winner, "termination": reason, "mrx": self.mrx, "log": log}
        return [Event("game_over", public)]

    # --- chance, results, copies -------------------------------------------------------------

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        if self.game._start_is_fixed:
            return [(self.game.deal(random.Random(0)), 1.0)]
        raise NotImplementedError("too many deals to list: use sample_chance")

    def sample_chance(self, rng: random.Random) -> Action:
        return self.game.deal(rng)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            return (0.0,) * self.game.num_players
        mrx = 1.0 if self.winner == MRX_SIDE else 0.0
        return (mrx,) + (1.0 - mrx,) * (self.game.num_players - 1)

    def winners(self) -> tuple[str, ...]:
        return () if self.winner is None else (self.winner,)

    def termination(self) -> str:
        assert self.termination_reason is not None, "the game is not over"
        return self.termination_reason

    def outcome(self) -> str:
        if self.termination_reason == "caught":
            return f"detectives win: Mr. X caught at {self.mrx} in round {self.round}"
        if self.termination_reason == "cornered":
            return f"detectives win: Mr. X cornered at {self.mrx} in round {self.round}"
        if self.termination_reason == "blocked":
            return f"Mr. X wins: no detective can move (round {self.round})"
        return f"Mr. X wins: not caught after {self.entries} log entries ({self.round} rounds)"

    def clone(self) -> ScotlandYardState:
        other = ScotlandYardState.__new__(ScotlandYardState)
        other.game = self.game
        other.mrx = self.mrx
        other.detectives = list(self.detectives)
        other.detective_tickets = [list(t) for t in self.detective_tickets]
        other.mrx_tickets = list(self.mrx_tickets)
        other.entries = self.entries
        other.log = list(self.log)
        other.round = self.round
        other.to_move = self.to_move
        other.winner = self.winner
        other.termination_reason = self.termination_reason
        other._legal = self._legal
        return other

    def __repr__(self) -> str:
        """The whole position for developers (Mr. X's station included)."""
        to_move = (
            "nobody"
            if self.winner is not None
            else "Mr. X"
            if self.to_move == TO_MRX
            else f"detective {self.to_move + 1}"
        )
        return (
            f"ScotlandYardState(round={self.round}, entries={self.entries}, to_move={to_move}, "
            f"mrx={self.mrx}, detectives={self.detectives}, mrx_tickets={self.mrx_tickets}, "
            f"detective_tickets={self.detective_tickets}, winner={self.winner})"
        )


__all__ = ["UNLIMITED", "ScotlandYardGame", "ScotlandYardState"]
