"""Cluedo's 21 cards, their fixed indices, the editions' names and the aliases (C1-C4).

Cards are ``int`` 0-20 in a fixed order (C2): suspects 0-5 (:data:`SUSPECTS`: Scarlet, Mustard,
White, Green, Peacock, Plum), weapons 6-11 (:data:`WEAPONS`: Knife, Candlestick, Revolver, Rope,
Lead Pipe, Wrench) and rooms 12-20 (:data:`ROOMS`: Hall, Lounge, Dining Room, Kitchen, Ballroom,
Conservatory, Billiard Room, Library, Study).  Sets of cards are ``int`` bitsets over 21 bits
(:func:`sleuth.core.bitsets.members` lists one).  A solution (the envelope) is one card of each
category; :func:`solution_index` numbers the 324 of them ``54 s + 9 w + r`` with category-local
``s``, ``w``, ``r``.

Each card has a canonical short name (:data:`NAMES`, used in every action's text form) and
aliases (C3).  Every alias of every edition is accepted everywhere (:func:`card_named`); an
:class:`Edition` only chooses the names shown to people and the default number of dice.
Matching ignores case, spaces and punctuation (``col. mustard`` = ``Colonel Mustard``), never
guesses: an unknown name is a :class:`CardNameError` listing the close names.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType

from sleuth.core.errors import SleuthError

CARD_COUNT = 21
SUSPECTS = range(0, 6)
WEAPONS = range(6, 12)
ROOMS = range(12, 21)
ALL_CARDS = (1 << CARD_COUNT) - 1
"""The bitset of all 21 cards."""
SOLUTIONS = len(SUSPECTS) * len(WEAPONS) * len(ROOMS)
"""324 possible envelopes (C1)."""

NAMES = (
    "Scarlet", "Mustard", "White", "Green", "Peacock", "Plum",
    "Knife", "Candlestick", "Revolver", "Rope", "Lead Pipe", "Wrench",
    "Hall", "Lounge", "Dining Room", "Kitchen", "Ballroom", "Conservatory", "Billiard Room",
    "Library", "Study",
)  # fmt: skip
"""The canonical short name of each card, by index: what action texts use."""

ALIASES: tuple[tuple[str, ...], ...] = (
    ("Miss Scarlet", "Scarlett", "Miss Scarlett"),
    ("Colonel Mustard", "Col. Mustard"),
    ("Mrs. White", "Dr. Orchid", "Doctor Orchid", "Orchid"),
    ("Mr. Green", "Reverend Green", "Rev. Green"),
    ("Mrs. Peacock",),
    ("Professor Plum", "Prof. Plum"),
    ("Dagger",),
    (),
    ("Pistol", "Gun"),
    (),
    ("Lead Piping",),
    ("Spanner",),
    (),
    (),
    ("Dining",),
    (),
    ("Ball Room",),
    (),
    ("Billiard", "Billiards Room"),
    (),
    (),
)
"""Other names of each card, by index, accepted in every edition (C3)."""


class Category(IntEnum):
    """The three kinds of card."""

    SUSPECT = 0
    WEAPON = 1
    ROOM = 2

    @property
    def cards(self) -> range:
        """The cards of this category."""
        return (SUSPECTS, WEAPONS, ROOMS)[self]

    @property
    def word(self) -> str:
        return self.name.lower()


def category(card: int) -> Category:
    """The category of ``card`` (0-20)."""
    if card < 6:
        return Category.SUSPECT
    return Category.WEAPON if card < 12 else Category.ROOM


def solution_index(suspect: int, weapon: int, room: int) -> int:
    """The number 0-323 of the envelope (suspect, weapon, room), given as card indices."""
    return 54 * suspect + 9 * (weapon - WEAPONS.start) + (room - ROOMS.start)


def solution_cards(index: int) -> tuple[int, int, int]:
    """The card indices (suspect, weapon, room) of solution ``index`` (inverse of
    :func:`solution_index`)."""
    suspect, rest = divmod(index, 54)
    weapon, room = divmod(rest, 9)
    return suspect, WEAPONS.start + weapon, ROOMS.start + room


@dataclass(frozen=True)
class Edition:
    """One printing's names for the 21 slots and its customary number of dice (C4)."""

    name: str
    description: str
    display: tuple[str, ...]
    """The name shown for each card, by index."""
    dice: int


_CLASSIC_SUSPECTS = {
    0: "Miss Scarlet",
    1: "Colonel Mustard",
    2: "Mrs. White",
    3: "Mr. Green",
    4: "Mrs. Peacock",
    5: "Professor Plum",
}
_UK_NAMES = {0: "Miss Scarlett", 3: "Reverend Green", 6: "Dagger", 10: "Lead Piping", 11: "Spanner"}


def _names_with(changes: dict[int, str]) -> tuple[str, ...]:
    return tuple(changes.get(card, NAMES[card]) for card in range(CARD_COUNT))


EDITIONS = MappingProxyType(
    {
        "classic": Edition(
            "classic",
            "North American Clue (Parker Brothers), one die",
            _names_with(_CLASSIC_SUSPECTS),
            1,
        ),
        "uk": Edition(
            "uk",
            "UK Cluedo (Waddingtons), two dice",
            _names_with(_CLASSIC_SUSPECTS | _UK_NAMES),
            2,
        ),
    }
)
"""The editions by name; ``classic`` is the default."""
DEFAULT_EDITION = EDITIONS["classic"]


class CardNameError(SleuthError, ValueError):
    """A text that names no card (or a card of the wrong category); the message lists the
    close names."""


def _key(text: str) -> str:
    """The matching key of a name: lower case letters and digits only."""
    return "".join(c for c in text.lower() if c.isalnum())


def _build_keys() -> dict[str, int]:
    keys: dict[str, int] = {}
    for card in range(CARD_COUNT):
        names = {NAMES[card], *ALIASES[card], *(e.display[card] for e in EDITIONS.values())}
        for name in names:
            key = _key(name)
            if keys.setdefault(key, card) != card:
                raise AssertionError(f"the name {name!r} would name two cards")
    return keys


_KEYS = _build_keys()
"""Every accepted name's key -> card."""


def names_of(card: int) -> tuple[str, ...]:
    """Every name accepted for ``card``: its short name, aliases and editions' names."""
    names = [NAMES[card], *ALIASES[card], *(e.display[card] for e in EDITIONS.values())]
    return tuple(dict.fromkeys(names))


def card_named(text: str, edition: Edition = DEFAULT_EDITION, kind: Category | None = None) -> int:
    """The card that ``text`` names exactly (any alias, case, spaces and dots ignored), of
    category ``kind`` if given.  Raises :class:`CardNameError` listing close names (in
    ``edition``'s names) when there is none."""
    key = _key(text)
    card = _KEYS.get(key)
    if card is not None and (kind is None or category(card) == kind):
        return card
    if card is not None:
        assert kind is not None
        shown = edition.display[card]
        raise CardNameError(f"{shown} is a {category(card).word}, not a {kind.word}")
    what = "card" if kind is None else kind.word
    pool = {k: c for k, c in _KEYS.items() if kind is None or category(c) == kind}
    close = difflib.get_close_matches(key, list(pool), n=6, cutoff=0.6) if key else []
    near = ", ".join(dict.fromkeys(edition.display[pool[k]] for k in close))
    if near:
        raise CardNameError(f"no {what} is called {text.strip()!r}; close names: {near}")
    listed = ", ".join(edition.display[c] for c in sorted(set(pool.values())))
    raise CardNameError(f"no {what} is called {text.strip()!r}; the {what}s are: {listed}")


def card_list(cards: tuple[int, ...], edition: Edition = DEFAULT_EDITION) -> str:
    """Cards as people read them: ``edition``'s names in card order, comma-separated."""
    return ", ".join(edition.display[c] for c in sorted(cards))
