"""Scotland Yard players.

``random`` plays either side: a uniformly random legal action (for the detectives' seat, a
random move of the detective to move).  ``heuristic`` plays Mr. X by distance and hiding
(:func:`~sleuth.games.scotland_yard.tactics.heuristic_mrx`).  ``mc`` is the Monte Carlo detective of
``docs/scotland-yard.md`` (:mod:`~sleuth.games.scotland_yard.mc`), for either detective role.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.options import OptionSpec, parse_choice, parse_float, parse_int
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.mc import (
    IMPLEMENTATIONS,
    SAMPLE_FROM,
    MCParams,
    MonteCarloDetective,
    move_budget,
    warm_up,
)
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.search import mrx_state
from sleuth.games.scotland_yard.tactics import heuristic_mrx

ALL_ROLES = ("mrx", "detectives", "detective")
DETECTIVE_ROLES = ("detectives", "detective")


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


MC_OPTIONS = (
    OptionSpec(
        "rollouts",
        MCParams.rollouts,
        "rollouts per candidate move (N)",
        parse_int(1),
        interactive_max=1000,
    ),
    OptionSpec(
        "depth", MCParams.depth, "turns each rollout looks ahead", parse_int(1), interactive_max=20
    ),
    OptionSpec(
        "w1", MCParams.w1, "weight of the capture rate", parse_float(0.0), interactive_max=100.0
    ),
    OptionSpec(
        "w2",
        MCParams.w2,
        "weight of the mean distance to Mr. X",
        parse_float(0.0),
        interactive_max=100.0,
    ),
    OptionSpec(
        "sample_from",
        MCParams.sample_from,
        "where rollouts put Mr. X: possible (the tracker) or reachable (from the last reveal)",
        parse_choice(SAMPLE_FROM),
    ),
    OptionSpec(
        "impl", "fast", "fast (compiled) or plain (the same moves)", parse_choice(IMPLEMENTATIONS)
    ),
)

BOTS = (
    BotSpec("random", ALL_ROLES, RandomPlayer, "a uniformly random legal move (either side)"),
    BotSpec(
        "heuristic",
        ("mrx",),
        HeuristicMrX,
        "Mr. X: farthest from the nearest detective, black where it hides most, double in danger",
    ),
    BotSpec(
        "mc",
        DETECTIVE_ROLES,
        MonteCarloDetective,
        "Monte Carlo detective: random rollouts per move, score = capture rate - weighted distance",
        MC_OPTIONS,
        warm_up=warm_up,
        move_budget=move_budget,
    ),
)
