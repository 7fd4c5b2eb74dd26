"""The search's playouts on plain numbers: no events, no move objects.

:func:`playout` plays a world on exactly as the search layer's generic simulation loop does
with :class:`~sleuth.games.scotland_yard.search.ScotlandYardSearchModel`'s moves (the same
moves, the same calls on the random stream in the same order, the same result), but on the
stations and ticket counts alone.  The generic loop, per move: a terminal position ends it; at
the depth limit the position is evaluated; otherwise, with the heuristic policy, one
``rng.random()`` decides between the greedy move (:mod:`~sleuth.games.scotland_yard.tactics`:
ties drawn with ``rng.choice`` among the tied stations in increasing order, only when there are
several) and the rollout move (``rng.choice`` over the sorted legal single moves, or over
``(pass,)`` for a stuck detective).  A test pins this equivalence on many worlds and seeds.

Mr. X plays single moves only in playouts, so whenever he is to move he has one: the engine
ends a game at once where he has none (cornered).
"""

from __future__ import annotations

import random

from sleuth.core.bitsets import members
from sleuth.core.outcome import side_wins
from sleuth.games.scotland_yard.rules import (
    DETECTIVES_SIDE,
    MRX_SIDE,
    TO_MRX,
    ScotlandYardState,
)
from sleuth.games.scotland_yard.tactics import FAR, tables

EVAL_BASE = 0.5
"""At a depth limit each detective at distance ``d`` from Mr. X is taken to catch him with odds
``EVAL_BASE ** d``, independently: Mr. X's share is the product of ``1 - EVAL_BASE ** d``."""
ESCAPE = tuple(1.0 - EVAL_BASE**d for d in range(FAR + 1))
"""``ESCAPE[d] == 1.0 - EVAL_BASE ** d``: the factor of a detective at distance ``d``."""

Result = tuple[tuple[float, ...], int | None]
"""Each seat's win share (or estimated share at the depth limit) and the credited seat."""


def escape_share(row: bytes, detectives: list[int]) -> float:
    """Mr. X's estimated share with the detectives at ``detectives`` (``row``: distances from
    his station), multiplied in detective order."""
    escape = 1.0
    for d in detectives:
        escape *= ESCAPE[row[d]]
    return escape


def playout(
    state: ScotlandYardState, rng: random.Random, greedy: bool, epsilon: float, left: int | None
) -> Result:
    """Play ``state`` (after the deal) on for at most ``left`` moves (None: to the end) as the
    generic loop would (module docstring); ``state`` itself is not changed.  The detectives
    stand on distinct stations (S14), so ``occupied`` (their stations as a bitset) less a
    detective's own station is what blocks him."""
    game = state.game
    p = game.profile
    t = tables(game.board)
    dist = t.dist
    legs = t.legs
    log_length, to_mrx_tickets, unlimited = p.log_length, p.tickets_to_mrx, p.mrx_unlimited
    escape_after_move = not p.final_detective_phase
    max_rounds = p.max_rounds
    mrx = state.mrx
    det = list(state.detectives)
    held = [list(tickets) for tickets in state.detective_tickets]
    xt = list(state.mrx_tickets)
    entries, round_, to_move = state.entries, state.round, state.to_move
    winner, reason = state.winner, state.termination_reason
    n = len(det)
    occupied = 0
    for d in det:
        occupied |= 1 << d
    draw, choice = rng.random, rng.choice
    while winner is None:
        if left is not None:
            if left <= 0:
                escape = escape_share(dist[mrx], det)
                return (escape,) + (1.0 - escape,) * (game.num_players - 1), None
            left -= 1
        if to_move == TO_MRX:
            reach = _mrx_reach(legs, mrx, xt) & ~occupied
            if greedy and draw() >= epsilon:
                best = -1
                choices: list[int] = []
                while reach:
                    low = reach & -reach
                    reach ^= low
                    s = low.bit_length() - 1
                    score = min(map(dist[s].__getitem__, det)) if n else FAR
                    if score > best:
                        best, choices = score, [s]
                    elif score == best:
                        choices.append(s)
                target = choices[0] if len(choices) == 1 else choice(choices)
                slot = most_held(legs, mrx, target, xt)
                if slot < 0:
                    slot = 3
            else:
                target, slot = choice(
                    [
                        (s, k)
                        for s in members(reach)
                        for k in range(4)
                        if xt[k] > 0 and legs[k][mrx] >> s & 1
                    ]
                )
            if not (unlimited and slot != 3):
                xt[slot] -= 1
            mrx = target
            entries += 1
            if entries >= log_length and escape_after_move:
                winner, reason = MRX_SIDE, "escaped"
            elif not any(_reach(legs, d, held[i], occupied ^ 1 << d) for i, d in enumerate(det)):
                winner, reason = MRX_SIDE, "blocked"
            else:
                to_move = 0
            continue
        i = to_move
        station, tickets = det[i], held[i]
        reach = _reach(legs, station, tickets, occupied ^ 1 << station)
        dest = 0
        if greedy and draw() >= epsilon:
            if reach:
                row = dist[mrx]
                best = FAR + 1
                choices = []
                while reach:
                    low = reach & -reach
                    reach ^= low
                    s = low.bit_length() - 1
                    d = row[s]
                    if d < best:
                        best, choices = d, [s]
                    elif d == best:
                        choices.append(s)
                dest = choices[0] if len(choices) == 1 else choice(choices)
                slot = most_held(legs, station, dest, tickets)
        else:
            options = [
                (s, k)
                for s in members(reach)
                for k in range(3)
                if tickets[k] > 0 and legs[k][station] >> s & 1
            ]
            dest, slot = choice(options) if options else choice(((0, -1),))
        if dest:
            tickets[slot] -= 1
            if to_mrx_tickets:
                xt[slot] += 1
            det[i] = dest
            occupied ^= 1 << station | 1 << dest
            if dest == mrx:
                winner, reason = DETECTIVES_SIDE, "caught"
                break
        if i + 1 < n:
            to_move = i + 1
            continue
        if entries >= log_length or (max_rounds and round_ >= max_rounds):
            winner, reason = MRX_SIDE, "escaped"
            break
        round_ += 1
        to_move = TO_MRX
        if not _mrx_reach(legs, mrx, xt) & ~occupied:
            winner, reason = DETECTIVES_SIDE, "cornered"
    credit = game.seat_of(to_move) if reason == "caught" else None
    return side_wins(game.sides(), (winner,)), credit


def _mrx_reach(legs: tuple[tuple[int, ...], ...], station: int, tickets: list[int]) -> int:
    """The stations Mr. X's tickets take him to from ``station``, detectives ignored."""
    taxi, bus, under, anywhere = legs
    reach = taxi[station] if tickets[0] > 0 else 0
    if tickets[1] > 0:
        reach |= bus[station]
    if tickets[2] > 0:
        reach |= under[station]
    if tickets[3] > 0:
        reach |= anywhere[station]
    return reach


def _reach(legs: tuple[tuple[int, ...], ...], station: int, tickets: list[int], others: int) -> int:
    """The stations a detective's ``tickets`` take him to from ``station``, ``others`` (the
    other detectives' stations) left out."""
    reach = legs[0][station] if tickets[0] > 0 else 0
    if tickets[1] > 0:
        reach |= legs[1][station]
    if tickets[2] > 0:
        reach |= legs[2][station]
    return reach & ~others


def most_held(
    legs: tuple[tuple[int, ...], ...], station: int, target: int, tickets: list[int]
) -> int:
    """The slot of the transport ticket held most (taxi first on ties) whose edge joins
    ``station`` to ``target``; -1 if none (as in
    :func:`~sleuth.games.scotland_yard.tactics.mrx_ticket`)."""
    slot = -1
    for k in range(3):
        if (
            tickets[k] > 0
            and legs[k][station] >> target & 1
            and (slot < 0 or tickets[k] > tickets[slot])
        ):
            slot = k
    return slot
