"""Whether Sleuth's kernels run compiled by Numba, known without importing Numba.

:mod:`sleuth.core.compiled` imports Numba (a second or so) to compile the kernels; what only
needs the answer — the move budgets that ``sleuth games`` lists — asks :func:`kernels_compiled`,
which reads :data:`~sleuth.core.compiled.COMPILED` once that module is imported and otherwise
looks for Numba without importing it.
"""

from __future__ import annotations

import importlib.util
import os
import sys

DISABLE_VARIABLE = "SLEUTH_NO_NUMBA"
"""The environment variable that, set to anything but ``""`` or ``0``, turns Numba off."""


def numba_allowed() -> bool:
    """Whether :data:`DISABLE_VARIABLE` leaves Numba on."""
    return os.environ.get(DISABLE_VARIABLE, "") in ("", "0")


def kernels_compiled() -> bool:
    """Whether the kernels run compiled: :data:`sleuth.core.compiled.COMPILED` once that module
    is imported; before, whether Numba is allowed and installed.  (The two differ only where
    Numba is installed but fails to import.)"""
    compiled = sys.modules.get("sleuth.core.compiled")
    if compiled is not None:
        return bool(compiled.COMPILED)
    return numba_allowed() and importlib.util.find_spec("numba") is not None
