"""The conformance kit: the checks every registered game must pass.

Like PettingZoo's ``api_test`` or OpenSpiel's random-playthrough fuzzing, the kit takes a
registered game (by name or :class:`~sleuth.core.registry.GameSpec`, with options) and checks,
over seeded games:

- :func:`check_playthrough` — uniform random play (chance sampled) reaches the end, with a
  consistent outcome;
- :func:`check_moves_show_events` — a seat never decides twice after the same events (a bot's
  decision number is the length of its view);
- :func:`check_action_texts` — ``parse_action(str(a)) == a`` (same type) for every legal action;
  texts of no action raise ``ActionParseError``;
- :func:`check_illegal_actions` — an illegal ``apply`` raises ``IllegalActionError`` and
  changes nothing (a full :func:`~sleuth.testing.snapshot.snapshot` before and after);
- :func:`check_clones` — a clone and its original are independent;
- :func:`check_events` — events are frozen, read-only, and read back from their JSON form;
- :func:`check_views` — no view shows a seat a private part of an event it may not see;
- :func:`check_log_replay` — a match's log replays to the same outcome and final state;
- :func:`check_outcome` — a finished game's ``Outcome`` has a declared termination, winners
  among the game's sides, equal shares for the seats of a side and shares summing to one win,
  and the log's end line reads back and replays as that same ``Outcome``;
- :func:`check_same_seed` — the same seed plays the same game;
- :func:`check_sampler` — the game's search sampler draws only worlds that reproduce the view,
  and can draw the true one;
- :func:`check_bot` — a registered bot plays whole games without forfeiting;
- :func:`check_rebuilt_bot` — a bot built afresh partway through a game continues it as the
  bot that never stopped.

Every failure is a :class:`ConformanceError` (an ``AssertionError``) whose message names the
game, its options, the seed and the step.  :func:`check_game` runs them all; a new game gets
them by registering (``tests/test_conformance.py`` runs them on every registered game).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sleuth.core.registry import GameSpec
from sleuth.core.searchmodel import SearchModel
from sleuth.testing.case import Case, ConformanceError
from sleuth.testing.engine import (
    check_action_texts,
    check_clones,
    check_events,
    check_illegal_actions,
    check_moves_show_events,
    check_playthrough,
)
from sleuth.testing.matches import (
    check_bot,
    check_log_replay,
    check_rebuilt_bot,
    check_same_seed,
    check_views,
)
from sleuth.testing.outcomes import check_outcome
from sleuth.testing.sampler import SamplerReport, check_sampler

__all__ = [
    "GAME_CHECKS",
    "Case",
    "ConformanceError",
    "SamplerReport",
    "check_action_texts",
    "check_bot",
    "check_clones",
    "check_events",
    "check_game",
    "check_illegal_actions",
    "check_log_replay",
    "check_moves_show_events",
    "check_outcome",
    "check_playthrough",
    "check_rebuilt_bot",
    "check_same_seed",
    "check_sampler",
    "check_views",
]

GAME_CHECKS = (
    check_playthrough,
    check_moves_show_events,
    check_action_texts,
    check_illegal_actions,
    check_clones,
    check_events,
    check_views,
    check_log_replay,
    check_outcome,
    check_same_seed,
)
"""The checks that need nothing but the game and a seed."""


def check_game(
    game: str | GameSpec,
    options: Mapping[str, Any] | None = None,
    seeds: Iterable[int] = (0, 1),
    bots: Iterable[str] | None = None,
    model: SearchModel[Any] | None = None,
) -> None:
    """Run every check on ``game`` with ``options`` for each seed: :data:`GAME_CHECKS`, the
    sampler of ``model`` (default: the game's :attr:`~sleuth.core.registry.GameSpec.search`)
    if there is one, and :func:`check_bot` and :func:`check_rebuilt_bot` for ``bots``
    (default: every bot the game registers, with its default options)."""
    case = Case.of(game, options)
    model = case.spec.search if model is None else model
    names = [b.name for b in case.spec.bots] if bots is None else list(bots)
    for seed in seeds:
        for check in GAME_CHECKS:
            check(case, seed)
        if model is not None:
            check_sampler(case, model, seed)
        for name in names:
            check_bot(case, name, seed)
            check_rebuilt_bot(case, name, seed)
