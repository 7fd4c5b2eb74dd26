"""Notices of slow one-off preparations, such as compiling kernels or building a table.

:func:`one_off` wraps a preparation done once per install or per process: if it lasts longer
than :data:`NOTICE_AFTER` seconds, :data:`notify` (set by the command line to print on stderr)
is told what is happening, and again when it is done.  Library use is silent unless
:data:`notify` is set.  This module imports nothing heavy (the command line imports it at
start).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

NOTICE_AFTER = 1.0
"""Seconds a one-off preparation may take before :data:`notify` is told about it."""
notify: Callable[[str], None] | None = None
"""Where notices of slow one-off preparations go (None: nowhere)."""


class _Step:
    """A preparation running now: what it says when announced, and whether it was."""

    __slots__ = ("shown", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.shown = False


_active: list[_Step] = []
"""The preparations running now, outermost first."""
_lock = threading.Lock()


@contextmanager
def one_off(what: str, detail: str = "") -> Iterator[None]:
    """Run the block, a preparation described by ``what`` (e.g. "Compiling the odds kernels")
    and ``detail`` (e.g. "once after an install"); if it is still running after
    :data:`NOTICE_AFTER` seconds, :data:`notify` gets "what, detail..." then, and "what: done
    in N s" when it ends (also when it fails).  A block that ends sooner says nothing.  Nested
    preparations are announced outermost first.  Only the main thread's are announced.
    """
    sink = notify
    if sink is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    started = time.perf_counter()
    step = _Step(f"{what}, {detail}..." if detail else f"{what}...")

    def announce() -> None:
        with _lock:
            if not any(active is step for active in _active):
                return  # finished meanwhile
            for outer in _active:
                if not outer.shown:
                    outer.shown = True
                    sink(outer.text)
                if outer is step:
                    return

    with _lock:
        _active.append(step)
    timer = threading.Timer(NOTICE_AFTER, announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with _lock:
            _active.remove(step)
        if step.shown:
            sink(f"{what}: done in {time.perf_counter() - started:.1f} s")
