"""Paired-seed comparisons (common random numbers): is bot A better than bot B in a field?

``compare`` plays two tournaments on the same master seed and schedule: one with the
*candidate* in the first seat of the base seating and the *field* in the others, one with the
*baseline* there instead.  Game ``i`` of both uses the same seed and the same seats, so the chance
the engine draws from the seed (shuffles, set-ups, scripted dice) and the field bots' own random
streams are the same; the only difference is the bot under test.  The per-game difference of
its result (a win counts 1, a shared win 1/m) is then a paired sample: its mean, with a normal
95% interval and a two-sided p-value (the paired z-test, adequate from about 30 games), is the
candidate's gain.  Pairing removes the variance the two games share, so far fewer games separate
two close bots than comparing two independent win rates would need.

With a ``side`` (``compare(..., side="detectives")``) the bot under test plays every seat of
that side, the field fills the other seats in seat order, and nobody changes seats between
games: the tested result of a game is the side's win (one win, however many seats), and its
return the mean return of the side's seats.
"""

from __future__ import annotations

import math
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleuth.arena.play import GameRow, check_games, game_of
from sleuth.arena.sequential import ConfidenceSequence
from sleuth.arena.stats import Z95, wilson_interval
from sleuth.arena.stopping import stop_signals
from sleuth.arena.tournament import (
    Backend,
    Tournament,
    canonical_setup,
    fixed_seating,
    run_tournament,
    valid_rotations,
)
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.match import DEFAULT_TIME_LIMIT
from sleuth.core.outcome import side_seats
from sleuth.core.registry import game_spec

if TYPE_CHECKING:
    from sleuth.arena.store import StoredRun


@dataclass(frozen=True)
class PairedMean:
    """The mean of paired differences with its normal 95% interval and two-sided p-value.

    When every difference is the same the normal test has no spread to go by: the p-value is
    then the exact sign test's, 2 x 0.5**n for n equal nonzero differences (0.25 for 3 games,
    not 0), and 1 when they are all 0."""

    mean: float
    low: float
    high: float
    p_value: float

    @classmethod
    def of(cls, differences: Sequence[float]) -> PairedMean:
        n = len(differences)
        mean = sum(differences) / n
        variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
        error = math.sqrt(variance / n)
        if error == 0.0:
            return cls(mean, mean, mean, 1.0 if mean == 0 else min(1.0, 2 * 0.5**n))
        z = abs(mean) / error
        return cls(mean, mean - Z95 * error, mean + Z95 * error, math.erfc(z / math.sqrt(2)))

    def as_json(self) -> dict[str, JSON]:
        return {"mean": self.mean, "ci95": [self.low, self.high], "p_value": self.p_value}


@dataclass(frozen=True)
class Sequential:
    """Where a comparison with ``stop_early`` ended: the confidence sequence's level ``1 -
    alpha``, its interval for the win-rate gain when it stopped, and the games it could have
    played per bot."""

    alpha: float
    interval: tuple[float, float]
    planned: int

    @property
    def decided(self) -> bool:
        """Whether the interval excludes 0 (the comparison stopped because the data decided)."""
        return self.interval[0] > 0.0 or self.interval[1] < 0.0

    def as_json(self, played: int) -> dict[str, JSON]:
        return {
            "alpha": self.alpha, "interval": list(self.interval), "decided": self.decided,
            "planned": self.planned, "saved": self.planned - played,
        }  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """Two paired tournaments; ``seats[i]`` is the seat of the bot under test in game ``i``
    (with a ``side``, the side's first seat: the bot plays all of the side's seats)."""

    candidate: Tournament
    baseline: Tournament
    seats: tuple[int, ...]
    side: str | None = None
    """The side the bot under test plays whole, or None: it plays one seat."""
    sequential: Sequential | None = None
    """The confidence sequence of a comparison run with ``stop_early``, else None."""

    @property
    def tested_seats(self) -> tuple[int, ...]:
        """The seats of the bot under test in every game when it plays a side, else ()."""
        if self.side is None:
            return ()
        return side_seats(game_of(self.candidate.game, self.candidate.options).sides())[self.side]

    def bot(self, baseline: bool = False) -> str:
        """The name of the candidate (or the baseline)."""
        tournament = self.baseline if baseline else self.candidate
        return tournament.bots[self.seats[0] if self.side is not None else 0]

    @property
    def field(self) -> tuple[str, ...]:
        """The bots of the other seats, in the order of the base seating."""
        if self.side is None:
            return self.candidate.bots[1:]
        tested = self.tested_seats
        return tuple(b for s, b in enumerate(self.candidate.bots) if s not in tested)

    def _scores(self, which: Tournament, returns: bool) -> list[float]:
        if returns and self.side is not None:  # the mean return of the side's seats
            tested = self.tested_seats
            return [sum(row.returns[s] for s in tested) / len(tested) for row in which.rows]
        return [
            (row.returns if returns else row.wins)[seat]
            for row, seat in zip(which.rows, self.seats, strict=True)
        ]

    def wins(self, baseline: bool = False) -> list[float]:
        """The tested bot's result in each game (1 win, 1/m shared, 0 loss; a side's win is
        one win)."""
        return self._scores(self.baseline if baseline else self.candidate, returns=False)

    def win_differences(self) -> list[float]:
        """The candidate's result minus the baseline's in each game, in game order."""
        return [a - b for a, b in zip(self.wins(), self.wins(baseline=True), strict=True)]

    @property
    def win_gain(self) -> PairedMean:
        """Candidate's win rate minus the baseline's, game by game."""
        return PairedMean.of(self.win_differences())

    @property
    def return_gain(self) -> PairedMean:
        """Candidate's return (score, money, ...) minus the baseline's, game by game."""
        return PairedMean.of(
            [
                a - b
                for a, b in zip(
                    self._scores(self.candidate, True), self._scores(self.baseline, True),
                    strict=True,
                )
            ]
        )  # fmt: skip

    @property
    def counts(self) -> tuple[int, int, int]:
        """Games the candidate did better in, worse in, and as well as the baseline."""
        pairs = list(zip(self.wins(), self.wins(baseline=True), strict=True))
        better = sum(a > b for a, b in pairs)
        worse = sum(a < b for a, b in pairs)
        return better, worse, len(pairs) - better - worse

    def summary(self) -> dict[str, JSON]:
        """The JSON object printed by ``sleuth compare --json``."""
        games = len(self.seats)
        rates: dict[str, JSON] = {}
        for label, tournament in (("candidate", self.candidate), ("baseline", self.baseline)):
            wins = sum(self.wins(baseline=tournament is self.baseline))
            rates[label] = {
                "bot": self.bot(baseline=tournament is self.baseline),
                "wins": wins,
                "win_rate": wins / games,
                "ci95": list(wilson_interval(wins, games)),
                "forfeits": tournament.forfeits,
            }
        better, worse, same = self.counts
        return {
            "game": self.candidate.game,
            "options": self.candidate.options,
            "games": games,
            "seed": self.candidate.seed,
            "side": self.side,
            "field": list(self.field),
            **rates,
            "win_gain": self.win_gain.as_json(),
            "return_gain": self.return_gain.as_json(),
            "better": better,
            "worse": worse,
            "same": same,
            "seconds": self.candidate.seconds + self.baseline.seconds,
            "sequential": None if self.sequential is None else self.sequential.as_json(games),
        }


class ComparisonStopped(Exception):
    """A signal stopped a comparison before both tournaments finished.

    ``played`` holds the tournaments begun (the candidate's, and the baseline's if it had
    begun), each with its finished games; a comparison stored in a results file keeps them, and
    ``compare(..., resume=True)`` continues it."""

    def __init__(self, by: str, exit_code: int, played: Sequence[Tournament]) -> None:
        super().__init__(f"stopped by {by}")
        self.by = by
        self.exit_code = exit_code
        self.played = tuple(played)


def compare(
    name: str,
    candidate: str,
    baseline: str,
    field: Sequence[str],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_progress: Callable[[int], None] | None = None,
    side: str | None = None,
    *,
    db: Path | None = None,
    resume: bool = False,
    stop_early: bool = False,
    alpha: float = 0.05,
    backend: Backend = "processes",
    address: str | None = None,
) -> Comparison:
    """Play ``candidate`` and ``baseline`` against ``field`` on the same ``games`` seeds and seats.

    Without ``side`` the bot under test takes the first seat of the base seating and rotates
    with the field.  With ``side`` it plays every seat of that side and ``field`` fills the
    other seats in seat order, in every game (:func:`side_seating`).  Both must be able to
    play the same seats (a bad name, option, side or seating raises ``SleuthError`` before any
    game).

    With ``db`` the two tournaments are two runs of that results file, stored as they go as
    ``sleuth play`` stores its run; ``resume`` continues the latest two runs of this very
    comparison there (their finished games are kept, and count for ``on_progress`` as they
    are taken up).  Ctrl-C or SIGTERM stop the comparison: it raises
    :class:`ComparisonStopped`, as a comparison of part of the games would not be paired.

    With ``stop_early`` both bots play 20 games, then 40, 80, ... up to ``games``, and the
    comparison ends at the first of these counts where the anytime-valid confidence sequence
    of the win-rate gain (:mod:`sleuth.arena.sequential`, level ``1 - alpha``) excludes 0; its
    :attr:`Comparison.sequential` says where it stopped and the interval.

    ``backend`` and ``address`` choose where the games are played, as for
    :func:`~sleuth.arena.tournament.run_tournament` (the same games on either)."""
    spec = game_spec(name)
    if side is None:
        seating_a, seating_b = [candidate, *field], [baseline, *field]
        game = spec.make(spec.options_for(options or {}, len(seating_a)))
        shifts = valid_rotations(game, seating_a)
        if valid_rotations(game, seating_b) != shifts:
            raise SleuthError(
                f"{candidate} and {baseline} cannot play the same seats among the field"
            )
    else:
        game = spec.make(options or {})
        seating_a = list(side_seating(game, side, candidate, field))
        seating_b = list(side_seating(game, side, baseline, field))
        shifts = [side_seats(game.sides())[side][0]]
    check_games(games)
    seatings = (seating_a, seating_b)
    played: list[Tournament] = []
    with stop_signals():  # a signal between the two tournaments stops the second at once
        runs: Sequence[StoredRun | None] = (None, None)
        if db is not None:
            from sleuth.arena import store  # DuckDB: only where results are stored

            runs = _stored_runs(
                db, name, options or {}, seatings, games, seed, workers, time_limit,
                side is None, resume,
            )  # fmt: skip
        store_rows: list[Callable[[list[GameRow]], None] | None] = [None, None]
        for i, run in enumerate(runs):
            if db is not None and run is not None:
                board, _ = canonical_setup(name, seatings[i], options or {})
                store_rows[i] = partial(store.add_games, db, run.run_id, name, board.options())
                if on_progress is not None and run.rows:
                    on_progress(len(run.rows))
        known: list[dict[int, GameRow]] = [
            {} if run is None else {row.index: row for row in run.rows} for run in runs
        ]
        before = [0.0 if run is None else run.seconds for run in runs]
        seconds = [0.0, 0.0]
        sequence = ConfidenceSequence(alpha) if stop_early else None

        def end(decided: bool) -> None:
            """Store how the runs ended: finished when every planned game, or every game up to
            the decision, is stored; else stopped (``--resume`` goes on)."""
            for i, tournament in enumerate(played):
                tournament.seconds = seconds[i]
                if not decided:
                    tournament.requested = games
                if db is not None:
                    store.end(db, tournament, before[i])

        for upto in _checkpoints(games, stop_early):
            played = []
            for i, seating in enumerate(seatings):
                run = runs[i]
                previous = [row for index, row in sorted(known[i].items()) if index < upto]
                tournament = run_tournament(
                    name, seating, upto, seed, options, workers, None, time_limit, on_progress,
                    on_rows=store_rows[i], previous=previous,
                    run_id=None if run is None else run.run_id, rotate=side is None,
                    backend=backend, address=address,
                )  # fmt: skip
                seconds[i] += tournament.seconds
                known[i].update((row.index, row) for row in tournament.rows)
                played.append(tournament)
                if tournament.stopped_by is not None:
                    end(decided=False)
                    raise ComparisonStopped(tournament.stopped_by, tournament.exit_code, played)
                if tournament.lost:
                    end(decided=False)
                    again = "; --resume plays them" if db is not None else ""
                    raise SleuthError(
                        "; ".join(tournament.lost) + f": the comparison is incomplete{again}"
                    )
            if sequence is not None:
                done = Comparison(played[0], played[1], _seats(shifts, upto), side)
                sequence = ConfidenceSequence(alpha)
                sequence.update(done.win_differences())
                if sequence.excludes_zero():
                    break
        end(decided=True)
    played_games = len(played[0].rows)
    return Comparison(
        played[0], played[1], _seats(shifts, played_games), side,
        None if sequence is None else Sequential(alpha, sequence.interval(), games),
    )  # fmt: skip


def _seats(shifts: Sequence[int], games: int) -> tuple[int, ...]:
    """The seat of the bot under test in each of ``games`` games."""
    return tuple(shifts[i % len(shifts)] for i in range(games))


FIRST_CHECK = 20
"""Games per bot before a comparison with ``stop_early`` first looks at its results."""


def _checkpoints(games: int, stop_early: bool) -> list[int]:
    """The game counts after which a comparison looks at its results: ``games`` alone, or with
    ``stop_early`` 20, 40, 80, ... then ``games`` (each look starts the worker processes
    again, so they double)."""
    if not stop_early:
        return [games]
    out = []
    upto = FIRST_CHECK
    while upto < games:
        out.append(upto)
        upto *= 2
    return [*out, games]


def _stored_runs(
    db: Path,
    name: str,
    options: dict[str, Any],
    seatings: tuple[list[str], list[str]],
    games: int,
    seed: int,
    workers: int | None,
    time_limit: float | None,
    rotate: bool,
    resume: bool,
) -> list[StoredRun]:
    """The candidate's and the baseline's runs in ``db``: with ``resume`` the latest of each
    (two different runs, also when both bots are the same), else two new ones, begun."""
    import sleuth
    from sleuth.arena import store

    store.prepare(db)
    runs: list[StoredRun] = []
    for seating in seatings:
        board, bots = canonical_setup(name, seating, options)
        if resume:
            taken = [run.run_id for run in runs]
            runs.append(
                store.find_run(
                    db, name, board.options(), seed, bots, games, time_limit, rotate, skip=taken
                )
            )
            continue
        header = Tournament(
            uuid.uuid4().hex, name, board.options(), seed, tuple(bots),
            workers or os.cpu_count() or 1, requested=games,
        )  # fmt: skip
        store.begin(db, header, datetime.now(), sleuth.__version__, time_limit, rotate=rotate)
        runs.append(store.StoredRun(header.run_id, "running", 0.0, [], None))
    return runs


def side_seating(game: Game[Any], side: str, bot: str, field: Sequence[str]) -> tuple[str, ...]:
    """The seating where ``bot`` plays every seat of ``side`` and ``field`` the other seats in
    seat order; an unknown side, a field of the wrong size or a bot that cannot play its seat
    raises ``SleuthError``."""
    teams = side_seats(game.sides())
    if side not in teams:
        raise SleuthError(f"{game.name} has no side {side!r}; its sides are {', '.join(teams)}")
    tested = teams[side]
    others = game.num_players - len(tested)
    if len(field) != others:
        raise SleuthError(
            f"--side {side} leaves {others} seat(s) for the field, got {len(field)} bot(s)"
        )
    rest = iter(field)
    return fixed_seating(
        game, [bot if s in tested else next(rest) for s in range(game.num_players)]
    )
