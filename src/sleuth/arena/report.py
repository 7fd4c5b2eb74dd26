"""What ``sleuth report`` shows of each stored run, aggregated by DuckDB from the results store.

Per run (:class:`RunReport`): win rates with Wilson 95% intervals per bot and side, counted as
:meth:`Tournament.standings <sleuth.arena.tournament.Tournament.standings>` counts them (a game
once for each side a bot played in it, a side's win one win, a tie between k sides 1/k), so
that the report of a run equals the table ``sleuth play`` printed for it; per bot over all its
sides (the sum of its side rows); per bot and seat (each seat it held counted, its own win
share); the distribution of game lengths (actions by players); CPU time per move per bot and
side (from ``games.thinking``); and a league's ratings as stored.

Which side a seat reports under comes from the game itself
(:func:`~sleuth.arena.tournament.reported_sides`): it is read once per run, into a temporary
table of seats, and SQL does the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from sleuth.arena.league import Rating
from sleuth.arena.play import game_of
from sleuth.arena.store import SCHEMA, connect
from sleuth.arena.tournament import Standing, reported_sides
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.outcome import side_seats


@dataclass(frozen=True)
class SeatStanding:
    """A bot in one seat: its games there, its win shares there (as the ``wins`` column
    holds them), and its moves and thinking time there."""

    seat: int
    standing: Standing
    """``standing.side`` and ``standing.role`` are the seat's."""


@dataclass(frozen=True)
class Lengths:
    """The lengths of a run's games: ``counts`` maps each length to its number of games."""

    counts: dict[int, int]
    mean: float
    quartiles: tuple[float, float, float]


@dataclass(frozen=True)
class RunReport:
    """One stored run and its figures (the rows of each table in the order ``sleuth play``
    prints them: bots as the run names them, sides in seat order)."""

    run_id: str
    game: str
    options: dict[str, JSON]
    seed: int
    bots: tuple[str, ...]
    started_at: datetime
    status: str
    league: bool
    games: int
    """Finished games stored (the run may have scheduled more: see ``status``)."""
    by_bot: list[Standing]
    """Per bot over every side it played (``side`` is ``"all"``, ``role`` its roles)."""
    by_side: list[Standing]
    by_seat: list[SeatStanding]
    lengths: Lengths
    ratings: list[Rating]
    """A league's ratings, best ``mu - 3 sigma`` first (empty for other runs)."""


_SEATS = """
CREATE TEMP TABLE seat_sides (
    run_id VARCHAR, seat INTEGER, side VARCHAR, role VARCHAR, team_role VARCHAR, team INTEGER
)
"""
"""Each seat of each run in the report: its reported side, its own role, the roles of its
side (``a/b`` for a side of several roles) and the index of its side (its team)."""

_PER_SEAT = """
CREATE TEMP TABLE seat_games AS
SELECT g.run_id, g.game_index, g.length, s.seat, s.side, s.role, s.team_role, s.team,
       g.bots[s.seat + 1] AS bot, g.wins[s.seat + 1] AS win,
       coalesce(t[s.seat + 1][1], 0)::BIGINT AS moves, coalesce(t[s.seat + 1][2], 0) AS seconds,
       coalesce(t[s.seat + 1][3], 0) AS longest,
       list_contains(json_extract(g.forfeits, '$[*].seat')::INTEGER[], s.seat) AS forfeited
FROM (SELECT *, thinking::DOUBLE[][] AS t FROM games) AS g
JOIN seat_sides AS s ON s.run_id = g.run_id AND s.seat < len(g.bots)
"""
"""One row per seat of every game of the runs in the report."""

_PER_SIDE_GAME = """
CREATE TEMP TABLE side_games AS
SELECT run_id, game_index, any_value(length) AS length, team, bot, any_value(side) AS side,
       any_value(team_role) AS role, max(win) AS win, sum(moves) AS moves,
       sum(seconds) AS seconds, max(longest) AS longest, bool_or(forfeited) AS forfeited,
       min(seat) AS seat
FROM seat_games GROUP BY run_id, game_index, team, bot
"""
"""A bot on one side of one game, once however many of the side's seats it held."""

_TALLY = """
count(*) AS games, sum(win) AS wins, avg(length) AS mean_length, sum(moves) AS moves,
sum(seconds) AS seconds, max(longest) AS longest, count_if(forfeited) AS forfeits
"""


def read_report(path: Path, runs: Sequence[str] = ()) -> list[RunReport]:
    """The report of each run of the results file ``path`` that ``runs`` names (ids or
    unambiguous prefixes of them; none: every run), oldest first.

    A missing file, a file that is not a results store, an unknown or ambiguous run id are
    ``SleuthError``\\ s naming it; a store written before a column existed is brought up to
    date first (as :func:`sleuth.arena.store.find_run` does)."""
    if not path.is_file():
        raise SleuthError(f"no results file at {path}")
    try:
        with connect(path) as con:
            con.execute(SCHEMA)
            chosen = _chosen_runs(con, path, runs)
            _seat_tables(con, chosen)
            return [_run_report(con, run) for run in chosen]
    except duckdb.Error as exc:
        raise SleuthError(f"cannot read results from {path}: {exc}") from None


def _chosen_runs(
    con: duckdb.DuckDBPyConnection, path: Path, wanted: Sequence[str]
) -> list[tuple[Any, ...]]:
    rows = con.execute(
        "SELECT run_id, game, options, seed, bots, started_at, coalesce(status, 'finished'), "
        "coalesce(league, false) FROM runs ORDER BY started_at, run_id"
    ).fetchall()
    if not rows:
        raise SleuthError(f"{path} holds no runs")
    if not wanted:
        return rows
    chosen: dict[str, tuple[Any, ...]] = {}
    for prefix in wanted:
        found = [row for row in rows if str(row[0]).startswith(prefix)]
        if not found:
            known = ", ".join(str(row[0])[:8] for row in rows[-5:])
            raise SleuthError(f"{path} holds no run {prefix!r} (its latest runs: {known})")
        if len(found) > 1:
            ids = ", ".join(str(row[0]) for row in found)
            raise SleuthError(f"run {prefix!r} is ambiguous in {path}: it starts {ids}")
        chosen[str(found[0][0])] = found[0]
    return sorted(chosen.values(), key=lambda row: (row[5], row[0]))


def _seat_tables(con: duckdb.DuckDBPyConnection, runs: Sequence[tuple[Any, ...]]) -> None:
    """Fill ``seat_sides`` from each run's game (its sides, roles and reported sides), then
    ``seat_games`` and ``side_games``."""
    rows = []
    for run_id, name, options, *_ in runs:
        try:
            game = game_of(str(name), json.loads(str(options)))
        except SleuthError as exc:
            raise SleuthError(f"run {str(run_id)[:8]} ({name}): {exc}") from None
        reported, roles = reported_sides(game), game.roles
        for team, seats in enumerate(side_seats(game.sides()).values()):
            team_role = "/".join(dict.fromkeys(roles[s] for s in seats))
            rows += [[run_id, s, reported[s], roles[s], team_role, team] for s in seats]
    con.execute(_SEATS)
    con.executemany("INSERT INTO seat_sides VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.execute(_PER_SEAT)
    con.execute(_PER_SIDE_GAME)


def _run_report(con: duckdb.DuckDBPyConnection, run: tuple[Any, ...]) -> RunReport:
    run_id, game, options, seed, bots, started_at, status, league = run
    assert isinstance(bots, list) and isinstance(started_at, datetime)
    order = "list_position(?::VARCHAR[], bot)"
    by_side = con.execute(
        f"SELECT bot, side, any_value(role), {_TALLY} FROM side_games "
        f"WHERE run_id = ? GROUP BY bot, side ORDER BY {order}, min(seat)",
        [run_id, bots],
    ).fetchall()
    by_bot = con.execute(
        f"SELECT bot, 'all', string_agg(DISTINCT role, '/' ORDER BY role), {_TALLY} "
        f"FROM side_games WHERE run_id = ? GROUP BY bot ORDER BY {order}",
        [run_id, bots],
    ).fetchall()
    by_seat = con.execute(
        f"SELECT seat, bot, any_value(side), any_value(role), {_TALLY} FROM seat_games "
        f"WHERE run_id = ? GROUP BY seat, bot ORDER BY seat, {order}",
        [run_id, bots],
    ).fetchall()
    counts = con.execute(
        "SELECT length, count(*) FROM games WHERE run_id = ? GROUP BY length ORDER BY length",
        [run_id],
    ).fetchall()
    mean, quartiles = con.execute(
        "SELECT avg(length), quantile_cont(length, [0.25, 0.5, 0.75]) FROM games WHERE run_id = ?",
        [run_id],
    ).fetchone() or (None, None)
    ratings = con.execute(
        "SELECT bot, mu, sigma, games FROM ratings WHERE run_id = ? "
        "ORDER BY mu - 3 * sigma DESC, bot",
        [run_id],
    ).fetchall()
    return RunReport(
        run_id=str(run_id),
        game=str(game),
        options=json.loads(str(options)),
        seed=int(seed),
        bots=tuple(bots),
        started_at=started_at,
        status=str(status),
        league=bool(league),
        games=sum(n for _, n in counts),
        by_bot=[_standing(row) for row in by_bot],
        by_side=[_standing(row) for row in by_side],
        by_seat=[SeatStanding(row[0], _standing(row[1:])) for row in by_seat],
        lengths=Lengths(
            dict(counts), mean or 0.0, tuple(quartiles) if quartiles else (0.0, 0.0, 0.0)
        ),
        ratings=[Rating(*row) for row in ratings],
    )


def _standing(row: tuple[Any, ...]) -> Standing:
    bot, side, role, games, wins, mean_length, moves, seconds, longest, forfeits = row
    return Standing(
        str(bot), str(side), str(role), int(games), float(wins), float(mean_length),
        int(moves), float(seconds), float(longest), int(forfeits),
    )  # fmt: skip
