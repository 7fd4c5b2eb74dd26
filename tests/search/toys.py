"""Small games with known answers for the search tests.

* :class:`Nim`: perfect information, ``players`` seats take 1..3 objects from one heap in turn;
  whoever takes the last object wins (it is credited with the win).  With two players the
  winning move leaves a multiple of 4.  With ``teams`` the seats ``0, 2, ...`` are the side
  ``team0`` against ``team1``, seats ``1, 3, ...``: a side wins when one of its members takes
  the last object, and every member gets the full win (the search's teams are these sides).
* a search model for the ``highcard`` test game of ``tests/core/toy.py`` (a chance deal, a
  private card each), whose sampler draws the opponent's card uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from sleuth.core.errors import ActionParseError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import TERMINAL, Game, State
from sleuth.core.searchmodel import SearchModel, replay_history
from tests.core.toy import HighCard, HighCardState


class Nim(Game[int]):
    name: ClassVar[str] = "nim"

    def __init__(self, heap: int = 10, players: int = 2, teams: bool = False) -> None:
        self.heap = heap
        self.players = players
        self.teams = teams

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(f"player{s}" for s in range(self.players))

    def sides(self) -> tuple[str, ...]:
        if not self.teams:
            return super().sides()
        return tuple(f"team{s % 2}" for s in range(self.players))

    def options(self) -> dict[str, JSON]:
        return {"heap": self.heap, "players": self.players, "teams": self.teams}

    def new_initial_state(self) -> NimState:
        return NimState(self)

    def parse_action(self, text: str) -> int:
        if text.strip() in ("1", "2", "3"):
            return int(text)
        raise ActionParseError(f"{text!r} is not 1, 2 or 3")


TAKES = (1, 2, 3)


class NimState(State[int]):
    def __init__(self, game: Nim) -> None:
        self.game = game
        self.heap = game.heap
        self.turn = 0
        self.winner: int | None = None

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.turn % self.game.players

    def legal_actions(self) -> Sequence[int]:
        return () if self.winner is not None else TAKES[: min(3, self.heap)]

    def illegal_reason(self, action: object) -> str | None:
        return None if action in self.legal_actions() else "cannot take that many"

    def _apply(self, action: int) -> list[Event]:
        seat = self.current_player()
        self.heap -= action
        self.turn += 1
        if self.heap == 0:
            self.winner = seat
        return [Event("took", {"seat": seat, "count": action})]

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> tuple[float, ...]:
        players = self.game.players
        if self.winner is None:
            return (0.0,) * players
        if self.game.teams:
            return tuple(1.0 if s % 2 == self.winner % 2 else 0.0 for s in range(players))
        return tuple(1.0 if s == self.winner else 0.0 for s in range(players))

    def clone(self) -> NimState:
        other = NimState(self.game)
        other.heap, other.turn, other.winner = self.heap, self.turn, self.winner
        return other


class _Replay:
    """The one world of a perfect-information view."""

    def __init__(self, game: Game[int], history: list[int]) -> None:
        self.history = history
        self.state, _ = replay_history(game, history)

    def sample_history(self, rng: random.Random) -> list[int]:
        return list(self.history)

    def sample_state(self, rng: random.Random) -> State[int]:
        return self.state.clone()


class NimModel(SearchModel[int]):
    def sampler(self, game: Game[int], view: View) -> _Replay:
        return _Replay(game, [int(e.public["count"]) for e in view.events])

    def credit(self, state: State[int]) -> int | None:
        assert isinstance(state, NimState)
        return state.winner


class HighCardSampler:
    """The opponent's card uniformly (the seat's own card and the calls come from the view)."""

    def __init__(self, game: HighCard, view: View) -> None:
        self.game = game
        self.seat = view.seat
        self.mine = next(
            int(e.private["card"])
            for e in view.events
            if e.kind == "dealt" and e.private is not None
        )
        self.said = [str(e.public["word"]) for e in view.events if e.kind == "said"]

    def sample_history(self, rng: random.Random) -> list[str]:
        other = rng.randint(1, self.game.cards)
        cards = (self.mine, other) if self.seat == 0 else (other, self.mine)
        return [f"deal {cards[0]}", f"deal {cards[1]}", *self.said]

    def sample_state(self, rng: random.Random) -> HighCardState:
        state, _ = replay_history(self.game, self.sample_history(rng))
        assert isinstance(state, HighCardState)
        return state


class HighCardModel(SearchModel[str]):
    def sampler(self, game: Game[str], view: View) -> HighCardSampler:
        assert isinstance(game, HighCard)
        return HighCardSampler(game, view)
