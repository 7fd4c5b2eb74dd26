"""Fox in a Hole's observations, traced by hand on a short game (P3, two days): the fox hides
in hole 0, the hunter inspects hole 1, the fox moves to hole 1."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from sleuth.core.events import Event, View
from sleuth.core.registry import game_spec
from sleuth.envs.episode import Episode
from sleuth.games.fox import encoding as fox_encoding


def test_a_hand_traced_game_s_observations() -> None:
    spec = game_spec("fox")
    encoding = spec.encoding_for(spec.make({"graph": "path:3", "days": 2}))
    episode = Episode(encoding, seed=0, belief=True)
    for action_id in (4, 1, 5):  # hole 0, inspect 1, hole 1
        episode.step(action_id)
    #          role    day  inspections (2 x 3)  fox holes (2 x 3)   belief (3)
    hunter = [1, 0] + [1] + [0, 1, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0] + [0, 1, 0]  # noqa: RUF005 (segments apart)
    fox = [0, 1] + [1] + [0, 1, 0, 0, 0, 0] + [1, 0, 0, 0, 1, 0] + [0, 1, 0]  # noqa: RUF005
    assert episode.observe(0).tolist() == hunter
    assert episode.observe(1).tolist() == fox


def test_each_event_of_a_growing_view_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An observation reads the events its view added since the last one (not the whole view
    again), and equals the observation of a fresh copy of the view."""
    read: list[int] = []
    update = fox_encoding._Reader.update

    def counted(self: fox_encoding._Reader, events: Sequence[Event]) -> None:
        read.append(len(events) - self.read)
        update(self, events)

    monkeypatch.setattr(fox_encoding._Reader, "update", counted)
    spec = game_spec("fox")
    encoding = spec.encoding_for(spec.make({"graph": "path:5", "days": 6}))
    episode = Episode(encoding, seed=3)
    rng = random.Random(3)
    while not episode.over:
        for seat in (0, 1):
            episode.observe(seat)
        episode.step(rng.choice(episode.builder.legal_ids()))
    ends = [episode.observe(seat).tobytes() for seat in (0, 1)]
    assert sum(read) == sum(len(view.events) for view in episode.views)  # each event once
    for seat, view in enumerate(episode.views):
        fresh = View(seat, view.role, view.game_info, tuple(view.events))
        assert encoding.observe(fresh).tobytes() == ends[seat]
