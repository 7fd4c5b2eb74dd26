"""A bot's process: started confined, spoken to line by line within deadlines, never left behind.

:class:`BotProcess` runs a command (no shell) in a session and process group of its own, with
resource limits set between fork and exec (:class:`Limits`: address space, CPU time over the
process's life, file size, no core files), without network where the OS allows it (a network
namespace of its own: root, or a user with ``CAP_NET_ADMIN``), and killed by the kernel if the
thread that started it dies (``PR_SET_PDEATHSIG``).  Every read and write has a wall-clock
deadline and a read takes at most :attr:`Limits.line` bytes per line; anything else a process
does wrong (it exits, is killed by a limit, forks, floods) is a
:class:`~sleuth.core.botwire.ProtocolError` naming the cause, after which the process group is
killed.

Processes are reused across games (:func:`take`, :func:`give_back`): starting an interpreter
costs far more than a game of random moves.  Invariant: every process this module starts is
either serving a game, idle in the pool, or dead; :func:`close_all` (run by a tournament at
its end, by its workers as they exit, and at interpreter exit) kills all of them.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import fcntl
import os
import resource
import select
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import IO

from sleuth.core.botwire import ProtocolError

MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """What a bot process may use.  ``memory``: bytes of address space (``RLIMIT_AS``);
    ``cpu``: CPU seconds over the process's whole life (``RLIMIT_CPU``; a reused process is
    retired once it has used half); ``output``: bytes it may write to its error output or any
    file (``RLIMIT_FSIZE``, per game); ``line``: bytes in one line it prints; ``start``: wall
    seconds to start and answer a game's handshake; ``network``: False cuts it off the network
    where the OS allows."""

    memory: int = 1024 * MIB
    cpu: int = 600
    output: int = 4 * MIB
    line: int = 1 * MIB
    start: float = 10.0
    network: bool = False


_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1
_CLONE_NEWNET = 0x40000000
_POLL_IN = select.POLLIN | select.POLLHUP | select.POLLERR
_POLL_OUT = select.POLLOUT | select.POLLHUP | select.POLLERR


def _confine(limits: Limits, parent: int) -> None:
    """Run in the child between fork and exec: limits, no network, die with the parent."""
    for which, value in (
        (resource.RLIMIT_AS, limits.memory),
        (resource.RLIMIT_FSIZE, limits.output),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1))
    if not limits.network:
        _LIBC.unshare(_CLONE_NEWNET)  # refused without privileges: the bot keeps the network
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _describe_signal(number: int, limits: Limits) -> str:
    name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else number
    causes = {
        signal.SIGXCPU: f" (its CPU time limit, {limits.cpu} s)",
        signal.SIGXFSZ: f" (it wrote over {limits.output} bytes to its error output or a file)",
        signal.SIGKILL: " (by the system: out of memory?)",
    }
    return f"was killed by {name}{causes.get(number, '')}"  # type: ignore[call-overload]


class BotProcess:
    """One running bot command: non-blocking pipes to its stdin and stdout, its error output in
    an unlinked temporary file (its last line names a crash's cause)."""

    def __init__(self, argv: tuple[str, ...], limits: Limits) -> None:
        self.argv, self.limits = argv, limits
        self.games = 0
        self._errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by kill()
        fd = self._errors.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        parent = os.getpid()  # read here: the child runs the fork hooks before _confine
        try:
            self.popen = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
                start_new_session=True, preexec_fn=lambda: _confine(limits, parent),
            )  # fmt: skip
        except OSError as exc:
            self._errors.close()
            raise ProtocolError(f"cannot run {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self._in, self._out = self.popen.stdin.fileno(), self.popen.stdout.fileno()
        for pipe in (self._in, self._out):
            os.set_blocking(pipe, False)
        self._buffer = bytearray()
        self._children = f"/proc/{self.popen.pid}/task/{self.popen.pid}/children"
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        return self.popen.returncode is None and self.popen.poll() is None

    def new_game(self) -> None:
        """Forget the previous game's error output (the output limit counts per game)."""
        os.ftruncate(self._errors.fileno(), 0)
        self.games += 1

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` before ``deadline`` (``time.monotonic``); a line still unread from the
        previous answer is a protocol error (one answer per message)."""
        if self._buffer:
            raise ProtocolError("printed more than one line for one message")
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view) :]
            except BlockingIOError:
                self._wait(self._in, _POLL_OUT, deadline, "read its input")
            except BrokenPipeError:
                raise self.dead() from None

    def receive(self, deadline: float) -> bytes:
        """The next line the process prints, before ``deadline``; at most :attr:`Limits.line`
        bytes."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                if len(line) > self.limits.line:
                    raise self._flooded()
                return line
            if len(self._buffer) > self.limits.line:
                raise self._flooded()
            self._wait(self._out, _POLL_IN, deadline, "answer")
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise self.dead()
            self._buffer += chunk

    def check_alone(self) -> None:
        """A protocol error if the process has started another process (Linux; elsewhere no
        check): bots may not fork, and the group is killed."""
        try:
            with open(self._children, "rb") as file:
                children = file.read().split()
        except OSError:
            return
        if children:
            raise ProtocolError(
                f"started another process (pid {children[0].decode()}): bots may not fork"
            )

    def cpu_seconds(self) -> float:
        """CPU seconds the process has used (Linux; 0 elsewhere)."""
        try:
            with open(f"/proc/{self.popen.pid}/stat", "rb") as file:
                fields = file.read().rpartition(b")")[2].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def dead(self) -> ProtocolError:
        """Why the process stopped talking: its exit code or signal and its last error line."""
        try:
            code = self.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.kill()
            return ProtocolError("closed its output")
        last = self._last_error()  # before kill() closes the file
        self.kill()
        cause = _describe_signal(-code, self.limits) if code < 0 else f"exited with code {code}"
        return ProtocolError(f"{cause}; its last error output: {last!r}" if last else cause)

    def _last_error(self) -> str:
        with contextlib.suppress(OSError):
            size = os.fstat(self._errors.fileno()).st_size
            tail = os.pread(self._errors.fileno(), 400, max(0, size - 400))
            lines = tail.decode("utf-8", "replace").strip().splitlines()
            return lines[-1][-200:] if lines else ""
        return ""

    def _flooded(self) -> ProtocolError:
        self.kill()
        return ProtocolError(f"printed a line longer than {self.limits.line} bytes")

    def _wait(self, fd: int, events: int, deadline: float, what: str) -> None:
        left = deadline - time.monotonic()
        if left > 0:
            poller = select.poll()
            poller.register(fd, events)
            if poller.poll(min(left, 1e6) * 1000):
                return
        self.kill()
        raise ProtocolError(f"did not {what} within its limit (wall-clock time)")

    def kill(self) -> None:
        """Kill the process and its group (whatever it started), reap it, close the pipes."""
        if self not in _LIVE:
            return
        _LIVE.discard(self)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()
        self.popen.wait()
        for pipe in (self.popen.stdin, self.popen.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._errors.close()


_LIVE: set[BotProcess] = set()
"""Every process this process started and has not killed: serving a game or idle."""
_IDLE: dict[tuple[tuple[str, ...], Limits], list[BotProcess]] = {}
"""Processes between games, by command and limits."""


def take(argv: tuple[str, ...], limits: Limits) -> BotProcess:
    """An idle process of this command and limits, else a new one (started now)."""
    idle = _IDLE.get((argv, limits), [])
    while idle:
        process = idle.pop()
        if process.alive:
            return process
        process.kill()
    return BotProcess(argv, limits)


def give_back(process: BotProcess) -> None:
    """Return a process whose game ended well to the pool; one that has used half its CPU time
    limit (a new game could not count on the rest) is killed instead."""
    if process.alive and process.cpu_seconds() < process.limits.cpu / 2:
        _IDLE.setdefault((process.argv, process.limits), []).append(process)
    else:
        process.kill()


def close_all() -> None:
    """Kill every bot process this process started (idle or serving a game)."""
    _IDLE.clear()
    for process in list(_LIVE):
        process.kill()


def _forget_inherited() -> None:
    """In a forked child: the parent's processes are the parent's to kill."""
    _LIVE.clear()
    _IDLE.clear()


atexit.register(close_all)
os.register_at_fork(after_in_child=_forget_inherited)
