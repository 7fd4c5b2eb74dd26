"""Sides and the structured outcome of a finished game.

A *side* is a group of seats that win or lose together (Scotland Yard's five detectives); by
default every seat is its own side (:func:`default_sides`).  A win belongs to a side: every seat
of a winning side gets the side's whole share (:func:`side_wins`), and when several sides win
(a tie) they share one win equally.  Seats of one side never split a win among themselves.

An :class:`Outcome` says how a game ended: a machine-readable termination reason, the winning
sides (empty when nobody won, as in a Cluedo game where every accusation was wrong), each
seat's return and win share, and a sentence for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

FORFEIT = "forfeit"
"""The termination of a game that a forfeit ended (reserved: no game uses it for itself)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    Checked on construction: ``termination`` is a non-empty word without spaces; ``winners``
    holds distinct side names; ``returns`` and ``wins`` have one entry per seat; a win share is
    between 0 and 1.  Kept by the core's constructors (and checked against the game's sides by
    the conformance kit, which the outcome alone cannot be): ``winners`` is in seat order of
    each side's first seat and empty exactly when nobody won; a seat's share is positive only if
    its side is a winner, and the seats of one side have equal shares (except a seat that
    forfeited in a game that goes on without it: it keeps nothing).
    """

    termination: str
    """Why the game ended: ``"caught"``, ``"race_over"``, ``"forfeit"``, ..."""
    winners: tuple[str, ...]
    """The winning sides; empty: no winner."""
    returns: tuple[float, ...]
    """Each seat's payoff (scores, money, 1/0)."""
    wins: tuple[float, ...]
    """Each seat's win share: 1 for every seat of the one winning side, 1/k in a k-side tie."""
    text: str
    """The result in words, for people (``"caught on day 3"``)."""

    def __post_init__(self) -> None:
        if not self.termination or any(c.isspace() for c in self.termination):
            raise ValueError(f"termination must be one word, got {self.termination!r}")
        if len(set(self.winners)) != len(self.winners):
            raise ValueError(f"winners {self.winners} name a side twice")
        if len(self.returns) != len(self.wins):
            raise ValueError(
                f"{len(self.returns)} returns but {len(self.wins)} win shares: one per seat each"
            )
        if not all(0.0 <= w <= 1.0 for w in self.wins):
            raise ValueError(f"win shares {self.wins} must be between 0 and 1")


@lru_cache(maxsize=256)
def default_sides(roles: tuple[str, ...]) -> tuple[str, ...]:
    """Every seat its own side, named by its role when no other seat has that role, else by
    role and seat number (``player0``, ``player1``, ...).  Names are distinct."""
    sides = tuple(
        role if roles.count(role) == 1 else f"{role}{seat}" for seat, role in enumerate(roles)
    )
    if len(set(sides)) != len(sides):
        raise ValueError(f"roles {list(roles)} give clashing side names {list(sides)}")
    return sides


def side_seats(sides: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """The seats of each side, sides in order of their first seat."""
    seats: dict[str, list[int]] = {}
    for seat, side in enumerate(sides):
        seats.setdefault(side, []).append(seat)
    return {side: tuple(members) for side, members in seats.items()}


def side_wins(sides: Sequence[str], winners: Sequence[str]) -> tuple[float, ...]:
    """Win shares when ``winners`` won: every seat of a winning side gets ``1 / len(winners)``
    (a side's win is never split among its seats); no winners: all zero.  A winner that is not
    a side of ``sides`` is a ``ValueError``."""
    unknown = [w for w in winners if w not in sides]
    if unknown:
        raise ValueError(f"winners {unknown} are not sides of this game ({list(sides)})")
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if side in winners else 0.0 for side in sides)


def sides_of(sides: Sequence[str], seats: Sequence[int]) -> tuple[str, ...]:
    """The distinct sides of ``seats``, in seat order."""
    return tuple(dict.fromkeys(sides[s] for s in sorted(seats)))
