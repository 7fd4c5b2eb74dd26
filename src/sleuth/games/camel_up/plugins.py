"""Camel Up's plug-ins: a seat's odds after a log (``sleuth infer camel-up``) and the odds
assistant (``sleuth assist camel-up``), registered by ``SPEC``.

``infer`` replays the seat's view through the rules engine (other seats' overall cards stay
hidden) and answers with the exact leg odds, the race odds and the expected coins of every
action of the seat to move, as ``sleuth camel-up odds`` does for a position.  Every hidden
overall card of another seat comes with the seat's belief about its camel, inferred from the
odds at the moment it was placed (:mod:`sleuth.games.camel_up.belief`); the advice uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.compiled import compile_in_background
from sleuth.core.events import JSON
from sleuth.core.game import CHANCE, Game
from sleuth.core.plugins import AssistPlugin, InferPlugin, PagePlugin, Param
from sleuth.core.seatview import ViewLog
from sleuth.games.camel_up import notepad_picture, picture
from sleuth.games.camel_up.actions import PILES
from sleuth.games.camel_up.advice import Advice, advise
from sleuth.games.camel_up.assistant import CamelSession, odds_json, render_advice
from sleuth.games.camel_up.belief import InferringTracker
from sleuth.games.camel_up.bots import warm_up_first, warm_up_second
from sleuth.games.camel_up.rules import CamelState, CamelUpGame, describe_stacks

ROLLOUTS = Param(
    "rollouts", "2nd edition: rollouts for later legs.", kind=int, default=20_000, minimum=1
)
SHARPNESS = 3.0
"""How much the belief about a hidden card trusts its bettor (the strong bot's default)."""
BELIEF_ROLLOUTS = 500
"""Rollouts of the odds a hidden card's belief is computed from (as the strong bot)."""


@dataclass(frozen=True)
class HiddenCard:
    """Another seat's face-down overall card and the belief about its camel."""

    pile: str
    position: int
    seat: int
    camels: dict[str, float]


@dataclass(frozen=True)
class SeatOdds:
    """A seat's picture after the first ``events`` events of its view: the table, the odds
    and the value of every action of the seat to move (None before the start and after the
    end), and the beliefs about the hidden cards."""

    events: int
    seat: int
    state: CamelState
    advice: Advice | None
    hidden: tuple[HiddenCard, ...]

    def to_json(self) -> dict[str, JSON]:
        state = self.state
        out: dict[str, JSON] = {
            "events": self.events,
            "seat": self.seat,
            "started": state.order is not None,
            "over": state.is_terminal(),
            "to_move": None if self.advice is None else state.seat,
            "money": list(state.money),
            "hidden_cards": [
                {"pile": h.pile, "position": h.position, "seat": h.seat, "camels": dict(h.camels)}
                for h in self.hidden
            ],
        }
        if self.advice is not None:
            out.update(odds_json(state, self.advice))
        return out

    def render(self) -> Group:
        state = self.state
        you = f"Seat {self.seat} of {state.game.players}, after {self.events} events"
        if state.order is None:
            return Group(Text(f"{you}: the race has not started."))
        lines: list[Text | Table | Group] = [
            Text(f"{you}. Leg {state.leg}: {describe_stacks(state.game, state.order)}"),
            Text("Money: " + ", ".join(f"seat {s} {m}" for s, m in enumerate(state.money))),
        ]
        if self.hidden:
            cards = Table("pile", "card", "seat", "camel it names (belief)", title="Hidden cards")
            for h in self.hidden:
                ranked = sorted(h.camels.items(), key=lambda kv: -kv[1])
                names = ", ".join(f"{c} {p:.0%}" for c, p in ranked if p >= 0.005)
                cards.add_row(h.pile, str(h.position + 1), str(h.seat), names)
            lines.append(cards)
        if self.advice is None:
            lines.append(Text(f"Game over: {state.outcome()}" if state.is_terminal() else ""))
        else:
            lines.append(Text(f"Seat {state.seat} to move", style="bold"))
            lines.append(render_advice(state, self.advice))
        return Group(*lines)


def infer(view: ViewLog, events: int | None, params: Mapping[str, Any]) -> SeatOdds:
    """The seat's odds after the first ``events`` events of ``view`` (all by default; a cut
    after a roll takes its die too)."""
    game = view.game
    assert isinstance(game, CamelUpGame)  # read_view_log checked the game's name
    end = len(view.events) if events is None else events
    tracker = InferringTracker(game, SHARPNESS, BELIEF_ROLLOUTS)
    prepare(game)
    state = tracker.update(view.events[:end])
    while state.order is not None and state.current_player() == CHANCE and end < len(view.events):
        end += 1  # a roll and its die are one move: a cut between them takes the die
        state = tracker.update(view.events[:end])
    seen = view.events[:end]
    name = game.camel_name
    hidden = tuple(
        HiddenCard(
            PILES[pile],
            position,
            state.piles[pile][position][0],
            {name(c): p for c, p in enumerate(belief)},
        )
        for (pile, position), belief in sorted(tracker.beliefs.items())
    )
    advice = None
    if state.order is not None and not state.is_terminal():
        advice = advise(
            state, rollouts=params["rollouts"], seed=0, all_tiles=True, beliefs=tracker.beliefs
        )
    return SeatOdds(len(seen), view.seat, state, advice, hidden)


def prepare(game: Game[Any]) -> None:
    """Compile (or load) the odds kernels and load (or build) the race table in the background
    while the user types the first entries: odds asked meanwhile come from the kernels' Python
    originals (the same figures), and build the table themselves if it is not there yet."""
    assert isinstance(game, CamelUpGame)
    compile_in_background(warm_up_first if game.edition == 1 else warm_up_second)


def _session(game: Game[Any], params: Mapping[str, Any]) -> CamelSession:
    assert isinstance(game, CamelUpGame)
    return CamelSession(game, params["seat"] or 0, params["rollouts"])


INFER = InferPlugin(
    role="player",
    help="A seat's exact leg and race odds and the expected coins of every action at a point "
    "of a log, with its beliefs about the other seats' hidden overall cards.",
    run=infer,
    params=(ROLLOUTS,),
    by_seat=True,
)

ASSIST = AssistPlugin(
    help="The odds assistant at a real table: type the moves as they happen (the start, each "
    "roll with its die, leg tickets, tiles, overall bets) and see the leg and race odds and "
    "the best actions after each.  Seats are counted from 0 in turn order (seat 0 moves "
    "first); --seat is yours.  'help' lists the forms; undo, edit, delete, save FILE and "
    "load FILE work at any time.",
    session=_session,
    params=(
        Param(
            "seat",
            "Your seat, counted from 0 (seat 0 moves first; default 0, or the log's).",
            kind=int,
            minimum=0,
        ),
        ROLLOUTS,
    ),
    prepare=prepare,
    load_sets=("seat",),
)

PAGE = PagePlugin(board=picture.svg, describe=picture.describe, notepad=notepad_picture.notepad)
"""The game's page in the web app: the board from one seat's view, the events in words, and
the assistant's picture."""
