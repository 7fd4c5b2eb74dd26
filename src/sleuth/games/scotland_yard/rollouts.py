"""The Monte Carlo detective's rollouts, compiled (Numba when installed, plain Python otherwise).

:func:`decide` makes exactly the decisions of :func:`sleuth.games.scotland_yard.mc.decide` (same
rollouts, same random stream, same scores bit for bit) many times faster: the board becomes
arrays and every rollout of every candidate runs in one kernel.  See
:mod:`sleuth.games.scotland_yard.mc` for the rollout and the random stream.

Numba's on-disk cache is keyed on this file alone (:mod:`sleuth.core.compiled`), so the
constants the kernels read are defined here (a test checks them against
:mod:`~sleuth.games.scotland_yard.mc` and :mod:`~sleuth.games.scotland_yard.moves`).

Board arrays (:class:`BoardArrays`): ``near[s, j]`` is the ``j``-th neighbour of station ``s``
in increasing order over all four transports (``j < degree[s]``, the rest 0) and
``kinds[s, j]`` the transports joining them as bits: taxi 1, bus 2, underground 4, ferry 8.
Listing a station's neighbours in order and, for each, the tickets in ticket order gives moves
in the engine's move-list order (station, then taxi < bus < underground < black).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from sleuth.core.bitsets import mask_of
from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel
from sleuth.games.scotland_yard.board import Board, Transport, builtin_board
from sleuth.games.scotland_yard.mc import (
    GOLDEN,
    MASK64,
    MIX1,
    MIX2,
    Decision,
    MCParams,
    Position,
    candidates,
    decision,
)
from sleuth.games.scotland_yard.moves import TICKET_INDEX

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

DRAW_BITS = 40
"""As :data:`sleuth.games.scotland_yard.mc.DRAW_BITS`."""
BLACK = 3
"""Black's slot in Mr. X's ticket counts (taxi 0, bus 1, underground 2, black 3)."""
TRANSPORT_BITS: Final = {
    Transport.TAXI: 1,
    Transport.BUS: 2,
    Transport.UNDERGROUND: 4,
    Transport.FERRY: 8,
}
"""A transport's bit in :attr:`BoardArrays.kinds` (bit ``t`` for ticket slot ``t < 3``)."""


@dataclass(frozen=True)
class BoardArrays:
    """A board's neighbour lists and distances as int64 arrays (see the module docstring)."""

    near: Ints
    kinds: Ints
    degree: Ints
    distances: Ints

    @staticmethod
    def of(board: Board) -> BoardArrays:
        joined: list[dict[int, int]] = [{} for _ in range(board.n + 1)]
        for u, v, transport in board.edges:
            bit = TRANSPORT_BITS[transport]
            joined[u][v] = joined[u].get(v, 0) | bit
            joined[v][u] = joined[v].get(u, 0) | bit
        width = max(len(row) for row in joined)
        near = np.zeros((board.n + 1, width), np.int64)
        kinds = np.zeros((board.n + 1, width), np.int64)
        degree = np.zeros(board.n + 1, np.int64)
        for s, row in enumerate(joined):
            degree[s] = len(row)
            for j, q in enumerate(sorted(row)):
                near[s, j] = q
                kinds[s, j] = row[q]
        return BoardArrays(near, kinds, degree, board.distances.astype(np.int64))


_ARRAYS: weakref.WeakKeyDictionary[Board, BoardArrays] = weakref.WeakKeyDictionary()


def board_arrays(board: Board) -> BoardArrays:
    """The :class:`BoardArrays` of ``board``, built once per board."""
    arrays = _ARRAYS.get(board)
    if arrays is None:
        arrays = _ARRAYS[board] = BoardArrays.of(board)
    return arrays


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """:func:`sleuth.games.scotland_yard.mc.mix` on arrays (uint64 arithmetic wraps)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


def draw_table(seed: int, rollouts: int, draws: int) -> Ints:
    """``table[r, k] == mc.draw(seed, r, k)`` for ``r < rollouts`` and ``k < draws``."""
    golden = np.uint64(GOLDEN)
    r = np.arange(1, rollouts + 1, dtype=np.uint64)
    bases = _mix(np.uint64(seed & MASK64) + r * golden)
    k = np.arange(1, draws + 1, dtype=np.uint64)
    outputs = _mix(bases[:, None] + k[None, :] * golden)
    return (outputs >> np.uint64(64 - DRAW_BITS)).astype(np.int64)


def decide(position: Position, params: MCParams) -> Decision:
    """The Monte Carlo detective's choice at ``position``: what
    :func:`sleuth.games.scotland_yard.mc.decide` chooses, with the same scores."""
    moves = candidates(position)
    if not moves:
        return decision(params, moves, (), ())
    arrays = board_arrays(position.board)
    n = len(position.detectives)
    stations = np.array(position.sample_set(params.sample_from), np.int64)
    draws = draw_table(params.seed, params.rollouts, 1 + params.depth * (n + 1))
    captures = np.zeros(len(moves), np.int64)
    totals = np.zeros(len(moves), np.float64)
    evaluate(
        arrays.near,
        arrays.kinds,
        arrays.degree,
        arrays.distances,
        np.array(position.detectives, np.int64),
        np.array(position.detective_tickets, np.int64).reshape(n, 3),
        np.array(position.mrx_tickets, np.int64),
        position.mover,
        np.array([m.station for m in moves], np.int64),
        np.array([TICKET_INDEX[m.ticket] for m in moves], np.int64),
        stations,
        draws,
        params.depth,
        position.turns_left,
        position.last_phase,
        position.tickets_to_mrx,
        position.mrx_unlimited,
        captures,
        totals,
    )
    return decision(params, moves, [int(c) for c in captures], [float(t) for t in totals])


@kernel
def occupied(detectives: Ints, skip: int, station: int) -> bool:
    """True if a detective other than ``skip`` (-1: none) stands on ``station``."""
    found = False
    for i in range(detectives.shape[0]):
        found |= i != skip and detectives[i] == station
    return found


@kernel
def detective_options(
    near: Ints,
    kinds: Ints,
    degree: Ints,
    detectives: Ints,
    tickets: Ints,
    i: int,
    out_station: Ints,
    out_ticket: Ints,
) -> int:
    """Detective ``i``'s legal moves, in move-list order, written into the outputs; returns
    how many (:func:`sleuth.games.scotland_yard.moves.detective_moves`)."""
    s = detectives[i]
    m = 0
    for j in range(degree[s]):
        q = near[s, j]
        if occupied(detectives, i, q):
            continue
        for t in range(3):
            if kinds[s, j] >> t & 1 and tickets[i, t] > 0:
                out_station[m] = q
                out_ticket[m] = t
                m += 1
    return m


@kernel
def mrx_options(
    near: Ints,
    kinds: Ints,
    degree: Ints,
    detectives: Ints,
    x: int,
    tickets: Ints,
    out_station: Ints,
    out_ticket: Ints,
) -> int:
    """Mr. X's legal single moves from ``x``, in move-list order, written into the outputs;
    returns how many (:func:`sleuth.games.scotland_yard.moves.single_moves`)."""
    m = 0
    for j in range(degree[x]):
        q = near[x, j]
        if occupied(detectives, -1, q):
            continue
        for t in range(BLACK + 1):
            if tickets[t] > 0 and (t == BLACK or kinds[x, j] >> t & 1):
                out_station[m] = q
                out_ticket[m] = t
                m += 1
    return m


@kernel
def distance_sum(distances: Ints, detectives: Ints, x: int) -> int:
    total = 0
    for i in range(detectives.shape[0]):
        total += distances[detectives[i], x]
    return total


@kernel
def evaluate(
    near: Ints,
    kinds: Ints,
    degree: Ints,
    distances: Ints,
    detectives: Ints,
    detective_tickets: Ints,
    mrx_tickets: Ints,
    mover: int,
    cand_station: Ints,
    cand_ticket: Ints,
    stations: Ints,
    draws: Ints,
    depth: int,
    turns_left: int,
    last_phase: bool,
    to_mrx: bool,
    unlimited: bool,
    captures: Ints,
    totals: Floats,
) -> None:
    """For each candidate ``c``: ``captures[c]`` = rollouts that captured Mr. X and
    ``totals[c]`` = the sum of their ``avg_dist`` in rollout order (the steps of
    :mod:`sleuth.games.scotland_yard.mc`; rollout ``r`` reads its draws from ``draws[r]``)."""
    n = detectives.shape[0]
    det = np.empty(n, np.int64)
    tickets = np.empty((n, 3), np.int64)
    mrx = np.empty(5, np.int64)
    width = near.shape[1] * 4
    opt_station = np.empty(width, np.int64)
    opt_ticket = np.empty(width, np.int64)
    for c in range(cand_station.shape[0]):
        caught = 0
        total = 0.0
        for r in range(draws.shape[0]):
            det[:] = detectives
            tickets[:, :] = detective_tickets
            mrx[:] = mrx_tickets
            x = stations[(draws[r, 0] * stations.shape[0]) >> DRAW_BITS]
            k = 1
            # the candidate
            t = cand_ticket[c]
            tickets[mover, t] -= 1
            if to_mrx:
                mrx[t] += 1
            det[mover] = cand_station[c]
            captured = det[mover] == x
            left = turns_left
            points = 0
            turns = 0
            first = mover + 1
            for turn in range(depth):
                if captured:
                    break
                if turn > 0:
                    if left == 0 and not last_phase:
                        break
                    first = 0
                for i in range(first, n):
                    m = detective_options(
                        near, kinds, degree, det, tickets, i, opt_station, opt_ticket
                    )
                    if m == 0:
                        continue
                    pick = (draws[r, k] * m) >> DRAW_BITS
                    k += 1
                    t = opt_ticket[pick]
                    tickets[i, t] -= 1
                    if to_mrx:
                        mrx[t] += 1
                    det[i] = opt_station[pick]
                    if det[i] == x:
                        captured = True
                        break
                if captured or left == 0:
                    break
                m = mrx_options(near, kinds, degree, det, x, mrx, opt_station, opt_ticket)
                if m == 0:
                    captured = True
                    break
                pick = (draws[r, k] * m) >> DRAW_BITS
                k += 1
                t = opt_ticket[pick]
                if not (unlimited and t != BLACK):
                    mrx[t] -= 1
                x = opt_station[pick]
                left -= 1
                points += distance_sum(distances, det, x)
                turns += 1
            if captured:
                caught += 1
            elif turns > 0:
                total += points / (n * turns)
            else:
                total += distance_sum(distances, det, x) / n
        captures[c] = caught
        totals[c] = total


def warm_up() -> None:
    """Compile the kernels (or load them from Numba's cache) with one small decision."""
    board = builtin_board()
    detectives = (1, 2)
    possible = board.all_stations & ~mask_of(detectives)
    position = Position(
        board=board,
        detectives=detectives,
        detective_tickets=((1, 1, 1), (1, 1, 1)),
        mrx_tickets=(1, 1, 1, 1, 1),
        mover=0,
        possible=possible,
        anchor=possible,
        since=0,
        turns_left=2,
        last_phase=True,
        tickets_to_mrx=True,
        mrx_unlimited=False,
    )
    decide(position, MCParams(rollouts=2, depth=2))
