"""What other players' hidden overall cards name, inferred from when they were placed.

A player puts an overall card down when that card looks good *at that moment*, so the race odds
just before a hidden card was placed say a lot about it.  :class:`InferringTracker` is a
:class:`~sleuth.games.camel_up.observe.TableTracker` that, before replaying another player's
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

from sleuth.core.events import Event
from sleuth.games.camel_up.actions import PILES
from sleuth.games.camel_up.advice import card_value
from sleuth.games.camel_up.observe import TableTracker
from sleuth.games.camel_up.odds import game_odds
from sleuth.games.camel_up.rules import HIDDEN, CamelUpGame
from sleuth.games.camel_up.track import RACERS


class InferringTracker(TableTracker):
    """A seat's table with :attr:`beliefs` about the hidden cards (see the module docstring)."""

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
