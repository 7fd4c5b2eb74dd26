"""The bot mover: chance and the bots of stored games move in background threads, never in a
request.

A request that leaves a game with chance or a bot to move (a new game, a person's move, a seat
handed to a bot, a game read after a restart) calls :meth:`Mover.wake` and answers at once.
The mover's threads then take one step at a time of each woken game, round-robin (a slow bot
delays the games behind it by one move, not by a whole round): a step reads the stored log,
moves chance or the bot on the mover's own copy of the game (no lock is held while a bot
thinks, so a request for that game never waits for it), and stores the new log only if nobody
wrote the game meanwhile (:meth:`~sleuth.web.store.Store.swap`, under the game's request lock);
otherwise the step is thrown away and taken again from the new log.  The players' pages see
the move as they see another person's (:mod:`sleuth.web.stream`).

Determinism is the log's (:mod:`sleuth.web.live`): a step taken again, in this process or
after a restart, makes the same move.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque

from sleuth.web.live import LiveGame
from sleuth.web.locks import RecordLocks
from sleuth.web.store import NotFoundError, Store

THREADS = 2
"""Threads that move bots (a second one keeps a slow bot from holding up every game)."""
CACHE_SIZE = 64
"""Games the mover keeps built between steps (others are rebuilt from their logs)."""

log = logging.getLogger(__name__)


class Mover:
    """Moves chance and the bots of the games of ``store`` in ``threads`` daemon threads,
    writing under the request locks ``locks``.

    Invariant: a game is queued at most once, and taken by one thread at a time."""

    def __init__(self, store: Store, locks: RecordLocks, threads: int = THREADS) -> None:
        self.store = store
        self.locks = locks
        self.threads = threads
        self._queue: deque[str] = deque()
        self._queued: set[str] = set()  # in the queue or being stepped
        self._again: set[str] = set()  # woken while being stepped
        self._busy = 0
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._cond = threading.Condition()
        self._started: list[threading.Thread] = []

    def wake(self, record: str) -> None:
        """Let chance and the bots of game ``record`` move (in the background) until a person
        is to move or the game is over; returns at once."""
        with self._cond:
            if not self._started:
                for number in range(self.threads):
                    thread = threading.Thread(
                        target=self._work, name=f"sleuth-mover-{number}", daemon=True
                    )
                    thread.start()
                    self._started.append(thread)
            if record in self._queued:
                self._again.add(record)
                return
            self._queued.add(record)
            self._queue.append(record)
            self._cond.notify()

    def settle(self, timeout: float) -> bool:
        """Wait until no game has a move pending (at most ``timeout`` seconds); whether none
        has.  For tests and benchmarks: a request never calls it."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queued, timeout)

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._queue))
                record = self._queue.popleft()
            try:
                more = self._step(record)
            except Exception:  # a broken store or log must not stop the mover
                log.exception("the mover could not move game %s", record)
                more = False
            with self._cond:
                if more or record in self._again:
                    self._again.discard(record)
                    self._queue.append(record)
                    self._cond.notify()
                else:
                    self._queued.discard(record)
                    self._cond.notify_all()

    def _step(self, record: str) -> bool:
        """One step of game ``record``; whether another may be due."""
        try:
            data, version = self.store.read("game", record)
        except NotFoundError:
            self._games.pop(record, None)
            return False
        live = self._game(record, data)
        if not live.step():
            return False
        with self.locks.hold(record):
            stored = self.store.swap("game", record, version, live.log)
        if not stored:
            self._games.pop(record, None)  # taken again from the log written meanwhile
        return True

    def _game(self, record: str, data: dict[str, object]) -> LiveGame:
        """This mover's copy of game ``record`` at the stored log ``data``."""
        with self._cond:
            live = self._games.pop(record, None)
        if live is None or not live.follow(data):
            live = LiveGame(data)
        with self._cond:
            self._games[record] = live
            while len(self._games) > CACHE_SIZE:
                self._games.popitem(last=False)
        return live
