from __future__ import annotations

import pytest

from sleuth.core.events import Event


def test_public_event_is_seen_whole_by_everyone() -> None:
    event = Event("inspected", {"day": 1, "holes": [2]})
    assert event.private is None
    assert event.seen_by(0) is event
    assert event.seen_by(5) is event


def test_private_fields_reach_only_the_audience() -> None:
    event = Event("dealt", {"to": 1}, {"card": 3}, frozenset({1}))
    assert event.seen_by(1).private == {"card": 3}
    redacted = event.seen_by(0)
    assert redacted.private is None
    assert redacted.public == {"to": 1}
    assert redacted.audience == frozenset({1})  # who knows is public


def test_secret_without_audience_is_rejected() -> None:
    with pytest.raises(ValueError, match="no audience"):
        Event("dealt", {}, {"card": 3})


def test_json_round_trip() -> None:
    for event in (
        Event("inspected", {"day": 1, "holes": [2, 3], "caught": False}),
        Event("dealt", {"to": 1}, {"card": 3}, frozenset({1, 2})),
    ):
        assert Event.from_json(event.to_json()) == event


def test_event_contents_are_read_only() -> None:
    event = Event("dealt", {"to": 1, "seen": (1, 2)}, {"card": 3}, frozenset({1}))
    with pytest.raises(TypeError):
        event.public["to"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        event.private["card"] = 1  # type: ignore[index]
    assert event.to_json()["public"] == {"to": 1, "seen": [1, 2]}


def _immutable(value: object) -> bool:
    if isinstance(value, list | dict | set):
        return False
    if isinstance(value, tuple):
        return all(_immutable(v) for v in value)
    return True


@pytest.mark.parametrize("bots", [("random", "random"), ("solver", "quantum")])
def test_engine_events_hold_only_immutable_values(bots: tuple[str, str]) -> None:
    """Views share event objects: engines must not put lists or dicts inside them."""
    from sleuth.core.match import run_match
    from sleuth.core.registry import game_spec, make_game

    spec = game_spec("fox")
    for seed in range(20):
        game = make_game("fox", {"graph": "grid:2x3", "k": 2})
        record = run_match(game, [spec.bot(b) for b in bots], seed)
        for step in record.steps:
            for event in step.events:
                assert all(_immutable(v) for v in event.public.values())
                assert event.private is None or all(_immutable(v) for v in event.private.values())
