"""Exact Camel Up odds: the current leg (both editions) and the whole race (rules O1-O8).

A position is an arrangement (:mod:`sleuth.games.camel_up.track`: ``index * 8 + camel`` codes
in reading order), the dice still in the pyramid as a bitmask (bit ``c`` for racing camel
``c``'s die, bit 5 for the 2nd edition's grey die) and the live desert tiles
``{index: OASIS | MIRAGE}``.

* :func:`leg_odds` (exact, both editions): the rest of the current leg is enumerated layer by
  layer, merging equal (arrangement, dice left) states with integer weights over a common
  denominator (O2).  A move that finishes the race is a terminal leaf (O3): the leg's ranking
  is read there and it is not expanded.  Outputs: P(1st) and P(2nd) of each racing camel at
  the leg's end (or at the game-ending move), P(the race ends in this leg) with the (winner,
  loser) distribution of those endings, and the expected number of landings on each tile (each
  pays its owner 1).  :func:`leg_counts` gives the same as exact integers.
* :func:`game_odds`: P(win), P(last) and the joint (winner, loser) of the whole race.  1st
  edition, exact (O7): the current leg is enumerated with its tiles and every leaf that
  completes it looks up the start-of-leg table of :mod:`sleuth.games.camel_up.race_table`.
  2nd edition (O8 "v1"): the current leg is exact, the later legs are estimated by seeded
  Monte Carlo rollouts from the leaves that complete it.
* :func:`monte_carlo`: plain seeded rollouts of the race, the cross-check of O8.

Assumptions: dice are uniform (a die drawn uniformly from the pyramid, values uniform on
1..3, the grey die's six faces uniform); later legs have no desert tiles (tiles are cleared
at every leg end, K23, and the odds do not guess where players will put new ones); only the
race is modelled, not the players' bets.

The enumeration runs in Numba-compiled kernels when Numba is installed, and as plain Python
otherwise, with the same results; also while an assistant compiles the kernels in the
background (:func:`sleuth.core.compiled.plain_until_ready`), so that its first odds do not wait
for the compiler (unless plain Python would take longer: :data:`PLAIN_PATHS`).  Every public
function validates its position first (:func:`check_position`).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import plain_until_ready
from sleuth.core.errors import OptionError, PositionError
from sleuth.games.camel_up.race_table import RaceTable, race_table
from sleuth.games.camel_up.track import (
    CRAZY,
    DICE,
    GREY_DIE,
    MIRAGE,
    OASIS,
    RACERS,
    TRACK_LENGTH,
    Arrangement,
    crazy_to_move,
    move,
    racing_order,
)

EDITIONS = (1, 2)
_CAMEL_NAMES = ("0", "1", "2", "3", "4", "5 (white)", "6 (black)")
_NO_TABLE = np.zeros((0, RACERS, RACERS), np.float64)
_NO_TABLE.setflags(write=False)


def full_pyramid(edition: int = 1) -> int:
    """The dice mask of a fresh leg: the five racing dice, plus the grey die in the 2nd
    edition."""
    _check_edition(edition)
    return (1 << RACERS) - 1 if edition == 1 else (1 << (GREY_DIE + 1)) - 1


def leg_end_dice(edition: int = 1) -> int:
    """How many dice are left in the pyramid when a leg ends: 0 (K21) or 1 (E7)."""
    _check_edition(edition)
    return edition - 1


def leg_ticket_ev(p1: float, p2: float, value: int) -> float:
    """The expected payout of a leg-betting tile of face ``value`` on a camel that is 1st with
    probability ``p1`` and 2nd with probability ``p2`` (O4, K22): value, +1, else −1."""
    return value * p1 + p2 - (1 - p1 - p2)


@dataclass(frozen=True)
class LegOdds:
    """The odds of the rest of the current leg.

    ``first[c]`` and ``second[c]`` are the probabilities that racing camel ``c`` is 1st or 2nd
    when the leg is scored (at its end, or at the move that ends the race, whichever comes
    first); each tuple sums to 1.  ``game_end`` is the probability that the race ends during
    the leg and ``endings[(w, l)]`` splits it by winner and loser (nonzero entries only, they
    sum to ``game_end``).  ``tile_hits[t]`` is the expected number of landings on the tile at
    index ``t`` (every live tile is listed), so its owner's expected income from it.
    """

    first: tuple[float, ...]
    second: tuple[float, ...]
    game_end: float
    endings: Mapping[tuple[int, int], float]
    tile_hits: Mapping[int, float]

    def ticket_ev(self, camel: int, value: int) -> float:
        """The expected payout of a leg-betting tile of face ``value`` on ``camel`` (O4)."""
        return leg_ticket_ev(self.first[camel], self.second[camel], value)


@dataclass(frozen=True)
class LegCounts:
    """:class:`LegOdds` as exact integers: every probability is a count over ``denominator``.

    Also reports the enumeration's size: ``leaves`` is the number of unmerged leaf paths (each
    die order and value sequence, cut at a finishing move; O1), ``layers[d]`` the number of
    merged live states after ``d`` draws (O2).
    """

    denominator: int
    first: tuple[int, ...]
    second: tuple[int, ...]
    endings: Mapping[tuple[int, int], int]
    tile_hits: Mapping[int, int]
    leaves: int
    layers: tuple[int, ...]

    @property
    def game_end(self) -> int:
        """The weight of the leaves in which the race ends."""
        return sum(self.endings.values())

    def fraction(self, count: int) -> Fraction:
        """``count`` as an exact probability."""
        return Fraction(count, self.denominator)

    def odds(self) -> LegOdds:
        """The same, as correctly rounded floats."""
        d = self.denominator
        return LegOdds(
            first=tuple(c / d for c in self.first),
            second=tuple(c / d for c in self.second),
            game_end=self.game_end / d,
            endings={k: c / d for k, c in self.endings.items()},
            tile_hits={t: c / d for t, c in self.tile_hits.items()},
        )


@dataclass(frozen=True)
class RaceOdds:
    """The end of the race: ``win[c]`` and ``last[c]`` are the probabilities that racing camel
    ``c`` wins (leads when a unit finishes) or is the loser (K20), ``joint[w][l]`` that ``w``
    wins and ``l`` is last (``joint[c][c]`` is 0; rows sum to ``win``, columns to ``last``).
    ``rollouts`` is the number of Monte Carlo rollouts behind the figures, 0 when they are
    exact."""

    win: tuple[float, ...]
    last: tuple[float, ...]
    joint: tuple[tuple[float, ...], ...]
    rollouts: int

    @property
    def exact(self) -> bool:
        """Whether no figure comes from sampling."""
        return self.rollouts == 0


@dataclass(frozen=True)
class GameOdds(RaceOdds):
    """:class:`RaceOdds` of the whole race from a mid-leg position, with the current leg's
    :class:`LegOdds`."""

    leg: LegOdds


def _check_edition(edition: int) -> None:
    if edition not in EDITIONS:
        raise OptionError(f"edition must be 1 or 2, not {edition!r}")


def check_position(
    order: Sequence[int],
    dice_mask: int | None = None,
    tiles: Mapping[int, int] | None = None,
    edition: int = 1,
) -> None:
    """Raise :class:`PositionError` naming the culprit unless the position can occur in a leg
    that is not over: every racing camel exactly once (plus both crazy camels, iff edition 2),
    in reading order, on indices 0..15; tiles on 1..15, oasis (+1) or mirage (−1), never on a
    camel nor next to another tile; and a dice mask within the edition's pyramid that leaves
    at least one draw in the leg.  An unknown edition raises :class:`OptionError`."""
    _check_edition(edition)
    camels = RACERS + (len(CRAZY) if edition == 2 else 0)
    seen: set[int] = set()
    previous: tuple[int, int] | None = None
    for code in order:
        if not isinstance(code, int | np.integer) or code < 0:
            raise PositionError(f"{code!r} is not a camel code (index * 8 + camel)")
        index, camel = int(code) >> 3, int(code) & 7
        if camel >= camels:
            raise PositionError(
                f"camel {_CAMEL_NAMES[camel] if camel < 7 else camel} is not in the "
                f"{'1st' if edition == 1 else '2nd'} edition's race (camels 0..{camels - 1})"
            )
        if camel in seen:
            raise PositionError(f"camel {_CAMEL_NAMES[camel]} appears twice")
        seen.add(camel)
        if index >= TRACK_LENGTH:
            raise PositionError(
                f"camel {_CAMEL_NAMES[camel]} is on index {index}: the race is over "
                f"(live camels are on 0..{TRACK_LENGTH - 1})"
            )
        if previous is not None and index < previous[0]:
            raise PositionError(
                f"not in reading order: camel {_CAMEL_NAMES[camel]} on index {index} comes "
                f"after camel {_CAMEL_NAMES[previous[1]]} on index {previous[0]}"
            )
        previous = (index, camel)
    missing = sorted(set(range(camels)) - seen)
    if missing:
        raise PositionError(f"camel {_CAMEL_NAMES[missing[0]]} is missing")
    occupied = {int(code) >> 3 for code in order}
    placed = sorted((tiles or {}).items())
    for index, side in placed:
        if not 1 <= index < TRACK_LENGTH:
            raise PositionError(f"a tile on index {index}: tiles go on indices 1..15")
        if side not in (OASIS, MIRAGE):
            raise PositionError(f"the tile on index {index} has side {side!r}, not +1 or −1")
        if index in occupied:
            raise PositionError(f"the tile on index {index} is under a camel")
    for (a, _), (b, _) in itertools.pairwise(placed):
        if b == a + 1:
            raise PositionError(f"the tiles on indices {a} and {b} are adjacent")
    if dice_mask is None:
        return
    full = full_pyramid(edition)
    if not isinstance(dice_mask, int) or dice_mask & ~full or dice_mask < 0:
        raise PositionError(
            f"dice mask {dice_mask!r} is not within the {'1st' if edition == 1 else '2nd'} "
            f"edition's pyramid {full:#b}"
        )
    left = dice_mask.bit_count()
    if left <= leg_end_dice(edition):
        raise PositionError(
            f"dice mask {dice_mask:#b} leaves {left} di{'e' if left == 1 else 'ce'}: "
            "the leg is already over"
        )


PLAIN_PATHS = 50_000
"""The most die orders and values a leg enumeration may have to run in plain Python while its
kernels compile in the background (:func:`~sleuth.core.compiled.plain_until_ready`): every 1st
edition leg (a fresh one has 29,160, about 0.15 s) and a 2nd-edition leg after its first die.
A fresh 2nd-edition leg has 349,920 (0.5 s), and an assistant's advice asks for two dozen of
them, one per tile: waiting for the compiler is sooner."""


def _paths(mask: int, draws: int) -> int:
    """The number of die orders and values of ``draws`` draws from the pyramid ``mask`` (the
    leg enumeration's denominator)."""
    dice = mask.bit_count()
    paths = 2 if mask >> GREY_DIE & 1 else 1  # a grey face picks a crazy camel too
    for drawn in range(draws):
        paths *= (dice - drawn) * 3
    return paths


def _enumerate(
    order: Sequence[int],
    dice_mask: int | None,
    tiles: Mapping[int, int] | None,
    edition: int,
    table: npt.NDArray[np.float64],
) -> tuple[LegCounts, npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Run the leg kernel on a checked position; return the leg's counts, the kernel's joint
    (completed leaves through ``table``), and the last layer's keys and weights."""
    from sleuth.games.camel_up import _kernels  # the kernels import Numba on a compiled call

    mask = full_pyramid(edition) if dice_mask is None else dice_mask
    live = dict(tiles or {})
    pos = np.array([code >> 3 for code in order], np.int64)
    cam = np.array([code & 7 for code in order], np.int64)
    board = np.zeros(TRACK_LENGTH, np.int64)
    for index, side in live.items():
        board[index] = side
    draws = mask.bit_count() - leg_end_dice(edition)
    small = _paths(mask, draws) <= PLAIN_PATHS
    with plain_until_ready() if small else contextlib.nullcontext():
        denominator, first, second, endings, hits, joint, leaves, sizes, keys, weights = (
            _kernels.enumerate_leg(pos, cam, mask, draws, board, table)
        )
    counts = LegCounts(
        denominator=int(denominator),
        first=tuple(int(c) for c in first),
        second=tuple(int(c) for c in second),
        endings={
            (winner, loser): int(endings[winner, loser])
            for winner in range(RACERS)
            for loser in range(RACERS)
            if endings[winner, loser]
        },
        tile_hits={index: int(hits[index]) for index in sorted(live)},
        leaves=int(leaves),
        layers=tuple(int(s) for s in sizes),
    )
    return counts, joint, keys, weights


def leg_counts(
    order: Sequence[int],
    dice_mask: int | None = None,
    tiles: Mapping[int, int] | None = None,
    edition: int = 1,
) -> LegCounts:
    """The rest of the current leg, exactly (see the module docstring).  ``dice_mask`` defaults
    to a fresh leg's pyramid."""
    check_position(order, dice_mask, tiles, edition)
    return _enumerate(order, dice_mask, tiles, edition, _NO_TABLE)[0]


def leg_odds(
    order: Sequence[int],
    dice_mask: int | None = None,
    tiles: Mapping[int, int] | None = None,
    edition: int = 1,
) -> LegOdds:
    """:func:`leg_counts` as probabilities."""
    return leg_counts(order, dice_mask, tiles, edition).odds()


def _race_odds(joint: npt.NDArray[np.float64], rollouts: int) -> RaceOdds:
    return RaceOdds(
        win=tuple(float(x) for x in joint.sum(axis=1)),
        last=tuple(float(x) for x in joint.sum(axis=0)),
        joint=tuple(tuple(float(x) for x in row) for row in joint),
        rollouts=rollouts,
    )


def game_odds(
    order: Sequence[int],
    dice_mask: int | None = None,
    tiles: Mapping[int, int] | None = None,
    edition: int = 1,
    *,
    rollouts: int = 10_000,
    seed: int = 0,
    table: RaceTable | None = None,
) -> GameOdds:
    """The whole race from this position (see the module docstring), with the leg's odds.

    1st edition: exact; ``table`` defaults to :func:`~sleuth.games.camel_up.race_table.
    race_table` (built and cached on first use) and ``rollouts`` and ``seed`` are not used.
    2nd edition: the current leg is exact and ``rollouts`` seeded rollouts (``seed``) estimate
    the later legs from the leaves that complete it, drawn by their probability.
    """
    check_position(order, dice_mask, tiles, edition)
    if edition == 2:
        if rollouts < 1:
            raise OptionError(f"rollouts must be at least 1, not {rollouts}")
        counts, _, keys, weights = _enumerate(order, dice_mask, tiles, edition, _NO_TABLE)
        joint = np.zeros((RACERS, RACERS))
        for ending, count in counts.endings.items():
            joint[ending] = count / counts.denominator
        completed = int(weights.sum())
        if completed:
            rng = random.Random(seed)
            sampled = np.zeros((RACERS, RACERS))
            cumulative = np.cumsum(weights).tolist()
            leaves = rng.choices(range(len(keys)), cum_weights=cumulative, k=rollouts)
            fresh = full_pyramid(2)
            for leaf in leaves:
                key = int(keys[leaf])
                start = tuple((key >> (7 * i)) & 127 for i in range(len(order)))
                sampled[rollout(start, fresh, {}, 2, rng)] += 1
            joint += sampled * (completed / counts.denominator / rollouts)
        odds = _race_odds(joint, rollouts if completed else 0)
        return GameOdds(odds.win, odds.last, odds.joint, odds.rollouts, counts.odds())
    lookup = (table or race_table()).joint
    counts, completed_joint, _, _ = _enumerate(order, dice_mask, tiles, edition, lookup)
    joint = completed_joint / counts.denominator
    for ending, count in counts.endings.items():
        joint[ending] += count / counts.denominator
    odds = _race_odds(joint, 0)
    return GameOdds(odds.win, odds.last, odds.joint, 0, counts.odds())


def rollout(
    order: Arrangement,
    dice_mask: int,
    tiles: Mapping[int, int],
    edition: int,
    rng: random.Random,
) -> tuple[int, int]:
    """Play the race to its end with ``rng``'s dice: the rest of the current leg with its
    ``tiles``, then fresh legs without tiles.  Returns (winner, loser).  The position is not
    checked."""
    full = full_pyramid(edition)
    leg_end = leg_end_dice(edition)
    white, black = CRAZY
    mask = dice_mask
    live = tiles
    while True:
        die = rng.choice(DICE[mask])
        if die == GREY_DIE:
            face = rng.randrange(6)
            camel = crazy_to_move(order, white if face < 3 else black)
            steps = face % 3 + 1
        else:
            camel = die
            steps = rng.randrange(3) + 1
        landing = move(order, camel, steps, live)
        order = landing.arrangement
        if landing.finished:
            ranking = racing_order(order)
            return ranking[-1], ranking[0]
        mask &= ~(1 << die)
        if mask.bit_count() == leg_end:
            mask = full
            live = {}


def monte_carlo(
    order: Sequence[int],
    dice_mask: int | None = None,
    tiles: Mapping[int, int] | None = None,
    edition: int = 1,
    *,
    rollouts: int = 10_000,
    seed: int = 0,
) -> RaceOdds:
    """The race's odds estimated by ``rollouts`` seeded rollouts (:func:`rollout`); the
    standard error of a probability p is sqrt(p (1 − p) / rollouts)."""
    check_position(order, dice_mask, tiles, edition)
    if rollouts < 1:
        raise OptionError(f"rollouts must be at least 1, not {rollouts}")
    start = tuple(order)
    mask = full_pyramid(edition) if dice_mask is None else dice_mask
    live = dict(tiles or {})
    rng = random.Random(seed)
    counts = np.zeros((RACERS, RACERS))
    for _ in range(rollouts):
        counts[rollout(start, mask, live, edition, rng)] += 1
    return _race_odds(counts / rollouts, rollouts)
