"""Tournaments between named bots.

Scheduling: ``bots[j]`` is the bot of seat ``j`` in the base seating; the cyclic rotations of
that seating in which every bot can play its seat's role are the *valid seatings*, and game
``i`` uses valid seating ``i mod len(valid)`` (so every bot plays every seat equally often when
``games`` is a multiple of the number of valid seatings).  Game ``i`` uses the seed
``derive_seed(seed, "game", i)``, so results do not depend on the number of workers.

Backends: in-process for one worker, worker processes otherwise (all cores by default), see
:mod:`sleuth.arena.processes`.  Finished games are handed to ``on_rows`` in batches as they
finish, and Ctrl-C or SIGTERM stop a run early without losing any of them
(:mod:`sleuth.arena.stopping`); a stopped run resumes from its finished games.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleuth.arena.play import GameRow, Job, play_game
from sleuth.arena.processes import play_in_processes
from sleuth.arena.stats import wilson_interval
from sleuth.arena.stopping import GameAbandoned, StopRequest, stop_signals
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.match import DEFAULT_TIME_LIMIT
from sleuth.core.registry import game_spec
from sleuth.core.rng import derive_seed

__all__ = ["GameRow", "Standing", "Tournament", "run_tournament", "schedule", "valid_seatings"]


@dataclass(frozen=True)
class Standing:
    """One bot in one role: games played, wins (ties fractional), and derived rates."""

    bot: str
    role: str
    games: int
    wins: float
    mean_length: float
    moves: int = 0
    thinking: float = 0.0
    """Total seconds over ``moves`` moves."""
    longest: float = 0.0
    """The longest move, in seconds."""
    forfeits: int = 0
    """Games this bot lost by forfeit in this role (a crash, an illegal move, overtime)."""

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.thinking / self.moves if self.moves else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class Tournament:
    """A finished tournament: its parameters and one row per game (ordered by index)."""

    run_id: str
    game: str
    options: dict[str, JSON]
    seed: int
    bots: tuple[str, ...]
    workers: int
    rows: list[GameRow] = field(default_factory=list)
    seconds: float = 0.0
    requested: int = 0
    """Games scheduled; fewer are in ``rows`` when the run was stopped or a worker died."""
    stopped_by: str | None = None
    """``"Ctrl-C"`` or ``"SIGTERM"`` when a signal stopped the run early."""
    exit_code: int = 0
    """The shell's code for the signal that stopped the run (130 for Ctrl-C), else 0."""
    lost: list[str] = field(default_factory=list)
    """One line per worker process that died unexpectedly, losing its unfinished games."""

    @property
    def complete(self) -> bool:
        """Every scheduled game was played."""
        return len(self.rows) == self.requested

    def standings(self) -> list[Standing]:
        """Per bot and role, in the order the bots were named and roles are seated."""
        tally: dict[tuple[str, str], list[float]] = {}
        for row in self.rows:
            thinking = row.thinking or ((0, 0.0, 0.0),) * len(row.bots)
            forfeited = {f["seat"] for f in row.forfeits}
            for seat, (bot, role, win, (moves, total, longest)) in enumerate(
                zip(row.bots, row.roles, row.wins, thinking, strict=False)
            ):
                entry = tally.setdefault((bot, role), [0, 0.0, 0, 0, 0.0, 0.0, 0])
                entry[0] += 1
                entry[1] += win
                entry[2] += row.length
                entry[3] += moves
                entry[4] += total
                entry[5] = max(entry[5], longest)
                entry[6] += seat in forfeited
        roles = game_spec(self.game).roles
        order = {name: i for i, name in reversed(list(enumerate(self.bots)))}
        keys = sorted(
            tally, key=lambda k: (order[k[0]], roles.index(k[1]) if k[1] in roles else 99)
        )
        return [
            Standing(
                bot, role, int(games), wins, length / games, int(moves), total, longest, int(lost)
            )
            for bot, role in keys
            for games, wins, length, moves, total, longest, lost in [tally[bot, role]]
        ]

    @property
    def mean_length(self) -> float:
        return sum(r.length for r in self.rows) / len(self.rows) if self.rows else 0.0

    @property
    def forfeits(self) -> int:
        return sum(len(r.forfeits) for r in self.rows)

    def summary(self) -> dict[str, JSON]:
        """The JSON object printed by ``sleuth play --json``."""
        return {
            "game": self.game,
            "games": len(self.rows),
            "seed": self.seed,
            "bots": list(self.bots),
            "results": [
                {
                    "bot": s.bot,
                    "role": s.role,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "ci95": list(s.ci95),
                    "forfeits": s.forfeits,
                }
                for s in self.standings()
            ],
            "mean_length": self.mean_length,
            "forfeits": self.forfeits,
            "seconds": self.seconds,
            "thinking": [
                {
                    "bot": s.bot,
                    "role": s.role,
                    "moves": s.moves,
                    "ms_per_move": s.ms_per_move,
                    "max_ms": 1000 * s.longest,
                }
                for s in self.standings()
            ],
        }


def valid_rotations(game: Game[Any], bots: Sequence[str]) -> list[int]:
    """The shifts ``s`` (seat ``j`` gets ``bots[(j - s) % n]``, so ``bots[0]`` sits in seat
    ``s``) in which every bot can play its seat's role, in increasing order."""
    spec = game_spec(game.name)
    if len(bots) != game.num_players:
        raise SleuthError(
            f"{game.name} has {game.num_players} seats ({', '.join(game.roles)}); "
            f"got {len(bots)} bots"
        )
    specs = {name: spec.bot(name) for name in bots}
    n = len(bots)
    shifts = [
        shift
        for shift in range(n)
        if all(game.roles[seat] in specs[bots[(seat - shift) % n]].roles for seat in range(n))
    ]
    if not shifts:
        problems = "; ".join(f"{b} plays {'/'.join(specs[b].roles)}" for b in dict.fromkeys(bots))
        raise SleuthError(
            f"no seating of {', '.join(bots)} fits the roles {', '.join(game.roles)} ({problems})"
        )
    return shifts


def valid_seatings(game: Game[Any], bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The cyclic rotations of ``bots`` in which every bot can play its seat's role."""
    n = len(bots)
    return [
        tuple(bots[(seat - shift) % n] for seat in range(n))
        for shift in valid_rotations(game, bots)
    ]


def schedule(game: Game[Any], bots: Sequence[str], games: int, seed: int) -> list[Job]:
    """``(index, seed, seating)`` for each game of the tournament."""
    seatings = valid_seatings(game, bots)
    return [(i, derive_seed(seed, "game", i), seatings[i % len(seatings)]) for i in range(games)]


BATCH_SECONDS = 1.0
"""Finished games are handed to ``on_rows`` at least this often (and when the run ends)."""
BATCH_ROWS = 2000
"""... or as soon as this many are waiting."""


class _Batches:
    """Collects finished rows and hands them to ``on_rows`` in batches."""

    def __init__(self, on_rows: Callable[[list[GameRow]], None] | None) -> None:
        self.on_rows = on_rows
        self.waiting: list[GameRow] = []
        self.since = time.monotonic()

    def add(self, row: GameRow) -> None:
        self.waiting.append(row)
        if len(self.waiting) >= BATCH_ROWS or time.monotonic() - self.since >= BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.waiting and self.on_rows is not None:
            self.on_rows(self.waiting)
        self.waiting = []
        self.since = time.monotonic()


def _prepare_logs(logs: Path, resuming: bool) -> None:
    try:
        logs.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SleuthError(f"cannot write logs to {logs}: {exc.strerror or exc}") from None
    taken = sorted(p.name for p in logs.glob("game-*.jsonl"))
    if taken and not resuming:
        raise SleuthError(
            f"{logs} already holds game logs ({taken[0]}, ...): choose an empty folder, "
            "so that no earlier log is replaced"
        )


def _warm_up(name: str, bots: Sequence[str], stop: StopRequest) -> None:
    """Load what the bots' first moves would wait for (compiled code) here, once, not in every
    worker (workers fork from this process); a stop request abandons it."""
    try:
        stop.playing = True
        for bot in dict.fromkeys(bots):
            game_spec(name).bot(bot).warm()
    except GameAbandoned:
        pass
    finally:
        stop.playing = False


def _play_inline(
    name: str,
    options: dict[str, JSON],
    jobs: Sequence[Job],
    logs: str | None,
    time_limit: float | None,
    stop: StopRequest,
    accept: Callable[[GameRow], None],
) -> None:
    """Play ``jobs`` in this process; a stop request abandons the game in flight."""
    try:
        for job in jobs:
            if stop.requested:
                return
            stop.playing = True
            row = play_game(name, options, job, logs, time_limit)
            stop.playing = False
            accept(row)
    except GameAbandoned:
        pass
    finally:
        stop.playing = False


def canonical_setup(
    name: str, bots: Sequence[str], options: dict[str, Any]
) -> tuple[Game[Any], list[str]]:
    """The game with these options and the bots' canonical names (``ismcts:c=.50`` is
    ``ismcts:c=0.5``): a tournament is known by them in the results store."""
    spec = game_spec(name)
    game = spec.make(spec.options_for(options, len(bots)))
    return game, [spec.bot(b).name for b in bots]


def run_tournament(
    name: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    logs: Path | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_progress: Callable[[int], None] | None = None,
    *,
    on_rows: Callable[[list[GameRow]], None] | None = None,
    previous: Sequence[GameRow] = (),
    run_id: str | None = None,
) -> Tournament:
    """Play ``games`` games of ``name`` between ``bots`` and return the results.

    ``workers`` defaults to every core; ``on_progress(n)`` is called as ``n`` more games
    finish, and ``on_rows(rows)`` receives the finished games in batches while the run goes
    on (so that they can be stored before it ends).  To resume a stopped run, give its
    ``run_id`` and its finished games as ``previous``: they are not played again, and the
    result holds them with the new ones (``logs`` may then already hold their logs).

    Ctrl-C or SIGTERM during the run stop it early (see :mod:`sleuth.arena.stopping`): the
    result then has ``stopped_by`` set and holds every game that finished.  Bad names,
    options or seatings raise ``SleuthError`` before any game.
    """
    if games < 1:
        raise SleuthError("the number of games must be at least 1")
    game, bots = canonical_setup(name, bots, options or {})
    canonical = game.options()
    done = {row.index for row in previous}
    jobs = [job for job in schedule(game, bots, games, seed) if job[0] not in done]
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if not -(2**63) <= seed < 2**63:
        raise SleuthError(f"seed {seed} does not fit in 64 bits")
    if logs is not None:
        _prepare_logs(logs, resuming=bool(previous))
    log_dir = None if logs is None else str(logs)
    tournament = Tournament(
        run_id or uuid.uuid4().hex, name, canonical, seed, tuple(bots), workers,
        rows=list(previous), requested=games,
    )  # fmt: skip
    batches = _Batches(on_rows)

    def accept(row: GameRow) -> None:
        tournament.rows.append(row)
        batches.add(row)
        if on_progress:
            on_progress(1)

    started = time.perf_counter()
    try:
        with stop_signals() as stop:
            _warm_up(name, bots, stop)
            if workers == 1 or len(jobs) <= 1:
                _play_inline(name, canonical, jobs, log_dir, time_limit, stop, accept)
            else:
                outcome = play_in_processes(
                    name, canonical, jobs, log_dir, time_limit, workers, stop, accept
                )
                tournament.lost = outcome.lost
    finally:
        batches.flush()
    if stop.requested:
        tournament.stopped_by, tournament.exit_code = stop.name, stop.exit_code
    tournament.rows.sort(key=lambda r: r.index)
    tournament.seconds = time.perf_counter() - started
    return tournament
