"""No response about a game in progress holds hidden information.

For each game and role, random games are played through the API (the human picks uniformly
among the listed legal actions, never a Cluedo accusation) and every response body is kept;
then games of every kind with every seat played by a person, each through their own link, each
naming their seat, and each person's bodies are searched for the secrets of their own seat and
for the other seats' links (the names are public: every body shows every seat's name).
Then the game's full record is rebuilt from the store, and for every event with a secret the
human's seat may not see, the event's full description (what the page would show if the
secret leaked) is searched for in every body received while the game was on; each game's
picture is also checked for its own secrets (the fox's hole, Mr. X's station, the Fugitive's
face-down values and hand, other players' overall bets).  The same descriptions do appear in
the full log at the end, so the search can find them.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.render import describe
from sleuth.web.app import COOKIE
from sleuth.web.live import LiveGame
from tests.web.settled import SettledClient

CASES = [
    ("fox", "hunter", {}, 2),
    ("fox", "fox", {}, 2),
    ("fox", "hunter", {"graph": "grid:3x3", "lazy": "true"}, 2),
    ("fugitive", "marshal", {}, 2),
    ("fugitive", "fugitive", {}, 2),
    ("camel-up", "player", {}, 2),
    ("scotland-yard", "detectives", {}, 2),
    ("scotland-yard", "detective", {}, 2),  # one of five detectives, the others bots
    ("scotland-yard", "mrx", {}, 2),
    ("cluedo", "player", {"players": "3", "max_turns": "90"}, 2),
]
"""Game, the human's role, options, and how many games to play."""
SEES_ALL = {("fox", "fox"), ("scotland-yard", "mrx")}
"""Roles from which the rules hide nothing (the other side has no secret)."""


def _play(
    client: TestClient, game: str, role: str, options: dict[str, str], seed: int
) -> tuple[str, list[str], dict[str, Any]]:
    """Play one game with random bots and a random human; the id, the bodies received while
    the game was on, and the last answer."""
    rng = random.Random(seed)
    games = {g["name"]: g for g in client.get("/api/games").json()}
    bots = {}
    started = client.post(
        "/api/play", json={"game": game, "role": role, "options": options, "seed": seed, "bots": {}}
    )
    assert started.status_code == 201, started.text
    answer = started.json()
    for player in answer["players"]:
        if player["player"] != "you":
            bots[player["seat"]] = "random"
    assert any(b["name"] == "random" for b in games[game]["bots"])
    started = client.post(
        "/api/play",
        json={"game": game, "role": role, "options": options, "seed": seed, "bots": bots},
    )
    answer = started.json()
    bodies = [started.text]
    if not answer["over"]:
        bodies.append(client.get(f"/api/play/{answer['id']}").text)  # a reload
    while not answer["over"]:
        choices = [a for a in answer["legal"] if not a.startswith("accuse")] or answer["legal"]
        response = client.post(
            f"/api/play/{answer['id']}/action", json={"action": rng.choice(choices)}
        )
        assert response.status_code == 200, response.text
        answer = response.json()
        if not answer["over"]:
            bodies.append(response.text)
    return answer["id"], bodies, answer


def _secrets(live: LiveGame, seat: int) -> list[str]:
    """The full descriptions of the events whose secrets ``seat`` may not see (but
    not one that reads the same as an event the seat did see, or begins one: Cluedo's "p2
    shows Plum" to another player after p2 showed Plum to the human; the Fugitive's "hideout
    9: 42", placed face up, which the Marshal reads as "hideout 9: 42 with 0 sprint cards")."""
    events = [event for step in live.steps for event in step.events]
    names = live.called
    seen = {describe(live.game, event.seen_by(seat), seat, names) for event in events}
    return [
        describe(live.game, event, seat, names)
        for event in events
        if event.private is not None
        and seat not in event.audience
        and not any(text.startswith(describe(live.game, event, seat, names)) for text in seen)
    ]


@pytest.mark.parametrize(("game", "role", "options", "games"), CASES)
def test_no_hidden_information_while_the_game_is_on(
    app: FastAPI, client: TestClient, game: str, role: str, options: dict[str, str], games: int
) -> None:
    found_any = False
    for seed in range(games):
        record, bodies, last = _play(client, game, role, options, seed)
        log = app.state.store.get(client.cookies[COOKIE], "game", record)
        live = LiveGame(log)
        assert live.is_over()
        secrets = _secrets(live, live.seat)
        for body in bodies:
            for secret in secrets:
                assert secret not in body, (secret, body[:300])
        _check_picture(live, live.seat, bodies)
        final = " ".join(line for step in last["log"] for line in step["events"])
        found_any |= any(secret in final for secret in secrets)
        if (game, role) in SEES_ALL:
            assert not secrets
    if (game, role) not in SEES_ALL:
        assert found_any, "no secret was ever hidden: the test proves nothing"


def _check_picture(live: LiveGame, seat: int, bodies: list[str]) -> None:
    """Each game's own secrets in ``seat``'s picture (bodies are JSON: quotes are
    escaped)."""
    game = live.game.name
    for body in bodies:
        if game == "fox" and live.game.roles[seat] == "hunter":
            assert not re.search(r'class=\\"hole[^"\\]*\bfox\b', body)
        if game == "scotland-yard" and seat != 0:
            assert not re.search(r'class=\\"station[^"\\]*\bmrx\b', body)
        if game == "fugitive" and seat == 1:
            for label in re.findall(
                r'hideout face-down\\" data-position=\\"\d+\\">.*?>([^<]*)</text>', body
            ):
                assert label == "?"
            hand = re.findall(r'hand-card\\">.*?>(\d+)</text>', body)
            marshal_cards = {
                int(e.private["card"])
                for step in live.steps
                for e in step.events
                if e.kind == "drew" and e.public["seat"] == 1 and e.private is not None
            }
            assert {int(card) for card in hand} <= marshal_cards
        if game == "camel-up":
            for pile in re.findall(r"Overall \w+ pile: ([^<]*)<", body):
                for owner, camel in re.findall(r"(p\d+|you): (\w+|\?)", pile):
                    assert owner == "you" or camel == "?", pile


PEOPLE = [
    ("fox", "hunter", {"graph": "cycle:5"}),
    ("fugitive", "marshal", {"max_rounds": "8"}),
    ("camel-up", "player", {}),
    ("scotland-yard", "detectives", {"max_rounds": "8"}),
    ("scotland-yard", "detective", {"max_rounds": "4"}),  # Mr. X and five detectives
    ("cluedo", "player", {"players": "3", "max_turns": "60"}),
]
"""Games played by people only (the starter's role, options): one game each."""


def _play_together(
    app: FastAPI, game: str, role: str, options: dict[str, str], seed: int
) -> tuple[str, dict[int, list[str]], dict[int, str]]:
    """One game with a person at every seat, each moving at random through their own link
    (each with a client of their own, without the starter's session); the game's id, the
    bodies each seat received while the game was on, and each seat's key."""
    rng = random.Random(seed)
    with SettledClient(app) as starter:
        first = starter.post(
            "/api/play", json={"game": game, "role": role, "options": options, "seed": seed}
        ).json()
        seats = len(first["players"])
        people = [s for s in range(seats) if s != first["seat"]]
        started = starter.post(
            "/api/play",
            json={"game": game, "role": role, "options": options, "seed": seed, "people": people},
        )
        answer = started.json()
        record, keys = answer["id"], {link["seat"]: link["url"][6:] for link in answer["links"]}
        assert sorted(keys) == list(range(seats))
        bodies: dict[int, list[str]] = {s: [] for s in keys}
        clients = {s: SettledClient(app) for s in keys}
        for s in keys:  # each person names their own seat
            named = clients[s].post(f"/api/play/{keys[s]}/name", json={"name": _name(s)})
            assert named.status_code == 200, named.text
        while not answer["over"]:
            seat = answer["to_move_seat"]
            for other in rng.sample(sorted(keys), 2):  # someone else looks at the game
                bodies[other].append(clients[other].get(f"/api/play/{keys[other]}").text)
            mine = clients[seat].get(f"/api/play/{keys[seat]}")
            bodies[seat].append(mine.text)
            legal = mine.json()["legal"]
            choices = [a for a in legal if not a.startswith("accuse")] or legal
            response = clients[seat].post(
                f"/api/play/{keys[seat]}/action", json={"action": rng.choice(choices)}
            )
            assert response.status_code == 200, response.text
            answer = response.json()
            if not answer["over"]:
                bodies[seat].append(response.text)
        for client in clients.values():
            client.close()
    return record, bodies, keys


def _name(seat: int) -> str:
    return f"Person {seat}"


@pytest.mark.parametrize(("game", "role", "options"), PEOPLE)
def test_every_person_receives_only_their_own_view(
    app: FastAPI, game: str, role: str, options: dict[str, str]
) -> None:
    record, bodies, keys = _play_together(app, game, role, options, seed=3)
    live = LiveGame(app.state.store.read("game", record)[0])
    assert live.is_over() and live.people == sorted(keys)
    hidden_from_someone = False
    for seat, received in bodies.items():
        secrets = _secrets(live, seat)
        hidden_from_someone |= bool(secrets)
        for body in received:
            answer = json.loads(body)
            assert answer["seat"] == seat and answer["links"] is None
            assert [p["name"] for p in answer["players"]] == [_name(s) for s in sorted(keys)]
            for other, key in keys.items():  # no other seat's link, in any form
                assert other == seat or key not in body, (seat, other)
            for secret in secrets:
                assert secret not in body, (seat, secret, body[:300])
        assert any(_name(s) in line for s in keys if s != seat for line in answer["events"])
        _check_picture(live, seat, received)
    assert hidden_from_someone, "no secret was ever hidden: the test proves nothing"
