"""Cluedo / Clue: find the suspect, weapon and room hidden in the envelope (3-6 players).

``SPEC`` registers the game with Sleuth (``sleuth games`` lists it); the rules are on
``docs/cluedo.md``.
"""

from __future__ import annotations

from typing import Any

from sleuth.core.events import JSON
from sleuth.core.options import parse_choice
from sleuth.core.registry import GameSpec, OptionSpec, parse_bool, parse_int
from sleuth.games.cluedo.assistant import ASSIST
from sleuth.games.cluedo.bots import BOTS
from sleuth.games.cluedo.cards import EDITIONS, NAMES, Category, card_named
from sleuth.games.cluedo.plugins import INFER
from sleuth.games.cluedo.rules import (
    ACCUSE_AT,
    LEFTOVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CluedoGame,
)


def _build(values: dict[str, JSON]) -> CluedoGame:
    suspects = tuple(card_named(n, kind=Category.SUSPECT) for n in _names(values["suspects"]))
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


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",")] if text else []


def _players(raw: Any) -> int:
    value = parse_int(MIN_PLAYERS)(raw)
    if value > MAX_PLAYERS:
        raise ValueError(f"must be at most {MAX_PLAYERS}")
    return value


def _suspects(raw: Any) -> str:
    """Canonical suspect names, comma-separated ('' for the default)."""
    return ",".join(NAMES[card_named(n, kind=Category.SUSPECT)] for n in _names(str(raw).strip()))


def _optional_int(choices: tuple[int, ...] | None) -> Any:
    def parse(raw: Any) -> int | None:
        if raw is None or str(raw).strip() == "":
            return None
        value = parse_int(0)(raw)
        if choices is not None and value not in choices:
            raise ValueError(f"expected one of {', '.join(map(str, choices))}")
        return value

    return parse


SPEC = GameSpec(
    name="cluedo",
    rules_version="1",
    description="Cluedo / Clue: find the suspect, weapon and room in the envelope (3-6 players)",
    roles=("player",),
    options=(
        OptionSpec("players", 3, "number of players (3-6); `play` sets it from --bots", _players),
        OptionSpec(
            "suspects",
            "",
            "the suspect of each seat, comma-separated (default: the first ones in card order)",
            _suspects,
        ),
        OptionSpec("dealer", "", "the dealer's seat (default: the last seat)", _optional_int(None)),
        OptionSpec(
            "leftover",
            "deal",
            "deal: some hands get one card more; face_up: the leftovers lie face up",
            parse_choice(LEFTOVER),
        ),
        OptionSpec("dice", "", "1 or 2 dice (default: the edition's)", _optional_int((1, 2))),
        OptionSpec(
            "accuse_at",
            "anywhere",
            "anywhere, or in_named_room (an accusation names the room one is in)",
            parse_choice(ACCUSE_AT),
        ),
        OptionSpec(
            "allow_retarget",
            False,
            "a token on its way to a room may head for another one",
            parse_bool,
        ),
        OptionSpec(
            "edition", "classic", "card names: classic or uk", parse_choice(tuple(EDITIONS))
        ),
        OptionSpec("max_turns", 500, "turns before the game ends with no winner", parse_int(1)),
    ),
    bots=BOTS,
    build=_build,
    seats_option="players",
    infer=INFER,
    assist=ASSIST,
)
