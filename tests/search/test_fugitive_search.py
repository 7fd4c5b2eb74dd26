"""Fugitive's search model: samplers that replay to the view, candidate moves that are legal
and depend only on the mover's information, observation classes, and whole games."""

from __future__ import annotations

import random

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.actions import Place
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState
from sleuth.games.fugitive.search import FugitiveSearchModel
from sleuth.search.model import observation, replay_history, view_matches

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
    ],
)
def test_search_players_finish_games_for_either_seat(bots: list[str]) -> None:
    result = run_tournament(
        "fugitive", bots, games=2, seed=5, workers=1, options={"max_rounds": 8}, time_limit=None
    )
    assert result.forfeits == 0 and len(result.rows) == 2
