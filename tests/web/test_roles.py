"""Every role the new-game form offers starts a game: Scotland Yard's one-detective seat gets
the seat count it needs (a seat per detective) when the request does not choose one."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient


def test_every_offered_role_starts_a_game(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        for role in game["roles"]:
            started = client.post("/api/play", json={"game": game["name"], "role": role, "seed": 4})
            assert started.status_code == 201, (game["name"], role, started.text)
            assert started.json()["role"] == role


def test_a_scotland_yard_game_to_the_end_as_one_detective(client: TestClient) -> None:
    started = client.post(
        "/api/play",
        json={"game": "scotland-yard", "role": "detective", "seed": 7,
              "options": {"max_rounds": "3"}},
    )  # fmt: skip
    assert started.status_code == 201, started.text
    game = started.json()
    assert game["options"]["seats"] == 6 and (game["seat"], game["role"]) == (1, "detective")
    assert [p["role"] for p in game["players"]] == ["mrx"] + ["detective"] * 5
    assert [p["player"] for p in game["players"]] == ["heuristic", "you", *["mc"] * 4]
    moves = 0
    while not game["over"]:
        assert game["your_turn"] and game["legal"], game
        answer = client.post(f"/api/play/{game['id']}/action", json={"action": game["legal"][0]})
        assert answer.status_code == 200, answer.text
        game = answer.json()
        moves += 1
    assert 1 <= moves <= 3 and game["result"]["text"] and game["log"]
    assert {step["by"] for step in game["log"]} >= {"mrx", "detective"}
    assert client.get(f"/api/play/{game['id']}").json()["over"]


def test_the_seat_count_follows_the_number_of_detectives(client: TestClient) -> None:
    game = client.post(
        "/api/play",
        json={"game": "scotland-yard", "role": "detective", "options": {"detectives": "3"}},
    ).json()
    assert game["options"]["seats"] == 4 and len(game["players"]) == 4


def test_a_seat_count_without_the_role_is_refused_naming_the_one_with_it(
    client: TestClient,
) -> None:
    answer = client.post(
        "/api/play",
        json={"game": "scotland-yard", "role": "detective", "options": {"seats": "2"}},
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "no role 'detective' in this scotland-yard game; its roles: mrx, detectives "
        "(seats=6 has a detective seat)"
    )
    unknown = client.post("/api/play", json={"game": "scotland-yard", "role": "inspector"})
    assert unknown.status_code == 400 and "no role 'inspector'" in unknown.json()["error"]


def test_a_seat_of_another_role_than_the_one_chosen_is_refused(client: TestClient) -> None:
    """The form always sends the role: a seat is chosen among that role's seats, and a seat of
    another role is refused rather than silently giving the person that other role."""
    answer = client.post("/api/play", json={"game": "fox", "role": "hunter", "seat": 1})
    assert answer.status_code == 400, answer.text
    assert answer.json() == {
        "error": "seat 1 is the fox's, not a hunter's: the hunter's seat is 0",
        "field": "seat",
    }
    unknown = client.post("/api/play", json={"game": "fox", "role": "dragon", "seat": 1})
    assert unknown.status_code == 400, unknown.text
    assert unknown.json()["field"] == "role", unknown.json()


def test_a_seat_among_one_detective_seats_gets_the_seat_count_the_role_needs(
    client: TestClient,
) -> None:
    started = client.post(
        "/api/play", json={"game": "scotland-yard", "role": "detective", "seat": 3, "seed": 1}
    )
    assert started.status_code == 201, started.text
    game = started.json()
    assert game["options"]["seats"] == 6 and (game["seat"], game["role"]) == (3, "detective")
