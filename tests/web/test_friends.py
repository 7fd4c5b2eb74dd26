"""Games with friends: one private link per person's seat, moves out of turn refused, a seat
handed to a bot, answers that never wait for a bot, and the moves as server-sent events."""

from __future__ import annotations

import json
import threading
from collections.abc import Hashable, Sequence
from html import unescape
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.registry import GameSpec
from tests.web.pages import PAGE
from tests.web.settled import SettledClient

FOX = {"game": "fox", "role": "hunter", "seed": 4, "options": {"graph": "cycle:5"}}
"""A short game of two seats: the hunter (seat 0) and the fox (seat 1)."""


def _links(game: dict[str, Any]) -> dict[int, str]:
    """The seat tokens of a game's answer to its starter, by seat."""
    return {link["seat"]: link["url"].removeprefix("/play/") for link in game["links"]}


def _key_to_move(game: dict[str, Any], keys: dict[int, str]) -> str:
    return keys[game["to_move_seat"]]


def test_each_person_gets_a_private_link_that_is_their_seat(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game = alice.post("/api/play", json={**FOX, "people": [1]}).json()
        links = _links(game)
        assert sorted(links) == [0, 1] and len(set(links.values())) == 2
        assert all(len(token) >= 43 for token in links.values())  # 256 random bits
        assert game["players"] == [
            {"seat": 0, "role": "hunter", "player": "you", "name": None, "bot": None},
            {"seat": 1, "role": "fox", "player": "a person", "name": None, "bot": None},
        ]
        fox = bob.get(f"/api/play/{links[1]}").json()  # no session: the token is the seat
        assert (fox["seat"], fox["role"], fox["id"], fox["links"]) == (1, "fox", links[1], None)
        assert [p["player"] for p in fox["players"]] == ["a person", "you"]
        hunter = bob.get(f"/api/play/{links[0]}").json()
        assert (hunter["seat"], hunter["role"]) == (0, "hunter")
        assert alice.get(f"/api/play/{game['id']}").json()["links"] == game["links"]
        assert bob.get(f"/api/play/{game['id']}").status_code == 404  # the game's id is Alice's
        for wrong in ["", "x", links[1][:-1], links[1] + "x", links[1].upper()]:
            for answer in [
                bob.get(f"/api/play/{wrong}/x"),  # not a route
                bob.get(f"/api/play/{wrong}"),
                bob.post(f"/api/play/{wrong}/action", json={"action": "hole 0"}),
                bob.post(f"/api/play/{wrong}/bot", json={"bot": "random"}),
                bob.get(f"/play/{wrong}", headers=PAGE),
            ]:
                assert answer.status_code in (404, 405), (wrong, answer.text)
        assert bob.delete(f"/api/play/{links[1]}").status_code == 404  # only the starter forgets
        assert alice.delete(f"/api/play/{game['id']}").status_code == 204
        assert bob.get(f"/api/play/{links[1]}").status_code == 404  # gone with the game


def test_a_game_between_two_people_is_played_to_the_end(app: FastAPI) -> None:
    """Each person moves through their own link; a move out of turn, or through another
    seat's key, is refused with the reason and changes nothing."""
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game = alice.post("/api/play", json={**FOX, "people": [1]}).json()
        keys = {0: game["id"], 1: _links(game)[1]}
        clients = {0: alice, 1: bob}
        moves = 0
        while not game["over"]:
            mover = game["to_move_seat"]
            other = 1 - mover
            before = clients[other].get(f"/api/play/{keys[other]}").json()
            assert not before["your_turn"] and before["legal"] == []
            assert before["status"] == f"{game['to_move']} to move (seat {mover}: a person)"
            late = clients[other].post(f"/api/play/{keys[other]}/action", json={"action": "hole 0"})
            assert late.status_code == 400
            assert late.json()["error"] == (
                f"it is not your turn: the {game['to_move']} (seat {mover}) is to move"
            )
            assert clients[other].get(f"/api/play/{keys[other]}").json() == before
            mine = clients[mover].get(f"/api/play/{keys[mover]}").json()
            assert mine["your_turn"] and mine["status"].endswith(": your move")
            game = (
                clients[mover]
                .post(f"/api/play/{keys[mover]}/action", json={"action": mine["legal"][0]})
                .json()
            )
            moves += 1
        assert moves >= 3 and game["result"]["text"]
        for seat in (0, 1):  # both pages show the end, and the whole log
            end = clients[seat].get(f"/api/play/{keys[seat]}").json()
            assert end["over"] and end["status"] == "game over" and end["log"] == game["log"]


class _Waiter(Bot):
    """A bot that moves only once the test lets it (its first legal action)."""

    go = threading.Event()

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        assert self.go.wait(60), "the test never let the bot move"
        return next(iter(legal))


def test_no_answer_waits_for_a_bot(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the fox's bot thinking (until the test lets it go), starting the game, reading it,
    its page and a move out of turn are answered at once; the bot's move then arrives."""
    waiter = BotSpec("waiter", ("fox",), _Waiter, "moves when let")
    monkeypatch.setattr(GameSpec, "bot", lambda self, name, interactive=False: waiter)
    _Waiter.go.clear()
    with TestClient(app) as client:
        started = client.post("/api/play", json=FOX)
        assert started.status_code == 201, started.text
        game = started.json()
        assert game["waiting"] and not game["your_turn"] and game["legal"] == []
        assert game["status"] == "fox to move (seat 1: waiter)"
        again = client.get(f"/api/play/{game['id']}").json()
        assert again == game
        page = client.get(f"/play/{game['id']}", headers=PAGE)
        assert page.status_code == 200 and "fox to move (seat 1: waiter)" in page.text
        late = client.post(f"/api/play/{game['id']}/action", json={"action": "inspect 0"})
        assert late.status_code == 400 and "not your turn" in late.json()["error"]
        _Waiter.go.set()
        assert app.state.mover.settle(30)
        moved = client.get(f"/api/play/{game['id']}").json()
        assert moved["your_turn"] and not moved["waiting"] and moved["moves"] == game["moves"] + 1
        assert moved["status"] == "you are the hunter: your move"


def test_a_seat_is_handed_to_a_bot(app: FastAPI) -> None:
    """A person hands their own seat to a bot, the starter any person's seat; a bad bot, or
    another seat named through a seat's link, is refused by name and changes nothing."""
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game = alice.post(
            "/api/play", json={"game": "fugitive", "role": "marshal", "seed": 2, "people": [0]}
        ).json()
        fugitive = _links(game)[0]
        before = bob.get(f"/api/play/{fugitive}").json()
        for key, body, field, message in [
            (fugitive, {"seat": 1, "bot": "random"}, "seat", "this link is seat 0's"),
            (fugitive, {"bot": "solver"}, "bots", "unknown bot 'solver'"),
            (fugitive, {"bot": "notes"}, "bots", "cannot play the fugitive"),
            (game["id"], {"seat": 5, "bot": "random"}, "seat", "seat 5 is not played by a person"),
        ]:
            client = alice if key == game["id"] else bob
            refused = client.post(f"/api/play/{key}/bot", json=body)
            assert refused.status_code == 400, refused.text
            assert refused.json()["field"] == field and message in refused.json()["error"]
        assert bob.get(f"/api/play/{fugitive}").json() == before
        handed = bob.post(f"/api/play/{fugitive}/bot", json={"bot": "random"}).json()
        assert handed["players"][0]["player"] == "random" and handed["legal"] == []
        again = bob.post(f"/api/play/{fugitive}/bot", json={"bot": "random"})
        assert again.status_code == 400 and "not played by a person" in again.json()["error"]
        mine = alice.get(f"/api/play/{game['id']}").json()
        assert mine["your_turn"] or mine["over"]  # the bot moved for the fugitive
        end = alice.post(f"/api/play/{game['id']}/bot", json={"seat": 1, "bot": "random"}).json()
        assert end["over"] and [p["player"] for p in end["players"]] == ["random", "random"]
        watched = bob.get(f"/api/play/{fugitive}").json()  # the link still shows seat 0's view
        assert watched["over"] and watched["seat"] == 0


def test_the_moves_arrive_as_server_sent_events(app: FastAPI) -> None:
    """The stream of a seat sends its answer now and after each change, and ends with the
    game: here both people hand their seats to bots while the fox's stream is open."""
    with SettledClient(app) as alice:
        game = alice.post("/api/play", json={**FOX, "people": [1]}).json()
        fox = _links(game)[1]
        alice.post(f"/api/play/{game['id']}/bot", json={"seat": 1, "bot": "random"})
        streams: list[Any] = []
        listener = threading.Thread(
            target=lambda: streams.append(TestClient(app).get(f"/api/play/{fox}/events"))
        )
        listener.start()
        threading.Event().wait(1.0)  # the first event is sent
        assert listener.is_alive()  # the stream stays open while the game is on
        alice.post(f"/api/play/{game['id']}/bot", json={"bot": "random"})
        listener.join(60)
        final = alice.get(f"/api/play/{fox}").json()
    (stream,) = streams
    assert stream.status_code == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.text.startswith("retry: ")
    sent = [
        json.loads(line.removeprefix("data: "))
        for line in stream.text.splitlines()
        if line.startswith("data: ")
    ]
    assert len(sent) >= 2 and sent[-1]["over"] and not any(s["over"] for s in sent[:-1])
    assert all(s["seat"] == 1 and s["id"] == fox and s["links"] is None for s in sent)
    moves = [s["moves"] for s in sent]
    assert moves == sorted(moves) and moves[-1] > moves[0]  # a hand-over is a change too
    assert sent[-1] == final
    assert TestClient(app).get("/api/play/no-such-seat/events").status_code == 404


def test_a_page_not_at_its_turn_reloads_itself_without_scripts(app: FastAPI) -> None:
    with SettledClient(app) as alice:
        game = alice.post("/api/play", json={**FOX, "people": [1]}).json()
        fox = _links(game)[1]
        refresh = '<noscript><meta http-equiv="refresh"'
        waiting = alice.get(f"/play/{game['id']}", headers=PAGE).text  # the fox hides first
        assert refresh in waiting and "fox to move (seat 1: a person)" in waiting
        assert f"/play/{fox}" in waiting  # the starter's page lists the seats' links
        mine = alice.get(f"/play/{fox}", headers=PAGE).text
        assert refresh not in mine and "you are the fox: your move" in mine
        assert f"/play/{game['id']}" not in mine and "Seats for friends" not in mine


def test_the_form_seats_friends_and_hands_seats_to_bots(app: FastAPI) -> None:
    with SettledClient(app) as alice:
        form = {"game": "fox", "role": "hunter", "option:graph": "cycle:5", "seed": "4"}
        refused = alice.post("/play/new", data={**form, "people": "1, x"}, headers=PAGE)
        assert refused.status_code == 400 and "people: seat 'x' is not a whole number" in unescape(
            refused.text
        )
        refused = alice.post("/play/new", data={**form, "people": "0"}, headers=PAGE)
        assert refused.status_code == 400 and "seat 0 is not a friend's seat" in unescape(
            refused.text
        )
        page = alice.post("/play/new", data={**form, "people": "1"}, headers=PAGE)
        assert page.status_code == 200 and "Seats for friends" in page.text
        game = page.url.path.rsplit("/", 1)[1]
        answer = alice.get(f"/api/play/{game}").json()
        assert [p["player"] for p in answer["players"]] == ["you", "a person"]
        bad = alice.post(f"/play/{game}/bot", data={"seat": "1", "bot": "nobody"}, headers=PAGE)
        assert bad.status_code == 400 and "unknown bot 'nobody'" in unescape(bad.text)
        assert alice.get(f"/api/play/{game}").json() == answer
        handed = alice.post(f"/play/{game}/bot", data={"seat": "1", "bot": "random"}, headers=PAGE)
        assert handed.status_code == 200 and handed.url.path == f"/play/{game}"
        assert alice.get(f"/api/play/{game}").json()["players"][1]["player"] == "random"
