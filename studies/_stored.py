"""Playing a study's setting as a run stored in the study's database, shared by the study
scripts that top their settings up (Cluedo, Scotland Yard)."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import sleuth
from sleuth.arena import store
from sleuth.arena.tournament import Tournament, canonical_setup, run_tournament
from sleuth.core.match import DEFAULT_TIME_LIMIT


def play_stored(
    db: Path,
    game: str,
    bots: list[str],
    options: dict[str, Any],
    games: int,
    seed: int,
    workers: int | None,
    rotate: bool = True,
) -> Tournament:
    """Play ``games`` games from ``seed`` on as one run stored in ``db`` as it goes (its
    ``runs`` row first, then the games in batches, then how it ended).  A run a signal
    stopped is a SystemExit saying how many of its games were stored (the study resumes
    from them)."""
    board, canonical_bots = canonical_setup(game, bots, options)
    header = Tournament(
        uuid.uuid4().hex, game, board.options(), seed, tuple(canonical_bots),
        workers or os.cpu_count() or 1, requested=games,
    )  # fmt: skip
    store.begin(db, header, datetime.now(UTC), sleuth.__version__, DEFAULT_TIME_LIMIT)
    tournament = run_tournament(
        game,
        bots,
        games,
        seed,
        options,
        workers,
        on_rows=partial(store.add_games, db, header.run_id, game, board.options()),
        run_id=header.run_id,
        rotate=rotate,
    )
    store.end(db, tournament)
    if tournament.stopped_by:
        stored = len(tournament.rows)
        raise SystemExit(f"stopped by {tournament.stopped_by}: {stored} games stored")
    return tournament
