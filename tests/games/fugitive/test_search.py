"""Fugitive's search model: samplers that replay to the view, candidate moves that are legal
and depend only on the mover's information, observation classes, and whole games."""

from __future__ import annotations

import random

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core.errors import OptionError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.core.registry import game_spec
from sleuth.core.searchmodel import observation, replay_history, view_matches
from sleuth.games.fugitive import search
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.engine.actions import Draw, Guess, Place
from sleuth.games.fugitive.engine.cards import mask_of
from sleuth.games.fugitive.players.marshals import BeliefMarshal
from sleuth.games.fugitive.rules import (
    FUGITIVE,
    MARSHAL,
    FugitiveGame,
    FugitiveState,
    Hideout,
    Phase,
)
from sleuth.games.fugitive.search import FugitiveSearchModel, quick_guess
from sleuth.search.players import ISMCTSPlayer
from sleuth.search.tree import SearchSettings

MODEL = FugitiveSearchModel()


def decision_points(seed: int, rounds: int = 8) -> list[tuple[FugitiveState, list[Event]]]:
    """Copies of the states of a random game where a seat decides, with every event so far."""
    rng = random.Random(seed)
    game = FugitiveGame(max_rounds=rounds)
    players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
    state, events, points = game.new_initial_state(), [], []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            points.append((state.clone(), list(events)))
            action = players[player].act(View(player, "", {}, []), state.legal_actions())
        events += state.apply(action)  # type: ignore[arg-type]
    return points


def view_of(seat: int, events: list[Event]) -> View:
    return View(seat, ("fugitive", "marshal")[seat], {}, [e.seen_by(seat) for e in events])


@pytest.mark.parametrize("seed", range(3))
def test_sampled_histories_replay_to_the_view_for_both_seats(seed: int) -> None:
    rng = random.Random(seed)
    for state, events in decision_points(seed)[::4]:
        seat = state.current_player()
        view = view_of(seat, events)
        sampler = MODEL.sampler(state.game, view)
        for _ in range(2):
            replayed, produced = replay_history(state.game, sampler.sample_history(rng))
            assert view_matches(produced, view)
            assert replayed.current_player() == seat


@pytest.mark.parametrize("seed", range(2))
def test_sampled_states_are_the_checked_replays_of_sampled_histories(seed: int) -> None:
    """``sample_state`` replays without the legality check, so it must give what a checked
    replay of the same history gives."""
    for state, events in decision_points(seed)[::3]:
        seat = state.current_player()
        sampler = MODEL.sampler(state.game, view_of(seat, events))
        for draw in range(2):
            fast = sampler.sample_state(random.Random(draw))
            replayed, _ = replay_history(state.game, sampler.sample_history(random.Random(draw)))
            assert fingerprint(fast) == fingerprint(replayed)  # type: ignore[arg-type]


def fingerprint(state: FugitiveState) -> tuple[object, ...]:
    return (
        state.piles,
        state.hands,
        state.route,
        state.phase,
        state.draws_due,
        state.drawing,
        state.rounds,
    )


@pytest.mark.parametrize("seed", range(3))
def test_candidates_are_legal_and_the_marshals_depend_only_on_her_view(seed: int) -> None:
    rng = random.Random(seed)
    for state, events in decision_points(seed):
        candidates = MODEL.candidate_moves(state)
        if candidates is None:
            continue
        assert candidates and all(state.is_legal(a) for a in candidates)
        if state.current_player() == MARSHAL:
            sampler = MODEL.sampler(state.game, view_of(MARSHAL, events))
            for _ in range(2):
                assert MODEL.candidate_moves(sampler.sample_state(rng)) == candidates


@pytest.mark.parametrize("seed", range(3))
def test_heuristic_rollout_moves_are_legal_and_the_marshals_depend_only_on_her_view(
    seed: int,
) -> None:
    rng = random.Random(seed)
    for state, events in decision_points(seed, rounds=12):
        move = MODEL.heuristic_action(state, random.Random(0))
        if move is None:
            continue
        assert state.is_legal(move), move
        if state.current_player() == MARSHAL:
            sampler = MODEL.sampler(state.game, view_of(MARSHAL, events))
            for _ in range(2):
                assert MODEL.heuristic_action(sampler.sample_state(rng), rng) == move


def test_heuristic_rollouts_play_only_legal_moves() -> None:
    game = FugitiveGame(max_rounds=50)
    for seed in range(300):
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = MODEL.heuristic_action(state, rng) or MODEL.rollout_action(state, rng)
                assert state.is_legal(action), (seed, action, state.route)
            state.apply(action)


def test_quick_guess_names_the_highest_number_in_reach_not_ruled_out() -> None:
    state = FugitiveGame().new_initial_state()
    state.route = [Hideout(0, (), True), Hideout(10, (), True), Hideout(12, (30,), False)]
    state.hands[MARSHAL] = mask_of([15])
    assert quick_guess(state) == Guess((14,))  # 10 + 3 + 2 footprints, 15 in her hand
    state.route[2].cleared = mask_of([14, 13])
    assert quick_guess(state) == Guess((12,))
    state.route.append(Hideout(12, (), True))  # a later face-up hideout caps the range
    state.route[2] = Hideout(11, (), False)
    assert quick_guess(state) == Guess((11,))
    state.route[2].cleared = mask_of([11])
    assert quick_guess(state) is None
    state.route[2] = Hideout(10, (), False)
    state.route[1] = Hideout(9, (11,), True)  # a revealed sprint card cannot be named
    assert quick_guess(state) == Guess((10,))
    state.route[1] = Hideout(8, (), True)
    state.route[3] = Hideout(42, (11,), True)  # but 42's are face down: it could be 11
    assert quick_guess(state) == Guess((11,))


def test_a_single_miss_clears_its_number_from_the_face_down_hideouts_only() -> None:
    state = FugitiveGame().new_initial_state()
    state.route = [Hideout(0, (), True), Hideout(3, (), True), Hideout(5, (), False)]
    state.phase, state.draws_due = Phase.MARSHAL_GUESS, []
    state.apply(Guess((4,)))
    assert [h.cleared for h in state.route] == [0, 0, mask_of([4])]
    state.phase, state.draws_due = Phase.MARSHAL_GUESS, []
    state.apply(Guess((6, 7)))  # a multi-number miss says nothing about each number alone
    assert state.route[2].cleared == mask_of([4])
    assert state.clone().route[2].cleared == mask_of([4])


def test_the_marshal_sees_placements_by_sprint_count_only() -> None:
    for state, _ in decision_points(4):
        if state.current_player() != FUGITIVE:
            continue
        classes = MODEL.move_classes(state, frozenset({MARSHAL}))
        if classes is None:
            continue
        for label, actions in classes.items():
            seen = set()
            for action in actions:
                copy = state.clone()
                seen.add(observation(copy.apply(action), frozenset({MARSHAL})))
            assert len(seen) == 1, label
            if isinstance(actions[0], Place):
                assert label == ("placed", len(actions[0].sprints), actions[0].hideout == 42)


@pytest.mark.parametrize(
    "bots",
    [
        ["ismcts:iterations=15", "notes"],
        ["steady", "ismcts:iterations=15"],
        ["steady", "dmcts:iterations=16:worlds=4"],
        ["ismcts:iterations=15:policy=heuristic", "ismcts:iterations=15:policy=heuristic"],
    ],
)
def test_search_players_finish_games_for_either_seat(bots: list[str]) -> None:
    result = run_tournament(
        "fugitive", bots, games=2, seed=5, workers=1, options={"max_rounds": 8}, time_limit=None
    )
    assert result.forfeits == 0 and len(result.rows) == 2


def test_a_marshal_with_too_many_worlds_to_sample_plays_the_belief_marshals_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search, "SAMPLER_STATES", 1)  # no view can be sampled
    settings = SearchSettings(iterations=5)
    for state, events in decision_points(1)[:40]:
        if state.current_player() != MARSHAL or len(state.legal_actions()) < 2:
            continue
        view = view_of(MARSHAL, events)
        bot = ISMCTSPlayer(state.game, MARSHAL, 0, MODEL, settings)
        move = bot.act(view, state.legal_actions())
        expected = BeliefMarshal(state.game, MARSHAL, 0, "gamble", "frontier")
        assert state.is_legal(move)
        assert move == expected.act(view, state.legal_actions())


@pytest.mark.parametrize(
    ("spec", "model"), [("ismcts", "frugal"), ("dmcts:model=uniform", "uniform")]
)
def test_the_marshals_worlds_are_drawn_with_the_bots_fugitive_model(spec: str, model: str) -> None:
    game = FugitiveGame()
    bot = game_spec("fugitive").bot(spec).make(game, MARSHAL, 0)
    assert bot.model.world_model == model
    state, events = next(
        (s, e) for s, e in decision_points(2) if s.current_player() == MARSHAL and e
    )
    sampler = bot.model.sampler(state.game, view_of(MARSHAL, events))
    assert isinstance(sampler, search.MarshalSampler) and sampler.belief.model == model


def test_only_the_fugitive_search_bots_take_a_fugitive_model() -> None:
    with pytest.raises(OptionError, match="expected one of uniform, thrifty, frugal"):
        game_spec("fugitive").bot("ismcts:model=wild")
    with pytest.raises(OptionError, match="unknown option 'model'"):
        game_spec("fox").bot("ismcts:model=frugal")


@pytest.mark.parametrize("model", ["frugal", "uniform"])
def test_the_marshal_also_tries_the_belief_marshals_guess_at_the_root(model: str) -> None:
    searcher = MODEL.configured(model=model)
    tried = 0
    for state, events in decision_points(3)[:60]:
        seat, legal = state.current_player(), state.legal_actions()
        view = view_of(seat, events)
        moves = searcher.root_moves(state.game, view, legal)
        if seat != MARSHAL or isinstance(legal[0], Draw):
            assert moves == ()
            continue
        believer = BeliefMarshal(state.game, MARSHAL, 0, "gamble", "frontier", model=model)
        expected = believer.act(view, legal)
        assert moves == ((expected,) if isinstance(expected, Guess) else ())
        assert all(state.is_legal(move) for move in moves)
        tried += len(moves)
    assert tried > 3
