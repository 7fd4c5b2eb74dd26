"""Fugitive players.

``random`` chooses hierarchically, never uniformly over atomic actions (M9).  The Fugitive
picks a pile uniformly; then passes one time in four (always when it cannot place); otherwise
a uniform hideout among those it can place, paid with a random cheapest sprint set, one card
more one time in five (a bluff).  The Marshal picks a pile uniformly, then names one number
(two, one time in ten) uniformly among those she may name; she never skips.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.errors import OptionError
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.fugitive.belief import start_warm_up
from sleuth.games.fugitive.catalogue import GAME, MODELS
from sleuth.games.fugitive.catalogue import OPPONENTS as OPPONENTS
from sleuth.games.fugitive.engine.actions import PASS, Bonus, Draw, Guess
from sleuth.games.fugitive.engine.moves import Choices, Guesses, OpeningPlacements, Placements
from sleuth.games.fugitive.players.decoy import DecoyFugitive
from sleuth.games.fugitive.players.elusive import ElusiveFugitive
from sleuth.games.fugitive.players.fugitives import (
    BLUFF,
    DEAD_CARDS,
    HeuristicFugitive,
    SteadyFugitive,
    Strategy,
)
from sleuth.games.fugitive.players.marshals import BeliefMarshal, CandidatesMarshal, NotesMarshal
from sleuth.games.fugitive.players.policy import PolicyFugitive
from sleuth.games.fugitive.players.robust import RobustFugitive, model_mix
from sleuth.games.fugitive.rules import FUGITIVE
from sleuth.search.learned import policy_bot


class RandomPlayer(Bot):
    """Random play for either seat, chosen step by step (see the module docstring)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return random_move(legal, self.rng)


def random_move(legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    """The random players' move among ``legal`` (also the search players' rollout policy)."""
    rest = legal.rest if isinstance(legal, Choices) else legal
    if isinstance(rest, OpeningPlacements):  # a uniform hideout, a uniform cheapest placement
        hideouts = rest.hideouts()
        if not hideouts or (PASS in legal and rng.random() < 0.25):
            return PASS
        return rng.choice(rest.fewest_sprints(rng.choice(hideouts)))
    if isinstance(legal[0], Draw | Bonus):
        return rng.choice(legal)
    if isinstance(rest, Guesses):
        size = 2 if len(rest.numbers) > 1 and rng.random() < 0.1 else 1
        return Guess(tuple(rng.sample(rest.numbers, size)))
    if isinstance(legal[-1], Guess):  # the Manhunt: single numbers, listed
        return rng.choice(legal)
    assert isinstance(rest, Placements), f"unexpected legal actions {legal!r}"
    hideouts = rest.hideouts()
    if not hideouts or (PASS in legal and rng.random() < 0.25):
        return PASS
    return rest.cheapest(rng.choice(hideouts), rng, extra=int(rng.random() < 0.2))


def _random_player(game: Game[Any], seat: int, seed: int) -> Bot:
    return RandomPlayer(game, seat, seed)


def known_strategy(name: str, game: Game[Any]) -> Strategy:
    """The strategy of the Fugitive bot ``name`` of :data:`OPPONENTS`, with its default
    options."""
    if name == "heuristic":
        return HeuristicFugitive(game, FUGITIVE, 0, BLUFF)
    if name == "steady":
        return SteadyFugitive(game, FUGITIVE, 0, DEAD_CARDS)
    raise ValueError(f"no known strategy {name!r} (known: {', '.join(OPPONENTS)})")


def _belief_marshal(
    game: Game[Any], seat: int, seed: int, opponent: str, model: str, **options: Any
) -> Bot:
    strategy = None if opponent == "none" else known_strategy(opponent, game)
    if model in MODELS:
        return BeliefMarshal(game, seat, seed, opponent=strategy, model=model, **options)
    if strategy is not None:
        raise OptionError(
            f"bot belief of fugitive: model={model} and opponent={opponent} both name the "
            "Fugitive's play: give one"
        )
    mix = model_mix(model, game)
    return BeliefMarshal(game, seat, seed, mix=mix, mix_name=model, **options)


BOTS = (
    GAME.bot("random").implemented(_random_player),
    GAME.bot("heuristic").implemented(HeuristicFugitive),
    GAME.bot("elusive").implemented(ElusiveFugitive, start_warm_up),
    GAME.bot("steady").implemented(SteadyFugitive),
    GAME.bot("policy").implemented(PolicyFugitive),
    GAME.bot("decoy").implemented(DecoyFugitive, start_warm_up),
    GAME.bot("robust").implemented(RobustFugitive),
    GAME.bot("belief").implemented(_belief_marshal, start_warm_up),
    GAME.bot("notes").implemented(NotesMarshal),
    GAME.bot("candidates").implemented(CandidatesMarshal),
    policy_bot(GAME.bot("ppo"), Path(__file__).parent / "models" / "ppo.zip", start_warm_up),
)
"""The game's own bots, as its catalogue declares them (the search bots come after)."""
