"""``sleuth assist camel-up``: whole games typed in give back the seat's view; bad entries
change nothing; undo, save and load."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sleuth.core.errors import IllegalActionError, SleuthError
from sleuth.core.match import MatchRecord, run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.actions import ROLL, Die, OverallBet
from sleuth.games.camel_up.assistant import CamelSession, entry_texts
from sleuth.games.camel_up.belief import TableTracker
from sleuth.games.camel_up.position import position
from sleuth.games.camel_up.rules import HIDDEN, CamelUpGame
from tests.cli_helpers import entry, flat

START = "start 1:blue 2:green,orange 3:yellow,white"


def _record(game: CamelUpGame, seed: int) -> MatchRecord:
    spec = game_spec("camel-up")
    return run_match(game, [spec.bot("random")] * game.players, seed, time_limit=None)


@pytest.mark.parametrize(("edition", "players", "seat"), [(1, 4, 2), (2, 3, 0), (1, 2, 1)])
def test_a_whole_game_typed_in_is_the_seats_view(edition: int, players: int, seat: int) -> None:
    game = CamelUpGame(edition=edition, players=players)
    record = _record(game, seed=11)
    view = [e.seen_by(seat) for step in record.steps for e in step.events]
    session = CamelSession(game, seat, rollouts=50)
    for text in entry_texts(view):
        session.enter(text)
    # The overall cards are typed in as they are turned up ('reveal winner blue ...').
    overall = ("overall_scored", "overall_turned_up")
    assert [e for e in session.events if e.kind not in overall] == [
        e for e in view if e.kind != "overall_scored"
    ]
    scored = [e for e in session.events if e.kind == "overall_scored"]
    assert scored == [e for e in view if e.kind == "overall_scored"][-len(scored) :]
    observed = TableTracker(game).update(view)
    assert session.state.order == observed.order and session.state.dice == observed.dice
    assert session.state.money == list(record.final_state.money) == observed.money
    shown = [str(line) for line in session.render().renderables]
    assert session.state.is_terminal() and "Game over" in shown[-1]
    assert not any(line.startswith("Dice in the pyramid") for line in shown)  # over: no dice
    with pytest.raises(SleuthError, match=r"^'leg blue': the game is over \('undo' takes entries"):
        session.enter("leg blue")
    richest = max(session.state.money)
    won = [s for s, money in enumerate(session.state.money) if money == richest]
    assert [s for s, w in enumerate(record.wins) if w > 0] == won  # as the match scored it
    who = [f"seat {s}" + (" (you)" if s == seat else "") for s in won]
    if len(who) == 1:
        assert shown[-1].endswith(f"{who[0].capitalize()} wins with {richest} coins.")
    else:
        assert f"{who[-1]} share the win with {richest} coins (K28)." in shown[-1]


def test_a_seat_places_at_most_five_overall_cards() -> None:
    session = CamelSession(CamelUpGame(players=2), seat=0, rollouts=50)
    session.enter(START)
    for camel in ("blue", "green", "orange", "yellow", "white"):
        session.enter(f"leg {camel}")  # seat 0: me
        session.enter("winner" if camel != "white" else "loser")  # seat 1, hidden
    session.enter("leg blue")
    with pytest.raises(SleuthError, match="already placed all 5 of its overall cards"):
        session.enter("loser")


def test_overall_cards_turned_up_at_the_end_are_checked_and_scored() -> None:
    track = {"16": ["blue"], "10": ["green"], "9": ["orange"], "8": ["yellow"], "7": ["white"]}
    state = position({"players": 2, "track": track, "to_move": ["blue"], "piles": {"winner": 1}})
    state.apply(OverallBet("winner", "white"))  # seat 0 (me): white, after seat 1's card
    state.seat = 0  # seat 0 rolls too: who rolls changes nothing here
    state.apply(ROLL)
    state.apply(Die("blue", 1))  # blue crosses the line: the game is over
    assert state.is_terminal() and state.piles[0] == [(1, HIDDEN), (0, 4)]
    before = state.money[:]
    for pile, camels, reason in (
        ("winner", [0], "holds 2 cards, not 1"),
        ("winner", [0, 0], "card 2 of the winner pile is white, seat 0's card known"),
        ("loser", [], "the loser pile is empty: nobody bet on the loser"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            state.clone().turn_up(pile, camels)
    events = state.turn_up("winner", [0, 4])  # seat 1 had blue: right, first; mine wrong
    assert [e.kind for e in events] == ["overall_turned_up", "overall_scored", "overall_scored"]
    assert events[1].public["cards"] == ((1, "blue", 8), (0, "white", -1))
    assert state.money == [before[0] - 1, before[1] + 8]
    with pytest.raises(IllegalActionError, match=r"the winner pile is known already: blue, white$"):
        state.turn_up("winner", [0, 4])  # turned up once only


def test_turning_up_checks_each_seats_cards_and_the_camels() -> None:
    track = {"16": ["blue"], "10": ["green"], "9": ["orange"], "8": ["yellow"], "7": ["white"]}
    state = position({"players": 2, "track": track, "to_move": ["blue"], "piles": {"winner": 2}})
    state.apply(ROLL)
    state.apply(Die("blue", 1))
    assert state.piles[0] == [(1, HIDDEN), (1, HIDDEN)]  # both seat 1's
    with pytest.raises(IllegalActionError, match="seat 1 has only one blue card"):
        state.turn_up("winner", [0, 0])
    second = {"16": ["blue"], "10": ["green"], "9": ["red"], "8": ["yellow"], "7": ["purple"],
              "1": ["black"], "2": ["white"]}  # fmt: skip
    crazy = position(
        {
            "edition": 2,
            "players": 3,
            "track": second,
            "to_move": ["blue", "green"],
            "piles": {"winner": 1},
        }
    )
    crazy.apply(ROLL)
    crazy.apply(Die("blue", 1))
    with pytest.raises(IllegalActionError, match="no overall card names black"):
        crazy.turn_up("winner", [6])


def test_a_game_with_its_reveals_saves_and_loads_entry_for_entry(tmp_path: Path) -> None:
    game = CamelUpGame(players=3)
    record = _record(game, seed=5)
    view = [e.seen_by(1) for step in record.steps for e in step.events]
    session = CamelSession(game, 1, rollouts=50)
    for text in entry_texts(view):
        session.enter(text)
    assert any(text.startswith("reveal") for text in session.history())
    session.save(tmp_path / "game.jsonl")
    loaded = CamelSession(game, 1, rollouts=50)
    loaded.load(tmp_path / "game.jsonl")
    assert loaded.history() == session.history() and loaded.state.money == session.state.money


def test_a_saved_game_with_its_reveals_is_read_by_infer(tmp_path: Path, cwd: Path) -> None:
    game = CamelUpGame(players=3)
    view = [e.seen_by(1) for step in _record(game, seed=5).steps for e in step.events]
    session = CamelSession(game, 1, rollouts=50)
    for text in entry_texts(view):
        session.enter(text)
    assert any(e.kind == "overall_turned_up" for e in session.events)
    observed = TableTracker(game).update(session.events)  # what 'sleuth infer' replays
    assert observed.money == session.state.money and observed.piles == session.state.piles
    session.save(tmp_path / "game.jsonl")
    out = entry("infer", "camel-up", "--log", tmp_path / "game.jsonl", cwd=cwd)
    assert out.returncode == 0, out.stderr
    assert "Game over" in flat(out.stdout)


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
    with pytest.raises(SleuthError, match=r"hidden from you: enter just 'loser'$"):
        session.enter("loser blue")  # seat 2's card
    with pytest.raises(SleuthError, match=r"just 'loser' \(and 'purple' is not a camel of"):
        session.enter("loser purple")
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


def test_past_the_turn_cap_rolls_are_entered_and_no_advice_is_drawn(tmp_path: Path) -> None:
    """T4 with ``turn_cap=2``: after two turns every turn is a forced roll, entered as any
    roll; the assistant shows no advice then (there was none to give: a ValueError before),
    and the web picture draws no odds."""
    from sleuth.render import notepad_svg as visual

    session = CamelSession(CamelUpGame(turn_cap=2), seat=0, rollouts=50)
    for text in (START, "roll blue 2", "leg blue"):
        session.enter(text)
    shown = str(session.render().renderables[-1])
    assert "forced roll (T4)" in shown and visual("camel-up", session) == ""
    session.enter("roll green 1")
    session.enter("roll white 1")
    assert "forced roll (T4)" in str(session.render().renderables[-1])
    path = tmp_path / "capped.jsonl"
    session.save(path)
    loaded = CamelSession(CamelUpGame(), seat=0, rollouts=50)
    loaded.load(path)
    assert loaded.history() == session.history()


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
    for extra, flag in ((["--seat", "2"], "--seat"), (["-o", "players=4"], "-o")):
        both = entry("assist", "camel-up", "--load", saved, *extra, cwd=cwd)
        assert both.returncode == 2 and f"leave out {flag}" in both.stderr


def test_the_banner_and_help_say_seats_count_from_0(cwd: Path) -> None:
    typed = f"help\n{START}\nleg white\nundo\nquit\n"
    done = entry("assist", "camel-up", "-o", "players=3", "--seat", "2", cwd=cwd, stdin=typed)
    assert done.returncode == 0, done.stderr
    banner, helped = (flat(part) for part in done.stdout.split("> ")[:2])
    assert banner.startswith(
        "Camel Up odds assistant: you are seat 2 of 3 (seats are counted from 0, and seat 0 "
        "moves first)."
    )
    for text in (banner, helped):
        assert "seats are counted from 0, and seat 0 starts" in text
        assert "roll blue 2" in text and "undo [N]" in text and "save FILE" in text
    assert "took back: leg white" in done.stdout
    assert "Left the assistant after 1 entry. The last changes were not saved." in done.stdout
    usage = entry("assist", "camel-up", "--help", cwd=cwd)
    assert "counted from 0" in flat(usage.stdout)


def test_the_odds_give_each_camels_next_leg_ticket() -> None:
    """The odds table's ticket column is the top ticket left on each camel's stack (5, then 3,
    then 2) with its expected payout, and says when none is left."""
    from rich.console import Console

    from sleuth.games.camel_up.advice import advise
    from sleuth.games.camel_up.assistant import render_advice

    session = CamelSession(CamelUpGame(players=4), seat=0)
    for text in (START, "leg white", "leg white", "leg white", "leg blue"):
        session.enter(text)
    state = session.state
    advice = advise(state, rollouts=200, seed=1)
    console = Console(file=io.StringIO(), width=140)
    console.print(render_advice(state, advice))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    rows = {line.split("│")[1].strip(): line.split("│")[4].strip()
            for line in text.splitlines() if line.count("│") == 7}  # fmt: skip
    assert rows["white"] == "none left"
    assert rows["blue"] == f"3: {advice.odds.leg.ticket_ev(state.game.racer_id('blue'), 3):+.2f}"
    assert rows["green"].startswith("5: ")
