"""Playing scheduled games as Ray tasks: on a local Ray cluster, or on a running one.

A task plays a *batch* of games with :func:`~sleuth.arena.play.play_games` (up to
:data:`~sleuth.arena.play.IN_FLIGHT` at once), exactly as a worker process does, so a game's
row is the process backend's row for the same job (only ``duration`` and ``thinking``, measured
times, differ) and its log is the same file.
Batches are sized to take about :data:`TARGET_SECONDS` each (from the games' mean duration so
far), which pays Ray's cost per task once per batch; a few more batches than the cluster has
CPUs are in flight, so no CPU waits while the driver collects.

Only the driver (this process) writes: it collects finished batches as they come
(``ray.wait``) and hands each row to ``on_row`` here, where the tournament stores it.  Game
logs travel back with their rows and the driver writes them (whole, or not at all), so a
cluster's machines need no shared folder.

Stopping (see :mod:`sleuth.arena.stopping`): a stop request hands out no more batches; the
batches in flight get :data:`GRACE` seconds to finish (none after a second Ctrl-C), then are
cancelled and their games abandoned.  Every batch that finished is handed over first, so a stop
never loses a finished result, and the run resumes from them.  A Ray worker that dies has its
batch retried by Ray (a game is deterministic: the retry plays the same game); a batch whose
retries all fail is reported lost, and the others go on.

Ray's own processes: when no Ray is connected, :func:`play_on_ray` starts a local cluster
(``address=None``) or connects to the one at ``address``, and always disconnects at the end,
which also shuts a local cluster down; if the driver is killed, a local cluster's processes are
killed by :mod:`sleuth.arena.ray_guard`.  A Ray this process is already connected to is used as
it is and left connected.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import Any

from sleuth.arena.play import GameRow, Job, play_games
from sleuth.arena.ray_guard import guarded
from sleuth.arena.stopping import StopRequest
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON

GRACE = 1.0
"""Seconds the batches in flight get to finish after the first stop request."""
TARGET_SECONDS = 0.25
"""A batch is sized to take about this long (at most :data:`MAX_BATCH` games)."""
MAX_BATCH = 4096
FIRST_BATCH = 8
"""Games in each batch before any game has finished (no duration is known yet)."""
IN_FLIGHT_PER_CPU = 2
"""Batches in flight per CPU of the cluster."""

Played = tuple[GameRow, str | None, str | None]
"""A game's row, and its log's file name and text (``None`` when no logs are written)."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a ``SleuthError`` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise SleuthError(
            "--backend ray needs Ray, which is not installed: pip install 'sleuth[ray]'"
        ) from None
    return ray


def play_batch(
    name: str,
    options: dict[str, JSON],
    jobs: list[Job],
    logs: bool,
    time_limit: float | None,
) -> list[Played]:
    """Play ``jobs`` in this process (a Ray task's body) and return what each left, in the
    order they ended: its row and, with ``logs``, its log (written to a folder of this
    machine's own, read back and removed)."""
    played: list[Played] = []
    with tempfile.TemporaryDirectory(prefix="sleuth-ray-") as folder:
        for row in play_games(name, options, jobs, folder if logs else None, time_limit):
            if not logs:
                played.append((row, None, None))
                continue
            log = Path(folder) / f"game-{row.index:06d}.jsonl"
            played.append((row, log.name, log.read_text(encoding="utf-8")))
            log.unlink()
    return played


def write_log_text(logs: Path, name: str, text: str) -> None:
    """Write a log that came back from a task, whole or not at all (as
    :func:`~sleuth.arena.play.play_game` does: aside first, then renamed)."""
    partial = logs / f".{name}.{os.getpid()}.part"
    partial.write_text(text, encoding="utf-8")
    partial.replace(logs / name)


@dataclass
class RayResult:
    """What a Ray run left to report beyond its rows."""

    cpus: int
    """The CPUs of the cluster the games were played on."""
    lost: list[str] = field(default_factory=list)
    """One line per batch whose games were not played (its task failed past Ray's retries)."""


REACH_TIMEOUT = 5.0
"""Seconds to wait for a cluster's head to answer (``ray.init`` would retry for minutes)."""


def check_reachable(address: str) -> None:
    """A ``SleuthError`` naming ``address`` unless its ``HOST:PORT`` (if it has one: ``auto``
    has not) accepts a connection within :data:`REACH_TIMEOUT` seconds."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT).close()
    except OSError as exc:
        raise SleuthError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} "
            "(is `ray start --head` running there?)"
        ) from None


@contextmanager
def connected(ray: ModuleType, address: str | None, cpus: int | None) -> Iterator[None]:
    """Ray connected for the block: joined at ``address`` (else at ``$RAY_ADDRESS``, which a
    Ray job sets, as ``ray.init`` reads it), or else started as a local cluster of ``cpus``
    CPUs (its processes guarded by :mod:`sleuth.arena.ray_guard`), and disconnected after (a
    local cluster then shuts down); a Ray already connected is used as it is and stays
    connected.

    ``ray.init`` installs a SIGTERM handler of its own: the handlers in place before are put
    back, so that Ctrl-C and SIGTERM keep asking the tournament to stop."""
    if ray.is_initialized():
        yield
        return
    joining = address is not None or bool(os.environ.get("RAY_ADDRESS"))
    # "local": a new cluster, even where `ray start` left one that ray.init() would join
    target = address if address is not None else None if joining else "local"
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def start() -> None:
        try:
            ray.init(
                address=target,
                num_cpus=None if joining else cpus,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = (
                "a local Ray cluster"
                if not joining
                else f"the Ray cluster at {address or os.environ['RAY_ADDRESS']}"
            )
            raise SleuthError(f"cannot connect to {where}: {exc}") from None
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)

    with ExitStack() as stack:
        if joining:
            start()
        else:
            stack.enter_context(guarded(start))
        try:
            yield
        finally:
            ray.shutdown()


def play_on_ray(
    name: str,
    options: dict[str, JSON],
    jobs: Iterable[Job],
    logs: str | None,
    time_limit: float | None,
    stop: StopRequest,
    on_row: Callable[[GameRow], None],
    address: str | None = None,
    cpus: int | None = None,
) -> RayResult:
    """Play ``jobs`` as Ray tasks, calling ``on_row`` here for each finished game as its batch
    comes back, until every job is played or ``stop`` is requested; write each game's log to
    the folder ``logs`` (of this machine) if given.

    ``jobs`` is read as batches are handed out, never whole.  A task's error that is not a
    worker's death (a bug: bots forfeit, they do not raise) stops the run and is raised as a
    ``SleuthError`` once every finished row was handed over; after a stop request, failed and
    cancelled batches are simply abandoned."""
    ray = import_ray()
    with connected(ray, address, cpus):
        task = ray.remote(max_retries=3)(play_batch)
        result = RayResult(int(ray.cluster_resources().get("CPU", 1)))
        capacity = IN_FLIGHT_PER_CPU * max(1, result.cpus)
        in_flight: dict[Any, int] = {}
        pending = iter(jobs)
        exhausted = False
        mean_duration: float | None = None
        finished = 0
        failure: str | None = None
        stop_since: float | None = None
        try:
            while True:
                stopping = stop.requested or failure is not None
                if stopping and stop_since is None:
                    stop_since = time.monotonic()
                while not stopping and not exhausted and len(in_flight) < capacity:
                    size = FIRST_BATCH
                    if mean_duration is not None:
                        wanted = round(TARGET_SECONDS / max(mean_duration, 1e-6))
                        size = max(1, min(MAX_BATCH, wanted))
                    batch = list(islice(pending, size))
                    exhausted = len(batch) < size
                    if batch:
                        ref = task.remote(name, options, batch, logs is not None, time_limit)
                        in_flight[ref] = len(batch)
                if not in_flight:
                    break
                if stop_since is not None and (
                    stop.urgent or time.monotonic() - stop_since > GRACE
                ):
                    break
                ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.1)
                for ref in ready:
                    games = in_flight.pop(ref)
                    try:
                        played: list[Played] = ray.get(ref)
                    except ray.exceptions.WorkerCrashedError as exc:
                        if not stopping:
                            result.lost.append(
                                f"a Ray task died with {games} unfinished games: {exc}"
                            )
                        continue
                    except ray.exceptions.RayError as exc:
                        if not stopping:
                            failure = failure or str(exc)
                        continue
                    for row, log_name, text in played:
                        if logs is not None and log_name is not None and text is not None:
                            write_log_text(Path(logs), log_name, text)
                        finished += 1
                        mean = mean_duration or row.duration
                        mean_duration = mean + (row.duration - mean) / min(finished, 50)
                        on_row(row)
        finally:
            for ref in in_flight:
                ray.cancel(ref, force=True)
    if failure is not None:
        raise SleuthError(f"a Ray task failed:\n{failure.rstrip()}")
    return result
