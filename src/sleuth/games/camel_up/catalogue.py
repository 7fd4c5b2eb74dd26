"""What Camel Up is — its options, roles and bots — without the engine.

``sleuth games`` reads :data:`GAME` without importing the rules, the odds (NumPy, Numba) or
the bots; the engine makes the playable game from the same declaration
(:mod:`sleuth.games.camel_up.spec`), and its modules take the names below from here.
"""

from __future__ import annotations

from typing import Any

from sleuth.core.bots import BotInfo
from sleuth.core.compiling import kernels_compiled
from sleuth.core.registry import GameInfo, OptionSpec, parse_bool, parse_float, parse_int
from sleuth.search.catalogue import policy_bot_info

RICHEST = 0.35
"""The strong bot's default weight of the richest opponent's gains
(:class:`~sleuth.games.camel_up.strategy.Weights`)."""
OTHERS = 0.18
"""... of the other opponents' gains."""
RISK = 0.5
"""... of risk: appetite when trailing, aversion when leading."""
LOCK = 1.0
"""... of the aversion when leading, as a fraction of risk."""

INTERACTIVE_ROLLOUTS = 50_000
"""The most rollouts the thinking bots may use with a person waiting (the web app): a 2nd
edition move took up to 2 s at 20,000 rollouts with Numba on a loaded 2-core machine."""


def move_budget_at_default() -> float:
    """Seconds per move the thinking bots declare at the default 2,000 rollouts
    (proportionally more with more): measured moves take at most about 0.5 s with Numba (2nd
    edition, a loaded 2-core machine) and up to 8 s as plain Python (2nd edition rollouts;
    1.4 s in the 1st): 2 s compiled, else 30 s."""
    return 2.0 if kernels_compiled() else 30.0


def _move_budget(rollouts: int, **_: Any) -> float:
    """The move budget of a thinking bot with ``rollouts`` rollouts."""
    return move_budget_at_default() * max(1.0, rollouts / 2_000)


ROLLOUTS = OptionSpec(
    "rollouts",
    2_000,
    "2nd edition: rollouts for the later legs' odds (the 1st edition's are exact)",
    parse_int(1),
    interactive_max=INTERACTIVE_ROLLOUTS,
)

GAME = GameInfo(
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
    bots=(
        BotInfo(
            "random",
            ("player",),
            "the source's RandomBot: a uniform action type, then a uniform variant",
        ),
        BotInfo(
            "ev",
            ("player",),
            "greedy: the action of highest expected coins, from exact leg and race odds",
            (ROLLOUTS,),
            _move_budget,
        ),
        BotInfo(
            "strong",
            ("player",),
            "ev adjusted for what the next player and the leaders gain and for risk, with "
            "opponents' hidden overall cards inferred from when they were placed",
            (
                ROLLOUTS,
                OptionSpec(
                    "richest",
                    RICHEST,
                    "weight of the richest opponent's gains",
                    parse_float(0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "others",
                    OTHERS,
                    "weight of the other opponents' gains",
                    parse_float(0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "risk",
                    RISK,
                    "risk appetite when trailing, aversion when leading",
                    parse_float(0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "lock",
                    LOCK,
                    "aversion when leading, as a fraction of risk (0: only chase when trailing)",
                    parse_float(0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "sharpness",
                    3.0,
                    "trust in opponents' judgement when inferring their hidden cards "
                    "(negative: no inference)",
                    parse_float(-1),
                    interactive_max=100.0,
                ),
            ),
            _move_budget,
        ),
        policy_bot_info(("player",)),
    ),
    seats_option="players",
)
"""Camel Up as ``sleuth games`` lists it (the spec is made from it)."""
