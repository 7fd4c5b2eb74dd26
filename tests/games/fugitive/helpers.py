"""Shared helpers of the Fugitive tests: hand-played games, the Marshal's view of them, random
games stopped at each of her guesses, and the plain (uncompiled) belief programme."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive import belief as belief_module
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.engine.actions import parse_action
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, FugitiveState, Phase

SETUP = ["card 7", "card 8", "card 9", "card 15", "card 16"]
"""The chance outcomes of the setup draws (F2): the Fugitive's three cards from pile 1 and two
from pile 2, on top of his starting hand."""


def marshal_view(events: list[Event]) -> list[Event]:
    """The events as the Marshal sees them."""
    return [e.seen_by(MARSHAL) for e in events]


def play(*moves: str, game: FugitiveGame | None = None) -> tuple[FugitiveState, list[Event]]:
    """A game (default options) from the start through ``moves`` (action texts, chance
    outcomes included): the state reached and every event."""
    game = game or FugitiveGame()
    state = game.new_initial_state()
    events: list[Event] = []
    for text in moves:
        events += state.apply(parse_action(text))
    return state, events


def marshal_guess_points(seed: int, max_rounds: int) -> Iterator[tuple[FugitiveState, list[Event]]]:
    """A game between the random players; yields (state, the Marshal's view) at each of her
    guesses."""
    rng = random.Random(seed)
    game = FugitiveGame(max_rounds=max_rounds)
    players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
    state = game.new_initial_state()
    events: list[Event] = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            view = View(player, game.roles[player], {}, [e.seen_by(player) for e in events])
            action = players[player].act(view, state.legal_actions())
        events += state.apply(action)  # type: ignore[arg-type]
        if state.current_player() == MARSHAL and state.phase is Phase.MARSHAL_GUESS:
            yield state, marshal_view(events)


@contextmanager
def plain_programme() -> Iterator[None]:
    """Beliefs made and asked within run the plain (uncompiled) programme."""
    saved = belief_module.COMPILED
    belief_module.COMPILED = False
    try:
        yield
    finally:
        belief_module.COMPILED = saved
