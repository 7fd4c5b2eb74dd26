"""Camel Up: a camel race with leg bets, desert tiles and secret overall bets.

``SPEC`` registers the game with Sleuth and ``SEARCH`` is its world sampler; both are made in
:mod:`sleuth.games.camel_up.spec`, imported the first time one is read.  The package imports
none of the game's modules, so that ``sleuth games`` reads the catalogue
(:mod:`sleuth.games.camel_up.catalogue`) without the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.core.registry import spec_on_first_use

if TYPE_CHECKING:
    from sleuth.games.camel_up.spec import SEARCH as SEARCH
    from sleuth.games.camel_up.spec import SPEC as SPEC


__getattr__ = spec_on_first_use(__name__, "SPEC", "SEARCH")
