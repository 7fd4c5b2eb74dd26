"""The session store: records belong to one session, survive reopening, and a wrong session
changes nothing."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from sleuth.web import store as store_module
from sleuth.web.store import NotFoundError, Store


def test_records_belong_to_their_session(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    alice, bob = store.new_session(), store.new_session()
    assert alice != bob and len(alice) >= 43  # 256 random bits, URL-safe
    assert store.has_session(alice) and not store.has_session("made-up")
    record = store.create(alice, "game", {"moves": [1]})
    assert store.get(alice, "game", record) == {"moves": [1]}
    for wrong in [
        lambda: store.get(bob, "game", record),
        lambda: store.get(alice, "notepad", record),
        lambda: store.put(bob, "game", record, {"moves": []}),
        lambda: store.delete(bob, "game", record),
        lambda: store.get(alice, "game", "nothing"),
    ]:
        with pytest.raises(NotFoundError, match="in this browser session"):
            wrong()
    assert store.get(alice, "game", record) == {"moves": [1]}
    assert store.list(bob, "game") == []
    with pytest.raises(ValueError, match="unknown record kind"):
        store.create(alice, "secret", {})


def test_the_store_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "s.sqlite3"
    first = Store(path)
    session = first.new_session()
    one = first.create(session, "game", {"n": 1})
    two = first.create(session, "notepad", {"n": 2})
    first.put(session, "game", one, {"n": 3})
    again = Store(path)
    assert again.has_session(session)
    assert again.list(session, "game") == [(one, {"n": 3})]
    assert again.list(session, "notepad") == [(two, {"n": 2})]
    again.delete(session, "game", one)
    assert again.list(session, "game") == []


def test_a_seat_token_grants_one_seat_of_one_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    alice, bob = store.new_session(), store.new_session()
    game = store.create(alice, "game", {"n": 1})
    with pytest.raises(NotFoundError):
        store.add_seats(bob, game, [0, 1])  # only the game's session seats people
    assert store.tokens(game) == {}
    tokens = store.add_seats(alice, game, [0, 2])
    assert sorted(tokens) == [0, 2] and len(set(tokens.values())) == 2
    assert store.add_seats(alice, game, [2]) == tokens  # a seat keeps its token
    assert store.seat(tokens[2]) == (game, 2)
    for wrong in ["", game, tokens[2][:-1], "made-up"]:
        with pytest.raises(NotFoundError, match="no seat"):
            store.seat(wrong)
    store.delete(alice, "game", game)
    with pytest.raises(NotFoundError):
        store.seat(tokens[0])


def test_a_seat_in_use_keeps_its_game_and_a_forgotten_game_takes_its_seats(
    tmp_path: Path,
) -> None:
    now = [0.0]
    store = Store(tmp_path / "s.sqlite3", forget_after=100 * 3600.0, clock=lambda: now[0])
    alice = store.new_session()
    game = store.create(alice, "game", {"n": 1})
    token = store.add_seats(alice, game, [1])[1]
    for _ in range(5):  # a friend plays every 90 hours: Alice's session stays
        now[0] += 90 * 3600.0
        assert store.seat(token) == (game, 1)
        assert store.forget_idle() == 0
    now[0] += 200 * 3600.0
    assert store.forget_idle() == 1
    with pytest.raises(NotFoundError):
        store.seat(token)


def test_a_swap_replaces_only_the_version_it_read(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    alice = store.new_session()
    game = store.create(alice, "game", {"n": 1})
    data, version = store.read("game", game)
    assert data == {"n": 1} and store.version(game) == version
    store.put(alice, "game", game, {"n": 2})  # written meanwhile
    assert not store.swap("game", game, version, {"n": 3})
    assert store.read("game", game) == ({"n": 2}, version + 1)
    assert store.swap("game", game, version + 1, {"n": 4})
    assert store.read("game", game) == ({"n": 4}, version + 2)
    assert store.version("nothing") is None
    with pytest.raises(NotFoundError):
        store.read("notepad", game)


def test_reads_take_no_write_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What every page view asks (a game's seat links, a seat token's seat, the message a
    form left, a record) is answered while another process holds the write lock, instead of
    waiting for it (here SQLite gives up after 0.1 s, which a wait would hit)."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)
    monkeypatch.setattr(store_module, "RETRIES", 1)
    store = Store(tmp_path / "s.sqlite3")
    alice = store.new_session()
    game = store.create(alice, "game", {"n": 1})
    tokens = store.add_seats(alice, game, [1])
    other = sqlite3.connect(tmp_path / "s.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    try:
        assert store.tokens(game) == tokens
        assert store.seat(tokens[1]) == (game, 1)
        assert store.take_message(alice, "game", game) == ""
        assert store.get(alice, "game", game) == {"n": 1}
    finally:
        other.execute("ROLLBACK")
    store.say(alice, "game", game, "hello")
    assert store.take_message(alice, "game", game) == "hello"
    assert store.take_message(alice, "game", game) == ""  # given up


def test_the_threads_of_one_process_take_turns_at_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads writing at once wait for each other on the store's own lock: with SQLite's
    wait for the write lock (and the retries) turned off, none of them finds it taken."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.0)
    monkeypatch.setattr(store_module, "RETRIES", 1)
    store = Store(tmp_path / "s.sqlite3")
    alice = store.new_session()
    games = [store.create(alice, "game", {"n": 0}) for _ in range(8)]
    problems: list[Exception] = []

    def write(game: str) -> None:
        try:
            for n in range(1, 31):
                store.put(alice, "game", game, {"n": n})
        except Exception as problem:
            problems.append(problem)

    threads = [threading.Thread(target=write, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    assert all(store.read("game", game) == ({"n": 30}, 30) for game in games)
