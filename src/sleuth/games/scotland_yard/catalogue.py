"""What Scotland Yard is — its options, roles and bots — without the engine.

``sleuth games`` reads :data:`GAME` without importing the rules, the board, the Monte Carlo
detective (NumPy, Numba) or the search; the engine makes the playable game from the same
declaration (:mod:`sleuth.games.scotland_yard.spec`), and its modules take the names below
from here.  The options' parsers import the engine's (:mod:`~sleuth.games.scotland_yard.edition`,
the map loader) when an option is read, not before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from sleuth.core.bots import BotInfo
from sleuth.core.compiling import kernels_compiled
from sleuth.core.options import parse_choice
from sleuth.core.registry import GameInfo, OptionSpec, parse_bool, parse_float, parse_int
from sleuth.search.catalogue import search_bot_infos

ALL_ROLES = ("mrx", "detectives", "detective")
DETECTIVE_ROLES = ("detectives", "detective")

MC_ROLLOUTS: Final = 200
"""The Monte Carlo detective's default rollouts per candidate move (N)."""
MC_DEPTH: Final = 5
"""... turns each rollout looks ahead."""
MC_W1: Final = 1.0
"""... weight of the capture rate."""
MC_W2: Final = 0.1
"""... weight of the mean distance to Mr. X."""
SAMPLE_FROM: Final = ("possible", "reachable")
"""Where its rollouts put Mr. X."""
SAMPLE_FROM_DEFAULT: Final = "possible"
IMPLEMENTATIONS: Final = ("fast", "plain")
"""How the Monte Carlo detective's rollouts and the search's playouts run: compiled kernels
on plain numbers (``fast``) or plain Python through the engine (``plain``); the same moves."""
COMPILED_BUDGET: Final = 2.0
"""Seconds per move declared by the compiled bot at N = 200, depth = 5: its slowest measured
decision (13 candidates on the classic map) takes about 5 ms."""
PLAIN_BUDGET: Final = 10.0
"""Seconds per move declared by the plain bot, or the fast one without Numba, at N = 200,
depth = 5: their slowest measured decisions take 0.85 s (plain) and 0.65 s on an idle machine."""


def move_budget(rollouts: int, depth: int, impl: str, **_: Any) -> float:
    """The Monte Carlo detective's :attr:`~sleuth.core.bots.BotSpec.move_budget`: its base
    budget, scaled up with the rollouts and the depth beyond the defaults."""
    base = COMPILED_BUDGET if impl == "fast" and kernels_compiled() else PLAIN_BUDGET
    return base * max(1.0, rollouts / MC_ROLLOUTS) * max(1.0, depth / MC_DEPTH)


SEARCH_MODELS = ("categories", "uniform")
"""How the detectives' search worlds draw Mr. X's station."""
DEFAULT_SEARCH_MODEL = "categories"
SEARCH_DEFAULTS = {"policy": "heuristic", "depth": 18, "coalition": 0.25}
"""Scotland Yard's defaults of the common search options: epsilon-greedy playouts cut after 18
moves (three rounds of five detectives) and scored by
:meth:`~sleuth.games.scotland_yard.search.ScotlandYardSearchModel.evaluate` (greedy detectives
that know where Mr. X is in their world nearly always catch him in a playout to the end, so
full playouts tell moves apart poorly); with a seat per detective, a capture by a teammate is
worth 0.75 (coalition reduction, as inejc/scotland-yard)."""
SEARCH_ITERATION_COST = 2e-3
"""CPU seconds a search bot's simulation may take with the defaults above (0.3-0.5 ms on
average on the classic map, up to 1 ms measured on a loaded machine): its move budget is its
iterations times this (3 s at the default 1,000, with the margin)."""
SEARCH_OPTIONS = (
    OptionSpec(
        "model",
        DEFAULT_SEARCH_MODEL,
        "as the detectives, how Mr. X's station is drawn from his possible set: "
        "categories (biased by distance to the nearest detective) or uniform",
        parse_choice(SEARCH_MODELS),
    ),
    OptionSpec(
        "impl",
        "fast",
        "playouts: fast (on plain numbers) or plain (through the engine; the same moves)",
        parse_choice(IMPLEMENTATIONS),
    ),
)
"""The game's own options of its search bots (:attr:`ScotlandYardSearchModel.options`)."""


def _map(raw: Any) -> str:
    from sleuth.games.scotland_yard.rules import resolve_map

    return resolve_map(str(raw))


def _map_folder(raw: Any) -> bool:
    from sleuth.games.scotland_yard.rules import names_folder

    return names_folder(str(raw))


def _edition(raw: Any) -> str:
    from sleuth.games.scotland_yard.edition import EDITIONS

    return parse_choice(tuple(EDITIONS))(raw)


def _counts(size: int, unlimited_ok: int = 0) -> Callable[[Any], str]:
    """:func:`~sleuth.games.scotland_yard.edition.parse_counts`, imported when first used."""

    def parse(raw: Any) -> str:
        from sleuth.games.scotland_yard.edition import parse_counts

        return parse_counts(size, unlimited_ok)(raw)

    return parse


def _stations(raw: Any) -> str:
    from sleuth.games.scotland_yard.edition import parse_stations

    return parse_stations(raw)


def _edition_bool(raw: Any) -> str:
    from sleuth.games.scotland_yard.edition import parse_edition_bool

    return parse_edition_bool(raw)


def _bobbies(raw: Any) -> int:
    from sleuth.games.scotland_yard.edition import parse_bobbies

    return parse_bobbies(raw)


GAME = GameInfo(
    name="scotland-yard",
    rules_version="1",
    description="Scotland Yard: detectives hunt Mr. X, who moves in secret across a city",
    roles=ALL_ROLES,
    options=(
        OptionSpec(
            "map",
            "",
            "board folder (stations.csv, edges.csv); default: $SLEUTH_SCOTLAND_YARD_MAP, "
            "else Sleuth's own board",
            _map,
            file_values=_map_folder,
        ),
        OptionSpec("edition", "classic", "classic, 2014 or bristol", _edition),
        OptionSpec("detectives", 5, "number of detectives (1-5)", parse_int(1)),
        OptionSpec(
            "seats",
            2,
            "2: one seat moves every detective; detectives+1: a seat per detective "
            "(`play` sets it from --bots)",
            parse_int(2),
        ),
        OptionSpec("detective_tickets", "", "each detective's taxi/bus/underground", _counts(3)),
        OptionSpec(
            "mrx_tickets",
            "",
            "Mr. X's taxi/bus/underground/black/double (inf: unlimited)",
            _counts(5, unlimited_ok=3),
        ),
        OptionSpec(
            "tickets_to_mrx", "", "spent detective tickets go to Mr. X (yes/no)", _edition_bool
        ),
        OptionSpec("mrx_start", 0, "Mr. X's fixed start station (0: drawn)", parse_int(0)),
        OptionSpec(
            "detective_starts", "", "the detectives' fixed start stations, a,b,...", _stations
        ),
        OptionSpec("bobbies", 0, "2014 Bobbies (only 0 is supported)", _bobbies),
        OptionSpec(
            "reveals", "3,8,13,18,24", "log entries after which Mr. X shows himself", _stations
        ),
        OptionSpec("log_length", 24, "entries in Mr. X's log", parse_int(1)),
        OptionSpec("max_rounds", 0, "round limit, then Mr. X wins (0: none)", parse_int(0)),
        OptionSpec(
            "final_detective_phase",
            True,
            "the detectives still move after the last log entry",
            parse_bool,
        ),
    ),
    bots=(
        BotInfo("random", ALL_ROLES, "a uniformly random legal move (either side)"),
        BotInfo(
            "heuristic",
            ("mrx",),
            "Mr. X: farthest from the nearest detective, black where it hides most, double in "
            "danger",
        ),
        BotInfo(
            "mc",
            DETECTIVE_ROLES,
            "Monte Carlo detective: random rollouts per move, score = capture rate - weighted "
            "distance",
            (
                OptionSpec(
                    "rollouts",
                    MC_ROLLOUTS,
                    "rollouts per candidate move (N)",
                    parse_int(1),
                    interactive_max=1000,
                ),
                OptionSpec(
                    "depth",
                    MC_DEPTH,
                    "turns each rollout looks ahead",
                    parse_int(1),
                    interactive_max=20,
                ),
                OptionSpec(
                    "w1",
                    MC_W1,
                    "weight of the capture rate",
                    parse_float(0.0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "w2",
                    MC_W2,
                    "weight of the mean distance to Mr. X",
                    parse_float(0.0),
                    interactive_max=100.0,
                ),
                OptionSpec(
                    "sample_from",
                    SAMPLE_FROM_DEFAULT,
                    "where rollouts put Mr. X: possible (the tracker) or reachable (from the "
                    "last reveal)",
                    parse_choice(SAMPLE_FROM),
                ),
                OptionSpec(
                    "impl",
                    "fast",
                    "fast (compiled) or plain (the same moves)",
                    parse_choice(IMPLEMENTATIONS),
                ),
            ),
            move_budget,
        ),
        *search_bot_infos(ALL_ROLES, SEARCH_OPTIONS, 0.0, SEARCH_DEFAULTS, SEARCH_ITERATION_COST),
    ),
    seats_option="seats",
)
"""Scotland Yard as ``sleuth games`` lists it (the spec is made from it)."""
