"""Compilation of hot loops with Numba, and notices for one-off preparations.

:func:`kernel` compiles a function in ``nopython`` mode, its machine code cached on disk, when
Numba can be imported, and returns it unchanged otherwise, so the same code runs as ordinary
Python (slowly, with identical results).  Numba is a default dependency on the machines it
ships wheels for; setting the environment variable ``SLEUTH_NO_NUMBA=1`` (before Sleuth is
imported) chooses the plain-Python kernels even where Numba is installed.  Numba caches a
kernel by the file that defines it: a kernel module should therefore define every constant
its kernels read, not import them.

Numba writes its cache next to the kernel's module (``__pycache__``) and, where that folder is
read-only (a system-wide install), in the user's cache folder (``~/.cache/numba`` on Linux);
``NUMBA_CACHE_DIR`` overrides both.  Compiling on a cold cache takes seconds, loading from it
well under a second.

:func:`one_off` wraps a preparation done once per install or per process (compiling kernels,
building a table): if it lasts longer than :data:`NOTICE_AFTER` seconds, :data:`notify` (set by
the command line to print on stderr) is told what is happening, and again when it is done.
Library use is silent unless :data:`notify` is set.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

DISABLE_VARIABLE = "SLEUTH_NO_NUMBA"
"""The environment variable that, set to anything but ``""`` or ``0``, turns Numba off."""


def _numba_allowed() -> bool:
    return os.environ.get(DISABLE_VARIABLE, "") in ("", "0")


try:
    if not _numba_allowed():
        raise ImportError(f"{DISABLE_VARIABLE} is set")
    from numba import njit
except ImportError:  # pragma: no cover - exercised by a subprocess test
    COMPILED = False
else:
    COMPILED = True

NOTICE_AFTER = 1.0
"""Seconds a one-off preparation may take before :data:`notify` is told about it."""
notify: Callable[[str], None] | None = None
"""Where notices of slow one-off preparations go (None: nowhere)."""


def kernel(function: F) -> F:
    """Compile ``function`` with Numba when it can be imported; otherwise return it unchanged.
    The original stays available as the compiled function's ``py_func``."""
    if not COMPILED:
        return function
    try:
        return cast(F, njit(cache=True, nogil=True)(function))
    except RuntimeError:  # pragma: no cover - Numba found no writable cache folder
        return cast(F, njit(nogil=True)(function))


@contextmanager
def one_off(what: str) -> Iterator[None]:
    """Run the block, a preparation described by ``what`` (e.g. "Compiling the odds kernels,
    once after an install"); if it is still running after :data:`NOTICE_AFTER` seconds,
    :data:`notify` gets ``what`` then, and a line with the time taken when it ends (also when it
    fails).  A block that ends sooner says nothing."""
    sink = notify
    if sink is None:
        yield
        return
    started = time.perf_counter()
    lock = threading.Lock()
    shown = finished = False

    def announce() -> None:
        nonlocal shown
        with lock:
            if not finished:
                shown = True
                sink(f"{what}...")

    timer = threading.Timer(NOTICE_AFTER, announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            finished = True
        if shown:
            sink(f"{what}: done in {time.perf_counter() - started:.1f} s")
