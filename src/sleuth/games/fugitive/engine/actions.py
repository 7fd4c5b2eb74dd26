"""Fugitive actions and their text forms (every ``str`` parses back to an equal action).

========================  ==========================================================
``draw 2``                take the next card of pile 2 (either player)
``card 17``               chance: the card that draw turned up
``hideout 9 sprint 4 6``  place hideout 9 with sprint cards 4 and 6 (``hideout 9``: none)
``pass``                  place nothing this turn (or stop after one opening hideout)
``bonus`` / ``no bonus``  2nd edition: take the optional draw after a pass, or not
``guess 12 15``           the Marshal names 12 and 15 (all-or-nothing)
``skip``                  the Marshal makes no guess this turn (if the option allows)
========================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.core.errors import ActionParseError
from sleuth.core.numbers import whole_number


@dataclass(frozen=True, slots=True)
class Draw:
    pile: int

    def __str__(self) -> str:
        return f"draw {self.pile}"


@dataclass(frozen=True, slots=True)
class Card:
    """A chance outcome: the card a draw turned up."""

    card: int

    def __str__(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class Place:
    """A hideout with its sprint cards (kept sorted)."""

    hideout: int
    sprints: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "sprints", tuple(sorted(self.sprints)))

    def __str__(self) -> str:
        if not self.sprints:
            return f"hideout {self.hideout}"
        return f"hideout {self.hideout} sprint " + " ".join(map(str, self.sprints))


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bonus:
    """2nd edition: whether to take the optional draw after a pass."""

    take: bool

    def __str__(self) -> str:
        return "bonus" if self.take else "no bonus"


@dataclass(frozen=True, slots=True)
class Guess:
    """The numbers the Marshal names (kept sorted)."""

    numbers: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", tuple(sorted(self.numbers)))

    def __str__(self) -> str:
        return "guess " + " ".join(map(str, self.numbers))


@dataclass(frozen=True, slots=True)
class Skip:
    def __str__(self) -> str:
        return "skip"


FugitiveAction = Draw | Card | Place | Pass | Bonus | Guess | Skip
PASS = Pass()
SKIP = Skip()
TAKE_BONUS = Bonus(True)
NO_BONUS = Bonus(False)

_HELP = "draw 2 / hideout 9 sprint 4 6 / pass / bonus / no bonus / guess 12 15 / skip / card 17"


def _numbers(words: list[str], text: str) -> tuple[int, ...]:
    if not words or not all(w.isascii() and w.isdigit() for w in words):
        raise ActionParseError(f"{text!r}: expected numbers after {text.split()[0]!r}")
    return tuple(whole_number(w) for w in words)


def parse_action(text: str) -> FugitiveAction:
    """The action whose text form is ``text`` (extra spaces and commas are accepted)."""
    words = text.replace(",", " ").lower().split()
    simple: dict[str, FugitiveAction] = {"pass": PASS, "skip": SKIP, "bonus": TAKE_BONUS}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if words == ["no", "bonus"]:
        return NO_BONUS
    if len(words) == 2 and words[0] in ("draw", "card"):
        (number,) = _numbers(words[1:], text)
        return Draw(number) if words[0] == "draw" else Card(number)
    if words and words[0] == "guess":
        return Guess(_numbers(words[1:], text))
    if len(words) >= 2 and words[0] == "hideout":
        (hideout,) = _numbers(words[1:2], text)
        if len(words) == 2:
            return Place(hideout)
        if words[2] == "sprint":
            return Place(hideout, _numbers(words[3:], text))
    raise ActionParseError(f"{text!r} is not a Fugitive action ({_HELP})")
