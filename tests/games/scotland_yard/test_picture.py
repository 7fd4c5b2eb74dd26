"""The map picture: the edges drawn once per board are each board's own."""

from __future__ import annotations

import re

from sleuth.games.scotland_yard.board import Transport, builtin_board, from_rows
from sleuth.games.scotland_yard.picture import _edges


def test_each_board_draws_its_own_edges() -> None:
    small = from_rows(3, [(1, 2, Transport.TAXI), (2, 3, Transport.BUS), (1, 3, Transport.FERRY)])
    built_in = builtin_board()
    for board in (small, built_in, small):
        drawn = _edges(board)
        assert drawn.count("<line") == len(board.edges)
    assert _edges(small).count('stroke-dasharray="10 6"') == 1  # the ferry
    assert _edges(small) != _edges(built_in)


def test_the_notepad_s_stations_add_their_number_and_every_map_finds_them() -> None:
    """The page's generic hooks (issue 39 §4): every station is found by its number
    (``data-find``, the map naming them ``data-find-word="station"``); the notepad's stations
    add their number to the entry (``data-append``), a game's map does not (a click there is a
    move, ``data-action``)."""
    from sleuth.core.events import View, freeze
    from sleuth.core.registry import game_spec
    from sleuth.games.scotland_yard.assistant import DetectivesSession
    from sleuth.games.scotland_yard.notepad_picture import notepad
    from sleuth.games.scotland_yard.picture import svg

    game = game_spec("scotland-yard").make({})
    session = DetectivesSession(game, starts=[9, 10, 15, 17, 19])
    session.enter("x taxi")
    stations = len(game.board.coordinates)
    drawn = notepad(session)
    assert 'data-find-word="station"' in drawn
    assert drawn.count("data-find=") == drawn.count("data-append=") == stations
    assert re.search(
        r'<g class="station[^"]*" data-station="8" data-find="8" data-append="8"', drawn
    )
    view = View(0, game.roles[0], freeze(game.public_info()), [])
    played = svg(game, view, ["taxi 8"])
    assert played.count("data-find=") == stations and "data-append" not in played
