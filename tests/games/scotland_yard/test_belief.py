"""MrXBelief over the engine's events: sound in random games (every edition and seating), the
start sets of the editions, and tampered views raise errors naming the event."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.belief import Belief, SamplingBelief
from sleuth.core.errors import ContradictionError
from sleuth.core.events import Event, View, thaw
from sleuth.core.registry import make_game
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.edition import CLASSIC_CARDS, MRX_CARDS_2014
from sleuth.games.scotland_yard.rules import ScotlandYardGame, ScotlandYardState

from .helpers import CLASSIC_DIR, classic_board


def classic_game(**options: Any) -> ScotlandYardGame:
    classic_board()  # skips when the map is absent
    game = make_game("scotland-yard", {"map": str(CLASSIC_DIR), **options})
    assert isinstance(game, ScotlandYardGame)
    return game


def detectives_view(game: ScotlandYardGame, events: list[Event]) -> View:
    return View(1, game.roles[1], game.public_info(), [e.seen_by(1) for e in events])


def play(game: ScotlandYardGame, seed: int, belief: MrXBelief | None = None) -> list[Event]:
    """A uniformly random game; with ``belief``, it reads the detectives' view as the game goes
    and the tracker's invariants are checked after every action."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    events = state.apply(state.sample_chance(rng))
    read(belief, events, state)
    while not state.is_terminal():
        new = state.apply(rng.choice(state.legal_actions()))
        read(belief, new, state)
        events += new
    return events


def read(belief: MrXBelief | None, events: list[Event], state: ScotlandYardState) -> None:
    if belief is None:
        return
    for event in events:
        belief.update(event.seen_by(1))
    tracker = belief.tracker
    assert tracker is not None
    assert belief.admits(state)
    assert tracker.possible >> state.mrx & 1
    if state.termination_reason in ("caught", "cornered", "escaped", "blocked"):
        assert tracker.stations() == [state.mrx]
    else:
        assert tracker.possible & tracker.occupied == 0
    assert tracker.detectives == state.detectives
    if events[-1].kind == "mrx_moved" and events[-1].public["reveal"] is not None:
        assert tracker.size == 1
    smoothed = tracker.smoothed()
    for k, (_, station) in enumerate(state.log, start=1):
        assert tracker.history[k] >> station & 1
        assert smoothed[k] >> station & 1


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    edition=st.sampled_from(["classic", "2014", "bristol"]),
    detectives=st.integers(1, 5),
    model=st.sampled_from(["uniform", "random-walk"]),
)
def test_random_games_keep_the_tracker_invariants(
    seed: int, edition: str, detectives: int, model: Any
) -> None:
    """The true station is always possible, no detective's station is, one station after a
    reveal and at the end; every logged station is in its entry's set, smoothed or not."""
    game = classic_game(edition=edition, detectives=detectives)
    belief = MrXBelief(game, model)
    events = play(game, seed, belief)
    assert belief.events_read == len(events)
    assert belief.over


def test_seat_per_detective_and_mrx_views_give_the_same_belief() -> None:
    game = classic_game(detectives=3, seats=4)
    events = play(game, 11)
    cut = len(events) // 2
    beliefs = [
        MrXBelief.from_view(game, View(s, game.roles[s], {}, [e.seen_by(s) for e in events[:cut]]))
        for s in range(4)
    ]
    trackers = [b.tracker for b in beliefs]
    assert all(t is not None for t in trackers)
    assert len({(t.possible, tuple(t.history)) for t in trackers if t is not None}) == 1


def test_the_belief_follows_the_protocol() -> None:
    game = classic_game()
    belief = MrXBelief.from_view(game, detectives_view(game, []))
    assert isinstance(belief, Belief) and isinstance(belief, SamplingBelief)
    assert belief.tracker is None and belief.events_read == 0
    assert belief.admits(game.new_initial_state())
    with pytest.raises(ValueError, match="has not started"):
        belief.sample(random.Random(0))


def test_t12_through_the_engine() -> None:
    game = classic_game(detective_starts="26,29,50,53,91")
    state = game.new_initial_state()
    events = state.apply(state.sample_chance(random.Random(4)))
    belief = MrXBelief.from_view(game, detectives_view(game, events))
    assert belief.possible() == [13, 34, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198]
    assert set(belief.possible()) == set(CLASSIC_CARDS) - {26, 29, 50, 53, 91}
    draws = {belief.sample(random.Random(i)) for i in range(200)}
    assert draws == set(belief.possible())


def test_start_sets_of_the_2014_edition_and_a_fixed_start() -> None:
    game = classic_game(edition="2014")
    events = play(game, 2)[:1]
    assert MrXBelief.from_view(game, detectives_view(game, events)).possible() == sorted(
        MRX_CARDS_2014
    )
    fixed = classic_game(detectives=1, mrx_start=104, detective_starts="117")
    events = play(fixed, 0)[:1]
    assert MrXBelief.from_view(fixed, detectives_view(fixed, events)).possible() == [104]


def test_events_read_back_from_json() -> None:
    """Views written to JSON and read back (lists for tuples) give the same belief."""
    game = classic_game()
    events = play(game, 5)
    loaded = [Event(e.kind, json.loads(json.dumps(thaw(e.seen_by(1).public)))) for e in events]
    direct = MrXBelief.from_view(game, detectives_view(game, events))
    again = MrXBelief.from_view(game, View(1, "detectives", {}, loaded))
    assert direct.tracker is not None and again.tracker is not None
    assert direct.tracker.history == again.tracker.history
    assert again.over


# --- tampered views -----------------------------------------------------------------------------


def tampered(events: list[Event], index: int, **changes: Any) -> list[Event]:
    out = [e.seen_by(1) for e in events]
    out[index] = Event(out[index].kind, {**out[index].public, **changes})
    return out


def first(events: list[Event], kind: str, **fields: Any) -> int:
    return next(
        i
        for i, e in enumerate(events)
        if e.kind == kind and all(e.public.get(k) == v for k, v in fields.items())
    )


def reveal_game() -> tuple[ScotlandYardGame, list[Event]]:
    """A game in which Mr. X reaches his first reveal entry."""
    game = classic_game()
    for seed in range(50):
        events = play(game, seed)
        if any(e.kind == "mrx_moved" and e.public["entry"] == 3 for e in events):
            return game, events
    raise AssertionError("no game reached entry 3")


@pytest.mark.parametrize(
    ("kind", "fields", "changes", "message"),
    [
        ("mrx_moved", {"entry": 3}, {"reveal": 500}, r"Mr\. X is revealed at 500, but"),
        ("mrx_moved", {"entry": 3}, {"reveal": None}, "entry 3 does not show Mr. X"),
        ("mrx_moved", {"entry": 2}, {"reveal": 5}, "entry 2 shows Mr. X, against"),
        ("mrx_moved", {"entry": 2}, {"entry": 4}, "entry 4 follows entry 1"),
        ("mrx_moved", {"entry": 1}, {"ticket": "double"}, "unknown ticket 'double'"),
        ("mrx_moved", {"entry": 1}, {"ticket": None}, "unknown ticket 'None'"),
        (
            "detective_moved",
            {},
            {"captured": "no"},
            "a field has the wrong shape \\(field 'captured' is 'no', not true or false\\)",
        ),
        (
            "detective_moved",
            {},
            {"detective": "x"},
            "a field has the wrong shape \\(field 'detective' is 'x', not a whole number from 0\\)",
        ),
        (
            "detective_moved",
            {},
            {"station": None},
            "a field has the wrong shape \\(field 'station' is None, not a whole number from 0\\)",
        ),
        (
            "mrx_moved",
            {"entry": 1},
            {"ticket": None, "entry": None},
            "a field has the wrong shape \\(field 'entry' is None",
        ),
        ("detective_moved", {}, {"detective": 9}, "there is no detective 10 \\(d1 to d"),
        ("game_over", {}, {"termination": "caught"}, "the game ends caught, but Mr. X was not"),
        ("game_over", {}, {"log": ()}, "the log has 0 entries"),
        ("game_over", {}, {"mrx": 0}, r"Mr\. X is revealed at 0, but"),
        (
            "start",
            {},
            {"detectives": ("a",)},
            "a field has the wrong shape \\(field "
            "'detectives' is 'a', not a whole number from 0\\)",
        ),
        (
            "start",
            {},
            {"detectives": None},
            "a field has the wrong shape \\(field 'detectives' is None, not a list\\)",
        ),
    ],
)
def test_tampered_views_name_the_event(
    kind: str, fields: dict[str, Any], changes: dict[str, Any], message: str
) -> None:
    game, events = reveal_game()
    if kind == "game_over" and events[-1].public["termination"] == "caught":
        changes = {"termination": "escaped"} if "termination" in changes else changes
        message = message.replace("ends caught, but Mr. X was not", "ends escaped, but Mr. X was")
    index = first(events, kind, **fields)
    view = View(1, "detectives", {}, tampered(events, index, **changes))
    with pytest.raises(ContradictionError, match=rf"^event {index + 1} \({kind}\): {message}"):
        MrXBelief.from_view(game, view)


def test_events_out_of_place() -> None:
    game = classic_game()
    events = [e.seen_by(1) for e in play(game, 3)]
    cases = [
        (events[1:], r"^event 1 \(\w+\): the game has not started"),
        ([events[0], events[0]], r"^event 2 \(start\): the game has started already"),
        ([*events, events[-1]], rf"^event {len(events) + 1} \(game_over\): the game is over"),
        ([events[0], Event("dealt")], r"^event 2 \(dealt\): unknown event kind"),
    ]
    for view_events, message in cases:
        with pytest.raises(ContradictionError, match=message):
            MrXBelief.from_view(game, View(1, "detectives", {}, view_events))


def test_a_wrong_game_is_a_type_error() -> None:
    fox = make_game("fox", {})
    with pytest.raises(TypeError, match="needs a Scotland Yard game"):
        MrXBelief.from_view(fox, View(1, "hunter", {}, []))
