"""Scotland Yard: Mr. X moves in secret; the detectives, one side, try to land on him.

``SPEC`` registers the game with Sleuth (``sleuth games`` lists it).  The board is the
built-in one unless ``-o map=FOLDER`` (or the ``SLEUTH_SCOTLAND_YARD_MAP`` variable) names
another, such as the classic London map (see ``docs/scotland-yard.md``).
"""

from __future__ import annotations

from typing import Any

from sleuth.core.events import JSON
from sleuth.core.options import parse_choice
from sleuth.core.registry import GameSpec, OptionSpec, parse_bool, parse_int
from sleuth.games.scotland_yard.bots import ALL_ROLES, BOTS
from sleuth.games.scotland_yard.edition import (
    EDITIONS,
    make_profile,
    parse_bobbies,
    parse_counts,
    parse_edition_bool,
    parse_stations,
)
from sleuth.games.scotland_yard.plugins import ASSIST, INFER
from sleuth.games.scotland_yard.rules import ScotlandYardGame, board_for, resolve_map
from sleuth.games.scotland_yard.search import SEARCH_DEFAULTS, ScotlandYardSearchModel
from sleuth.search.players import search_bots

SEARCH = ScotlandYardSearchModel()


def _build(values: dict[str, JSON]) -> ScotlandYardGame:
    board = board_for(values["map"])
    profile = make_profile(values, board.start_cards, board.n)
    return ScotlandYardGame(board, profile, int(values["seats"]), values["map"])


def _map(raw: Any) -> str:
    return resolve_map(str(raw))


SPEC = GameSpec(
    name="scotland-yard",
    rules_version="1",
    description="Scotland Yard: detectives hunt Mr. X, who moves in secret across a city",
    roles=("mrx", "detectives", "detective"),
    options=(
        OptionSpec(
            "map",
            "",
            "board folder (stations.csv, edges.csv); default: $SLEUTH_SCOTLAND_YARD_MAP, "
            "else Sleuth's own board",
            _map,
        ),
        OptionSpec("edition", "classic", "classic, 2014 or bristol", parse_choice(tuple(EDITIONS))),
        OptionSpec("detectives", 5, "number of detectives (1-5)", parse_int(1)),
        OptionSpec(
            "seats",
            2,
            "2: one seat moves every detective; detectives+1: a seat per detective "
            "(`play` sets it from --bots)",
            parse_int(2),
        ),
        OptionSpec(
            "detective_tickets", "", "each detective's taxi/bus/underground", parse_counts(3)
        ),
        OptionSpec(
            "mrx_tickets",
            "",
            "Mr. X's taxi/bus/underground/black/double (inf: unlimited)",
            parse_counts(5, unlimited_ok=3),
        ),
        OptionSpec(
            "tickets_to_mrx", "", "spent detective tickets go to Mr. X (yes/no)", parse_edition_bool
        ),
        OptionSpec("mrx_start", 0, "Mr. X's fixed start station (0: drawn)", parse_int(0)),
        OptionSpec(
            "detective_starts", "", "the detectives' fixed start stations, a,b,...", parse_stations
        ),
        OptionSpec("bobbies", 0, "2014 Bobbies (only 0 is supported)", parse_bobbies),
        OptionSpec(
            "reveals", "3,8,13,18,24", "log entries after which Mr. X shows himself", parse_stations
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
    bots=(*BOTS, *search_bots(SEARCH, ALL_ROLES, SEARCH_DEFAULTS)),
    search=SEARCH,
    build=_build,
    seats_option="seats",
    infer=INFER,
    assist=ASSIST,
)
