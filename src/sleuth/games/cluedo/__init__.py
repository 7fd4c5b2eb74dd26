"""Cluedo / Clue: find the suspect, weapon and room hidden in the envelope (3-6 players).

``SPEC`` registers the game with Sleuth and ``SEARCH`` is its world sampler; both are made in
:mod:`sleuth.games.cluedo.spec`, imported the first time one is read.  The package imports
none of the game's modules, so that ``sleuth games`` reads the catalogue
(:mod:`sleuth.games.cluedo.catalogue`) without the engine.  The rules are on ``docs/cluedo.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.core.registry import spec_on_first_use

if TYPE_CHECKING:
    from sleuth.games.cluedo.spec import SEARCH as SEARCH
    from sleuth.games.cluedo.spec import SPEC as SPEC


__getattr__ = spec_on_first_use(__name__, "SPEC", "SEARCH")
