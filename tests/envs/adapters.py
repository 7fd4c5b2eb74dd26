"""The games the adapter tests run on: every built-in game whose spec has an encoding, with
small options, and the bots that play them in the reproducibility tests."""

from __future__ import annotations

from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.match import MatchRecord, offered, run_match
from sleuth.core.registry import builtin_game_names, game_spec
from sleuth.core.rng import derive_seed
from sleuth.envs.episode import Episode

OPTIONS: dict[str, dict[str, Any]] = {
    "fox": {"graph": "path:5"},
    "camel-up": {"players": 2, "turn_cap": 20},
    "scotland-yard": {"detectives": 2, "max_rounds": 6},
    "cluedo": {"max_turns": 30},
    "fugitive": {"max_rounds": 6},
}
"""Each game's options in the adapter tests, small so that random games are short (a game left
out plays with its defaults).  Typed as the game's ``options()`` gives them, each one an
OpenSpiel parameter (a number, a boolean or a text without commas)."""

BOTS: dict[str, dict[str, str]] = {
    "fox": {"hunter": "solver", "fox": "quantum"},
}
"""The bot of each role in the reproducibility tests, besides ``random`` (which every game
has for every role)."""

GAMES = [name for name in builtin_game_names() if game_spec(name).encoding is not None]
"""The built-in games with an encoding, from the registry (a game joins once it has one)."""


RL_MISSING = "not installed: the rl extra (pip install -e '.[rl]') is needed"
"""The reason an adapter test module gives ``pytest.importorskip`` (the plain CI step has no
extras)."""


def options(name: str) -> dict[str, Any]:
    """The test options of the game ``name``."""
    return dict(OPTIONS.get(name, {}))


def bot_sets(name: str) -> list[dict[str, str]]:
    """Bots by role for the reproducibility tests: all random, then the game's own choice."""
    own = BOTS.get(name)
    return [{}, own] if own else [{}]


def reference(name: str, bots: dict[str, str], seed: int) -> MatchRecord:
    """The match runner's game of ``name`` with the bots of ``bots`` (by role, ``random`` for
    the others) and ``seed``: the reference the adapters' games are compared with."""
    spec = game_spec(name)
    game = spec.make(options(name))
    seated = [spec.bot(bots.get(role, "random")) for role in game.roles]
    return run_match(game, seated, seed, time_limit=None)


def seat_bots(record: MatchRecord, episode: Episode, seed: int) -> list[Bot]:
    """The bots of ``record`` built for ``episode``'s game, seeded as the runner seeds them."""
    spec = game_spec(record.game.name)
    return [
        spec.bot(name).make(episode.game, seat, derive_seed(seed, "bot", seat))
        for seat, name in enumerate(record.bots)
    ]


def bot_ids(episode: Episode, bot: Bot) -> tuple[int, ...]:
    """The ids of the action ``bot`` chooses for the seat to move (asked as the runner asks)."""
    seat = episode.seat
    assert seat is not None and not episode.builder.prefix
    legal = offered(episode.state.legal_actions())
    return episode.builder.ids_of(bot.ask(episode.views[seat], legal))


def same_game(episode: Episode, record: MatchRecord) -> None:
    """``episode`` played ``record``'s game: the same actions (chance's included), the same
    win shares, and every seat saw the same events."""
    assert episode.actions == [(step.seat, step.action) for step in record.steps]
    assert episode.wins() == record.wins
    for seat, view in enumerate(episode.views):
        seen = [e if e.private is None else e.seen_by(seat) for s in record.steps for e in s.events]
        assert list(view.events) == seen
