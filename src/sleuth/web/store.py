"""Server-side sessions of the web app, kept in one SQLite file.

A browser session is a random id (``secrets.token_urlsafe(32)``) that the browser holds in an
HttpOnly cookie.  Each record (a game against bots, an assistant's notepad) has its own random
id and belongs to exactly one session: asking for it from another session is the same
:class:`NotFoundError` as asking for an id that never existed, and changes nothing.

Records are JSON logs (a game's options, bots, seed and actions so far; a notepad's entries):
whoever reads one rebuilds its state by replaying it, so a record survives page reloads and
server restarts.  Each thread has its own connection, so the store may be used from any thread,
and any number of processes may use one file at once (``sleuth serve --workers``): the file is
in WAL mode (readers never wait, and a read takes no write lock), each write is one
transaction (one statement, or several in ``BEGIN IMMEDIATE``) that waits for the write lock
(:data:`BUSY_TIMEOUT`, :data:`RETRIES`; the threads of one process queue for it on a lock of
their own first, which wakes the next one as soon as a write ends, where SQLite's own wait
polls with pauses of up to 100 ms), and each record has a version, so
that a change made from a version another process has since replaced is refused
(:class:`ConflictError`) instead of lost.  A form's message for the page the browser is sent to
next is kept here too (:meth:`Store.say`), since another process may serve that page.

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
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

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
BUSY_TIMEOUT = 30.0
"""Seconds a write waits for the file's write lock while another connection holds it (every
``sleuth serve --workers`` process writes to the one file)."""
RETRIES = 5
"""Attempts at taking the write lock (or setting the journal mode) when SQLite answers "locked"
at once, without waiting (it does so where waiting could deadlock, such as while another
connection recovers the log), each after a short random pause."""

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
    updated REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS records_by_session ON records(session, kind, created);
CREATE TABLE IF NOT EXISTS messages (
    record TEXT PRIMARY KEY REFERENCES records(id),
    text TEXT NOT NULL
);
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
"""A store made before records had a version: each is at version 0."""


class ConflictError(SleuthError):
    """A record changed (by another request, in this process or another) since the version
    a change was made from: the change is not stored, and may be made again from the record
    as it is now."""


T = TypeVar("T")
ATTEMPTS = 5
"""Times a change is made again from the stored log when another process stored a change of
the same record meanwhile (:class:`ConflictError`)."""


def retrying(change: Callable[[], T]) -> T:
    """``change()``, made again from the stored record while another process's change of the
    same record lands first (at most :data:`ATTEMPTS` times; then the ConflictError)."""
    for _ in range(ATTEMPTS - 1):
        try:
            return change()
        except ConflictError:
            continue
    return change()


def _script(db: sqlite3.Connection, script: str) -> None:
    """Run ``script``'s statements one by one inside the current transaction (unlike
    ``executescript``, which commits first)."""
    for statement in script.split(";\n"):
        if statement.strip():
            db.execute(statement)


def _retried(step: Callable[[], object]) -> None:
    """Run ``step``, again after a short random pause (up to :data:`RETRIES` times in all) while
    SQLite answers that the database is locked or busy without having waited."""
    for attempt in range(RETRIES):
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if attempt == RETRIES - 1 or not ("locked" in text or "busy" in text):
                raise
            time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))


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
        self._writing = threading.Lock()  # this process's writers, one at a time
        self._swept = -math.inf
        _retried(lambda: self._db().execute("PRAGMA journal_mode=WAL"))
        with self._connect() as db:  # one writer at a time: processes starting at once
            _script(db, _SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
            if "seen" not in columns:
                _script(db, _ADD_SEEN)
            columns = {row[1] for row in db.execute("PRAGMA table_info(records)")}
            if "version" not in columns:
                _script(db, _ADD_VERSION)
            _script(db, _SEEN)
        self.forget_idle()

    def _db(self) -> sqlite3.Connection:
        """This thread's connection, kept open (closing the last one would flush the log to
        the file every time), in autocommit mode: :meth:`_connect` makes its transactions."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            # WAL with synchronous=NORMAL: a crash loses no committed data and leaves the file
            # whole; a power cut may lose the last moves (a commit then costs no disk flush).
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection in one write transaction (``BEGIN IMMEDIATE``: it takes
        the file's write lock first, waiting up to :data:`BUSY_TIMEOUT` seconds for another
        writer, of any process, to finish), committed when the block ends, else rolled back.

        Invariant: what the block reads, no other writer changes before it commits, so a
        read-then-write (a version compared, then the record replaced) is atomic across
        processes; readers are never blocked (WAL).  Within a process, one thread at a time
        holds a write transaction: the others wait on the store's own lock (so a block must
        not open another)."""
        db = self._db()
        with self._writing:
            _retried(lambda: db.execute("BEGIN IMMEDIATE"))
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _write(self, statement: str, values: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """Run one writing ``statement`` as a transaction of its own (it takes the file's
        write lock as it starts, waiting as :meth:`_connect` does; one statement, so it holds
        the lock for the least time), its turn in this process taken as in :meth:`_connect`;
        the rows it returns."""
        db = self._db()
        rows: list[tuple[Any, ...]] = []

        def run() -> None:
            nonlocal rows
            rows = db.execute(statement, values).fetchall()  # all: the statement ends here

        with self._writing:
            _retried(run)
        return rows

    def new_session(self) -> str:
        """A fresh browser session's id."""
        session = new_id()
        now = self.clock()
        with self._connect() as db:
            db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session, now, now))
        return session

    def has_session(self, session: str) -> bool:
        row = self._db().execute("SELECT 1 FROM sessions WHERE id = ?", (session,)).fetchone()
        return row is not None

    def touch(self, session: str) -> bool:
        """Whether ``session`` is stored; if so it is seen now (its ``seen`` time is written
        only when it is more than :data:`TOUCH_EVERY` seconds old)."""
        now = self.clock()
        db = self._db()
        row = db.execute("SELECT seen FROM sessions WHERE id = ?", (session,)).fetchone()
        if row is not None and now - row[0] > TOUCH_EVERY:
            with self._connect() as db:
                db.execute("UPDATE sessions SET seen = max(seen, ?) WHERE id = ?", (now, session))
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
            idle = "SELECT id FROM sessions WHERE seen < ?"
            db.execute(
                f"DELETE FROM messages WHERE record IN "
                f"(SELECT id FROM records WHERE session IN ({idle}))",
                (cutoff,),
            )
            db.execute(
                f"DELETE FROM seats WHERE record IN "
                f"(SELECT id FROM records WHERE session IN ({idle}))",
                (cutoff,),
            )
            db.execute(f"DELETE FROM records WHERE session IN ({idle})", (cutoff,))
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
                "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, 0)",
                (record, session, kind, json.dumps(data), now, now),
            )
        return record

    def get(self, session: str, kind: str, record: str) -> dict[str, Any]:
        """The data of ``session``'s record ``record`` of ``kind``; NotFoundError otherwise."""
        return self.get_versioned(session, kind, record)[0]

    def get_versioned(self, session: str, kind: str, record: str) -> tuple[dict[str, Any], int]:
        """The data of ``session``'s record ``record`` of ``kind`` and its version (0 when it
        is created, one more at each :meth:`put`); NotFoundError otherwise."""
        row = (
            self._db()
            .execute(
                "SELECT data, version FROM records WHERE id = ? AND session = ? AND kind = ?",
                (record, session, kind),
            )
            .fetchone()
        )
        if row is None:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")
        data: dict[str, Any] = json.loads(row[0])
        return data, int(row[1])

    def put(
        self,
        session: str,
        kind: str,
        record: str,
        data: dict[str, Any],
        version: int | None = None,
    ) -> int:
        """Replace the data of ``session``'s record; its new version.  NotFoundError, nothing
        changed, if it is not this session's; with ``version`` (the version the change was
        made from), :class:`ConflictError`, nothing changed, if the record is at another one
        (another request changed it meanwhile, in this process or another)."""
        mine = "id = ? AND session = ? AND kind = ?"
        changed = self._write(
            "UPDATE records SET data = ?, updated = ?, version = version + 1 "
            f"WHERE {mine}{'' if version is None else ' AND version = ?'} RETURNING version",
            (json.dumps(data), self.clock(), record, session, kind)
            + (() if version is None else (version,)),
        )
        if changed:
            return int(changed[0][0])
        found = (
            self._db()
            .execute(f"SELECT version FROM records WHERE {mine}", (record, session, kind))
            .fetchone()
        )
        if found is None:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")
        raise ConflictError(
            f"the {kind} changed meanwhile (version {found[0]}, not {version}): load it again"
        )

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
            db.execute("DELETE FROM messages WHERE record = ?", (record,))
        if not changed:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")

    def say(self, session: str, kind: str, record: str, message: str) -> None:
        """Keep ``message`` for ``session``'s record (replacing any kept), for whichever
        process serves the record's page next to show once (:meth:`take_message`);
        NotFoundError if the record is not this session's."""
        with self._connect() as db:
            row = db.execute(
                "SELECT 1 FROM records WHERE id = ? AND session = ? AND kind = ?",
                (record, session, kind),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no {kind} {record!r} in this browser session")
            db.execute("INSERT OR REPLACE INTO messages VALUES (?, ?)", (record, message))

    def take_message(self, session: str, kind: str, record: str) -> str:
        """The message kept for ``session``'s record, now given up (a reload of its page does
        not show it again); empty when there is none or the record is not this session's."""
        query = (
            "SELECT text FROM messages WHERE record = ? AND record IN "
            "(SELECT id FROM records WHERE id = ? AND session = ? AND kind = ?)"
        )
        mine = (record, record, session, kind)
        if self._db().execute(query, mine).fetchone() is None:
            return ""  # most page views: read, without the write lock
        with self._connect() as db:
            row = db.execute(query, mine).fetchone()  # again: another may have taken it
            if row is None:
                return ""
            db.execute("DELETE FROM messages WHERE record = ?", (record,))
        return str(row[0])

    def list(self, session: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        """``session``'s records of ``kind``, oldest first, as ``(id, data)`` pairs."""
        rows = (
            self._db()
            .execute(
                "SELECT id, data FROM records WHERE session = ? AND kind = ? ORDER BY created",
                (session, kind),
            )
            .fetchall()
        )
        return [(record, json.loads(data)) for record, data in rows]

    def read(self, kind: str, record: str) -> tuple[dict[str, Any], int]:
        """The data of the record ``record`` of ``kind`` whoever owns it, and its version;
        NotFoundError when there is none.  Only for a caller that has decided the record may
        be read: a seat token's holder (:meth:`seat`), or the server's own bot mover."""
        row = (
            self._db()
            .execute("SELECT data, version FROM records WHERE id = ? AND kind = ?", (record, kind))
            .fetchone()
        )
        if row is None:
            raise NotFoundError(f"no {kind} {record!r}")
        data: dict[str, Any] = json.loads(row[0])
        return data, int(row[1])

    def version(self, record: str) -> int | None:
        """The version of ``record`` (one more at each write), None when there is none."""
        row = self._db().execute("SELECT version FROM records WHERE id = ?", (record,)).fetchone()
        return None if row is None else int(row[0])

    def swap(self, kind: str, record: str, version: int, data: dict[str, Any]) -> bool:
        """Replace the data of ``record`` if it is still at ``version`` (nobody wrote it since
        it was read at that version); whether it was replaced (False: nothing changed)."""
        changed = self._write(
            "UPDATE records SET data = ?, updated = ?, version = version + 1 "
            "WHERE id = ? AND kind = ? AND version = ? RETURNING version",
            (json.dumps(data), self.clock(), record, kind, version),
        )
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
        """The seat tokens of the game ``record``, by seat (a read: no write lock)."""
        rows = (
            self._db()
            .execute("SELECT seat, token FROM seats WHERE record = ? ORDER BY seat", (record,))
            .fetchall()
        )
        return {int(seat): token for seat, token in rows}

    def seat(self, token: str) -> tuple[str, int]:
        """The game and the seat the seat token ``token`` grants; NotFoundError for an
        unknown token.  The game's session is seen now, as if its owner had used it (see
        :meth:`touch`): a game its players use is not forgotten.  A read (no write lock)
        but for that seen time, written at most every :data:`TOUCH_EVERY` seconds."""
        row = (
            self._db()
            .execute(
                "SELECT seats.record, seats.seat, records.session FROM seats "
                "JOIN records ON records.id = seats.record WHERE seats.token = ?",
                (token,),
            )
            .fetchone()
        )
        if row is None:
            raise NotFoundError(f"no seat {token!r}")
        self.touch(row[2])
        return str(row[0]), int(row[1])
