"""Scotland Yard's search model and the heuristic Mr. X: the samplers (the kit's check for both
sides, worlds inside the tracker's set), location categories, move filtering and classes, the
greedy moves against brute force on the board's distances, and short search games."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sleuth.core.bitsets import mask_of, members
from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.core.searchmodel import observation, replay_history, view_matches
from sleuth.games.scotland_yard import SEARCH
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.board import Transport
from sleuth.games.scotland_yard.moves import DoubleMove, Move, Ticket
from sleuth.games.scotland_yard.rules import MRX, ScotlandYardGame, ScotlandYardState
from sleuth.games.scotland_yard.search import (
    CATEGORIES,
    DOUBLE_NEAR,
    PRIOR,
    DetectiveSampler,
    MrXSampler,
    ScotlandYardSearchModel,
    category,
    category_weights,
    detective_candidates,
    mrx_candidates,
    observed_label,
    public_reveals,
)
from sleuth.games.scotland_yard.tactics import BLACK_GAIN, heuristic_mrx, log_possible, tables
from sleuth.search.tree import SearchSettings, TreeSearch
from sleuth.testing import check_sampler
from sleuth.testing.case import Case

from .helpers import CLASSIC_DIR, classic_board

OPTIONS: list[dict[str, Any]] = [
    {},
    {"edition": "2014"},
    {"seats": 6},
    {"detectives": 2, "edition": "bristol"},
]


def sy_game(**options: Any) -> ScotlandYardGame:
    game = make_game("scotland-yard", options)
    assert isinstance(game, ScotlandYardGame)
    return game


def classic_game(**options: Any) -> ScotlandYardGame:
    classic_board()  # skips when the map is absent
    return sy_game(map=str(CLASSIC_DIR), **options)


def view_of(game: ScotlandYardGame, events: list[Event], seat: int) -> View:
    return View(seat, game.roles[seat], game.public_info(), [e.seen_by(seat) for e in events])


def decisions(game: ScotlandYardGame, seed: int) -> Iterator[tuple[ScotlandYardState, list[Event]]]:
    """Every decision of a uniformly random game: the true state and the events so far."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    events = list(state.apply(state.sample_chance(rng)))
    while not state.is_terminal():
        yield state, events
        events += state.apply(rng.choice(state.legal_actions()))


# --- samplers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTIONS)
def test_the_kits_sampler_check_passes_for_both_sides(options: dict[str, Any]) -> None:
    case = Case.of("scotland-yard", options)
    reports = [check_sampler(case, SEARCH, seed, decisions=12) for seed in range(4)]
    assert sum(r.decisions for r in reports) >= 36  # a short game checks fewer than 12
    assert sum(r.covered for r in reports) > 0  # some decisions have few worlds (Mr. X: one)


def test_the_sampler_check_covers_the_classic_map() -> None:
    case = Case.of("scotland-yard", {"map": str(CLASSIC_DIR)})
    classic_board()
    report = check_sampler(case, SEARCH, 0, decisions=10)
    assert report.decisions == 10


@pytest.mark.parametrize("model", ["categories", "uniform"])
@pytest.mark.parametrize("options", OPTIONS[:3])
def test_worlds_put_mr_x_on_a_possible_station_free_of_detectives(
    model: str, options: dict[str, Any]
) -> None:
    game = sy_game(**options)
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        for state, events in decisions(game, seed):
            seat = state.current_player()
            if seat == MRX or rng.random() > 0.3:
                continue
            view = view_of(game, events, seat)
            possible = MrXBelief.from_view(game, view).possible()
            sampler = DetectiveSampler(game, view, model)
            drawn = set()
            for _ in range(30):
                world = sampler.sample_state(rng)
                assert world.mrx in possible and world.mrx not in world.detectives
                assert world.detectives == state.detectives
                assert world.legal_actions() == state.legal_actions()
                assert [t for t, _ in world.log] == [t for t, _ in state.log]
                assert world.log[-1][1] == world.mrx if world.log else True
                drawn.add(world.mrx)
            _, replayed = replay_history(game, sampler.sample_history(rng))
            assert view_matches(replayed, view)
            assert drawn <= set(possible)
            checked += 1
    assert checked > 20


def test_every_possible_station_can_be_drawn() -> None:
    """Category weights are positive, so the worlds' support is the whole possible set."""
    game = sy_game()
    for state, events in decisions(game, 2):
        if state.current_player() != MRX and state.entries == 4:
            view = view_of(game, events, 1)
            sampler = DetectiveSampler(game, view, "categories")
            assert sampler.cum is not None
            steps = [b - a for a, b in zip([0.0, *sampler.cum], sampler.cum, strict=False)]
            assert min(steps) > 0 and len(steps) == len(sampler.stations)
            rng = random.Random(0)
            seen = {sampler.path(rng)[-1] for _ in range(3000)}
            assert seen == set(sampler.stations)
            return
    pytest.fail("no decision after entry 4")


def test_mr_x_world_is_the_true_state() -> None:
    game = sy_game(seats=6)
    for state, events in decisions(game, 3):
        if state.current_player() == MRX and state.entries:
            world = MrXSampler(game, view_of(game, events, MRX)).sample_state(random.Random(0))
            assert repr(world) == repr(state)


def test_a_path_can_be_made_to_end_at_a_chosen_station() -> None:
    game = sy_game()
    for state, events in decisions(game, 4):
        if state.current_player() != MRX and state.entries >= 5:
            tracker = MrXBelief.from_view(game, view_of(game, events, 1)).tracker
            assert tracker is not None
            rng = random.Random(1)
            for end in tracker.stations():
                path = tracker.sample_path(rng, end)
                assert path[-1] == end and len(path) == tracker.entry + 1
                assert all(tracker.history[k] >> s & 1 for k, s in enumerate(path))
            impossible = next(s for s in range(1, 201) if not tracker.possible >> s & 1)
            with pytest.raises(ValueError, match=f"cannot end at {impossible}"):
                tracker.sample_path(rng, impossible)
            return


# --- location categories ----------------------------------------------------------------------


def test_category_weights_start_from_the_prior_and_follow_the_reveals() -> None:
    game = sy_game()
    t = tables(game.board)
    for state, events in decisions(game, 6):
        if state.current_player() == MRX or state.entries < 3:
            continue
        view = view_of(game, events, 1)
        tracker = MrXBelief.from_view(game, view).tracker
        assert tracker is not None
        reveals = public_reveals(view.events)
        assert category_weights(t, tracker, []) == list(PRIOR)
        entry, detectives, station = reveals[0]
        assert entry == 3 and station == state.log[2][1]
        before = members(
            tracker.tables.reach(tracker.history[2], tracker.tickets[2]) & ~mask_of(detectives)
        )
        # by hand: one reveal adds 1 to its category's hits and 1/|before| per station to the
        # expected count of each station's category
        hits = [0.0] * CATEGORIES
        expected = [0.0] * CATEGORIES
        hits[category(t, station, detectives)] = 1.0
        for s in before:
            expected[category(t, s, detectives)] += 1 / len(before)
        want = [(PRIOR[c] + hits[c]) / (1 + expected[c]) for c in range(CATEGORIES)]
        assert category_weights(t, tracker, reveals[:1]) == pytest.approx(want)
        return
    pytest.fail("no decision after the first reveal")


def test_categories_are_the_capped_distance_to_the_nearest_detective() -> None:
    board = classic_board()
    t = tables(board)
    dist = board.distances
    for station in (1, 67, 104, 199):
        detectives = [13, 117, 155]
        want = min(min(int(dist[station, d]) for d in detectives), CATEGORIES) - 1
        assert category(t, station, detectives) == want
    assert category(t, 116, [117]) == 0  # next door


# --- move filtering and classes ----------------------------------------------------------------


def mrx_positions(game: ScotlandYardGame, games: int) -> Iterator[ScotlandYardState]:
    for seed in range(games):
        for state, _ in decisions(game, seed):
            if state.current_player() == MRX:
                yield state


def taxi_only(state: ScotlandYardState, station: int) -> bool:
    board = state.game.board
    return all(board.neighbours[t][station] == 0 for t in board.neighbours if t.value != "taxi")


@pytest.mark.parametrize("options", [{}, {"edition": "2014"}])
def test_filtered_candidates_are_legal_non_empty_and_follow_the_filter(
    options: dict[str, Any],
) -> None:
    game = sy_game(**options)
    reveals = game.profile.reveals
    plain = (Ticket.TAXI, Ticket.BUS, Ticket.UNDERGROUND)
    seen_double = seen_hiding = False
    for state in mrx_positions(game, 8):
        legal = state.legal_actions()
        candidates = mrx_candidates(state)
        assert candidates and set(candidates) <= set(legal)
        singles = [a for a in candidates if isinstance(a, Move)]
        # one ticket per destination
        assert sorted(m.station for m in singles) == sorted(
            {a.station for a in legal if isinstance(a, Move)}
        )
        entry = state.entries + 1
        for move in singles:
            others = [t for t in plain if Move(move.station, t) in legal]
            if move.ticket is Ticket.BLACK:
                if others:  # black by choice: only where it can hide him
                    assert entry not in reveals and entry >= min(reveals)
                    assert not taxi_only(state, state.mrx)
                    seen_hiding = True
            else:
                held = state.mrx_tickets
                assert held[move.ticket.slot] == max(held[t.slot] for t in others)
        near = brute_nearest(game, state.mrx, state.detectives)
        doubles = [a for a in candidates if isinstance(a, DoubleMove)]
        has_doubles = any(isinstance(a, DoubleMove) for a in legal)
        assert bool(doubles) == (near <= DOUBLE_NEAR and has_doubles)
        seen_double |= bool(doubles)
        for double in doubles:
            first = Move(double.first.station, double.first.ticket)
            assert first in singles  # the first leg pays as a single move there would
            if double.second.ticket is Ticket.BLACK:
                assert not any(
                    DoubleMove(double.first, Move(double.second.station, t)) in legal for t in plain
                )
    assert seen_double and seen_hiding


def test_log_possible_follows_the_log_from_the_last_reveal() -> None:
    state = heuristic_position(67, "1,13,155")
    board = state.game.board
    assert log_possible(state) == 1 << 67  # a fixed start
    state.apply(Move(89, Ticket.UNDERGROUND))
    assert log_possible(state) == board.neighbours[Transport.UNDERGROUND][67]
    # a log written by hand: only the tickets after the last revealed entry matter
    state.entries, state.log = 3, [*state.log, (Ticket.TAXI, 71), (Ticket.TAXI, 72)]
    assert log_possible(state) == 1 << 72  # entry 3 was revealed
    state.log.append((Ticket.BUS, 105))
    state.entries = 4
    assert log_possible(state) == board.neighbours[Transport.BUS][72]


def test_no_black_on_a_reveal_entry_unless_it_is_the_only_way() -> None:
    game = classic_game(detectives=1, mrx_start=194, detective_starts="13")
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(0)))
    state.entries = 2  # the next entry (3) is revealed
    state._legal = None
    tickets = {(m.station, m.ticket) for m in mrx_candidates(state) if isinstance(m, Move)}
    assert (157, Ticket.BLACK) in tickets  # the ferry: black or nothing
    assert {s for s, t in tickets if t is Ticket.BLACK} == {157}


def test_move_classes_group_what_the_detectives_cannot_tell_apart() -> None:
    game = sy_game()
    model = ScotlandYardSearchModel()
    detectives = frozenset((1,))
    for n, state in enumerate(mrx_positions(game, 4)):
        classes = model.move_classes(state, detectives)
        assert classes is not None
        assert sorted(map(str, (a for c in classes.values() for a in c))) == sorted(
            map(str, mrx_candidates(state))
        )
        for label, members_ in classes.items():
            keys = set()
            for action in members_:
                assert observed_label(state, action) == label
                events = state.clone().apply(action)
                keys.add(observation([e for e in events if e.kind == "mrx_moved"], detectives))
            assert len(keys) == 1, f"class {label} looks different to the detectives"
        labels = [observed_label(state, a) for a in mrx_candidates(state)]
        firsts: dict[object, object] = {}
        for action, label in zip(mrx_candidates(state), labels, strict=True):
            events = state.clone().apply(action)
            key = observation([e for e in events if e.kind == "mrx_moved"], detectives)
            assert firsts.setdefault(key, label) == label  # one label per observation
        if n > 40:
            break


# --- greedy moves and the heuristic Mr. X ------------------------------------------------------


def brute_nearest(game: ScotlandYardGame, station: int, detectives: list[int]) -> int:
    return min(int(game.board.distances[station, d]) for d in detectives)


def test_rollout_and_heuristic_moves_are_legal() -> None:
    game = sy_game(seats=6)
    model = ScotlandYardSearchModel()
    rng = random.Random(0)
    for seed in range(4):
        for state, _ in decisions(game, seed):
            legal = state.legal_actions()
            assert model.rollout_action(state, rng) in legal
            greedy = model.heuristic_action(state, rng)
            assert greedy in legal
            if state.current_player() == MRX:
                assert isinstance(greedy, Move)
                best = max(
                    brute_nearest(game, a.station, state.detectives)
                    for a in legal
                    if isinstance(a, Move)
                )
                assert brute_nearest(game, greedy.station, state.detectives) == best
            elif isinstance(greedy, Move):
                moves = [a for a in legal if isinstance(a, Move)]
                row = game.board.distances[state.mrx]
                assert row[greedy.station] == min(row[a.station] for a in moves)


def heuristic_position(mrx: int, detectives: str, **options: Any) -> ScotlandYardState:
    n = len(detectives.split(","))
    game = classic_game(detectives=n, mrx_start=mrx, detective_starts=detectives, **options)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(0)))
    return state


@pytest.mark.parametrize(
    ("mrx", "detectives"),
    [(104, "117"), (67, "13,89,111"), (155, "138,141,174"), (1, "13,29,50,94,112")],
)
def test_the_heuristic_mr_x_goes_farthest_from_the_nearest_detective(
    mrx: int, detectives: str
) -> None:
    state = heuristic_position(mrx, detectives)
    game = state.game
    legal = state.legal_actions()
    singles = [a for a in legal if isinstance(a, Move)]
    best = max(brute_nearest(game, m.station, state.detectives) for m in singles)
    doubles = [a for a in legal if isinstance(a, DoubleMove)]
    best_double = max(brute_nearest(game, a.second.station, state.detectives) for a in doubles)
    for seed in range(10):
        move = heuristic_mrx(state, 1 << mrx, random.Random(seed))
        assert move in legal
        if best <= 1 < best_double or best < best_double <= 1:  # in danger: double away
            assert isinstance(move, DoubleMove)
            assert brute_nearest(game, move.second.station, state.detectives) == best_double
        else:
            assert isinstance(move, Move)
            assert brute_nearest(game, move.station, state.detectives) == best


def test_the_heuristic_mr_x_doubles_away_from_a_detective_next_door() -> None:
    state = heuristic_position(104, "86")  # 104's only other neighbour is 116
    game = state.game
    move = heuristic_mrx(state, 1 << 104, random.Random(0))
    assert isinstance(move, DoubleMove)
    assert brute_nearest(game, move.second.station, [86]) >= 2
    assert Ticket.BLACK not in (move.first.ticket, move.second.ticket)


def test_the_heuristic_mr_x_pays_black_where_it_hides_him_much_better() -> None:
    state = heuristic_position(67, "1,13,155")  # 67: taxi, bus and underground
    board = state.game.board
    move = heuristic_mrx(state, 1 << 67, random.Random(0))
    assert isinstance(move, Move)
    # from a known station, black reaches every neighbour, a transport ticket only some
    t = tables(board)
    plain = next(i for i in range(3) if t.legs[i][67] >> move.station & 1)
    blocked = mask_of(state.detectives)
    ratio = (t.legs[3][67] & ~blocked).bit_count() / (t.legs[plain][67] & ~blocked).bit_count()
    assert (move.ticket is Ticket.BLACK) == (ratio >= BLACK_GAIN)
    # on a reveal entry black hides nothing
    state.entries = 2
    state._legal = None
    move = heuristic_mrx(state, 1 << 67, random.Random(0))
    assert isinstance(move, Move) and move.ticket is not Ticket.BLACK
    # with a large possible set, black adds little
    move = heuristic_mrx(state, board.all_stations & ~blocked, random.Random(0))
    assert isinstance(move, Move) and move.ticket is not Ticket.BLACK


# --- the search players ------------------------------------------------------------------------


def test_evaluation_and_credit() -> None:
    game = sy_game(seats=6)
    model = ScotlandYardSearchModel()
    for state, _ in decisions(game, 1):
        values = model.evaluate(state)
        row = game.board.distances[state.mrx]
        escape = math.prod(1 - 0.5 ** int(row[d]) for d in state.detectives)
        assert values == pytest.approx((escape,) + (1 - escape,) * 5)
    assert state.is_terminal()  # the generator played on to the end
    assert model.evaluate(state) == state.wins()
    caught = 0
    for seed in range(40):
        record = run_match(game, [game_spec("scotland-yard").bots[0]] * 6, seed, time_limit=None)
        end = record.final_state
        assert isinstance(end, ScotlandYardState)
        if end.termination_reason == "caught":
            assert model.credit(end) == 1 + end.to_move
            assert end.detectives[end.to_move] == end.mrx
            caught += 1
        else:
            assert model.credit(end) is None
    assert caught


def search_spec(name: str, **options: str) -> Any:
    spec = next(b for b in game_spec("scotland-yard").bots if b.name == name)
    return spec.configured(options, "scotland-yard") if options else spec


def random_spec() -> Any:
    return search_spec("random")


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("side", ["mrx", "detectives"])
def test_a_short_search_game_under_default_budgets(side: str, seats: int) -> None:
    game = sy_game(detectives=2, seats=seats, log_length=4, reveals="2,4")
    ismcts = search_spec("ismcts")
    bots = [ismcts if (seat == MRX) == (side == "mrx") else random_spec() for seat in range(seats)]
    record = run_match(game, bots, 7)
    assert record.result is not None and not record.forfeits


def test_dmcts_plays_both_sides() -> None:
    game = sy_game(detectives=2, log_length=3, reveals="3")
    dmcts = search_spec("dmcts", iterations="40", worlds="4", seconds="0")
    record = run_match(game, [dmcts, dmcts], 3)
    assert record.result is not None and not record.forfeits


# --- fast playouts and pinned decisions --------------------------------------------------------


def generic_search(game: ScotlandYardGame, impl: str, greedy: bool, depth: int) -> Any:
    """A tree search of the detectives whose ``_simulate`` is the search layer's loop (plain)
    or the model's fast playout (fast)."""
    settings = SearchSettings(
        policy="heuristic" if greedy else "random", depth=depth, coalition_reduction=0.25
    )
    model = ScotlandYardSearchModel(impl=impl)
    return TreeSearch(game, model, frozenset((1,)), settings, random.Random(0))


def worlds(game: ScotlandYardGame, seed: int) -> Iterator[ScotlandYardState]:
    """Some positions of a random game (one in three) and its end."""
    last = None
    for n, (state, _) in enumerate(decisions(game, seed)):
        last = state
        if n % 3 == 0:
            yield state.clone()
    assert last is not None and last.is_terminal()
    yield last


@pytest.mark.parametrize("options", [*OPTIONS, {"seats": 6, "edition": "2014"}])
def test_fast_playouts_play_exactly_like_the_generic_loop(options: dict[str, Any]) -> None:
    game = sy_game(**options)
    ends: set[object] = set()
    for greedy in (True, False):
        for depth in (0, 1, 7, 18):
            plain = generic_search(game, "plain", greedy, depth)
            fast = generic_search(game, "fast", greedy, depth)
            for seed in range(2):
                for n, world in enumerate(worlds(game, seed)):
                    start = n % 3 if depth else 0  # new nodes below the root
                    plain.rng, fast.rng = random.Random(n), random.Random(n)
                    want = plain._simulate(world.clone(), start)
                    got = fast._simulate(world.clone(), start)
                    assert got == want, (options, greedy, depth, repr(world))
                    assert plain.rng.getstate() == fast.rng.getstate()  # the same draws
                    ends.add(tuple(got))
    assert len(ends) > 3  # captures (credited), escapes and evaluations


@pytest.mark.parametrize("options", OPTIONS[:3])
def test_detective_moves_and_classes_come_from_a_cache(options: dict[str, Any]) -> None:
    game = sy_game(**options)
    model = ScotlandYardSearchModel()
    for seed in range(3):
        for state, _ in decisions(game, seed):
            if state.current_player() == MRX:
                assert model.candidate_moves(state) == mrx_candidates(state)
                continue
            moves = detective_candidates(state)
            assert moves == state.legal_actions()
            assert detective_candidates(state.clone()) is moves  # one tuple per key
            assert model.configured(impl="plain").candidate_moves(state) is None
            for observers in (frozenset((MRX,)), frozenset((1,))):  # seen by everyone
                classes = model.move_classes(state, observers)
                assert classes is not None
                assert list(classes.items()) == [(move, (move,)) for move in moves]
                plain = model.configured(impl="plain").move_classes(state, observers)
                assert plain is not None and list(plain.items()) == list(classes.items())


def pinned_views(game: ScotlandYardGame, seed: int, every: int) -> Iterator[tuple[View, Any]]:
    """Every ``every``-th decision with a choice of a seeded random game: the mover's view and
    legal moves."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    events = list(state.apply(state.sample_chance(rng)))
    k = 0
    while not state.is_terminal():
        if len(state.legal_actions()) > 1:
            k += 1
            if k % every == 0:
                seat = state.current_player()
                yield view_of(game, events, seat), state.legal_actions()
        events += state.apply(rng.choice(state.legal_actions()))


PINNED = {
    "builtin": [
        "taxi 149", "taxi 126", "bus 52", "taxi 35", "taxi 64", "underground 70", "taxi 102",
        "taxi 166", "taxi 16", "taxi 66", "taxi 85", "bus 184",
    ],
    "classic": [
        "double taxi 67 taxi 66", "taxi 42", "taxi 115", "taxi 17", "underground 111", "taxi 98",
        "bus 128", "taxi 66",
    ],
}  # fmt: skip
"""``ismcts:iterations=60,seconds=0``'s moves (seed = the game's seed) at every 7th decision
of game 0 on the built-in board and of game 1 on the classic map, as the search played them
before its fast playouts: both implementations must still play them."""


@pytest.mark.parametrize("board", ["builtin", "classic"])
@pytest.mark.parametrize("impl", ["fast", "plain"])
def test_search_decisions_are_pinned(board: str, impl: str) -> None:
    game, seed = (sy_game(), 0) if board == "builtin" else (classic_game(), 1)
    spec = search_spec("ismcts", iterations="60", seconds="0", impl=impl)
    played = []
    for view, legal in pinned_views(game, seed, 7):
        played.append(str(spec.make(game, view.seat, seed).act(view, legal)))
        if len(played) == len(PINNED[board]):
            break
    assert played == PINNED[board]
