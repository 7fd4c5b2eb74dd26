"""The cards of Fugitive (rules F1-F7 of ``docs/fugitive.md``) as constants and bitsets.

Cards are the numbers 0-42.  A set of cards is an ``int`` bitset (bit ``c`` set when card ``c``
is in the set), like the holes of the fox game.  0 starts the route, 42 ends the game; 1-41 can
be played as a hideout or as a sprint card under one.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.core import bitsets

START = 0
LAST = 42
START_HAND = (1, 2, 3, 42)
PILES = (tuple(range(4, 15)), tuple(range(15, 29)), tuple(range(29, 42)))
"""The cards of piles 1, 2 and 3 (F2)."""
cards_of = bitsets.members
"""The cards of a bitset, in increasing order."""
mask_of = bitsets.mask_of
SETUP_DRAWS = (3, 2, 0)
"""Cards the Fugitive draws from piles 1, 2 and 3 during setup (F2)."""
GUESSABLE = tuple(range(1, 42))
"""Numbers the Marshal may name (F20), before removing the face-up ones."""


def _sprint_value(card: int) -> int:
    """F6: +1 for an odd card, +2 for an even one (one place to change if a card image says
    otherwise); 0 and 42 are never sprint cards (F7)."""
    if card in (START, LAST):
        return 0
    return 1 if card % 2 else 2


SPRINT = tuple(_sprint_value(c) for c in range(LAST + 1))
"""``SPRINT[c]``: the footprints card ``c`` adds as a sprint card."""


PILE_OF = tuple(
    next((n for n, cards in enumerate(PILES, start=1) if c in cards), 0) for c in range(LAST + 1)
)
"""``PILE_OF[c]``: the pile (1, 2 or 3) card ``c`` comes from; 0 for the start card and the start
hand."""


def pile_of(card: int) -> int:
    """The pile (1, 2 or 3) card ``card`` comes from; 0 for the start card and the start hand."""
    return PILE_OF[card]


def sprint_total(cards: Iterable[int]) -> int:
    """Footprints of a set of sprint cards."""
    return sum(SPRINT[c] for c in cards)


PILE_MASKS = tuple(mask_of(p) for p in PILES)
