"""The belief Marshal told the Fugitive's mix (``model=robust``, ``model=policy/...``): the
policy Fugitive's stated odds, the mix's posterior, its floor, and whole games."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial
from math import isclose
from typing import Any

import pytest

from sleuth.core.errors import OptionError
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.mixture import (
    FLOOR,
    FlooredDeduction,
    MixtureBelief,
    _openings,
    floored,
)
from sleuth.games.fugitive.deduction.opponent import MAX_STATES, StrategyBelief
from sleuth.games.fugitive.engine.actions import Place
from sleuth.games.fugitive.players.policy import PolicyFugitive
from sleuth.games.fugitive.players.robust import member, model_mix
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState

from .test_opponent import StrategyCheck

GAME = SPEC.make({"max_rounds": 50})


def policy_options(text: str) -> dict[str, Any]:
    """The ``policy`` Fugitive's keyword arguments from its options ``text`` (``stride=3``)."""
    return member(f"policy:{text}" if text else "policy")[1]


assert isinstance(GAME, FugitiveGame)


def policy(text: str, game: FugitiveGame = GAME) -> PolicyFugitive:
    return PolicyFugitive(game, FUGITIVE, 0, **policy_options(text))


def test_the_policy_states_its_slack_and_bluff_odds_as_worked_out_by_hand() -> None:
    """Hand [5, 7, 8, 12, 14] after 4, hideout 8 (a jump of 4: one footprint past the free
    three).  Slack 0.5: no extra footprint half the time, the cheapest card below 8 with one
    footprint (5, waste 0); one extra the other half: 5 and 7 (waste 1).  Bluff 0.2 adds the
    next card: after (5,) that is 7, after (5, 7) the cheapest above, 12."""
    odds = policy("slack=0.5:bluff=0.2")._odds([5, 7, 8, 12, 14], 4, [8], True)
    expected = {Place(8, (5,)): 0.4, Place(8, (5, 7)): 0.4 + 0.1, Place(8, (5, 7, 12)): 0.1}
    assert len(odds) == len(expected)
    for p, move in odds:
        assert isclose(p, expected[move])  # type: ignore[index]


def test_a_jump_past_the_stride_has_no_probability_while_a_near_hideout_is_placeable() -> None:
    odds = policy("stride=3")._odds([5, 6, 7, 8, 12, 14], 4, [6, 8], True)
    assert odds == [(1.0, Place(6, ()))]
    assert policy("stride=3")._odds([5, 7, 8, 12, 14], 4, [8], True) == [(1.0, Place(8, (5,)))]


class CheckedPolicy(PolicyFugitive):
    def __init__(
        self, game: FugitiveGame, seat: int, seed: int, check: StrategyCheck, text: str
    ) -> None:
        super().__init__(game, seat, seed, **policy_options(text))
        self.recorder = check

    def act(self, view, legal):  # type: ignore[no-untyped-def]
        move = super().act(view, legal)
        self.recorder.check(self, view, legal, move)
        return move


@pytest.mark.parametrize("text", ["slack=1.5:bluff=0.3", "stride=3", "draw=random:sprints=1"])
@pytest.mark.parametrize("edition", ["first", "second"])
def test_the_policy_states_every_move_it_makes(text: str, edition: str) -> None:
    """Oracle: each move ``act`` makes has a positive probability in ``strategy`` (the
    heuristic Fugitive's strategy, inherited before, does not give the policy's)."""
    game = SPEC.make({"max_rounds": 50, "edition": edition})
    check = StrategyCheck()
    spec = replace(
        SPEC.bot("policy"), factory=partial(CheckedPolicy, check=check, text=text), options=()
    )
    for seed in range(12):
        assert not run_match(game, [spec, SPEC.bot("candidates")], seed, None).forfeits
    assert check.problems == []


def marshal_view(fugitive: str, seed: int, game: FugitiveGame = GAME) -> tuple[list, FugitiveState]:  # type: ignore[type-arg]
    record = run_match(game, [SPEC.bot(fugitive), SPEC.bot("belief")], seed, None)
    assert not record.forfeits
    state = record.final_state
    assert isinstance(state, FugitiveState)
    return [e.seen_by(MARSHAL) for step in record.steps for e in step.events], state


def guess_points(events: list) -> list[int]:  # type: ignore[type-arg]
    """The lengths of the view at each of her guesses and skips."""
    return [i for i, e in enumerate(events) if e.kind in ("guessed", "skipped")]


@pytest.mark.slow
def test_the_mix_weighs_each_member_by_its_prior_and_how_likely_it_shows_the_view() -> None:
    """Oracle: each member's own exact belief; the mix's posterior of a route is the sum over
    members of prior x (the member's total weight) x (the member's posterior of it), over
    the same sum for all routes."""
    game = SPEC.make({"max_rounds": 50, "edition": "second"})
    assert isinstance(game, FugitiveGame)
    events, _ = marshal_view("policy:stride=3", 4, game)
    view = events[: guess_points(events)[1]]
    texts = [(0.25, "stride=3"), (0.75, "stride=4")]
    expected: dict[tuple[tuple[int, int], ...], float] = {}
    for prior, text in texts:
        belief = StrategyBelief(game, policy(text, game))
        belief.update(view)
        for state, weight in belief.states:
            route = tuple((i, h.value) for i, h in enumerate(state.route) if i and not h.face_up)
            expected[route] = expected.get(route, 0.0) + prior * weight
    mix = MixtureBelief(game, [(w, policy(t, game)) for w, t in texts], MAX_STATES)
    mix.update(view)
    found = mix.posterior()
    total = sum(expected.values())
    assert found.keys() == {r for r, w in expected.items() if w > 0}
    assert sum(found.values()) == 1
    for route, p in found.items():
        assert isclose(float(p), expected[route] / total)


def test_a_member_that_cannot_show_the_view_is_dropped_and_none_left_is_no_odds() -> None:
    events, _ = marshal_view("steady", 1)
    view = events[: guess_points(events)[1]]  # after his first draw, from the lowest pile
    mix = MixtureBelief(GAME, [(1.0, policy("draw=high"))], MAX_STATES)
    mix.update(view)
    assert mix.members[0][1] is None
    assert mix.posterior() == {}
    deduction = Deduction.from_events(view, model="frugal")
    assert floored(deduction, {}) is deduction


@pytest.mark.slow
def test_a_kept_opening_reads_on_as_a_fresh_belief() -> None:
    """Two games with the same opening (the same Fugitive and seed, other Marshals): the named
    mix reads the second from its reading of the first one's opening, and gives the
    posterior of an unnamed mix that reads it all."""
    _openings.clear()
    first, _ = marshal_view("policy:stride=3", 3)
    record = run_match(GAME, [SPEC.bot("policy:stride=3"), SPEC.bot("candidates")], 3, None)
    second = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
    cut = guess_points(second)[1]
    assert first[:cut] != second[:cut]
    named = MixtureBelief(GAME, model_mix("robust", GAME), MAX_STATES, "robust")
    named.update(first[: guess_points(first)[0]])
    assert len(_openings) == 1
    kept = MixtureBelief(GAME, model_mix("robust", GAME), MAX_STATES, "robust")
    kept.update(second[:cut])
    fresh = MixtureBelief(GAME, model_mix("robust", GAME), MAX_STATES)
    fresh.update(second[:cut])
    assert len(_openings) == 1
    assert kept.members[0][1] is not None
    assert kept.posterior() == fresh.posterior() != {}


def test_the_floor_keeps_the_counting_odds_share_and_the_mix_gives_the_rest() -> None:
    """A hand-made posterior over two routes the counting belief allows, 1/4 and 3/4: each
    value's probability is FLOOR x its own + (1 - FLOOR) x the routes', and the certain
    numbers are those on both routes."""
    events, _ = marshal_view("policy:stride=3", 2)
    view = events[: guess_points(events)[0]]
    own = Deduction.from_events(view, model="frugal")
    sets = sorted(own.face_down_sets, key=sorted)
    assert len(sets) >= 2
    positions = sorted(own.counts.by_position)
    routes = [tuple(zip(positions, sorted(s), strict=True)) for s in sets[:2]]
    posterior = {routes[0]: Fraction(1, 4), routes[1]: Fraction(3, 4)}
    mixed = floored(own, posterior)
    assert isinstance(mixed, FlooredDeduction)
    own_odds, odds = own.counts.probabilities(), mixed.counts.probabilities()
    for position in positions:
        for value, p in own_odds[position].items():
            by_hand = sum((q for r, q in posterior.items() if (position, value) in r), Fraction(0))
            assert odds[position][value] == FLOOR * p + (1 - FLOOR) * by_hand
    assert mixed.counts.certain() == sorted(sets[0] & sets[1])
    assert mixed.face_down_sets[sets[1]] == FLOOR * own.face_down_sets[sets[1]] + (
        1 - FLOOR
    ) * Fraction(3, 4)
    assert sum(mixed.face_down_sets.values()) == 1


SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    ("fugitive", "edition", "model"),
    [
        ("policy:stride=2", "first", "policy/stride=3"),  # the floor keeps the truth
        pytest.param("heuristic", "first", "policy/stride=3", marks=SLOW),
        pytest.param("random", "first", "policy/stride=3", marks=SLOW),
        pytest.param("steady", "first", "policy/stride=3", marks=SLOW),
        pytest.param("policy:slack=1", "first", "policy/stride=3", marks=SLOW),
        pytest.param("policy:stride=3", "first", "policy/stride=3", marks=SLOW),
        pytest.param("heuristic", "second", "robust", marks=SLOW),
        ("policy:stride=4", "second", "robust"),
        pytest.param("policy:stride=3:draw=low", "second", "robust", marks=SLOW),
        pytest.param("elusive", "second", "robust", marks=SLOW),
        pytest.param("robust", "second", "robust", marks=SLOW),
    ],
)
def test_the_truth_is_never_excluded_whoever_the_fugitive(
    fugitive: str, edition: str, model: str
) -> None:
    """Property over whole games of Fugitives off the mix (and on it): at each of her guesses,
    every face-down hideout's true value, and the true set of them, have a positive
    probability under the floored odds.  Against ``policy:stride=2`` the mix's own posterior
    leaves the truth out at some guess (the stride=3 policy jumps 3 where he jumped 2 with
    the same hand): there the floor keeps it."""
    game = SPEC.make({"max_rounds": 50, "edition": edition})
    assert isinstance(game, FugitiveGame)
    saved = 0
    for seed in range(2):
        events, final = marshal_view(fugitive, seed, game)
        mix = MixtureBelief(game, model_mix(model, game), MAX_STATES)
        for cut in guess_points(events):
            own = Deduction.from_events(events[:cut], model="frugal")
            mix.update(events[:cut])
            posterior = mix.posterior()
            odds = floored(own, posterior)
            truth = {p: final.route[p].value for p in odds.counts.by_position}
            for position, value in truth.items():
                assert odds.counts.by_position[position].get(value, 0) > 0
            assert odds.face_down_sets.get(frozenset(truth.values()), 0) > 0
            saved += bool(posterior) and tuple(sorted(truth.items())) not in posterior
    if fugitive == "policy:stride=2":
        assert saved > 0


def test_whole_games_repeat_with_the_seed_and_forfeit_nothing() -> None:
    game = SPEC.make({"max_rounds": 50})
    marshal = SPEC.bot("belief:model=robust")
    records = [run_match(game, [SPEC.bot("robust"), marshal], 7, None) for _ in range(2)]
    assert not records[0].forfeits
    first, second = ([(e.kind, e.public) for s in r.steps for e in s.events] for r in records)
    assert first == second


def test_the_model_option_is_canonical_and_bad_values_are_named() -> None:
    assert SPEC.bot("belief:model=POLICY/draw=low/stride=3").name == (
        "belief:model=policy/stride=3/draw=low"
    )
    assert SPEC.bot("belief:model=policy").name == "belief:model=policy"
    with pytest.raises(OptionError, match="strid"):
        SPEC.bot("belief:model=policy/strid=3")
    with pytest.raises(OptionError, match="model"):
        SPEC.bot("belief:model=steady")
    with pytest.raises(OptionError, match="give one"):
        SPEC.bot("belief:model=robust:opponent=heuristic").make(GAME, MARSHAL, 0)
