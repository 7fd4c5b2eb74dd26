"""The public turn order: along random games under every rule option, the tracker fed the
Marshal's view says exactly what the rules engine says about who moves and how."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.assistant.table import SETUP_EVENTS
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.engine.turns import PublicTurns
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame


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
    seen = [e.seen_by(MARSHAL) for e in events[len(SETUP_EVENTS) :] if e.kind != "route"]
    turns = PublicTurns(game, seen)
    assert turns.over and turns.mover() is None and not turns.round_limit_reached
    # the table's entries hold every game_over but the round limit's, which the engine adds
    entries = [e for e in seen if e.public.get("reason") != "max_rounds"]
    turns = PublicTurns(game, entries)
    assert turns.over and turns.round_limit_reached == (state.reason == "max_rounds")


def marshal_draw(pile: int) -> list[Event]:
    public = {"seat": MARSHAL, "pile": pile, "bonus": False}
    return [Event("chose_pile", public), Event("drew", public)]


def test_a_route_uncovered_in_the_last_round_ends_the_game_by_its_own_event() -> None:
    game = FugitiveGame(max_rounds=1)
    opening = [Event("placed", {"position": p, "sprints": 0}) for p in (1, 2)]
    turns = PublicTurns(game, [*opening, *marshal_draw(1)])
    assert turns.expects_draw() and turns.mover() == MARSHAL  # her second draw
    guess = [
        *opening,
        *marshal_draw(1),
        *marshal_draw(2),
        Event("guessed", {"numbers": (1, 2), "hit": True}),
    ]
    uncovered = Event("game_over", {"reason": "marshal_uncovered_route", "winner": MARSHAL})
    turns = PublicTurns(game, [*guess, uncovered])
    assert turns.over and not turns.round_limit_reached
    turns = PublicTurns(game, guess)  # had it missed, the round limit would end the game
    assert turns.over and turns.round_limit_reached
