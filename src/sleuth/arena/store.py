"""The results store: one DuckDB file, one row per game (schema in docs/file-formats.md).

Tables:

``runs``   one row per tournament: ``run_id``, ``started_at``, ``game``, ``options`` (JSON),
           ``seed``, ``bots``, ``games`` (scheduled), ``workers``, ``seconds``,
           ``sleuth_version``, ``status`` (``running`` while it plays, ``finished``, or
           ``stopped`` when it ended early: ``sleuth play --resume`` continues it),
           ``time_limit`` (CPU seconds per move the user set; ``NULL`` for the default, 1 s raised
           to each bot's declared budget; ``inf`` for none), ``logs`` (the folder its game
           logs go to, absolute; ``NULL`` for none: ``--resume`` goes on writing there),
           ``rotate`` (whether seats rotate from game to game: false for a run whose bots keep
           their seats, such as ``compare --side``; ``NULL`` for runs stored before it, which
           count as rotating), ``league`` (true for a ``sleuth league`` run, whose ``bots``
           are the pool; ``NULL`` for other runs).
``games``  one row per game: ``run_id``, ``game_index``, ``game``, ``options`` (JSON), ``seed``,
           ``bots`` and ``roles`` (per seat), ``outcome``, ``returns``, ``wins`` (per seat),
           ``length`` (actions by players), ``duration`` (seconds), ``forfeits`` (JSON list of
           ``{seat, bot, step, reason}``), ``actions`` (every action's text, chance included:
           the game replays from its options, seed and actions), ``thinking`` (JSON list per
           seat of ``[moves, total CPU seconds, longest CPU seconds]``), ``winners`` (the winning
           sides; empty: nobody won), ``termination`` (why the game ended: ``caught``,
           ``race_over``, ``forfeit``, ...).
``ratings`` one row per bot of a league when it ends: ``run_id``, ``bot``, ``mu``, ``sigma``,
           ``ordinal`` (``mu - 3 sigma``), ``games`` (OpenSkill's Plackett-Luce model:
           :mod:`sleuth.arena.league`).  Files written before a column existed get it on
           first use (``NULL`` for their old rows).

A run being played is written as it goes: its ``runs`` row first (status ``running``), its
games in batches, each batch in one transaction, then its final status.  A game is stored at
most once per run (a batch skips the indices already there).  ``games`` and ``game_index``
are 32-bit: a run has at most :data:`~sleuth.arena.play.MAX_GAMES` games.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from sleuth.arena.play import GameRow
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.match import DEFAULT_TIME_LIMIT, DefaultLimit

if TYPE_CHECKING:
    from sleuth.arena.league import Rating
    from sleuth.arena.tournament import Tournament

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
ALTER TABLE runs ADD COLUMN IF NOT EXISTS status VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS time_limit DOUBLE;
ALTER TABLE games ADD COLUMN IF NOT EXISTS thinking JSON;
ALTER TABLE games ADD COLUMN IF NOT EXISTS winners VARCHAR[];
ALTER TABLE games ADD COLUMN IF NOT EXISTS termination VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS logs VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS rotate BOOLEAN;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS league BOOLEAN;
CREATE TABLE IF NOT EXISTS ratings (
    run_id VARCHAR, bot VARCHAR, mu DOUBLE, sigma DOUBLE, ordinal DOUBLE, games INTEGER
);
"""

_GAME_COLUMNS = (
    "run_id", "game_index", "game", "options", "seed", "bots", "roles", "outcome",
    "returns", "wins", "length", "duration", "forfeits", "actions", "thinking", "winners",
    "termination",
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


def save(
    path: Path,
    tournament: Tournament,
    started_at: datetime,
    sleuth_version: str,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> None:
    """Append a finished tournament and its games to the DuckDB file at ``path``."""
    begin(path, tournament, started_at, sleuth_version, time_limit)
    add_games(path, tournament.run_id, tournament.game, tournament.options, tournament.rows)
    end(path, tournament)


def begin(
    path: Path,
    tournament: Tournament,
    started_at: datetime,
    sleuth_version: str,
    time_limit: float | None,
    logs: Path | None = None,
    rotate: bool = True,
    league: bool = False,
) -> None:
    """Record a run about to be played (status ``running``, no games yet), with the folder
    its game logs go to (absolute), if any, for ``--resume`` to go on writing there, whether
    its seats rotate, and whether it is a league."""
    with _transaction(path) as con:
        con.execute(
            "INSERT INTO runs (run_id, started_at, game, options, seed, bots, games, workers, "
            "seconds, sleuth_version, status, time_limit, logs, rotate, league) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                tournament.run_id, started_at, tournament.game, _options(tournament.options),
                tournament.seed, list(tournament.bots), tournament.requested or
                len(tournament.rows), tournament.workers, 0.0, sleuth_version, "running",
                _limit(time_limit), None if logs is None else str(logs.absolute()), rotate,
                league,
            ],
        )  # fmt: skip


def record_logs(path: Path, run_id: str, logs: Path) -> None:
    """Record the folder a run's game logs go to from now on (absolute): a run that began
    without logs and was resumed with ``--logs`` goes on writing there."""
    with _transaction(path) as con:
        con.execute("UPDATE runs SET logs = ? WHERE run_id = ?", [str(logs.absolute()), run_id])


def add_games(
    path: Path, run_id: str, game: str, options: dict[str, JSON], rows: Sequence[GameRow]
) -> None:
    """Store finished games of a run in one transaction (indices already stored are skipped)."""
    if rows:
        with _transaction(path) as con:
            _insert_games(con, run_id, game, _options(options), rows)


def end(path: Path, tournament: Tournament, seconds_before: float = 0.0) -> None:
    """Record how a run ended: ``finished`` when every scheduled game is stored, else
    ``stopped``; its seconds are those of every session that played it."""
    status = "finished" if tournament.complete else "stopped"
    with _transaction(path) as con:
        con.execute(
            "UPDATE runs SET status = ?, seconds = ?, workers = ? WHERE run_id = ?",
            [status, seconds_before + tournament.seconds, tournament.workers, tournament.run_id],
        )


def save_ratings(path: Path, run_id: str, ratings: Sequence[Rating]) -> None:
    """Store a league's ratings, replacing any stored for the run before (a resumed league
    rates all its games again)."""
    with _transaction(path) as con:
        con.execute("DELETE FROM ratings WHERE run_id = ?", [run_id])
        con.executemany(
            "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
            [[run_id, r.bot, r.mu, r.sigma, r.ordinal, r.games] for r in ratings],
        )


@dataclass(frozen=True)
class StoredRun:
    """A run found in the store, with its finished games (ordered by index)."""

    run_id: str
    status: str
    seconds: float
    rows: list[GameRow]
    logs: Path | None
    """The folder the run's game logs went to when it began (None: it wrote none)."""


def find_run(
    path: Path,
    game: str,
    options: dict[str, JSON],
    seed: int,
    bots: Sequence[str],
    games: int,
    time_limit: float | None,
    rotate: bool = True,
    skip: Sequence[str] = (),
    league: bool = False,
) -> StoredRun:
    """The latest run of exactly this tournament (game, options, seed, bots, games, time
    limit, rotating seats or not, league or not) in ``path`` other than the runs ``skip``
    names, to resume it; a ``SleuthError`` says why there is none."""
    try:
        with connect(path) as con:
            con.execute(SCHEMA)
            found = con.execute(
                "SELECT run_id, coalesce(status, 'finished'), seconds, logs FROM runs "
                "WHERE game = ? AND options = ?::JSON AND seed = ? AND bots = ? AND games = ? "
                "AND time_limit IS NOT DISTINCT FROM ? AND coalesce(rotate, true) = ? "
                "AND coalesce(league, false) = ? "
                "AND NOT list_contains(?::VARCHAR[], run_id) ORDER BY started_at DESC LIMIT 1",
                [
                    game, _options(options), seed, list(bots), games, _limit(time_limit),
                    rotate, league, list(skip),
                ],
            ).fetchone()  # fmt: skip
            if found is None:
                raise SleuthError(
                    f"{path} holds no run of this tournament to resume (the same game, options, "
                    "seed, bots, number of games and time limit): run it without --resume"
                )
            run_id, status, seconds, logs = found
            rows = _load_games(con, run_id)
    except duckdb.Error as exc:
        raise SleuthError(f"cannot read results from {path}: {exc}") from None
    return StoredRun(run_id, status, seconds, rows, None if logs is None else Path(logs))


def _load_games(con: duckdb.DuckDBPyConnection, run_id: str) -> list[GameRow]:
    records = con.execute(
        "SELECT game_index, seed, bots, roles, outcome, returns, wins, length, duration, "
        "forfeits, actions, thinking, winners, termination FROM games WHERE run_id = ? "
        "ORDER BY game_index",
        [run_id],
    ).fetchall()
    return [
        GameRow(
            index=index, seed=seed, bots=tuple(bots), roles=tuple(roles), outcome=outcome,
            returns=tuple(returns), wins=tuple(wins), length=length, duration=duration,
            forfeits=json.loads(forfeits), actions=tuple(actions or ()),
            thinking=tuple(tuple(t) for t in json.loads(thinking)) if thinking else (),
            termination=termination, winners=None if winners is None else tuple(winners),
        )
        for (index, seed, bots, roles, outcome, returns, wins, length, duration, forfeits,
             actions, thinking, winners, termination) in records
    ]  # fmt: skip


def _limit(time_limit: float | None) -> float | None:
    """How a run's time limit is stored: the default (a :class:`DefaultLimit`) as ``NULL``, so
    that it never matches a limit the user chose, and no limit as infinity."""
    if isinstance(time_limit, DefaultLimit):
        return None
    return math.inf if time_limit is None else time_limit


def _options(options: dict[str, JSON]) -> str:
    return json.dumps(options, sort_keys=True)


@contextmanager
def _transaction(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """One transaction on ``path``; any database error becomes a ``SleuthError``."""
    try:
        with connect(path) as con:
            con.execute(SCHEMA)
            con.execute("BEGIN TRANSACTION")
            yield con
            con.execute("COMMIT")
    except duckdb.Error as exc:
        raise SleuthError(f"cannot store results in {path}: {exc}") from None


def _insert_games(
    con: duckdb.DuckDBPyConnection, run_id: str, game: str, options: str, rows: Sequence[GameRow]
) -> None:
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
        [json.dumps([list(t) for t in r.thinking]) for r in rows],
        [None if r.winners is None else list(r.winners) for r in rows],
        [r.termination for r in rows],
    ]
    selects = ", ".join(f"UNNEST(?) AS {name}" for name in _GAME_COLUMNS)
    names = ", ".join(_GAME_COLUMNS)
    con.execute(
        f"INSERT INTO games ({names}) SELECT * FROM (SELECT {selects}) AS new "
        "WHERE NOT EXISTS (SELECT 1 FROM games AS old "
        "WHERE old.run_id = new.run_id AND old.game_index = new.game_index)",
        columns,
    )
