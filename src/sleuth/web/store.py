"""Server-side sessions of the web app, kept in one SQLite file.

A browser session is a random id (``secrets.token_urlsafe(32)``) that the browser holds in an
HttpOnly cookie.  Each record (a game against bots, an assistant's notepad) has its own random
id and belongs to exactly one session: asking for it from another session is the same
:class:`NotFoundError` as asking for an id that never existed, and changes nothing.

Records are JSON logs (a game's options, bots, seed and actions so far; a notepad's entries):
whoever reads one rebuilds its state by replaying it, so a record survives page reloads and
server restarts.  Each thread has its own connection, so the store may be used from any thread.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from sleuth.core.errors import SleuthError

KINDS = ("game", "notepad")
"""The kinds of record a session owns."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_session ON records(session, kind, created);
"""


class NotFoundError(SleuthError, LookupError):
    """A record id that this session does not own (unknown, or another session's)."""


def default_store() -> Path:
    """The store file in the user data folder (``sleuth serve --store`` chooses another)."""
    return Path(platformdirs.user_data_dir("sleuth")) / "web.sqlite3"


def new_id() -> str:
    """An unguessable id (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


class Store:
    """The sessions and records in the SQLite file at ``path`` (created when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

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
        with self._connect() as db:
            db.execute("INSERT INTO sessions VALUES (?, ?)", (session, time.time()))
        return session

    def has_session(self, session: str) -> bool:
        with self._connect() as db:
            row = db.execute("SELECT 1 FROM sessions WHERE id = ?", (session,)).fetchone()
        return row is not None

    def create(self, session: str, kind: str, data: dict[str, Any]) -> str:
        """Store ``data`` as a new record of ``kind`` owned by ``session``; its new id. The
        session is stored with its first record (in the same transaction) when it is new."""
        if kind not in KINDS:
            raise ValueError(f"unknown record kind {kind!r}")
        record = new_id()
        now = time.time()
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO sessions VALUES (?, ?)", (session, now))
            db.execute(
                "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
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
                "UPDATE records SET data = ?, updated = ? "
                "WHERE id = ? AND session = ? AND kind = ?",
                (json.dumps(data), time.time(), record, session, kind),
            ).rowcount
        if not changed:
            raise NotFoundError(f"no {kind} {record!r} in this browser session")

    def delete(self, session: str, kind: str, record: str) -> None:
        """Remove ``session``'s record (NotFoundError if it is not this session's)."""
        with self._connect() as db:
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
