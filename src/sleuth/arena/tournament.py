"""Tournaments between named bots.

Scheduling: ``bots[j]`` is the bot of seat ``j`` in the base seating; the cyclic rotations of
that seating in which every bot can play its seat's role are the *valid seatings*, and game
``i`` uses valid seating ``i mod len(valid)`` (so every bot plays every seat equally often when
``games`` is a multiple of the number of valid seatings).  Game ``i`` uses the seed
``derive_seed(seed, "game", i)``, so results do not depend on the number of workers.

Backends: in-process for one worker, a process pool otherwise (all cores by default).
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleuth.arena.stats import wilson_interval
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.log import write_log
from sleuth.core.match import DEFAULT_TIME_LIMIT, run_match
from sleuth.core.registry import game_spec
from sleuth.core.rng import derive_seed


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
    """Per seat: moves its bot was asked for, their total and their longest time (seconds)."""


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

    def standings(self) -> list[Standing]:
        """Per bot and role, in the order the bots were named and roles are seated."""
        tally: dict[tuple[str, str], list[float]] = {}
        for row in self.rows:
            thinking = row.thinking or ((0, 0.0, 0.0),) * len(row.bots)
            for bot, role, win, (moves, total, longest) in zip(
                row.bots, row.roles, row.wins, thinking, strict=False
            ):
                entry = tally.setdefault((bot, role), [0, 0.0, 0, 0, 0.0, 0.0])
                entry[0] += 1
                entry[1] += win
                entry[2] += row.length
                entry[3] += moves
                entry[4] += total
                entry[5] = max(entry[5], longest)
        roles = game_spec(self.game).roles
        order = {name: i for i, name in reversed(list(enumerate(self.bots)))}
        keys = sorted(
            tally, key=lambda k: (order[k[0]], roles.index(k[1]) if k[1] in roles else 99)
        )
        return [
            Standing(bot, role, int(games), wins, length / games, int(moves), total, longest)
            for bot, role in keys
            for games, wins, length, moves, total, longest in [tally[bot, role]]
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


def schedule(
    game: Game[Any], bots: Sequence[str], games: int, seed: int
) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(index, seed, seating)`` for each game of the tournament."""
    seatings = valid_seatings(game, bots)
    return [(i, derive_seed(seed, "game", i), seatings[i % len(seatings)]) for i in range(games)]


_GAMES: dict[tuple[str, str], Game[Any]] = {}


def _game(name: str, options: dict[str, JSON]) -> Game[Any]:
    key = (name, repr(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = game_spec(name).make(options, canonical=True)
    return _GAMES[key]


def play_games(
    name: str,
    options: dict[str, JSON],
    jobs: Sequence[tuple[int, int, tuple[str, ...]]],
    logs: str | None,
    time_limit: float | None,
) -> list[GameRow]:
    """Play some scheduled games in this process (the unit of work of every backend)."""
    game = _game(name, options)
    spec = game_spec(name)
    rows = []
    for index, seed, seating in jobs:
        record = run_match(game, [spec.bot(b) for b in seating], seed, time_limit)
        if logs is not None:
            write_log(record, Path(logs) / f"game-{index:06d}.jsonl")
        rows.append(
            GameRow(
                index=index,
                seed=seed,
                bots=seating,
                roles=game.roles,
                outcome=record.outcome,
                returns=record.returns,
                wins=record.wins,
                length=record.length,
                duration=record.duration,
                forfeits=[
                    {"seat": f.seat, "bot": f.bot, "step": f.step, "reason": f.reason}
                    for f in record.forfeits
                ],
                actions=tuple(sys.intern(str(step.action)) for step in record.steps),
                thinking=tuple((len(t), sum(t), max(t, default=0.0)) for t in record.thinking),
            )
        )
    return rows


def _chunks(jobs: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(jobs), size):
        yield jobs[start : start + size]


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
) -> Tournament:
    """Play ``games`` games of ``name`` between ``bots`` and return the results.

    ``workers`` defaults to every core; ``on_progress(n)`` is called as each batch of ``n``
    games finishes.  Bad names, options or seatings raise ``SleuthError`` before any game.
    """
    if games < 1:
        raise SleuthError("the number of games must be at least 1")
    spec = game_spec(name)
    game = spec.make(spec.options_for(options or {}, len(bots)))
    canonical = game.options()
    bots = [spec.bot(b).name for b in bots]  # canonical: ismcts:c=.50 is ismcts:c=0.5
    jobs = schedule(game, bots, games, seed)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if not -(2**63) <= seed < 2**63:
        raise SleuthError(f"seed {seed} does not fit in 64 bits")
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SleuthError(f"cannot write logs to {logs}: {exc.strerror or exc}") from None
        taken = sorted(p.name for p in logs.glob("game-*.jsonl"))
        if taken:
            raise SleuthError(
                f"{logs} already holds game logs ({taken[0]}, ...): choose an empty folder, "
                "so that no earlier log is replaced"
            )
    log_dir = None if logs is None else str(logs)
    tournament = Tournament(uuid.uuid4().hex, name, canonical, seed, tuple(bots), workers)
    started = time.perf_counter()
    if workers == 1 or games == 1:
        for chunk in _chunks(jobs, 16):
            tournament.rows.extend(play_games(name, canonical, chunk, log_dir, time_limit))
            if on_progress:
                on_progress(len(chunk))
    else:
        size = max(1, min(64, games // (workers * 8)))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(play_games, name, canonical, chunk, log_dir, time_limit): len(chunk)
                for chunk in _chunks(jobs, size)
            }
            for future in as_completed(futures):
                tournament.rows.extend(future.result())
                if on_progress:
                    on_progress(futures[future])
        tournament.rows.sort(key=lambda r: r.index)
    tournament.seconds = time.perf_counter() - started
    return tournament
