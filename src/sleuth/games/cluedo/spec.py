"""``SPEC``: Cluedo made playable from its catalogue
(:data:`~sleuth.games.cluedo.catalogue.GAME`) and the engine."""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.games.cluedo.assistant import ASSIST
from sleuth.games.cluedo.bots import BOTS
from sleuth.games.cluedo.cards import Category, card_named
from sleuth.games.cluedo.catalogue import GAME
from sleuth.games.cluedo.plugins import INFER, PAGE
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.search import CluedoSearchModel


def _build(values: dict[str, JSON]) -> CluedoGame:
    names = str(values["suspects"])
    suspects = tuple(
        card_named(n.strip(), kind=Category.SUSPECT) for n in (names.split(",") if names else [])
    )
    return CluedoGame(
        players=values["players"],
        suspects=suspects,
        dealer=values["dealer"],
        leftover=values["leftover"],
        dice=values["dice"],
        accuse_at=values["accuse_at"],
        allow_retarget=values["allow_retarget"],
        edition=values["edition"],
        max_turns=values["max_turns"],
    )


SEARCH = CluedoSearchModel()

SPEC = GAME.spec(
    build=_build,
    bots=BOTS,
    infer=INFER,
    page=PAGE,
    assist=ASSIST,
    search=SEARCH,
    encoding="sleuth.games.cluedo.encoding:CluedoEncoding",
)
