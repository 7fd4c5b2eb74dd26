"""Fugitive at the command line: the Marshal's notepad (``sleuth infer fugitive``) and the
table-side assistant (``sleuth assist fugitive``)."""

from __future__ import annotations

import random
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from sleuth.assist.fugitive import FugitiveSession, notepad, opponent_json, opponent_notes
from sleuth.assist.repl import run_repl
from sleuth.cli.common import console, print_json
from sleuth.core.errors import OptionError, SleuthError
from sleuth.core.events import Event
from sleuth.core.registry import make_game, parse_option_texts
from sleuth.core.viewlog import read_view_log
from sleuth.games.fugitive.advice import Deduction
from sleuth.games.fugitive.belief import MODELS, warm_up
from sleuth.games.fugitive.bots import OPPONENTS, known_strategy
from sleuth.games.fugitive.opponent import StrategyBelief
from sleuth.games.fugitive.rules import FugitiveGame
from sleuth.games.fugitive.timeline import first_events
from sleuth.games.fugitive.worlds import check_view

Model = Enum("Model", {name: name for name in MODELS}, type=str)  # type: ignore[misc]
"""The Fugitive models of :data:`~sleuth.games.fugitive.belief.MODELS`, as CLI choices."""
Opponent = Enum("Opponent", {name: name for name in OPPONENTS}, type=str)  # type: ignore[misc]
"""The Fugitives whose strategy ``--opponent`` can assume."""
MODEL_OPTION = typer.Option(
    "--model",
    help="What the odds assume of the Fugitive: uniform (every consistent world equally "
    "likely), thrifty or frugal (little wasted reach: each wasted footprint halves or quarters "
    "a world's weight). The possible values do not depend on it.",
)


def infer_command(
    log: Annotated[
        Path,
        typer.Option(
            "--log", help="The Marshal's view log (as the assistant saves it) or a full game log."
        ),
    ],
    events: Annotated[
        int | None,
        typer.Option(
            "--events",
            min=0,
            help="Use only the first N events of the view (with the reveals of a hit they end in).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    model: Annotated[Model, MODEL_OPTION] = Model.uniform,  # type: ignore[attr-defined]
    opponent: Annotated[
        Opponent | None,
        typer.Option(
            "--opponent",
            help="Also the odds of his face-down routes if the Fugitive is this bot (default "
            "options), and in the Manhunt the guess that wins it most often.",
        ),
    ] = None,
) -> None:
    """The Marshal's exact deduction: each face-down hideout's possible values with their
    probabilities, certain hideouts, numbers ruled out, and the suggested guess."""
    view = read_view_log(log, "marshal", "fugitive")
    seen = view.events if events is None else first_events(view.events, events)
    game = view.game
    assert isinstance(game, FugitiveGame)  # read_view_log checked the game's name
    try:
        deduction = Deduction.from_events(seen, game.manhunt_threshold, model=model.value)
        check_view(game, seen, deduction.belief, random.Random(0), cut=events is not None)
    except SleuthError as exc:
        raise SleuthError(f"{log}: {exc}") from None
    known = None if opponent is None else _known_opponent(log, game, seen, opponent.value)
    if as_json:
        extra = {} if known is None else {"opponent": opponent_json(*known)}
        print_json({"events": len(seen), **deduction.to_json(), **extra})
        return
    console.print(notepad(deduction))
    if known is not None:
        console.print(opponent_notes(*known))


def _known_opponent(
    log: Path, game: FugitiveGame, seen: list[Event], name: str
) -> tuple[StrategyBelief, str]:
    """``--opponent``: the view read as games of the Fugitive bot ``name``."""
    belief = StrategyBelief(game, known_strategy(name, game))
    with console.status(f"Reading the view as the {name} Fugitive's games"):
        try:
            belief.update(seen)
        except SleuthError as exc:
            raise SleuthError(f"{log}: --opponent {name}: {exc}") from None
    return belief, name


def assist_command(
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Game option name=value (repeatable)."),
    ] = None,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load",
            help="Continue from a saved view log, or from a full game log (its view is taken).",
        ),
    ] = None,
    model: Annotated[Model, MODEL_OPTION] = Model.uniform,  # type: ignore[attr-defined]
) -> None:
    """The Marshal's assistant at a real table: type what happens (your draws, the
    Fugitive's draws and hideouts, guesses and what they revealed) and see the notepad after
    each entry.  'help' lists the forms; undo, save FILE and load FILE work at any time."""
    if load is not None and option:
        raise OptionError("--load takes the game's options from the log: leave out -o")
    game = make_game("fugitive", parse_option_texts(option or []))
    assert isinstance(game, FugitiveGame)
    with console.status(
        "Loading the deduction engine (compiled on the first run after an install)"
    ):
        warm_up()
    session = FugitiveSession(game, model.value)
    if load is not None:
        session.load(load)
    run_repl(session, console)
