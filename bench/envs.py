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

(f) ``floor``, printed under the table: PettingZoo's own loop over an environment that does
    nothing (two agents, a fixed observation and mask, 40 steps a game), raw and with the
    wrappers of ``env()``: what no adapter can cost less than per step, whatever the game.

A step is one ``step()`` call of an environment; an action is one action applied by a seat
(a multi-id action is several steps).  Random ids and random actions give games of other
lengths, so methods are compared by the cost of an action: ``cost vs engine`` is the engine's
actions per second divided by the adapter's.  The issue's target: at most 3x.  Each method plays
several rounds, interleaved with the others, and the best round is reported.  Times are the
process's CPU time (``time.process_time``), which other processes' load on the machine changes
far less than the wall clock's.

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
    from gymnasium import spaces
    from open_spiel.python.observation import make_observation
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

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


def random_episode(made: Any, rng: random.Random) -> int:
    """Play the episode ``made`` was just reset to with uniformly random legal actions, as
    PettingZoo's loop does (a finished agent steps with None); the actions taken."""
    steps = 0
    for _ in made.agent_iter():
        observation, _, terminated, truncated, _ = made.last()
        if terminated or truncated:
            made.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        made.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def play_pettingzoo(name: str, games: int, seed: int, wrapped: bool = True) -> tuple[int, int]:
    options = OPTIONS.get(name, {})
    made = aec_env(name, **options) if wrapped else raw_env(name, **options)
    rng = random.Random(seed)
    steps = actions = 0
    for index in range(games):
        made.reset(seed=seed + index)
        steps += random_episode(made, rng)
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


class IdleEnv(AECEnv[str, dict[str, Any], int]):
    """An AEC environment that does nothing: two agents take turns for 40 steps, each seeing
    the same fixed observation (copied, as an adapter hands out its own arrays)."""

    metadata: dict[str, Any] = {"render_modes": [], "is_parallelizable": False}  # noqa: RUF012
    STEPS = 40

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["a", "b"]
        self._obs = np.zeros(200, np.float32)
        self._mask = np.ones(10, np.int8)
        box = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (200,), np.float32),
                "action_mask": spaces.Box(0, 1, (10,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, box)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(10))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.steps = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = "a"

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self.steps >= self.STEPS:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = "b" if agent == "a" else "a"
        self._accumulate_rewards()


def loop_floor(seconds: float) -> tuple[float, float]:
    """CPU microseconds a step of :class:`IdleEnv` takes through ``agent_iter``/``last``/
    ``step`` with a random id of the mask, raw and with ``env()``'s wrappers (best of 3)."""
    out = []
    for wrapped in (False, True):
        made: AECEnv[str, dict[str, Any], int] = IdleEnv()
        if wrapped:
            made = wrappers.TerminateIllegalWrapper(made, illegal_reward=-1)
            made = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(made))
        rng, best = random.Random(0), float("inf")
        for _ in range(3):
            t0, steps = time.process_time(), 0
            while time.process_time() - t0 < seconds / 3:
                made.reset(seed=steps)
                steps += random_episode(made, rng)
            best = min(best, (time.process_time() - t0) / steps * 1e6)
        out.append(best)
    return out[0], out[1]


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
        f"random games, default options (but {OPTIONS}), one core, CPU time, "
        f"Python {platform.python_version()}"
    )
    print(f"load average at start: {load}")
    rows, worst, engine_cost = [], 0.0, {}
    for name in games:
        sizes = {}
        for method, play in METHODS.items():
            t0 = time.process_time()
            play(name, 1, 10**6)
            sizes[method] = max(1, int(seconds / max(time.process_time() - t0, 1e-6)))
        steps_rate = dict.fromkeys(METHODS, 0.0)
        action_rate = dict.fromkeys(METHODS, 0.0)
        for r in range(rounds):
            for method, play in METHODS.items():
                t0 = time.process_time()
                steps, actions = play(name, sizes[method], r * 100_000)
                elapsed = time.process_time() - t0
                if actions / elapsed > action_rate[method]:
                    steps_rate[method], action_rate[method] = steps / elapsed, actions / elapsed
        engine_cost[name] = 1e6 / action_rate["engine"]
        for method in METHODS:
            cost = action_rate["engine"] / action_rate[method]
            if method != "engine":
                worst = max(worst, cost)
            row = [name, method, f"{steps_rate[method]:,.0f}", f"{action_rate[method]:,.0f}"]
            rows.append([*row, f"{cost:.2f}x"])
    print_table(["game", "method", "steps/s", "actions/s", "cost vs engine"], rows)
    raw, wrapped = loop_floor(seconds)
    print(f"floor: PettingZoo's loop over an environment that does nothing: {raw:.1f} us a step "
          f"raw, {wrapped:.1f} us with env()'s wrappers")  # fmt: skip
    costs = ", ".join(f"{name} {us:.1f} us" for name, us in engine_cost.items())
    print(f"the engine's CPU time per action (3x of it is the target): {costs}")
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"target: an adapter costs at most {TARGET:g}x the engine per action: {verdict} "
          f"(worst {worst:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
