"""``SPEC``: Scotland Yard made playable from its catalogue
(:data:`~sleuth.games.scotland_yard.catalogue.GAME`) and the engine."""

from __future__ import annotations

from sleuth.core.events import JSON
from sleuth.games.scotland_yard.bots import BOTS
from sleuth.games.scotland_yard.catalogue import GAME, SEARCH_DEFAULTS
from sleuth.games.scotland_yard.edition import make_profile
from sleuth.games.scotland_yard.plugins import ASSIST, INFER, PAGE
from sleuth.games.scotland_yard.rules import ScotlandYardGame, board_for
from sleuth.games.scotland_yard.search import ScotlandYardSearchModel
from sleuth.search.players import search_bots

SEARCH = ScotlandYardSearchModel()


def _build(values: dict[str, JSON]) -> ScotlandYardGame:
    board = board_for(values["map"])
    profile = make_profile(values, board.start_cards, board.n)
    return ScotlandYardGame(board, profile, int(values["seats"]), values["map"])


SPEC = GAME.spec(
    build=_build,
    bots=(*BOTS, *search_bots(SEARCH, GAME.roles, SEARCH_DEFAULTS)),
    search=SEARCH,
    infer=INFER,
    page=PAGE,
    assist=ASSIST,
    encoding="sleuth.games.scotland_yard.encoding:ScotlandYardEncoding",
)
