"""Where Sleuth keeps data it can rebuild (compiled tables such as Camel Up's race table).

:func:`cache_dir` is ``$SLEUTH_CACHE_DIR`` when that is set and not empty, otherwise the
platform's user cache folder for ``sleuth`` as platformdirs gives it (``$XDG_CACHE_HOME/sleuth``
or ``~/.cache/sleuth`` on Linux, ``~/Library/Caches/sleuth`` on macOS,
``%LOCALAPPDATA%\\sleuth\\Cache`` on Windows).  The folder is not created here: a writer
creates it when it saves something.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "SLEUTH_CACHE_DIR"
"""The environment variable that overrides the cache folder (tests and CI use it)."""


def cache_dir() -> Path:
    """The folder for Sleuth's cached files (see the module docstring)."""
    if folder := os.environ.get(ENV_VAR):
        return Path(folder)
    return Path(platformdirs.user_cache_dir("sleuth", appauthor=False))
