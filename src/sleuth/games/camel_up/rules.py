"""Camel Up (rules K1-K30 and E1-E9 of ``shared/rules/camel-up.md``): betting on a camel race.

Seats ``0 .. players-1`` all have the role ``player``; seat 0 starts (K6).  The game starts with
a chance ``start`` action (K5, E3).  On a turn the seat to move takes one action: ``roll``,
``leg <camel>``, ``tile <space> <side>`` or ``winner|loser <camel>``.  A roll is followed by a
chance ``die <colour> <value>`` that moves a camel (track.move).  Once the turn cap is reached
every later turn is a forced roll played by chance (T4), so the bots are no longer asked.

Chance is *scripted by leg* (T7): :meth:`CamelState.sample_chance` uses exactly two random
numbers per roll (which die, which face), so the i-th roll of leg L gets the same numbers in
every game played with the same seed, whoever rolls and whatever the players did before.

Events (all public except the camel of an overall bet, private to its bettor until the end):
``start`` {stacks}; ``roll`` {seat, forced}; ``die`` {seat, colour, value, camel, from, to,
tile, owner} with spaces as printed; ``leg_bet`` {seat, camel, value}; ``tile`` {seat, space,
side, moved_from}; ``overall_bet`` {seat, pile, position} + private {camel}; ``leg_scored``
{leg, first, second, payouts}; ``game_over`` {winner, loser, crazy}; ``overall_scored`` {pile,
cards: ((seat, camel, amount), ...)} for each pile, which reveals every card.

Not implemented: the 2nd edition's partnership cards (E10, optional in the rulebook) and hidden
money (V1 keeps money public by default; it can be computed from the public events anyway).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from sleuth.core.errors import IllegalActionError, OptionError
from sleuth.core.events import JSON, Event
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.games.camel_up.actions import (
    CRAZY_NAMES,
    PILES,
    RACERS,
    ROLL,
    SIDES,
    CamelAction,
    Die,
    LegBet,
    OverallBet,
    PlaceTile,
    Roll,
    Start,
    parse_action,
)
from sleuth.games.camel_up.track import (
    MIRAGE,
    OASIS,
    TRACK_LENGTH,
    Arrangement,
    arrangement,
    crazy_to_move,
    move,
    racing_order,
    stacks,
)

EDITIONS = (1, 2)
TICKETS = {1: (5, 3, 2), 2: (5, 3, 2, 2)}
"""Leg-betting tickets of each camel, top first (K3, E2)."""
OVERALL_LADDER = (8, 5, 3, 2)
"""Right overall cards pay these in pile order, then 1 each (K27); a wrong card costs 1."""
START_MONEY = 3
GREY_DIE = 5
"""The grey die's bit in the pyramid mask (racing dice are bits 0..4)."""
HIDDEN = -1
"""The camel of another seat's overall card in an observed state (V2)."""
SIDE_VALUE = {"oasis": OASIS, "mirage": MIRAGE}


@dataclass(frozen=True)
class CamelUpGame(Game[CamelAction]):
    """Camel Up with the options of the rules document (defaults: 1st edition, 4 players)."""

    name: ClassVar[str] = "camel-up"
    continues_after_forfeit: ClassVar[bool] = True

    edition: int = 1
    players: int = 4
    money_floor: bool = True
    turn_cap: int = 500
    tile_flip_in_place: bool = False

    racers: tuple[str, ...] = field(init=False, repr=False, compare=False)
    camel_ids: dict[str, int] = field(init=False, repr=False, compare=False)
    tickets: tuple[int, ...] = field(init=False, repr=False, compare=False)
    all_dice: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise OptionError(f"edition must be 1 or 2, got {self.edition}")
        low = 2 if self.edition == 1 else 3
        if not low <= self.players <= 8:
            raise OptionError(f"edition {self.edition} is for {low}-8 players, got {self.players}")
        if self.turn_cap < 1:
            raise OptionError("turn_cap must be at least 1")
        racers = RACERS[self.edition]
        names = racers + (CRAZY_NAMES if self.edition == 2 else ())
        object.__setattr__(self, "racers", racers)
        object.__setattr__(self, "camel_ids", {n: i for i, n in enumerate(names)})
        object.__setattr__(self, "tickets", TICKETS[self.edition])
        object.__setattr__(self, "all_dice", 0b111111 if self.edition == 2 else 0b11111)

    @property
    def roles(self) -> tuple[str, ...]:
        return ("player",) * self.players

    def options(self) -> dict[str, JSON]:
        return {
            "edition": self.edition,
            "players": self.players,
            "money_floor": self.money_floor,
            "turn_cap": self.turn_cap,
            "tile_flip_in_place": self.tile_flip_in_place,
        }

    def new_initial_state(self) -> CamelState:
        return CamelState(self)

    def parse_action(self, text: str) -> CamelAction:
        return parse_action(text)

    def camel_name(self, camel: int) -> str:
        return self.racers[camel] if camel < 5 else CRAZY_NAMES[camel - 5]

    def racer_id(self, name: str) -> int:
        """The id of the racing camel called ``name``; a clear error for anything else."""
        camel = self.camel_ids.get(name, -1)
        if not 0 <= camel < 5:
            crazy = " (a crazy camel: no bets on it)" if camel >= 5 else ""
            raise IllegalActionError(
                f"{name!r} is not a racing camel{crazy}; racing camels: {', '.join(self.racers)}"
            )
        return camel


class CamelState(State[CamelAction]):
    """A position.  ``order`` is the track arrangement (``None`` before the start), ``dice`` the
    pyramid as a bitmask, ``piles`` the winner and loser piles as ``[(seat, camel), ...]``."""

    __slots__ = (
        "_legal", "capped", "cards", "crazy_finish", "dice", "game", "leg", "leg_bets", "money",
        "order", "over", "piles", "pyramid", "rolling", "seat", "taken", "tile_of",
        "tile_owner", "tiles", "turns",
    )  # fmt: skip

    def __init__(self, game: CamelUpGame) -> None:
        n = game.players
        self.game: CamelUpGame = game
        self.order: Arrangement | None = None
        self.dice = game.all_dice
        self.taken = [0] * 5
        """Leg tickets taken from each camel's stack this leg."""
        self.leg_bets: list[tuple[int, int, int]] = []
        """(seat, camel, value) of this leg's tickets."""
        self.pyramid = [0] * n
        """Pyramid tickets each seat took this leg."""
        self.tiles: dict[int, int] = {}
        """Track index -> OASIS or MIRAGE."""
        self.tile_owner: dict[int, int] = {}
        self.tile_of = [-1] * n
        """Each seat's tile index, −1 when it is not on the board."""
        self.money = [START_MONEY] * n
        self.cards = [0] * n
        """Bitmask of the camels each seat has bet on (unknown for others in observed states)."""
        self.piles: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self.seat = 0
        self.rolling = False
        self.turns = 0
        self.capped = False
        self.leg = 1
        self.over = False
        self.crazy_finish = False
        self._legal: tuple[CamelAction, ...] | None = None

    # -- queries -----------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.order is None or self.rolling or self.turns >= self.game.turn_cap:
            return CHANCE
        return self.seat

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> tuple[float, ...]:
        return tuple(float(m) for m in self.money)

    def outcome(self) -> str:
        ranking = racing_order(self.order or ())
        game = self.game
        text = (
            f"winner {game.camel_name(ranking[-1])}, loser {game.camel_name(ranking[0])}; "
            + "money " + "/".join(map(str, self.money))
        )  # fmt: skip
        return text + (" (capped)" if self.capped else "")

    def clone(self) -> CamelState:
        other = CamelState.__new__(CamelState)
        other.game = self.game
        other.order = self.order
        other.dice = self.dice
        other.taken = self.taken[:]
        other.leg_bets = self.leg_bets[:]
        other.pyramid = self.pyramid[:]
        other.tiles = dict(self.tiles)
        other.tile_owner = dict(self.tile_owner)
        other.tile_of = self.tile_of[:]
        other.money = self.money[:]
        other.cards = self.cards[:]
        other.piles = (self.piles[0][:], self.piles[1][:])
        other.seat = self.seat
        other.rolling = self.rolling
        other.turns = self.turns
        other.capped = self.capped
        other.leg = self.leg
        other.over = self.over
        other.crazy_finish = self.crazy_finish
        other._legal = self._legal
        return other

    def dice_colours(self) -> list[str]:
        """The colours of the dice still in the pyramid (``grey`` for the grey die)."""
        game = self.game
        return ["grey" if d == GREY_DIE else game.racers[d] for d in range(6) if self.dice >> d & 1]

    def tile_indices(self) -> list[int]:
        """Track indices where the seat to move may put its desert tile (K9, K10)."""
        order = self.order or ()
        occupied = {code >> 3 for code in order}
        own = self.tile_of[self.seat]
        others = [i for i in self.tiles if i != own]
        out = []
        for index in range(1, TRACK_LENGTH):
            if index in occupied or any(abs(index - t) <= 1 for t in others):
                continue
            if index == own and not self.game.tile_flip_in_place:
                continue
            out.append(index)
        return out

    def legal_actions(self) -> Sequence[CamelAction]:
        if self._legal is None:
            self._legal = self._list_legal()
        return self._legal

    def _list_legal(self) -> tuple[CamelAction, ...]:
        player = self.current_player()
        if player == TERMINAL or self.order is None:
            return ()
        if player == CHANCE:
            return tuple(action for action, _ in self.chance_outcomes())
        game = self.game
        actions: list[CamelAction] = [ROLL]
        tickets = len(game.tickets)
        actions += [LegBet(game.racers[c]) for c in range(5) if self.taken[c] < tickets]
        own = self.tile_of[self.seat]
        for index in self.tile_indices():
            for side in SIDES:
                if index != own or SIDE_VALUE[side] != self.tiles[own]:
                    actions.append(PlaceTile(index + 1, side))
        used = self.cards[self.seat]
        for pile in PILES:
            actions += [OverallBet(pile, game.racers[c]) for c in range(5) if not used >> c & 1]
        return tuple(actions)

    def chance_outcomes(self) -> Sequence[tuple[CamelAction, float]]:
        if self.order is None:
            raise NotImplementedError("the start has too many outcomes to list; sample it")
        dice = [d for d in range(6) if self.dice >> d & 1]
        out: list[tuple[CamelAction, float]] = []
        for d in dice:
            if d == GREY_DIE:
                for colour in CRAZY_NAMES:
                    out += [(Die(colour, v), 1 / (6 * len(dice))) for v in (1, 2, 3)]
            else:
                out += [(Die(self.game.racers[d], v), 1 / (3 * len(dice))) for v in (1, 2, 3)]
        return out

    def sample_chance(self, rng: random.Random) -> CamelAction:
        """The next chance outcome; a roll always uses two random numbers (see the docstring)."""
        game = self.game
        if self.order is None:
            return _sample_start(game, rng)
        dice = [d for d in range(6) if self.dice >> d & 1]
        die = dice[int(rng.random() * len(dice))]
        face = int(rng.random() * (6 if die == GREY_DIE else 3))
        if die == GREY_DIE:
            return Die(CRAZY_NAMES[face // 3], face % 3 + 1)
        return Die(game.racers[die], face + 1)

    def is_legal(self, action: object) -> bool:
        return self._illegal_reason(action) is None

    def _illegal_reason(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over"
        if isinstance(action, Start | Die):
            if player != CHANCE:
                return f"it is seat {player}'s turn, not chance's"
            if isinstance(action, Start):
                return _start_problem(self.game, action) if self.order is None else "started"
            if self.order is None:
                return "the camels have not been placed yet"
            return self._die_problem(action)
        if player == CHANCE:
            return "a chance outcome is due (the die, the start or a forced roll)"
        if isinstance(action, Roll):
            return None
        if isinstance(action, LegBet):
            return self._leg_bet_problem(action)
        if isinstance(action, PlaceTile):
            return self._tile_problem(action)
        if isinstance(action, OverallBet):
            return self._overall_problem(action)
        return f"{action!r} is not a Camel Up action"

    def _die_problem(self, action: Die) -> str | None:
        game = self.game
        if action.value not in (1, 2, 3):
            return f"a die shows 1, 2 or 3, not {action.value}"
        if action.colour in CRAZY_NAMES and game.edition == 2:
            die = GREY_DIE
        elif action.colour in game.racers:
            die = game.racers.index(action.colour)
        else:
            return f"there is no {action.colour} die"
        if not self.dice >> die & 1:
            name = "the grey" if die == GREY_DIE else f"the {action.colour}"
            return f"{name} die has already left the pyramid this leg"
        return None

    def _leg_bet_problem(self, action: LegBet) -> str | None:
        try:
            camel = self.game.racer_id(action.camel)
        except IllegalActionError as exc:
            return str(exc)
        if self.taken[camel] >= len(self.game.tickets):
            return f"no {action.camel} leg ticket is left this leg"
        return None

    def _tile_problem(self, action: PlaceTile) -> str | None:
        if action.side not in SIDES:
            return f"a tile side is oasis or mirage, not {action.side!r}"
        index = action.space - 1
        if not 1 <= index < TRACK_LENGTH:
            return f"a desert tile goes on spaces 2-16, not {action.space}"
        own = self.tile_of[self.seat]
        if index in self.tiles and index != own:
            return f"space {action.space} already has a tile"
        if any(code >> 3 == index for code in self.order or ()):
            return f"space {action.space} has a camel on it"
        if any(abs(index - t) == 1 for t in self.tiles if t != own):
            return f"space {action.space} is next to another tile"
        if index == own:
            if not self.game.tile_flip_in_place:
                return f"your tile is already on space {action.space}: move it elsewhere"
            if SIDE_VALUE[action.side] == self.tiles[own]:
                return f"your tile already shows {action.side} on space {action.space}"
        return None

    def _overall_problem(self, action: OverallBet) -> str | None:
        if action.pile not in PILES:
            return f"the piles are winner and loser, not {action.pile!r}"
        try:
            camel = self.game.racer_id(action.camel)
        except IllegalActionError as exc:
            return str(exc)
        if self.cards[self.seat] >> camel & 1:
            return f"seat {self.seat} has already played its {action.camel} card"
        return None

    # -- playing -----------------------------------------------------------------------------

    def apply(self, action: CamelAction) -> list[Event]:
        problem = self._illegal_reason(action)
        if problem is not None:
            raise IllegalActionError(f"{action}: {problem}")
        self._legal = None
        seat = self.seat
        if isinstance(action, Start):
            return self._start(action)
        if isinstance(action, Die):
            return self._roll_die(action)
        self.turns += 1
        if isinstance(action, Roll):
            self.rolling = True
            self.pyramid[seat] += 1
            return [Event("roll", {"seat": seat, "forced": False})]
        self.seat = (seat + 1) % self.game.players
        if isinstance(action, LegBet):
            camel = self.game.racer_id(action.camel)
            value = self.game.tickets[self.taken[camel]]
            self.taken[camel] += 1
            self.leg_bets.append((seat, camel, value))
            return [Event("leg_bet", {"seat": seat, "camel": action.camel, "value": value})]
        if isinstance(action, PlaceTile):
            return [self._place_tile(seat, action)]
        assert isinstance(action, OverallBet)
        return [self._bet_overall(seat, action.pile, self.game.racer_id(action.camel))]

    def apply_hidden_bet(self, pile: str) -> list[Event]:
        """An observed state (V3): the seat to move bet on ``pile``, camel unseen."""
        if self.current_player() != self.seat or pile not in PILES:
            raise IllegalActionError(f"a hidden {pile} bet is not possible now")
        self._legal = None
        self.turns += 1
        seat = self.seat
        self.seat = (seat + 1) % self.game.players
        return [self._bet_overall(seat, pile, HIDDEN)]

    def reveal_overall(self, pile: str, cards: Sequence[Sequence[JSON]]) -> None:
        """An observed state at the end: the cards of ``pile`` as revealed, with their
        payouts (``(seat, camel, amount)`` in pile order), replace the hidden ones."""
        index = PILES.index(pile)
        placed = self.piles[index]
        if len(cards) != len(placed) or any(
            int(seat) != s for (seat, _, _), (s, _) in zip(cards, placed, strict=True)
        ):
            raise IllegalActionError(f"the revealed {pile} pile does not match the bets placed")
        unscored = any(camel == HIDDEN for _, camel in placed)
        for i, (seat, name, amount) in enumerate(cards):
            placed[i] = (int(seat), self.game.camel_ids[str(name)])
            if unscored:
                self._pay(int(seat), int(amount))

    def _start(self, action: Start) -> list[Event]:
        game = self.game
        self.order = arrangement(
            {space - 1: [game.camel_ids[n] for n in names] for space, names in action.stacks}
        )
        return [Event("start", {"stacks": action.stacks})]

    def _place_tile(self, seat: int, action: PlaceTile) -> Event:
        index = action.space - 1
        own = self.tile_of[seat]
        if own >= 0:
            del self.tiles[own]
            del self.tile_owner[own]
        self.tiles[index] = SIDE_VALUE[action.side]
        self.tile_owner[index] = seat
        self.tile_of[seat] = index
        moved_from = own + 1 if own >= 0 else None
        return Event(
            "tile",
            {"seat": seat, "space": action.space, "side": action.side, "moved_from": moved_from},
        )

    def _bet_overall(self, seat: int, pile: str, camel: int) -> Event:
        """Put ``seat``'s card on ``pile`` (``camel`` is :data:`HIDDEN` in observed states)."""
        cards = self.piles[PILES.index(pile)]
        cards.append((seat, camel))
        public = {"seat": seat, "pile": pile, "position": len(cards)}
        if camel == HIDDEN:
            return Event("overall_bet", public)
        self.cards[seat] |= 1 << camel
        return Event(
            "overall_bet", public, {"camel": self.game.camel_name(camel)}, frozenset((seat,))
        )

    def _roll_die(self, action: Die) -> list[Event]:
        game = self.game
        order = self.order
        assert order is not None
        events = []
        seat = self.seat
        if not self.rolling:  # a forced roll after the turn cap (T4)
            self.turns += 1
            self.pyramid[seat] += 1
            if not self.capped:
                self.capped = True
                events.append(Event("capped", {"turns": self.turns - 1}))
            events.append(Event("roll", {"seat": seat, "forced": True}))
        self.rolling = False
        if action.colour in CRAZY_NAMES and game.edition == 2:
            die = GREY_DIE
            camel = crazy_to_move(order, game.camel_ids[action.colour])
        else:
            die = camel = game.racers.index(action.colour)
        start = next(code >> 3 for code in order if code & 7 == camel)
        landing = move(order, camel, action.value, self.tiles)
        self.order = landing.arrangement
        self.dice &= ~(1 << die)
        owner = None
        if landing.tile >= 0:
            owner = self.tile_owner[landing.tile]
            self.money[owner] += 1
        end = next(code >> 3 for code in landing.arrangement if code & 7 == camel)
        events.append(
            Event(
                "die",
                {
                    "seat": seat,
                    "colour": action.colour,
                    "value": action.value,
                    "camel": game.camel_name(camel),
                    "from": start + 1,
                    "to": end + 1,
                    "tile": landing.tile + 1 if landing.tile >= 0 else None,
                    "owner": owner,
                },
            )
        )
        self.seat = (seat + 1) % game.players
        if landing.finished:
            self.crazy_finish = end < 0
            events.append(self._score_leg())
            events += self._end_game()
        elif self._leg_over():
            events.append(self._score_leg())
            self._reset_leg()
        return events

    def _leg_over(self) -> bool:
        """K21 and E7: the pyramid is empty (1st edition) or holds one die (2nd edition)."""
        left = bin(self.dice).count("1")
        return left == (1 if self.game.edition == 2 else 0)

    def _pay(self, seat: int, amount: int) -> None:
        money = self.money[seat] + amount
        self.money[seat] = max(0, money) if self.game.money_floor else money

    def _score_leg(self) -> Event:
        """K22 leg scoring: one net sum per seat, floored as a whole (K29)."""
        assert self.order is not None
        ranking = racing_order(self.order)
        first, second = ranking[-1], ranking[-2]
        net = self.pyramid[:]
        for seat, camel, value in self.leg_bets:
            net[seat] += value if camel == first else 1 if camel == second else -1
        for seat, amount in enumerate(net):
            self._pay(seat, amount)
        name = self.game.camel_name
        return Event(
            "leg_scored",
            {"leg": self.leg, "first": name(first), "second": name(second), "payouts": tuple(net)},
        )

    def _reset_leg(self) -> None:
        """K23: tickets, pyramid tickets, desert tiles and dice go back."""
        self.dice = self.game.all_dice
        self.taken = [0] * 5
        self.leg_bets = []
        self.pyramid = [0] * self.game.players
        self.tiles = {}
        self.tile_owner = {}
        self.tile_of = [-1] * self.game.players
        self.leg += 1

    def _end_game(self) -> list[Event]:
        """K25-K27: the game is over; score the overall piles, winner pile first."""
        assert self.order is not None
        self.over = True
        ranking = racing_order(self.order)
        name = self.game.camel_name
        events = [
            Event(
                "game_over",
                {
                    "winner": name(ranking[-1]),
                    "loser": name(ranking[0]),
                    "crazy": self.crazy_finish,
                },
            )
        ]
        if any(camel == HIDDEN for pile in self.piles for _, camel in pile):
            return events  # an observed state: the reveal comes with the next events
        for pile, right in zip(PILES, (ranking[-1], ranking[0]), strict=True):
            cards = []
            rank = 0
            for seat, camel in self.piles[PILES.index(pile)]:
                if camel == right:
                    amount = OVERALL_LADDER[rank] if rank < len(OVERALL_LADDER) else 1
                    rank += 1
                else:
                    amount = -1
                self._pay(seat, amount)
                cards.append((seat, name(camel), amount))
            events.append(Event("overall_scored", {"pile": pile, "cards": tuple(cards)}))
        return events


def _sample_start(game: CamelUpGame, rng: random.Random) -> Start:
    """K5 and E3: each racing camel on the space its die shows, stacked in random order; then
    a random crazy camel on space 16, 15 or 14 by a d3, then the other (on top if equal)."""
    spaces = {}
    for camel in range(5):
        spaces[camel] = 1 + int(rng.random() * 3)
    placing = list(range(5))
    rng.shuffle(placing)
    piles: dict[int, list[str]] = {}
    for camel in placing:
        piles.setdefault(spaces[camel], []).append(game.racers[camel])
    if game.edition == 2:
        crazy = list(CRAZY_NAMES)
        if rng.random() < 0.5:
            crazy.reverse()
        for name in crazy:
            piles.setdefault(17 - (1 + int(rng.random() * 3)), []).append(name)
    return Start(tuple((space, tuple(names)) for space, names in sorted(piles.items())))


def _start_problem(game: CamelUpGame, action: Start) -> str | None:
    """Why ``action`` is not a possible start (K5, E3), or None."""
    names = [n for _, stack in action.stacks for n in stack]
    expected = set(game.camel_ids)
    if len(names) != len(set(names)) or set(names) != expected:
        return f"the start must place each of {', '.join(game.camel_ids)} exactly once"
    spaces = [space for space, _ in action.stacks]
    if spaces != sorted(set(spaces)):
        return "the start lists each space once, in increasing order"
    for space, stack in action.stacks:
        for n in stack:
            racing = game.camel_ids[n] < 5
            allowed = (1, 2, 3) if racing else (14, 15, 16)
            if space not in allowed:
                kind = "racing" if racing else "crazy"
                return f"a {kind} camel starts on space {allowed[0]}-{allowed[-1]}, not {space}"
    return None


def describe_stacks(game: CamelUpGame, order: Arrangement) -> str:
    """``4:[blue] 5:[green,orange]``: the arrangement as printed spaces, stacks bottom to top."""
    return " ".join(
        f"{index + 1}:[{','.join(game.camel_name(c) for c in camels)}]"
        for index, camels in stacks(order).items()
    )
