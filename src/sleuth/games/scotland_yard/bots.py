"""Scotland Yard players.

``random`` plays either side: a uniformly random legal action (for the detectives' seat, a
random move of the detective to move).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View

ALL_ROLES = ("mrx", "detectives", "detective")
DETECTIVE_ROLES = ("detectives", "detective")


class RandomPlayer(Bot):
    """A uniformly random legal action."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self.rng.choice(legal)


BOTS = (BotSpec("random", ALL_ROLES, RandomPlayer, "a uniformly random legal move (either side)"),)
