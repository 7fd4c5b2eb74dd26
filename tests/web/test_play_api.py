"""The play API: starting games, playing actions, errors, sessions and restarts."""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.registry import GameSpec
from sleuth.render import board_svg
from sleuth.web import play
from sleuth.web.app import COOKIE, create_app
from sleuth.web.play import HELD
from tests.web.settled import SettledClient


def test_a_fox_game_against_the_random_fox(client: TestClient) -> None:
    started = client.post(
        "/api/play", json={"game": "fox", "role": "hunter", "seed": 3, "bots": {"1": "random"}}
    )
    assert started.status_code == 201, started.text
    game = started.json()
    assert (
        game["role"] == "hunter"
        and game["your_turn"]
        and game["legal"] == [f"inspect {h}" for h in range(5)]
    )
    moves = 0
    while not game["over"]:
        answer = client.post(f"/api/play/{game['id']}/action", json={"action": game["legal"][0]})
        assert answer.status_code == 200, answer.text
        game = answer.json()
        moves += 1
    assert game["result"]["text"] and game["log"]
    assert client.get(f"/api/play/{game['id']}").json()["events"] == game["events"]


def test_the_pages_render(client: TestClient) -> None:
    home = client.get("/", headers={"accept": "text/html"})
    assert home.status_code == 200 and "fox" in home.text
    form = client.get("/play/new?game=cluedo")
    assert form.status_code == 200 and "New game: cluedo" in form.text
    game = client.post("/api/play", json={"game": "fox", "seed": 1}).json()
    page = client.get(f"/play/{game['id']}")
    assert page.status_code == 200 and game["id"] in page.text
    assert client.get("/static/play.js").status_code == 200
    api = client.get("/api")
    assert api.status_code == 200 and "/api/play/{record}/action" in api.text
    whole = "before entry `number` (counted from 1); the later ones are entered again."
    assert whole in api.text and "``" not in api.text  # the first paragraph, whole
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/play", "/api/play/{record}"} <= set(schema["paths"])
    assert "cdn" not in client.get("/", headers={"accept": "text/html"}).text.lower()
    assert client.get("/docs").status_code == 404  # FastAPI's page would load a CDN's scripts


def test_an_illegal_action_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = client.post("/api/play", json={"game": "fox", "seed": 5}).json()
    for bad in ["9", "x", ""]:
        answer = client.post(f"/api/play/{game['id']}/action", json={"action": bad})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] and answer.json()["field"] == "action", answer.json()
    assert client.get(f"/api/play/{game['id']}").json() == game


def test_bad_requests_are_4xx_with_a_message(client: TestClient) -> None:
    cases = [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "fox", "options": {"k": "0"}}, "option k"),
        ({"game": "fox", "options": {"graph": "/etc/passwd"}}, "graph"),
        ({"game": "scotland-yard", "options": {"map": "/tmp"}}, "reads no files"),
        ({"game": "fox", "role": "dragon"}, "no role 'dragon'"),
        ({"game": "fox", "seat": 7}, "seat 7"),
        ({"game": "fox", "bots": {"1": "solver"}}, "cannot play the fox"),
        ({"game": "fox", "bots": {"1": "nobody"}}, "unknown bot 'nobody'"),
        ({"game": "fox", "bots": {"1": ""}}, "bot for seat 1: no bot named"),
        ({"game": "fox", "colour": "red"}, "colour"),
    ]
    for body, message in cases:
        answer = client.post("/api/play", json=body)
        assert 400 <= answer.status_code < 500, (body, answer.text)
        assert message in answer.json()["error"], (body, answer.json())
    broken = client.post(
        "/api/play", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert broken.status_code == 422 and "error" in broken.json()
    assert client.get("/", headers={"cookie": ""}).status_code == 200
    fox = client.get("/api/games").json()[0]
    assert fox["name"] == "fox" and fox["defaults"] == {"hunter": "solver", "fox": "quantum"}


def test_another_sessions_game_is_not_found(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game = alice.post("/api/play", json={"game": "fox", "seed": 2}).json()
        assert alice.cookies[COOKIE] != bob.cookies.get(COOKIE)
        for answer in [
            bob.get(f"/api/play/{game['id']}"),
            bob.post(f"/api/play/{game['id']}/action", json={"action": "0"}),
            bob.delete(f"/api/play/{game['id']}"),
            bob.get(f"/play/{game['id']}"),
        ]:
            assert answer.status_code == 404, answer.text
        assert alice.get(f"/api/play/{game['id']}").json() == game
        assert bob.get("/api/play/not-an-id").status_code == 404


def test_a_game_survives_a_server_restart(store: Path) -> None:
    with SettledClient(create_app(store)) as first:
        game = first.post("/api/play", json={"game": "fox", "role": "fox", "seed": 9}).json()
        game = first.post(f"/api/play/{game['id']}/action", json={"action": game["legal"][0]})
        game = game.json()
        cookie = first.cookies[COOKIE]
    with SettledClient(create_app(store), cookies={COOKIE: cookie}) as second:
        again = second.get(f"/api/play/{game['id']}").json()
        assert again == game
        assert (
            second.post(
                f"/api/play/{game['id']}/action", json={"action": game["legal"][0]}
            ).status_code
            == 200
        )


class _Crasher(Bot):
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        raise RuntimeError("boom")


def test_a_crashing_bot_forfeits(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    crasher = BotSpec("crasher", ("fox",), _Crasher, "raises")
    monkeypatch.setattr(GameSpec, "bot", lambda self, name, interactive=False: crasher)
    game = client.post("/api/play", json={"game": "fox", "role": "hunter", "seed": 1}).json()
    assert game["over"] and game["result"]["termination"] == "forfeit"  # the fox hides first
    assert game["forfeits"] == [
        {"seat": 1, "bot": "crasher", "reason": "raised RuntimeError: boom"}
    ]
    assert game["result"]["winners"] == ["hunter"] and game["legal"] == []
    late = client.post(f"/api/play/{game['id']}/action", json={"action": "inspect 0"})
    assert late.status_code == 400 and late.json() == {"error": "the game is over"}


def test_a_forfeit_reason_waits_for_the_end(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Camel Up goes on after a bot forfeits: its error text (which may name a hidden bet) is
    not shown until the game is over."""
    crasher = BotSpec("crasher", ("player",), _Crasher, "raises")
    monkeypatch.setattr(GameSpec, "bot", lambda self, name, interactive=False: crasher)
    game = client.post("/api/play", json={"game": "camel-up", "seed": 1}).json()
    game = client.post(f"/api/play/{game['id']}/action", json={"action": "roll"}).json()
    assert not game["over"] and game["forfeits"]
    assert all(f["reason"] == HELD for f in game["forfeits"])
    assert "boom" not in json.dumps(game)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=40))
@example(text="inspect 0,1")
@example(text=" inspect 1,0 ")
@example(text="inspect 1,1")
@example(text="inspect 9")
@example(text="hole 2")
def test_any_text_is_legal_or_refused_without_change(client: TestClient, text: str) -> None:
    """Whatever is typed, the answer is the game after a legal action, or a 400 that leaves
    the game as it was."""
    game = client.post(
        "/api/play", json={"game": "fox", "seed": 4, "options": {"graph": "cycle:5", "k": "2"}}
    ).json()
    answer = client.post(f"/api/play/{game['id']}/action", json={"action": text})
    if answer.status_code == 200:
        assert len(answer.json()["events"]) > len(game["events"])
    else:
        assert text.strip() not in game["legal"]
        assert answer.status_code == 400 and answer.json()["error"]
        assert client.get(f"/api/play/{game['id']}").json() == game


def test_malformed_json_is_named_as_such_with_no_field_blamed(client: TestClient) -> None:
    for path in ["/api/play", "/api/assist"]:
        broken = client.post(
            path, content=b"{not json", headers={"content-type": "application/json"}
        )
        assert broken.status_code == 422, broken.text
        answer = broken.json()
        assert answer["error"].startswith("malformed JSON at character 2: "), answer
        assert "field" not in answer, answer


def test_a_bad_path_number_blames_the_path_parameter_by_its_name(client: TestClient) -> None:
    notepad = client.post("/api/assist", json={"game": "fox"}).json()
    answer = client.put(f"/api/assist/{notepad['id']}/entries/abc", json={"text": "2"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "number", answer.json()
    assert answer.json()["error"].startswith("number: "), answer.json()


def test_a_body_that_is_not_a_json_object_is_named_as_the_request_body(
    client: TestClient,
) -> None:
    listed = client.post("/api/play", json=["fox"])
    assert listed.status_code == 422, listed.text
    assert listed.json()["error"].startswith("the request body: "), listed.json()
    as_text = client.post(
        "/api/play", content=b'{"game": "fox"}', headers={"content-type": "text/plain"}
    )
    assert as_text.status_code == 422, as_text.text
    assert as_text.json()["error"].endswith(
        "(send a JSON object as application/json, not text/plain)"
    ), as_text.json()


def test_a_game_is_drawn_once_per_stored_version(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looking again at a game nobody has moved since answers what was drawn (the board is not
    drawn again); a move draws the new position once."""
    drawn: list[int] = []

    def counted(*args: object) -> str:
        drawn.append(1)
        return board_svg(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "board_svg", counted)
    started = client.post("/api/play", json={"game": "fox", "role": "hunter", "seed": 3})
    game = started.json()
    before = len(drawn)
    looks = [client.get(f"/api/play/{game['id']}").json() for _ in range(3)]
    assert looks[0] == looks[1] == looks[2] and len(drawn) <= before + 1
    moved = client.post(f"/api/play/{game['id']}/action", json={"action": looks[0]["legal"][0]})
    assert moved.status_code == 200, moved.text
    after = len(drawn)
    assert client.get(f"/api/play/{game['id']}").json() == moved.json()
    assert len(drawn) == after
