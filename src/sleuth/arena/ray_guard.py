"""A guard that kills what a local Ray cluster leaves behind when its driver dies.

Ray ties the head processes it starts to the driver (the kernel kills them when the driver
dies), but not their own children: after a SIGKILL of the driver, Ray's agents
(``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``) notice that their raylet died, say they
exit, and stay (Ray 2.60).  So :func:`guarded` starts a guard process before the cluster,
tells it the processes the cluster's start spawned (the driver's new children), and the guard
keeps a list of them and of their descendants (every :data:`WATCH_EVERY` seconds) until its
standard input closes: the driver closes it after ``ray.shutdown()``, and the kernel closes it
when the driver dies, however it dies.  The guard then kills every listed process still alive
(a process is known by its pid and start time, so a reused pid is never hit).

Linux only (it reads ``/proc``); elsewhere :func:`guarded` only starts the cluster.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

WATCH_EVERY = 0.5
"""Seconds between the guard's looks at the cluster's process tree."""

Process = tuple[int, str]
"""A process: its pid and its start time (in clock ticks since boot, from ``/proc``)."""


def _table() -> dict[int, tuple[int, str]]:
    """Every process: ``pid -> (parent pid, start time)``."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            table[int(entry.name)] = (int(fields[1]), fields[19])
    return table


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    return {child for child, (parent, _) in _table().items() if parent == pid}


def tree(roots: Iterable[Process]) -> set[Process]:
    """``roots`` that are still alive, and all their descendants."""
    table = _table()
    found = {(pid, start) for pid, start in roots if table.get(pid, (0, ""))[1] == start}
    frontier = {pid for pid, _ in found}
    while frontier:
        frontier = {
            pid
            for pid, (parent, start) in table.items()
            if parent in frontier and (pid, start) not in found
        }
        found |= {(pid, table[pid][1]) for pid in frontier}
    return found


def kill(processes: Iterable[Process]) -> None:
    """SIGKILL each of ``processes`` that is still the same process."""
    for pid, _ in tree(processes):
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@contextmanager
def guarded(start: Callable[[], object]) -> Iterator[None]:
    """Call ``start`` (which starts a local Ray cluster) with the guard running, then run the
    block: once the block is left, or this process dies, no process ``start`` spawned (nor any
    of their descendants) is left."""
    if not sys.platform.startswith("linux"):
        start()
        yield
        return
    guard = subprocess.Popen(
        [sys.executable, "-m", "sleuth.arena.ray_guard"], stdin=subprocess.PIPE, text=True
    )
    assert guard.stdin is not None
    try:
        before = children(os.getpid())
        try:
            start()
        finally:
            table = _table()
            for pid in children(os.getpid()) - before - {guard.pid}:
                guard.stdin.write(f"{pid} {table[pid][1]}\n")
            guard.stdin.flush()
        yield
    finally:
        guard.stdin.close()
        guard.wait()


def main() -> None:
    """The guard's life: ignore Ctrl-C (the driver decides), watch the processes the driver
    names until it closes the pipe or dies, then kill what is left of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watched: set[Process] = set()
    pending = ""
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], WATCH_EVERY)
        if ready:
            data = os.read(sys.stdin.fileno(), 65536).decode()
            if not data:
                break
            *lines, pending = (pending + data).split("\n")
            for line in lines:
                pid, start = line.split()
                watched.add((int(pid), start))
        watched = tree(watched)
    kill(watched)
    kill(watched)  # what was being spawned as the first round ran


if __name__ == "__main__":
    main()
