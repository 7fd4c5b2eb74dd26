"""Cluedo's rules engine (rules C1-C23 and the movement model M1-M10 of ``docs/cluedo.md``).

Seats 0 .. n-1 sit clockwise (3-6 players, role ``player``); seat i plays the i-th suspect of
the ``suspects`` option (default: the first n in card order).  The game starts with the chance
action of the deal (:class:`~sleuth.games.cluedo.deal.Deal`); the seat playing the suspect
first in card order then starts (C11), and turns pass clockwise, skipping eliminated players.

A turn, by :class:`Phase`:

1. ``move`` — ``roll`` (then the chance action ``dice N``, then ``go ROOM`` if there is a
   choice: a token on its way to a room without ``allow_retarget`` goes on at once),
   ``passage``, or ``stay`` (only for a player another's suggestion moved since their last
   turn); or ``accuse``;
2. ``act`` — ``suggest`` (once, in the room entered this turn or stayed in, C17), ``accuse``
   or ``end``;
3. ``refute`` — after a suggestion, seats holding none of the three cards pass on their own
   (nobody has a choice there, so no action is asked of them: their ``passed`` events come with
   the suggestion); the first seat holding one is to move (``current_player`` is the refuter,
   eliminated or not) and must ``show`` one of them; then back to ``act``.

An accusation can be made in ``move`` or ``act`` (where ``accuse_at`` allows).  A right one
wins at once; a wrong one eliminates the accuser and ends their turn (C21).  The game ends
with no winner when every player is eliminated (C23), or when ``max_turns`` turns have been
played (termination ``turn_limit``; turns of every seat are counted).

Events (visibility per the docs page's "Who sees what"): ``setup``; one ``hand`` per seat (the
cards private to that seat); ``rolled`` (seat, roll); ``moved`` (seat, roll or None for a
passage or stay, position text); ``suggested``; ``passed``; ``refuted`` (the card private to
suggester and refuter); ``unrefuted``; ``accused`` (the envelope private to the accuser);
``ended`` (seat: its turn is over, by ``end`` or a wrong accusation, C12); ``game_over``
(winner or None, envelope).  Between two decisions of a seat there is at least one event (a
roll's come with the dice), so a seat never decides twice after the same events: not even the
last seat still playing, whose ``end`` is followed by its own next turn.

Invariants: the envelope, hands and face-up cards partition the cards; an eliminated seat is
never the seat whose turn it is; only the refuter acts while a refutation is pending.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from sleuth.core.errors import OptionError
from sleuth.core.events import JSON, Event
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.games.cluedo.actions import (
    END,
    PASSAGE,
    ROLL,
    STAY,
    Accuse,
    Action,
    Deal,
    Dice,
    End,
    Go,
    Passage,
    Roll,
    Show,
    Stay,
    Suggest,
    parse_action,
)
from sleuth.games.cluedo.cards import (
    EDITIONS,
    NAMES,
    ROOMS,
    SUSPECTS,
    WEAPONS,
    Edition,
)
from sleuth.games.cluedo.deal import deal_problem, hand_sizes, shuffle_deal
from sleuth.games.cluedo.movement import (
    AtStart,
    InRoom,
    Position,
    Transit,
    passage,
    reachable,
    roll_distribution,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 6
ACCUSE_AT = ("anywhere", "in_named_room")
LEFTOVER = ("deal", "face_up")


class Phase(StrEnum):
    """Where the game is: see the module docstring."""

    DEAL = "deal"
    MOVE = "move"
    DICE = "dice"
    HEAD = "head"
    ACT = "act"
    REFUTE = "refute"
    OVER = "over"


def _suggestions(room: int) -> tuple[Suggest, ...]:
    return tuple(Suggest(s, w, room) for s in SUSPECTS for w in WEAPONS)


def _accusations(room: int) -> tuple[Accuse, ...]:
    return tuple(Accuse(s, w, room) for s in SUSPECTS for w in WEAPONS)


SUGGESTIONS = {room: _suggestions(room) for room in ROOMS}
"""The 36 suggestions possible in each room."""
ACCUSATIONS_IN = {room: _accusations(room) for room in ROOMS}
"""The 36 accusations naming each room."""
ACCUSATIONS = tuple(a for room in ROOMS for a in ACCUSATIONS_IN[room])
"""All 324 accusations."""


class CluedoGame(Game[Action]):
    """Cluedo for ``players`` seats under the given options (see ``docs/cluedo.md``)."""

    name: ClassVar[str] = "cluedo"
    terminations: ClassVar[tuple[str, ...]] = ("solved", "all_wrong", "turn_limit")
    """A right accusation (C21); every player accused wrongly (C23); ``max_turns`` reached."""

    def __init__(
        self,
        players: int = 3,
        suspects: tuple[int, ...] = (),
        dealer: int | None = None,
        leftover: str = "deal",
        dice: int | None = None,
        accuse_at: str = "anywhere",
        allow_retarget: bool = False,
        edition: str = "classic",
        max_turns: int = 500,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"players={players}: Cluedo is for 3 to 6 players")
        suspects = suspects or tuple(SUSPECTS[:players])
        twice = next((s for s in suspects if suspects.count(s) > 1), None)
        if twice is not None:
            raise OptionError(
                f"suspects: {NAMES[twice]} is named twice (one suspect per seat, each once)"
            )
        if len(suspects) != players:
            raise OptionError(
                f"suspects: {len(suspects)} named for {players} players: name one per seat, or "
                f"set players={len(suspects)}"
            )
        if dealer is None:
            dealer = players - 1
        if not 0 <= dealer < players:
            raise OptionError(f"dealer={dealer}: a seat from 0 to {players - 1}")
        if edition not in EDITIONS:
            raise OptionError(f"edition={edition}: one of {', '.join(EDITIONS)}")
        if leftover not in LEFTOVER or accuse_at not in ACCUSE_AT:
            raise OptionError(f"leftover: {'/'.join(LEFTOVER)}; accuse_at: {'/'.join(ACCUSE_AT)}")
        self.edition: Edition = EDITIONS[edition]
        dice = self.edition.dice if dice is None else dice
        if dice not in (1, 2):
            raise OptionError(f"dice={dice}: 1 or 2")
        if max_turns < 1:
            raise OptionError("max_turns must be at least 1")
        self.players = players
        self.suspects = tuple(suspects)
        """The suspect each seat plays."""
        self.seat_of_suspect = {s: seat for seat, s in enumerate(self.suspects)}
        self.dealer = dealer
        self.leftover = leftover
        self.dice = dice
        self.accuse_at = accuse_at
        self.allow_retarget = allow_retarget
        self.max_turns = max_turns
        self.hand_sizes = hand_sizes(players, dealer, leftover == "face_up")
        self.first_seat = min(range(players), key=lambda seat: self.suspects[seat])
        """The seat that plays first: its suspect comes first in card order (C11)."""

    @property
    def roles(self) -> tuple[str, ...]:
        return ("player",) * self.players

    def options(self) -> dict[str, JSON]:
        return {
            "players": self.players,
            "suspects": ",".join(NAMES[s] for s in self.suspects),
            "dealer": self.dealer,
            "leftover": self.leftover,
            "dice": self.dice,
            "accuse_at": self.accuse_at,
            "allow_retarget": self.allow_retarget,
            "edition": self.edition.name,
            "max_turns": self.max_turns,
        }

    def new_initial_state(self) -> CluedoState:
        return CluedoState(self)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def deal(self, rng: random.Random) -> Deal:
        """Shuffle and deal (C5, C7, C8)."""
        return shuffle_deal(rng, self.hand_sizes, self.dealer)

    def seat_name(self, seat: int) -> str:
        """``seat 2 (Mrs. White)``: a seat and the suspect it plays, in this edition's names."""
        return f"seat {seat} ({self.edition.display[self.suspects[seat]]})"


class CluedoState(State[Action]):
    """A position.  Public attributes are for tests and bots' checks; only the engine changes
    them."""

    __slots__ = (
        "_legal",
        "eliminated",
        "envelope",
        "face_up",
        "game",
        "hands",
        "may_suggest",
        "phase",
        "positions",
        "refuter",
        "roll",
        "suggested",
        "suggestion",
        "summoned",
        "termination_reason",
        "to_move",
        "turn",
        "weapon_rooms",
        "winner",
    )

    def __init__(self, game: CluedoGame) -> None:
        self.game: CluedoGame = game
        self.phase = Phase.DEAL
        self.envelope: tuple[int, ...] = ()
        """Suspect, weapon and room (empty before the deal)."""
        self.hands: list[int] = [0] * game.players
        """Each seat's cards as a bitset."""
        self.face_up: tuple[int, ...] = ()
        self.positions: list[Position] = [AtStart(s) for s in SUSPECTS]
        """Each suspect's token (all six, played or not: C6)."""
        self.weapon_rooms: list[int | None] = [None] * len(WEAPONS)
        """The room each weapon token was last moved to (None: not moved yet, C18)."""
        self.to_move = game.first_seat
        """The seat whose turn it is."""
        self.turn = 0
        """Turns begun (1-based; 0 before the deal)."""
        self.roll: int | None = None
        """This turn's roll, once made."""
        self.may_suggest = False
        """The token entered its room this turn or stayed there after a summons (C17)."""
        self.suggested = False
        """A suggestion was made this turn (C16)."""
        self.summoned = [False] * game.players
        """Moved by another's suggestion since their last turn (C17)."""
        self.eliminated = [False] * game.players
        self.suggestion: tuple[int, int, int] | None = None
        """The suggestion being refuted."""
        self.refuter: int | None = None
        self.winner: int | None = None
        self.termination_reason: str | None = None
        self._legal: tuple[Action, ...] | None = None

    # --- whose turn, what is legal -----------------------------------------------------------

    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.phase in (Phase.DEAL, Phase.DICE):
            return CHANCE
        if self.phase is Phase.REFUTE:
            assert self.refuter is not None
            return self.refuter
        return self.to_move

    def position(self, seat: int) -> Position:
        """Where ``seat``'s token is."""
        return self.positions[self.game.suspects[seat]]

    def legal_actions(self) -> Sequence[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        here = self.position(self.to_move)
        if self.phase is Phase.MOVE:
            moves: list[Action] = [ROLL]
            if isinstance(here, InRoom) and passage(here.room) is not None:
                moves.append(PASSAGE)
            if self.summoned[self.to_move]:
                moves.append(STAY)
            return (*moves, *self._accusations(here))
        if self.phase is Phase.HEAD:
            return tuple(Go(room) for room in self._targets())
        if self.phase is Phase.ACT:
            suggestions: tuple[Action, ...] = ()
            if self.may_suggest and not self.suggested and isinstance(here, InRoom):
                suggestions = SUGGESTIONS[here.room]
            return (*suggestions, *self._accusations(here), END)
        if self.phase is Phase.REFUTE:
            assert self.refuter is not None and self.suggestion is not None
            hand = self.hands[self.refuter]
            return tuple(Show(c) for c in self.suggestion if hand >> c & 1)
        return ()

    def _accusations(self, here: Position) -> tuple[Accuse, ...]:
        if self.game.accuse_at == "anywhere":
            return ACCUSATIONS
        return ACCUSATIONS_IN[here.room] if isinstance(here, InRoom) else ()

    def _targets(self) -> dict[int, Position]:
        """Where this turn's roll can take the token, by the room it heads for."""
        assert self.roll is not None
        return reachable(self.position(self.to_move), self.roll, self.game.allow_retarget)

    def is_legal(self, action: object) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: object) -> str | None:
        if not isinstance(action, Action):
            return f"{action!r} is not a Cluedo action"
        phase = self.phase
        if phase is Phase.OVER:
            return "the game is over"
        if phase is Phase.DEAL:
            if not isinstance(action, Deal):
                return "the cards have not been dealt yet"
            return deal_problem(action, self.game.hand_sizes)
        if isinstance(action, Deal):
            return "the cards were dealt already"
        if phase is Phase.DICE:
            if not isinstance(action, Dice):
                return f"{self._who()} has rolled: the dice decide next"
            totals = [t for t, _ in roll_distribution(self.game.dice)]
            if action.total not in totals:
                dice = "one die" if self.game.dice == 1 else "two dice"
                return f"{dice} cannot show {action.total}"
            return None
        if action in self.legal_actions():
            return None
        return self._why_not(action)

    def _who(self) -> str:
        return self.game.seat_name(self.to_move)

    def _why_not(self, action: object) -> str:
        """Why an action that is not legal now is not (phase MOVE, HEAD, ACT or REFUTE)."""
        if isinstance(action, Dice):
            return "nobody is rolling the dice"
        if self.phase is Phase.REFUTE:
            return self._why_not_show(action)
        if isinstance(action, Show):
            return "no suggestion is waiting for a refutation"
        if self.phase is Phase.HEAD:
            return self._why_not_go(action)
        if isinstance(action, Accuse):
            here = self.position(self.to_move)
            where = f"in the {NAMES[here.room]}" if isinstance(here, InRoom) else "not in a room"
            return f"with accuse_at=in_named_room an accusation names the room one is in ({where})"
        if self.phase is Phase.MOVE:
            return self._why_not_move(action)
        return self._why_not_act(action)

    def _why_not_show(self, action: object) -> str:
        assert self.refuter is not None and self.suggestion is not None
        refuter = self.game.seat_name(self.refuter)
        if not isinstance(action, Show):
            return f"{refuter} must first show one of the suggested cards (C19)"
        if action.card not in self.suggestion:
            named = ", ".join(NAMES[c] for c in self.suggestion)
            return f"{NAMES[action.card]} was not suggested ({named}) (C19)"
        return f"{refuter} does not hold {NAMES[action.card]}"

    def _why_not_go(self, action: object) -> str:
        assert self.roll is not None
        if not isinstance(action, Go):
            return f"{self._who()} rolled {self.roll}: choose where to go first (go ROOM)"
        here = self.position(self.to_move)
        if isinstance(here, InRoom) and action.room == here.room:
            return f"the token may not go back into the {NAMES[here.room]} it leaves (C13)"
        assert isinstance(here, Transit)
        return f"the token is on its way to the {NAMES[here.target]} and may not turn (M4)"

    def _why_not_move(self, action: object) -> str:
        here = self.position(self.to_move)
        if isinstance(action, Passage):
            if not isinstance(here, InRoom):
                return "a secret passage leaves from a room; the token is not in one (C14)"
            return f"the {NAMES[here.room]} has no secret passage (C14)"
        if isinstance(action, Stay):
            return "one may stay only in a room another's suggestion moved one to (C17)"
        if isinstance(action, Go):
            return "roll first (go ROOM follows a roll)"
        return f"{self._who()} moves first: roll, passage or stay (C12)"

    def _why_not_act(self, action: object) -> str:
        if isinstance(action, Roll | Passage | Stay | Go):
            return f"{self._who()} has moved this turn already (C12)"
        assert isinstance(action, Suggest)
        here = self.position(self.to_move)
        if self.suggested:
            return "one suggestion per turn (C16)"
        if not isinstance(here, InRoom):
            return "suggestions are made in a room; the token is not in one (C16)"
        if action.room != here.room:
            return f"a suggestion names the room the token is in, the {NAMES[here.room]} (C16)"
        return (
            "a suggestion is allowed only in a room entered this turn, or stayed in after "
            "another's suggestion moved one there (C17)"
        )

    # --- playing ------------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        if isinstance(action, Deal):
            return self._deal(action)
        if isinstance(action, Roll):
            self.phase = Phase.DICE
            return []
        if isinstance(action, Dice):
            return self._rolled(action.total)
        if isinstance(action, Go):
            return [self._move_to(self._targets()[action.room], self.roll)]
        if isinstance(action, Passage | Stay):
            here = self.position(self.to_move)
            assert isinstance(here, InRoom)
            room = passage(here.room) if isinstance(action, Passage) else here.room
            assert room is not None
            return [self._move_to(InRoom(room), None)]
        if isinstance(action, Suggest):
            return self._suggest(action)
        if isinstance(action, Show):
            return self._show(action.card)
        if isinstance(action, Accuse):
            return self._accuse(action)
        assert isinstance(action, End)
        return self._next_turn()

    def _deal(self, deal: Deal) -> list[Event]:
        game = self.game
        self.envelope = deal.envelope
        self.face_up = deal.face_up
        for seat, hand in enumerate(deal.hands):
            for card in hand:
                self.hands[seat] |= 1 << card
        public = {
            "players": game.players,
            "dealer": game.dealer,
            "hand_sizes": game.hand_sizes,
            "face_up": deal.face_up,
        }
        events = [Event("setup", public)]
        events += [
            Event("hand", {"seat": seat}, {"cards": hand}, frozenset((seat,)))
            for seat, hand in enumerate(deal.hands)
        ]
        self.turn = 1
        self.phase = Phase.MOVE
        return events

    def _rolled(self, total: int) -> list[Event]:
        self.roll = total
        events = [Event("rolled", {"seat": self.to_move, "roll": total})]
        targets = self._targets()
        if len(targets) == 1:
            (position,) = targets.values()
            events.append(self._move_to(position, total))
        else:
            self.phase = Phase.HEAD
        return events

    def _move_to(self, position: Position, roll: int | None) -> Event:
        self.positions[self.game.suspects[self.to_move]] = position
        self.may_suggest = isinstance(position, InRoom)
        self.phase = Phase.ACT
        public = {"seat": self.to_move, "roll": roll, "position": str(position)}
        return Event("moved", public)

    def _suggest(self, action: Suggest) -> list[Event]:
        game = self.game
        suggester = self.to_move
        self.suggested = True
        self.positions[action.suspect] = InRoom(action.room)
        self.weapon_rooms[action.weapon - WEAPONS.start] = action.room
        summoned = game.seat_of_suspect.get(action.suspect)
        if summoned is not None and summoned != suggester:
            self.summoned[summoned] = True
        public = {
            "seat": suggester,
            "suspect": action.suspect,
            "weapon": action.weapon,
            "room": action.room,
        }
        events = [Event("suggested", public)]
        mask = (1 << action.suspect) | (1 << action.weapon) | (1 << action.room)
        for step in range(1, game.players):
            seat = (suggester + step) % game.players
            if self.hands[seat] & mask:
                self.suggestion = action.cards
                self.refuter = seat
                self.phase = Phase.REFUTE
                return events
            events.append(Event("passed", {"seat": seat}))
        events.append(Event("unrefuted", {}))
        return events

    def _show(self, card: int) -> list[Event]:
        refuter = self.refuter
        assert refuter is not None
        audience = frozenset((self.to_move, refuter))
        event = Event("refuted", {"seat": refuter}, {"card": card}, audience)
        self.suggestion = None
        self.refuter = None
        self.phase = Phase.ACT
        return [event]

    def _accuse(self, action: Accuse) -> list[Event]:
        seat = self.to_move
        correct = action.cards == self.envelope
        public = {
            "seat": seat,
            "suspect": action.suspect,
            "weapon": action.weapon,
            "room": action.room,
            "correct": correct,
        }
        events = [Event("accused", public, {"envelope": self.envelope}, frozenset((seat,)))]
        if correct:
            return events + self._end(seat, "solved")
        self.eliminated[seat] = True
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        """End the turn of ``to_move`` (the public ``ended`` event, C12); the next seat
        clockwise still playing begins one, unless the game ends (C23, the turn limit)."""
        game = self.game
        events = [Event("ended", {"seat": self.to_move})]
        self.summoned[self.to_move] = False
        self.roll = None
        self.may_suggest = self.suggested = False
        clockwise = [(self.to_move + step) % game.players for step in range(1, game.players + 1)]
        active = [seat for seat in clockwise if not self.eliminated[seat]]
        if not active:
            return events + self._end(None, "all_wrong")
        if self.turn >= game.max_turns:
            return events + self._end(None, "turn_limit")
        self.to_move = active[0]
        self.turn += 1
        self.phase = Phase.MOVE
        return events

    def _end(self, winner: int | None, reason: str) -> list[Event]:
        self.winner, self.termination_reason = winner, reason
        self.phase = Phase.OVER
        self._legal = ()
        return [Event("game_over", {"winner": winner, "envelope": self.envelope})]

    # --- chance, results, copies -------------------------------------------------------------

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        if self.phase is Phase.DICE:
            return [(Dice(t), p) for t, p in roll_distribution(self.game.dice)]
        raise NotImplementedError("too many deals to list: use sample_chance")

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase is Phase.DEAL:
            return self.game.deal(rng)
        return super().sample_chance(rng)

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> tuple[float, ...]:
        return tuple(1.0 if seat == self.winner else 0.0 for seat in range(self.game.players))

    def winners(self) -> tuple[str, ...]:
        return () if self.winner is None else (self.game.sides()[self.winner],)

    def termination(self) -> str:
        assert self.termination_reason is not None, "the game is not over"
        return self.termination_reason

    def outcome(self) -> str:
        game = self.game
        envelope = ", ".join(game.edition.display[c] for c in self.envelope)
        if self.winner is not None:
            return f"{game.seat_name(self.winner)} solved it on turn {self.turn}: {envelope}"
        if self.termination_reason == "all_wrong":
            return f"nobody won: every accusation was wrong ({envelope})"
        return f"nobody won: turn limit {game.max_turns} reached ({envelope})"

    def clone(self) -> CluedoState:
        other = CluedoState.__new__(CluedoState)
        for name in CluedoState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.positions = list(self.positions)
        other.weapon_rooms = list(self.weapon_rooms)
        other.summoned = list(self.summoned)
        other.eliminated = list(self.eliminated)
        return other

    def __repr__(self) -> str:
        """The whole position for developers (hands and envelope included)."""
        return (
            f"CluedoState(turn={self.turn}, phase={self.phase}, to_move={self.to_move}, "
            f"envelope={self.envelope}, hands={[bin(h) for h in self.hands]}, "
            f"positions={[str(p) for p in self.positions]}, eliminated={self.eliminated}, "
            f"winner={self.winner})"
        )


__all__ = ["ACCUSATIONS", "CluedoGame", "CluedoState", "Phase"]
