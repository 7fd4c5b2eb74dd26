"""Camel Up actions and their text forms (every ``str`` parses back to an equal action).

Camels are named by colour; the names depend on the edition (:data:`RACERS`, :data:`CRAZY_NAMES`).
Spaces are the printed numbers 1..16 (index + 1, rule C1).

===========================  ==================================================================
``roll``                     take a pyramid ticket and roll (K12)
``leg blue``                 take the top leg-betting ticket of blue (K8)
``tile 10 oasis``            put (or move) your desert tile on space 10, oasis or mirage side
                             (K9-K10; the 2nd edition's ``cheering``/``booing`` are aliases)
``winner blue``              put your blue card on the winner pile (K13); ``loser blue`` likewise
``die blue 2``               chance: blue's die left the pyramid showing 2; in the 2nd edition
                             ``die white 2`` is the grey die showing a white 2 (E5)
``start 1:blue,white 3:...`` chance: the starting arrangement, stacks bottom to top (K5, E3)
===========================  ==================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.core.errors import ActionParseError
from sleuth.core.numbers import whole_number

RACERS = {
    1: ("blue", "green", "orange", "yellow", "white"),
    2: ("blue", "green", "red", "yellow", "purple"),
}
"""Racing camel names by edition; a camel's id is its position here (rule C5)."""
CRAZY_NAMES = ("white", "black")
"""The 2nd edition's crazy camels, ids 5 and 6 (E3)."""
SIDES = ("oasis", "mirage")
SIDE_ALIASES = {"oasis": "oasis", "mirage": "mirage", "cheering": "oasis", "booing": "mirage"}
PILES = ("winner", "loser")


@dataclass(frozen=True, slots=True)
class Roll:
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class LegBet:
    camel: str

    def __str__(self) -> str:
        return f"leg {self.camel}"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """A desert tile on a printed ``space`` (2..16), ``side`` oasis or mirage."""

    space: int
    side: str

    def __str__(self) -> str:
        return f"tile {self.space} {self.side}"


@dataclass(frozen=True, slots=True)
class OverallBet:
    """A card naming ``camel`` on the ``pile`` ``winner`` or ``loser``."""

    pile: str
    camel: str

    def __str__(self) -> str:
        return f"{self.pile} {self.camel}"


@dataclass(frozen=True, slots=True)
class Die:
    """Chance: the die of ``colour`` came out showing ``value`` (the grey die shows a crazy
    camel's colour)."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"die {self.colour} {self.value}"


@dataclass(frozen=True, slots=True)
class Start:
    """Chance: the starting stacks as ``((space, (camel, ...)), ...)``, bottom to top."""

    stacks: tuple[tuple[int, tuple[str, ...]], ...]

    def __str__(self) -> str:
        return "start " + " ".join(f"{space}:{','.join(names)}" for space, names in self.stacks)


CamelAction = Roll | LegBet | PlaceTile | OverallBet | Die | Start
ROLL = Roll()

_HELP = "roll / leg blue / tile 10 oasis / winner blue / loser blue / die blue 2 / start 1:blue ..."


def _number(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise ActionParseError(f"{text!r}: {word!r} is not a number")
    return whole_number(word)


def parse_action(text: str) -> CamelAction:
    """The action whose text form is ``text``; camel names are checked by the game, not here."""
    words = text.strip().lower().split()
    if words == ["roll"]:
        return ROLL
    if len(words) == 2 and words[0] == "leg":
        return LegBet(words[1])
    if len(words) == 2 and words[0] in PILES:
        return OverallBet(words[0], words[1])
    if len(words) == 3 and words[0] == "tile":
        side = SIDE_ALIASES.get(words[2])
        if side is None:
            raise ActionParseError(f"{text!r}: the side must be oasis or mirage")
        return PlaceTile(_number(words[1], text), side)
    if len(words) == 3 and words[0] == "die":
        return Die(words[1], _number(words[2], text))
    if len(words) >= 2 and words[0] == "start":
        stacks = []
        for item in words[1:]:
            space, sep, names = item.partition(":")
            if not sep or not names:
                raise ActionParseError(f"{text!r}: {item!r} is not of the form space:camel,camel")
            stacks.append((_number(space, text), tuple(names.split(","))))
        return Start(tuple(stacks))
    raise ActionParseError(f"{text!r} is not a Camel Up action ({_HELP})")
