"""Compilation of hot loops with Numba.

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

Compiling on first use is announced by the callers (:mod:`sleuth.core.prepare`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from sleuth.core.compiling import DISABLE_VARIABLE as DISABLE_VARIABLE
from sleuth.core.compiling import numba_allowed

F = TypeVar("F", bound=Callable[..., Any])

try:
    if not numba_allowed():
        raise ImportError(f"{DISABLE_VARIABLE} is set")
    from numba import njit
except ImportError:  # pragma: no cover - exercised by a subprocess test
    COMPILED = False
else:
    COMPILED = True


def kernel(function: F) -> F:
    """Compile ``function`` with Numba when it can be imported; otherwise return it unchanged.
    The original stays available as the compiled function's ``py_func``."""
    if not COMPILED:
        return function
    try:
        return cast(F, njit(cache=True, nogil=True)(function))
    except RuntimeError:  # pragma: no cover - Numba found no writable cache folder
        return cast(F, njit(nogil=True)(function))
