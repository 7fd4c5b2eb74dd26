"""What Fox in a Hole is — its options, roles and bots — without the engine.

``sleuth games`` reads :data:`GAME` without importing the rules, solver or bots; the engine
makes the playable game from the same declaration (:mod:`sleuth.games.fox.spec`).  The board
option's parsers import the board module when an option is read, not before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sleuth.core.bots import BotInfo
from sleuth.core.registry import GameInfo, OptionSpec, parse_bool, parse_int
from sleuth.search.catalogue import search_bot_infos

if TYPE_CHECKING:
    from sleuth.games.fox.graph import FoxGraph

ROLES = ("hunter", "fox")
SEARCH_ITERATION_COST = 5e-4
"""CPU seconds a search bot's simulation may take (about 0.06 ms on P5 with 1,000 a move;
more on large boards): its move budget is its iterations times this (1.5 s at the default
1,000 with the margin, as with the time stop it used to have)."""


def _graph_option(raw: Any) -> FoxGraph:
    from sleuth.games.fox.graph import FoxGraph, parse_graph

    return raw if isinstance(raw, FoxGraph) else parse_graph(str(raw))


def _canonical_graph_option(raw: Any) -> FoxGraph:
    from sleuth.games.fox.graph import FoxGraph, parse_graph

    return raw if isinstance(raw, FoxGraph) else parse_graph(str(raw), allow_files=False)


def _graph_file(raw: Any) -> bool:
    from sleuth.games.fox.graph import FoxGraph, names_file

    return not isinstance(raw, FoxGraph) and names_file(str(raw))


GAME = GameInfo(
    name="fox",
    description="Fox in a Hole on any connected graph: find a fox that moves every night",
    roles=ROLES,
    options=(
        OptionSpec(
            "graph",
            "path:5",
            "board: path:N, cycle:N, star:N, grid:RxC, spider:a,b,.., "
            "binary-tree:H, edges:0-1,1-2,.. or an edge-list file",
            _graph_option,
            _canonical_graph_option,
            file_values=_graph_file,
        ),
        OptionSpec("k", 1, "holes inspected per day", parse_int(1)),
        OptionSpec("lazy", False, "the fox may stay in its hole at night", parse_bool),
        OptionSpec("days", 0, "day limit after which the fox wins (0: 4 x holes)", parse_int(0)),
    ),
    bots=(
        BotInfo("random", ROLES, "hunter: random inspections; fox: random walk"),
        BotInfo(
            "solver",
            ("hunter",),
            "optimal sequence from the exact solver; random-walk filter when none exists",
        ),
        BotInfo(
            "quantum",
            ("fox",),
            "adversarial fox: never commits, reveals one dodging path at the end",
        ),
        *search_bot_infos(ROLES, iteration_cost=SEARCH_ITERATION_COST),
    ),
)
"""Fox in a Hole as ``sleuth games`` lists it (the spec is made from it)."""
