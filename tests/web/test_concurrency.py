"""Actions sent at the same time to one game are played one after the other: every accepted
action is in the stored log, which replays."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.web.app import COOKIE
from sleuth.web.live import LiveGame


def test_simultaneous_actions_are_serialised(app: FastAPI, client: TestClient) -> None:
    game = client.post(
        "/api/play",
        json={"game": "fox", "seed": 3, "options": {"graph": "cycle:9", "days": "80"},
              "bots": {"1": "random"}},
    ).json()  # fmt: skip

    def inspect(hole: int) -> int:
        url = f"/api/play/{game['id']}/action"
        return client.post(url, json={"action": f"inspect {hole}"}).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(inspect, [h % 9 for h in range(60)]))
    assert set(codes) <= {200, 400}
    log = app.state.store.get(client.cookies[COOKIE], "game", game["id"])
    live = LiveGame(log)  # the stored log replays
    played = [a for a in log["actions"] if a.startswith("inspect")]
    assert len(played) == codes.count(200)
    final = client.get(f"/api/play/{game['id']}").json()
    assert len(live.views[live.seat].events) == len(final["events"])
