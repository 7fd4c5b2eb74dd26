"""The public turn order: along random games under every rule option, the tracker fed the
Marshal's view says exactly what the rules engine says about who moves and how."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.events import View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, Phase
from sleuth.games.fugitive.table import SETUP_EVENTS
from sleuth.games.fugitive.turns import PublicTurns


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    edition=st.sampled_from(["first", "second"]),
    opening=st.sampled_from(["exactly_2", "one_or_two"]),
    skip=st.booleans(),
    max_rounds=st.sampled_from([0, 3, 12]),
)
def test_the_public_turn_order_is_the_engines(
    seed: int, edition: str, opening: str, skip: bool, max_rounds: int
) -> None:
    game = FugitiveGame(
        edition=edition, opening=opening, marshal_may_skip=skip, max_rounds=max_rounds
    )
    rng = random.Random(seed)
    players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
    state, events = game.new_initial_state(), []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            events += state.apply(state.sample_chance(rng))
            continue
        seen = [e.seen_by(MARSHAL) for e in events]
        if len(seen) >= len(SETUP_EVENTS):
            turns = PublicTurns(game, seen[len(SETUP_EVENTS) :])
            assert (turns.mover(), turns.phase) == (player, state.phase)
            assert turns.expects_draw() == bool(state.draws_due)
        view = View(player, "", {}, [e.seen_by(player) for e in events])
        events += state.apply(players[player].act(view, state.legal_actions()))  # type: ignore[arg-type]
    seen = [e.seen_by(MARSHAL) for e in events if e.kind not in ("route", "game_over")]
    turns = PublicTurns(game, seen[len(SETUP_EVENTS) :])
    assert turns.over == (state.reason == "max_rounds") == turns.round_limit_reached
    assert turns.mover() is None or turns.phase is not Phase.OVER
