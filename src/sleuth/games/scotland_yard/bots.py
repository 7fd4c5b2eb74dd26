"""Scotland Yard players.

``random`` plays either side: a uniformly random legal action (for the detectives' seat, a
random move of the detective to move).  ``heuristic`` plays Mr. X by distance and hiding
(:func:`~sleuth.games.scotland_yard.tactics.heuristic_mrx`).  ``mc`` is the Monte Carlo detective of
``docs/scotland-yard.md`` (:mod:`~sleuth.games.scotland_yard.mc`), for either detective role.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from sleuth.core.bots import Bot
from sleuth.core.events import View
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.catalogue import ALL_ROLES as ALL_ROLES
from sleuth.games.scotland_yard.catalogue import DETECTIVE_ROLES as DETECTIVE_ROLES
from sleuth.games.scotland_yard.catalogue import GAME
from sleuth.games.scotland_yard.mc import (
    MonteCarloDetective,
    warm_up,
)
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.search import mrx_state
from sleuth.games.scotland_yard.tactics import heuristic_mrx


class RandomPlayer(Bot):
    """A uniformly random legal action."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self.rng.choice(legal)


class HeuristicMrX(Bot):
    """Mr. X who keeps away from the nearest detective, hides with black tickets where they
    hide the most and doubles out of danger (:func:`.tactics.heuristic_mrx`)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        state = mrx_state(cast(ScotlandYardGame, self.game), view)
        tracker = MrXBelief.from_view(self.game, view).tracker
        assert tracker is not None, "Mr. X moves after the start"
        return heuristic_mrx(state, tracker.possible, self.rng)


BOTS = (
    GAME.bot("random").implemented(RandomPlayer),
    GAME.bot("heuristic").implemented(HeuristicMrX),
    GAME.bot("mc").implemented(MonteCarloDetective, warm_up),
)
"""The game's own bots, as its catalogue declares them (the search bots come after)."""
