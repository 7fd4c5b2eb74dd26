"""Camel Up (rules K1-K30 and E1-E9 of ``docs/camel-up.md``): betting on a camel race.

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
cards: ((seat, camel, amount), ...)} for each pile, which reveals every card.  An observed state
(the assistant's) has the cards it could not see entered as they are turned up instead
(:meth:`CamelState.turn_up`, ``overall_turned_up`` {pile, camels}).

Not implemented: the 2nd edition's partnership cards (E10, optional in the rulebook) and hidden
money (V1 keeps money public by default; it can be computed from the public events anyway).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

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
    DICE,
    GREY_DIE,
    MIRAGE,
    OASIS,
    TRACK_LENGTH,
    Arrangement,
    arrangement,
    crazy_to_move,
    move,
    racing_order,
    stacks,
    tile_blocks,
)

EDITIONS = (1, 2)
TICKETS = {1: (5, 3, 2), 2: (5, 3, 2, 2)}
"""Leg-betting tickets of each camel, top first (K3, E2)."""
OVERALL_LADDER = (8, 5, 3, 2)
"""Right overall cards pay these in pile order, then 1 each (K27); a wrong card costs 1."""
START_MONEY = 3
HIDDEN = -1
"""The camel of another seat's overall card in an observed state (V2)."""
SIDE_VALUE = {"oasis": OASIS, "mirage": MIRAGE}
ALL_RACERS = 0b11111
BITS = tuple(tuple(c for c in range(5) if mask >> c & 1) for mask in range(32))
"""The camels of each 5-bit mask, in increasing order."""
ALL_SPACES = (1 << TRACK_LENGTH) - 1
TILE_SPACES = ALL_SPACES - 1
"""Indices 1..15: a tile never goes on space 1 or past the finish (K9)."""


@dataclass(frozen=True)
class CamelUpGame(Game[CamelAction]):
    """Camel Up with the options of ``docs/camel-up.md`` (defaults: 1st edition, 4 players)."""

    name: ClassVar[str] = "camel-up"
    continues_after_forfeit: ClassVar[bool] = True
    terminations: ClassVar[tuple[str, ...]] = ("race_over", "capped")
    """A camel crossed the finish; ``capped``: it did so after the turn cap forced rolls (T4)."""

    edition: int = 1
    players: int = 4
    money_floor: bool = True
    turn_cap: int = 500
    tile_flip_in_place: bool = False

    racers: tuple[str, ...] = field(init=False, repr=False, compare=False)
    camel_ids: dict[str, int] = field(init=False, repr=False, compare=False)
    tickets: tuple[int, ...] = field(init=False, repr=False, compare=False)
    all_dice: int = field(init=False, repr=False, compare=False)
    leg_actions: tuple[LegBet, ...] = field(init=False, repr=False, compare=False)
    tile_actions: tuple[PlaceTile, ...] = field(init=False, repr=False, compare=False)
    """``tile_actions[2 * index + side]`` with side 0 for oasis, 1 for mirage."""
    bet_actions: tuple[tuple[OverallBet, ...], ...] = field(init=False, repr=False, compare=False)
    die_actions: tuple[tuple[Die, ...], ...] = field(init=False, repr=False, compare=False)
    """``die_actions[die][face]``: faces 0..2 of a racing die, 0..5 of the grey die."""

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise OptionError(f"edition must be 1 or 2, got {self.edition!r}")
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
        # The engine hands out these shared objects instead of building actions on every turn.
        tiles = tuple(PlaceTile(i // 2 + 1, SIDES[i % 2]) for i in range(2 * TRACK_LENGTH))
        object.__setattr__(self, "leg_actions", tuple(LegBet(n) for n in racers))
        object.__setattr__(self, "tile_actions", tiles)
        bets = tuple(tuple(OverallBet(pile, n) for n in racers) for pile in PILES)
        object.__setattr__(self, "bet_actions", bets)
        dice = [tuple(Die(n, v) for v in (1, 2, 3)) for n in racers]
        dice.append(tuple(Die(n, v) for n in CRAZY_NAMES for v in (1, 2, 3)))
        object.__setattr__(self, "die_actions", tuple(dice))

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
        "_legal", "blocked", "capped", "cards", "crazy_finish", "dice", "game", "leg",
        "leg_bets", "money", "occupied", "open_legs", "order", "over", "paid", "piles", "pyramid",
        "rolling", "seat", "taken", "tile_of", "tile_owner", "tiles", "turns",
    )  # fmt: skip

    def __init__(self, game: CamelUpGame) -> None:
        n = game.players
        self.game: CamelUpGame = game
        self.order: Arrangement | None = None
        self.dice = game.all_dice
        self.taken = [0] * 5
        """Leg tickets taken from each camel's stack this leg."""
        self.open_legs = ALL_RACERS
        """Bitmask of the camels that still have a leg ticket this leg."""
        self.occupied = 0
        """Bitmask of the track indices 0..15 with a camel on them."""
        self.leg_bets: list[tuple[int, int, int]] = []
        """(seat, camel, value) of this leg's tickets."""
        self.pyramid = [0] * n
        """Pyramid tickets each seat took this leg."""
        self.tiles: dict[int, int] = {}
        """Track index -> OASIS or MIRAGE."""
        self.tile_owner: dict[int, int] = {}
        self.tile_of = [-1] * n
        """Each seat's tile index, −1 when it is not on the board."""
        self.blocked = 0
        """Bitmask of the indices on or next to a tile (K9's blocks of every tile)."""
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
        self.paid = [False, False]
        """Whether each overall pile has been scored: at the end, or in an observed state once
        no pile holds a hidden card (:meth:`turn_up`, :meth:`reveal_overall`)."""
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

    def termination(self) -> str:
        return "capped" if self.capped else "race_over"

    def outcome(self) -> str:
        ranking = racing_order(self.order or ())
        game = self.game
        text = (
            f"winner {game.camel_name(ranking[-1])}, loser {game.camel_name(ranking[0])}; "
            + "money " + "/".join(map(str, self.money))
        )  # fmt: skip
        return text + (" (capped)" if self.capped else "")

    def __repr__(self) -> str:
        """The whole position for developers: the track by space (stacks bottom to top), the
        dice left in the pyramid, the tiles, the money and the overall bets (all cards)."""
        game = self.game
        track = "not started" if self.order is None else describe_stacks(game, self.order)
        dice = ",".join("grey" if d == GREY_DIE else game.camel_name(d) for d in DICE[self.dice])
        tiles = " ".join(
            f"{index + 1}:{'oasis' if side == OASIS else 'mirage'}"
            for index, side in sorted(self.tiles.items())
        )
        bets = {
            pile: [
                f"{seat}:{'?' if camel == HIDDEN else game.camel_name(camel)}"
                for seat, camel in cards
            ]
            for pile, cards in zip(PILES, self.piles, strict=True)
        }
        seat = self.current_player()
        to_move = {CHANCE: "chance", TERMINAL: "nobody"}.get(seat, f"seat {seat}")
        return (
            f"CamelState(edition={game.edition}, leg={self.leg}, to_move={to_move}, "
            f"track={track!r}, pyramid={dice!r}, tiles={tiles!r}, money={self.money}, "
            f"overall={bets})"
        )

    def clone(self) -> CamelState:
        other = CamelState.__new__(CamelState)
        other.game = self.game
        other.order = self.order
        other.dice = self.dice
        other.taken = self.taken[:]
        other.open_legs = self.open_legs
        other.occupied = self.occupied
        other.blocked = self.blocked
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
        other.paid = self.paid[:]
        other.crazy_finish = self.crazy_finish
        other._legal = self._legal
        return other

    def dice_colours(self) -> list[str]:
        """The colours of the dice still in the pyramid (``grey`` for the grey die)."""
        game = self.game
        return ["grey" if d == GREY_DIE else game.racers[d] for d in range(6) if self.dice >> d & 1]

    def tile_mask(self) -> int:
        """Bitmask of the track indices where the seat to move may put its tile (K9, K10)."""
        own = self.tile_of[self.seat]
        if own < 0:
            return TILE_SPACES & ~self.occupied & ~self.blocked
        blocked = 0
        for index in self.tiles:  # tile_blocks() of the others' tiles, inline: a hot path
            if index != own:
                blocked |= 7 << (index - 1)
        if not self.game.tile_flip_in_place:
            blocked |= 1 << own
        return TILE_SPACES & ~self.occupied & ~blocked

    def tile_actions(self) -> list[PlaceTile]:
        """The tile placements of the seat to move, by index, oasis before mirage."""
        mask = self.tile_mask()
        own = self.tile_of[self.seat]
        table = self.game.tile_actions
        out = []
        while mask:
            index = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            if index == own:  # flipping in place (an option): only the other side
                out.append(table[2 * index + (self.tiles[own] == OASIS)])
            else:
                out += table[2 * index : 2 * index + 2]
        return out

    def leg_bet_camels(self) -> tuple[int, ...]:
        """Camels whose leg-ticket stack is not empty."""
        return BITS[self.open_legs]

    def unused_cards(self) -> tuple[int, ...]:
        """The camels the seat to move has no overall card out on."""
        return BITS[ALL_RACERS & ~self.cards[self.seat]]

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
        actions += [game.leg_actions[c] for c in self.leg_bet_camels()]
        actions += self.tile_actions()
        unused = self.unused_cards()
        for pile in game.bet_actions:
            actions += [pile[c] for c in unused]
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
            return sample_start(game, rng)
        die, face = self.draw_die(rng)
        return game.die_actions[die][face]

    def draw_die(self, rng: random.Random) -> tuple[int, int]:
        """A die from the pyramid and its face (0..2, or 0..5 for the grey die: value
        ``face % 3 + 1``, white below 3): always exactly two random numbers (T7)."""
        dice = DICE[self.dice]
        die = dice[int(rng.random() * len(dice))]
        return die, int(rng.random() * (6 if die == GREY_DIE else 3))

    def is_legal(self, action: object) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: object) -> str | None:
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
        if action.colour in CRAZY_NAMES and game.edition == 2:
            die = GREY_DIE
        elif action.colour in game.racers:
            die = game.racers.index(action.colour)
        else:
            crazy = (
                " and the grey die (" + ", ".join(CRAZY_NAMES) + ")" if game.edition == 2 else ""
            )
            return (
                f"there is no {action.colour} die in the {('1st', '2nd')[game.edition - 1]} "
                f"edition: its dice are {', '.join(game.racers)}{crazy}"
            )
        if action.value not in (1, 2, 3):
            return f"a die shows 1, 2 or 3, not {action.value}"
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
                return (
                    f"seat {self.seat}'s tile is already on space {action.space}: move it elsewhere"
                )
            if SIDE_VALUE[action.side] == self.tiles[own]:
                return (
                    f"seat {self.seat}'s tile already shows {action.side} on space {action.space}"
                )
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

    # -- playing: _apply() plays and reports; the primitives below only play ----------------

    def _apply(self, action: CamelAction) -> list[Event]:
        seat = self.seat
        game = self.game
        if isinstance(action, Start):
            self.start(start_order(game, action))
            return [Event("start", {"stacks": action.stacks})]
        if isinstance(action, Die):
            if action.colour in CRAZY_NAMES and game.edition == 2:
                die, face = GREY_DIE, CRAZY_NAMES.index(action.colour) * 3 + action.value - 1
            else:
                die, face = game.racers.index(action.colour), action.value - 1
            return self._die_events(seat, self.resolve_die(die, face))
        if isinstance(action, Roll):
            self.roll()
            return [Event("roll", {"seat": seat, "forced": False})]
        if isinstance(action, LegBet):
            value = self.take_leg_ticket(game.racer_id(action.camel))
            return [Event("leg_bet", {"seat": seat, "camel": action.camel, "value": value})]
        if isinstance(action, PlaceTile):
            previous = self.put_tile(action.space - 1, SIDE_VALUE[action.side])
            moved_from = previous + 1 if previous >= 0 else None
            public = {"seat": seat, "space": action.space, "side": action.side}
            return [Event("tile", {**public, "moved_from": moved_from})]
        assert isinstance(action, OverallBet)
        pile = PILES.index(action.pile)
        camel = game.racer_id(action.camel)
        position = self.bet(pile, camel)
        public = {"seat": seat, "pile": action.pile, "position": position}
        return [Event("overall_bet", public, {"camel": action.camel}, frozenset((seat,)))]

    def apply_hidden_bet(self, pile: str) -> list[Event]:
        """An observed state (V3): the seat to move bet on ``pile``, camel unseen."""
        if self.current_player() != self.seat or pile not in PILES:
            raise IllegalActionError(f"a hidden {pile} bet is not possible now")
        seat = self.seat
        placed = sum(s == seat for cards in self.piles for s, _ in cards)
        if placed >= len(self.game.racers):
            raise IllegalActionError(
                f"seat {seat} has already placed all {placed} of its overall cards"
            )
        position = self.bet(PILES.index(pile), HIDDEN)
        public = {"seat": seat, "pile": pile, "position": position}
        return [Event("overall_bet", public, None, frozenset((seat,)))]  # as others see it

    def reveal_overall(self, pile: str, cards: Sequence[Sequence[JSON]]) -> None:
        """An observed state at the end: the cards of ``pile`` as revealed, with their
        payouts (``(seat, camel, amount)`` in pile order), replace the hidden ones."""
        placed = self.piles[PILES.index(pile)]
        if len(cards) != len(placed) or any(
            int(seat) != s for (seat, _, _), (s, _) in zip(cards, placed, strict=True)
        ):
            raise IllegalActionError(f"the revealed {pile} pile does not match the bets placed")
        index = PILES.index(pile)
        for i, (seat, name, amount) in enumerate(cards):
            placed[i] = (int(seat), self.game.camel_ids[str(name)])
            if not self.paid[index]:
                self._pay(int(seat), int(amount))
        self.paid[index] = True

    def turn_up(self, pile: str, camels: Sequence[int]) -> list[Event]:
        """An observed state at the end (V3): the camels of ``pile``'s cards, in pile order, as
        they are turned up.  Each must agree with the cards already known, and no seat may
        have two cards on one camel.  Once no pile holds a hidden card, every pile not yet
        scored is scored as K25-K27 score it.  Events: ``overall_turned_up`` {pile, camels},
        then an ``overall_scored`` per pile scored."""
        if not self.over:
            raise IllegalActionError("the overall cards are turned up when the game is over")
        index = PILES.index(pile)
        placed = self.piles[index]
        if not placed:
            raise IllegalActionError(f"the {pile} pile is empty: nobody bet on the {pile}")
        if not any(known == HIDDEN for _, known in placed):
            shown = ", ".join(self.game.camel_name(camel) for _, camel in placed)
            raise IllegalActionError(f"the {pile} pile is known already: {shown}")
        if len(camels) != len(placed):
            raise IllegalActionError(
                f"the {pile} pile holds {len(placed)} cards, not {len(camels)}"
            )
        racers = len(self.game.racers)
        for position, ((owner, known), camel) in enumerate(zip(placed, camels, strict=True), 1):
            if not 0 <= camel < racers:
                raise IllegalActionError(f"no overall card names {self.game.camel_name(camel)}")
            if known not in (HIDDEN, camel):
                name = self.game.camel_name(known)
                raise IllegalActionError(
                    f"card {position} of the {pile} pile is {name}, seat {owner}'s card known "
                    "since it was placed"
                )
        after = [(seat, camel) for (seat, _), camel in zip(placed, camels, strict=True)]
        held = after + [card for k, cards in enumerate(self.piles) if k != index for card in cards]
        twice = next((c for c in held if c[1] != HIDDEN and held.count(c) > 1), None)
        if twice is not None:
            name = self.game.camel_name(twice[1])
            raise IllegalActionError(f"seat {twice[0]} has only one {name} card")
        placed[:] = after
        names = tuple(self.game.camel_name(c) for c in camels)
        events = [Event("overall_turned_up", {"pile": pile, "camels": names})]
        if any(camel == HIDDEN for cards in self.piles for _, camel in cards):
            return events
        for k, (name, cards) in enumerate(zip(PILES, self._score_piles(), strict=True)):
            if not self.paid[k]:
                for seat, _, amount in cards:
                    self._pay(seat, amount)
                self.paid[k] = True
                scored = tuple((s, self.game.camel_name(c), a) for s, c, a in cards)
                events.append(Event("overall_scored", {"pile": name, "cards": scored}))
        return events

    def _die_events(self, seat: int, result: DieResult) -> list[Event]:
        """The events of a resolved die (see the module docstring)."""
        name = self.game.camel_name
        events = []
        if result.forced:
            if result.first_forced:
                events.append(Event("capped", {"turns": self.turns - 1}))
            events.append(Event("roll", {"seat": seat, "forced": True}))
        die = self.game.die_actions[result.die][result.face]
        events.append(
            Event(
                "die",
                {
                    "seat": seat,
                    "colour": die.colour,
                    "value": die.value,
                    "camel": name(result.camel),
                    "from": result.start + 1,
                    "to": result.end + 1,
                    "tile": result.tile + 1 if result.tile >= 0 else None,
                    "owner": result.owner,
                },
            )
        )
        if result.leg is not None:
            first, second, net = result.leg
            public = {"first": name(first), "second": name(second), "payouts": net}
            events.append(Event("leg_scored", {"leg": result.leg_number, **public}))
        if self.over:
            ranking = racing_order(self.order or ())
            public = {"winner": name(ranking[-1]), "loser": name(ranking[0])}
            events.append(Event("game_over", {**public, "crazy": self.crazy_finish}))
            for pile, cards in zip(PILES, result.overall, strict=False):
                scored = tuple((seat, name(camel), amount) for seat, camel, amount in cards)
                events.append(Event("overall_scored", {"pile": pile, "cards": scored}))
        return events

    def start(self, order: Arrangement) -> None:
        """Primitive (unchecked, no events): the camels take their starting places."""
        self._legal = None
        self.order = order
        self.occupied = occupied_mask(order)

    def roll(self) -> None:
        """Primitive: the seat to move takes a pyramid ticket; the die is due (K12)."""
        self._legal = None
        self.turns += 1
        self.rolling = True
        self.pyramid[self.seat] += 1

    def take_leg_ticket(self, camel: int) -> int:
        """Primitive: the seat to move takes ``camel``'s top leg ticket; returns its value."""
        self._legal = None
        tickets = self.game.tickets
        value = tickets[self.taken[camel]]
        self.taken[camel] += 1
        if self.taken[camel] == len(tickets):
            self.open_legs &= ~(1 << camel)
        self.leg_bets.append((self.seat, camel, value))
        self.turns += 1
        self.seat = (self.seat + 1) % self.game.players
        return value

    def put_tile(self, index: int, side: int) -> int:
        """Primitive: the seat to move puts its tile on ``index``; returns where it was (−1)."""
        self._legal = None
        seat = self.seat
        own = self.tile_of[seat]
        if own >= 0:
            del self.tiles[own]
            del self.tile_owner[own]
        self.tiles[index] = side
        self.tile_owner[index] = seat
        self.tile_of[seat] = index
        self.blocked = tile_blocks(self.tiles)
        self.turns += 1
        self.seat = (self.seat + 1) % self.game.players
        return own

    def bet(self, pile: int, camel: int) -> int:
        """Primitive: the seat to move puts its ``camel`` card (or :data:`HIDDEN`) on ``pile``
        (0 winner, 1 loser); returns its position in the pile, from 1."""
        self._legal = None
        cards = self.piles[pile]
        cards.append((self.seat, camel))
        if camel != HIDDEN:
            self.cards[self.seat] |= 1 << camel
        self.turns += 1
        self.seat = (self.seat + 1) % self.game.players
        return len(cards)

    def resolve_die(self, die: int, face: int) -> DieResult:
        """Primitive: ``die`` came out of the pyramid showing ``face`` (see :meth:`draw_die`).

        Moves the camel (E5 picks the crazy camel for the grey die), pays a tile's owner, passes
        the turn, and scores the leg or the game when they end.  When no roll is pending the
        turn cap has been reached and this is the seat's forced roll (T4)."""
        self._legal = None
        game = self.game
        order = self.order
        assert order is not None
        forced = not self.rolling
        first_forced = forced and not self.capped
        if forced:
            self.roll()
            self.capped = True
        self.rolling = False
        if die == GREY_DIE:
            camel = crazy_to_move(order, 5 + face // 3)
            steps = face % 3 + 1
        else:
            camel = die
            steps = face + 1
        landing = move(order, camel, steps, self.tiles)
        self.order = landing.arrangement
        self.occupied = occupied_mask(landing.arrangement)
        self.dice &= ~(1 << die)
        owner = None
        if landing.tile >= 0:
            owner = self.tile_owner[landing.tile]
            self.money[owner] += 1
        start, end = landing.start, landing.end
        self.seat = (self.seat + 1) % game.players
        leg = None
        leg_number = self.leg
        overall: tuple[list[tuple[int, int, int]], ...] = ()
        if landing.finished:
            self.crazy_finish = end < 0
            leg = self._score_leg()
            overall = self._end_game()
        elif self._leg_over():
            leg = self._score_leg()
            self._reset_leg()
        return DieResult(
            die, face, camel, start, end, landing.tile, owner, forced, first_forced, leg,
            leg_number, overall,
        )  # fmt: skip

    def _leg_over(self) -> bool:
        """K21 and E7: the pyramid is empty (1st edition) or holds one die (2nd edition)."""
        dice = self.dice
        return dice & (dice - 1) == 0 if self.game.edition == 2 else dice == 0

    def _pay(self, seat: int, amount: int) -> None:
        money = self.money[seat] + amount
        self.money[seat] = max(0, money) if self.game.money_floor else money

    def _score_leg(self) -> tuple[int, int, tuple[int, ...]]:
        """K22 leg scoring: one net sum per seat, floored as a whole (K29)."""
        assert self.order is not None
        ranking = racing_order(self.order)
        first, second = ranking[-1], ranking[-2]
        net = self.pyramid[:]
        for seat, camel, value in self.leg_bets:
            net[seat] += value if camel == first else 1 if camel == second else -1
        for seat, amount in enumerate(net):
            self._pay(seat, amount)
        return first, second, tuple(net)

    def _reset_leg(self) -> None:
        """K23: tickets, pyramid tickets, desert tiles and dice go back."""
        self.dice = self.game.all_dice
        self.taken = [0] * 5
        self.open_legs = ALL_RACERS
        self.leg_bets = []
        self.pyramid = [0] * self.game.players
        self.tiles = {}
        self.tile_owner = {}
        self.tile_of = [-1] * self.game.players
        self.blocked = 0
        self.leg += 1

    def _end_game(self) -> tuple[list[tuple[int, int, int]], ...]:
        """K25-K27: the game is over; score the winner pile, then the loser pile, card by card.

        Returns each pile's ``(seat, camel, amount)``; nothing in an observed state whose
        piles still hold hidden cards (the reveal scores them, :meth:`reveal_overall`)."""
        self.over = True
        if any(camel == HIDDEN for pile in self.piles for _, camel in pile):
            return ()
        scored = self._score_piles()
        for cards in scored:
            for seat, _, amount in cards:
                self._pay(seat, amount)
        self.paid = [True, True]
        return scored

    def _score_piles(self) -> tuple[list[tuple[int, int, int]], ...]:
        """K26-K27: each pile's ``(seat, camel, amount)`` in pile order (nothing is paid)."""
        assert self.order is not None
        ranking = racing_order(self.order)
        scored = []
        for pile, right in zip(self.piles, (ranking[-1], ranking[0]), strict=True):
            cards = []
            rank = 0
            for seat, camel in pile:
                if camel == right:
                    amount = OVERALL_LADDER[rank] if rank < len(OVERALL_LADDER) else 1
                    rank += 1
                else:
                    amount = -1
                cards.append((seat, camel, amount))
            scored.append(cards)
        return tuple(scored)


class DieResult(NamedTuple):
    """What one die did: the camel moved from index ``start`` to ``end`` (−1 or ≥ 16 when it
    finished), the tile index hit (−1) and its owner, whether the roll was forced (T4), the leg
    scoring ``(first, second, net payouts)`` if the leg or game ended, and the overall cards
    ``(seat, camel, amount)`` of each pile if the game ended."""

    die: int
    face: int
    camel: int
    start: int
    end: int
    tile: int
    owner: int | None
    forced: bool
    first_forced: bool
    leg: tuple[int, int, tuple[int, ...]] | None
    leg_number: int
    overall: tuple[list[tuple[int, int, int]], ...]


def sample_start(game: CamelUpGame, rng: random.Random) -> Start:
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


def occupied_mask(order: Arrangement) -> int:
    """Bitmask of the track indices 0..15 that hold a camel."""
    mask = 0
    for code in order:
        mask |= 1 << (code >> 3) if code >= 0 else 0
    return mask & ALL_SPACES


def start_order(game: CamelUpGame, action: Start) -> Arrangement:
    """The arrangement a (legal) start action sets up."""
    return arrangement({s - 1: [game.camel_ids[n] for n in names] for s, names in action.stacks})


def _start_problem(game: CamelUpGame, action: Start) -> str | None:
    """Why ``action`` is not a possible start (K5, E3), or None."""
    names = [n for _, stack in action.stacks for n in stack]
    unknown = next((n for n in names if n not in game.camel_ids), None)
    twice = next((n for n in names if names.count(n) > 1), None)
    missing = [n for n in game.camel_ids if n not in names]
    culprit = None
    if unknown is not None:
        culprit = f"{unknown!r} is not a camel of this edition"
    elif twice is not None:
        culprit = f"{twice} is placed twice"
    elif missing:
        culprit = f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing"
    if culprit is not None:
        return f"{culprit}: the start must place each of {', '.join(game.camel_ids)} exactly once"
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
    """``4:[blue] 5:[green,orange]``: the arrangement as printed spaces, stacks bottom to top;
    a stack past the finish line is ``finish+N`` (N spaces past space 16), one carried back
    before the start by a crazy camel ``start-N`` (N spaces before space 1)."""
    return " ".join(
        f"{_space_name(index)}:[{','.join(game.camel_name(c) for c in camels)}]"
        for index, camels in stacks(order).items()
    )


def _space_name(index: int) -> str:
    """The printed name of track index ``index`` (0 is space 1)."""
    if index >= TRACK_LENGTH:
        return f"finish+{index - TRACK_LENGTH + 1}"
    if index < 0:
        return f"start{index}"
    return str(index + 1)
