"""Camel Up bots.

``random`` is the source's RandomBot: it picks an action *type* uniformly among the types that
have a legal action (roll, leg bet, desert tile, overall bet), then a variant of that type
uniformly.  ``ev`` is the greedy expected-value bot: it plays the action of highest expected
coins (:mod:`sleuth.games.camel_up.advice`) from exact odds.

Bots that think (:class:`CamelBot`) keep the table as their seat sees it
(:class:`~sleuth.games.camel_up.belief.TableTracker`, V3) and choose among the legal actions
that the engine computes *on that observed state*: the action is validated by the bot's own
query and again by the match runner and the engine (V4).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.camel_up.actions import ROLL, CamelAction, LegBet, OverallBet, PlaceTile
from sleuth.games.camel_up.advice import advise
from sleuth.games.camel_up.belief import InferringTracker, TableTracker
from sleuth.games.camel_up.catalogue import GAME
from sleuth.games.camel_up.odds import game_odds, leg_counts
from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.strategy import Weights, strong_values
from sleuth.games.camel_up.track import arrangement
from sleuth.search.learned import policy_bot


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


class CamelBot(Bot):
    """A bot that decides from the observed state of its seat."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, CamelUpGame)
        self.tracker = TableTracker(game)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        state = self.tracker.update(view.events)
        action = self.decide(state)
        if action not in state.legal_actions():  # the bot's own check (V4)
            raise AssertionError(f"{type(self).__name__} chose an illegal {action}")
        return action

    def decide(self, state: CamelState) -> CamelAction:
        """The action for the observed ``state`` (the seat to move is this bot's)."""
        raise NotImplementedError


class ExpectedValueBot(CamelBot):
    """Greedy: the legal action of highest expected coins (see the module docstring)."""

    def __init__(self, game: Game[Any], seat: int, seed: int, rollouts: int = 2_000) -> None:
        super().__init__(game, seat, seed)
        self.rollouts = rollouts

    def decide(self, state: CamelState) -> CamelAction:
        return advise(state, self.rollouts, self.seed + state.turns).best


class StrongBot(CamelBot):
    """Expected coins adjusted for denial, threat and risk, with opponents' hidden cards inferred
    from when they were placed (:mod:`~sleuth.games.camel_up.strategy`,
    :mod:`~sleuth.games.camel_up.belief`)."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        rollouts: int = 2_000,
        richest: float = Weights.richest,
        others: float = Weights.others,
        risk: float = Weights.risk,
        lock: float = Weights.lock,
        sharpness: float = 3.0,
    ) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, CamelUpGame)
        self.rollouts = rollouts
        self.weights = Weights(richest, others, risk, lock)
        self.inference = sharpness >= 0
        self.tracker = InferringTracker(game, max(sharpness, 0.0), min(rollouts, 500))

    def decide(self, state: CamelState) -> CamelAction:
        assert isinstance(self.tracker, InferringTracker)
        beliefs = self.tracker.beliefs if self.inference else {}
        advice = advise(state, self.rollouts, self.seed + state.turns, beliefs=beliefs)
        values = strong_values(state, advice, beliefs, self.weights)
        return max(values, key=lambda action: values[action])


def warm_up(game: CamelUpGame) -> None:
    """Compile the odds kernels (or load them from Numba's cache) and then, in the 1st edition,
    load or build the race table now, not during a timed move.  The kernels come first: in an
    assistant's background warm-up, the first odds build the table themselves if they come
    sooner (the two then run side by side)."""
    start = arrangement(
        {0: [0, 1], 1: [2], 2: [3, 4], **({14: [5, 6]} if game.edition == 2 else {})}
    )
    leg_counts(start, None, {}, game.edition)
    game_odds(start, None, {}, game.edition, rollouts=10)


def warm_up_first() -> None:
    """:func:`warm_up` for the 1st edition (its kernels and the race table)."""
    warm_up(CamelUpGame(edition=1))


def warm_up_second() -> None:
    """:func:`warm_up` for the 2nd edition."""
    warm_up(CamelUpGame(edition=2))


def warm_up_bots() -> None:
    """The thinking bots' :attr:`~sleuth.core.bots.BotSpec.warm_up`: both editions' kernels
    and the race table (built once per machine, even for a 2nd-edition match)."""
    warm_up_first()
    warm_up_second()


def _random_bot(game: Game[Any], seat: int, seed: int) -> Bot:
    return RandomBot(game, seat, seed)


BOTS = (
    GAME.bot("random").implemented(_random_bot),
    GAME.bot("ev").implemented(ExpectedValueBot, warm_up_bots),
    GAME.bot("strong").implemented(StrongBot, warm_up_bots),
    policy_bot(GAME.bot("ppo"), Path(__file__).parent / "models" / "ppo.zip"),
)
"""The bots, as the game's catalogue declares them."""
