"""Optional compilation of hot loops with Numba (the ``fast`` extra).

:func:`kernel` compiles a function in ``nopython`` mode, its machine code cached on disk, when
Numba is installed, and returns it unchanged otherwise, so the same code runs as ordinary
Python (slowly, with identical results).  Numba caches a kernel by the file that defines it:
a kernel module should therefore define every constant its kernels read, not import them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import njit
except ImportError:  # pragma: no cover - exercised by a subprocess test
    COMPILED = False
else:
    COMPILED = True


def kernel(function: F) -> F:
    """Compile ``function`` with Numba when installed; otherwise return it unchanged.  The
    original stays available as the compiled function's ``py_func``."""
    if not COMPILED:
        return function
    try:
        return cast(F, njit(cache=True, nogil=True)(function))
    except RuntimeError:  # pragma: no cover - Numba found no writable cache folder
        return cast(F, njit(nogil=True)(function))
