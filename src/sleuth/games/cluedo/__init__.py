"""Cluedo / Clue: find the suspect, weapon and room hidden in the envelope (3-6 players).

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.cluedo.spec`,
imported the first time ``SPEC`` is read.  The package imports nothing else, so that
``sleuth games`` reads the catalogue (:mod:`sleuth.games.cluedo.catalogue`) without the
engine.  The rules are on ``docs/cluedo.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleuth.games.cluedo.spec import SPEC as SPEC


def __getattr__(name: str) -> Any:
    if name == "SPEC":
        from sleuth.games.cluedo import spec

        return spec.SPEC
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
