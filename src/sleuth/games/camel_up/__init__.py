"""Camel Up: a camel race with leg bets, desert tiles and secret overall bets.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.camel_up.spec`,
imported the first time ``SPEC`` is read.  The package imports nothing else, so that
``sleuth games`` reads the catalogue (:mod:`sleuth.games.camel_up.catalogue`) without the
engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleuth.games.camel_up.spec import SPEC as SPEC


def __getattr__(name: str) -> Any:
    if name == "SPEC":
        from sleuth.games.camel_up import spec

        return spec.SPEC
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
