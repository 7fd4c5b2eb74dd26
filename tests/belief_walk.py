"""A random game seen by one seat, for the belief tests of every game (a helper module)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE, Game, State


def walk(
    game: Game[Any],
    seat: int,
    rng: random.Random,
    choose: Callable[[State[Any], random.Random], Hashable] | None = None,
) -> Iterator[tuple[State[Any], list[Event]]]:
    """Play ``game`` to the end (chance drawn with ``rng``, seats by ``choose``, uniform by
    default); after each action yield the state and the events it caused as ``seat`` sees them."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        elif choose is not None:
            action = choose(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        yield state, [e.seen_by(seat) for e in state.apply(action)]


def view_of(game: Game[Any], seat: int, events: list[Event]) -> View:
    """``seat``'s view with ``events``."""
    return View(seat, game.roles[seat], game.public_info(), events)
