"""Playing a study's games as runs stored in the study's database, and stopping a study.

Every study's ``run`` is a loop over settings inside :func:`stoppable`: the first Ctrl-C or
SIGTERM stops the whole study (not only the setting being played), keeps every finished game
in the database, and says on stderr how many games it kept and that the same command resumes
(:func:`stop_study`); the exit code is the shell's for the signal (130 for Ctrl-C, 143 for
SIGTERM).  :func:`play_stored` plays one setting as a run stored as it goes (the Cluedo,
Fugitive and Scotland Yard studies); :func:`map_stoppable` computes chunks of work on worker
processes until a stop (the Camel Up study's games, the Cluedo report's replays).
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import sleuth
from sleuth.arena import store
from sleuth.arena.stopping import StopRequest, stop_signals
from sleuth.arena.tournament import Tournament, canonical_setup, run_tournament
from sleuth.core.match import DEFAULT_TIME_LIMIT

T = TypeVar("T")
R = TypeVar("R")


@contextmanager
def stoppable() -> Iterator[StopRequest]:
    """The block of a study's ``run``: a signal in it is a stop request (see
    :mod:`sleuth.arena.stopping`) that the study acts on, never a ``KeyboardInterrupt``."""
    with stop_signals() as stop:
        yield stop


def stop_study(stop: StopRequest, kept: str) -> NoReturn:
    """End the study a signal stopped: say on stderr what it ``kept`` and that the same
    command resumes, and exit with the signal's code."""
    again = shlex.join(["python", *sys.argv])
    print(
        f"stopped by {stop.name}: {kept}; the same command goes on from there:\n  {again}",
        file=sys.stderr,
        flush=True,
    )
    raise SystemExit(stop.exit_code or 1)


def play_stored(
    db: Path,
    game: str,
    bots: list[str],
    options: dict[str, Any],
    games: int,
    seed: int,
    workers: int | None,
    rotate: bool = True,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Tournament:
    """Play ``games`` games from ``seed`` on as one run stored in ``db`` as it goes (its
    ``runs`` row first, then the games in batches, then how it ended).  A stop request, made
    before or during the run, ends the study (:func:`stop_study`) once the run's finished games
    are stored."""
    with stoppable() as stop:
        if stop.requested:
            stop_study(stop, "the settings played so far are stored")
        board, canonical_bots = canonical_setup(game, bots, options)
        header = Tournament(
            uuid.uuid4().hex, game, board.options(), seed, tuple(canonical_bots),
            workers or os.cpu_count() or 1, requested=games,
        )  # fmt: skip
        store.begin(db, header, datetime.now(UTC), sleuth.__version__, time_limit, rotate=rotate)
        tournament = run_tournament(
            game,
            bots,
            games,
            seed,
            options,
            workers,
            time_limit=time_limit,
            on_rows=partial(store.add_games, db, header.run_id, game, board.options()),
            run_id=header.run_id,
            rotate=rotate,
        )
        store.end(db, tournament)
        if stop.requested:
            stop_study(stop, f"{len(tournament.rows)} games of this setting stored in {db}")
    return tournament


def _ignore_interrupt() -> None:
    """A worker leaves Ctrl-C (sent to the whole process group) to its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_stoppable(
    function: Callable[[T], R], items: Iterable[T], workers: int, stop: StopRequest
) -> Iterator[R]:
    """``function(item)`` for each item, computed on ``workers`` processes and yielded as each
    finishes, until every item is done or ``stop`` is requested.  ``items`` is read as workers
    need more (at most two per worker wait); after a stop no item starts, those being computed
    finish (keep an item's work short: it is the wait) and are yielded, and the iteration ends.
    A worker that dies is an error, unless the study was stopped (a SIGTERM sent to the whole
    process group ends the workers too)."""
    pending = iter(items)
    with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt) as pool:
        running: set[Future[R]] = set()
        while True:
            if not stop.requested:
                for item in islice(pending, 2 * workers - len(running)):
                    running.add(pool.submit(function, item))
            if not running:
                return
            done, running = wait(running, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    if not stop.requested:
                        raise
                    continue
                yield result
