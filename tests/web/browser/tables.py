"""Entries for the assistants' notepads, as a person at the table would type them: a seat's
view of a seeded game between the random bots, turned into entries by each game's own
``entry_texts`` (the detectives in Scotland Yard, the Marshal in Fugitive, seat 0 in Camel Up
and Cluedo), and inspections for the fox puzzle (path:5, one hole a day, never a catch)."""

from __future__ import annotations

import random
from typing import Any

from sleuth.core.events import Event
from sleuth.core.game import Game
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.assistant import entry_texts as camel_up_entries
from sleuth.games.cluedo.assistant import NotepadSession
from sleuth.games.cluedo.assistant import entry_texts as cluedo_entries
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.fugitive.assistant.table import entry_texts as fugitive_entries
from sleuth.games.scotland_yard.assistant import entry_texts as scotland_yard_entries


def random_events(name: str, seed: int) -> tuple[Game[Any], list[Event]]:
    """A seeded game of ``name`` (default options) between its random bots, and its events."""
    spec = game_spec(name)
    game = spec.make({})
    record = run_match(game, [spec.bot("random")] * game.num_players, seed)
    return game, [event for step in record.steps for event in step.events]


def entries(name: str, seed: int, count: int) -> list[str]:
    """The first ``count`` entries of a game of ``name`` for its assistant."""
    if name == "fox":
        rng = random.Random(seed)
        # the even holes only: the fox's possible holes never run out (odd, even, odd, ...)
        return [f"inspect {rng.choice((0, 2, 4))}" for _ in range(count)]
    game, events = random_events(name, seed)
    if name == "cluedo":
        assert isinstance(game, CluedoGame)
        session = NotepadSession(game)
        texts = []
        for _, text in cluedo_entries(game, 0, [e.seen_by(0) for e in events], session):
            session.enter(text)
            texts.append(text)
        return texts[:count]
    if name == "fugitive":
        return fugitive_entries([e.seen_by(1) for e in events if e.kind != "route"])[:count]
    if name == "scotland-yard":
        return scotland_yard_entries([e.seen_by(1) for e in events])[:count]
    assert name == "camel-up"
    return camel_up_entries([e.seen_by(0) for e in events])[:count]
