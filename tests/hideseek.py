"""A toy teams game with a known answer, registered for the tests as ``hideseek``.

One hider against ``detectives`` detectives (default 5) who win or lose together.  The hider
hides in one of ``holes`` holes (default 6), privately; then each detective in turn searches
one hole, publicly.  The detectives win as soon as one of them finds the hider, the hider
wins if nobody does.

With the ``random`` bot everywhere every search is an independent uniform draw, so the
detectives win with probability ``1 - (1 - 1/holes) ** detectives``: exactly
``4651/7776 = 0.5981...`` on the defaults.  The ``sweep`` detective searches the lowest hole
nobody has searched yet, so against the random hider its side wins ``detectives / holes``
(5/6).  Under the old seat-by-seat counting each detective was given a fifth of a win and each
game counted five times, so the detectives' rate read 11.96% with a far too narrow interval.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import ActionParseError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import TERMINAL, Game, State
from sleuth.core.registry import GameSpec, OptionSpec, game_names, parse_int, register


def detectives_win_probability(holes: int = 6, detectives: int = 5) -> float:
    """The detectives' win probability when every seat plays uniformly at random."""
    return 1.0 - (1.0 - 1.0 / holes) ** detectives


class HideSeek(Game[str]):
    name: ClassVar[str] = "hideseek"
    terminations: ClassVar[tuple[str, ...]] = ("found", "hidden")

    def __init__(self, holes: int = 6, detectives: int = 5) -> None:
        self.holes = holes
        self.detectives = detectives

    @property
    def roles(self) -> tuple[str, ...]:
        return ("hider",) + ("detective",) * self.detectives

    def sides(self) -> tuple[str, ...]:
        return ("hider",) + ("detectives",) * self.detectives

    def options(self) -> dict[str, JSON]:
        return {"holes": self.holes, "detectives": self.detectives}

    def new_initial_state(self) -> HideSeekState:
        return HideSeekState(self)

    def parse_action(self, text: str) -> str:
        verb, _, number = text.partition(" ")
        if verb in ("hide", "search") and number.isdigit():
            return text
        raise ActionParseError(f"{text!r} is not a hideseek action ('hide N' or 'search N')")


class HideSeekState(State[str]):
    def __init__(self, game: HideSeek) -> None:
        self.game = game
        self.hole: int | None = None
        self.searched: list[int] = []

    @property
    def found(self) -> bool:
        return self.hole is not None and self.hole in self.searched

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return 0 if self.hole is None else 1 + len(self.searched)

    def legal_actions(self) -> Sequence[str]:
        if self.is_terminal():
            return ()
        verb = "hide" if self.hole is None else "search"
        return tuple(f"{verb} {h}" for h in range(self.game.holes))

    def illegal_reason(self, action: object) -> str | None:
        if action in self.legal_actions():
            return None
        return "the game is over" if self.is_terminal() else "not a legal action now"

    def _apply(self, action: str) -> list[Event]:
        hole = int(action.split()[1])
        if self.hole is None:
            self.hole = hole
            return [Event("hid", {}, {"hole": hole}, frozenset({0}))]
        seat = self.current_player()
        self.searched.append(hole)
        return [Event("searched", {"seat": seat, "hole": hole, "found": self.found})]

    def is_terminal(self) -> bool:
        return self.found or len(self.searched) == self.game.detectives

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0,) * self.game.num_players
        caught = 1.0 if self.found else 0.0
        return (1.0 - caught,) + (caught,) * self.game.detectives

    def termination(self) -> str:
        return "found" if self.found else "hidden"

    def outcome(self) -> str:
        if self.found:
            return f"found in hole {self.hole} by detective {len(self.searched)}"
        return f"hidden in hole {self.hole}"

    def clone(self) -> HideSeekState:
        other = HideSeekState(self.game)
        other.hole, other.searched = self.hole, list(self.searched)
        return other


class RandomPlayer(Bot):
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self.rng.choice(list(legal))


class Sweep(Bot):
    """A detective that searches the lowest hole nobody has searched yet."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        searched = {e.public["hole"] for e in view.events if e.kind == "searched"}
        return next(a for a in legal if int(str(a).split()[1]) not in searched)


ROLES = ("hider", "detective")
SPEC = GameSpec(
    name="hideseek",
    description="test game: one hider against detectives who win together",
    roles=ROLES,
    options=(
        OptionSpec("holes", 6, "number of holes", parse_int(1)),
        OptionSpec("detectives", 5, "number of detectives", parse_int(1)),
    ),
    bots=(
        BotSpec("random", ROLES, RandomPlayer, "uniformly random"),
        BotSpec("sweep", ("detective",), Sweep, "searches the lowest unsearched hole"),
    ),
    build=lambda values: HideSeek(values["holes"], values["detectives"]),
)

if "hideseek" not in game_names():
    register(SPEC)
