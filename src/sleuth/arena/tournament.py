"""Tournaments between named bots.

Scheduling: ``bots[j]`` is the bot of seat ``j`` in the base seating; the cyclic rotations of
that seating in which every bot can play its seat's role are the *valid seatings*, and game
``i`` uses valid seating ``i mod len(valid)`` (so every bot plays every seat equally often when
``games`` is a multiple of the number of valid seatings).  Game ``i`` uses the seed
``derive_seed(seed, "game", i)``, so results do not depend on the number of workers.

Standings: one row per bot and side (see :meth:`Tournament.standings`): a game counts once for
each side a bot played in it, however many of the side's seats it held, and a side's win is
one win, so that five detectives played by one bot are one game and one win, and win rates
and their Wilson intervals are over games, not seats.

Backends: in-process for one worker, worker processes otherwise (all cores by default), see
:mod:`sleuth.arena.processes`; or Ray tasks on a local or remote Ray cluster
(``backend="ray"``, :mod:`sleuth.arena.ray_backend`), which play the same games.
Finished games are handed to ``on_rows`` in batches as they finish, and Ctrl-C or SIGTERM stop
a run early without losing any of them (:mod:`sleuth.arena.stopping`); a stopped run resumes
from its finished games.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Literal, overload

from sleuth.arena.league import league_seatings
from sleuth.arena.play import (
    IN_FLIGHT,
    MAX_GAMES,
    GameRow,
    Job,
    check_games,
    game_of,
    play_games,
)
from sleuth.arena.processes import play_in_processes
from sleuth.arena.ray_backend import check_reachable, import_ray, play_on_ray
from sleuth.arena.stats import wilson_interval
from sleuth.arena.stopping import GameAbandoned, StopRequest, stop_signals
from sleuth.core import botprocess
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.match import DEFAULT_TIME_LIMIT, hard_stopping
from sleuth.core.outcome import side_seats
from sleuth.core.registry import game_spec
from sleuth.core.rng import derive_seed

__all__ = [
    "MAX_GAMES", "GameRow", "Schedule", "Standing", "Tournament", "reported_sides",
    "run_tournament", "schedule", "valid_seatings",
]  # fmt: skip


Backend = Literal["processes", "ray"]
BACKENDS: tuple[Backend, ...] = ("processes", "ray")
"""Where games are played: this machine's worker processes, or Ray tasks."""


@dataclass(frozen=True)
class Standing:
    """One bot on one side: the games it played that side in (once per game), its wins (a
    side's win is one win; a tie between k sides 1/k), and derived rates."""

    bot: str
    side: str
    """The side (see :func:`reported_sides`)."""
    role: str
    """The role of the side's seats (``a/b`` for a side of several roles)."""
    games: int
    wins: float
    mean_length: float
    moves: int = 0
    thinking: float = 0.0
    """Total seconds over ``moves`` moves."""
    longest: float = 0.0
    """The longest move, in seconds."""
    forfeits: int = 0
    """Games this bot lost by forfeit on this side (a crash, an illegal move, overtime)."""

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
        """Per bot and side, in the order the bots were named and the sides are seated.

        Each game counts once for every side a bot played in it: a bot holding several seats
        of one side plays that side once (its result is the side's win share, its moves and
        thinking time are those of all its seats there, and it lost by forfeit if any of them
        forfeited); several bots on one side each count the game.  Sides are reported as
        :func:`reported_sides` names them."""
        game = game_of(self.game, self.options)
        reported, roles = reported_sides(game), game.roles
        order = {name: i for i, name in reversed(list(enumerate(self.bots)))}
        first_seat = {side: reported.index(side) for side in reported}
        teams = list(side_seats(game.sides()).values())
        tally: dict[tuple[str, str], list[float]] = {}
        for row in self.rows:
            thinking = row.thinking or ((0, 0.0, 0.0),) * len(row.bots)
            forfeited = {f["seat"] for f in row.forfeits}
            for seats in teams:
                for bot in dict.fromkeys(row.bots[s] for s in seats):
                    mine = [s for s in seats if row.bots[s] == bot]
                    entry = tally.setdefault((bot, reported[seats[0]]), [0, 0.0, 0, 0, 0.0, 0.0, 0])
                    entry[0] += 1
                    entry[1] += max(row.wins[s] for s in mine)
                    entry[2] += row.length
                    entry[3] += sum(thinking[s][0] for s in mine)
                    entry[4] += sum(thinking[s][1] for s in mine)
                    entry[5] = max(entry[5], *(thinking[s][2] for s in mine))
                    entry[6] += not forfeited.isdisjoint(mine)
        role_of = {
            reported[seats[0]]: "/".join(dict.fromkeys(roles[s] for s in seats)) for seats in teams
        }
        keys = sorted(tally, key=lambda k: (order[k[0]], first_seat[k[1]]))
        return [
            Standing(
                bot, side, role_of[side], int(games), wins, length / games, int(moves), total,
                longest, int(lost),
            )
            for bot, side in keys
            for games, wins, length, moves, total, longest, lost in [tally[bot, side]]
        ]  # fmt: skip

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
            "run_id": self.run_id,
            "games": len(self.rows),
            "requested": self.requested,
            "stopped_by": self.stopped_by,
            "seed": self.seed,
            "bots": list(self.bots),
            "results": [
                {
                    "bot": s.bot,
                    "side": s.side,
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
                    "side": s.side,
                    "role": s.role,
                    "moves": s.moves,
                    "ms_per_move": s.ms_per_move,
                    "max_ms": 1000 * s.longest,
                }
                for s in self.standings()
            ],
        }


def reported_sides(game: Game[Any]) -> tuple[str, ...]:
    """The side each seat's results are reported under: its side (:meth:`Game.sides`), except
    that the one-seat sides of a role several seats hold (the players of a free-for-all, such
    as Camel Up's ``player0`` .. ``player3``) are pooled under that role, so that a bot's row
    gathers its games in all those seats (each still counted once per seat it held)."""
    sides, roles = game.sides(), game.roles
    size = {side: len(seats) for side, seats in side_seats(sides).items()}
    return tuple(
        roles[seat] if size[side] == 1 and roles.count(roles[seat]) > 1 else side
        for seat, side in enumerate(sides)
    )


def check_backend(backend: str, address: str | None) -> Backend:
    """``backend`` if it is one of :data:`BACKENDS`, can be used (Ray installed) and fits
    ``address`` (a Ray cluster's address needs the Ray backend, and must answer); else a
    ``SleuthError`` naming the culprit, before anything is played or written."""
    if backend not in BACKENDS:
        raise SleuthError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SleuthError(f"--address {address} is the address of a Ray cluster: add --backend ray")
    if backend == "ray":
        import_ray()
        if address is not None:
            check_reachable(address)
    return "ray" if backend == "ray" else "processes"


def _check_seat_count(game: Game[Any], bots: Sequence[str]) -> None:
    """One bot per seat, else a SleuthError saying how many of each there are."""
    if len(bots) != game.num_players:
        raise SleuthError(
            f"{game.name} has {game.num_players} seats ({', '.join(game.roles)}); "
            f"got {len(bots)} bot{'' if len(bots) == 1 else 's'}"
        )


def valid_rotations(game: Game[Any], bots: Sequence[str]) -> list[int]:
    """The shifts ``s`` (seat ``j`` gets ``bots[(j - s) % n]``, so ``bots[0]`` sits in seat
    ``s``) in which every bot can play its seat's role, in increasing order."""
    spec = game_spec(game.name)
    _check_seat_count(game, bots)
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


def fixed_seating(game: Game[Any], bots: Sequence[str]) -> tuple[str, ...]:
    """``bots`` as given, seat by seat, once every bot is known to play its seat's role."""
    spec = game_spec(game.name)
    _check_seat_count(game, bots)
    for seat, (bot, role) in enumerate(zip(bots, game.roles, strict=True)):
        if role not in spec.bot(bot).roles:
            raise SleuthError(
                f"{bot} cannot play seat {seat} ({role}): it plays {'/'.join(spec.bot(bot).roles)}"
            )
    return tuple(bots)


@dataclass(frozen=True)
class Schedule(Sequence[Job]):
    """The jobs ``(index, seed, seating)`` of a tournament's ``games`` games, each made when it
    is read: game ``i`` has the seed ``derive_seed(seed, "game", i)`` and the seating
    ``seatings[i % len(seatings)]``.  It holds no list, so a run of any length starts its first
    game at once and takes no memory for the games it has not reached."""

    seed: int
    seatings: tuple[tuple[str, ...], ...]
    games: int

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> Job: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Job]: ...
    def __getitem__(self, index: int | slice) -> Job | Sequence[Job]:
        if isinstance(index, slice):
            return [self[i] for i in range(self.games)[index]]
        i = range(self.games)[index]  # an IndexError past either end, as a list's
        return (i, derive_seed(self.seed, "game", i), self.seatings[i % len(self.seatings)])

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(self.games))


def schedule(
    game: Game[Any],
    bots: Sequence[str],
    games: int,
    seed: int,
    rotate: bool = True,
    league: bool = False,
) -> Schedule:
    """The games of the tournament, in index order (made as they are read: :class:`Schedule`);
    with ``rotate=False`` every game keeps the seating given (:func:`fixed_seating`); with
    ``league=True`` ``bots`` is a pool and the games cycle through every seating of it
    (:func:`~sleuth.arena.league.league_seatings`)."""
    if league:
        seatings = league_seatings(game, bots)
    else:
        seatings = valid_seatings(game, bots) if rotate else [fixed_seating(game, bots)]
    return Schedule(seed, tuple(seatings), games)


BATCH_SECONDS = 1.0
"""Finished games are handed to ``on_rows`` at least this often (and when the run ends)."""
BATCH_ROWS = 2000
"""... or as soon as this many are waiting."""


class _Batches:
    """Collects finished rows and hands them to ``on_rows`` in batches.

    The first ``SleuthError`` from ``on_rows`` (the results file cannot be written) is kept in
    :attr:`error`; no batch is handed over after it, and the rows it refused stay in
    :attr:`waiting`."""

    def __init__(self, on_rows: Callable[[list[GameRow]], None] | None) -> None:
        self.on_rows = on_rows
        self.waiting: list[GameRow] = []
        self.since = time.monotonic()
        self.error: SleuthError | None = None

    def add(self, row: GameRow) -> None:
        self.waiting.append(row)
        if len(self.waiting) >= BATCH_ROWS or time.monotonic() - self.since >= BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.error is not None:
            return
        if self.waiting and self.on_rows is not None:
            try:
                self.on_rows(self.waiting)
            except SleuthError as exc:
                self.error = exc
                return
        self.waiting = []
        self.since = time.monotonic()


def _remove_partial_logs(logs: Path) -> None:
    """Remove the logs a killed worker left half-written (``.game-*.part``; see
    :func:`~sleuth.arena.play.play_game`): a run ends with whole logs only."""
    for partial in logs.glob(".game-*.part"):
        partial.unlink(missing_ok=True)


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
    worker (workers fork from this process); a stop request abandons it.

    The request lands wherever the warm-up is: inside a compiler's callback (Numba's cache),
    :class:`GameAbandoned` is swallowed there and the compiler fails with an error of its own
    instead, so that any error after a stop request is taken as the abandonment it is."""
    if stop.requested:
        return
    try:
        stop.playing = True
        for bot in dict.fromkeys(bots):
            game_spec(name).bot(bot).warm()
    except GameAbandoned:
        pass
    except Exception:
        if not stop.requested:
            raise
    finally:
        stop.playing = False


def _play_inline(
    name: str,
    options: dict[str, JSON],
    jobs: Iterable[Job],
    logs: str | None,
    time_limit: float | None,
    stop: StopRequest,
    accept: Callable[[GameRow], None],
) -> None:
    """Play ``jobs`` in this process, up to :data:`~sleuth.arena.play.IN_FLIGHT` at once; a
    stop request abandons the games in flight."""
    pending = iter(jobs)
    try:
        while group := list(islice(pending, IN_FLIGHT)):
            if stop.requested:
                return
            stop.playing = True
            for row in play_games(name, options, group, logs, time_limit):
                stop.playing = False
                accept(row)
                if stop.requested:  # asked while the row was handed over
                    return
                stop.playing = True
            stop.playing = False
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
    rotate: bool = True,
    league: bool = False,
    backend: Backend = "processes",
    address: str | None = None,
) -> Tournament:
    """Play ``games`` games of ``name`` between ``bots`` and return the results.

    ``workers`` defaults to every core; ``on_progress(n)`` is called as ``n`` more games
    finish, and ``on_rows(rows)`` receives the finished games in batches while the run goes
    on (so that they can be stored before it ends).  To resume a stopped run, give its
    ``run_id`` and its finished games as ``previous``: they are not played again, and the
    result holds them with the new ones (``logs`` may then already hold their logs).
    ``rotate=False`` keeps every bot in the seat it is named for (no seat rotation);
    ``league=True`` makes ``bots`` a pool, one bot per side in every seating (:func:`schedule`).
    ``backend="ray"`` plays the games as Ray tasks (:mod:`sleuth.arena.ray_backend`) on the
    cluster at ``address``, or on a local cluster of ``workers`` CPUs: the rows are those of
    the process backend, but for measured times.

    Ctrl-C or SIGTERM during the run stop it early (see :mod:`sleuth.arena.stopping`): the
    result then has ``stopped_by`` set and holds every game that finished.  Bad names,
    options or seatings raise ``SleuthError`` before any game.
    """
    check_games(games)
    check_backend(backend, address)
    game, bots = canonical_setup(name, bots, options or {})
    canonical = game.options()
    done = {row.index for row in previous if 0 <= row.index < games}
    planned = schedule(game, bots, games, seed, rotate, league)
    jobs = (job for job in planned if job[0] not in done)
    remaining = games - len(done)
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
        if batches.error is not None:
            stop.ask()  # results can no longer be stored: stop as Ctrl-C would
        if on_progress:
            on_progress(1)

    started = time.perf_counter()
    try:
        with stop_signals() as stop, hard_stopping():
            _warm_up(name, bots, stop)
            if backend == "ray":
                if remaining:
                    ray_run = play_on_ray(
                        name, canonical, jobs, log_dir, time_limit, stop, accept, address,
                        None if address is not None else workers,
                    )  # fmt: skip
                    tournament.workers, tournament.lost = ray_run.cpus, ray_run.lost
            elif workers == 1 or remaining <= 1:
                _play_inline(name, canonical, jobs, log_dir, time_limit, stop, accept)
            else:
                outcome = play_in_processes(
                    name, canonical, jobs, log_dir, time_limit, min(workers, remaining), stop,
                    accept,
                )  # fmt: skip
                tournament.lost = outcome.lost
    finally:
        botprocess.close_all()  # the bot processes kept for the next game, in this process
        batches.flush()
        if logs is not None:
            _remove_partial_logs(logs)
    if batches.error is not None:
        stored = len(tournament.rows) - len(batches.waiting)
        raise SleuthError(
            f"{batches.error}: the run stopped with {stored} games stored and "
            f"{len(batches.waiting)} finished games not stored; once the file can be written, "
            "--resume plays the games that are not stored"
        )
    if stop.requested:
        tournament.stopped_by, tournament.exit_code = stop.name, stop.exit_code
    tournament.rows.sort(key=lambda r: r.index)
    tournament.seconds = time.perf_counter() - started
    return tournament
