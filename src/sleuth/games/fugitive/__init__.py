"""Fugitive (Tim Fowers): the Fugitive lays a route of hideouts, the Marshal hunts it down.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.fugitive.spec`, imported
the first time ``SPEC`` (or ``SEARCH``) is read.  The package imports nothing else, so that
``sleuth games`` reads the catalogue (:mod:`sleuth.games.fugitive.catalogue`) without the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleuth.games.fugitive.spec import SEARCH as SEARCH
    from sleuth.games.fugitive.spec import SPEC as SPEC


def __getattr__(name: str) -> Any:
    if name in ("SPEC", "SEARCH"):
        from sleuth.games.fugitive import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
