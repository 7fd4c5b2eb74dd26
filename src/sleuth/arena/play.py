"""One game of a tournament, played in whatever process runs it, and its result row."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import is_
from pathlib import Path
from typing import Any

from sleuth.core.bots import BotSpec
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.log import write_log
from sleuth.core.match import DefaultLimit, MatchRecord, MatchRunner, play_many
from sleuth.core.registry import game_spec

Job = tuple[int, int, tuple[str, ...]]
"""``(index, seed, seating)`` of one scheduled game."""

MAX_GAMES = 2**31 - 1
"""The most games a run may have: the results store keeps a run's game count and each game's
index as 32-bit integers (``runs.games``, ``games.game_index``: :mod:`sleuth.arena.store`)."""


def check_games(games: int) -> int:
    """``games`` if a run may have that many games (1 to :data:`MAX_GAMES`), else a
    ``SleuthError`` naming the bound and the number."""
    if games < 1:
        raise SleuthError(f"the number of games must be at least 1, got {games}")
    if games > MAX_GAMES:
        raise SleuthError(
            f"the number of games must be at most {MAX_GAMES:,} (the results store counts a "
            f"run's games in 32 bits), got {games}"
        )
    return games


@dataclass(frozen=True)
class GameRow:
    """The result of one game of a tournament (one row of the ``games`` table)."""

    index: int
    seed: int
    bots: tuple[str, ...]
    roles: tuple[str, ...]
    outcome: str
    returns: tuple[float, ...]
    wins: tuple[float, ...]
    length: int
    duration: float
    forfeits: list[dict[str, JSON]]
    actions: tuple[str, ...] = ()
    """Every action in order, chance outcomes included, as text: the game replays from them."""
    thinking: tuple[tuple[int, float, float], ...] = ()
    """Per seat: moves its bot was asked for, their total and their longest CPU time (seconds)."""
    termination: str | None = None
    """Why the game ended (:attr:`~sleuth.core.outcome.Outcome.termination`); None for a game
    stored before the structured outcome existed."""
    winners: tuple[str, ...] | None = None
    """The winning sides (empty: no winner); None for a game stored before they were."""


_GAMES: dict[tuple[str, str], Game[Any]] = {}


@dataclass(frozen=True)
class _Kept:
    """A kept match runner and the game's bots it was made from (held, so their ids stay
    theirs)."""

    bots: tuple[BotSpec, ...]
    runner: MatchRunner


def game_of(name: str, options: dict[str, JSON]) -> Game[Any]:
    """The game ``name`` with canonical ``options`` (built once per process)."""
    key = (name, repr(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = game_spec(name).make(options, canonical=True)
    return _GAMES[key]


_RUNNERS: dict[tuple[str, str, tuple[str, ...], float | None, bool], _Kept] = {}
RUNNERS_KEPT = 256
"""The most match runners a process keeps (a run has one per seating)."""


def runner_of(
    name: str, options: dict[str, JSON], seating: tuple[str, ...], time_limit: float | None
) -> MatchRunner:
    """The match runner of a seating of ``name`` with canonical ``options`` under
    ``time_limit``, made once per process (its fixed work is not each game's), and made again
    if the game's bots are no longer the same objects (a spec registered anew)."""
    key = (name, repr(sorted(options.items())), seating, time_limit,
           isinstance(time_limit, DefaultLimit))  # fmt: skip
    spec = game_spec(name)
    kept = _RUNNERS.get(key)
    if kept is None or len(kept.bots) != len(spec.bots) or not all(map(is_, kept.bots, spec.bots)):
        if len(_RUNNERS) >= RUNNERS_KEPT:
            _RUNNERS.clear()
        runner = MatchRunner(game_of(name, options), [spec.bot(b) for b in seating], time_limit)
        kept = _RUNNERS[key] = _Kept(spec.bots, runner)
    return kept.runner


IN_FLIGHT = 32
"""The most games a worker plays at once (:func:`play_games`): enough that a bot process of
protocol version 2 answers the decisions of many games per exchange (the exchange's cost, two
context switches, is each decision's share), few enough that every game's views and bots fit
in memory."""


def play_game(
    name: str, options: dict[str, JSON], job: Job, logs: str | None, time_limit: float | None
) -> GameRow:
    """Play one scheduled game in this process; write its log to ``logs`` if given.

    The log appears whole or not at all: it is written aside (``.game-NNNNNN.jsonl.PID.part``)
    and renamed, and the tournament removes what a killed worker left aside, so a stopped run
    leaves no truncated log behind."""
    _, seed, seating = job
    runner = runner_of(name, options, seating, time_limit)
    return game_row(job, runner.play(seed), logs)


def play_games(
    name: str,
    options: dict[str, JSON],
    jobs: Sequence[Job],
    logs: str | None,
    time_limit: float | None,
) -> Iterator[GameRow]:
    """Play ``jobs`` in this process, up to :data:`IN_FLIGHT` at once
    (:func:`~sleuth.core.match.play_many`: the decisions of bot processes of protocol version
    2 asked together), yielding each game's row as it ends; each row is :func:`play_game`'s
    for the same job but for the measured times."""
    runners = [runner_of(name, options, job[2], time_limit) for job in jobs]
    matches = ((runner, job[1]) for runner, job in zip(runners, jobs, strict=True))
    for position, record in play_many(matches, IN_FLIGHT):
        yield game_row(jobs[position], record, logs)


def game_row(job: Job, record: MatchRecord, logs: str | None) -> GameRow:
    """The row of ``job``'s played ``record``, its log written to ``logs`` if given (see
    :func:`play_game`)."""
    index, seed, seating = job
    game = record.game
    if logs is not None:
        path = Path(logs) / f"game-{index:06d}.jsonl"
        partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        write_log(record, partial)
        partial.replace(path)
    result = record.result
    assert result is not None
    return GameRow(
        index=index,
        seed=seed,
        bots=seating,
        roles=game.roles,
        outcome=result.text,
        returns=result.returns,
        wins=result.wins,
        length=record.length,
        duration=record.duration,
        forfeits=[
            {"seat": f.seat, "bot": f.bot, "step": f.step, "reason": f.reason}
            for f in record.forfeits
        ],
        actions=tuple(sys.intern(str(step.action)) for step in record.steps),
        thinking=tuple((len(t), sum(t), max(t, default=0.0)) for t in record.thinking),
        termination=result.termination,
        winners=result.winners,
    )
