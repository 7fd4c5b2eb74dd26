"""Benchmark: what the PettingZoo, Gymnasium and OpenSpiel adapters cost over the rules engine,
per game.

For every built-in game with an encoding (its default options, but Fugitive's: a draw after
50 rounds, :data:`OPTIONS`, as for learning: random play may go on for ever), these ways to
play random games in this process, one core:

(a) ``engine``: the rules engine driven by a bare loop (``current_player``, ``legal_actions``,
    a uniformly random legal action, ``apply``; chance sampled with ``sample_chance``).
(b) ``episode``: the :class:`~sleuth.envs.episode.Episode` under both adapters stepped by
    uniformly random legal ids (every seat's view, the builder of each action and its legal
    ids), without observations or masks: what the ids cost before any tensor is made.
(c) ``pettingzoo``: ``sleuth.envs.pettingzoo.env(GAME)`` with its wrappers, every agent
    choosing a uniformly random id of its mask from ``last()`` (an observation per id);
    ``pettingzoo raw``: the same with ``raw_env(GAME)``, without PettingZoo's wrappers.
(d) ``gymnasium``: ``SleuthEnv(GAME)``, the learner at seat 0 choosing a uniformly random id
    of its mask, the other seats played by the ``random`` bots (asked through ``Bot.ask``).
(e) ``openspiel``: ``pyspiel.load_game("python_sleuth_GAME")``, a uniformly random id of
    ``legal_actions()`` at every player node after reading that player's observation tensor
    through an observer (``open_spiel.python.observation.make_observation``: OpenSpiel's
    ``state.observation_tensor()`` of a Python game also observes a new initial state at
    every call), chance drawn from ``chance_outcomes()``.

A step is one ``step()`` call of an environment; an action is one action applied by a seat
(a multi-id action is several steps).  Random ids and random actions give games of other
lengths, so methods are compared by the cost of an action: ``cost vs engine`` is the engine's
actions per second divided by the adapter's.  The issue's target: at most 3x.  Each method plays
several rounds, interleaved with the others, and the best round is reported.

    .venv/bin/python bench/envs.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from _report import print_table
from sleuth.core.game import CHANCE
from sleuth.core.registry import builtin_game_names, game_spec
from sleuth.envs.episode import Episode

try:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from sleuth.envs.gymnasium import SleuthEnv
    from sleuth.envs.openspiel import game_name
    from sleuth.envs.pettingzoo import env as aec_env
    from sleuth.envs.pettingzoo import raw_env
except ModuleNotFoundError as exc:
    raise SystemExit(f"bench/envs.py: {exc}") from None

OPTIONS: dict[str, dict[str, Any]] = {"fugitive": {"max_rounds": 50}}
"""Each game's options here (the defaults otherwise)."""

Play = Callable[[str, int, int], tuple[int, int]]
"""Plays ``games`` games of a game from a seed; returns (steps, actions by seats)."""


def play_engine(name: str, games: int, seed: int) -> tuple[int, int]:
    game = game_spec(name).make(OPTIONS.get(name, {}))
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions, actions


def play_episode(name: str, games: int, seed: int) -> tuple[int, int]:
    spec = game_spec(name)
    encoding = spec.encoding_for(spec.make(OPTIONS.get(name, {})))
    rng = random.Random(seed)
    steps = actions = 0
    for index in range(games):
        episode = Episode(encoding, seed + index)
        while not episode.over:
            legal = episode.builder.legal_ids()
            episode.step(legal[rng.randrange(len(legal))])
            steps += 1
        actions += seat_actions(episode.actions)
    return steps, actions


def seat_actions(actions: list[tuple[int, Any]]) -> int:
    return sum(1 for seat, _ in actions if seat != CHANCE)


def play_pettingzoo(name: str, games: int, seed: int, wrapped: bool = True) -> tuple[int, int]:
    options = OPTIONS.get(name, {})
    made = aec_env(name, **options) if wrapped else raw_env(name, **options)
    rng = random.Random(seed)
    steps = actions = 0
    for index in range(games):
        made.reset(seed=seed + index)
        for _ in made.agent_iter():
            observation, _, terminated, truncated, _ = made.last()
            if terminated or truncated:
                made.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            made.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        actions += seat_actions(made.unwrapped.episode.actions)
    return steps, actions


def play_gymnasium(name: str, games: int, seed: int) -> tuple[int, int]:
    made = SleuthEnv(name, seat=0, **OPTIONS.get(name, {}))
    rng = random.Random(seed)
    steps = actions = 0
    for index in range(games):
        observation, _ = made.reset(seed=seed + index)
        terminated = made.episode is None or made.episode.over
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, _, _ = made.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        assert made.episode is not None
        actions += seat_actions(made.episode.actions)
    return steps, actions


def play_pettingzoo_raw(name: str, games: int, seed: int) -> tuple[int, int]:
    return play_pettingzoo(name, games, seed, wrapped=False)


def play_openspiel(name: str, games: int, seed: int) -> tuple[int, int]:
    game = pyspiel.load_game(game_name(name), {"rng_seed": seed, **OPTIONS.get(name, {})})
    observer = make_observation(game)
    rng = random.Random(seed)
    steps = actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            observer.set_from(state, state.current_player())
            legal = state.legal_actions()
            done = len(state.progress.actions)
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
            actions += len(state.progress.actions) > done
    return steps, actions


METHODS: dict[str, Play] = {
    "engine": play_engine,
    "episode": play_episode,
    "pettingzoo": play_pettingzoo,
    "pettingzoo raw": play_pettingzoo_raw,
    "gymnasium": play_gymnasium,
    "openspiel": play_openspiel,
}
TARGET = 3.0
"""The most an adapter may cost per action, as a multiple of the engine's cost."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a game or two each (smoke test)")
    parser.add_argument("--seconds", type=float, default=2.0, help="target seconds per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    args = parser.parse_args()
    seconds, rounds = (0.05, 1) if args.quick else (args.seconds, args.rounds)
    games = [n for n in builtin_game_names() if game_spec(n).encoding is not None]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"random games, default options (but {OPTIONS}), one core, "
        f"Python {platform.python_version()}"
    )
    print(f"load average at start: {load}")
    rows, worst = [], 0.0
    for name in games:
        sizes = {}
        for method, play in METHODS.items():
            t0 = time.perf_counter()
            play(name, 1, 10**6)
            sizes[method] = max(1, int(seconds / max(time.perf_counter() - t0, 1e-6)))
        steps_rate = dict.fromkeys(METHODS, 0.0)
        action_rate = dict.fromkeys(METHODS, 0.0)
        for r in range(rounds):
            for method, play in METHODS.items():
                t0 = time.perf_counter()
                steps, actions = play(name, sizes[method], r * 100_000)
                elapsed = time.perf_counter() - t0
                if actions / elapsed > action_rate[method]:
                    steps_rate[method], action_rate[method] = steps / elapsed, actions / elapsed
        for method in METHODS:
            cost = action_rate["engine"] / action_rate[method]
            if method != "engine":
                worst = max(worst, cost)
            row = [name, method, f"{steps_rate[method]:,.0f}", f"{action_rate[method]:,.0f}"]
            rows.append([*row, f"{cost:.2f}x"])
    print_table(["game", "method", "steps/s", "actions/s", "cost vs engine"], rows)
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"target: an adapter costs at most {TARGET:g}x the engine per action: {verdict} "
          f"(worst {worst:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
