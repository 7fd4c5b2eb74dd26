"""Rewards the search maximises: win shares, optionally shared by teams.

Every reward is in [0, 1], so one exploration constant suits every game.  A seat alone gets its
win share (:meth:`~sleuth.core.game.State.wins`).  A team's members share the team's result:
the win shares of the sides the team is made of, each side counted once (every seat of a
winning side holds the side's whole share, so a team that is one side gets that side's share:
1 when it won alone, 1/k in a k-side tie).  With a *coalition reduction* ``r`` (as Nijssen &
Winands use for the detectives of Scotland Yard) a member gets the full reward only when it won
the game itself, and ``1 - r`` times it when a teammate did.  ``r = 0`` is a pure team; larger
``r`` makes each member keener to finish the job itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Rewards:
    """Turns win shares into per-seat rewards for ``teams`` with ``coalition_reduction``.

    Invariants (checked on construction): ``teams`` list every seat exactly once, ``sides``
    name one side per seat (:meth:`~sleuth.core.game.Game.sides`), and the reduction is in
    [0, 1].  With win shares that follow the core's rule (the seats of a side hold one share,
    the sides' shares sum to at most 1) every reward is in [0, 1]."""

    teams: tuple[tuple[int, ...], ...]
    sides: tuple[str, ...]
    coalition_reduction: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.coalition_reduction <= 1.0:
            raise ValueError("the coalition reduction must be between 0 and 1")
        seats = sorted(s for team in self.teams for s in team)
        if seats != list(range(len(seats))):
            raise ValueError(f"teams {self.teams} must list every seat exactly once")
        if len(self.sides) != len(seats):
            raise ValueError(f"sides {self.sides} must name the side of each of {len(seats)} seats")

    @property
    def trivial(self) -> bool:
        """True when every seat is alone, so rewards are the win shares themselves."""
        return all(len(team) == 1 for team in self.teams)

    def team_of(self, seat: int) -> tuple[int, ...]:
        for team in self.teams:
            if seat in team:
                return team
        raise ValueError(f"seat {seat} is in no team")

    @cached_property
    def _by_side(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Each team's seats grouped by side (sides in order of their first seat)."""
        grouped = []
        for team in self.teams:
            groups: dict[str, list[int]] = {}
            for seat in team:
                groups.setdefault(self.sides[seat], []).append(seat)
            grouped.append(tuple(tuple(group) for group in groups.values()))
        return tuple(grouped)

    def __call__(self, wins: Sequence[float], credited: int | None = None) -> list[float]:
        """Each seat's reward given the win shares and the seat credited with the win."""
        if self.trivial:
            return list(wins)
        rewards = [0.0] * len(wins)
        for team, groups in zip(self.teams, self._by_side, strict=True):
            value = sum(max(wins[s] for s in group) for group in groups)
            for seat in team:
                if credited is not None and credited in team and credited != seat:
                    rewards[seat] = value * (1.0 - self.coalition_reduction)
                else:
                    rewards[seat] = value
        return rewards
