"""``SPEC``: Fox in a Hole made playable from its catalogue
(:data:`~sleuth.games.fox.catalogue.GAME`) and the engine."""

from __future__ import annotations

from sleuth.core.errors import OptionError
from sleuth.core.events import JSON
from sleuth.games.fox.bots import BOTS
from sleuth.games.fox.catalogue import GAME
from sleuth.games.fox.graph import FoxGraph
from sleuth.games.fox.plugins import INFER, PAGE
from sleuth.games.fox.rules import FoxGame
from sleuth.games.fox.search import FoxSearchModel
from sleuth.search.players import search_bots


def _build(values: dict[str, JSON]) -> FoxGame:
    """The game of the options; ``k`` over the board's holes is refused (the rules would
    read it as every hole, silently: a typo)."""
    graph, k = values["graph"], values["k"]
    assert isinstance(graph, FoxGraph) and isinstance(k, int)
    if k > graph.n:
        raise OptionError(f"k={k}: at most {graph.n}, the holes of the board {graph.spec}")
    return FoxGame(graph, k, values["lazy"], values["days"] or None)


SEARCH = FoxSearchModel()

SPEC = GAME.spec(
    build=_build,
    bots=(*BOTS, *search_bots(SEARCH, GAME.roles)),
    search=SEARCH,
    infer=INFER,
    page=PAGE,
    commands="sleuth.games.fox.commands:COMMANDS",
    encoding="sleuth.games.fox.encoding:FoxEncoding",
)
