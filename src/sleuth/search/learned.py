"""Players that follow a policy learned over a game's encoding (the ``ppo`` bots).

A learned policy is a model of sb3-contrib's ``MaskablePPO`` (the ``learn`` extra: torch and
sb3-contrib), trained by the scripts under ``studies/`` (docs/learning.md) on the observations
of :mod:`sleuth.core.encoding`.  What it reads, at every id of an action being built, is
:func:`features`: the seat's observation followed by the mask of the ids that may come next.

A model file carries what it was trained on (:data:`TRAINED_ON`: the game, the version of its
encoding, its options, the seat's role and whether the belief segments are on): a model loaded
for another game, another encoding version (both named), other options or another role is
refused with the difference named, never played blindly.

Invariants of :class:`PolicyPlayer`: it reads its view and the legal actions only (its
builder is made on a world the game's search sampler draws from the view: the encodings
guarantee the mask is the same in every such world, ``sleuth.testing.encoding`` checks it);
it picks the masked argmax, so its decisions depend only on the view (and, through the
sampled world, on its seed); importing this module imports neither torch nor sb3-contrib,
loading a model does.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sleuth.core.bots import Bot, BotInfo, BotSpec
from sleuth.core.encoding import Encoding, Mask, Observation
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON, View
from sleuth.core.game import Game
from sleuth.core.registry import game_spec

LEARN_EXTRA = (
    "the learn extra (pip install torch==2.13.0 --index-url "
    "https://download.pytorch.org/whl/cpu, then pip install 'sleuth[learn]')"
)
"""How to install what a learned player needs (the CPU build of torch first: the default
build pulls gigabytes of CUDA libraries)."""

TRAINED_ON = "sleuth_trained_on"
"""The model attribute (saved in the model file) naming what it was trained on: ``game``,
``encoding`` (:attr:`Encoding.version <sleuth.core.encoding.Encoding.version>`), ``options``
(canonical), ``role``, ``belief``, ``observation`` and ``actions`` (sizes)."""


class PolicyError(SleuthError):
    """A learned model that cannot be played: the learn extra is missing, the file is absent,
    or it was trained on another game, another encoding version, other options or another
    role (the message says)."""


def features(observation: Observation, mask: Mask) -> npt.NDArray[np.float32]:
    """What a policy reads: ``observation`` followed by ``mask`` as 0/1 floats."""
    return np.concatenate([observation, mask.astype(np.float32)])


def learning_libraries() -> Any:
    """sb3-contrib's ``MaskablePPO`` class, imported now (torch with it); a
    :class:`PolicyError` naming the learn extra when either library is missing."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ModuleNotFoundError as exc:
        missing = f"{exc.name} is not installed: learned players need {LEARN_EXTRA}"
        raise PolicyError(missing) from exc
    torch.set_num_threads(1)  # a small network: one thread is fastest and shares the machine
    return MaskablePPO


def trained_on(encoding: Encoding[Any], role: str, belief: bool) -> dict[str, JSON]:
    """The :data:`TRAINED_ON` record of a model trained for ``role`` on ``encoding``."""
    return {
        "game": encoding.game.name,
        "encoding": encoding.version,
        "options": encoding.game.options(),
        "role": role,
        "belief": belief,
        "observation": encoding.size(belief) + encoding.action_count,
        "actions": encoding.action_count,
    }


_LOADED: dict[Path, Any] = {}
"""Models by resolved path: a process loads each file once (bots are made for every game)."""


def load_policy(path: Path, encoding: Encoding[Any], role: str) -> tuple[Any, bool]:
    """The model at ``path`` and whether it reads the belief segments; a
    :class:`PolicyError` when the file is missing, is no model MaskablePPO loads, or cannot
    play ``role`` of ``encoding``'s game (module docstring)."""
    ppo = learning_libraries()
    path = path.resolve()
    if not path.is_file():
        raise PolicyError(f"no model at {path}: train one (docs/learning.md)")
    if path not in _LOADED:
        try:
            _LOADED[path] = ppo.load(path, device="cpu")
        except Exception as exc:  # whatever a damaged or foreign file makes the loader raise
            reason = f"{type(exc).__name__}: {exc}"
            raise PolicyError(f"{path}: not a model MaskablePPO can load ({reason})") from exc
    model = _LOADED[path]
    meta = getattr(model, TRAINED_ON, None)
    if not isinstance(meta, dict):
        raise PolicyError(f"{path}: not a Sleuth model (it does not say what it was trained on)")
    belief = bool(meta.get("belief"))
    expected = trained_on(encoding, role, belief)
    if meta.get("game") == expected["game"] and meta.get("encoding") != encoding.version:
        raise PolicyError(
            f"{path}: trained on version {meta.get('encoding')} of {encoding.game.name}'s "
            f"encoding, this Sleuth's is version {encoding.version}: train it again "
            "(docs/learning.md)"
        )
    for key, value in expected.items():
        if meta.get(key) != value:
            raise PolicyError(
                f"{path}: trained with {key} {meta.get(key)!r}, cannot play {value!r}"
            )
    return model, belief


def warm_up() -> None:
    """The ``ppo`` bots' warm-up: import torch and sb3-contrib (seconds), or say which extra
    is missing before any game starts."""
    learning_libraries()


def policy_bot(
    info: BotInfo, shipped: Path, game_warm_up: Callable[[], None] | None = None
) -> BotSpec:
    """The playable ``ppo`` bot of ``info`` (:func:`~sleuth.search.catalogue.policy_bot_info`),
    playing ``shipped`` unless its ``model`` option names another file; its warm-up is
    :func:`warm_up`, then ``game_warm_up`` (the game's belief, which its observations read)."""

    def make(game: Game[Any], seat: int, seed: int, model: str) -> Bot:
        return PolicyPlayer(game, seat, seed, model or str(shipped))

    if game_warm_up is None:
        return info.implemented(make, warm_up)
    then = game_warm_up

    def warm_both() -> None:
        warm_up()
        then()

    return info.implemented(make, warm_both)


class PolicyPlayer(Bot):
    """Plays a learned model's masked argmax, one id at a time (module docstring)."""

    def __init__(self, game: Game[Any], seat: int, seed: int, model: str) -> None:
        super().__init__(game, seat, seed)
        spec = game_spec(game.name)
        self.encoding = spec.encoding_for(game)
        self.search = spec.search
        if self.search is None:
            raise PolicyError(f"{game.name} has no search sampler to build its action ids on")
        self.model, self.belief = load_policy(Path(model), self.encoding, game.roles[seat])

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        assert self.search is not None
        world = self.search.sampler(self.game, view).sample_state(self.rng)
        builder = self.encoding.builder(world)
        while True:
            observation = self.encoding.observe(view, builder.prefix, self.belief)
            mask = self.encoding.mask(builder)
            chosen, _ = self.model.predict(
                features(observation, mask), action_masks=mask.astype(bool), deterministic=True
            )
            action: Hashable | None = builder.push(int(chosen))
            if action is not None:
                if action not in legal:  # the sampler or the encoding broke its promise
                    raise PolicyError(f"{self.game.name}: built {action!r}, not a legal action")
                return action
