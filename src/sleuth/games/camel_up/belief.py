"""Camel Up's belief: a seat's picture of the table, rebuilt from its view, and what other
players' hidden overall cards name.

The table (V3: a fresh, masked copy of the state).  :class:`TableTracker` replays the events a
seat has seen through the rules engine itself, so the observed
:class:`~sleuth.games.camel_up.rules.CamelState` has every public fact (camels, dice, tickets,
tiles, money, who bet on which pile in which order) and the seat's own overall cards, while
other seats' cards read :data:`~sleuth.games.camel_up.rules.HIDDEN` until the reveal at the end.
It holds no random generator and no scripted dice, and changing it changes nothing in the game.
Because the engine checks each replayed action, a view that is not a possible game raises
:class:`~sleuth.core.errors.ContradictionError` naming the event.  :class:`CamelBelief` gives
both the core's belief protocol (:mod:`sleuth.core.belief`).

The hidden cards.  A player puts an overall card down when that card looks good *at that
moment*, so the race odds just before a hidden card was placed say a lot about it.
:class:`InferringTracker` is a :class:`TableTracker` that, before replaying another player's
hidden card, computes the expected payout of each camel's card for that player on that pile at
that moment (:func:`~sleuth.games.camel_up.advice.card_value`, with the earlier hidden cards
taken as already inferred) and sets

    P(card names c) ∝ P(the player still holds c) · exp(sharpness · value(c)),

where P(the player still holds c) is the product of ``1 − P(e names c)`` over that player's
earlier hidden cards (a player has one card per camel).  A sharpness of 0 leaves only that
constraint; larger values trust the bettor's judgement more.  Beliefs are fixed when the card is
placed; they never look at the card itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from sleuth.core.belief import contradiction, read_events
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.games.camel_up.actions import (
    PILES,
    ROLL,
    CamelAction,
    Die,
    LegBet,
    OverallBet,
    PlaceTile,
    Start,
)
from sleuth.games.camel_up.advice import card_value
from sleuth.games.camel_up.odds import game_odds
from sleuth.games.camel_up.rules import HIDDEN, CamelState, CamelUpGame
from sleuth.games.camel_up.track import RACERS

DERIVED = frozenset(("capped", "leg_scored", "game_over"))
"""Events the engine derives by itself when it replays the others."""
SCORING = frozenset((*DERIVED, "overall_scored"))
"""Events the die that ends a leg or the race causes besides its own (the overall cards'
scoring reveals them: the table reads it, a replay of the actions makes it again)."""


class TableTracker:
    """The observed state of one seat, updated incrementally from its growing event list."""

    def __init__(self, game: CamelUpGame) -> None:
        self.state = game.new_initial_state()
        self.read = 0

    def update(self, events: Sequence[Event]) -> CamelState:
        """Read the events not read yet and return the observed state."""
        for number in range(self.read, len(events)):
            try:
                self._replay(events[number])
            except (IllegalActionError, KeyError, TypeError, ValueError) as exc:
                reason = f"not possible here: {exc}"
                raise contradiction(number, events[number], reason) from None
            self.read = number + 1
        return self.state

    def _replay(self, event: Event) -> None:
        state = self.state
        public = event.public
        kind = event.kind
        if kind == "overall_bet" and event.private is None:
            state.apply_hidden_bet(str(public["pile"]))
        elif kind == "overall_turned_up":  # the assistant's log: a pile typed in at the end
            camels = [state.game.camel_ids[str(name)] for name in public["camels"]]
            state.turn_up(str(public["pile"]), camels)
        elif kind == "overall_scored":
            state.reveal_overall(str(public["pile"]), public["cards"])
        else:
            action = replayed_action(event)
            if action is not None:
                state.apply(action)


def replayed_action(event: Event) -> CamelAction | None:
    """The action that caused ``event`` (a player's, or chance's ``start`` and ``die``); None
    for the events an action causes besides its own (:data:`SCORING`, a forced ``roll``, which
    its ``die`` plays).  An overall bet needs its camel (the private part: the bettor's view,
    or a sampled world's: one without it is a KeyError); an unknown kind is an
    IllegalActionError."""
    public = event.public
    kind = event.kind
    if kind in SCORING or (kind == "roll" and public["forced"]):
        return None
    if kind == "start":
        return Start(tuple((int(s), tuple(n)) for s, n in public["stacks"]))
    if kind == "roll":
        return ROLL
    if kind == "die":
        return Die(str(public["colour"]), int(public["value"]))
    if kind == "leg_bet":
        return LegBet(str(public["camel"]))
    if kind == "tile":
        return PlaceTile(int(public["space"]), str(public["side"]))
    if kind == "overall_bet":
        if event.private is None:
            raise KeyError("the camel of a hidden overall card")
        return OverallBet(str(public["pile"]), str(event.private["camel"]))
    raise IllegalActionError(f"unknown event kind {kind!r}")


class InferringTracker(TableTracker):
    """A seat's table with :attr:`beliefs` about the hidden cards: ``beliefs[pile, position]``
    is the distribution over the racing camels of that card (see the module docstring)."""

    def __init__(self, game: CamelUpGame, sharpness: float, rollouts: int = 500) -> None:
        super().__init__(game)
        self.sharpness = sharpness
        self.rollouts = rollouts
        self.beliefs: dict[tuple[int, int], tuple[float, ...]] = {}

    def _replay(self, event: Event) -> None:
        if event.kind == "overall_bet" and event.private is None and self.state.order:
            pile = PILES.index(str(event.public["pile"]))
            self.beliefs[pile, len(self.state.piles[pile])] = self.belief(pile)
        super()._replay(event)

    def belief(self, pile: int) -> tuple[float, ...]:
        """The belief about a hidden card that the seat to move would put on ``pile`` (0 winner,
        1 loser) now."""
        state = self.state
        game = state.game
        assert state.order is not None
        bettor = state.seat
        odds = game_odds(
            state.order, state.dice, state.tiles, game.edition,
            rollouts=self.rollouts, seed=state.turns,
        )  # fmt: skip
        holds = [1.0] * RACERS
        for pile_index, cards in enumerate(state.piles):
            for position, (seat, named) in enumerate(cards):
                if seat == bettor and named == HIDDEN and (pile_index, position) in self.beliefs:
                    earlier = self.beliefs[pile_index, position]
                    holds = [h * (1 - e) for h, e in zip(holds, earlier, strict=True)]
        values = [card_value(state, pile, camel, odds, self.beliefs) for camel in range(RACERS)]
        top = max(values)
        weights = [
            h * math.exp(self.sharpness * (v - top)) for h, v in zip(holds, values, strict=True)
        ]
        total = sum(weights)
        if total <= 0:
            return tuple([1 / RACERS] * RACERS)
        return tuple(w / total for w in weights)


class CamelBelief:
    """A seat's Camel Up belief in the shape of the core's protocol (:mod:`sleuth.core.belief`):
    its table (:attr:`state`, other players' overall cards hidden) and, with a ``sharpness``,
    the :class:`InferringTracker`'s beliefs about those cards (:attr:`beliefs`)."""

    def __init__(
        self, game: CamelUpGame, sharpness: float | None = None, rollouts: int = 500
    ) -> None:
        self.tracker = (
            TableTracker(game) if sharpness is None else InferringTracker(game, sharpness, rollouts)
        )
        self.events: list[Event] = []

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> CamelBelief:
        """The table of ``view.seat`` after every event of ``view`` (no card beliefs)."""
        if not isinstance(game, CamelUpGame):
            raise TypeError(f"a CamelBelief needs a Camel Up game, not {game.name}")
        belief = cls(game)
        read_events(belief, view.events)
        return belief

    @property
    def events_read(self) -> int:
        return len(self.events)

    @property
    def state(self) -> CamelState:
        """The table as the seat sees it."""
        return self.tracker.state

    @property
    def beliefs(self) -> dict[tuple[int, int], tuple[float, ...]]:
        """``(pile, position) ->`` P(the hidden card names each racing camel); empty without
        a sharpness."""
        return self.tracker.beliefs if isinstance(self.tracker, InferringTracker) else {}

    def update(self, event: Event) -> None:
        self.events.append(event)
        self.tracker.update(self.events)

    def admits(self, state: State[Any]) -> bool:
        """True if ``state`` (the true position after the same events) agrees with the table on
        every public fact and every card the seat knows, and each hidden card's camel has a
        positive belief where there is one."""
        true = cast(CamelState, state)
        seen = self.state
        public = ("order", "dice", "taken", "tiles", "money", "seat", "leg", "over")
        if any(getattr(true, name) != getattr(seen, name) for name in public):
            return False
        for pile, (cards, known) in enumerate(zip(true.piles, seen.piles, strict=True)):
            if len(cards) != len(known):
                return False
            for position, ((seat, camel), (seen_seat, seen_camel)) in enumerate(
                zip(cards, known, strict=True)
            ):
                if seat != seen_seat or seen_camel not in (HIDDEN, camel):
                    return False
                belief = self.beliefs.get((pile, position))
                if seen_camel == HIDDEN and belief is not None and belief[camel] <= 0:
                    return False
        return True
