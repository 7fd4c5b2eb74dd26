"""World samples from the exact belief: every one replays to the Marshal's view, and their
frequencies match the exact probabilities under each Fugitive model."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.fugitive.belief import MODELS, ExactBelief
from sleuth.games.fugitive.deduction.worlds import check_view, history, view_problem
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame
from tests.games.fugitive.helpers import SETUP, marshal_guess_points, marshal_view, play


def replays_to(game: FugitiveGame, seen: list, world_actions: list) -> bool:  # type: ignore[type-arg]
    state = game.new_initial_state()
    events = []
    for action in world_actions:
        events += state.apply(action)
    return marshal_view(events) == seen


@pytest.mark.parametrize("method", ["sample", "witness"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_sampled_or_witness_world_replays_to_the_view(method: str, seed: int) -> None:
    rng = random.Random(seed)
    for state, seen in marshal_guess_points(seed, max_rounds=6):
        find_world = getattr(ExactBelief.from_events(seen), method)
        for _ in range(3):
            assert replays_to(state.game, seen, history(find_world(rng), seen))


def test_witnesses_vary_and_cover_only_possible_values() -> None:
    _, events = play(*SETUP, "hideout 3 sprint 1", "hideout 7 sprint 2", "draw 1", "card 4",
                     "draw 1", "card 6", "guess 5")  # fmt: skip
    seen = marshal_view(events)
    belief = ExactBelief.from_events(seen)
    candidates = belief.candidates()
    rng = random.Random(3)
    witnesses = [belief.witness(rng) for _ in range(200)]
    for position, possible in candidates.items():
        found = {world.hideouts[position - 1] for world in witnesses}
        assert found <= set(possible)
        assert len(found) > 1 or len(possible) == 1  # the random order reaches other routes


@pytest.mark.parametrize("model", MODELS)
def test_the_true_world_is_possible_and_samples_match_exact_probabilities(model: str) -> None:
    _, events = play(*SETUP, "hideout 3 sprint 1", "hideout 7 sprint 2", "draw 1", "card 4",
                     "draw 1", "card 6", "guess 5")  # fmt: skip
    seen = marshal_view(events)
    belief = ExactBelief.from_events(seen, model=model)
    probabilities = belief.counts().probabilities()
    rng = random.Random(7)
    samples = [belief.sample(rng) for _ in range(4000)]
    for position, exact in probabilities.items():
        seen_values = Counter(world.hideouts[position - 1] for world in samples)
        assert set(seen_values) <= set(exact)
        observed = [seen_values[v] for v in exact]
        expected = [float(p) * len(samples) for p in exact.values()]
        assert chisquare(observed, expected).pvalue > 1e-4


@pytest.mark.parametrize("seed", range(3))
def test_draw_sequences_put_every_route_card_in_hand_in_time(seed: int) -> None:
    _, events = play(*SETUP, "hideout 3 sprint 16", "hideout 8 sprint 2", "draw 1", "card 10",
                     "draw 2", "card 20")  # fmt: skip
    seen = marshal_view(events)
    world = ExactBelief.from_events(seen).sample(random.Random(seed))
    assert replays_to(FugitiveGame(), seen, history(world, seen))
    assert [len(cards) for cards in world.draws] == [3, 2, 0]  # the setup draws


def test_every_prefix_of_a_real_view_passes_the_check_cut_mid_action_only_when_allowed() -> None:
    spec = game_spec("fugitive")
    game = spec.make({"max_rounds": 8})
    record = run_match(game, [spec.bot("random"), spec.bot("belief")], 3, time_limit=None)
    view = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
    rng = random.Random(0)
    mid_action = 0
    for k in range(1, len(view) + 1):
        seen = view[:k]
        belief = ExactBelief.from_events(seen)
        check_view(game, seen, belief, rng, cut=True)
        if view_problem(game, seen, belief, rng) is not None:
            mid_action += 1  # e.g. a hit without its reveals: refused unless cut
            assert seen[-1].kind in ("guessed", "placed", "revealed", "game_over")
    assert mid_action > 0
    assert view_problem(game, view, ExactBelief.from_events(view), rng) is None
