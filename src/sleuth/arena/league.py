"""Leagues: every bot of a pool against every other, in every seating, and ratings.

A league seats one bot per *side* (a team side, such as Scotland Yard's detectives, is played
by one bot in all its seats): :func:`league_seatings` lists every assignment of distinct pool
bots to the sides in which each bot can play its side's roles, in a fixed order, and the
tournament cycles through them, so that after any whole number of cycles every seating has been
played equally often.

Ratings come from OpenSkill's Plackett-Luce model (the ``openskill`` package): it rates
multi-player and team games with ties, gives each bot a skill ``mu`` and an uncertainty
``sigma``, and needs no pairwise reduction, which a Bradley-Terry fit of a 4-player Camel Up
game would; TrueSkill does the same but its Python package is unmaintained.  Each game is one
update: the winning sides rank first, every other side ties second; games are rated in index
order, so a league's ratings depend only on its games.  The table is ordered by the
conservative estimate ``mu - 3 sigma`` (OpenSkill's ordinal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from sleuth.arena.play import GameRow
from sleuth.core.errors import SleuthError
from sleuth.core.game import Game
from sleuth.core.outcome import side_seats
from sleuth.core.registry import game_spec


def league_seatings(game: Game[Any], pool: Sequence[str]) -> list[tuple[str, ...]]:
    """Every seating of distinct ``pool`` bots, one per side, that fits the roles (seat by
    seat), in a fixed order; a SleuthError when the pool cannot fill the sides."""
    spec = game_spec(game.name)
    sides = list(side_seats(game.sides()).values())
    if len(set(pool)) != len(pool):
        raise SleuthError(f"a league names each bot once; got {', '.join(pool)}")
    if len(pool) < len(sides):
        raise SleuthError(
            f"{game.name} has {len(sides)} sides; a league needs at least as many bots, "
            f"got {len(pool)}"
        )
    plays = {name: set(spec.bot(name).roles) for name in pool}
    seatings = []
    for chosen in permutations(pool, len(sides)):
        seating = [""] * game.num_players
        for bot, seats in zip(chosen, sides, strict=True):
            for seat in seats:
                seating[seat] = bot
        if all(game.roles[s] in plays[bot] for s, bot in enumerate(seating)):
            seatings.append(tuple(seating))
    if not seatings:
        problems = "; ".join(f"{b} plays {'/'.join(sorted(plays[b]))}" for b in pool)
        raise SleuthError(
            f"no seating of {', '.join(pool)} fits the roles {', '.join(game.roles)} ({problems})"
        )
    return seatings


@dataclass(frozen=True)
class Rating:
    """A bot's OpenSkill rating after a league: skill ``mu``, uncertainty ``sigma``."""

    bot: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` the table is ordered by."""
        return self.mu - 3 * self.sigma


def rate(game: Game[Any], pool: Sequence[str], rows: Sequence[GameRow]) -> list[Rating]:
    """The pool's ratings after ``rows`` (rated in index order), best ordinal first; a bot
    that played no game keeps the model's prior."""
    from openskill.models import PlackettLuce  # the league extra's one import

    model = PlackettLuce()
    ratings = {bot: model.rating(name=bot) for bot in pool}
    games = dict.fromkeys(pool, 0)
    sides = list(side_seats(game.sides()).items())
    for row in sorted(rows, key=lambda r: r.index):
        members: list[list[str]] = []
        ranks: list[float] = []
        winners = set(row.winners) if row.winners is not None else None
        for side, seats in sides:
            members.append(list(dict.fromkeys(row.bots[s] for s in seats)))
            won = side in winners if winners is not None else row.wins[seats[0]] > 0
            ranks.append(1 if won else 2)
        teams = [[ratings[bot] for bot in team] for team in members]
        for team, new in zip(members, model.rate(teams, ranks=ranks), strict=True):
            ratings.update(zip(team, new, strict=True))
        for bot in set(row.bots):
            games[bot] += 1
    table = [Rating(bot, r.mu, r.sigma, games[bot]) for bot, r in ratings.items()]
    return sorted(table, key=lambda r: (-r.ordinal, r.bot))
