"""Every Sleuth game with an encoding as a single-agent Gymnasium environment (the ``rl`` extra).

One seat learns; Sleuth's bots play the others.  Importing this module registers the ids of
:data:`IDS` (``gymnasium.make("sleuth/Fugitive-Marshal-v0", opponent="heuristic")``) with entry
points given as strings, so that no game is imported before one is made; a game outside the
table is made with :class:`SleuthEnv` directly.

* **The learner's seat** is ``seat=`` or the one seat playing ``role=`` (a role several seats
  share needs ``seat=``; with neither, seat 0).
* **Opponents**: ``opponent`` names one bot of the game for every other seat, or one per other
  seat, in seat order, separated by commas (``"ev,random,random"``); bots take options as on
  the command line (``ismcts:iterations=200``).  Each is built and asked as the match runner
  does (seeded ``derive_seed(seed, "bot", seat)``, asked through
  :meth:`~sleuth.core.bots.Bot.ask` with its own view), so that an episode whose learner
  chooses a bot's actions is the runner's game with that seed.  A bot that raises or returns
  an illegal action stops the episode with an :class:`OpponentError` naming it and its seat.
* **Observations** are ``{"observation", "action_mask"}`` as in the PettingZoo adapter
  (:mod:`sleuth.envs.seats`); :meth:`SleuthEnv.action_masks` gives the mask as booleans, which
  is what sb3-contrib's ``MaskablePPO`` reads.
* **Reward**: the learner's win share when the game ends, 0 before.  An id outside the mask
  ends the episode at once with reward -1 and ``info["illegal"]`` saying why (the game is not
  played on: as PettingZoo's classic games do, and as a bot forfeits in ``sleuth play``).
* **Seeding**: ``reset(seed=s)`` plays the game ``sleuth play`` plays with seed ``s`` for the
  same actions; ``reset()`` draws a seed from the environment's generator.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

from sleuth.envs.extra import missing

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as exc:  # the rl extra is not installed
    raise ModuleNotFoundError(missing(exc), name=exc.name) from exc

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import IllegalActionError, OptionError, SleuthError
from sleuth.core.match import offered
from sleuth.core.registry import game_spec
from sleuth.core.rng import derive_seed
from sleuth.envs.episode import Episode
from sleuth.envs.seats import encoded_game, observation_space, observe, view_text

__all__ = ["IDS", "OpponentError", "SleuthEnv"]

Observation = dict[str, Any]

IDS: dict[str, tuple[str, str | None]] = {
    "sleuth/Fox-Hunter-v0": ("fox", "hunter"),
    "sleuth/Fox-Fox-v0": ("fox", "fox"),
    "sleuth/Fugitive-Fugitive-v0": ("fugitive", "fugitive"),
    "sleuth/Fugitive-Marshal-v0": ("fugitive", "marshal"),
    "sleuth/CamelUp-v0": ("camel-up", None),
    "sleuth/ScotlandYard-MrX-v0": ("scotland-yard", "mrx"),
    "sleuth/ScotlandYard-Detectives-v0": ("scotland-yard", "detectives"),
    "sleuth/Cluedo-v1": ("cluedo", None),  # v1: rules version 2, encoding version 2
}
"""The registered ids: each names a game and the learner's role (None: ``seat=``, 0 by
default, for games whose seats share one role).  The version changes when an environment's
behaviour does (its game's rules version, its encoding or its rewards)."""


class OpponentError(SleuthError, RuntimeError):
    """A bot playing an opponent's seat raised or returned an illegal action."""


class SleuthEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of one game against Sleuth's bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(
        self,
        game: str,
        role: str | None = None,
        seat: int | None = None,
        opponent: str = "random",
        belief: bool = False,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"render_mode {render_mode!r}: use None, {modes}")
        self.encoding = encoded_game(game, options, belief)
        self.game = self.encoding.game
        self.belief = belief
        self.render_mode = render_mode
        self.seat = learner_seat(self.game.roles, role, seat)
        self.opponents = opponent_bots(game, self.game.roles, self.seat, opponent)
        for bot in self.opponents.values():
            bot.warm()
        self.observation_space = observation_space(self.encoding, belief)
        self.action_space = spaces.Discrete(self.encoding.action_count)
        self.episode: Episode | None = None
        self._bots: dict[int, Bot] = {}
        self._ended = False
        """Whether the episode has ended (the game is over, or the learner chose an illegal id)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        self.episode = Episode(self.encoding, seed, self.belief)
        self._ended = False
        self._bots = {
            s: spec.make(self.game, s, derive_seed(seed, "bot", s))
            for s, spec in self.opponents.items()
        }
        self._play_opponents()
        return observe(self.episode, self.seat), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        episode = self._episode()
        if self._ended:
            raise RuntimeError("the episode has ended: call reset()")
        try:
            done = episode.step(int(action))
        except IllegalActionError as exc:
            self._ended = True
            return observe(episode, self.seat), -1.0, True, False, {"illegal": str(exc)}
        if done is not None:
            self._play_opponents()
        self._ended = episode.over
        reward = episode.wins()[self.seat] if episode.over else 0.0
        if self.render_mode == "human":
            self.render()
        return observe(episode, self.seat), float(reward), episode.over, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of the learner now, as booleans (for sb3-contrib's MaskablePPO)."""
        return self._episode().mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        text = view_text(self._episode(), self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _play_opponents(self) -> None:
        """Let the bots move until the learner is to move or the game is over."""
        episode = self._episode()
        while episode.seat is not None and episode.seat != self.seat:
            seat = episode.seat
            bot, name = self._bots[seat], self.opponents[seat].name
            who = f"bot {name!r} at seat {seat} ({self.game.roles[seat]})"
            legal = episode.state.legal_actions()
            try:
                action = bot.ask(episode.views[seat], offered(legal))
            except Exception as exc:
                raise OpponentError(f"{who} raised {type(exc).__name__}: {exc}") from exc
            try:
                episode.play(action)
            except IllegalActionError as exc:
                raise OpponentError(f"{who} returned an illegal action {action!r}: {exc}") from exc


def learner_seat(roles: tuple[str, ...], role: str | None, seat: int | None) -> int:
    """The learner's seat from ``role`` or ``seat`` (module docstring); a seat out of range, a
    role no seat plays, a role several seats play without ``seat``, or a seat of another role
    is an OptionError naming it."""
    if seat is not None:
        if not 0 <= seat < len(roles):
            raise OptionError(f"seat {seat}: the game has seats 0-{len(roles) - 1}")
        if role is not None and roles[seat] != role:
            raise OptionError(f"seat {seat} plays {roles[seat]}, not {role}")
        return seat
    if role is None:
        return 0
    seats = [s for s, r in enumerate(roles) if r == role]
    if not seats:
        raise OptionError(f"no seat plays {role!r}; the seats play {', '.join(roles)}")
    if len(seats) > 1:
        raise OptionError(f"seats {seats} play {role}: choose one with seat=")
    return seats[0]


def opponent_bots(
    game: str, roles: tuple[str, ...], learner: int, opponent: str
) -> dict[int, BotSpec]:
    """The bot of each seat but the learner's, from ``opponent`` (module docstring); an unknown
    bot, a bot that cannot play its seat's role, or a list of the wrong length is an error."""
    spec = game_spec(game)
    others = [s for s in range(len(roles)) if s != learner]
    names = [n.strip() for n in opponent.split(",")]
    if len(names) == 1:
        names *= len(others)
    if len(names) != len(others):
        raise OptionError(
            f"opponent {opponent!r}: {len(names)} bots for the {len(others)} other seats "
            f"{others} (one name for all, or one per seat)"
        )
    bots = {}
    for seat, name in zip(others, names, strict=True):
        bot = spec.bot(name)
        if roles[seat] not in bot.roles:
            raise OptionError(
                f"{name} cannot play seat {seat} ({roles[seat]}): it plays {'/'.join(bot.roles)}"
            )
        bots[seat] = bot
    return bots


def _register() -> None:
    for env_id, (game, role) in IDS.items():
        if env_id not in gymnasium.registry:
            kwargs: dict[str, Any] = (
                {"game": game} if role is None else {"game": game, "role": role}
            )
            gymnasium.register(env_id, entry_point=f"{__name__}:SleuthEnv", kwargs=kwargs)


_register()
