"""One lock per record id, kept only while a request holds it or waits for it.

Requests for one game or notepad are served one at a time (each reads the stored record,
changes it and stores it under the record's lock).  The locks live in a weak dictionary: a
lock exists while some thread holds a reference to it (holding it or waiting for it), and is
dropped with the last one, so the table does not grow with every record ever opened, and a
record deleted or forgotten leaves nothing behind.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager


class RecordLocks:
    """Locks by record id: :meth:`hold` serialises the threads holding one id."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._guard = threading.Lock()

    @contextmanager
    def hold(self, record: str) -> Iterator[None]:
        """Hold ``record``'s lock for the block (made when no thread has it, shared while
        one holds it or waits for it)."""
        with self._guard:
            lock = self._locks.get(record)
            if lock is None:
                lock = self._locks[record] = threading.Lock()
        with lock:
            yield

    def __len__(self) -> int:
        """The locks alive now: those some thread holds or waits for."""
        return len(self._locks)
