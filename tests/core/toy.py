"""A tiny card game with chance and private cards, registered for testing the core.

Chance deals each of two seats a card 1..3 (private to its holder, public that it was dealt).
Then seat 0 and seat 1 each say ``call`` or ``fold``; a fold loses at once, two calls go to a
showdown (higher card wins, equal cards tie).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import ActionParseError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.core.registry import GameSpec, OptionSpec, game_names, parse_int, register

CARDS = (1, 2, 3)


class HighCard(Game[str]):
    name: ClassVar[str] = "highcard"

    def __init__(self, cards: int = 3) -> None:
        self.cards = cards

    @property
    def roles(self) -> tuple[str, ...]:
        return ("first", "second")

    def options(self) -> dict[str, JSON]:
        return {"cards": self.cards}

    def new_initial_state(self) -> HighCardState:
        return HighCardState(self)

    def parse_action(self, text: str) -> str:
        text = text.strip()
        if text in ("call", "fold") or (text.startswith("deal ") and text[5:].isdigit()):
            return text
        raise ActionParseError(f"{text!r} is not a highcard action")


class HighCardState(State[str]):
    def __init__(self, game: HighCard) -> None:
        self.game = game
        self.hands: list[int] = []
        self.calls: list[str] = []

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if len(self.hands) < 2:
            return CHANCE
        return len(self.calls)

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        if len(self.hands) < 2:
            return [a for a, _ in self.chance_outcomes()]
        return ["call", "fold"]

    def chance_outcomes(self) -> Sequence[tuple[str, float]]:
        n = self.game.cards
        return [(f"deal {c}", 1 / n) for c in range(1, n + 1)]

    def illegal_reason(self, action: object) -> str | None:
        return None if action in self.legal_actions() else "not legal now"

    def _apply(self, action: str) -> list[Event]:
        if action.startswith("deal "):
            seat = len(self.hands)
            self.hands.append(int(action[5:]))
            return [Event("dealt", {"to": seat}, {"card": self.hands[-1]}, frozenset({seat}))]
        seat = len(self.calls)
        self.calls.append(action)
        events = [Event("said", {"seat": seat, "word": action})]
        if self.is_terminal():
            events.append(
                Event("showdown", {"hands": tuple(self.hands), "calls": tuple(self.calls)})
            )
        return events

    def is_terminal(self) -> bool:
        return "fold" in self.calls or len(self.calls) == 2

    def returns(self) -> tuple[float, ...]:
        if "fold" in self.calls:
            loser = self.calls.index("fold")
            return tuple(0.0 if s == loser else 1.0 for s in range(2))
        a, b = self.hands
        return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)

    def clone(self) -> HighCardState:
        other = HighCardState(self.game)
        other.hands = list(self.hands)
        other.calls = list(self.calls)
        return other


class Caller(Bot):
    """Calls with its best card, folds otherwise; remembers its card from its view."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        mine = [e for e in view.events if e.kind == "dealt" and e.private is not None]
        return "call" if mine and mine[0].private["card"] == self.game.cards else "fold"


class Misbehaving(Bot):
    """Does whatever ``MODE`` says: raise, return junk, compute 0.3 s of CPU time ("slow") or
    forever ("hang"), sleep 0.3 s ("sleepy", no CPU time) or forever ("stuck")."""

    MODE: ClassVar[str] = "raise"

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        import time

        if self.MODE == "raise":
            raise RuntimeError("boom")
        if self.MODE == "illegal":
            return "dance"
        if self.MODE == "sleepy":
            time.sleep(0.3)
            return "call"
        if self.MODE == "stuck":
            while True:
                time.sleep(0.01)
        end = time.thread_time() + (0.3 if self.MODE == "slow" else 1e9)
        while time.thread_time() < end:
            pass
        return "call"


def _misbehaving(mode: str) -> Any:
    return type(f"Misbehaving_{mode}", (Misbehaving,), {"MODE": mode})


class Peeker(Bot):
    """Records every view it receives (to check what it was allowed to see)."""

    seen: ClassVar[list[View]] = []

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        Peeker.seen.append(View(view.seat, view.role, view.game_info, list(view.events)))
        return self.rng.choice(list(legal))


SPEC = GameSpec(
    name="highcard",
    description="test game: chance deals private cards, then call or fold",
    roles=("first", "second"),
    options=(OptionSpec("cards", 3, "number of card values", parse_int(2)),),
    bots=(
        BotSpec("caller", ("first", "second"), Caller, "calls with the top card"),
        BotSpec("peeker", ("first", "second"), Peeker, "random, records its views"),
        *(
            BotSpec(mode, ("first", "second"), _misbehaving(mode), f"misbehaves: {mode}")
            for mode in ("raise", "illegal", "slow", "hang", "sleepy", "stuck")
        ),
        BotSpec("broken", ("first", "second"), lambda g, s, seed: 1 / 0, "fails to start"),
    ),
    build=lambda values: HighCard(values["cards"]),
)

if "highcard" not in game_names():
    register(SPEC)
