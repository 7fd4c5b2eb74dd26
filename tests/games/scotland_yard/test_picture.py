"""The map picture: the edges drawn once per board are each board's own."""

from __future__ import annotations

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
