"""Compilation of hot loops with Numba, on first use or in the background.

:func:`kernel` marks a function to compile in ``nopython`` mode, its machine code cached on
disk.  Nothing is imported or compiled when a kernel module is imported: Numba (and the
llvmlite and SciPy it loads, a second and some 60 MiB) is imported when a kernel is first
called, so a process whose bots and commands call no kernel never loads it.  Numba is a
default dependency on the machines it ships wheels for; setting the environment variable
``SLEUTH_NO_NUMBA=1`` (before Sleuth is imported) chooses the plain-Python kernels even where
Numba is installed, and a Numba that is installed but fails to import runs them as plain
Python too (slowly, with identical results).  Numba caches a kernel by the file that defines
it: a kernel module should therefore define every constant its kernels read, not import them.

Numba writes its cache next to the kernel's module (``__pycache__``) and, where that folder is
read-only (a system-wide install), in the user's cache folder (``~/.cache/numba`` on Linux);
``NUMBA_CACHE_DIR`` overrides both.  Compiling on a cold cache takes seconds (the Fugitive
deduction's programme, half a minute), loading from it about a second.

An interactive command need not wait for that: :func:`compile_in_background` runs a warm-up
(a small computation that calls the kernels) in a thread while the user types.  Meanwhile
:func:`ready` is False in every other thread, and a caller with a plain-Python path of its own
takes it then (the answers are the same): a programme of its own, or the kernels' Python
originals (:func:`plain_until_ready`); a kernel called otherwise waits for the warm-up to end.
The warm-up's thread ends with its process (a quit, Ctrl-C or a kill leaves nothing running):
what it compiled is in Numba's cache, and the next run's warm-up compiles the rest.  A warm-up
that ran to its end leaves a marker in Sleuth's cache folder (:func:`warmed_marker`): the next
run's warm-up only loads the kernels from the cache (a second or two), so
:func:`plain_until_ready` waits for it rather than run plain Python that takes longer.
Compiling on first use in the foreground is announced by the callers
(:mod:`sleuth.core.prepare`).

A command that must not wait for it either, and may fork worker processes (``sleuth play``,
``sleuth infer``), uses :func:`compile_elsewhere`: a process of its own compiles the kernels
into Numba's cache (a fresh interpreter: forking a process while a thread compiles could leave
the child holding the compiler's locks), and :func:`ready` is False in this process and every
process forked from it until that process has ended and each has loaded the kernels from the
cache in a background thread.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import select
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

from sleuth.core.cache import cache_dir
from sleuth.core.compiling import DISABLE_VARIABLE as DISABLE_VARIABLE
from sleuth.core.compiling import kernels_compiled

F = TypeVar("F", bound=Callable[..., Any])

COMPILED = kernels_compiled()
"""Whether kernels run compiled: Numba is installed and ``SLEUTH_NO_NUMBA`` leaves it on
(found without importing Numba)."""

_lock = threading.Lock()
_pending: list[Callable[[], None]] = []
"""Warm-ups queued for the background thread, first to run first."""
_worker: threading.Thread | None = None
"""The thread running the warm-ups of :func:`compile_in_background`, while it runs."""
_running: Callable[[], None] | None = None
"""The warm-up the background thread runs now, if any."""
_loading: set[Callable[[], None]] = set()
"""The warm-ups queued with their marker present (:func:`warmed_marker`): they load the
kernels from Numba's cache rather than compile them."""
_idle = threading.Event()
"""Set when no warm-up runs in the background."""
_idle.set()
_local = threading.local()
"""``plain``: whether the kernels this thread calls run as their Python originals."""
_away: list[tuple[Callable[[], None], int, subprocess.Popen[bytes] | None]] = []
"""The warm-ups run by :func:`compile_elsewhere` in another process not seen to end yet:
each with the read end of a pipe whose write end only that process holds (so the pipe ends
when the process does, in this process and in any process forked from it) and the process
(None in a process forked from the one that started it)."""
_cached: set[Callable[[], None]] = set()
"""The warm-ups whose process of :func:`compile_elsewhere` ended, its kernels in the cache
(loaded here by the background thread)."""
AWAY_POLL = 0.05
"""Seconds between looks at the processes of :func:`compile_elsewhere` while waiting for them."""


class Kernel:
    """A function compiled by Numba on its first call (see the module docstring); called
    from Python or from another kernel it computes what the function does.  The original is
    :attr:`py_func`, as on a Numba dispatcher."""

    def __init__(self, function: Callable[..., Any], signature: str | None = None) -> None:
        self.py_func = function
        self.signature = signature
        """The argument types it is compiled for (Numba's notation), None for those of each
        call (see :func:`kernel_for`)."""
        self._dispatcher: Callable[..., Any] | None = None
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        if getattr(_local, "plain", False):  # within plain_until_ready, before the warm-up ends
            return self.py_func(*args)
        settle()  # a background warm-up may be compiling: this call would compile too
        return self.dispatcher()(*args)

    def dispatcher(self) -> Callable[..., Any]:
        """The Numba dispatcher (made on first use, which imports Numba), or :attr:`py_func`
        when Numba cannot be used."""
        if self._dispatcher is None:
            self._dispatcher = _compile(self.py_func, self.signature)
        return self._dispatcher

    @property
    def signatures(self) -> list[Any]:
        """The argument types compiled (or loaded) so far, as on a Numba dispatcher."""
        if self._dispatcher is None:
            return []
        return list(getattr(self._dispatcher, "signatures", []))

    @property
    def _numba_type_(self) -> Any:
        """How Numba types this kernel where another kernel calls it: as its dispatcher."""
        return cast(Any, self.dispatcher())._numba_type_

    def __repr__(self) -> str:
        return f"<kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def kernel(function: F) -> F:
    """``function`` compiled with Numba on its first call when Numba can be used (see the
    module docstring); otherwise ``function`` itself.  The original stays available as the
    kernel's ``py_func``."""
    if not COMPILED:
        return function
    return cast(F, Kernel(function))


def kernel_for(signature: str) -> Callable[[F], F]:
    """:func:`kernel`, compiled for the argument types ``signature`` alone (Numba's notation,
    ``"(int64, int64[:, ::1])"``), and nothing else: a call with other types converts them or
    fails.  For a kernel that other kernels call with constants among the arguments: Numba
    compiles a kernel again for each combination of constant arguments it meets (the Fugitive
    programme's steps twice, its hash table six times), and compiling takes seconds."""

    def decorate(function: F) -> F:
        if not COMPILED:
            return function
        return cast(F, Kernel(function, signature))

    return decorate


def _compile(function: Callable[..., Any], signature: str | None) -> Callable[..., Any]:
    """Numba's dispatcher for ``function`` (cached on disk where a folder is writable; for
    ``signature`` alone when given), or ``function`` when Numba fails to import."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - Numba installed but broken
        return function
    try:
        return cast(Callable[..., Any], njit(signature, cache=True, nogil=True)(function))
    except RuntimeError:  # pragma: no cover - Numba found no writable cache folder
        return cast(Callable[..., Any], njit(signature, nogil=True)(function))


def ready() -> bool:
    """Whether a kernel called now runs compiled without waiting: Numba is used, no process of
    :func:`compile_elsewhere` runs, and no background warm-up (:func:`compile_in_background`)
    runs, or this is its thread.  A caller with a plain-Python path takes it when this is
    False.  Once a process of :func:`compile_elsewhere` is seen to have ended, its warm-up is
    queued here to load the kernels from the cache."""
    if threading.current_thread() is _worker:
        return COMPILED
    return COMPILED and not (_away and _still_away(wait=False)) and _idle.is_set()


@contextlib.contextmanager
def plain_until_ready() -> Iterator[None]:
    """Run the block with the kernels compiled if they are :func:`ready`, and otherwise with
    every kernel this thread calls run as its Python original, at once: the same results,
    slower, instead of a wait for the background warm-up.  When every warm-up still to run
    only loads the kernels from the cache (:func:`warmed_marker`), and no process of
    :func:`compile_elsewhere` runs, the block runs compiled too: its kernels wait for the
    load, which is sooner.  The choice holds for the whole block."""
    if ready() or getattr(_local, "plain", False) or _only_loading():
        yield
        return
    _local.plain = True
    try:
        yield
    finally:
        _local.plain = False


def _only_loading() -> bool:
    """Whether the background warm-ups running or queued all only load their kernels from the
    cache, and no process of :func:`compile_elsewhere` runs."""
    with _lock:
        left = [*_pending, *([_running] if _running is not None else [])]
        return not _away and all(warm_up in _loading for warm_up in left)


def warmed_marker(warm_up: Callable[[], None]) -> Path:
    """The file that says ``warm_up`` (a module-level function) ran to its end with this
    Numba, this Python, this copy of the warm-up's module and this ``NUMBA_CACHE_DIR``: its
    kernels are in Numba's cache.  (A cache emptied by hand behind the marker's back costs
    one compilation in the foreground.)"""
    module = sys.modules[warm_up.__module__]
    source = Path(getattr(module, "__file__", "") or warm_up.__module__)
    with contextlib.suppress(OSError):
        source = source.resolve()
    try:
        stamp = source.stat().st_mtime_ns
    except OSError:
        stamp = 0
    key = "\n".join(
        (
            importlib.metadata.version("numba"),
            sys.version,
            str(source),
            str(stamp),
            os.environ.get("NUMBA_CACHE_DIR", ""),
        )
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / "compiled" / f"{warm_up.__module__}.{warm_up.__qualname__}-{digest}"


def _markable(warm_up: Callable[[], None]) -> bool:
    """Whether ``warm_up`` is a module-level function, which a later process names alike (a
    lambda, a nested function or a bound method gets no marker)."""
    return (
        isinstance(warm_up, types.FunctionType)
        and "<" not in warm_up.__qualname__
        and ("." not in warm_up.__qualname__)
    )


def _mark_warmed(warm_up: Callable[[], None]) -> None:
    """Leave :func:`warmed_marker` for ``warm_up`` (a cache folder that cannot be written only
    leaves the next run to run plain Python while it loads the kernels)."""
    if not _markable(warm_up):
        return
    with contextlib.suppress(OSError, importlib.metadata.PackageNotFoundError):
        marker = warmed_marker(warm_up)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()


def _is_warmed(warm_up: Callable[[], None]) -> bool:
    """Whether :func:`warmed_marker` of ``warm_up`` is there."""
    if not _markable(warm_up):
        return False
    try:
        return warmed_marker(warm_up).exists()
    except (OSError, importlib.metadata.PackageNotFoundError):
        return False


def settle() -> None:
    """Wait for the processes of :func:`compile_elsewhere` to end, then for the background
    warm-ups, unless this is their thread.  A caller must not hold a lock that a warm-up takes
    (it would wait for ever)."""
    if threading.current_thread() is not _worker:
        _still_away(wait=True)
        _idle.wait()


def compile_elsewhere(warm_up: Callable[[], None]) -> None:
    """Run ``warm_up`` (a module-level function) in a process of its own, which compiles the
    kernels into the cache (or loads them), and return at once.  That process reads a pipe
    whose write end this process and those forked from it hold: it ends when they have all
    ended (a quit, Ctrl-C or a kill leaves nothing running; the next run compiles the rest).
    Meanwhile :func:`ready` is False here and in the processes forked from here; then each
    loads the kernels in a background thread.
    Nothing is done without Numba, nor twice for one ``warm_up``; where a pipe cannot be
    watched (not POSIX) or no process starts, it runs in a background thread instead."""
    if not COMPILED:
        return
    with _lock:
        if warm_up in _cached or any(away is warm_up for away, _, _ in _away):
            return
    if os.name != "posix":  # pragma: no cover - Sleuth's platforms are POSIX
        compile_in_background(warm_up)
        return
    end, held = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", ELSEWHERE, f"{warm_up.__module__}:{warm_up.__qualname__}"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env=os.environ.copy(), pass_fds=(held,),
        )  # fmt: skip
    except OSError:
        os.close(end)
        compile_in_background(warm_up)
        return
    finally:
        os.close(held)
    with _lock:
        _away.append((warm_up, end, process))


def _still_away(wait: bool) -> bool:
    """Whether a process of :func:`compile_elsewhere` still runs; with ``wait``, wait until
    none does.  Those seen to have ended are forgotten, their warm-ups queued here to load the
    kernels."""
    while True:
        with _lock:
            for away in list(_away):
                warm_up, end, process = away
                poller = select.poll()
                poller.register(end, select.POLLIN)
                if not poller.poll(0):
                    continue
                _away.remove(away)  # the write end closed: the process ended
                os.close(end)
                _cached.add(warm_up)
                if process is not None:
                    process.poll()  # reaped
                _queue(warm_up)
            if not (wait and _away):
                return bool(_away)
        time.sleep(AWAY_POLL)


def _forked() -> None:
    """In a process just forked: a lock of this module held by another thread of the parent
    would never be released, and the processes of :func:`compile_elsewhere` are the parent's
    (this one cannot reap them)."""
    global _lock
    _lock = threading.Lock()
    _away[:] = [(warm_up, end, None) for warm_up, end, _ in _away]


os.register_at_fork(after_in_child=_forked)


def compile_in_background(warm_up: Callable[[], None]) -> None:
    """Run ``warm_up`` (which calls kernels, so that they compile or load from the cache) in a
    background thread, after any queued before it, and return at once.  Without Numba,
    nothing is run.  A warm-up that fails only leaves its kernels to compile on first use.
    The thread does not keep the process alive: at its end the warm-ups left are dropped."""
    if not COMPILED:
        return
    warmed = _is_warmed(warm_up)
    with _lock:
        if warmed:
            _loading.add(warm_up)
        _queue(warm_up)


def _queue(warm_up: Callable[[], None]) -> None:
    """Queue ``warm_up`` for the background thread, started if none runs (``_lock`` held)."""
    global _worker
    _pending.append(warm_up)
    if _worker is not None:
        return
    _idle.clear()
    _worker = threading.Thread(target=_warm_all, name="sleuth-compile", daemon=True)
    _worker.start()


def _warm_all() -> None:
    """The background thread: run the queued warm-ups until none is left."""
    global _worker, _running
    while True:
        with _lock:
            if not _pending:
                _worker = _running = None
                _idle.set()
                return
            warm_up = _running = _pending.pop(0)
        try:
            warm_up()
        except Exception:  # its kernels compile on first use instead
            continue
        _mark_warmed(warm_up)


ELSEWHERE = """\
import importlib, os, sys, threading

def watch():
    sys.stdin.buffer.read()  # the end of file: every process of the command has ended
    os._exit(0)

threading.Thread(target=watch, daemon=True).start()
module, _, function = sys.argv[1].rpartition(":")
getattr(importlib.import_module(module), function)()
"""
"""The process of :func:`compile_elsewhere`: runs the warm-up named ``module:name``, and ends
at once when its standard input ends (Numba writes each cache file whole, by a rename)."""
