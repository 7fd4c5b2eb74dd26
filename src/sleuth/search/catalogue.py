"""What the search bots are, without the search: their options and move budget.

:func:`search_bot_infos` declares a game's ``ismcts`` and ``dmcts`` bots
(:class:`~sleuth.core.bots.BotInfo`) from the game's own search options and overhead; a game's
catalogue lists them, and :func:`sleuth.search.players.search_bots` makes the playing bots
from the same declarations.  This module imports neither the search nor any game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sleuth.core.bots import BotInfo
from sleuth.core.options import OptionSpec, parse_bool, parse_choice, parse_float, parse_int
from sleuth.core.searchmodel import ITERATION_COST

POLICIES = ("random", "heuristic")
"""The rollout policies of the tree search (:class:`~sleuth.search.tree.SearchSettings`)."""

SEARCH_MARGIN = 1.0
"""CPU seconds a search bot declares beyond its search for a move (sampling the first world,
choosing the move; see :class:`SearchBudget`)."""

COMMON_OPTIONS = (
    OptionSpec("iterations", 1000, "simulations per move", parse_int(1), interactive_max=5000),
    OptionSpec(
        "seconds",
        0.0,
        "wall-clock time per move, at most (0: no time stop, always the full iterations); "
        "a time stop makes the moves depend on the machine's speed and load",
        parse_float(0.0),
        interactive_max=10.0,
    ),
    OptionSpec(
        "c",
        0.7,
        "UCB exploration constant (rewards are win shares in [0, 1])",
        parse_float(0.0),
        interactive_max=100.0,
    ),
    OptionSpec(
        "policy",
        "random",
        "rollout policy: random, or heuristic (epsilon-greedy)",
        parse_choice(POLICIES),
    ),
    OptionSpec(
        "epsilon",
        0.1,
        "random-move probability of the heuristic policy",
        parse_float(0.0, 1.0),
        interactive_max=1.0,
    ),
    OptionSpec(
        "depth",
        0,
        "moves per simulation before the game's evaluation (0: to the end)",
        parse_int(0),
        interactive_max=1000,
    ),
    OptionSpec(
        "coalition",
        0.0,
        "coalition reduction r for teams (a teammate's win is 1 - r)",
        parse_float(0.0, 1.0),
        interactive_max=1.0,
    ),
)
"""The options of both search bots, before a game's own (:attr:`SearchModel.options`)."""
REUSE = OptionSpec("reuse", False, "keep the reached subtree between moves", parse_bool)
"""``ismcts`` only: keep the tree between moves.  Off by default: a kept tree is state that
the view does not hold, so a bot rebuilt mid-game (:meth:`~sleuth.core.bots.Bot.ask`) would
decide differently from the one that kept it."""
WORLDS = OptionSpec("worlds", 10, "worlds sampled per move", parse_int(1), interactive_max=100)
"""``dmcts`` only: worlds per move."""


@dataclass(frozen=True)
class SearchBudget:
    """The CPU seconds per move a search bot declares to the match runner: its search (its
    ``iterations`` at the game's ``iteration_cost`` each, or its ``seconds`` when that time
    stop comes first), the game's ``overhead`` (its model's
    :attr:`~sleuth.core.searchmodel.SearchModel.overhead`) and :data:`SEARCH_MARGIN`.  (A value,
    so that two declarations of one game's bots compare equal.)"""

    overhead: float
    iteration_cost: float = ITERATION_COST

    def __call__(self, iterations: int, seconds: float, **_: Any) -> float:
        search = iterations * self.iteration_cost
        if seconds > 0:
            search = min(search, seconds)
        return search + self.overhead + SEARCH_MARGIN


def common_options(defaults: Mapping[str, Any]) -> tuple[OptionSpec, ...]:
    """The common options, with the game's ``defaults`` (each parsed by its option)."""
    unknown = set(defaults) - {o.name for o in COMMON_OPTIONS}
    if unknown:
        raise ValueError(f"defaults for {sorted(unknown)}: not common search options")
    return tuple(
        replace(o, default=o.parse(defaults[o.name])) if o.name in defaults else o
        for o in COMMON_OPTIONS
    )


def search_bot_infos(
    roles: tuple[str, ...],
    options: tuple[OptionSpec, ...] = (),
    overhead: float = 0.0,
    defaults: Mapping[str, Any] | None = None,
    iteration_cost: float = ITERATION_COST,
) -> tuple[BotInfo, BotInfo]:
    """The ``ismcts`` and ``dmcts`` bots of a game: the common options (with the game's
    ``defaults``, such as ``{"policy": "heuristic"}``), then the game's own ``options`` and
    the budget with its ``overhead`` and ``iteration_cost`` — its search model's
    :attr:`options`, :attr:`overhead` and :attr:`iteration_cost`.  Options that clash with the
    common ones are a ValueError."""
    clash = {o.name for o in options} & {o.name for o in COMMON_OPTIONS}
    if clash:
        raise ValueError(f"search model options {sorted(clash)} clash with the common ones")
    common = common_options(defaults or {})
    budget = SearchBudget(overhead, iteration_cost)
    return (
        BotInfo(
            "ismcts",
            roles,
            "information-set MCTS: one tree over its information sets, a sampled world "
            "per simulation",
            (*common, *options, REUSE),
            budget,
        ),
        BotInfo(
            "dmcts",
            roles,
            "determinized MCTS: search sampled worlds as if they were known, then vote",
            (*common, *options, WORLDS),
            budget,
        ),
    )


def _model_text(raw: Any) -> str:
    return str(raw).strip()


def _names_model(raw: Any) -> bool:
    return _model_text(raw) != ""


MODEL = OptionSpec(
    "model",
    "",
    "the model file to play (empty: the model shipped with Sleuth)",
    _model_text,
    file_values=_names_model,
)
"""The ``ppo`` bots' one option: a model file (docs/learning.md), read by the command line
only; the web app plays the shipped model."""


def policy_bot_info(roles: tuple[str, ...], move_budget: float | None = None) -> BotInfo:
    """The ``ppo`` bot of a game that ships a learned model for ``roles``
    (:class:`~sleuth.search.learned.PolicyPlayer`), declaring ``move_budget`` (where its
    observations count the game's belief, as its belief players do)."""
    return BotInfo(
        "ppo",
        roles,
        "a policy learned by MaskablePPO (the learn extra: torch, sb3-contrib): masked argmax",
        (MODEL,),
        move_budget,
    )
