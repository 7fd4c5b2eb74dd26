"""The robust Fugitive (``robust``): one Fugitive of the balance study's family a game, drawn
from its edition's mix.

:data:`MIXES` holds one mix per edition over the family the balance study
(``studies/fugitive_balance.py``) searches, ``policy`` and ``decoy`` Fugitives with their
options: the Fugitive's side of the restricted game it solved.  Each game the robust Fugitive
draws one member with its own seed and plays it for the whole game: the same seed gives the
same member (so the same moves), and over many seeds each member comes about as often as its
weight.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.errors import OptionError
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.options import parse_options
from sleuth.core.registry import parse_option_texts
from sleuth.core.rng import derive_seed
from sleuth.games.fugitive.catalogue import GAME
from sleuth.games.fugitive.players.decoy import DecoyFugitive
from sleuth.games.fugitive.players.policy import PolicyFugitive
from sleuth.games.fugitive.rules import FUGITIVE

MEMBERS: dict[str, type[PolicyFugitive]] = {"policy": PolicyFugitive, "decoy": DecoyFugitive}
"""The bots a mix may draw, by name."""

MIXES: dict[str, tuple[tuple[float, str], ...]] = {
    "first": ((1.0, "policy:stride=3"),),
    "second": ((0.839, "decoy:weight=50"), (0.161, "decoy:stride=3")),
}
"""The robust Fugitive's mix per edition: (weight, bot spec of a member of :data:`MEMBERS`)
pairs, weights summing to 1 (docs/fugitive-study.md says which solve each one is)."""


def member(spec: str) -> tuple[type[PolicyFugitive], dict[str, Any]]:
    """The class and keyword arguments of the family member ``spec`` (``decoy:weight=50``;
    options left out take their defaults), parsed as the bot's spec parses them: a name
    outside :data:`MEMBERS`, or a bad option name or value, is an
    :class:`~sleuth.core.errors.OptionError` naming it."""
    name, *texts = spec.split(":")
    if name not in MEMBERS:
        raise OptionError(
            f"{spec!r}: the robust Fugitive draws only {' or '.join(MEMBERS)} Fugitives"
        )
    options = parse_options(GAME.bot(name).options, parse_option_texts(texts), f"bot {name!r}")
    return MEMBERS[name], options


def model_mix(model: str, game: Game[Any]) -> tuple[tuple[float, PolicyFugitive], ...]:
    """The mix a belief Marshal's ``model`` names (a ``robust`` or ``policy/...`` value of
    :func:`~sleuth.games.fugitive.catalogue.parse_model`): the edition's :data:`MIXES`, or one
    ``policy`` Fugitive, each member with its weight, playing the Fugitive's seat so that its
    stated strategy can weigh the Marshal's worlds.  A ``decoy`` member states the odds of the
    ``policy`` Fugitive it is built on (its own choice, driven by her posterior, is not
    modelled: the Marshal's floor keeps every world it plays possible)."""
    if model == "robust":
        mix = MIXES[game.edition]  # type: ignore[attr-defined]
    elif model.partition("/")[0] == "policy":
        options = model.partition("/")[2].replace("/", ":")
        mix = ((1.0, f"policy:{options}" if options else "policy"),)
    else:
        raise ValueError(f"model {model!r} names no mix of policy Fugitives")
    members = [(weight, member(spec)) for weight, spec in mix]
    return tuple((weight, cls(game, FUGITIVE, 0, **options)) for weight, (cls, options) in members)


class RobustFugitive(Bot):
    """See the module docstring: the member of each game is drawn from the edition's mix with
    the bot's seed, and plays the whole game."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        mix = MIXES[game.edition]  # type: ignore[attr-defined]
        weights = [w for w, _ in mix]
        chosen = random.Random(derive_seed(seed, "policy")).choices(range(len(mix)), weights)[0]
        self.member = mix[chosen][1]
        """The bot spec of the family member this game plays."""
        cls, options = member(self.member)
        self._player = cls(game, seat, seed, **options)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self._player.reseed(seed)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self._player.act(view, legal)
