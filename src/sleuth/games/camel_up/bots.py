"""Camel Up bots.

``random`` is the source's RandomBot: it picks an action *type* uniformly among the types that
have a legal action (roll, leg bet, desert tile, overall bet), then a variant of that type
uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.camel_up.actions import ROLL, CamelAction, LegBet, OverallBet, PlaceTile


def random_action(legal: Sequence[CamelAction], rng: random.Random) -> CamelAction:
    """Uniform over the action types present in ``legal``, then uniform within the type.

    ``legal`` is in the engine's order: the roll, leg bets, tiles, overall bets."""
    groups: list[list[CamelAction]] = [[ROLL], [], [], []]
    for action in legal:
        if isinstance(action, LegBet):
            groups[1].append(action)
        elif isinstance(action, PlaceTile):
            groups[2].append(action)
        elif isinstance(action, OverallBet):
            groups[3].append(action)
    present = [g for g in groups if g]
    group = present[int(rng.random() * len(present))]
    return group[int(rng.random() * len(group))]


class RandomBot(Bot):
    """The source's RandomBot (see the module docstring)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return random_action(legal, self.rng)  # type: ignore[arg-type]


def _random_bot(game: Game[Any], seat: int, seed: int) -> Bot:
    return RandomBot(game, seat, seed)


BOTS = (
    BotSpec(
        "random",
        ("player",),
        _random_bot,
        "the source's RandomBot: a uniform action type, then a uniform variant",
    ),
)
