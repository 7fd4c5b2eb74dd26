"""``SPEC``: Camel Up made playable from its catalogue
(:data:`~sleuth.games.camel_up.catalogue.GAME`) and the engine."""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.games.camel_up.bots import BOTS
from sleuth.games.camel_up.catalogue import GAME
from sleuth.games.camel_up.plugins import ASSIST, INFER, PAGE
from sleuth.games.camel_up.rules import CamelUpGame
from sleuth.games.camel_up.search import CamelUpSearchModel


def _build(values: dict[str, JSON]) -> CamelUpGame:
    return CamelUpGame(**values)


SEARCH = CamelUpSearchModel()

SPEC = GAME.spec(
    build=_build,
    bots=BOTS,
    infer=INFER,
    page=PAGE,
    assist=ASSIST,
    commands="sleuth.games.camel_up.commands:COMMANDS",
    search=SEARCH,
    encoding="sleuth.games.camel_up.encoding:CamelUpEncoding",
)
