"""Cluedo's world sampler (sleuth.games.cluedo.search): every consistent deal drawn exactly
uniformly (brute force over every deal the view leaves open, replayed through the engine, and
a χ² test), every world replaying to the view with the true seat to move, impossible views
refused by event."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from scipy.stats import chisquare

from sleuth.core.bitsets import mask_of
from sleuth.core.errors import ContradictionError, IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.searchmodel import replay_history, view_matches
from sleuth.games.cluedo.actions import Accuse, Action, Show
from sleuth.games.cluedo.deal import Deal
from sleuth.games.cluedo.rules import CluedoGame, CluedoState
from sleuth.games.cluedo.search import CluedoSampler
from sleuth.testing import check_sampler
from sleuth.testing.case import Case


def _played(game: CluedoGame, seed: int) -> tuple[list[Action], list[Event], CluedoState]:
    """A game of random legal actions, never an accusation, to its turn limit (where the
    envelope is shown to everyone): its actions, events and end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions: list[Action] = []
    events: list[Event] = []
    while not state.is_terminal():
        if state.current_player() < 0:
            action = state.sample_chance(rng)
        else:
            action = rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)])
        actions.append(action)
        events.extend(state.apply(action))
    return actions, events, state


def _consistent(
    game: CluedoGame, actions: list[Action], view: View, deal: Deal
) -> tuple[int, ...] | None:
    """The hands of ``deal`` if the game's actions, played on it (each refutation the seat did
    not see showing any card the refuter holds), give the seat its view; else None."""
    state = game.new_initial_state()
    seen = 0
    for action in [deal, *actions[1:]]:
        try:
            refuter = state.refuter
            unseen = refuter is not None and view.seat not in (refuter, state.to_move)
            if isinstance(action, Show) and unseen:  # a refutation the seat did not see
                assert refuter is not None
                held = [c for c in state.suggestion or () if state.hands[refuter] >> c & 1]
                action = Show(held[0]) if held else action
            made = state.apply(action)
        except IllegalActionError:
            return None
        for event in made:  # stop at the first event unlike the view
            if seen >= len(view.events) or event.seen_by(view.seat) != view.events[seen]:
                return None
            seen += 1
    return tuple(state.hands) if seen == len(view.events) else None


def _every_deal(truth: Deal, seat: int) -> list[Deal]:
    """Every deal with the seat's hand and the envelope of ``truth`` (3 seats): each way to
    share the other cards between the two other hands."""
    others = [s for s in range(3) if s != seat]
    rest = sorted(c for s in others for c in truth.hands[s])
    size = len(truth.hands[others[0]])
    deals = []
    for first in combinations(rest, size):
        hands = list(truth.hands)
        hands[others[0]] = first
        hands[others[1]] = tuple(c for c in rest if c not in first)
        deals.append(Deal(truth.envelope, tuple(hands)))
    return deals


@pytest.mark.parametrize(("seed", "turns", "seat"), [(2, 15, 2), (51, 24, 0)])
def test_every_consistent_deal_is_drawn_exactly_uniformly(seed: int, turns: int, seat: int) -> None:
    """At a game's end the envelope is public, so the deals a seat's view leaves open are the
    924 ways to share the 12 other cards between the two other hands: each is played through
    the engine, and the sampler draws exactly those that give the seat its view, uniformly
    (games chosen to leave a few dozen of them)."""
    game = CluedoGame(max_turns=turns)
    actions, events, state = _played(game, seed)
    view = View(seat, "player", game.public_info(), [e.seen_by(seat) for e in events])
    truth = actions[0]
    assert isinstance(truth, Deal) and state.termination() == "turn_limit"
    consistent = {
        hands
        for deal in _every_deal(truth, seat)
        if (hands := _consistent(game, actions, view, deal)) is not None
    }
    assert 10 <= len(consistent) <= 40
    assert tuple(state.hands) in consistent
    sampler = CluedoSampler(game, view)
    rng = random.Random(seed)
    n = 150 * len(consistent)
    drawn: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        history = sampler.sample_history(rng)
        deal = history[0]
        assert isinstance(deal, Deal) and deal.envelope == truth.envelope
        drawn[tuple(mask_of(hand) for hand in deal.hands)] += 1
    assert set(drawn) == consistent
    keys = sorted(consistent)
    assert chisquare([drawn[k] for k in keys]).pvalue > 0.001
    for _ in range(20):  # and each world replays to the view
        _, replayed = replay_history(game, sampler.sample_history(rng))
        assert view_matches(replayed, view)


def test_worlds_replay_to_the_view_with_the_true_seat_to_move() -> None:
    """The conformance kit's sampler check with tokens that may turn on their way (the kit's
    own run, tests/test_conformance.py, covers the default and a 5-player option set): every
    world replays to the deciding seat's view, its state has that seat to move with the true
    legal actions, and the true world is drawable where the worlds are few."""
    case = Case.of("cluedo", {"players": "4", "allow_retarget": "true", "max_turns": "120"})
    assert case.spec.search is not None
    report = check_sampler(case, case.spec.search, seed=3, decisions=6, draws=30)
    assert report.decisions == 6


def test_worlds_vary_the_hidden_cards_and_keep_the_public_ones() -> None:
    """Worlds differ from the truth in the other hands (never a copy of the true deal) and
    keep the seat's own hand and the face-up cards."""
    game = CluedoGame(players=5, leftover="face_up", max_turns=6)
    actions, events, _ = _played(game, 1)
    truth = actions[0]
    assert isinstance(truth, Deal)
    before_end = events[:-2]  # the last turn's end and the game's: the envelope is not public
    view = View(1, "player", game.public_info(), [e.seen_by(1) for e in before_end])
    sampler = CluedoSampler(game, view)
    rng = random.Random(2)
    deals = [sampler.sample_history(rng)[0] for _ in range(50)]
    assert all(isinstance(d, Deal) and d.hands[1] == truth.hands[1] for d in deals)
    assert all(isinstance(d, Deal) and d.face_up == truth.face_up for d in deals)
    assert sum(d != truth for d in deals) > 40


def test_a_view_no_game_explains_is_refused_naming_its_event() -> None:
    game = CluedoGame(max_turns=8)
    _, events, _ = _played(game, 5)
    seen = [e.seen_by(0) for e in events]
    rolled = next(i for i, e in enumerate(seen) if e.kind == "rolled")
    bad = Event("rolled", {"seat": seen[rolled].public["seat"], "roll": 9})  # one die: 1-6
    view = View(0, "player", game.public_info(), [*seen[:rolled], bad])
    with pytest.raises(ContradictionError, match=rf"^event {rolled} \(rolled\)"):
        CluedoSampler(game, view)
