"""A long command started as a user starts it, then stopped with Ctrl-C or SIGTERM: the helpers
of the tests that check every long command stops at once and keeps what it finished.

The command runs in its own session (as in a terminal), with stdout and stderr read as they
come, so that a test can wait for a line before it sends the signal.  Ctrl-C is SIGINT to the
whole process group (what a terminal does); SIGTERM goes to the command alone (what a process
manager does).  :func:`check_nothing_left` reads /proc: no process of the session may outlive
the command (:func:`marked` finds those of a command that starts sessions of its own).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SIGNALS = {"ctrl-c": (signal.SIGINT, 130), "sigterm": (signal.SIGTERM, 143)}
"""How a test stops a command, and the exit code the command must then end with."""


@dataclass
class Running:
    """A command started in its own session, its output gathered line by line as it comes."""

    process: subprocess.Popen[str]
    started: float
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    readers: list[threading.Thread] = field(default_factory=list)

    def wait_for(self, ready: Callable[[], bool], within: float) -> None:
        """Return once ``ready()`` holds; fail if the command ends or ``within`` seconds pass."""
        deadline = time.monotonic() + within
        while not ready():
            assert self.process.poll() is None, ("the command ended", self.stdout, self.stderr)
            assert time.monotonic() < deadline, ("not ready in time", self.stdout, self.stderr)
            time.sleep(0.05)

    def stop(self, how: str) -> float:
        """Send Ctrl-C or SIGTERM (see :data:`SIGNALS`); return when it was sent."""
        signum, _ = SIGNALS[how]
        if how == "ctrl-c":
            os.killpg(self.process.pid, signum)
        else:
            os.kill(self.process.pid, signum)
        return time.monotonic()

    def finish(self, within: float) -> tuple[int, float]:
        """Wait for the command to end: its exit code and the seconds that took (a command
        still running ``within`` seconds later is killed, and the test fails)."""
        t0 = time.monotonic()
        try:
            code = self.process.wait(timeout=within)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise AssertionError(("still running", self.stdout, self.stderr)) from None
        for reader in self.readers:
            reader.join(timeout=10)
        return code, time.monotonic() - t0

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)


def start(args: Sequence[str | Path], cwd: Path) -> Running:
    process = subprocess.Popen(
        [str(a) for a in args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    running = Running(process, time.monotonic())
    for stream, lines in ((process.stdout, running.out), (process.stderr, running.err)):
        assert stream is not None
        reader = threading.Thread(target=lambda s=stream, into=lines: into.extend(s), daemon=True)
        reader.start()
        running.readers.append(reader)
    return running


def processes() -> list[tuple[int, int, int]]:
    """``(pid, ppid, session)`` of every process."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            found.append((int(entry.name), int(fields[1]), int(fields[3])))
    return found


def marked(token: str) -> list[int]:
    """The processes whose environment holds ``token`` (give a command a variable of its own:
    every process it starts inherits it, in whatever session)."""
    needle = token.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue
            if needle in environ.split(b"\0"):
                found.append(int(entry.name))
    return found


def in_session(session: int) -> list[int]:
    """The processes of the session ``session`` (a command started by :func:`start`)."""
    return [pid for pid, _, s in processes() if s == session]


def check_nothing_left(running: Running) -> None:
    deadline = time.monotonic() + 3
    while in_session(running.process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_session(running.process.pid) == [], "a process of the command was left behind"
