"""The Cluedo notepad's advice is computed once per state and shared: between its text and
the web app's picture, and across an undo and the same entry entered again.  The shared
results are the ones a fresh session computes."""

from __future__ import annotations

import random
from pathlib import Path

from sleuth.games.cluedo.assistant import NotepadSession
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.table import room_table
from tests.games.cluedo.test_assistant import SETUP, session, shown

PLAY = [
    "Bob suggests plum rope library",
    "Cy passes",
    "Dan passes",
    "I show plum",
    "I am in the kitchen",
    "Cy suggests green wrench ballroom",
    "Dan shows",
    "I rolled 4",
]


def fresh(texts: list[str]) -> NotepadSession:
    """A new session with ``texts`` entered after the setup (nothing taken back)."""
    return session(*texts[len(SETUP) :])


def test_entering_an_undone_entry_again_takes_its_state_back() -> None:
    s = session(*PLAY)
    before = s.pad
    advice = room_table(before)
    assert s.undo() == "I rolled 4"
    assert room_table(s.pad) == room_table(fresh(s.history()).pad)
    s.enter("I rolled 4")
    assert s.pad is before and room_table(s.pad) is advice  # not computed again
    assert advice == room_table(fresh(s.history()).pad)
    assert shown(s) == shown(fresh(s.history()))


def test_a_different_entry_after_an_undo_is_computed_afresh() -> None:
    s = session(*PLAY)
    before = s.pad
    room_table(before)
    s.undo()
    s.undo()
    s.enter("Dan passes")  # not the undone 'Dan shows': the undone states are dropped
    assert s.pad is not before and "rooms" not in s.pad.cache
    s.enter("I pass")  # the suggestion is answered before my turn
    s.enter("Bob passes")
    s.enter("I rolled 4")
    assert s.pad is not before
    assert room_table(s.pad) == room_table(fresh(s.history()).pad)
    assert shown(s) == shown(fresh(s.history()))


def test_random_undos_and_entries_show_what_a_fresh_session_shows() -> None:
    rng = random.Random(7)
    s = session()
    for _ in range(16):
        done = len(s.history()) - len(SETUP)
        if done == len(PLAY) or (done and rng.random() < 0.4):
            s.undo()
        else:
            s.enter(PLAY[done])
        if s.pad.started:
            assert room_table(s.pad) == room_table(fresh(s.history()).pad)


def test_the_picture_draws_the_advice_the_text_shows() -> None:
    from sleuth.games.cluedo.notepad_picture import notepad as cluedo

    s = session(*PLAY)
    text = shown(s)
    picture = cluedo(s)
    advice = room_table(fresh(s.history()).pad)
    rooms = [s.pad.card_name(a.room) for a in advice]
    bars = picture.split('class="suggestion" data-room="')[1:]
    drawn = [part.split('"')[0] for part in bars]
    assert drawn == rooms
    assert text == shown(fresh(s.history()))


def test_a_loaded_log_starts_with_nothing_undone(tmp_path: Path) -> None:
    s = session(*PLAY)
    path = tmp_path / "pad.jsonl"
    s.save(path)
    other = NotepadSession(CluedoGame(players=4), SETUP)
    for text in PLAY:
        other.enter(text)
    undone = other.undo()
    other.load(path)
    other.undo()
    other.enter(undone)
    assert room_table(other.pad) == room_table(fresh(other.history()).pad)


def test_only_the_last_state_keeps_its_advice() -> None:
    s = session()
    for text in PLAY:
        s.enter(text)
        room_table(s.pad)
    assert [bool(pad.cache) for pad in s._pads] == [False] * len(s.history()) + [True]
    s.undo()  # the state before is computed again, as a fresh session computes it
    assert "rooms" not in s.pad.cache
    assert room_table(s.pad) == room_table(fresh(s.history()).pad)
