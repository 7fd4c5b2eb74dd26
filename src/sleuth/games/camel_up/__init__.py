"""Camel Up: a camel race with leg bets, desert tiles and secret overall bets.

``SPEC`` registers the game with Sleuth (``sleuth games`` lists it).
"""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.core.registry import GameSpec, OptionSpec, parse_bool, parse_int
from sleuth.games.camel_up.bots import BOTS
from sleuth.games.camel_up.plugins import ASSIST, INFER
from sleuth.games.camel_up.rules import CamelUpGame


def _build(values: dict[str, JSON]) -> CamelUpGame:
    return CamelUpGame(**values)


SPEC = GameSpec(
    name="camel-up",
    rules_version="1",
    description="Camel Up: bet on a stacking camel race (1st edition; 2nd with edition=2)",
    roles=("player",),
    options=(
        OptionSpec("edition", 1, "rules edition: 1, or 2 (crazy camels, grey die)", parse_int(1)),
        OptionSpec(
            "players",
            4,
            "number of players (2-8; 3-8 in the 2nd edition); `play` sets it from --bots",
            parse_int(2),
        ),
        OptionSpec(
            "money_floor",
            True,
            "losses stop at 0 EP (K29, explicit in the 2nd edition)",
            parse_bool,
        ),
        OptionSpec(
            "turn_cap", 500, "player turns before every turn is a forced roll (T4)", parse_int(1)
        ),
        OptionSpec(
            "tile_flip_in_place", False, "a tile may be flipped where it lies (K10)", parse_bool
        ),
    ),
    bots=BOTS,
    build=_build,
    seats_option="players",
    infer=INFER,
    assist=ASSIST,
    commands="sleuth.games.camel_up.commands:app",
)
