"""The baseline graph notes: the worked checks, soundness, and exact ⊆ notes (section 9.1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction.notes import MarshalNotes
from tests.games.fugitive.helpers import SETUP, marshal_guess_points, marshal_view, play


def test_t1_t2_on_the_notes() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3")
    notes = MarshalNotes.from_events(marshal_view(events))
    assert notes.hideouts_range(1) == [1, 2, 3] and notes.hideouts_range(2) == [2, 3, 4, 5, 6]
    assert notes.route_count() == 3 + 3 + 3  # from 1: 2..4, from 2: 3..5, from 3: 4..6
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 1", "card 6")
    notes = MarshalNotes.from_events(marshal_view(events))
    assert notes.hideouts_range(2) == [2, 3, 4]


def test_a_single_miss_only_covers_existing_hideouts() -> None:
    notes = MarshalNotes()
    notes.add_hideout(0)
    notes.miss(2)
    notes.add_hideout(0)
    assert notes.hideouts_range(1) == [1, 3] and 2 not in notes.hideouts_range(1)
    assert 2 in notes.hideouts_range(2)  # T8: a later hideout may be a missed number


def test_42_layer_and_reveals() -> None:
    notes = MarshalNotes()
    notes.add_hideout(0)
    notes.add_hideout(0)
    notes.reveal(2, 5)
    assert notes.hideouts_range(2) == [5] and notes.hideouts_range(1) == [2, 3]
    notes.add_hideout(1, 42)
    assert notes.hideouts_range(3) == []  # 42 - 5 > 3 + 2: no way to 42


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_exact_within_notes_and_both_hold_the_truth(seed: int) -> None:
    for state, seen in marshal_guess_points(seed, max_rounds=3):
        notes = MarshalNotes.from_events(seen)
        exact = ExactBelief.from_events(seen).counts().candidates()
        for i, h in enumerate(state.route):
            if i and not h.face_up:
                assert h.value in exact[i]
                assert set(exact[i]) <= set(notes.hideouts_range(i))
