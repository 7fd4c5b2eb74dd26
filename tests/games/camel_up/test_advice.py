"""The expected coins of each action (advice), against hand-computed values."""

from __future__ import annotations

import pytest

from sleuth.games.camel_up.actions import LegBet, OverallBet, PlaceTile
from sleuth.games.camel_up.advice import advise, card_value
from sleuth.games.camel_up.odds import leg_odds
from sleuth.games.camel_up.rules import HIDDEN
from tests.games.camel_up.helpers import M, position_m


def test_leg_bets_are_o9s_ticket_values() -> None:
    state = position_m()
    advice = advise(state)
    for camel, ev in enumerate((-0.3302, -0.1116, 0.8824, 0.7166, 1.8427)):
        assert advice.values[LegBet(state.game.racers[camel])] == pytest.approx(ev, abs=1e-4)
    state.taken[4] = 1  # white's 5 is gone: its 3-ticket is next
    assert advise(state).values[LegBet("white")] == pytest.approx(1.0876, abs=1e-4)


def test_overall_card_value_follows_the_ladder_and_the_cards_ahead() -> None:
    state = position_m()
    odds = advise(state).odds
    p = odds.win[4]
    assert card_value(state, 0, 4, odds) == pytest.approx(8 * p - (1 - p))
    state.piles[0].append((0, 4))  # my own earlier white card: the new one would be 2nd
    assert card_value(state, 0, 4, odds) == pytest.approx(5 * p - (1 - p))
    state.piles[0][0] = (0, 1)  # my earlier card names green: no effect on white
    assert card_value(state, 0, 4, odds) == pytest.approx(8 * p - (1 - p))
    state.piles[0][0] = (1, HIDDEN)  # someone's hidden card: white with probability p
    expected = p * (p * 5 + (1 - p) * 8) - (1 - p)
    assert card_value(state, 0, 4, odds) == pytest.approx(expected)
    beliefs = {(0, 0): (0.0, 0.0, 0.0, 0.25, 0.75)}  # inferred: white with probability 0.75
    expected = p * (0.75 * 5 + 0.25 * 8) - (1 - p)
    assert card_value(state, 0, 4, odds, beliefs) == pytest.approx(expected)
    assert card_value(state, 0, 4, odds, beliefs, position=0) == pytest.approx(8 * p - (1 - p))
    q = odds.last[0]
    assert card_value(state, 1, 0, odds) == pytest.approx(8 * q - (1 - q))
    assert advise(state).values[OverallBet("loser", "blue")] == pytest.approx(8 * q - (1 - q))


def test_a_tile_is_worth_its_landings_to_a_player_without_bets() -> None:
    state = position_m()
    advice = advise(state, all_tiles=True)
    for space, side in ((9, "oasis"), (10, "mirage"), (16, "oasis")):
        hits = leg_odds(M, None, {space - 1: 1 if side == "oasis" else -1}).tile_hits[space - 1]
        assert advice.values[PlaceTile(space, side)] == pytest.approx(hits)
    assert advise(state).values[PlaceTile(16, "oasis")] is None  # out of reach: not valued
    assert max(v for v in advice.values.values() if v is not None) == advice.values[advice.best]


def test_a_tile_counts_its_effect_on_my_leg_tickets() -> None:
    state = position_m()
    state.leg_bets.append((0, 4, 5))  # I hold white's 5-ticket
    value = advise(state, all_tiles=True).values[PlaceTile(9, "mirage")]
    with_tile = leg_odds(M, None, {8: -1})
    without = leg_odds(M)
    expected = with_tile.tile_hits[8] + with_tile.ticket_ev(4, 5) - without.ticket_ev(4, 5)
    assert value == pytest.approx(expected)
