"""Fast whole games between random bots, for studies and benchmarks.

:func:`play_random_game` drives the rules engine's primitive moves directly, without events,
views or validation, and with the same random numbers as :class:`~sleuth.games.camel_up.bots.
RandomBot` and the match runner: for a given seed it plays exactly the game that
``run_match`` plays with ``random`` in every seat (a test checks this), only several times
faster.

Each decision of a random bot draws from ``derive_seed(bot_seed, "decision", n)``, ``n`` the
number of events in the seat's view (:meth:`~sleuth.core.bots.Bot.ask`).  Every Camel Up event
is seen by every seat, so ``n`` is the number of events the engine has emitted; the loop counts
them as :meth:`~sleuth.games.camel_up.rules.CamelState._apply` and ``_die_events`` would emit
them (one per player's action; per die: a ``capped`` on the first forced roll, a ``roll`` on a
forced one, the ``die``, a ``leg_scored`` when a leg ends), without building them.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from sleuth.core.rng import derive_seed
from sleuth.games.camel_up.rules import (
    ALL_RACERS,
    BITS,
    SIDE_VALUE,
    TILE_SPACES,
    CamelState,
    CamelUpGame,
    sample_start,
    start_order,
)
from sleuth.games.camel_up.track import MIRAGE, OASIS, Arrangement

KINDS = tuple(
    tuple(
        tuple((0,) + (1,) * legs + (2,) * tiles + (3,) * bets for bets in (0, 1))
        for tiles in (0, 1)
    )
    for legs in (0, 1)
)
"""``KINDS[legs][tiles][bets]``: the action types present (0 roll, 1 leg bet, 2 tile, 3 overall
bet), as RandomBot sees them among the legal actions."""


class RandomGame(NamedTuple):
    """A finished game: its final state, its starting arrangement, how many desert tiles the
    players put down (or moved) and how many times a camel landed on one."""

    final: CamelState
    start: Arrangement
    tiles_placed: int
    tile_hits: int


def play_random_game(game: CamelUpGame, seed: int) -> RandomGame:
    """The game played by random bots in every seat with ``seed``."""
    seeds = [derive_seed(seed, "bot", seat) for seat in range(game.players)]
    bots = [random.Random() for _ in seeds]
    chance = random.Random(derive_seed(seed, "chance"))
    state = game.new_initial_state()
    start = start_order(game, sample_start(game, chance))
    state.start(start)
    placed = hits = 0
    cap = game.turn_cap
    flipping = game.tile_flip_in_place
    cards = state.cards
    randoms = [bot.random for bot in bots]
    roll, resolve, draw = state.roll, state.resolve_die, state.draw_die
    events = 1  # the start
    while not state.over:
        if state.turns >= cap:  # forced rolls (T4)
            result = resolve(*draw(chance))
            hits += result.tile >= 0
            events += 2 + result.first_forced + (result.leg is not None)
            continue
        seat = state.seat
        bots[seat].seed(derive_seed(seeds[seat], "decision", events))
        uniform = randoms[seat]
        events += 1  # the action's own event
        legs = BITS[state.open_legs]
        unused = BITS[ALL_RACERS & ~cards[seat]]
        # Free of every tile's block, so certainly legal; otherwise ask the engine.
        tiles = TILE_SPACES & ~state.occupied & ~state.blocked or state.tile_mask()
        kinds = KINDS[legs != ()][tiles != 0][unused != ()]
        kind = kinds[int(uniform() * len(kinds))]
        # The variant is drawn even for the roll, as RandomBot draws from a one-item group.
        pick = uniform()
        if kind == 0:
            roll()
            result = resolve(*draw(chance))
            hits += result.tile >= 0
            events += 1 + (result.leg is not None)
        elif kind == 1:
            state.take_leg_ticket(legs[int(pick * len(legs))])
        elif kind == 3:
            i = int(pick * 2 * len(unused))
            state.bet(i // len(unused), unused[i % len(unused)])
        else:
            placed += 1
            if flipping:
                options = state.tile_actions()
                tile = options[int(pick * len(options))]
                state.put_tile(tile.space - 1, SIDE_VALUE[tile.side])
                continue
            # The same pick among the same list as tile_actions(), without building it.
            mask = state.tile_mask()
            i = int(pick * 2 * mask.bit_count())
            for _ in range(i // 2):
                mask &= mask - 1
            state.put_tile((mask & -mask).bit_length() - 1, MIRAGE if i % 2 else OASIS)
    return RandomGame(state, start, placed, hits)
