"""The elusive Fugitive: the Marshal's timeline it imitates, its own face-down route, the
exposure it charges, and play without forfeits."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

from sleuth.arena.tournament import run_tournament
from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import DEFAULT_MODEL, ExactBelief
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.timeline import Slot, read_view
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, SPRINT
from sleuth.games.fugitive.players.elusive import (
    ROUTE_WEIGHT,
    ElusiveFugitive,
    face_down_hideouts,
    marshal_timeline,
)
from sleuth.games.fugitive.players.fugitives import own_cards, payment
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveState


def game_prefixes(seeds: range) -> Iterator[tuple[FugitiveState, list[Event]]]:
    """Every prefix of games of the heuristic Fugitive against the belief Marshal, as the
    state after it and the events so far."""
    game = SPEC.make({"max_rounds": 50})
    for seed in seeds:
        record = run_match(game, [SPEC.bot("heuristic"), SPEC.bot("belief")], seed, None)
        state = game.new_initial_state()
        events: list[Event] = []
        for step in record.steps:
            events += state.apply(step.action)
            yield state, events


def test_the_imitated_timeline_is_the_marshals_but_for_her_cards() -> None:
    rng = random.Random(0)
    checked = 0
    for _, events in game_prefixes(range(3)):
        fugitive_view = [e.seen_by(FUGITIVE) for e in events]
        real = read_view([e.seen_by(MARSHAL) for e in events])
        imitated = marshal_timeline(fugitive_view, rng)
        assert imitated.slots == real.slots
        assert imitated.misses == real.misses
        assert imitated.fugitive_draws == real.fugitive_draws
        assert (imitated.manhunt, imitated.over) == (real.manhunt, real.over)
        per_pile = [sorted(PILE_OF[c] for c in t.marshal_cards) for t in (imitated, real)]
        assert per_pile[0] == per_pile[1]
        seen = {
            int(e.private["card"])
            for e in fugitive_view
            if e.kind == "drew" and e.public["seat"] == FUGITIVE and e.private is not None
        }
        assert not imitated.marshal_cards & seen
        checked += 1
    assert checked > 50


def test_the_face_down_route_is_read_from_the_fugitives_view() -> None:
    for state, events in game_prefixes(range(3)):
        view = [e.seen_by(FUGITIVE) for e in events]
        assert face_down_hideouts(view) == set(state.face_down())


def test_exposure_counts_the_marshals_next_guess_only_when_it_would_hit() -> None:
    game = SPEC.make({"max_rounds": 50})
    bot = ElusiveFugitive(game, FUGITIVE, 0, bluff=0.0, caution=1.0, candidates=4)
    rng = random.Random(1)
    charged = spared = 0
    for state, events in game_prefixes(range(4)):
        if state.current_player() != FUGITIVE or not state.route[1:] or state.is_terminal():
            continue
        view = [e.seen_by(FUGITIVE) for e in events]
        hand, last = own_cards(View(FUGITIVE, "fugitive", {}, view))
        hidden = face_down_hideouts(view)
        timeline = marshal_timeline(view, rng)
        for h in sorted(c for c in hand if last < c < LAST)[:3]:
            place = payment(hand, last, h, bluff=False)
            if h > last + 3 + sum(SPRINT[c] for c in place.sprints):
                continue  # out of reach with this hand
            after = copy.deepcopy(timeline)
            draws = tuple(after.fugitive_draws)
            after.slots.append(Slot(len(after.slots) + 1, len(place.sprints), draws))  # type: ignore[arg-type]
            belief = ExactBelief(after, model=DEFAULT_MODEL)
            deduction = Deduction(belief, belief.counts(), 30)
            advice = deduction.advice("gamble")
            assert advice is not None
            hits = set(advice.numbers) <= hidden | {h}
            whole = len(advice.numbers) == len(deduction.counts.by_position)
            expected = (ROUTE_WEIGHT if whole else len(advice.numbers)) if hits else 0.0
            assert bot._exposure(timeline, hidden, place) == expected
            charged += expected > 0
            spared += expected == 0
    assert charged and spared  # both cases occur in real games


def test_without_caution_it_plays_as_the_heuristic_fugitive() -> None:
    game = SPEC.make({"max_rounds": 50})
    for seed in range(3):
        plain = run_match(game, [SPEC.bot("heuristic:bluff=0.25"), SPEC.bot("belief")], seed, None)
        same = run_match(
            game, [SPEC.bot("elusive:caution=0:bluff=0.25"), SPEC.bot("belief")], seed, None
        )
        assert [s.action for s in same.steps] == [s.action for s in plain.steps]


def test_elusive_games_have_no_forfeits() -> None:
    result = run_tournament("fugitive", ["elusive", "belief"], games=6, seed=5, workers=1)
    assert len(result.rows) == 6
    assert result.forfeits == 0
    second = run_tournament(
        "fugitive",
        ["elusive:caution=5:bluff=1", "notes"],
        games=4,
        seed=5,
        workers=1,
        options={"edition": "second"},
    )
    assert second.forfeits == 0
