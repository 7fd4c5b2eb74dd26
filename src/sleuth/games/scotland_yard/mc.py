"""The Monte Carlo detective of ``docs/scotland-yard.md`` (the baseline bot), written plainly.

A detective to move scores each of his legal moves by random rollouts and plays the best
(:func:`decide`).  For each candidate move, rollout ``r`` (``r = 0 .. N - 1``) on a copy of the
position:

1. draws Mr. X's station uniformly from the sample set: the tracker's possible stations
   (``sample_from="possible"``), or (``"reachable"``) the stations ``k`` moves of any transport,
   ferries included, from his last revealed station (before any reveal: his start stations),
   ``k`` being the log entries since, minus the detectives' stations;
2. plays the candidate, then a uniformly random legal move (or a pass) for each detective after
   the mover in seat order; a detective landing on Mr. X captures him;
3. Mr. X then makes a uniformly random legal single move (black tickets included, no double
   moves); without one he is cornered, which counts as a capture.  Where the game would be over
   instead (log full, or the round limit), the rollout ends without capture; so it does before
   the detectives' moves of a turn that the game would not play (``final_detective_phase``
   off);
4. adds the sum of the detectives' distances to Mr. X (board distances, ferries ignored) to
   ``dist_points``: one turn completed;
5. repeats, for turns ``2 .. depth``, with every detective moving at random in seat order.

A rollout gives ``captured`` (1 or 0) and ``avg_dist``: 0 after a capture, else
``dist_points / (n * turns completed)``, or the mean distance at its end when no turn was
completed.  ``score = w1 * captures / N - w2 * (sum of avg_dist) / N``; the first candidate in
move-list order (station, then taxi < bus < underground) with the highest score is played.
Tickets flow as in the game: a detective's spent ticket goes to Mr. X when the edition says so;
Mr. X spends his, except taxi, bus and underground from an unlimited supply.  Reveals do not
matter inside a rollout: its Mr. X is known.

**Random stream.**  Every random choice is a function of ``(seed, r, k)``, ``k`` counting the
draws of rollout ``r`` (the station draw is ``k = 0``): the ``k``-th output of SplitMix64 seeded
with the ``r``-th output of SplitMix64 seeded with ``seed`` (:func:`draw`).  A choice among
``m`` options takes index ``(v * m) >> 40`` of the draw's top 40 bits ``v`` (:func:`choose`).
Every candidate sees the same draws (common random numbers), and the compiled implementation
(:mod:`sleuth.games.scotland_yard.rollouts`) consumes the same stream in the same order, so the
two score every candidate identically and make the same decisions.  A draw is consumed by each
choice actually made (no draw for a stuck detective's pass or a cornered Mr. X).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from sleuth.core.bitsets import mask_of, members
from sleuth.core.events import Event
from sleuth.games.scotland_yard.board import Board
from sleuth.games.scotland_yard.catalogue import COMPILED_BUDGET as COMPILED_BUDGET
from sleuth.games.scotland_yard.catalogue import IMPLEMENTATIONS as IMPLEMENTATIONS
from sleuth.games.scotland_yard.catalogue import (
    MC_DEPTH,
    MC_ROLLOUTS,
    MC_W1,
    MC_W2,
    SAMPLE_FROM_DEFAULT,
)
from sleuth.games.scotland_yard.catalogue import PLAIN_BUDGET as PLAIN_BUDGET
from sleuth.games.scotland_yard.catalogue import SAMPLE_FROM as SAMPLE_FROM
from sleuth.games.scotland_yard.catalogue import move_budget as move_budget
from sleuth.games.scotland_yard.edition import Profile
from sleuth.games.scotland_yard.moves import Move, Ticket, detective_moves, single_moves
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.tracker import leg_tables

SampleFrom = Literal["possible", "reachable"]

MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
DRAW_BITS: Final = 40
"""A draw keeps the top 40 bits of a 64-bit output; a choice among ``m < 2**23`` options is
then exact in 64-bit integer arithmetic."""
MAX_OPTIONS: Final = 1 << 23


def mix(z: int) -> int:
    """SplitMix64's output function on a 64-bit value."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def splitmix(seed: int, i: int) -> int:
    """The ``i``-th output (from 0) of SplitMix64 seeded with ``seed`` (reduced to 64 bits)."""
    return mix(((seed & MASK64) + (i + 1) * GOLDEN) & MASK64)


def draw(seed: int, r: int, k: int) -> int:
    """Draw ``k`` of rollout ``r``: a 40-bit value (``0 <= v < 2**40``)."""
    return splitmix(splitmix(seed, r), k) >> (64 - DRAW_BITS)


def choose(v: int, m: int) -> int:
    """The option a draw ``v`` picks among ``m`` (``floor(v / 2**40 * m)``, exactly)."""
    assert 0 < m < MAX_OPTIONS
    return (v * m) >> DRAW_BITS


@dataclass(frozen=True)
class MCParams:
    """The bot's settings: ``rollouts`` per candidate (N), turns looked ahead (``depth``), the
    score weights, the sample set, and the seed of the decision's random stream."""

    rollouts: int = MC_ROLLOUTS
    depth: int = MC_DEPTH
    w1: float = MC_W1
    w2: float = MC_W2
    sample_from: SampleFrom = SAMPLE_FROM_DEFAULT
    seed: int = 0

    def __post_init__(self) -> None:
        if self.rollouts < 1 or self.depth < 1:
            raise ValueError("rollouts and depth must be at least 1")
        if self.sample_from not in SAMPLE_FROM:
            raise ValueError(f"sample_from={self.sample_from!r}: one of {', '.join(SAMPLE_FROM)}")


@dataclass(frozen=True)
class Position:
    """What the detectives know when detective ``mover`` (0-based) is to move.

    ``possible``: the tracker's possible stations of Mr. X (a bitset, none held by a
    detective).  ``anchor``: his last revealed station as a bitset, or his start stations
    before any reveal; ``since``: log entries filled after it.  ``turns_left``: Mr. X's turns
    before the game is over (log entries left, or rounds left under a round limit);
    ``last_phase``: whether the detectives still move after his last turn.
    """

    board: Board
    detectives: tuple[int, ...]
    detective_tickets: tuple[tuple[int, int, int], ...]
    mrx_tickets: tuple[int, int, int, int, int]
    mover: int
    possible: int
    anchor: int
    since: int
    turns_left: int
    last_phase: bool
    tickets_to_mrx: bool
    mrx_unlimited: bool

    def sample_set(self, sample_from: SampleFrom) -> list[int]:
        """The stations step 1 draws from, in increasing order."""
        if sample_from == "possible":
            return members(self.possible)
        tables = leg_tables(self.board)
        bits = self.anchor
        for _ in range(self.since):
            bits = tables.reach(bits, "black")
        bits &= ~mask_of(self.detectives)
        assert bits & self.possible == self.possible, "the reachable set holds every possible one"
        return members(bits)


def horizon(profile: Profile, entries: int, round_: int) -> tuple[int, bool]:
    """``(turns_left, last_phase)`` of a :class:`Position` in round ``round_`` once ``entries``
    log entries are filled and Mr. X has moved this round (single moves fill one entry each)."""
    log_left = profile.log_length - entries
    if profile.max_rounds and profile.max_rounds - round_ < log_left:
        return profile.max_rounds - round_, True
    return log_left, profile.final_detective_phase


@dataclass(frozen=True)
class Decision:
    """The move played and, per candidate (in move-list order), the captures counted and the
    sum of ``avg_dist`` over the rollouts, and the score."""

    move: Move | None
    candidates: tuple[Move, ...]
    captures: tuple[int, ...]
    dist_totals: tuple[float, ...]
    scores: tuple[float, ...]


def score(params: MCParams, captures: int, dist_total: float) -> float:
    """``w1 * P(capture) - w2 * mean(avg_dist)`` from the sums over ``params.rollouts``."""
    n = params.rollouts
    return params.w1 * (captures / n) - params.w2 * (dist_total / n)


def decision(
    params: MCParams,
    candidates: Sequence[Move],
    captures: Sequence[int],
    dist_totals: Sequence[float],
) -> Decision:
    """The :class:`Decision` from each candidate's sums: the first best score wins."""
    scores = tuple(score(params, c, d) for c, d in zip(captures, dist_totals, strict=True))
    best = 0
    for i, value in enumerate(scores):
        if value > scores[best]:
            best = i
    return Decision(
        candidates[best] if candidates else None,
        tuple(candidates),
        tuple(captures),
        tuple(dist_totals),
        scores,
    )


def candidates(position: Position) -> tuple[Move, ...]:
    """The mover's legal moves (empty: he passes)."""
    occupied = mask_of(s for i, s in enumerate(position.detectives) if i != position.mover)
    mover = position.mover
    return detective_moves(
        position.board,
        position.detectives[mover],
        position.detective_tickets[mover],
        occupied,
    )


def decide(position: Position, params: MCParams) -> Decision:
    """The Monte Carlo detective's choice at ``position`` (plain Python over the engine's move
    generation)."""
    moves = candidates(position)
    stations = position.sample_set(params.sample_from)
    distances = position.board.distances
    captures: list[int] = []
    totals: list[float] = []
    for move in moves:
        caught = 0
        total = 0.0
        for r in range(params.rollouts):
            got, avg = _Rollout(position, params.seed, r, distances).run(
                move, stations, params.depth
            )
            caught += got
            total += avg
        captures.append(caught)
        totals.append(total)
    return decision(params, moves, captures, totals)


class _Rollout:
    """One rollout's copy of the position and its draw counter."""

    def __init__(
        self, position: Position, seed: int, r: int, distances: npt.NDArray[np.int16]
    ) -> None:
        self.p = position
        self.base = splitmix(seed, r)
        self.k = 0
        self.distances = distances
        self.detectives = list(position.detectives)
        self.tickets = [list(t) for t in position.detective_tickets]
        self.mrx_tickets = list(position.mrx_tickets)
        self.mrx = 0

    def pick(self, m: int) -> int:
        """The index of the next draw's choice among ``m`` options."""
        v = splitmix(self.base, self.k) >> (64 - DRAW_BITS)
        self.k += 1
        return choose(v, m)

    def move_detective(self, i: int, move: Move) -> bool:
        """Play ``move`` for detective ``i``; True if he lands on Mr. X."""
        self.tickets[i][move.ticket.slot] -= 1
        if self.p.tickets_to_mrx:
            self.mrx_tickets[move.ticket.slot] += 1
        self.detectives[i] = move.station
        return move.station == self.mrx

    def random_detective(self, i: int) -> bool:
        """A uniformly random legal move of detective ``i`` (a pass if he has none)."""
        occupied = mask_of(s for j, s in enumerate(self.detectives) if j != i)
        moves = detective_moves(self.p.board, self.detectives[i], self.tickets[i], occupied)
        return bool(moves) and self.move_detective(i, moves[self.pick(len(moves))])

    def distance_sum(self) -> int:
        return sum(int(self.distances[d, self.mrx]) for d in self.detectives)

    def run(self, candidate: Move, stations: Sequence[int], depth: int) -> tuple[int, float]:
        """``(captured, avg_dist)`` of this rollout after ``candidate``."""
        p = self.p
        n = len(self.detectives)
        self.mrx = stations[self.pick(len(stations))]
        if self.move_detective(p.mover, candidate):
            return 1, 0.0
        turns_left = p.turns_left
        dist_points = 0
        turns = 0
        first = p.mover + 1
        for turn in range(depth):
            if turn:
                if not turns_left and not p.last_phase:
                    break
                first = 0
            for i in range(first, n):
                if self.random_detective(i):
                    return 1, 0.0
            if not turns_left:
                break
            moves = single_moves(p.board, self.mrx, self.mrx_tickets, mask_of(self.detectives))
            if not moves:
                return 1, 0.0
            move = moves[self.pick(len(moves))]
            if not (p.mrx_unlimited and move.ticket is not Ticket.BLACK):
                self.mrx_tickets[move.ticket.slot] -= 1
            self.mrx = move.station
            turns_left -= 1
            dist_points += self.distance_sum()
            turns += 1
        if turns:
            return 0, dist_points / (n * turns)
        return 0, self.distance_sum() / n


class PublicRecord:
    """The public facts of a game read from the detectives' events, one at a time: the
    detectives' stations and tickets, Mr. X's tickets (S5, S6), the log entries filled, the
    round, the detective to move, and the last reveal (the :class:`Position` needs them; the
    possible stations come from the tracker)."""

    def __init__(self, game: ScotlandYardGame) -> None:
        self.game = game
        p = game.profile
        self.detectives: list[int] = []
        self.detective_tickets = [list(p.detective_tickets) for _ in range(p.detectives)]
        self.mrx_tickets = list(p.mrx_tickets)
        self.entries = 0
        self.round = 0
        self.to_move = 0
        self.anchor = 0
        self.anchor_entry = 0

    def read(self, event: Event) -> None:
        """Take in the next public event."""
        p = self.game.profile
        fields = event.public
        if event.kind == "start":
            self.detectives = list(fields["detectives"])
            self.anchor = self.game.mrx_start_set(self.detectives)
        elif event.kind == "mrx_moved":
            ticket = Ticket(fields["ticket"])
            if fields["leg"] < 2:
                self.round += 1
            if fields["leg"] == 1:
                self.mrx_tickets[Ticket.DOUBLE.slot] -= 1
            if not (p.mrx_unlimited and ticket is not Ticket.BLACK):
                self.mrx_tickets[ticket.slot] -= 1
            self.entries = fields["entry"]
            if fields["reveal"] is not None:
                self.anchor, self.anchor_entry = 1 << fields["reveal"], self.entries
            self.to_move = 0
        elif event.kind == "detective_moved":
            i = fields["detective"]
            slot = Ticket(fields["ticket"]).slot
            self.detective_tickets[i][slot] -= 1
            if p.tickets_to_mrx:
                self.mrx_tickets[slot] += 1
            self.detectives[i] = fields["station"]
            self.to_move = i + 1
        elif event.kind == "detective_passed":
            self.to_move = fields["detective"] + 1

    def position(self, possible: int) -> Position:
        """The :class:`Position` of the detective to move, ``possible`` being the tracker's
        possible stations of Mr. X."""
        p = self.game.profile
        turns_left, last_phase = horizon(p, self.entries, self.round)
        t = self.mrx_tickets
        return Position(
            board=self.game.board,
            detectives=tuple(self.detectives),
            detective_tickets=tuple((a, b, c) for a, b, c in self.detective_tickets),
            mrx_tickets=(t[0], t[1], t[2], t[3], t[4]),
            mover=self.to_move,
            possible=possible,
            anchor=self.anchor,
            since=self.entries - self.anchor_entry,
            turns_left=turns_left,
            last_phase=last_phase,
            tickets_to_mrx=p.tickets_to_mrx,
            mrx_unlimited=p.mrx_unlimited,
        )
