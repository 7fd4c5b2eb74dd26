"""Scotland Yard: Mr. X moves in secret; the detectives, one side, try to land on him.

``SPEC`` registers the game with Sleuth; it is made in :mod:`sleuth.games.scotland_yard.spec`,
imported the first time ``SPEC`` (or ``SEARCH``) is read.  The package imports none of the
game's modules, so that ``sleuth games`` reads the catalogue
(:mod:`sleuth.games.scotland_yard.catalogue`) without the engine.  The board is the built-in
one unless ``-o map=FOLDER`` (or the ``SLEUTH_SCOTLAND_YARD_MAP`` variable) names another,
such as the classic London map (see ``docs/scotland-yard.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.core.registry import spec_on_first_use

if TYPE_CHECKING:
    from sleuth.games.scotland_yard.spec import SEARCH as SEARCH
    from sleuth.games.scotland_yard.spec import SPEC as SPEC


__getattr__ = spec_on_first_use(__name__, "SPEC", "SEARCH")
