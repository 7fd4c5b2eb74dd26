"""Fugitive (Tim Fowers): the Fugitive lays a route of hideouts, the Marshal hunts it down.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.fugitive.spec`,
imported the first time ``SPEC`` (or ``SEARCH``) is read.  The package imports none of the
game's modules, so that ``sleuth games`` reads the catalogue
(:mod:`sleuth.games.fugitive.catalogue`) without the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.core.registry import spec_on_first_use

if TYPE_CHECKING:
    from sleuth.games.fugitive.spec import SEARCH as SEARCH
    from sleuth.games.fugitive.spec import SPEC as SPEC


__getattr__ = spec_on_first_use(__name__, "SPEC", "SEARCH")
