"""The adapters' fast observations are the plain encoding's, byte for byte.

The adapters keep what they read of each view (incremental readers, observations updated from
the new events, cached masks); the oracle here is the encoding made afresh for every
observation, reading a frozen copy of the seat's whole view from its first event.  Random
playthroughs of every game, every seat after every id, with and without the belief.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sleuth.core.encoding import Observation
from sleuth.core.events import View
from sleuth.core.registry import game_spec
from sleuth.envs.episode import Episode
from tests.envs.adapters import GAMES, RL_MISSING, options

pytest.importorskip("pettingzoo", reason=f"pettingzoo {RL_MISSING}")

from sleuth.envs.gymnasium import SleuthEnv
from sleuth.envs.pettingzoo import raw_env

CASES = [(name, belief) for name in GAMES for belief in (False, True)]


def plain(episode: Episode, seat: int) -> Observation:
    """``seat``'s observation by a new encoding from a frozen copy of its whole view."""
    spec = game_spec(episode.game.name)
    encoding = spec.encoding_for(spec.make(options(episode.game.name)))
    live = episode.views[seat]
    view = View(live.seat, live.role, live.game_info, tuple(live.events))
    prefix = episode.builder.prefix if seat == episode.seat else ()
    return encoding.observe(view, tuple(prefix), episode.belief)


def plain_mask(episode: Episode, seat: int) -> np.ndarray[Any, Any]:
    """``seat``'s mask from a new builder of the state, replaying the ids chosen so far."""
    mask = np.zeros(episode.encoding.action_count, np.int8)
    if seat == episode.seat:
        builder = episode.encoding.builder(episode.state)
        for action_id in episode.builder.prefix:
            builder.push(action_id)
        mask[builder.legal_ids()] = 1
    return mask


def same(seen: dict[str, Any], episode: Episode, seat: int, where: str) -> None:
    expected = plain(episode, seat)
    assert seen["observation"].dtype == np.float32, where
    assert seen["observation"].tobytes() == expected.tobytes(), where
    assert seen["action_mask"].tobytes() == plain_mask(episode, seat).tobytes(), where


@pytest.mark.parametrize(("name", "belief"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_pettingzoo_observations_are_the_plain_encoding_s(
    name: str, belief: bool, seed: int
) -> None:
    made = raw_env(name, belief=belief, **options(name))
    made.reset(seed=seed)
    rng = random.Random(seed)
    kept: list[tuple[dict[str, Any], bytes]] = []
    for step in range(400):
        episode = made.episode
        assert episode is not None
        for agent in made.possible_agents:
            seat = made.possible_agents.index(agent)
            seen = made.observe(agent)
            same(seen, episode, seat, f"{name} step {step} seat {seat}")
            kept.append((seen, seen["observation"].tobytes()))
        if episode.over:
            break
        legal = np.flatnonzero(made.observe(made.agent_selection)["action_mask"])
        made.step(int(legal[rng.randrange(len(legal))]))
    # an observation handed out is the caller's: later steps never change it
    assert all(seen["observation"].tobytes() == data for seen, data in kept)


@pytest.mark.parametrize(("name", "belief"), CASES)
def test_gymnasium_observations_are_the_plain_encoding_s(name: str, belief: bool) -> None:
    made = SleuthEnv(name, seat=0, belief=belief, **options(name))
    rng = random.Random(3)
    observation, _ = made.reset(seed=3)
    for step in range(400):
        episode = made.episode
        assert episode is not None
        same(observation, episode, 0, f"{name} step {step}")
        assert (made.action_masks() == observation["action_mask"].astype(bool)).all()
        if episode.over:
            break
        legal = np.flatnonzero(observation["action_mask"])
        observation, *_ = made.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("name", GAMES)
def test_a_decision_s_mask_is_made_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium's step and MaskablePPO's action_masks() ask for the same decision's mask: the
    encoding makes it once, and each caller gets its own array."""
    made = SleuthEnv(name, seat=0, **options(name))
    encoding = made.encoding
    made_masks = []
    mask = type(encoding).mask

    def counted(self: Any, builder: Any) -> Any:
        made_masks.append(builder)
        return mask(self, builder)

    monkeypatch.setattr(type(encoding), "mask", counted)
    observation, _ = made.reset(seed=4)
    first, second = made.action_masks(), made.action_masks()
    assert len(made_masks) == 1
    first[:] = False
    assert (second == observation["action_mask"].astype(bool)).all() and second.any()


def test_opponents_moves_make_no_action_builder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium's bots play whole actions: an action builder is made for the learner's
    decisions only (one was made for every seat's decision)."""
    made = SleuthEnv("camel-up", seat=0, **options("camel-up"))
    built = []
    builder = type(made.encoding).builder

    def counted(self: Any, state: Any) -> Any:
        built.append(state.current_player())
        return builder(self, state)

    monkeypatch.setattr(type(made.encoding), "builder", counted)
    observation, _ = made.reset(seed=2)
    rng, over = random.Random(2), False
    while not over:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, over, _, _ = made.step(int(legal[rng.randrange(len(legal))]))
    assert made.episode is not None
    played = [seat for seat, _ in made.episode.actions if seat >= 0]
    assert set(built) == {0} and len(built) == played.count(0) < len(played)
