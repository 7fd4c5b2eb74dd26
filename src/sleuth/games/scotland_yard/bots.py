"""Scotland Yard players.

``random`` plays either side: a uniformly random legal action (for the detectives' seat, a
random move of the detective to move).  ``heuristic`` plays Mr. X by distance and hiding
(:func:`~sleuth.games.scotland_yard.tactics.heuristic_mrx`).  ``mc`` is the Monte Carlo detective of
``docs/scotland-yard.md`` (:mod:`~sleuth.games.scotland_yard.mc`), for either detective role.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any, cast

from sleuth.core.bots import Bot
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.rng import derive_seed
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.catalogue import ALL_ROLES as ALL_ROLES
from sleuth.games.scotland_yard.catalogue import DETECTIVE_ROLES as DETECTIVE_ROLES
from sleuth.games.scotland_yard.catalogue import GAME
from sleuth.games.scotland_yard.mc import (
    IMPLEMENTATIONS,
    MCParams,
    PublicRecord,
    SampleFrom,
    decide,
)
from sleuth.games.scotland_yard.moves import PASS
from sleuth.games.scotland_yard.rollouts import decide as compiled_decide
from sleuth.games.scotland_yard.rollouts import warm_up
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


class MonteCarloDetective(Bot):
    """The Monte Carlo detective for a detective seat: on each turn, the decision of
    :func:`~sleuth.games.scotland_yard.mc.decide` (``impl="plain"``) or of its compiled twin
    (:mod:`~sleuth.games.scotland_yard.rollouts`, ``impl="fast"``, the same decisions) for the
    detective to move, seeded from the bot's seed and the turn.  It reads its view
    incrementally: Mr. X's possible stations from a
    :class:`~sleuth.games.scotland_yard.belief.MrXBelief`, the rest from a
    :class:`~sleuth.games.scotland_yard.mc.PublicRecord`."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        rollouts: int = MCParams.rollouts,
        depth: int = MCParams.depth,
        w1: float = MCParams.w1,
        w2: float = MCParams.w2,
        sample_from: SampleFrom = MCParams.sample_from,
        impl: str = "fast",
    ) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, ScotlandYardGame)
        if impl not in IMPLEMENTATIONS:
            raise ValueError(f"impl={impl!r}: one of {', '.join(IMPLEMENTATIONS)}")
        self.params = MCParams(rollouts, depth, w1, w2, sample_from)
        self.impl = impl
        self.belief = MrXBelief(game)
        self.record = PublicRecord(game)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        for event in view.events[self.belief.events_read :]:
            self.belief.update(event)
            self.record.read(event)
        assert self.belief.tracker is not None
        position = self.record.position(self.belief.tracker.possible)
        params = replace(self.params, seed=derive_seed(self.seed, "mc", self.belief.events_read))
        if self.impl == "fast":
            chosen = compiled_decide(position, params).move
        else:
            chosen = decide(position, params).move
        return PASS if chosen is None else chosen


BOTS = (
    GAME.bot("random").implemented(RandomPlayer),
    GAME.bot("heuristic").implemented(HeuristicMrX),
    GAME.bot("mc").implemented(MonteCarloDetective, warm_up),
)
"""The game's own bots, as its catalogue declares them (the search bots come after)."""
