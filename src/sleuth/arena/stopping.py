"""Stopping a tournament early with Ctrl-C (SIGINT) or SIGTERM, without losing a finished game.

While :func:`stop_signals` is active, the first SIGINT or SIGTERM does not raise
``KeyboardInterrupt`` where it happens to land; it records a *stop request*.  The runner then
starts no new game, lets the games in flight finish for about a second, abandons the rest, and
returns every finished game.  A second signal asks to stop at once: games in flight are
abandoned immediately.

In-process play has no one to check the request while a game runs, so there the first signal
abandons the game in flight at once (by raising :class:`GameAbandoned` inside it), but only
while a game is being played: a signal that arrives while results are being handed over or
stored is merely recorded.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class GameAbandoned(BaseException):
    """Raised inside a game that is abandoned because the run is stopping.

    A ``BaseException``, so that neither a bot nor the match runner mistakes it for a bot's
    failure (they catch ``Exception``)."""


@dataclass
class StopRequest:
    """The stop signals received so far.  ``playing`` is set by an in-process runner around
    each game: a signal then abandons the game."""

    first: int | None = None
    """The first signal received (``signal.SIGINT`` or ``signal.SIGTERM``), if any."""
    count: int = 0
    playing: bool = False

    @property
    def requested(self) -> bool:
        return self.count > 0

    @property
    def urgent(self) -> bool:
        """A second signal came: stop at once."""
        return self.count > 1

    @property
    def exit_code(self) -> int:
        """The shell's code for a process stopped by the first signal (130 for Ctrl-C)."""
        return 128 + int(self.first) if self.first is not None else 0

    @property
    def name(self) -> str:
        return "Ctrl-C" if self.first == signal.SIGINT else "SIGTERM"

    def ask(self) -> None:
        """Request a stop from inside the program (no signal: :attr:`first` stays None)."""
        self.count = max(self.count, 1)

    def receive(self, signum: int) -> None:
        """Record one signal; abandon the game in flight if one is being played here."""
        self.count += 1
        if self.first is None:
            self.first = signum
        if self.playing:
            self.playing = False
            raise GameAbandoned


@contextmanager
def stop_signals() -> Iterator[StopRequest]:
    """Turn SIGINT and SIGTERM into a :class:`StopRequest` for the duration of the block.

    Blocks nest: an inner block shares the outer block's request (a command that stores and
    prints after its run keeps the signals caught until it is done).  Outside the main thread
    signals cannot be caught; the request then never fires and the signals keep their usual
    effect."""
    global _active
    if _active is not None:
        yield _active
        return
    request = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    _active = request

    def on_signal(signum: int, frame: object) -> None:
        request.receive(signum)

    for sig in STOP_SIGNALS:
        signal.signal(sig, on_signal)
    try:
        yield request
    finally:
        _active = None
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_active: StopRequest | None = None
"""The request of the outermost active :func:`stop_signals` block."""
