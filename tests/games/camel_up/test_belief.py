"""Camel Up's belief in the core's protocol: a seat's table and its beliefs about hidden cards."""

from __future__ import annotations

import random

import pytest

from sleuth.core.belief import Belief
from sleuth.core.errors import ContradictionError
from sleuth.core.events import Event
from sleuth.games.camel_up.belief import CamelBelief
from sleuth.games.camel_up.rules import HIDDEN, CamelUpGame
from tests.belief_walk import view_of, walk


@pytest.mark.parametrize(("edition", "seed"), [(1, 0), (1, 1), (2, 2), (2, 3)])
def test_the_protocol_belief_admits_the_true_table_after_every_action(
    edition: int, seed: int
) -> None:
    game = CamelUpGame(edition=edition, players=3)
    seat = seed % 3
    table = CamelBelief.from_view(game, view_of(game, seat, []))
    inferring = CamelBelief(game, sharpness=3.0, rollouts=50)
    assert isinstance(table, Belief) and isinstance(inferring, Belief)
    seen: list[Event] = []
    hidden = 0
    for state, events in walk(game, seat, random.Random(seed)):
        for event in events:
            table.update(event)
            inferring.update(event)
        seen += events
        assert table.events_read == inferring.events_read == len(seen)
        assert table.admits(state) and inferring.admits(state), (seed, len(seen))
        hidden = max(hidden, sum(c == HIDDEN for pile in table.state.piles for _, c in pile))
    assert hidden > 0  # other players' cards were hidden from the seat on the way
    assert all(c != HIDDEN for pile in table.state.piles for _, c in pile)  # turned up
    assert inferring.beliefs and table.beliefs == {}


def test_the_protocol_belief_refuses_an_impossible_event_naming_it() -> None:
    game = CamelUpGame(players=3)
    seen: list[Event] = []
    for _, events in walk(game, 0, random.Random(4)):
        seen += events
        if any(e.kind == "die" for e in events):
            break
    die = next(e for e in seen if e.kind == "die")
    belief = CamelBelief.from_view(game, view_of(game, 0, seen))
    with pytest.raises(
        ContradictionError, match=rf"^event {len(seen) + 1} \(die\): not possible here: .*turn"
    ):
        belief.update(die)  # a die nobody rolled
    belief = CamelBelief.from_view(game, view_of(game, 0, seen))
    belief.update(Event("roll", {"seat": belief.state.seat, "forced": False}))
    with pytest.raises(
        ContradictionError,
        match=rf"^event {len(seen) + 2} \(die\): not possible here: .* die has already left",
    ):
        belief.update(die)  # the same die twice in one leg
