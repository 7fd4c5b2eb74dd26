"""Fox in a Hole on any graph: rules, belief, solver, values and bots.

``SPEC`` registers the game with Sleuth (``sleuth games`` lists it).
"""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.core.registry import GameSpec, OptionSpec, parse_bool, parse_int
from sleuth.games.fox.bots import BOTS
from sleuth.games.fox.graph import FoxGraph, parse_graph
from sleuth.games.fox.plugins import INFER
from sleuth.games.fox.rules import FoxGame
from sleuth.games.fox.search import FoxSearchModel
from sleuth.search.players import search_bots


def _build(values: dict[str, JSON]) -> FoxGame:
    return FoxGame(values["graph"], values["k"], values["lazy"], values["days"] or None)


def _graph_option(raw: object) -> FoxGraph:
    return raw if isinstance(raw, FoxGraph) else parse_graph(str(raw))


def _canonical_graph_option(raw: object) -> FoxGraph:
    return raw if isinstance(raw, FoxGraph) else parse_graph(str(raw), allow_files=False)


SEARCH = FoxSearchModel()

SPEC = GameSpec(
    name="fox",
    description="Fox in a Hole on any connected graph: find a fox that moves every night",
    roles=("hunter", "fox"),
    options=(
        OptionSpec(
            "graph",
            "path:5",
            "board: path:N, cycle:N, star:N, grid:RxC, spider:a,b,.., "
            "binary-tree:H, edges:0-1,1-2,.. or an edge-list file",
            _graph_option,
            _canonical_graph_option,
        ),
        OptionSpec("k", 1, "holes inspected per day", parse_int(1)),
        OptionSpec("lazy", False, "the fox may stay in its hole at night", parse_bool),
        OptionSpec("days", 0, "day limit after which the fox wins (0: 4 x holes)", parse_int(0)),
    ),
    bots=(*BOTS, *search_bots(SEARCH, ("hunter", "fox"))),
    search=SEARCH,
    build=_build,
    infer=INFER,
    commands="sleuth.games.fox.commands:app",
)
