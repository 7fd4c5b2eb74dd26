"""The Scotland Yard board the benchmarks use (not a benchmark itself): the classic map where
the tests look for it (beside the repository, ``../shared/data/scotland-yard``), else Sleuth's
own board."""

from __future__ import annotations

from pathlib import Path

from sleuth.core.registry import make_game
from sleuth.games.scotland_yard.rules import ScotlandYardGame

CLASSIC_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "scotland-yard"


def the_game() -> tuple[ScotlandYardGame, str]:
    """The classic-map game if the map is there, else the built-in board's; and its name."""
    if (CLASSIC_DIR / "edges.csv").exists():
        game = make_game("scotland-yard", {"map": str(CLASSIC_DIR)})
        name = "the classic map"
    else:
        game = make_game("scotland-yard", {})
        name = f"Sleuth's own board (the classic map is not at {CLASSIC_DIR})"
    assert isinstance(game, ScotlandYardGame)
    return game, name
