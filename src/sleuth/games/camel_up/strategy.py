"""The strong bot's evaluation: expected coins, adjusted for what the others gain and for risk.

Camel Up is won by having the most money, not a lot of it.  Starting from the greedy expected
coins of each legal action (:func:`~sleuth.games.camel_up.advice.advise`, with the hidden cards
read through :mod:`~sleuth.games.camel_up.belief`), :func:`strong_values` adds three terms:

* **denial** — the next player will take the best thing left on the table; an action is charged
  ``w(next) · G(next | action)``, the expected value of the next player's best immediate option
  (a leg ticket or a roll) after it.  This is what makes the bot take a ticket instead of
  rolling when the roll would hand the next player fresh leg tickets, and prefer the ticket
  the next player wants most;
* **threat** — a tile also moves the others' leg tickets and tile income: the change in each
  opponent's expected holdings is charged at ``w(o)``;
* **risk** — ``λ · ΔSD``, where ``ΔSD`` is the change in the standard deviation of the bot's
  pending payouts (leg tickets, and overall cards through the exact joint (winner, loser)
  distribution, so a loser card that hedges a winner card lowers the risk), and
  ``λ = risk · progress · clip(deficit / 10)``: positive (chase variance) when trailing, negative
  (lock in) when leading, growing as the race nears the finish.

``w(o)`` is ``richest`` for the opponent with the largest standing (money plus expected pending
payouts) and ``others`` for the rest; the defaults 0.35 and 0.18 and the shape of the risk term
follow the strong bots of the Camel Up Cup (the published figures of ``docs/camel-up.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sleuth.games.camel_up.actions import (
    PILES,
    ROLL,
    CamelAction,
    LegBet,
    OverallBet,
    PlaceTile,
    Roll,
)
from sleuth.games.camel_up.advice import ROLL_VALUE, Advice, CardBeliefs, payout_if_right
from sleuth.games.camel_up.catalogue import LOCK, OTHERS, RICHEST, RISK
from sleuth.games.camel_up.odds import GameOdds, LegOdds, RaceOdds, leg_odds
from sleuth.games.camel_up.rules import HIDDEN, CamelState
from sleuth.games.camel_up.track import RACERS, TRACK_LENGTH

LEAD_SCALE = 10.0
"""Coins of lead (or deficit) at which the risk appetite saturates."""


@dataclass(frozen=True)
class Weights:
    """The strong bot's knobs; all zero makes it the greedy ``ev`` bot."""

    richest: float = RICHEST
    others: float = OTHERS
    risk: float = RISK
    lock: float = LOCK
    """The aversion when leading, as a fraction of ``risk`` (0: chase variance when trailing,
    never lock in)."""


def strong_values(
    state: CamelState, advice: Advice, beliefs: CardBeliefs, weights: Weights
) -> dict[CamelAction, float]:
    """The adjusted value of every evaluated legal action (see the module docstring)."""
    seat = state.seat
    players = state.game.players
    base_leg = advice.odds.leg
    standings = [_standing(state, s, base_leg, advice.odds, beliefs) for s in range(players)]
    opponents = [s for s in range(players) if s != seat]
    richest = max(opponents, key=lambda s: standings[s])
    threat = [
        0.0 if s == seat else weights.richest if s == richest else weights.others
        for s in range(players)
    ]
    following = (seat + 1) % players
    deficit = max(standings[s] for s in opponents) - standings[seat]
    appetite = weights.risk * _progress(state) * max(-1.0, min(1.0, deficit / LEAD_SCALE))
    if appetite < 0:
        appetite *= weights.lock
    risk = PayoutRisk(state, seat, advice.odds, beliefs)
    values: dict[CamelAction, float] = {}
    for action, value in advice.values.items():
        if value is None:
            continue
        leg, taken = base_leg, state.taken
        spread = 0.0
        if isinstance(action, LegBet):
            camel = state.game.racer_id(action.camel)
            taken = state.taken[:]
            taken[camel] += 1
            spread = risk.with_ticket(camel, state.game.tickets[state.taken[camel]])
        elif isinstance(action, OverallBet):
            spread = risk.with_card(PILES.index(action.pile), state.game.racer_id(action.camel))
        elif isinstance(action, PlaceTile):
            leg = advice.tile_legs[action]
            value -= sum(
                threat[s] * (_holdings(state, s, leg) - _holdings(state, s, base_leg))
                for s in opponents
            )
        if threat[following]:
            if isinstance(action, Roll):
                value -= threat[following] * _roll_gain(state)
            else:
                value -= threat[following] * _best_option(state, leg, taken)
        values[action] = value + appetite * spread
    return values


def _progress(state: CamelState) -> float:
    """How far the race is run: the foremost camel's index over the track, 0..1."""
    racing = [code >> 3 for code in state.order or () if code & 7 < RACERS]
    return (max(racing, default=-1) + 1) / TRACK_LENGTH


def _holdings(state: CamelState, seat: int, leg: LegOdds) -> float:
    """``seat``'s expected income from the rest of the leg: its tickets and its tile."""
    tickets = sum(leg.ticket_ev(camel, value) for s, camel, value in state.leg_bets if s == seat)
    tile = state.tile_of[seat]
    return tickets + (leg.tile_hits.get(tile, 0.0) if tile >= 0 else 0.0)


def _standing(
    state: CamelState, seat: int, leg: LegOdds, odds: RaceOdds, beliefs: CardBeliefs
) -> float:
    """``seat``'s money plus the expected payout of everything it has pending."""
    total = state.money[seat] + _holdings(state, seat, leg)
    for pile, cards in enumerate(state.piles):
        right_of = odds.win if pile == 0 else odds.last
        for position, (owner, named) in enumerate(cards):
            if owner != seat:
                continue
            if named == HIDDEN:
                spread = beliefs.get((pile, position))
                if spread is None:
                    spread = right_of
            else:
                spread = tuple(float(c == named) for c in range(RACERS))
            for camel, p in enumerate(spread):
                if p:
                    payout = payout_if_right(state, pile, camel, odds, beliefs, position)
                    total += p * (right_of[camel] * payout - (1 - right_of[camel]))
    return total


def _best_option(state: CamelState, leg: LegOdds, taken: Sequence[int]) -> float:
    """The best immediate gain of the next player: a roll or the best leg ticket left."""
    tickets = state.game.tickets
    best = ROLL_VALUE
    for camel in range(RACERS):
        if taken[camel] < len(tickets):
            best = max(best, leg.ticket_ev(camel, tickets[taken[camel]]))
    return best


def _roll_gain(state: CamelState) -> float:
    """:func:`_best_option` after a roll, averaged over the die (0 if the race ends)."""
    rolled = state.clone()
    rolled.apply_trusted(ROLL)
    total = 0.0
    for die, p in rolled.chance_outcomes():
        after = rolled.clone()
        after.apply_trusted(die)
        if after.is_terminal() or after.order is None:
            continue
        leg = leg_odds(after.order, after.dice, after.tiles, after.game.edition)
        total += p * _best_option(after, leg, after.taken)
    return total


class PayoutRisk:
    """The standard deviation of a seat's pending payouts and how an extra bet changes it.

    Leg tickets are taken as independent of each other and of the overall cards; the overall
    cards use the joint (winner, loser) distribution, each right card paying its expected
    ladder value."""

    def __init__(self, state: CamelState, seat: int, odds: GameOdds, beliefs: CardBeliefs):
        self.state, self.odds, self.beliefs = state, odds, beliefs
        leg = self.leg = odds.leg
        self.leg_variance = sum(
            _ticket_variance(leg, camel, value) for s, camel, value in state.leg_bets if s == seat
        )
        self.cards = [
            (pile, named, payout_if_right(state, pile, named, odds, beliefs, position))
            for pile, cards in enumerate(state.piles)
            for position, (owner, named) in enumerate(cards)
            if owner == seat and named != HIDDEN
        ]
        self.card_variance = self._card_variance(self.cards)
        self.now = math.sqrt(self.leg_variance + self.card_variance)

    def with_ticket(self, camel: int, value: int) -> float:
        extra = _ticket_variance(self.leg, camel, value)
        return math.sqrt(self.leg_variance + extra + self.card_variance) - self.now

    def with_card(self, pile: int, camel: int) -> float:
        payout = payout_if_right(self.state, pile, camel, self.odds, self.beliefs)
        variance = self._card_variance([*self.cards, (pile, camel, payout)])
        return math.sqrt(self.leg_variance + variance) - self.now

    def _card_variance(self, cards: Sequence[tuple[int, int, float]]) -> float:
        if not cards:
            return 0.0
        mean = square = 0.0
        for winner, row in enumerate(self.odds.joint):
            for loser, p in enumerate(row):
                if not p:
                    continue
                pay = sum(
                    payout if named == (winner if pile == 0 else loser) else -1.0
                    for pile, named, payout in cards
                )
                mean += p * pay
                square += p * pay * pay
        return max(0.0, square - mean * mean)


def _ticket_variance(leg: LegOdds, camel: int, value: int) -> float:
    first = leg.first[camel]
    mean = leg.ticket_ev(camel, value)
    return first * value * value + (1 - first) - mean * mean
