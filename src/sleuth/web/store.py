"""Server-side sessions of the web app, kept in one SQLite file.

A browser session is a random id (``secrets.token_urlsafe(32)``) that the browser holds in an
HttpOnly cookie.  Each record (a game against bots, an assistant's notepad) has its own random
id and belongs to exactly one session: asking for it from another session is the same
:class:`NotFoundError` as asking for an id that never existed, and changes nothing.

Records are JSON logs (a game's options, bots, seed and actions so far; a notepad's entries):
whoever reads one rebuilds its state by replaying it, so a record survives page reloads and
server restarts.  Each thread has its own connection, so the store may be used from any thread.
Every write of a record adds one to its ``version``, so a writer may replace a record only if
nobody wrote it since it was read (:meth:`Store.swap`), in this process or another one.

A game's seats played by people have a seat token each (:meth:`Store.add_seats`): another
random id, which is the seat's identity, with no session.  A token grants one seat of one game
(:meth:`Store.seat`); an unknown token is a :class:`NotFoundError` like a record of another
session.  The seats go with their game (deleted or forgotten), and a seat in use keeps the
game's session seen.

A session not seen for ``forget_after`` seconds is forgotten with its records
(:meth:`Store.forget_idle`): when the store opens, and then at most every
:data:`SWEEP_EVERY` seconds when the app asks (:meth:`Store.sweep_due`).  A session is seen
when it is stored and whenever a request names it (:meth:`Store.touch`).
"""

from __future__ import annotations

import json
import math
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from sleuth.core.errors import SleuthError

KINDS = ("game", "notepad")
"""The kinds of record a session owns."""
TOUCH_EVERY = 3600.0
"""Seconds between two updates of a session's ``seen`` time (a request within this time of
the last update writes nothing): ``seen`` may lag a session's last use by up to this, which
:meth:`Store.forget_idle` allows for."""
SWEEP_EVERY = 3600.0
"""Seconds between two sweeps of idle sessions while the app runs."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_session ON records(session, kind, created);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    record TEXT NOT NULL REFERENCES records(id),
    seat INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS seats_by_record ON seats(record, seat);
"""
_SEEN = """
CREATE INDEX IF NOT EXISTS sessions_by_seen ON sessions(seen);
"""
_ADD_SEEN = """
ALTER TABLE sessions ADD COLUMN seen REAL NOT NULL DEFAULT 0;
UPDATE sessions SET seen = max(created,
    coalesce((SELECT max(updated) FROM records WHERE records.session = sessions.id), 0));
"""
"""A store made before sessions had a ``seen`` time: each session was last seen when its
latest record changed (or when it was stored)."""
_ADD_VERSION = """
ALTER TABLE records ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
"""
"""A store made before records had a ``version``: each is at version 0."""


class NotFoundError(SleuthError, LookupError):
    """A record id that this session does not own (unknown, or another session's)."""


def default_store() -> Path:
    """The store file in the user data folder (``sleuth serve --store`` chooses another)."""
    return Path(platformdirs.user_data_dir("sleuth")) / "web.sqlite3"


def new_id() -> str:
    """An unguessable id (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


class Store:
    """The sessions and records in the SQLite file at ``path`` (created when missing).

    ``forget_after``: seconds a session may go unseen before it is forgotten with its records
    (None: never); idle sessions are forgotten at once.  ``clock`` gives the time (seconds
    since the epoch) of every timestamp the store writes or compares.
    """

    def __init__(
        self,
        path: Path,
        forget_after: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if forget_after is not None and not forget_after > 0:
            raise ValueError(f"forget_after must be positive seconds, not {forget_after!r}")
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.forget_after = forget_after
        self.clock = clock
        self._local = threading.local()
        self._swept = -math.inf
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
            if "seen" not in columns:
                db.executescript(_ADD_SEEN)
            if "version" not in {row[1] for row in db.execute("PRAGMA table_info(records)")}:
                db.executescript(_ADD_VERSION)
            db.executescript(_SEEN)
        self.forget_idle()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection (kept open: closing the last one would flush the log to
        the file every time) in one transaction, committed when the block ends, else rolled
        back."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = sqlite3.connect(self.path, timeout=30.0)
            # WAL with synchronous=NORMAL: a crash loses no committed data and leaves the file
            # whole; a power cut may lose the last moves (a commit then costs no disk flush).
            db.execute("PRAGMA synchronous=NORMAL")
        with db:
            yield db

    def new_session(self) -> str:
        """A fresh browser session's id."""
        session = new_id()
        now = self.clock()
        with self._connect() as db:
            db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session, now, now))
        return session

    def has_session(self, session: str) -> bool:
        with self._connect() as db:
            row = db.execute("SELECT 1 FROM sessions WHERE id = ?", (session,)).fetchone()
        return row is not None

    def touch(self, session: str) -> bool:
        """Whether ``session`` is stored; if so it is seen now (its ``seen`` time is written
        only when it is more than :data:`TOUCH_EVERY` seconds old)."""
        now = self.clock()
        with self._connect() as db:
            row = db.execute("SELECT seen FROM sessions WHERE id = ?", (session,)).fetchone()
            if row is not None and now - row[0] > TOUCH_EVERY:
                db.execute("UPDATE sessions SET seen = ? WHERE id = ?", (now, session))
        return row is not None

    def sweep_due(self) -> bool:
        """Whether idle sessions should be forgotten now: sessions expire and the last sweep
        was at least :data:`SWEEP_EVERY` seconds ago (a cheap check, no database access)."""
        return self.forget_after is not None and self.clock() - self._swept >= SWEEP_EVERY

    def forget_idle(self) -> int:
        """Delete every session unused for ``forget_after`` seconds, with its games and
        notepads; the number of sessions deleted (0 when sessions never expire).

        Invariant: a session used within ``forget_after`` seconds is kept, however short that
        is: its ``seen`` time may lag its last use by :data:`TOUCH_EVERY`, so only a session
        not seen for ``forget_after + TOUCH_EVERY`` seconds is deleted."""
        if self.forget_after is None:
            return 0
        now = self.clock()
        self._swept = now
        cutoff = now - self.forget_after - TOUCH_EVERY
        with self._connect() as db:
            db.execute(
                "DELETE FROM seats WHERE record IN (SELECT records.id FROM records "
                "JOIN sessions ON sessions.id = records.session WHERE sessions.seen < ?)",
                (cutoff,),
            )
            db.execute(
                "DELETE FROM records WHERE session IN (SELECT id FROM sessions WHERE seen < ?)",
                (cutoff,),
            )
            forgotten: int = db.execute("DELETE FROM sessions WHERE seen < ?", (cutoff,)).rowcount
        return forgotten

    def create(self, session: str, kind: str, data: dict[str, Any]) -> str:
        """Store ``data`` as a new record of ``kind`` owned by ``session``; its new id. The
        session is stored with its first record (in the same transaction) when it is new."""
        if kind not in KINDS:
            raise ValueError(f"unknown record kind {kind!r}")
        record = new_id()
        now = self.clock()
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO sessions VALUES (?, ?, ?)", (session, now, now))
            db.execute(
                "INSERT INTO records (id, session, kind, data, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record, session, kind, json.dumps(data), now, now),
            )
        return record

    def get(self, session: str, kind: str, record: str) -> dict[str, Any]:
        """The data of ``session``'s record ``record`` of ``kind``; NotFoundError otherwise."""
        with self._connect() as db:
            row = db.execute(
                "SELECT data FROM records WHERE id = ? AND session = ? AND kind = ?",
                (record, session, kind),
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")
        data: dict[str, Any] = json.loads(row[0])
        return data

    def put(self, session: str, kind: str, record: str, data: dict[str, Any]) -> None:
        """Replace the data of ``session``'s record (NotFoundError, nothing changed, if it is
        not this session's)."""
        with self._connect() as db:
            changed = db.execute(
                "UPDATE records SET data = ?, updated = ?, version = version + 1 "
                "WHERE id = ? AND session = ? AND kind = ?",
                (json.dumps(data), self.clock(), record, session, kind),
            ).rowcount
        if not changed:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")

    def delete(self, session: str, kind: str, record: str) -> None:
        """Remove ``session``'s record with its seat tokens (NotFoundError if it is not this
        session's)."""
        with self._connect() as db:
            db.execute(
                "DELETE FROM seats WHERE record IN "
                "(SELECT id FROM records WHERE id = ? AND session = ? AND kind = ?)",
                (record, session, kind),
            )
            changed = db.execute(
                "DELETE FROM records WHERE id = ? AND session = ? AND kind = ?",
                (record, session, kind),
            ).rowcount
        if not changed:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")

    def list(self, session: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        """``session``'s records of ``kind``, oldest first, as ``(id, data)`` pairs."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, data FROM records WHERE session = ? AND kind = ? ORDER BY created",
                (session, kind),
            ).fetchall()
        return [(record, json.loads(data)) for record, data in rows]

    def read(self, kind: str, record: str) -> tuple[dict[str, Any], int]:
        """The data of the record ``record`` of ``kind`` whoever owns it, and its version;
        NotFoundError when there is none.  Only for a caller that has decided the record may
        be read: a seat token's holder (:meth:`seat`), or the server's own bot mover."""
        with self._connect() as db:
            row = db.execute(
                "SELECT data, version FROM records WHERE id = ? AND kind = ?", (record, kind)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no {kind} {record!r}")
        data: dict[str, Any] = json.loads(row[0])
        return data, int(row[1])

    def version(self, record: str) -> int | None:
        """The version of ``record`` (one more at each write), None when there is none."""
        with self._connect() as db:
            row = db.execute("SELECT version FROM records WHERE id = ?", (record,)).fetchone()
        return None if row is None else int(row[0])

    def swap(self, kind: str, record: str, version: int, data: dict[str, Any]) -> bool:
        """Replace the data of ``record`` if it is still at ``version`` (nobody wrote it since
        it was read at that version); whether it was replaced (False: nothing changed)."""
        with self._connect() as db:
            changed = db.execute(
                "UPDATE records SET data = ?, updated = ?, version = version + 1 "
                "WHERE id = ? AND kind = ? AND version = ?",
                (json.dumps(data), self.clock(), record, kind, version),
            ).rowcount
        return bool(changed)

    def add_seats(self, session: str, record: str, seats: Sequence[int]) -> dict[int, str]:
        """A new seat token for each of ``seats`` of ``session``'s game ``record`` (a seat
        that has one keeps it), by seat; NotFoundError, nothing stored, if the game is not this
        session's."""
        self.get(session, "game", record)
        with self._connect() as db:
            for seat in seats:
                db.execute(
                    "INSERT INTO seats SELECT ?, ?, ? "
                    "WHERE NOT EXISTS (SELECT 1 FROM seats WHERE record = ? AND seat = ?)",
                    (new_id(), record, seat, record, seat),
                )
        return self.tokens(record)

    def tokens(self, record: str) -> dict[int, str]:
        """The seat tokens of the game ``record``, by seat."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT seat, token FROM seats WHERE record = ? ORDER BY seat", (record,)
            ).fetchall()
        return {int(seat): token for seat, token in rows}

    def seat(self, token: str) -> tuple[str, int]:
        """The game and the seat the seat token ``token`` grants; NotFoundError for an
        unknown token.  The game's session is seen now, as if its owner had used it (see
        :meth:`touch`): a game its players use is not forgotten."""
        with self._connect() as db:
            row = db.execute(
                "SELECT seats.record, seats.seat, records.session FROM seats "
                "JOIN records ON records.id = seats.record WHERE seats.token = ?",
                (token,),
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no seat {token!r}")
        self.touch(row[2])
        return str(row[0]), int(row[1])
