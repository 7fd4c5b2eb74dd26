"""``SPEC``: Fugitive made playable from its catalogue
(:data:`~sleuth.games.fugitive.catalogue.GAME`) and the engine."""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.games.fugitive.bots import BOTS
from sleuth.games.fugitive.catalogue import GAME, SEARCH_DEFAULTS
from sleuth.games.fugitive.plugins import ASSIST, INFER, PAGE
from sleuth.games.fugitive.rules import FugitiveGame
from sleuth.games.fugitive.search import FugitiveSearchModel
from sleuth.search.players import search_bots


def _build(values: dict[str, JSON]) -> FugitiveGame:
    return FugitiveGame(**values)


SEARCH = FugitiveSearchModel()

SPEC = GAME.spec(
    build=_build,
    bots=(*BOTS, *search_bots(SEARCH, GAME.roles, SEARCH_DEFAULTS)),
    search=SEARCH,
    infer=INFER,
    page=PAGE,
    assist=ASSIST,
    encoding="sleuth.games.fugitive.encoding:FugitiveEncoding",
)
