"""The Monte Carlo detective (docs/scotland-yard.md): its random stream, the plain and the
compiled implementations making the same decisions with the same scores on random positions,
hand-traced and exhaustively computed scores on small boards, the public record against the
engine, and games through the match runner."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.bitsets import mask_of, members
from sleuth.core.compiled import DISABLE_VARIABLE
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.scotland_yard import mc, rollouts
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.board import Board, Transport, from_rows
from sleuth.games.scotland_yard.edition import UNLIMITED
from sleuth.games.scotland_yard.moves import (
    TICKET_INDEX,
    Move,
    Ticket,
    detective_moves,
    single_moves,
)
from sleuth.games.scotland_yard.rules import ScotlandYardGame, ScotlandYardState

from .helpers import CLASSIC_DIR, classic_board

TAXI = Transport.TAXI


def sy_game(classic: bool, **options: Any) -> ScotlandYardGame:
    if classic:
        classic_board()  # skips when the map is absent
        options = {"map": str(CLASSIC_DIR), **options}
    game = make_game("scotland-yard", options)
    assert isinstance(game, ScotlandYardGame)
    return game


def positions(
    game: ScotlandYardGame, seed: int, share: float = 1.0
) -> list[tuple[mc.Position, ScotlandYardState]]:
    """The positions of a uniformly random game at detectives' turns (about ``share`` of them),
    read from the detectives' view, each with the true state; the public record is checked
    against the engine at each."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    belief = MrXBelief(game)
    record = mc.PublicRecord(game)
    found: list[tuple[mc.Position, ScotlandYardState]] = []
    events = state.apply(state.sample_chance(rng))
    while True:
        for event in events:
            belief.update(event.seen_by(1))
            record.read(event.seen_by(1))
        if state.is_terminal():
            return found
        if state.to_move >= 0 and rng.random() < share:
            assert belief.tracker is not None
            position = record.position(belief.tracker.possible)
            check_record(position, state)
            found.append((position, state.clone()))
        events = state.apply(rng.choice(state.legal_actions()))


def check_record(position: mc.Position, state: ScotlandYardState) -> None:
    assert position.detectives == tuple(state.detectives)
    assert [list(t) for t in position.detective_tickets] == state.detective_tickets
    assert list(position.mrx_tickets) == state.mrx_tickets
    assert position.mover == state.to_move
    p = state.game.profile
    assert position.turns_left <= p.log_length - state.entries
    assert position.possible >> state.mrx & 1
    anchor_is_reveal = position.since < state.entries
    if anchor_is_reveal:
        revealed = state.log[state.entries - position.since - 1][1]
        assert position.anchor == 1 << revealed
        assert state.entries - position.since in p.reveals
    else:
        assert not p.reveals & set(range(1, state.entries + 1))


# --- the random stream -------------------------------------------------------------------


def test_splitmix_matches_the_published_sequence() -> None:
    """SplitMix64 seeded with 0 starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4."""
    assert mc.splitmix(0, 0) == 0xE220A8397B1DCDAF
    assert mc.splitmix(0, 1) == 0x6E789E6AA1B965F4


@pytest.mark.parametrize("seed", [0, 1, 12345, (1 << 63) - 1, (1 << 64) + 7, 2**70 + 3])
def test_draw_table_is_the_plain_stream(seed: int) -> None:
    table = rollouts.draw_table(seed, 7, 9)
    assert table.shape == (7, 9)
    for r in range(7):
        for k in range(9):
            assert int(table[r, k]) == mc.draw(seed, r, k)
            assert 0 <= mc.draw(seed, r, k) < 1 << mc.DRAW_BITS


def test_choose_is_floor_of_u_times_m() -> None:
    top = (1 << mc.DRAW_BITS) - 1
    for m in (1, 2, 3, 13, 199, 1000):
        assert mc.choose(0, m) == 0
        assert mc.choose(top, m) == m - 1
        for v in (1, top // 3, top // 2, 1 << 39, top - 5):
            assert mc.choose(v, m) == math.floor(v / 2**mc.DRAW_BITS * m)
    counts = [0] * 5
    for r in range(2_000):
        counts[mc.choose(mc.draw(9, r, 0), 5)] += 1
    assert all(340 < c < 460 for c in counts)  # about 400 each


def test_kernel_constants_agree_with_the_rules_modules() -> None:
    assert rollouts.DRAW_BITS == mc.DRAW_BITS
    assert Ticket.BLACK.slot == rollouts.BLACK
    for ticket in (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND):
        assert rollouts.TRANSPORT_BITS[Transport(ticket.value)] == 1 << TICKET_INDEX[ticket]


# --- the board arrays and the kernels' move lists ----------------------------------------


@pytest.mark.parametrize("classic", [True, False])
def test_kernel_move_lists_are_the_engines(classic: bool) -> None:
    board = sy_game(classic).board
    arrays = rollouts.board_arrays(board)
    assert rollouts.board_arrays(board) is arrays
    rng = random.Random(5)
    out_s = np.empty(arrays.near.shape[1] * 4, np.int64)
    out_t = np.empty_like(out_s)
    for _ in range(300):
        pawns = rng.sample(range(1, board.n + 1), 6)
        x, detectives = pawns[0], pawns[1:]
        dets = np.array(detectives, np.int64)
        tickets = np.array([[rng.randint(0, 2) for _ in range(3)] for _ in detectives], np.int64)
        i = rng.randrange(5)
        others = mask_of(s for j, s in enumerate(detectives) if j != i)
        want = detective_moves(board, detectives[i], list(tickets[i]), others)
        m = rollouts.detective_options(
            arrays.near, arrays.kinds, arrays.degree, dets, tickets, i, out_s, out_t
        )
        got = [Move(int(out_s[j]), list(Ticket)[out_t[j]]) for j in range(m)]
        assert got == list(want)
        mrx = np.array([rng.randint(0, 1) for _ in range(5)], np.int64)
        want_x = single_moves(board, x, list(mrx), mask_of(detectives))
        m = rollouts.mrx_options(
            arrays.near, arrays.kinds, arrays.degree, dets, x, mrx, out_s, out_t
        )
        assert [Move(int(out_s[j]), list(Ticket)[out_t[j]]) for j in range(m)] == want_x
    for a in range(1, board.n + 1, 17):
        for b in range(1, board.n + 1, 13):
            assert arrays.distances[a, b] == board.distances[a, b]


# --- plain and compiled: the same decisions ------------------------------------------------

VARIANTS = [
    (True, {}),
    (False, {}),
    (True, {"edition": "2014"}),
    (
        True,
        {
            "detectives": 3,
            "seats": 4,
            "log_length": 6,
            "reveals": "3,5",
            "final_detective_phase": False,
        },
    ),
    (False, {"detectives": 2, "max_rounds": 4, "reveals": "1,2,4"}),
]


@pytest.mark.parametrize(("classic", "options"), VARIANTS)
@pytest.mark.parametrize("sample_from", mc.SAMPLE_FROM)
def test_plain_and_fast_make_the_same_decisions(
    classic: bool, options: dict[str, Any], sample_from: mc.SampleFrom
) -> None:
    game = sy_game(classic, **options)
    found: list[tuple[mc.Position, ScotlandYardState]] = []
    seed = 0
    while len(found) < 8:
        found += positions(game, seed, 0.25)
        seed += 1
    for k, (position, _) in enumerate(found[:8]):
        params = mc.MCParams(
            rollouts=24, depth=1 + k % 5, w1=1.0, w2=0.1 + k, sample_from=sample_from, seed=k
        )
        plain = mc.decide(position, params)
        fast = rollouts.decide(position, params)
        assert fast == plain
        assert (
            plain.move is None
            or plain.move == plain.candidates[plain.scores.index(max(plain.scores))]
        )
        for a, b in zip(plain.scores, fast.scores, strict=True):
            assert abs(a - b) <= 1e-9


def test_same_decisions_near_the_end_of_the_log() -> None:
    """Positions where the log fills during the rollouts (turns left 0..3)."""
    game = sy_game(True, log_length=5, reveals="2", detectives=2)
    seen = set()
    for seed in range(8):
        for position, _ in positions(game, seed):
            seen.add(position.turns_left)
            params = mc.MCParams(rollouts=16, depth=5, seed=seed)
            assert rollouts.decide(position, params) == mc.decide(position, params)
    assert {0, 1, 2, 3} <= seen


# --- hand-checked and exhaustive scores on small boards -------------------------------------


def line(n: int) -> Board:
    """Stations 1 - 2 - ... - n joined by taxi edges."""
    return from_rows(n, [(s, s + 1, TAXI) for s in range(1, n)])


def position(
    board: Board, detectives: tuple[int, ...], possible: set[int], **fields: Any
) -> mc.Position:
    bits = mask_of(possible)
    values: dict[str, Any] = {
        "board": board,
        "detectives": detectives,
        "detective_tickets": tuple((9, 9, 9) for _ in detectives),
        "mrx_tickets": (9, 9, 9, 0, 0),
        "mover": 0,
        "possible": bits,
        "anchor": bits,
        "since": 0,
        "turns_left": 20,
        "last_phase": True,
        "tickets_to_mrx": True,
        "mrx_unlimited": False,
    }
    values.update(fields)
    return mc.Position(**values)


def both(position: mc.Position, params: mc.MCParams) -> mc.Decision:
    plain = mc.decide(position, params)
    assert rollouts.decide(position, params) == plain
    return plain


def test_a_cornered_mrx_counts_as_captured_and_a_close_miss_scores_its_distance() -> None:
    """Line 1..5, a detective at 3, Mr. X certainly at 5.  Taxi 4 corners him (score w1 = 1);
    taxi 2 lets him step to 4, two stations away (score -0.1 * 2)."""
    pos = position(line(5), (3,), {5})
    decision = both(pos, mc.MCParams(rollouts=10, depth=1))
    assert decision.candidates == (Move(2, Ticket.TAXI), Move(4, Ticket.TAXI))
    assert decision.captures == (0, 10)
    assert decision.scores == pytest.approx((-0.2, 1.0))
    assert decision.move == Move(4, Ticket.TAXI)


def test_the_detective_next_to_the_only_possible_station_captures() -> None:
    """Classic map: a detective at 128, Mr. X certainly at 89 (one underground stop away).
    Every rollout of ``underground 89`` captures (score w1 = 1); every other move scores less,
    since Mr. X escapes in some rollout or keeps a distance."""
    pos = position(classic_board(), (128, 13), {89}, mrx_tickets=(4, 3, 3, 5, 2))
    decision = both(pos, mc.MCParams(rollouts=50, depth=5))
    assert decision.move == Move(89, Ticket.UNDERGROUND)
    assert len(decision.candidates) == 13
    for move, caught, value in zip(
        decision.candidates, decision.captures, decision.scores, strict=True
    ):
        if move == decision.move:
            assert (caught, value) == (50, 1.0)
        else:
            assert value < 1.0


def test_no_turn_completed_scores_the_mean_distance_now() -> None:
    """The final detective phase (the log is full): the rollouts end after the detectives'
    moves, and avg_dist is their mean distance to Mr. X then."""
    board = line(7)
    pos = position(board, (2, 6), {4}, turns_left=0)
    decision = both(pos, mc.MCParams(rollouts=5, depth=3))
    # detective 1 moves to 1 or 3, then detective 2 moves at random to 5 or 7
    assert decision.candidates == (Move(1, Ticket.TAXI), Move(3, Ticket.TAXI))
    assert decision.captures == (0, 0)
    for move, total in zip(decision.candidates, decision.dist_totals, strict=True):
        d1 = abs(move.station - 4)
        # each rollout's mean is (d1 + 1) / 2 or (d1 + 3) / 2
        assert 5 * (d1 + 1) / 2 <= total <= 5 * (d1 + 3) / 2


def exact_depth_one(pos: mc.Position, move: Move) -> tuple[float, float]:
    """P(capture) and E[avg_dist] of a depth-1 rollout after ``move`` by exhaustive
    enumeration of Mr. X's start and every random move (weights 1/m)."""
    board = pos.board
    p_capture = 0.0
    e_dist = 0.0
    stations = members(pos.possible)
    n = len(pos.detectives)

    def detectives_from(
        i: int, dets: list[int], tickets: list[list[int]], x: int, w: float
    ) -> None:
        nonlocal p_capture, e_dist
        if i == n:
            moves = single_moves(board, x, pos.mrx_tickets, mask_of(dets))
            if not moves:
                p_capture += w
            for m in moves:
                e_dist += w / len(moves) * sum(int(board.distances[d, m.station]) for d in dets) / n
            return
        others = mask_of(s for j, s in enumerate(dets) if j != i)
        steps = detective_moves(board, dets[i], tickets[i], others)
        if not steps:
            detectives_from(i + 1, dets, tickets, x, w)
        for m in steps:
            if m.station == x:
                p_capture += w / len(steps)
                continue
            new = list(dets)
            new[i] = m.station
            spent = [list(t) for t in tickets]
            spent[i][m.ticket.slot] -= 1
            detectives_from(i + 1, new, spent, x, w / len(steps))

    for x in stations:
        w = 1 / len(stations)
        if move.station == x:
            p_capture += w
            continue
        dets = list(pos.detectives)
        dets[pos.mover] = move.station
        detectives_from(pos.mover + 1, dets, [list(t) for t in pos.detective_tickets], x, w)
    return p_capture, e_dist


def test_depth_one_scores_estimate_the_exhaustive_expectation() -> None:
    """A 3 x 3 grid with a bus diagonal; two detectives, Mr. X at one of three stations.  With
    many rollouts each candidate's capture rate and mean distance are within 4 standard errors
    of their exact values (a wrong weight, sign or divisor is far outside)."""
    edges = [(1, 2, TAXI), (2, 3, TAXI), (4, 5, TAXI), (5, 6, TAXI), (7, 8, TAXI), (8, 9, TAXI)]
    edges += [(1, 4, TAXI), (4, 7, TAXI), (2, 5, TAXI), (5, 8, TAXI), (3, 6, TAXI), (6, 9, TAXI)]
    edges += [(1, 9, Transport.BUS), (3, 7, Transport.BUS)]
    board = from_rows(9, edges)
    pos = position(board, (5, 1), {3, 8, 9}, mrx_tickets=(2, 1, 0, 1, 0))
    n = 4_000
    params = mc.MCParams(rollouts=n, depth=1, w1=1.0, w2=0.25, seed=3)
    decision = mc.decide(pos, params)
    assert len(decision.candidates) == 4  # taxi 2, 4, 6, 8 from 5
    for move, caught, total, value in zip(
        decision.candidates, decision.captures, decision.dist_totals, decision.scores, strict=True
    ):
        p, e = exact_depth_one(pos, move)
        assert abs(caught / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12
        assert abs(total / n - e) <= 4 * 2 / math.sqrt(n)  # avg_dist lies in [0, 4]
        assert value == pytest.approx(caught / n - 0.25 * total / n)


def test_reachable_sample_set_is_the_any_transport_walk_from_the_anchor() -> None:
    board = line(9)
    pos = position(board, (1, 9), {5}, anchor=mask_of({5}), since=2)
    assert pos.sample_set("possible") == [5]
    assert pos.sample_set("reachable") == [3, 5, 7]
    ferry = from_rows(4, [(1, 2, TAXI), (2, 3, TAXI), (3, 4, TAXI), (1, 4, Transport.FERRY)])
    pos = position(ferry, (3,), {4}, anchor=mask_of({1}), since=1)
    assert pos.sample_set("reachable") == [2, 4]  # 4 by ferry only


def test_ties_go_to_the_lowest_station_then_ticket() -> None:
    """Two tickets to the same station score alike in every rollout: the lower ticket plays."""
    board = from_rows(3, [(1, 2, TAXI), (1, 2, Transport.BUS), (2, 3, TAXI)])
    pos = position(board, (1,), {3})
    decision = both(pos, mc.MCParams(rollouts=20, depth=2))
    assert decision.candidates == (Move(2, Ticket.TAXI), Move(2, Ticket.BUS))
    assert decision.scores[0] == decision.scores[1]
    assert decision.move == Move(2, Ticket.TAXI)


def test_a_stuck_detective_passes() -> None:
    pos = position(line(3), (1, 2), {3}, detective_tickets=((0, 0, 0), (1, 1, 1)))
    assert both(pos, mc.MCParams(rollouts=3)).move is None


# --- the public record and the horizon -------------------------------------------------------


@pytest.mark.parametrize("edition", ["classic", "2014"])
def test_public_record_follows_the_engine(edition: str) -> None:
    game = sy_game(True, edition=edition, seats=6)
    for seed in range(6):
        assert positions(game, seed)  # checked at every detective's turn
    if edition == "2014":
        assert game.profile.mrx_tickets[0] == UNLIMITED


def test_horizon_counts_mrx_turns_left() -> None:
    base = sy_game(False).profile
    assert mc.horizon(base, 5, 5) == (19, True)
    assert mc.horizon(replace(base, final_detective_phase=False), 23, 20) == (1, False)
    assert mc.horizon(replace(base, max_rounds=6), 5, 5) == (1, True)
    assert mc.horizon(replace(base, max_rounds=6, final_detective_phase=False), 23, 5) == (
        1,
        False,
    )


# --- the bot ----------------------------------------------------------------------------


def mc_spec(**options: str) -> Any:
    spec = {b.name: b for b in game_spec("scotland-yard").bots}["mc"]
    return spec.configured(options, "scotland-yard")


def random_spec() -> Any:
    return {b.name: b for b in game_spec("scotland-yard").bots}["random"]


@pytest.mark.parametrize(("classic", "seats"), [(True, 2), (False, 2), (True, 6)])
def test_games_against_random_complete(classic: bool, seats: int) -> None:
    game = sy_game(classic, seats=seats)
    for seed in range(3):
        bots = [random_spec()] + [mc_spec(rollouts="50")] * (seats - 1)
        record = run_match(game, bots, seed)
        assert not record.forfeits
        assert record.result is not None
        assert record.final_state is not None and record.final_state.is_terminal()


def test_same_seed_same_moves_and_plain_plays_as_fast() -> None:
    game = sy_game(True, log_length=6, reveals="3", detectives=3)
    fast = mc_spec(rollouts="20", depth="3")
    plain = mc_spec(rollouts="20", depth="3", impl="plain")
    first = run_match(game, [random_spec(), fast], 11)
    again = run_match(game, [random_spec(), fast], 11)
    twin = run_match(game, [random_spec(), plain], 11)
    actions = [step.action for step in first.steps]
    assert [step.action for step in again.steps] == actions
    assert [step.action for step in twin.steps] == actions
    other = run_match(game, [random_spec(), fast], 12)
    assert [step.action for step in other.steps] != actions


def test_move_budget_grows_with_the_work() -> None:
    assert mc.move_budget(rollouts=200, depth=5, impl="plain") == mc.PLAIN_BUDGET
    assert mc.move_budget(rollouts=400, depth=10, impl="plain") == 4 * mc.PLAIN_BUDGET
    assert mc.move_budget(rollouts=50, depth=2, impl="fast") <= mc.PLAIN_BUDGET
    assert mc_spec().budget() == mc.move_budget(rollouts=200, depth=5, impl="fast")


WITHOUT_NUMBA = """
import json
from sleuth.core.compiled import COMPILED
from sleuth.games.scotland_yard import mc, rollouts
from tests.games.scotland_yard.test_mc import positions, sy_game
found = positions(sy_game(False), 4, 0.2)[:3]
params = mc.MCParams(rollouts=20, depth=4, sample_from="reachable", seed=8)
out = [rollouts.decide(position, params) for position, _ in found]
print(json.dumps([COMPILED, [[str(d.move), d.captures, d.dist_totals] for d in out]]))
"""


def test_the_fast_implementation_without_numba_decides_alike() -> None:
    """The kernels run as plain Python under SLEUTH_NO_NUMBA=1: same sums, same moves."""
    env = {**os.environ, DISABLE_VARIABLE: "1"}
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_NUMBA],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    compiled, plain_python = json.loads(done.stdout)
    assert compiled is False
    found = positions(sy_game(False), 4, 0.2)[:3]
    params = mc.MCParams(rollouts=20, depth=4, sample_from="reachable", seed=8)
    here = [rollouts.decide(position, params) for position, _ in found]
    assert len(here) == 3 and all(d.move is not None for d in here)
    assert plain_python == [[str(d.move), list(d.captures), list(d.dist_totals)] for d in here]
