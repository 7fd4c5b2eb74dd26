"""Answers are a function of the human's view: two fox games whose hunter has seen the same
things get the same answer (but for the game's id), whatever the fox really did."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient


def _hunt(client: TestClient, seed: int, graph: str) -> list[tuple[dict[str, Any], list[str]]]:
    """A hunter who inspects by the day number against a random fox: each answer (without
    its id) with the fox's moves so far (the store's log, which the page never gets)."""
    game = client.post(
        "/api/play",
        json={
            "game": "fox",
            "role": "hunter",
            "seed": seed,
            "options": {"graph": graph},
            "bots": {"1": "random"},
        },
    ).json()
    answers = []
    day = 0
    while not game["over"]:
        answers.append(({k: v for k, v in game.items() if k != "id"}, _fox_moves(client, game)))
        legal = game["legal"]
        game = client.post(
            f"/api/play/{game['id']}/action", json={"action": legal[(3 * day) % len(legal)]}
        ).json()
        day += 1
    return answers


def _fox_moves(client: TestClient, game: dict[str, Any]) -> list[str]:
    store = client.app.state.store  # type: ignore[attr-defined]
    log = store.get(client.cookies["sleuth_session"], "game", game["id"])
    return [a for a in log["actions"] if a.startswith("hole")]


@pytest.mark.parametrize("graph", ["path:6", "grid:3x3", "edges:0-1,1-2,2-0,2-3,3-4"])
def test_same_view_same_answer(client: TestClient, graph: str) -> None:
    compared = differed = 0
    for seed in range(8):
        one, two = _hunt(client, seed, graph), _hunt(client, seed + 1000, graph)
        for (first, moves_one), (second, moves_two) in zip(one, two, strict=False):
            if first["events"] != second["events"]:
                break
            assert first == second
            compared += 1
            differed += moves_one != moves_two
    assert differed > 3, (compared, differed)  # the foxes hid in different holes
