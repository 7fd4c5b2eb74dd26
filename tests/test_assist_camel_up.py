"""``sleuth assist camel-up``: whole games typed in give back the seat's view; bad entries
change nothing; undo, save and load."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.assist.camel_up import CamelSession, entry_texts
from sleuth.core.errors import SleuthError
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.observe import TableTracker
from sleuth.games.camel_up.rules import CamelUpGame
from tests.test_cli import entry, flat

START = "start 1:blue 2:green,orange 3:yellow,white"


def _record(game: CamelUpGame, seed: int) -> list:  # type: ignore[type-arg]
    spec = game_spec("camel-up")
    return run_match(game, [spec.bot("random")] * game.players, seed, time_limit=None).steps


@pytest.mark.parametrize(("edition", "players", "seat"), [(1, 4, 2), (2, 3, 0), (1, 2, 1)])
def test_a_whole_game_typed_in_is_the_seats_view(edition: int, players: int, seat: int) -> None:
    game = CamelUpGame(edition=edition, players=players)
    steps = _record(game, seed=11)
    view = [e.seen_by(seat) for step in steps for e in step.events]
    session = CamelSession(game, seat, rollouts=50)
    for text in entry_texts(view):
        session.enter(text)
    # The reveal of the overall cards at the end is not typed in (the odds no longer need it).
    assert session.events == [e for e in view if e.kind != "overall_scored"]
    observed = TableTracker(game).update(view)
    assert session.state.order == observed.order and session.state.dice == observed.dice
    assert session.state.is_terminal() and "Game over" in str(session.render().renderables[-1])


def test_bad_entries_are_refused_and_change_nothing() -> None:
    session = CamelSession(CamelUpGame(players=3), seat=1, rollouts=50)
    with pytest.raises(SleuthError, match="starting stacks"):
        session.enter("leg blue")
    session.enter(START)
    session.enter("roll blue 1")  # seat 0
    before = (session.history(), session.state.order, session.state.money, session.events[:])
    for text, reason in (
        ("winner", "your turn"),  # seat 1 is me: I must name my card
        ("roll blue 2", "already left the pyramid"),
        ("roll blue", "with its die"),
        ("roll pink 2", "no pink die"),
        ("leg pink", "not a racing camel"),
        ("tile 3 oasis", "camel on it"),
        ("die green 2", "roll blue 2"),
        ("fly away", "not a Camel Up action"),
    ):
        with pytest.raises(SleuthError, match=reason):
            session.enter(text)
        after = (session.history(), session.state.order, session.state.money, session.events)
        assert after == before
    session.enter("winner green")  # my card
    with pytest.raises(SleuthError, match="hidden from you"):
        session.enter("loser blue")  # seat 2's card
    session.enter("loser")
    assert session.state.piles == ([(1, 1)], [(2, -1)])


def test_undo_save_and_load(tmp_path: Path) -> None:
    session = CamelSession(CamelUpGame(), seat=0, rollouts=50)
    for text in (START, "leg white", "tile 8 mirage", "roll orange 3", "winner"):
        session.enter(text)
    assert session.undo() == "winner"
    path = tmp_path / "table.jsonl"
    session.save(path)
    loaded = CamelSession(CamelUpGame(players=2), seat=1, rollouts=50)
    loaded.load(path)
    assert loaded.history() == session.history() and loaded.seat == 0
    assert loaded.state.order == session.state.order and loaded.game == session.game
    with pytest.raises(SleuthError):
        loaded.load(tmp_path / "missing.jsonl")
    assert loaded.history() == session.history()
    while session.history():
        session.undo()
    with pytest.raises(SleuthError, match="nothing to undo"):
        session.undo()


def test_the_assistant_at_the_command_line(tmp_path: Path, cwd: Path) -> None:
    saved = tmp_path / "s.jsonl"
    typed = f"{START}\nleg white\nroll blue 9\nsave {saved}\nquit\n"
    done = entry("assist", "camel-up", "-o", "players=3", "--seat", "1", cwd=cwd, stdin=typed)
    assert done.returncode == 0, done.stderr
    out = flat(done.stdout)
    assert "Best actions for seat 1" in out and "leg white" in out
    assert "9" in out and saved.exists()
    again = entry("assist", "camel-up", "--load", saved, cwd=cwd, stdin="history\n")
    assert again.returncode == 0 and "leg white" in again.stdout
