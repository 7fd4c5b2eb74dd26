"""Cluedo's actions and their text forms.

Every action is immutable and hashable, and ``parse_action(str(a)) == a``.  Texts are read
case-insensitively, with any alias of a card (:func:`~sleuth.games.cluedo.cards.card_named`);
``str`` writes the canonical short names:

* ``roll`` — roll the dice (then the chance action ``dice 4``: the total rolled);
* ``go Kitchen`` — after the roll, head for a room: enter it if the roll covers the distance,
  else stop on the way;
* ``passage`` — take the secret passage out of the room; ``stay`` — stay in the room one was
  summoned to;
* ``suggest Plum Rope Kitchen`` — suspect, weapon, room (commas between the names are accepted
  too: ``suggest Professor Plum, Lead Piping, Dining Room``);
* ``show Rope`` — the refuter shows one of the suggested cards;
* ``accuse Plum Rope Kitchen`` — the one accusation;
* ``end`` — end the turn;
* ``deal ...`` — the chance action of the deal (:class:`~sleuth.games.cluedo.deal.Deal`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.core.errors import ActionParseError
from sleuth.core.numbers import whole_number
from sleuth.games.cluedo.cards import (
    CARD_COUNT,
    NAMES,
    ROOMS,
    SUSPECTS,
    WEAPONS,
    CardNameError,
    Category,
    card_named,
)
from sleuth.games.cluedo.deal import KINDS, Deal, parse_deal


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice to move (C12, C13)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Dice:
    """The chance action: the total the dice show."""

    total: int

    def __str__(self) -> str:
        return f"dice {self.total}"


@dataclass(frozen=True, slots=True)
class Go:
    """Head for ``room`` with the roll just made."""

    room: int

    def __post_init__(self) -> None:
        if self.room not in ROOMS:
            raise ValueError(f"card {self.room} is not a room")

    def __str__(self) -> str:
        return f"go {NAMES[self.room]}"


@dataclass(frozen=True, slots=True)
class Passage:
    """Take the room's secret passage (C14)."""

    def __str__(self) -> str:
        return "passage"


@dataclass(frozen=True, slots=True)
class Stay:
    """Stay in the room a suggestion moved one to (C17)."""

    def __str__(self) -> str:
        return "stay"


def _check_triple(suspect: int, weapon: int, room: int) -> None:
    if suspect not in SUSPECTS or weapon not in WEAPONS or room not in ROOMS:
        raise ValueError(f"({suspect}, {weapon}, {room}) is not a suspect, a weapon and a room")


@dataclass(frozen=True, slots=True)
class Suggest:
    """A suggestion: suspect, weapon and room card indices (C16)."""

    suspect: int
    weapon: int
    room: int

    def __post_init__(self) -> None:
        _check_triple(self.suspect, self.weapon, self.room)

    @property
    def cards(self) -> tuple[int, int, int]:
        return (self.suspect, self.weapon, self.room)

    def __str__(self) -> str:
        return f"suggest {NAMES[self.suspect]} {NAMES[self.weapon]} {NAMES[self.room]}"


@dataclass(frozen=True, slots=True)
class Accuse:
    """An accusation: suspect, weapon and room card indices (C20)."""

    suspect: int
    weapon: int
    room: int

    def __post_init__(self) -> None:
        _check_triple(self.suspect, self.weapon, self.room)

    @property
    def cards(self) -> tuple[int, int, int]:
        return (self.suspect, self.weapon, self.room)

    def __str__(self) -> str:
        return f"accuse {NAMES[self.suspect]} {NAMES[self.weapon]} {NAMES[self.room]}"


@dataclass(frozen=True, slots=True)
class Show:
    """The refuter shows ``card`` to the suggester (C19)."""

    card: int

    def __post_init__(self) -> None:
        if not 0 <= self.card < CARD_COUNT:
            raise ValueError(f"{self.card} is not a card")

    def __str__(self) -> str:
        return f"show {NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class End:
    """End one's turn."""

    def __str__(self) -> str:
        return "end"


Action = Roll | Dice | Go | Passage | Stay | Suggest | Accuse | Show | End | Deal
ROLL, PASSAGE, STAY, END = Roll(), Passage(), Stay(), End()
_SIMPLE: dict[str, Action] = {"roll": ROLL, "passage": PASSAGE, "stay": STAY, "end": END}
_FORMS = (
    "roll, dice 4, go Kitchen, passage, stay, suggest Plum Rope Kitchen, show Rope, "
    "accuse Plum Rope Kitchen, end, deal ..."
)


def parse_action(text: str) -> Action:
    """The action whose text form is ``text`` (any case, any card alias)."""
    verb, _, rest = text.strip().partition(" ")
    verb, rest = verb.lower(), rest.strip()
    try:
        if verb in _SIMPLE and not rest:
            return _SIMPLE[verb]
        if verb == "dice" and rest.isascii() and rest.isdigit():
            return Dice(whole_number(rest))
        if verb == "go" and rest:
            return Go(card_named(rest, kind=Category.ROOM))
        if verb == "show" and rest:
            return Show(card_named(rest))
        if verb in ("suggest", "accuse") and rest:
            cards = parse_triple(rest)
            return Suggest(*cards) if verb == "suggest" else Accuse(*cards)
        if verb == "deal" and rest:
            return parse_deal(rest)
    except (CardNameError, ValueError) as exc:
        raise ActionParseError(f"{text.strip()!r}: {exc}") from None
    raise ActionParseError(f"{text.strip()!r} is not a Cluedo action ({_FORMS})")


def parse_triple(text: str) -> tuple[int, int, int]:
    """A suspect, a weapon and a room named in that order, separated by commas or spaces
    (multi-word names such as ``Lead Pipe`` need no quotes: the split that names one card of
    each category is taken)."""
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 3:
            raise ValueError(f"{len(parts)} names: name a suspect, a weapon and a room")
        return _named(parts)
    words = text.split()
    if len(words) == 3:
        return _named(words)
    found = set()
    for i in range(1, len(words) - 1):
        for j in range(i + 1, len(words)):
            try:
                found.add(_named([" ".join(words[:i]), " ".join(words[i:j]), " ".join(words[j:])]))
            except CardNameError:
                continue
    if len(found) == 1:
        return found.pop()
    if found:
        raise ValueError(f"{text!r} can be read in several ways: separate the names by commas")
    raise ValueError(
        f"{text!r} is not a suspect, a weapon and a room (e.g. Plum, Lead Pipe, Dining Room)"
    )


def _named(parts: list[str]) -> tuple[int, int, int]:
    s, w, r = (card_named(p, kind=k) for p, k in zip(parts, KINDS, strict=True))
    return s, w, r


__all__ = [
    "END",
    "PASSAGE",
    "ROLL",
    "STAY",
    "Accuse",
    "Action",
    "Deal",
    "Dice",
    "End",
    "Go",
    "Passage",
    "Roll",
    "Show",
    "Stay",
    "Suggest",
    "parse_action",
    "parse_triple",
]
