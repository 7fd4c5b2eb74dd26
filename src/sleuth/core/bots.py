"""The bot protocol.

A bot is created for one seat of one game with a seed.  On its turn it receives its
:class:`~sleuth.core.events.View` (never the state) and the legal actions, and returns one of
them.  The match runner checks the returned action against the rules engine whatever the bot
did, so a bot that consults the engine itself is validated twice.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sleuth.core.events import View
from sleuth.core.game import Game


class Bot(ABC):
    """A player for one seat.  Subclasses keep any belief they need between calls."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        """Choose an action from ``legal`` knowing only ``view``."""

    def game_over(self, view: View) -> None:  # noqa: B027 - an optional hook
        """Called once when the game has ended, with the final view (reveals included)."""


BotFactory = Callable[[Game[Any], int, int], Bot]
"""Builds a bot from ``(game, seat, seed)``."""


@dataclass(frozen=True)
class BotSpec:
    """A named bot of a game, the roles it can play, and how to build it."""

    name: str
    roles: tuple[str, ...]
    factory: BotFactory
    description: str

    def make(self, game: Game[Any], seat: int, seed: int) -> Bot:
        return self.factory(game, seat, seed)
