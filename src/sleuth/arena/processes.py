"""Playing scheduled games on worker processes, stoppable at any moment without losing results.

Each worker has its own pipe to the parent (no lock is shared between processes, so a worker
killed at any instant cannot block the others).  The parent hands out games a few at a time,
and a worker sends back the rows of its finished games within :data:`SEND_EVERY` seconds (and
before it exits), so the parent holds every finished game.

Stopping (see :mod:`sleuth.arena.stopping`):

1. the parent sends ``stop``; a worker reads it between games and exits after its current game;
2. workers still playing :data:`GRACE` seconds later get SIGTERM, which abandons their game;
3. workers alive :data:`KILL_AFTER` seconds after that are killed.

A second Ctrl-C skips the grace period.  Workers ignore SIGINT (the parent decides), and each
one exits by itself within half a second if its parent dies, so no worker is ever orphaned.
A worker that dies unexpectedly loses only the games it was given and had not finished; the
run goes on with the others and reports the loss.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from sleuth.arena.play import IN_FLIGHT, GameRow, Job, play_games
from sleuth.arena.stopping import GameAbandoned, StopRequest
from sleuth.core import botprocess
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.match import hard_stopping

GRACE = 1.0
"""Seconds the games in flight get to finish after the first stop request."""
KILL_AFTER = 2.0
"""Seconds between SIGTERM and SIGKILL for a worker that does not stop."""
KILL_AFTER_URGENT = 0.3
"""The same after a second Ctrl-C: SIGTERM abandons a game at once, so a worker that has not
sent its last rows and exited by then is stuck (in compiled code, say)."""
ORPHAN_CHECK = 0.5
"""Seconds between a worker's checks that its parent is still alive."""
SEND_EVERY = 0.02
"""Seconds a worker may hold finished rows before sending them (it sends sooner when idle)."""
TARGET_SECONDS = 0.05
"""Games are handed out so that each worker holds about this much work beyond its current game."""


def _exit_when_orphaned(parent: int) -> None:
    while True:
        time.sleep(ORPHAN_CHECK)
        if os.getppid() != parent:
            botprocess.close_all()  # os._exit runs no exit handler
            os._exit(1)


@hard_stopping()  # one signal handler for the worker's games
def _worker(
    conn: Connection,
    name: str,
    options: dict[str, JSON],
    logs: str | None,
    time_limit: float | None,
) -> None:
    """A worker's life: play the games it is sent (up to :data:`~sleuth.arena.play.IN_FLIGHT`
    at once: :func:`~sleuth.arena.play.play_games`), send their rows back, stop when told.

    Rows go back in small batches (at least every :data:`SEND_EVERY` seconds, and always before
    the worker waits for work or exits), so tiny games do not pay a message each."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    phase = {"abandonable": False}

    def on_term(signum: int, frame: object) -> None:
        if phase["abandonable"]:  # playing or waiting: nothing half-sent to lose
            raise GameAbandoned
        phase["stop"] = True

    signal.signal(signal.SIGTERM, on_term)
    # The parent as this process sees it (the main process, or a fork server that ends with it).
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    queue: deque[Job] = deque()
    outbox: list[GameRow] = []
    sent = time.monotonic()
    try:
        while not phase.get("stop"):
            if outbox and (not queue or time.monotonic() - sent >= SEND_EVERY):
                conn.send(outbox)
                outbox, sent = [], time.monotonic()
            phase["abandonable"] = True
            if phase.get("stop"):  # a SIGTERM came while the rows were being sent
                break
            if not queue or conn.poll():
                message = conn.recv()
                phase["abandonable"] = False
                if message is None:
                    break
                queue.extend(message)
                continue
            group = [queue.popleft() for _ in range(min(len(queue), IN_FLIGHT))]
            for row in play_games(name, options, group, logs, time_limit):
                outbox.append(row)
                if time.monotonic() - sent >= SEND_EVERY:  # the other games wait meanwhile
                    phase["abandonable"] = False
                    conn.send(outbox)
                    outbox, sent = [], time.monotonic()
                    if phase.get("stop"):  # a SIGTERM came while the rows were being sent
                        break
                    phase["abandonable"] = True
            phase["abandonable"] = False
    except (GameAbandoned, EOFError):
        pass
    except BaseException:
        phase["abandonable"] = False
        conn.send(traceback.format_exc())
    finally:
        phase["abandonable"] = False
        if outbox:
            with contextlib.suppress(OSError):
                conn.send(outbox)
        conn.close()
        botprocess.close_all()  # the bot processes kept for the next game (a worker's exit
        # runs no exit handler)


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    given: int = 0
    """Games sent and not yet answered."""
    told_to_stop: bool = False
    open: bool = True
    """The pipe still delivers: the worker has not exited (or its last rows are unread)."""


@dataclass
class PoolResult:
    """What a pool run left to report beyond its rows."""

    lost: list[str] = field(default_factory=list)
    """One line per worker that died unexpectedly (its unfinished games are not played)."""


def play_in_processes(
    name: str,
    options: dict[str, JSON],
    jobs: Iterable[Job],
    logs: str | None,
    time_limit: float | None,
    workers: int,
    stop: StopRequest,
    on_row: Callable[[GameRow], None],
) -> PoolResult:
    """Play ``jobs`` on ``workers`` processes, calling ``on_row`` in this process for each
    finished game as it arrives, until every job is played or ``stop`` is requested.

    ``jobs`` is read as the workers need more (a few at a time), never whole: a lazy schedule
    of any length costs nothing for the games not reached.

    Never leaves a worker running.  A worker's error (not a bot's: bots forfeit) stops the run
    and is raised as a ``SleuthError`` after every finished row was handed over."""
    context = multiprocessing.get_context()
    pool: list[_Worker] = []
    result = PoolResult()
    pending = iter(jobs)
    exhausted = False
    mean_duration = 0.01
    failure: str | None = None
    stop_since: float | None = None
    terminated_at: float | None = None
    try:
        for _ in range(max(1, workers)):
            here, there = context.Pipe()
            process = context.Process(
                target=_worker,
                args=(there, name, options, logs, time_limit),
                daemon=True,
            )
            process.start()
            there.close()
            pool.append(_Worker(process, here))
        finished = 0
        while any(w.open for w in pool):
            stopping = stop.requested or failure is not None
            if stopping and stop_since is None:
                stop_since = time.monotonic()
            for worker in pool:
                if not worker.open or worker.told_to_stop:
                    continue
                if stopping or (exhausted and worker.given == 0):
                    _send(worker, None)
                    worker.told_to_stop = True
                    continue
                wanted = max(2, min(256, round(TARGET_SECONDS / max(mean_duration, 1e-6))))
                if not exhausted and worker.given < wanted:
                    batch = list(islice(pending, wanted - worker.given))
                    exhausted = len(batch) < wanted - worker.given
                    if batch:
                        worker.given += len(batch)
                        _send(worker, batch)
            ready = wait([w.conn for w in pool if w.open], timeout=0.1)
            for worker in pool:
                if worker.conn not in ready:
                    continue
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    worker.open = False
                    _reap(worker, result, stopping)
                    continue
                if isinstance(message, str):
                    failure = failure or message
                    continue
                for row in message:
                    worker.given -= 1
                    finished += 1
                    mean_duration += (row.duration - mean_duration) / min(finished, 50)
                    on_row(row)
            if stop_since is not None:
                waited = time.monotonic() - stop_since
                if terminated_at is None and (stop.urgent or waited > GRACE):
                    terminated_at = time.monotonic()
                    for worker in pool:
                        if worker.open and worker.process.is_alive():
                            worker.process.terminate()
                elif terminated_at is not None and time.monotonic() - terminated_at > (
                    KILL_AFTER_URGENT if stop.urgent else KILL_AFTER
                ):
                    for worker in pool:
                        if worker.open:
                            worker.process.kill()
                            _drain(worker, on_row)
                            worker.open = False
    finally:
        for worker in pool:
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join(timeout=5)
            worker.conn.close()
    if failure is not None:
        raise SleuthError(f"a worker process failed:\n{failure.rstrip()}")
    return result


def _drain(worker: _Worker, on_row: Callable[[GameRow], None]) -> None:
    """Hand over the rows a killed worker sent whole before it died (a message it was cut off
    in the middle of reads as the end of the pipe)."""
    worker.process.join(timeout=1)
    try:
        while worker.conn.poll():
            message = worker.conn.recv()
            if not isinstance(message, str):
                for row in message:
                    worker.given -= 1
                    on_row(row)
    except (EOFError, OSError):
        pass


def _send(worker: _Worker, message: Any) -> None:
    try:
        worker.conn.send(message)
    except (BrokenPipeError, ConnectionResetError, OSError):
        worker.open = False


def _reap(worker: _Worker, result: PoolResult, stopping: bool) -> None:
    """A worker's pipe closed: it exited.  Note it if it died with games still to play."""
    worker.process.join(timeout=5)
    code = worker.process.exitcode
    if worker.given and not stopping:
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        result.lost.append(
            f"worker process {worker.process.pid} died ({how}) with {worker.given} unfinished games"
        )
