"""The fugitive board as one seat sees it (SVG)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import View
from sleuth.core.game import Game


def svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The board from ``view`` alone."""
    return ""
