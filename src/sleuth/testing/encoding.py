"""Checks of a game's :class:`~sleuth.core.encoding.Encoding` (observations and action ids).

:func:`check_encoding` plays a game by uniformly random legal ids through an
:class:`~sleuth.envs.episode.Episode` and checks at every step:

* every observation has the encoding's size, is float32, finite and within its segments'
  bounds (:meth:`~sleuth.core.encoding.Encoding.bounds`), and so is its mask, whose ones are
  exactly the seat to move's legal ids (and none for the other seats);
* every id the mask allows extends to a legal action (the engine validates each completed
  action), :meth:`~sleuth.core.encoding.ActionBuilder.ids_of` gives back the ids that built
  it, and where a state lists few legal actions, the actions the builder can reach are
  exactly those (:data:`ENUMERATE_AT_MOST`);
* **observations hold only what the seat may see**: at a few decisions, another world the
  game's search sampler draws from the seat's view (a different hidden history giving the same
  view) is replayed, and the seat's observation and mask in that world are byte-identical.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np

from sleuth.core.encoding import ActionBuilder, Encoding
from sleuth.core.events import View, freeze
from sleuth.core.game import TERMINAL, State
from sleuth.core.rng import derive_seed
from sleuth.envs.episode import Episode
from sleuth.search.model import replay_history
from sleuth.testing.case import MAX_STEPS, Case

ENUMERATE_AT_MOST = 300
"""States listing at most this many legal actions have the builder's reach compared to them."""
WORLDS = 3
"""Other worlds drawn at each decision checked for hidden information."""


def check_encoding(case: Case, seed: int, belief: bool = False, worlds_at: int = 4) -> None:
    """Play one random game by ids and check the encoding all along (module docstring);
    ``worlds_at`` decisions, spread over the game, get the hidden-information check."""
    game = case.make()
    encoding = case.spec.encoding_for(game)
    episode = Episode(encoding, derive_seed(seed, "episode"), belief)
    rng = random.Random(seed)
    size = encoding.size(belief)
    low, high = encoding.bounds(belief)
    decisions = 0
    for step in range(MAX_STEPS):
        for seat in range(game.num_players):
            obs = episode.observe(seat)
            if obs.shape != (size,) or obs.dtype != np.float32 or not np.isfinite(obs).all():
                problem = f"seat {seat}'s observation is not {size} finite float32 values"
                raise case.fail(seed, problem, step)
            outside = np.flatnonzero((obs < low) | (obs > high))
            if outside.size:
                problem = f"seat {seat}'s observation is out of its segment's bounds at {outside}"
                raise case.fail(seed, problem, step)
        if episode.over:
            if episode.mask(0).any():
                raise case.fail(seed, "a finished game still allows an action id", step)
            return
        mover = episode.seat
        assert mover is not None
        mask = episode.mask(mover)
        legal_ids = episode.builder.legal_ids()
        if not legal_ids or list(np.flatnonzero(mask)) != legal_ids:
            raise case.fail(seed, f"seat {mover}'s mask is not its legal ids {legal_ids}", step)
        if not episode.builder.prefix:
            _check_reach(case, seed, step, encoding, episode.state)
            if decisions < worlds_at and rng.random() < 0.25:
                decisions += 1
                _check_hidden(case, seed, step, episode, mover, rng)
            before, chosen = episode.state.clone(), []
        chosen.append(legal_ids[rng.randrange(len(legal_ids))])
        action = episode.step(chosen[-1])
        if action is not None and encoding.builder(before).ids_of(action) != tuple(chosen):
            problem = f"ids_of({action}) is not the ids {chosen} that built it"
            raise case.fail(seed, problem, step)
    raise case.fail(seed, f"no end after {MAX_STEPS} ids")


def _check_reach(
    case: Case, seed: int, step: int, encoding: Encoding[Any], state: State[Any]
) -> None:
    """Where the state lists few actions, the builder reaches exactly them."""
    legal = state.legal_actions()
    if len(legal) > ENUMERATE_AT_MOST:
        return
    reached: set[Hashable] = set()

    def walk(builder: ActionBuilder[Any], prefix: list[int]) -> None:
        for action_id in builder.legal_ids():
            fresh = encoding.builder(state)
            for earlier in prefix:
                fresh.push(earlier)
            action = fresh.push(action_id)
            if action is None:
                walk(fresh, [*prefix, action_id])
            else:
                reached.add(action)
            if len(reached) > len(legal):
                return

    walk(encoding.builder(state), [])
    if reached != set(legal):
        extra = sorted(map(str, reached - set(legal)))[:3]
        missing = sorted(map(str, set(legal) - reached))[:3]
        problem = f"the builder reaches {extra} beyond the legal actions, misses {missing}"
        raise case.fail(seed, problem, step)


def _check_hidden(
    case: Case, seed: int, step: int, episode: Episode, seat: int, rng: random.Random
) -> None:
    """Other worlds behind ``seat``'s view give it the same observation and mask."""
    model = case.spec.search
    if model is None:
        return
    game = episode.game
    view = episode.views[seat]
    frozen = View(view.seat, view.role, view.game_info, tuple(view.events))
    sampler = model.sampler(game, frozen)
    encoding = episode.encoding
    truth_obs = episode.observe(seat).tobytes()
    truth_mask = episode.mask(seat).tobytes()
    info = freeze(game.public_info())
    for _ in range(WORLDS):
        world, events = replay_history(game, sampler.sample_history(rng))
        if world.current_player() in (TERMINAL,):
            raise case.fail(seed, "a sampled world is over where the real game goes on", step)
        seen = View(seat, game.roles[seat], info, tuple(e.seen_by(seat) for e in events))
        obs = encoding.observe(seen, (), episode.belief).tobytes()
        mask = encoding.mask(encoding.builder(world)).tobytes()
        if obs != truth_obs:
            raise case.fail(seed, f"seat {seat}'s observation differs in another world", step)
        if mask != truth_mask:
            raise case.fail(seed, f"seat {seat}'s mask differs in another world", step)
