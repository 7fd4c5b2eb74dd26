"""What the learning scripts share: training a MaskablePPO policy for one role of a game
against a field of Sleuth's bots, and evaluating saved models as ``sleuth play`` plays them.

Training runs one Gymnasium environment (:class:`sleuth.envs.gymnasium.SleuthEnv`) per seating
of the field, so that the learner plays every seat in turn (seats rotated); the policy reads
:func:`sleuth.search.learned.features` (the observation followed by the action mask) and
MaskablePPO never samples an id outside the mask.  The saved model carries what it was trained
on (:data:`sleuth.search.learned.TRAINED_ON`), which the ``ppo`` bot checks before it plays.

Evaluation is :func:`sleuth.arena.tournament.run_tournament` with the model as the ``ppo`` bot
(``ppo:model=PATH``): the games, seeds and seat rotation of ``sleuth play`` with the same bots,
so that its win rates (95% Wilson intervals) are comparable with any ``sleuth play`` run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sleuth.arena.stats import wilson_interval
from sleuth.arena.tournament import run_tournament
from sleuth.search.learned import (
    TRAINED_ON,
    PolicyError,
    features,
    learning_libraries,
    trained_on,
)

QUICK_STEPS = 2_048
"""Steps of a ``--quick`` training (CI runs it end to end)."""
QUICK_GAMES = 4
"""Games of a ``--quick`` evaluation (and of its imitation)."""
LAYERS = (128, 128)
"""The hidden layers of the policy's and the value's perceptrons unless a :class:`Setting`
names others (Camel Up's: a model of about 0.5 MB)."""


@dataclass(frozen=True)
class Setting:
    """One learning task: the game and its options (each one a flag of the script's commands,
    its value recorded in the model: a model plays only those), the bot of each seat with
    ``ppo`` at the learner's (of role ``role``), whether the learner takes every seat in turn,
    whether the belief segments are on, the bot the learner imitates by default
    (``--imitate``), and the hidden layers of the policy's and the value's perceptrons (the
    first layer's weights, observation size times its width, are most of the model file)."""

    game: str
    role: str
    seating: tuple[str, ...]
    rotate: bool
    belief: bool = False
    options: tuple[tuple[str, Any], ...] = ()
    teacher: str = "ev"
    layers: tuple[int, ...] = LAYERS

    def seatings(self) -> list[tuple[str, ...]]:
        """The seatings trained on: every rotation of :attr:`seating` with ``rotate`` (as
        ``sleuth play`` rotates a free-for-all), else :attr:`seating` alone."""
        line = self.seating
        if self.rotate:
            return [line[-s:] + line[:-s] for s in range(len(line))]
        return [line]

    def bots(self, model: Path, against: str | None = None) -> list[str]:
        """:attr:`seating` with the learner as the ``ppo`` bot playing ``model``, and every
        other seat played by ``against`` when it is given."""
        return [f"ppo:model={model}" if name == "ppo" else against or name for name in self.seating]


def environments(setting: Setting, against: str | None = None) -> list[Any]:
    """One environment per seating (:meth:`Setting.seatings`, every other seat ``against``
    when it is given), its observations the policy's :func:`~sleuth.search.learned.features`."""
    import gymnasium
    from gymnasium import spaces

    from sleuth.envs.gymnasium import SleuthEnv

    class Features(gymnasium.ObservationWrapper[Any, Any, Any]):
        """The Dict observation of :class:`SleuthEnv` as one vector (observation, then mask)."""

        def __init__(self, env: SleuthEnv) -> None:
            super().__init__(env)
            low, high = env.encoding.bounds(env.belief)
            count = env.encoding.action_count
            self.observation_space = spaces.Box(
                np.concatenate([low, np.zeros(count, np.float32)]),
                np.concatenate([high, np.ones(count, np.float32)]),
                dtype=np.float32,
            )

        def observation(self, observation: dict[str, Any]) -> Any:
            return features(observation["observation"], observation["action_mask"])

    made = []
    for seating in setting.seatings():
        seat = seating.index("ppo")
        others = ",".join(against or name for s, name in enumerate(seating) if s != seat)
        env = SleuthEnv(
            setting.game, seat=seat, opponent=others, belief=setting.belief,
            **dict(setting.options),
        )  # fmt: skip
        made.append(Features(env))
    return made


def train(
    setting: Setting,
    steps: int,
    seed: int,
    model_path: Path,
    every: int,
    imitation: Imitation,
    start: Path | None = None,
    rate: float = 3e-4,
) -> None:
    """Train a MaskablePPO policy (a new one, or the model saved at ``start``, its steps
    counted on) for ``steps`` environment steps from ``seed`` at learning rate ``rate`` and save
    it at ``model_path``, with a copy every ``every`` steps (``<stem>-<steps>.zip`` beside it)
    for the learning curve; with ``imitation.games``, the policy first imitates
    ``imitation.teacher`` (:func:`imitate`), saved as ``<stem>-<steps>.zip`` before PPO goes
    on (``<stem>-0.zip`` for a new policy)."""
    ppo = learning_libraries()
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    class Copies(BaseCallback):  # type: ignore[misc]
        """Saves ``<stem>-<steps>.zip``, the policy updated on its first ``steps`` steps, when
        a multiple of ``every`` was passed since the last copy: as a rollout starts (PPO has
        updated the policy on every step before it) and when the training ends."""

        def _init_callback(self) -> None:
            self.copied = self.num_timesteps

        def _copy(self) -> None:
            if self.num_timesteps // every > self.copied // every:
                name = f"{model_path.stem}-{self.num_timesteps}.zip"
                _save(self.model, model_path.with_name(name))
                self.copied = self.num_timesteps

        def _on_rollout_start(self) -> None:
            self._copy()

        def _on_training_end(self) -> None:
            self._copy()

        def _on_step(self) -> bool:
            return True

    envs = environments(setting)
    vectorised = DummyVecEnv([lambda env=env: env for env in envs])
    if start is None:
        model = ppo(
            "MlpPolicy", vectorised, seed=seed, n_steps=max(64, 2048 // len(envs)),
            batch_size=256, gamma=1.0, gae_lambda=0.95, ent_coef=0.01, learning_rate=rate,
            policy_kwargs={"net_arch": list(setting.layers)}, device="cpu", verbose=0,
        )  # fmt: skip
    else:
        model = ppo.load(start, vectorised, device="cpu", seed=seed, learning_rate=rate)
    encoding = envs[0].unwrapped.encoding
    setattr(model, TRAINED_ON, trained_on(encoding, setting.role, setting.belief))
    model_path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if imitation.games:
        imitate(model, setting, imitation, seed)
        _save(model, model_path.with_name(f"{model_path.stem}-{model.num_timesteps}.zip"))
    model.learn(total_timesteps=steps, callback=Copies(), reset_num_timesteps=start is None)
    _save(model, model_path)
    print(f"trained {model.num_timesteps:,} steps in {time.perf_counter() - started:.0f} s")
    print(f"model: {model_path} ({model_path.stat().st_size / 1024:.0f} KB)")


@dataclass(frozen=True)
class Imitation:
    """Behaviour cloning before PPO: the learner's seat is played by ``teacher`` for ``games``
    games (seatings in turn, and in turn against each bot of ``against``, which plays every
    other seat; none: the setting's field), and the policy is fitted to its ids (cross-entropy
    over the masked logits) and the value to the game's reward, for ``epochs`` passes."""

    teacher: str = "ev"
    games: int = 0
    epochs: int = 80
    against: tuple[str, ...] = ()


def imitate(model: Any, setting: Setting, imitation: Imitation, seed: int) -> None:
    """Fit ``model`` to ``imitation.teacher``'s :func:`demonstrations` in ``setting``'s
    environments, against each bot of ``imitation.against`` in turn (:func:`fit`)."""
    started = time.perf_counter()
    fields = imitation.against or (None,)
    envs = [env for against in fields for env in environments(setting, against)]
    samples = demonstrations(envs, imitation, seed)
    versus = f" against {', '.join(imitation.against)}" if imitation.against else ""
    agree = fit(model, samples, imitation.epochs, seed)
    print(
        f"imitated {imitation.teacher} in {imitation.games} games{versus} "
        f"({len(samples[2]):,} ids, argmax agrees on {agree:.1%}) "
        f"in {time.perf_counter() - started:.0f} s",
        flush=True,
    )


Samples = tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64], Any]
"""Demonstrations: the features before each id, its mask, the id, the game's reward."""


def demonstrations(envs: Sequence[Any], imitation: Imitation, seed: int) -> Samples:
    """The teacher's ids in ``imitation.games`` games of ``envs`` (each in turn): it is
    asked at the learner's turn with the learner's view and legal actions, as ``sleuth play``
    asks a bot (a game's lazy sequence of them as it is: a Fugitive guess's are millions), and
    each id of its action is a sample (:data:`Samples`)."""
    from sleuth.core.match import offered
    from sleuth.core.registry import game_spec
    from sleuth.core.rng import derive_seed

    teacher = game_spec(envs[0].unwrapped.game.name).bot(imitation.teacher)
    teacher.warm()
    features_, masks, ids, returns = [], [], [], []
    for number in range(imitation.games):
        env = envs[number % len(envs)]
        base = env.unwrapped
        game_seed = derive_seed(seed, "imitation", number)
        observation, _ = env.reset(seed=game_seed)
        bot = teacher.make(base.game, base.seat, derive_seed(game_seed, "teacher"))
        first, done, reward = len(ids), False, 0.0
        while not done:
            episode = base.episode
            legal = offered(episode.state.legal_actions())
            for action_id in episode.builder.ids_of(bot.ask(episode.views[base.seat], legal)):
                features_.append(observation)
                masks.append(base.action_masks())
                ids.append(action_id)
                observation, reward, done, _, _ = env.step(action_id)
        returns.extend([float(reward)] * (len(ids) - first))
    return (
        np.array(features_, np.float32),
        np.array(masks, bool),
        np.array(ids, np.int64),
        np.array(returns, np.float32),
    )


def fit(model: Any, samples: Samples, epochs: int, seed: int) -> float:
    """Fit ``model``'s policy to the ids of ``samples`` (cross-entropy over the masked logits)
    and its value to the rewards, in ``epochs`` passes of minibatches of 256; the share of
    samples whose masked argmax is the teacher's id afterwards."""
    import torch

    x, m, y, g = (torch.as_tensor(array) for array in samples)
    policy = model.policy
    order = torch.Generator().manual_seed(seed)
    policy.set_training_mode(True)
    for _ in range(epochs):
        for batch in torch.randperm(len(y), generator=order).split(256):
            values, log_prob, _ = policy.evaluate_actions(x[batch], y[batch], m[batch])
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - g[batch]) ** 2).mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        chosen = policy.get_distribution(x, action_masks=samples[1]).distribution.probs.argmax(1)
    return float((chosen == y).float().mean())


def _save(model: Any, path: Path) -> None:
    """Save what the ``ppo`` bot needs: not the environments, nor the optimiser's moments
    (two thirds of the file; a fresh optimiser stands in while it is saved)."""
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    try:
        model.save(path, exclude=["env", "_last_obs", "_last_original_obs", "ep_info_buffer"])
    finally:
        model.policy.optimizer = optimizer


def evaluate(
    setting: Setting,
    models: Sequence[Path],
    games: int,
    seed: int,
    workers: int,
    against: str | None = None,
) -> list[tuple[str, float, tuple[float, float]]]:
    """Play ``games`` games of each model in the field (every other seat ``against`` when it
    is given; seats rotated as ``sleuth play`` does) and print a Markdown table: the model,
    then each bot's win rate with its 95% interval, then the share of games no side won (a
    draw by the round limit) with its interval."""
    rows = []
    for path in models:
        if not path.is_file():
            raise PolicyError(f"no model at {path}: train one first")
        result = run_tournament(
            setting.game, setting.bots(path, against), games, seed, dict(setting.options),
            workers=workers, rotate=setting.rotate,
        )  # fmt: skip
        if result.stopped_by is not None:
            raise SystemExit(result.exit_code)
        cells = []
        for standing in result.standings():
            low, high = standing.ci95
            cells.append(
                f"{standing.bot.split(':')[0]} {standing.win_rate:.3f} [{low:.3f}, {high:.3f}]"
            )
            if standing.bot.startswith("ppo"):
                rows.append((path.name, standing.win_rate, (low, high)))
        draws = sum(not row.winners for row in result.rows)
        low, high = wilson_interval(draws, len(result.rows))
        cells.append(f"draws {draws / len(result.rows):.3f} [{low:.3f}, {high:.3f}]")
        print(f"| {path.name} | {games} | " + " | ".join(cells) + " |", flush=True)
    return rows


def add_game_options(parser: argparse.ArgumentParser, setting: Setting) -> None:
    """Add a flag for each option of :attr:`Setting.options` (``max_rounds``: ``--max-rounds``),
    its default the setting's value, its text read by the game's own parser (a bad value is
    refused naming the flag)."""
    from sleuth.core.registry import game_info

    specs = {spec.name: spec for spec in game_info(setting.game).options}
    for name, value in setting.options:
        spec = specs[name]

        def parse(text: str, spec: Any = spec) -> Any:
            try:
                return spec.parse(text)
            except ValueError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from exc

        parser.add_argument(
            f"--{name.replace('_', '-')}",
            dest=name,
            type=parse,
            default=value,
            help=f"{spec.help} (default: {value}; the model records it)",
        )


def with_game_options(setting: Setting, args: argparse.Namespace) -> Setting:
    """``setting`` with the values its options' flags were given (:func:`add_game_options`)."""
    return replace(
        setting, options=tuple((name, getattr(args, name)) for name, _ in setting.options)
    )


def main(setting: Setting, description: str, trained: Path, shipped: Path) -> None:
    """The command line of a learning script: ``train`` (into ``trained`` by default) and
    ``evaluate`` (``shipped``, the model Sleuth ships, by default)."""
    from _args import positive

    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    learn = sub.add_parser("train", help="train a model and save it")
    learn.add_argument("--steps", type=positive, default=200_000)
    learn.add_argument("--seed", type=int, default=0)
    learn.add_argument("--model", type=Path, default=trained, metavar="FILE")
    learn.add_argument("--every", type=positive, default=None, help="steps between copies")
    imitate_help = "games of the teacher to imitate first (behaviour cloning)"
    learn.add_argument("--imitate", type=int, default=0, metavar="GAMES", help=imitate_help)
    learn.add_argument(
        "--teacher", default=setting.teacher, help=f"the bot imitated (default: {setting.teacher})"
    )
    learn.add_argument(
        "--start",
        type=Path,
        default=None,
        metavar="FILE",
        help="a saved model to go on training (default: a new one)",
    )
    learn.add_argument(
        "--epochs", type=positive, default=Imitation.epochs, help="passes of the imitation"
    )
    learn.add_argument("--learning-rate", type=float, default=3e-4)
    learn.add_argument(
        "--imitate-against",
        type=lambda text: tuple(text.split(",")),
        default=(),
        metavar="BOT,...",
        help="the bots the teacher's games are played against in turn, each at every other "
        "seat (default: the field)",
    )
    learn.add_argument("--quick", action="store_true", help=f"{QUICK_STEPS:,} steps (CI)")
    add_game_options(learn, setting)
    check = sub.add_parser("evaluate", help="play saved models against the field")
    check.add_argument("models", type=Path, nargs="*", metavar="FILE")
    check.add_argument("--games", type=positive, default=400)
    check.add_argument("--seed", type=int, default=1)
    check.add_argument("--workers", type=positive, default=1)
    check.add_argument(
        "--against",
        default=None,
        metavar="BOT",
        help=f"the bot of every other seat (default: the field {','.join(setting.seating)})",
    )
    check.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games (CI)")
    add_game_options(check, setting)
    args = parser.parse_args()
    setting = with_game_options(setting, args)
    try:
        if args.command == "train":
            steps = QUICK_STEPS if args.quick else args.steps
            games = QUICK_GAMES if args.quick else args.imitate
            imitation = Imitation(args.teacher, games, args.epochs, args.imitate_against)
            train(
                setting, steps, args.seed, args.model, args.every or steps, imitation,
                args.start, args.learning_rate,
            )  # fmt: skip
        else:
            games = QUICK_GAMES if args.quick else args.games
            models = args.models or [shipped]
            evaluate(setting, models, games, args.seed, args.workers, args.against)
    except PolicyError as exc:
        parser.exit(1, f"error: {exc}\n")
