"""A tournament's games depend on its seed alone, not on the machine's load.

The same tournaments (every game, bots that draw random numbers and the search bots at their
defaults) are played alone with one worker, then beside four processes that keep every core
busy with one worker and with two: every game log must be the same, byte for byte, and no bot
may forfeit.  Search bots used to stop after half a second of wall-clock time and the
per-move limit counted wall-clock time, so a busy machine played other games (and forfeited
bots that had done nothing wrong)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sleuth.arena.tournament import run_tournament

CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("fox", ["ismcts", "random"], {}),
    ("fox", ["dmcts", "solver"], {}),
    ("fugitive", ["random", "ismcts"], {"max_rounds": 3}),
    ("scotland-yard", ["heuristic", "ismcts"], {"max_rounds": 1}),
    (
        "camel-up",
        ["random", "ev:rollouts=200", "strong:rollouts=200"],
        {"edition": 2, "turn_cap": 40},
    ),
    ("cluedo", ["random", "logic", "velma:hypotheses=3000"], {"max_turns": 12}),
]
"""Each game, with bots that use randomness and search bots at their defaults (Fugitive's
``ismcts`` is the one the issue saw play another game under load), cut short."""
GAMES = 2
SEED = 11
BUSY = 4


@contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """``count`` processes that compute for as long as the block runs."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()


def play_all(folder: Path, workers: int) -> dict[str, bytes]:
    """Play every case into ``folder``; the logs by name.  No bot may forfeit."""
    for number, (game, bots, options) in enumerate(CASES):
        logs = folder / f"{number}-{game}"
        logs.mkdir(parents=True)
        tournament = run_tournament(game, bots, GAMES, SEED, options, workers, logs)
        assert len(tournament.rows) == GAMES
        assert [row.forfeits for row in tournament.rows] == [[]] * GAMES, game
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*.jsonl")
    }


@pytest.mark.slow
def test_the_same_seed_plays_the_same_games_on_an_idle_and_a_busy_machine(
    tmp_path: Path,
) -> None:
    alone = play_all(tmp_path / "alone", workers=1)
    assert len(alone) == len(CASES) * GAMES
    with busy_processes(BUSY):
        for workers in (1, 2):
            loaded = play_all(tmp_path / f"busy-{workers}", workers)
            different = sorted(name for name in alone if loaded.get(name) != alone[name])
            assert not different, f"under load, with {workers} worker(s)"
