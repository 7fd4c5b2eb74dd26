"""Idle sessions are forgotten with their games and notepads: when the store opens and from
time to time while the app serves, measured on a fake clock."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("fastapi")


from sleuth.web.app import COOKIE, create_app
from sleuth.web.store import SWEEP_EVERY, TOUCH_EVERY, Store
from tests.web.settled import SettledClient

DAY = 86400.0


class Clock:
    """A clock that moves only when told to."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_idle_sessions_are_forgotten_with_their_records(tmp_path: Path) -> None:
    clock = Clock()
    store = Store(tmp_path / "s.sqlite3", forget_after=10 * DAY, clock=clock)
    active, idle = store.new_session(), store.new_session()
    kept = store.create(active, "game", {"n": 1})
    store.create(idle, "game", {"n": 2})
    store.create(idle, "notepad", {"n": 3})
    clock.now += 6 * DAY
    assert store.touch(active) and not store.touch("made-up")
    clock.now += 5 * DAY  # idle: 11 days unseen; active: 5
    assert store.forget_idle() == 1
    assert not store.has_session(idle) and store.list(idle, "game") == []
    assert store.list(active, "game") == [(kept, {"n": 1})]
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM records").fetchone() == (1,)
    clock.now += 10 * DAY + 1  # now the active one has been idle too
    assert store.forget_idle() == 1 and not store.has_session(active)


def test_a_session_is_seen_when_it_is_touched_not_when_it_is_read(tmp_path: Path) -> None:
    clock = Clock()
    store = Store(tmp_path / "s.sqlite3", forget_after=10 * DAY, clock=clock)
    session = store.new_session()
    clock.now += TOUCH_EVERY / 2
    store.touch(session)  # too soon after being stored: nothing written
    clock.now += 10 * DAY + TOUCH_EVERY * 3 / 4  # stored 10 days + TOUCH_EVERY * 5/4 ago
    assert store.has_session(session)  # a read is not a visit
    assert store.forget_idle() == 1  # a seen time written by the touch would have kept it


def test_idle_sessions_are_forgotten_when_the_store_opens(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    clock = Clock()
    old = Store(path, clock=clock)  # never forgets
    session = old.new_session()
    clock.now += 400 * DAY
    assert Store(path, clock=clock).has_session(session)  # still never
    assert not Store(path, forget_after=30 * DAY, clock=clock).has_session(session)


def test_a_store_made_before_seen_times_counts_the_last_change(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, created REAL NOT NULL);
            CREATE TABLE records (id TEXT PRIMARY KEY, session TEXT NOT NULL, kind TEXT NOT NULL,
                data TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
            INSERT INTO sessions VALUES ('played', 0), ('left', 0);
            INSERT INTO records VALUES ('g1', 'played', 'game', '{}', 0, 50);
            INSERT INTO records VALUES ('g2', 'left', 'game', '{}', 0, 5);
            """
        )
    store = Store(path, forget_after=20.0, clock=Clock(60.0 + TOUCH_EVERY))  # lag allowed for
    assert store.has_session("played") and not store.has_session("left")
    assert store.get("played", "game", "g1") == {}


def test_forget_after_must_be_positive(tmp_path: Path) -> None:
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="forget_after"):
            Store(tmp_path / "s.sqlite3", forget_after=bad)


def test_the_app_forgets_idle_sessions_while_it_serves(store: Path) -> None:
    clock = Clock()
    app = create_app(store, forget_after_days=2, clock=clock)
    with SettledClient(app) as idle, SettledClient(app) as busy:
        left = idle.post("/api/play", json={"game": "fox", "seed": 1}).json()
        forgotten = idle.cookies[COOKIE]
        played = busy.post("/api/play", json={"game": "fox", "seed": 2}).json()
        for _ in range(3):  # busy comes back every 1.5 days; idle never does
            clock.now += 1.5 * DAY
            assert busy.get(f"/api/play/{played['id']}").status_code == 200
        assert idle.get(f"/api/play/{left['id']}").status_code == 404
        assert idle.get("/").status_code == 200
        again = idle.post("/api/play", json={"game": "fox", "seed": 1})
        assert again.status_code == 201 and idle.cookies[COOKIE] != forgotten  # a new session
        assert not app.state.store.sweep_due()
        clock.now += SWEEP_EVERY
        assert app.state.store.sweep_due()


def test_an_app_that_never_forgets(store: Path) -> None:
    clock = Clock()
    app = create_app(store, forget_after_days=None, clock=clock)
    with SettledClient(app) as client:
        game = client.post("/api/play", json={"game": "fox", "seed": 1}).json()
        clock.now += 3650 * DAY
        assert client.get(f"/api/play/{game['id']}").status_code == 200
        assert not app.state.store.sweep_due()


def test_a_session_in_use_is_never_forgotten_however_short_the_expiry(store: Path) -> None:
    """A request writes the seen time at most every TOUCH_EVERY seconds, so a sweep allows
    for that lag: a session used every few minutes outlives a shorter expiry, and is forgotten
    only once it has gone unused for the whole expiry."""
    clock = Clock()
    app = create_app(store, forget_after_days=(TOUCH_EVERY / 2) / DAY, clock=clock)
    with SettledClient(app) as client:
        game = client.post("/api/play", json={"game": "fox", "seed": 1}).json()
        for _ in range(round(3 * TOUCH_EVERY / 600)):  # three hours, a request every 10 min
            clock.now += 600
            assert client.get(f"/api/play/{game['id']}").status_code == 200
        last_use = clock.now
        clock.now = last_use + TOUCH_EVERY / 2 - 1  # unused for just under the expiry
        assert app.state.store.forget_idle() == 0
        clock.now = last_use + TOUCH_EVERY / 2 + TOUCH_EVERY + 1  # over it, with the lag
        assert app.state.store.forget_idle() == 1
        assert client.get(f"/api/play/{game['id']}").status_code == 404
