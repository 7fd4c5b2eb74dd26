"""Cluedo's random player: sensible random play that never accuses; every player continues a
game when rebuilt."""

from __future__ import annotations

from collections import Counter

import pytest

from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo.actions import END, ROLL, Accuse, Go, Show, Suggest
from sleuth.games.cluedo.bots import RandomPlayer
from sleuth.games.cluedo.cards import ROOMS
from sleuth.games.cluedo.rules import ACCUSATIONS, CluedoGame
from sleuth.testing import Case, check_rebuilt_bot


@pytest.mark.parametrize("players", [3, 6])
def test_random_players_suggest_refute_and_never_accuse(players: int) -> None:
    game = make_game("cluedo", {"players": players, "max_turns": 120})
    bots = [game_spec("cluedo").bot("random")] * players
    record = run_match(game, bots, seed=players, time_limit=None)
    assert not record.forfeits and record.final_state is not None
    assert record.final_state.termination() == "turn_limit" and record.result is not None
    assert record.result.winners == ()
    counts = Counter(e.kind for step in record.steps for e in step.events)
    assert counts["accused"] == 0
    assert counts["suggested"] > 10 and counts["refuted"] + counts["unrefuted"] > 10
    played = Counter(type(step.action).__name__ for step in record.steps)
    assert played["Go"] > 0 and played["Show"] == counts["refuted"]


def view(game: CluedoGame, seat: int, events: list[Event]) -> View:
    return View(seat, "player", {}, events)


def test_it_enters_a_room_the_roll_reaches_else_heads_for_the_nearest() -> None:
    game = make_game("cluedo", {"players": 3, "dice": 2})  # rolls of 2 to 12
    assert isinstance(game, CluedoGame)
    goes = [Go(r) for r in ROOMS]
    bot = RandomPlayer(game, 0, seed=1)
    for roll, expected in ((6, {13}), (2, {13})):  # Scarlet: the Lounge is 8 away, the closest
        rolled = [Event("rolled", {"seat": 0, "roll": roll})]
        for _ in range(20):
            choice = bot.act(view(game, 0, rolled), goes)
            assert isinstance(choice, Go) and choice.room in expected
    moved = [
        Event("moved", {"seat": 0, "roll": 8, "position": "Lounge"}),
        Event("rolled", {"seat": 0, "roll": 8}),
    ]
    picks = {bot.act(view(game, 0, moved), goes[:1] + goes[2:]) for _ in range(60)}
    assert picks == {Go(12), Go(14)}  # from the Lounge: Hall 8 and Dining Room 4 are in reach


def test_it_suggests_when_it_may_and_shows_what_it_must() -> None:
    game = make_game("cluedo", {"players": 3})
    bot = RandomPlayer(game, 1, seed=2)
    suggestions = (Suggest(0, 6, 12), Suggest(1, 7, 12))
    assert bot.act(view(game, 1, []), (*suggestions, *ACCUSATIONS, END)) in suggestions
    assert bot.act(view(game, 1, []), (*ACCUSATIONS, END)) == END
    assert bot.act(view(game, 1, []), (Show(3), Show(9))) in (Show(3), Show(9))
    assert not isinstance(bot.act(view(game, 1, []), (ROLL, *ACCUSATIONS)), Accuse)


@pytest.mark.parametrize(
    ("bot", "seed"),
    [("sleuth:samples=200", 0), ("velma:hypotheses=2000:enumerate_below=1000", 1)],
    ids=["sleuth", "velma"],
)
def test_a_bot_rebuilt_before_every_decision_plays_as_the_one_that_never_stopped(
    bot: str, seed: int
) -> None:
    """What the thinking players keep between decisions (the sleuth player's samples of a
    posterior, Velma's hypotheses and suggestion analyses) is what a fresh player reading
    the same view makes: each of their decisions, by a player built just before it, is the
    decision of the player that played the whole game."""
    check_rebuilt_bot(Case.of("cluedo"), bot, seed, rebuilds=1000)
