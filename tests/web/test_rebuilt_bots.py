"""A game rebuilt from its log after a server restart goes on as the game that never stopped:
the bots, built afresh, make the decisions the bots that kept running made."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")


from sleuth.web.app import COOKIE, create_app
from tests.web.settled import SettledClient

MOVES = 30
"""The human's moves played in each game (fewer when it ends first)."""


def _play(store: Path, start: dict[str, Any], restart: bool) -> list[list[str]]:
    """The events the human sees after each of its moves: the same seeded choices each time
    (never a Cluedo accusation, which would end the human's game early), in one server, or
    with the server restarted before every move (``restart``)."""
    rng = random.Random(0)
    client = SettledClient(create_app(store))
    seen = []
    with client:
        game = client.post("/api/play", json=start).json()
        cookie = client.cookies[COOKIE]
    for _ in range(MOVES):
        if game["over"]:
            break
        if restart:
            client = SettledClient(create_app(store), cookies={COOKIE: cookie})
        with client:
            assert client.get(f"/api/play/{game['id']}").json()["events"] == game["events"]
            calm = [a for a in game["legal"] if not a.startswith("accuse")] or game["legal"]
            action = calm[rng.randrange(len(calm))]
            answer = client.post(f"/api/play/{game['id']}/action", json={"action": action})
            assert answer.status_code == 200, answer.text
            game = answer.json()
        seen.append(game["events"])
    return seen


@pytest.mark.parametrize(
    "start",
    [
        {"game": "fugitive", "role": "fugitive", "seed": 7, "bots": {"1": "belief"}},
        {"game": "fugitive", "role": "marshal", "seed": 8, "bots": {"0": "random"}},
        {"game": "cluedo", "seat": 0, "seed": 5, "bots": {"1": "sleuth", "2": "random"}},
    ],
    ids=["fugitive-belief", "fugitive-random", "cluedo"],
)
def test_a_game_goes_on_across_server_restarts_as_without_them(
    tmp_path: Path, start: dict[str, Any]
) -> None:
    steady = _play(tmp_path / "steady.sqlite3", start, restart=False)
    restarted = _play(tmp_path / "restarted.sqlite3", start, restart=True)
    assert len(steady) > 5
    for move, (one, other) in enumerate(zip(steady, restarted, strict=True)):
        assert other == one, f"after the human's move {move + 1}"
