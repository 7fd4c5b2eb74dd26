"""Fugitive's plug-ins: the Marshal's notepad behind ``sleuth infer fugitive`` and the
Marshal's assistant behind ``sleuth assist fugitive`` (registered by ``SPEC``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group

from sleuth.core.compiled import compile_in_background
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON, Event
from sleuth.core.game import Game
from sleuth.core.plugins import AssistPlugin, InferPlugin, PagePlugin, Param
from sleuth.core.prepare import one_off
from sleuth.core.seatview import ViewLog
from sleuth.games.fugitive import notepad_picture, picture
from sleuth.games.fugitive.assistant.notepad import (
    FugitiveSession,
    notepad,
    opponent_json,
    opponent_notes,
)
from sleuth.games.fugitive.belief import MODELS, start_warm_up, warm_up
from sleuth.games.fugitive.bots import OPPONENTS, known_strategy
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.deduction.timeline import first_events
from sleuth.games.fugitive.deduction.worlds import check_view
from sleuth.games.fugitive.rules import FugitiveGame

MODEL = Param(
    "model",
    "What the odds assume of the Fugitive: uniform (every consistent world equally likely), "
    "thrifty or frugal (little wasted reach: each wasted footprint halves or quarters a "
    "world's weight). The possible values do not depend on it.",
    default="uniform",
    choices=tuple(MODELS),
)


@dataclass(frozen=True)
class MarshalNotes:
    """The Marshal's deduction after the first ``events`` events of her view, and the routes
    under a known Fugitive strategy when one was named."""

    events: int
    deduction: Deduction
    known: tuple[StrategyBelief, str] | None

    def to_json(self) -> dict[str, JSON]:
        extra = {} if self.known is None else {"opponent": opponent_json(*self.known)}
        return {"events": self.events, **self.deduction.to_json(), **extra}

    def render(self) -> Group:
        parts = [notepad(self.deduction)]
        if self.known is not None:
            parts.append(opponent_notes(*self.known))
        return Group(*parts)


def infer(view: ViewLog, events: int | None, params: Mapping[str, Any]) -> MarshalNotes:
    """The notepad after ``events`` events (and the reveals of a hit they end in)."""
    seen = view.events if events is None else first_events(view.events, events)
    game = view.game
    assert isinstance(game, FugitiveGame)  # read_view_log checked the game's name
    deduction = Deduction.from_events(seen, game.manhunt_threshold, model=params["model"])
    check_view(game, seen, deduction.belief, random.Random(0), cut=events is not None)
    name = params["opponent"]
    known = None if name is None else (_known_opponent(game, seen, name), name)
    return MarshalNotes(len(seen), deduction, known)


def _known_opponent(game: FugitiveGame, seen: list[Event], name: str) -> StrategyBelief:
    """``--opponent``: the view read as games of the Fugitive bot ``name``."""
    belief = StrategyBelief(game, known_strategy(name, game))
    with one_off(f"Reading the view as the {name} Fugitive's games"):
        try:
            belief.update(seen)
        except SleuthError as exc:
            raise SleuthError(f"--opponent {name}: {exc}") from None
    return belief


def _prepare(game: Game[Any]) -> None:
    """Compile (or load) the deduction's kernel in the background: the notepad answers from
    the plain programme meanwhile (the same counts), so that no entry waits for it."""
    compile_in_background(warm_up)


def _session(game: Game[Any], params: Mapping[str, Any]) -> FugitiveSession:
    assert isinstance(game, FugitiveGame)
    return FugitiveSession(game, params["model"])


INFER = InferPlugin(
    role="marshal",
    help="The Marshal's exact deduction: each face-down hideout's possible values with their "
    "probabilities, certain hideouts, numbers ruled out, and the suggested guess.",
    run=infer,
    params=(
        MODEL,
        Param(
            "opponent",
            "Also the odds of his face-down routes if the Fugitive is this bot (default "
            "options), and in the Manhunt the guess that wins it most often.",
            choices=OPPONENTS,
        ),
    ),
    prepare=start_warm_up,
)

ASSIST = AssistPlugin(
    help="The Marshal's assistant at a real table: type what happens (your draws, the "
    "Fugitive's draws and hideouts, guesses and what they revealed) and see the notepad after "
    "each entry.  'help' lists the forms; undo, edit, delete, save FILE and load FILE work at "
    "any time.",
    session=_session,
    params=(MODEL,),
    prepare=_prepare,
)

PAGE = PagePlugin(board=picture.svg, describe=picture.describe, notepad=notepad_picture.notepad)
"""The game's page in the web app: the board from one seat's view, the events in words, and
the assistant's picture."""
