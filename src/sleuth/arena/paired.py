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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sleuth.arena.stats import Z95, wilson_interval
from sleuth.arena.tournament import Tournament, run_tournament, valid_rotations
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.match import DEFAULT_TIME_LIMIT
from sleuth.core.registry import game_spec


@dataclass(frozen=True)
class PairedMean:
    """The mean of paired differences with its normal 95% interval and two-sided p-value."""

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
            return cls(mean, mean, mean, 1.0 if mean == 0 else 0.0)
        z = abs(mean) / error
        return cls(mean, mean - Z95 * error, mean + Z95 * error, math.erfc(z / math.sqrt(2)))

    def as_json(self) -> dict[str, JSON]:
        return {"mean": self.mean, "ci95": [self.low, self.high], "p_value": self.p_value}


@dataclass(frozen=True)
class Comparison:
    """Two paired tournaments; ``seats[i]`` is the seat of the bot under test in game ``i``."""

    candidate: Tournament
    baseline: Tournament
    seats: tuple[int, ...]

    def _scores(self, which: Tournament, returns: bool) -> list[float]:
        return [
            (row.returns if returns else row.wins)[seat]
            for row, seat in zip(which.rows, self.seats, strict=True)
        ]

    def wins(self, baseline: bool = False) -> list[float]:
        """The tested bot's result in each game (1 win, 1/m shared, 0 loss)."""
        return self._scores(self.baseline if baseline else self.candidate, returns=False)

    @property
    def win_gain(self) -> PairedMean:
        """Candidate's win rate minus the baseline's, game by game."""
        return PairedMean.of(
            [a - b for a, b in zip(self.wins(), self.wins(baseline=True), strict=True)]
        )

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
                "bot": tournament.bots[0],
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
            "field": list(self.candidate.bots[1:]),
            **rates,
            "win_gain": self.win_gain.as_json(),
            "return_gain": self.return_gain.as_json(),
            "better": better,
            "worse": worse,
            "same": same,
            "seconds": self.candidate.seconds + self.baseline.seconds,
        }


class ComparisonStopped(Exception):
    """A signal stopped a comparison before both tournaments finished."""

    def __init__(self, by: str, exit_code: int) -> None:
        super().__init__(f"stopped by {by}")
        self.by = by
        self.exit_code = exit_code


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
) -> Comparison:
    """Play ``candidate`` and ``baseline`` against ``field`` on the same ``games`` seeds and seats.

    Both must be able to play the same seats (a bad name, option or seating raises
    ``SleuthError`` before any game).  Ctrl-C or SIGTERM stop the comparison: it raises
    :class:`ComparisonStopped`, as a comparison of part of the games would not be paired."""
    spec = game_spec(name)
    seating_a, seating_b = [candidate, *field], [baseline, *field]
    game = spec.make(spec.options_for(options or {}, len(seating_a)))
    shifts = valid_rotations(game, seating_a)
    if valid_rotations(game, seating_b) != shifts:
        raise SleuthError(f"{candidate} and {baseline} cannot play the same seats among the field")
    played = []
    for seating in (seating_a, seating_b):
        tournament = run_tournament(
            name, seating, games, seed, options, workers, None, time_limit, on_progress
        )
        if tournament.stopped_by is not None:
            raise ComparisonStopped(tournament.stopped_by, tournament.exit_code)
        if tournament.lost:
            raise SleuthError("; ".join(tournament.lost) + ": the comparison is incomplete")
        played.append(tournament)
    seats = tuple(shifts[i % len(shifts)] for i in range(games))
    return Comparison(played[0], played[1], seats)
