"""Fox in a Hole's observations, traced by hand on a short game (P3, two days): the fox hides
in hole 0, the hunter inspects hole 1, the fox moves to hole 1."""

from __future__ import annotations

from sleuth.core.registry import game_spec
from sleuth.envs.episode import Episode


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
