"""The two search players every game with a :class:`~sleuth.core.searchmodel.SearchModel` gets.

* :class:`ISMCTSPlayer` (``ismcts``): single-observer information-set MCTS.  One tree over the
  information sets of the seat (and of the teammates that share its view); every iteration
  searches a fresh world drawn from the seat's belief.  With ``reuse``, the part of the tree
  that the game has actually reached is kept for the next decision (off by default: a kept
  tree is not in the view, so a player rebuilt mid-game would decide differently).
* :class:`DeterminizedPlayer` (``dmcts``): determinized MCTS.  ``worlds`` worlds are drawn (at
  most one per simulation), each is searched as a perfect-information game with an equal share
  of the iterations (the remainder is not spent), and the
  worlds vote for their most visited move (ties: the total visits).  It suffers from strategy
  fusion (it plans as if it knew the hidden world), which ISMCTS avoids.

:func:`search_bots` turns a model into the two :class:`~sleuth.core.bots.BotSpec` entries a
game registers, with their options (``sleuth play fox --bots ismcts:iterations=5000,quantum``).
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.core.events import View
from sleuth.core.game import Game, State
from sleuth.core.searchmodel import SearchModel, WorldSampler, event_key
from sleuth.search.catalogue import SEARCH_MARGIN as SEARCH_MARGIN
from sleuth.search.catalogue import search_bot_infos
from sleuth.search.rewards import Rewards
from sleuth.search.tree import Node, SearchSettings, TreeSearch, best_action, follow


class SearchError(SleuthError):
    """The search cannot run (e.g. a sampler drew a world where another seat is to move)."""


def _checked_world(sampler: WorldSampler[Any], bot: Bot) -> State[Any]:
    """A sampled world, refused unless the bot's seat is to move in it."""
    world = sampler.sample_state(bot.rng)
    if world.current_player() != bot.seat:
        raise SearchError(
            f"{bot.game.name} sampler drew a world where seat {world.current_player()} moves, "
            f"not seat {bot.seat}"
        )
    return world


class SearchPlayer(Bot):
    """A bot that searches with a game's :class:`SearchModel` and :class:`SearchSettings`."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        model: SearchModel[Any],
        settings: SearchSettings,
    ) -> None:
        super().__init__(game, seat, seed)
        self.model = model
        self.settings = settings
        self._prepare()

    def _root_moves(self, view: View, legal: Sequence[Hashable]) -> tuple[Hashable, ...]:
        """The model's :meth:`~SearchModel.root_moves` for this decision, each once; one that
        is not legal is a :class:`SearchError` (a bug of the model)."""
        extra = tuple(dict.fromkeys(self.model.root_moves(self.game, view, legal)))
        for move in extra:
            if move not in legal:
                raise SearchError(
                    f"{self.game.name} search model proposed an illegal move {move!r}"
                )
        return extra

    @abstractmethod
    def _prepare(self) -> None:
        """Set up the search from ``self.model`` and ``self.settings``."""

    def _open(self, view: View, legal: Sequence[Hashable]) -> tuple[WorldSampler[Any] | None, Any]:
        """The view's world sampler and a first world from it; or (None, a move) when there are
        too many worlds to sample (:class:`SolverLimitError`) and the model offers a move for
        that case (:meth:`SearchModel.unsampled_action`; otherwise the error propagates)."""
        try:
            sampler = self.model.sampler(self.game, view)
            return sampler, _checked_world(sampler, self)
        except SolverLimitError:
            move = self.model.unsampled_action(self.game, view, legal, self.rng)
            if move is None:
                raise
            return None, move


class ISMCTSPlayer(SearchPlayer):
    """Single-observer ISMCTS over the seat's information sets (see the module docstring)."""

    def _prepare(self) -> None:
        game, model, settings, seat = self.game, self.model, self.settings, self.seat
        team = Rewards(model.teams(game), game.sides()).team_of(seat)
        self.search = TreeSearch(game, model, frozenset(team), settings, self.rng)
        self.root: Node | None = None
        self.last_action: Hashable = None
        self.seen = 0
        self.reused = 0
        """Decisions that started from a subtree kept from the previous one."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if len(legal) == 1:  # nothing to decide; the next search starts afresh
            self.root = None
            return legal[0]
        started = time.perf_counter()  # the time budget covers sampling too
        sampler, world = self._open(view, legal)
        if sampler is None:
            self.root = None
            return world  # type: ignore[no-any-return]
        first = [world]
        extra = self._root_moves(view, legal)
        root = self._kept_root(view)
        if root is None:
            root = Node(self.seat, extra)
        else:
            root.extra = tuple(extra)
            self.reused += 1

        def draw() -> State[Any]:
            return first.pop() if first else sampler.sample_state(self.rng)

        self.search.run(root, draw, started)
        action = best_action(root, legal)
        self.root, self.last_action, self.seen = root, action, len(view.events)
        return action

    def _kept_root(self, view: View) -> Node | None:
        if self.root is None or not self.settings.reuse or len(view.events) < self.seen:
            return None
        observers = self.search.observers
        keys = [event_key(e, observers) for e in view.events[self.seen :]]
        return follow(self.root, self.last_action, keys, self.seat)


class DeterminizedPlayer(SearchPlayer):
    """Determinized MCTS with majority voting over ``settings.worlds`` sampled worlds."""

    def _prepare(self) -> None:
        game, model, settings = self.game, self.model, self.settings
        worlds = min(settings.worlds, settings.iterations)
        self.worlds = worlds
        """Worlds per decision: at most one per simulation."""
        share = replace(
            settings, iterations=settings.iterations // worlds, seconds=settings.seconds / worlds
        )
        everyone = frozenset(range(game.num_players))
        self.search = TreeSearch(game, model, everyone, share, self.rng)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        sampler, world = self._open(view, legal)
        if sampler is None:
            return world  # type: ignore[no-any-return]
        votes: Counter[Hashable] = Counter()
        visits: Counter[Hashable] = Counter()
        extra = self._root_moves(view, legal)
        share = self.search.settings.seconds
        for n in range(self.worlds):
            if n:
                world = _checked_world(sampler, self)
            root = Node(self.seat, extra)
            self.search.run(root, world.clone, started + n * share)  # world n's share
            votes[best_action(root, legal)] += 1
            for action, edge in root.edges.items():
                visits[action] += edge.visits
        # only voted moves are looked at: ``legal`` may be a huge lazy sequence
        return max(votes, key=lambda a: (votes[a], visits[a]))


def _settings(options: dict[str, Any]) -> SearchSettings:
    return SearchSettings(
        iterations=options["iterations"],
        seconds=options["seconds"],
        exploration=options["c"],
        policy=options["policy"],
        epsilon=options["epsilon"],
        depth=options["depth"],
        reuse=options.get("reuse", False),
        worlds=options.get("worlds", 10),
        coalition_reduction=options["coalition"],
    )


def search_bots(
    model: SearchModel[Any], roles: tuple[str, ...], defaults: Mapping[str, Any] | None = None
) -> tuple[BotSpec, BotSpec]:
    """The ``ismcts`` and ``dmcts`` bots of a game whose search model is ``model``, with the
    common options and the model's own (:attr:`SearchModel.options`).  ``defaults`` gives
    the game's own default values of common options (``{"policy": "heuristic"}``).  They are
    the bots :func:`~sleuth.search.catalogue.search_bot_infos` declares for the model's
    options and overhead (a game's catalogue lists those)."""
    ismcts_info, dmcts_info = search_bot_infos(
        roles, model.options, model.overhead, defaults, model.iteration_cost
    )

    def configured(options: dict[str, Any]) -> SearchModel[Any]:
        return model.configured(**{option.name: options[option.name] for option in model.options})

    def ismcts(game: Game[Any], seat: int, seed: int, **options: Any) -> Bot:
        return ISMCTSPlayer(game, seat, seed, configured(options), _settings(options))

    def dmcts(game: Game[Any], seat: int, seed: int, **options: Any) -> Bot:
        return DeterminizedPlayer(game, seat, seed, configured(options), _settings(options))

    return (
        ismcts_info.implemented(ismcts, model.warm_up),
        dmcts_info.implemented(dmcts, model.warm_up),
    )
