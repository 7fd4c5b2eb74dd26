"""A tiny toy game for the tournament tests, registered for the tests as ``tally``.

``seats`` seats (default 3; seat 0 the ``leader``, the others ``member``) each say ``0`` or
``1`` once, in seat order, publicly; a seat's return is its word, so the seats that said ``1``
(or everybody, if nobody did) share the win.  Its bots say a fixed word (``one``, ``zero``, the
leader-only ``boss``, the member-only ``grunt``), toss a coin (``coin``), or raise
(``crash``, which forfeits on purpose).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import ActionParseError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import TERMINAL, Game, State
from sleuth.core.registry import GameSpec, OptionSpec, game_names, parse_int, register


class Tally(Game[str]):
    """``seats`` seats (seat 0 the leader, the others members); each says ``0`` or ``1``."""

    name: ClassVar[str] = "tally"

    def __init__(self, seats: int) -> None:
        self.seats = seats

    @property
    def roles(self) -> tuple[str, ...]:
        return ("leader",) + ("member",) * (self.seats - 1)

    def options(self) -> dict[str, JSON]:
        return {"seats": self.seats}

    def new_initial_state(self) -> TallyState:
        return TallyState(self)

    def parse_action(self, text: str) -> str:
        if text in ("0", "1"):
            return text
        raise ActionParseError(f"{text!r} is not a tally action ('0' or '1')")


class TallyState(State[str]):
    def __init__(self, game: Tally) -> None:
        self.game = game
        self.said: list[str] = []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.said)

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else ["0", "1"]

    def illegal_reason(self, action: object) -> str | None:
        return None if action in self.legal_actions() else "not legal now"

    def _apply(self, action: str) -> list[Event]:
        self.said.append(action)
        return [Event("said", {"seat": len(self.said) - 1, "word": action})]

    def is_terminal(self) -> bool:
        return len(self.said) == self.game.seats

    def returns(self) -> tuple[float, ...]:
        return tuple(float(word) for word in self.said)

    def clone(self) -> TallyState:
        other = TallyState(self.game)
        other.said = list(self.said)
        return other


def _sayer(word: str) -> type[Bot]:
    class Sayer(Bot):
        def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
            return word

    return Sayer


class Coin(Bot):
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self.rng.choice(list(legal))


class Crash(Bot):
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        raise RuntimeError("crashed on purpose")


ROLES = ("leader", "member")
SPEC = GameSpec(
    name="tally",
    description="test game: every seat says 0 or 1; the highest share the win",
    roles=ROLES,
    options=(OptionSpec("seats", 3, "number of seats", parse_int(2)),),
    bots=(
        BotSpec("one", ROLES, _sayer("1"), "says 1"),
        BotSpec("zero", ROLES, _sayer("0"), "says 0"),
        BotSpec("coin", ROLES, Coin, "says 0 or 1 at random"),
        BotSpec("crash", ROLES, Crash, "raises"),
        BotSpec("boss", ("leader",), _sayer("1"), "leader only"),
        BotSpec("grunt", ("member",), _sayer("0"), "member only"),
    ),
    build=lambda values: Tally(values["seats"]),
)
if "tally" not in game_names():
    register(SPEC)
