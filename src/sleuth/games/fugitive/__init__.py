"""Fugitive (Tim Fowers): the Fugitive lays a route of hideouts, the Marshal hunts it down.

``SPEC`` registers the game with Sleuth (``sleuth games`` lists it).
"""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.core.options import parse_choice
from sleuth.core.registry import GameSpec, OptionSpec, parse_bool, parse_int
from sleuth.games.fugitive.bots import BOTS
from sleuth.games.fugitive.plugins import ASSIST, INFER
from sleuth.games.fugitive.rules import EDITIONS, OPENINGS, FugitiveGame
from sleuth.games.fugitive.search import FugitiveSearchModel
from sleuth.search.players import search_bots


def _build(values: dict[str, JSON]) -> FugitiveGame:
    return FugitiveGame(**values)


SEARCH = FugitiveSearchModel()

SPEC = GameSpec(
    name="fugitive",
    rules_version="3",  # 2: 42's sprint cards stay face down; 3: F14 off, a dead end may pass
    description="Fugitive: a route of hidden hideouts 0-42 against the Marshal's guesses",
    roles=("fugitive", "marshal"),
    options=(
        OptionSpec(
            "edition",
            "first",
            "rules edition: first, or second (optional bonus draw after a pass)",
            parse_choice(EDITIONS),
        ),
        OptionSpec(
            "opening",
            "exactly_2",
            "first turn: exactly_2 hideouts, or one_or_two",
            parse_choice(OPENINGS),
        ),
        OptionSpec(
            "dead_end_check",
            True,
            "exactly_2: the first opening hideout must leave a legal second one (F14)",
            parse_bool,
        ),
        OptionSpec("marshal_may_skip", True, "the Marshal may make no guess on a turn", parse_bool),
        OptionSpec(
            "manhunt_threshold",
            30,
            "42 wins at once if a face-up hideout is at least this; else the Manhunt",
            parse_int(1),
        ),
        OptionSpec(
            "max_rounds",
            0,
            "rounds before a draw (0: no limit; 50 for search and RL)",
            parse_int(0),
        ),
    ),
    bots=(*BOTS, *search_bots(SEARCH, ("fugitive", "marshal"))),
    search=SEARCH,
    build=_build,
    infer=INFER,
    assist=ASSIST,
)
