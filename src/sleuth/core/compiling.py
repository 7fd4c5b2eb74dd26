"""Whether Sleuth's kernels run compiled, known without importing Numba.

:mod:`sleuth.core.compiled` imports Numba (a second or so) only when a kernel first runs; what
only needs the answer — the move budgets that ``sleuth games`` lists, and
:data:`~sleuth.core.compiled.COMPILED` itself — asks :func:`kernels_compiled`, which looks for
Numba without importing it.
"""

from __future__ import annotations

import importlib.util
import os

DISABLE_VARIABLE = "SLEUTH_NO_NUMBA"
"""The environment variable that, set to anything but ``""`` or ``0``, turns Numba off."""


def numba_allowed() -> bool:
    """Whether :data:`DISABLE_VARIABLE` leaves Numba on."""
    return os.environ.get(DISABLE_VARIABLE, "") in ("", "0")


def kernels_compiled() -> bool:
    """Whether the kernels run compiled: Numba is allowed (:func:`numba_allowed`) and
    installed.  (A Numba installed but failing to import runs them as plain Python.)"""
    return numba_allowed() and importlib.util.find_spec("numba") is not None
