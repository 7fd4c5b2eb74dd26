"""Shared helpers of the Camel Up tests."""

from __future__ import annotations

from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.track import arrangement

M = arrangement({3: [0], 4: [1, 2], 6: [3], 7: [4]})
"""Position M of rule O9 (docs/camel-up-odds.md): camel 0 on space 4, camels 1 and 2 stacked on
space 5 (2 on top), camel 3 on space 7, camel 4 on space 8 (indexes 3, 4, 6, 7)."""


def position_m() -> CamelState:
    """A new game of the current edition with the camels started at position ``M``."""
    state = CamelUpGame().new_initial_state()
    state.start(M)
    return state
