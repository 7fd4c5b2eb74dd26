"""The results store: one DuckDB file, one row per game (schema in docs/file-formats.md).

Tables:

``runs``   one row per tournament: ``run_id``, ``started_at``, ``game``, ``options`` (JSON),
           ``seed``, ``bots``, ``games``, ``workers``, ``seconds``, ``sleuth_version``.
``games``  one row per game: ``run_id``, ``game_index``, ``game``, ``options`` (JSON), ``seed``,
           ``bots`` and ``roles`` (per seat), ``outcome``, ``returns``, ``wins`` (per seat),
           ``length`` (actions by players), ``duration`` (seconds), ``forfeits`` (JSON list of
           ``{seat, bot, step, reason}``), ``actions`` (every action's text, chance included:
           the game replays from its options, seed and actions).  Files written before the
           ``actions`` column existed get it on first use (empty for their old games).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from sleuth.core.errors import SleuthError

if TYPE_CHECKING:
    from sleuth.arena.tournament import GameRow, Tournament

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY, started_at TIMESTAMP, game VARCHAR, options JSON,
    seed BIGINT, bots VARCHAR[], games INTEGER, workers INTEGER, seconds DOUBLE,
    sleuth_version VARCHAR
);
CREATE TABLE IF NOT EXISTS games (
    run_id VARCHAR, game_index INTEGER, game VARCHAR, options JSON, seed BIGINT,
    bots VARCHAR[], roles VARCHAR[], outcome VARCHAR, returns DOUBLE[], wins DOUBLE[],
    length INTEGER, duration DOUBLE, forfeits JSON, actions VARCHAR[]
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS actions VARCHAR[];
"""

_GAME_COLUMNS = (
    "run_id", "game_index", "game", "options", "seed", "bots", "roles", "outcome",
    "returns", "wins", "length", "duration", "forfeits", "actions",
)  # fmt: skip


def connect(path: Path) -> duckdb.DuckDBPyConnection:
    """A connection to the DuckDB file at ``path``.  DuckDB opens some files that are not
    databases (an existing JSON file, for one) as an empty in-memory database, where results
    would be lost without a word: those are refused."""
    con = duckdb.connect(str(path))
    row = con.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchone()
    if row is None or row[0] is None:
        con.close()
        raise duckdb.IOException("not a DuckDB database file")
    return con


def prepare(path: Path) -> None:
    """Create the tables in ``path`` if needed: a bad path fails before any game is played."""
    try:
        with connect(path) as con:
            con.execute(SCHEMA)
    except duckdb.Error as exc:
        raise SleuthError(f"cannot store results in {path}: {exc}") from None


def save(path: Path, tournament: Tournament, started_at: datetime, sleuth_version: str) -> None:
    """Append a finished tournament and its games to the DuckDB file at ``path``."""
    options = json.dumps(tournament.options, sort_keys=True)
    try:
        with connect(path) as con:
            con.execute(SCHEMA)
            con.execute("BEGIN TRANSACTION")
            con.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    tournament.run_id, started_at, tournament.game, options, tournament.seed,
                    list(tournament.bots), len(tournament.rows), tournament.workers,
                    tournament.seconds, sleuth_version,
                ],
            )  # fmt: skip
            _insert_games(con, tournament.run_id, tournament.game, options, tournament.rows)
            con.execute("COMMIT")
    except duckdb.Error as exc:
        raise SleuthError(f"cannot store results in {path}: {exc}") from None


def _insert_games(
    con: duckdb.DuckDBPyConnection, run_id: str, game: str, options: str, rows: Sequence[GameRow]
) -> None:
    if not rows:
        return
    columns = [
        [run_id] * len(rows),
        [r.index for r in rows],
        [game] * len(rows),
        [options] * len(rows),
        [r.seed for r in rows],
        [list(r.bots) for r in rows],
        [list(r.roles) for r in rows],
        [r.outcome for r in rows],
        [list(r.returns) for r in rows],
        [list(r.wins) for r in rows],
        [r.length for r in rows],
        [r.duration for r in rows],
        [json.dumps(r.forfeits) for r in rows],
        [list(r.actions) for r in rows],
    ]
    selects = ", ".join(f"UNNEST(?) AS {name}" for name in _GAME_COLUMNS)
    names = ", ".join(_GAME_COLUMNS)
    con.execute(f"INSERT INTO games ({names}) SELECT * FROM (SELECT {selects})", columns)
