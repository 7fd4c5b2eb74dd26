"""The strong bot: inferred hidden cards, the denial and risk terms, and its knobs."""

from __future__ import annotations

import math

import pytest

from sleuth.arena.paired import compare
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.actions import ROLL, LegBet, OverallBet, Start
from sleuth.games.camel_up.advice import advise, card_value
from sleuth.games.camel_up.belief import InferringTracker
from sleuth.games.camel_up.odds import game_odds, leg_odds
from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.strategy import PayoutRisk, Weights, strong_values
from sleuth.games.camel_up.track import RACERS
from tests.games.camel_up.helpers import position_m

SPEC = game_spec("camel-up")


def test_hidden_cards_are_inferred_far_better_than_chance() -> None:
    """Against greedy bots, the inferred favourite is the card's camel most of the time (the
    published figure is ~63% top-1 for the Camel Up Cup's inference)."""
    game = CamelUpGame()
    hits = cards = 0
    log_likelihood = 0.0
    for seed in range(6):
        record = run_match(game, [SPEC.bot("ev")] * 4, seed=seed)
        view = [event.seen_by(0) for step in record.steps for event in step.events]
        tracker = InferringTracker(game, sharpness=3.0)
        tracker.update(view)
        truth = {}
        for event in view:
            if event.kind == "overall_scored":
                pile = 0 if event.public["pile"] == "winner" else 1
                for position, (_, camel, _) in enumerate(event.public["cards"]):
                    truth[pile, position] = game.racer_id(camel)
        assert tracker.beliefs and set(tracker.beliefs) <= set(truth)
        for key, belief in tracker.beliefs.items():
            assert sum(belief) == pytest.approx(1.0) and min(belief) >= 0
            cards += 1
            hits += max(range(RACERS), key=lambda c: belief[c]) == truth[key]
            log_likelihood += math.log(belief[truth[key]])
        # Seat 0's own cards are known, never inferred.
        own = {(p, i) for p in (0, 1) for i, (s, _) in enumerate(tracker.state.piles[p]) if s == 0}
        assert not own & set(tracker.beliefs)
    assert cards >= 20
    assert hits / cards > 0.6
    assert log_likelihood / cards > math.log(1 / RACERS) + 0.5


def test_a_player_has_one_card_per_camel() -> None:
    """Each hidden card is weighted by exp(sharpness · its value then), and a player's second
    card by the chance that the first did not already name the camel."""
    game = CamelUpGame()
    state = game.new_initial_state()
    events = list(state.apply(Start(((1, ("blue",)), (2, ("green", "orange")),
                                     (3, ("yellow", "white"))))))  # fmt: skip
    for action in (
        LegBet("blue"), OverallBet("winner", "white"), LegBet("blue"), LegBet("green"),
        LegBet("green"), OverallBet("winner", "blue"),
    ):  # fmt: skip
        events += state.apply(action)
    tracker = InferringTracker(game, sharpness=3.0)
    seen = tracker.update([e.seen_by(0) for e in events])
    assert seen.order is not None
    odds = game_odds(seen.order, seen.dice, seen.tiles)
    first = [math.exp(3 * card_value(seen, 0, c, odds, {}, position=0)) for c in range(RACERS)]
    second = [
        (1 - tracker.beliefs[0, 0][c]) * math.exp(3 * card_value(seen, 0, c, odds, tracker.beliefs,
                                                                position=1))
        for c in range(RACERS)
    ]  # fmt: skip
    assert tracker.beliefs[0, 0] == pytest.approx([x / sum(first) for x in first])
    assert tracker.beliefs[0, 1] == pytest.approx([x / sum(second) for x in second])
    favourite = max(range(RACERS), key=lambda c: first[c])
    assert tracker.beliefs[0, 1][favourite] < tracker.beliefs[0, 0][favourite]
    none = InferringTracker(game, sharpness=0.0)
    none.update([e.seen_by(0) for e in events])
    assert none.beliefs[0, 0] == pytest.approx([1 / RACERS] * RACERS)
    assert none.beliefs[0, 1] == pytest.approx([1 / RACERS] * RACERS)


def test_with_every_knob_off_the_strong_bot_plays_exactly_like_ev() -> None:
    plain = "strong:richest=0:others=0:risk=0:sharpness=-1"
    result = compare("camel-up", plain, "ev", ["random", "random"], games=3, seed=8)
    assert result.counts == (0, 0, 3)
    for a, b in zip(result.candidate.rows, result.baseline.rows, strict=True):
        assert a.actions == b.actions


def test_denial_charges_what_the_next_player_can_take() -> None:
    state = position_m()
    advice = advise(state)
    weights = Weights(richest=0.35, others=0.35, risk=0.0)
    values = strong_values(state, advice, {}, weights)
    leg = advice.odds.leg
    tickets = state.game.tickets
    for camel, name in enumerate(state.game.racers):
        left = [leg.ticket_ev(c, tickets[1 if c == camel else 0]) for c in range(RACERS)]
        best_left = max(1.0, *left)
        value = advice.values[LegBet(name)]
        assert value is not None
        expected = value - 0.35 * best_left
        assert values[LegBet(name)] == pytest.approx(expected)
    # A roll leaves every ticket, with the odds after the die.
    assert values[ROLL] == pytest.approx(1.0 - 0.35 * _roll_gain_by_hand(state))


def _roll_gain_by_hand(state: CamelState) -> float:
    total = 0.0
    rolled = state.clone()
    rolled.apply(ROLL)
    outcomes = rolled.chance_outcomes()
    for die, p in outcomes:
        after = rolled.clone()
        after.apply(die)
        assert after.order is not None
        leg = leg_odds(after.order, after.dice, after.tiles)
        tickets = [after.game.tickets[t] for t in after.taken]
        total += p * max(1.0, *(leg.ticket_ev(c, tickets[c]) for c in range(RACERS)))
    return total


def test_a_loser_card_hedges_a_winner_card_on_the_same_camel() -> None:
    state = position_m()
    odds = advise(state).odds
    white = state.game.racer_id("white")
    fresh = PayoutRisk(state, 0, odds, {})
    assert fresh.now == 0.0
    alone = fresh.with_card(1, white)
    assert alone > 0
    state.piles[0].append((0, white))  # seat 0 already holds "white wins"
    holding = PayoutRisk(state, 0, odds, {})
    assert holding.now > 0
    assert holding.with_card(1, white) < alone  # white last pays when white-wins fails
    assert holding.with_card(0, white) >= 0  # doubling up adds risk
    # A leg ticket's spread is that of its three outcomes.
    first = odds.leg.first[white]
    mean = odds.leg.ticket_ev(white, 5)
    variance = first * 25 + (1 - first) - mean * mean
    assert fresh.with_ticket(white, 5) == pytest.approx(math.sqrt(variance))


@pytest.mark.parametrize("lead", [20, -20])
def test_risk_locks_in_a_lead_and_chases_when_trailing_unless_lock_is_off(lead: int) -> None:
    state = position_m()
    state.money[state.seat] += lead
    advice = advise(state)
    neutral = strong_values(state, advice, {}, Weights(risk=0.0))
    averse = strong_values(state, advice, {}, Weights(risk=1.0))
    chasing_only = strong_values(state, advice, {}, Weights(risk=1.0, lock=0.0))
    ticket = LegBet(state.game.racers[0])
    risk = PayoutRisk(state, state.seat, advice.odds, {})
    spread = risk.with_ticket(0, state.game.tickets[state.taken[0]])
    assert spread > 0
    if lead > 0:  # leading: a risky ticket costs, unless lock is off
        assert averse[ticket] < neutral[ticket]
        assert chasing_only == neutral
    else:  # trailing: the spread is worth something either way
        assert averse[ticket] > neutral[ticket]
        assert chasing_only == averse
