"""Fox in a Hole on any graph: rules, belief, solver, values and bots.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.fox.spec`, imported
the first time ``SPEC`` (or ``SEARCH``) is read.  The package imports none of the game's
modules, so that ``sleuth games`` reads the catalogue (:mod:`sleuth.games.fox.catalogue`)
without the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.core.registry import spec_on_first_use

if TYPE_CHECKING:
    from sleuth.games.fox.spec import SEARCH as SEARCH
    from sleuth.games.fox.spec import SPEC as SPEC


__getattr__ = spec_on_first_use(__name__, "SPEC", "SEARCH")
