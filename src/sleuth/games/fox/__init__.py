"""Fox in a Hole on any graph: rules, belief, solver, values and bots.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.fox.spec`, imported
the first time ``SPEC`` (or ``SEARCH``) is read.  The package imports nothing else, so that
``sleuth games`` reads the catalogue (:mod:`sleuth.games.fox.catalogue`) without the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleuth.games.fox.spec import SEARCH as SEARCH
    from sleuth.games.fox.spec import SPEC as SPEC


def __getattr__(name: str) -> Any:
    if name in ("SPEC", "SEARCH"):
        from sleuth.games.fox import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
