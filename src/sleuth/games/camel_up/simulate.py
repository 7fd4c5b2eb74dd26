"""Fast whole games between random bots, for studies and benchmarks.

:func:`play_random_game` drives the rules engine's primitive moves directly, without events,
views or validation, and with the same random numbers as :class:`~sleuth.games.camel_up.bots.
RandomBot` and the match runner: for a given seed it plays exactly the game that
``run_match`` plays with ``random`` in every seat (a test checks this), only several times
faster.
"""

from __future__ import annotations

import random

from sleuth.core.rng import derive_seed
from sleuth.games.camel_up.rules import (
    ALL_RACERS,
    BITS,
    SIDE_VALUE,
    CamelState,
    CamelUpGame,
    sample_start,
    start_order,
)
from sleuth.games.camel_up.track import MIRAGE, OASIS

KINDS = tuple(
    tuple(
        tuple((0,) + (1,) * legs + (2,) * tiles + (3,) * bets for bets in (0, 1))
        for tiles in (0, 1)
    )
    for legs in (0, 1)
)
"""``KINDS[legs][tiles][bets]``: the action types present (0 roll, 1 leg bet, 2 tile, 3 overall
bet), as RandomBot sees them among the legal actions."""


def play_random_game(game: CamelUpGame, seed: int) -> CamelState:
    """The final state of the game played by random bots in every seat with ``seed``."""
    bots = [random.Random(derive_seed(seed, "bot", seat)) for seat in range(game.players)]
    chance = random.Random(derive_seed(seed, "chance"))
    state = game.new_initial_state()
    state.start(start_order(game, sample_start(game, chance)))
    cap = game.turn_cap
    flipping = game.tile_flip_in_place
    while not state.over:
        if state.rolling or state.turns >= cap:
            state.resolve_die(*state.draw_die(chance))
            continue
        rng = bots[state.seat]
        legs = BITS[state.open_legs]
        unused = BITS[ALL_RACERS & ~state.cards[state.seat]]
        kinds = KINDS[bool(legs)][bool(state.tile_mask())][bool(unused)]
        kind = kinds[int(rng.random() * len(kinds))]
        # The variant is drawn even for the roll, as RandomBot draws from a one-item group.
        pick = rng.random()
        if kind == 0:
            state.roll()
        elif kind == 1:
            state.take_leg_ticket(legs[int(pick * len(legs))])
        elif kind == 2 and flipping:
            options = state.tile_actions()
            tile = options[int(pick * len(options))]
            state.put_tile(tile.space - 1, SIDE_VALUE[tile.side])
        elif kind == 2:  # the same pick among the same list, without building the list
            mask = state.tile_mask()
            i = int(pick * 2 * mask.bit_count())
            for _ in range(i // 2):
                mask &= mask - 1
            state.put_tile((mask & -mask).bit_length() - 1, MIRAGE if i % 2 else OASIS)
        else:
            i = int(pick * 2 * len(unused))
            state.bet(i // len(unused), unused[i % len(unused)])
    return state
