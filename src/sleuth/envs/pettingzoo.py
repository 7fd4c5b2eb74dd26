"""Every Sleuth game with an encoding as a PettingZoo AEC environment (the ``rl`` extra).

``env("fox", graph="path:5")`` is the game with PettingZoo's usual wrappers, as its classic
games have them (an illegal id ends the game, the culprit scoring -1, the others 0; an id out
of the action space is an error; calls out of order are errors); :class:`raw_env` is the game
alone, where a masked-out id raises :class:`~sleuth.core.errors.IllegalActionError` and changes
nothing.

* **Agents** are the seats, named by role, or ``role_seat`` where seats share a role
  (:func:`~sleuth.envs.seats.agent_names`).  The agent to move keeps the turn while it builds a
  multi-id action (a Fugitive hideout with its sprint cards): the ids chosen so far are part of
  its observation.
* **Observations** are ``{"observation": float32 vector, "action_mask": int8 vector}`` from the
  seat's view only (the game's :class:`~sleuth.core.encoding.Encoding`); ``belief=True`` appends
  the seat's exact belief where the game has one.  Actions are ``Discrete(action_count)``.
* **Rewards** are each seat's win share when the game ends (0 before): 1 for a win, shared
  among winners where the game shares it, 0 for a loss.
* **Seeding**: ``reset(seed=s)`` draws chance (dice, deals, shuffles) as ``sleuth play`` does
  with seed ``s``: the same seed and the same ids give the same game.  ``reset()`` without a
  seed draws the next seed from the last one given (from the system's entropy at first).
* **max_cycles**: once an agent has chosen ``max_cycles`` ids, every agent is truncated.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from sleuth.envs.extra import missing

try:
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as exc:  # the rl extra is not installed
    raise ModuleNotFoundError(missing(exc), name=exc.name) from exc

from sleuth.core.rng import derive_seed
from sleuth.envs.episode import Episode
from sleuth.envs.seats import agent_names, encoded_game, observation_space, observe, view_text

__all__ = ["env", "raw_env"]

Observation = dict[str, Any]


def env(
    game: str,
    render_mode: str | None = None,
    belief: bool = False,
    max_cycles: int | None = None,
    **options: Any,
) -> AECEnv[str, Observation, int]:
    """The AEC environment of ``game`` with PettingZoo's usual wrappers (module docstring);
    ``options`` are the game's options, as ``sleuth play GAME -o NAME=VALUE`` takes them."""
    made: AECEnv[str, Observation, int] = raw_env(game, render_mode, belief, max_cycles, **options)
    made = wrappers.TerminateIllegalWrapper(made, illegal_reward=-1)
    made = wrappers.AssertOutOfBoundsWrapper(made)
    return wrappers.OrderEnforcingWrapper(made)


class raw_env(AECEnv[str, Observation, int]):  # PettingZoo names it so
    """One game as an AEC environment, without wrappers (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        belief: bool = False,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"render_mode {render_mode!r}: use None, {modes}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, got {max_cycles}")
        self.encoding = encoded_game(game, options, belief)
        self.game = self.encoding.game
        self.belief = belief
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.name = f"sleuth_{game.replace('-', '_')}_v0"
        self.possible_agents = agent_names(self.game.roles)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        shared = observation_space(self.encoding, belief)
        self.observation_spaces = {agent: shared for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.action_count) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(derive_seed(seed, "next reset"))
        else:
            seed = self._seeds.getrandbits(63)
        self.episode = Episode(self.encoding, seed, self.belief)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._ids_chosen = dict.fromkeys(self.agents, 0)
        self._select()

    def observe(self, agent: str) -> Observation:
        return observe(self._episode(), self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game is over")
        episode = self._episode()
        episode.step(int(action))  # a masked-out id raises, changing nothing
        self._cumulative_rewards[agent] = 0.0
        self._ids_chosen[agent] += 1
        if episode.over:
            wins = episode.wins()
            self.rewards = {a: float(wins[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            if self.max_cycles is not None and self._ids_chosen[agent] >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        episode = self._episode()
        text = view_text(episode, self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def __str__(self) -> str:
        return self.name

    def close(self) -> None:
        self.episode = None

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _select(self) -> None:
        """The agent to move, or the first agent to remove once the game is over."""
        episode = self._episode()
        if episode.seat is not None and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[episode.seat]
        else:
            self.agent_selection = self.agents[0]
