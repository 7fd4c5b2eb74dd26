"""Shared helpers of the Scotland Yard tests: the classic map, read from outside the repository.

The classic map is not part of Sleuth; tests that need it skip (with the path they looked at)
when it is absent.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from sleuth.games.scotland_yard.board import Board, load_board

ROOT = Path(__file__).resolve().parents[3]
CLASSIC_DIR = ROOT.parent / "shared" / "data" / "scotland-yard"
"""Where the classic map is looked for: ``<repo>/../shared/data/scotland-yard``."""


@cache
def _classic() -> Board:
    return load_board(CLASSIC_DIR)


def classic_board() -> Board:
    """The classic map (loaded once), or a skip naming the folder when it is absent."""
    if not (CLASSIC_DIR / "edges.csv").exists():
        pytest.skip(
            f"classic Scotland Yard map not found at {CLASSIC_DIR}: "
            "it is not part of the repository (see docs/scotland-yard.md)"
        )
    return _classic()
