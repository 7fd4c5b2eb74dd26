"""The game page without its script: the server draws it from the game's view (what ``GET
/api/play/ID`` answers) and its forms, sent form-encoded as a browser sends them, play the
action as ``POST /api/play/ID/action`` plays it, then send the browser back to the page (303).
A refused action is the page again (400) with the message and nothing changed; another site's
form is refused (403), another session's game is not found (404); and the page shows no more
than the view: no hidden information while the game is on."""

from __future__ import annotations

import random
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.web.app import COOKIE
from sleuth.web.live import LiveGame
from tests.web.pages import PAGE, json_at, page_at
from tests.web.settled import SettledClient
from tests.web.test_hidden import _secrets
from tests.web.test_plain_form import unnamed_controls

GAMES = [
    ("fox", "hunter", {"graph": "cycle:5"}, {1: "random"}),
    ("fox", "fox", {}, {0: "random"}),
    ("fugitive", "marshal", {}, {0: "random"}),
    ("fugitive", "fugitive", {}, {1: "random"}),
    ("camel-up", "player", {}, {1: "random"}),
    ("scotland-yard", "detectives", {}, {0: "random"}),
    ("cluedo", "player", {"players": "3", "max_turns": "90"}, {1: "random", 2: "random"}),
]
"""Game, the human's role, options and the bots (random: quick)."""


class GamePage(HTMLParser):
    """What the game page shows, as a browser without scripts reads it: the text of the
    status, players, error, result and each event and log line; the actions its forms can
    send (each button's, in order) and where the forms send them; the picker's steps (the
    links to its next step, ``steps``, and to the one before, ``back``); the typed box's text
    and whether it is hidden."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: dict[str, str] = {}
        self.events: list[str] = []
        self.log: list[str] = []
        self.actions: list[str] = []
        self.steps: list[str] = []
        self.step_texts: list[str] = []
        self.back: str | None = None
        self._step = False  # reading a step's text
        self.targets: set[tuple[str | None, str | None]] = set()
        self.typed = ""
        self.box_hidden = False
        self._open: list[str] = []  # the ids of the elements being read, innermost last
        self._list: str | None = None  # the id of the list whose item is being read
        self._item: str | None = None
        self._choosing = False  # within a list of actions (not another form's list)
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        element = found.get("id")
        if element in ("status", "players", "error", "result"):
            self._open.append(element)
            self.texts[element] = ""
        if element in ("events", "log"):
            self._list = element
        if tag == "li" and self._list is not None:
            self._item = ""
        if tag == "form":
            self.targets.add((found.get("action"), found.get("method")))
            if element == "action-form":
                self.box_hidden = "hidden" in found
        if tag == "button" and found.get("name") == "action":
            self.actions.append(found.get("value") or "")
        if tag == "a" and found.get("data-pick") is not None:
            if "back" in (found.get("class") or "").split():
                self.back = found.get("href")
            else:
                self.steps.append(found.get("href") or "")
                self.step_texts.append("")
                self._step = True
        if element == "action-text":
            self.typed = found.get("value") or ""
        if self._open and tag not in ("input", "br"):
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._step = False
        if tag == "li" and self._list is not None and self._item is not None:
            getattr(self, self._list).append(self._item)
            self._item = None
        elif tag == "ol":
            self._list = None
        if self._open:
            self._depth -= 1
            if self._depth == 0:
                self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._step:
            self.step_texts[-1] += data
        if self._item is not None:
            self._item += data
        if self._open:
            self.texts[self._open[-1]] += data


def read_page(html: str) -> GamePage:
    page = GamePage()
    page.feed(html)
    return page


def start(client: TestClient, game: str, role: str, options: dict[str, str],
          bots: dict[int, str], seed: int = 5) -> dict[str, Any]:  # fmt: skip
    """A game started through the API: its view."""
    answer = client.post(
        "/api/play",
        json={"game": game, "role": role, "options": options, "bots": bots, "seed": seed},
    )
    assert answer.status_code == 201, answer.text
    view: dict[str, Any] = answer.json()
    return view


def view_of(client: TestClient, record: str) -> dict[str, Any]:
    return json_at(client, f"/api/play/{record}")


def page_of(client: TestClient, record: str) -> str:
    return page_at(client, f"/play/{record}")


def send(client: TestClient, record: str, fields: Any, **headers: str) -> Any:
    """The game page's form sent as a browser sends it (``fields``: a dict, or form-encoded
    text)."""
    sending: dict[str, Any] = {"headers": {**PAGE, **headers}, "follow_redirects": False}
    if isinstance(fields, str):
        sending["content"] = fields
        sending["headers"]["Content-Type"] = "application/x-www-form-urlencoded"
    else:
        sending["data"] = fields
    return client.post(f"/play/{record}/action", **sending)


def shows_the_view(html: str, view: dict[str, Any]) -> GamePage:
    """Check that the page shows the view (and only what it has), part by part."""
    page = read_page(html)
    choices = view["pick"]["choices"]
    assert page.actions == [c["action"] for c in choices if c["action"] is not None]
    steps = [f"/play/{view['id']}?pick={c['id']}" for c in choices if c["action"] is None]
    assert page.steps == steps and page.back is None
    if len(view["legal"]) == view["legal_count"] and not steps:  # every action is a button
        assert page.actions == view["legal"]
    assert page.targets <= {
        (f"/play/{view['id']}/{to}", "post") for to in ("action", "bot", "reclaim", "name")
    }
    assert page.events == view["events"]
    assert view["svg"] in html  # as the API gives it, unescaped: it is the board's markup
    players = " · ".join(f"seat {p['seat']} {p['role']}: {p['player']}" for p in view["players"])
    assert page.texts["players"] == players
    if view["over"]:
        status = "game over"
    elif view["your_turn"]:
        status = f"you are the {view['role']}: your move"
    else:
        status = f"{view['to_move']} to move"
    assert page.texts["status"] == status
    assert page.box_hidden == (not view["your_turn"])
    if view["over"]:
        assert view["result"]["text"] in page.texts["result"]
        for forfeit in view["forfeits"]:
            assert f"seat {forfeit['seat']} ({forfeit['bot']}) forfeited: " in page.texts["result"]
        assert page.log == [
            f"{step['by']}: {step['action']}"
            + (f" ({'; '.join(step['events'])})" if step["events"] else "")
            for step in view["log"]
        ]
    else:
        assert page.texts["result"].strip() == "" and page.log == []
    return page


@pytest.mark.parametrize(("game", "role", "options", "bots"), GAMES)
def test_the_page_shows_the_view_the_api_gives(
    client: TestClient, game: str, role: str, options: dict[str, str], bots: dict[int, str]
) -> None:
    view = start(client, game, role, options, bots)
    page = shows_the_view(page_of(client, view["id"]), view)
    assert page.actions or page.steps, "the human is to move but the page offers nothing"
    assert page.texts["error"] == ""
    if game == "cluedo":  # every accusation: a step to the suspects, then weapons and rooms
        assert page.actions == ["roll"] and page.texts["players"]
        assert [step.split("=")[1] for step in page.steps] == [str(accuse(view))]


def accuse(view: dict[str, Any]) -> int:
    """The picker's id of the step ``accuse`` in ``view``."""
    return next(c["id"] for c in view["pick"]["choices"] if c["text"] == "accuse")


def choose(client: TestClient, record: str, rng: random.Random, avoid: str = "") -> str:
    """An action chosen at random on the page without scripts, following the picker's step
    links (each a page: GET /play/ID?pick=...) until a button plays one; steps whose text
    starts with ``avoid`` are taken only when nothing else is offered."""
    html = page_of(client, record)
    while True:
        page = read_page(html)
        offered = [("action", a) for a in page.actions if not (avoid and a.startswith(avoid))]
        offered += [
            ("step", s)
            for s, text in zip(page.steps, page.step_texts, strict=True)
            if not (avoid and text.strip().startswith(avoid))
        ]
        if avoid and not offered:
            offered = [("action", a) for a in page.actions] + [("step", s) for s in page.steps]
        kind, chosen = rng.choice(offered)
        if kind == "action":
            return chosen
        html = page_at(client, chosen)
        assert read_page(html).back is not None  # a way back to the step before


def test_a_combinatorial_action_is_built_by_links_and_the_way_back_is_offered(
    client: TestClient,
) -> None:
    """A Cluedo accusation without scripts: accuse, a suspect, a weapon, then a room's button
    plays it; each step links back to the one before; a prefix that is not a path of the
    picker is the page again (400) naming the id, with the picker at its start."""
    view = start(client, "cluedo", "player", {"players": "3"}, {1: "random", 2: "random"})
    record, top = view["id"], f"/play/{view['id']}"
    step = read_page(page_of(client, record)).steps[0]
    suspects = read_page(page_at(client, step))
    assert suspects.actions == [] and len(suspects.steps) == 6 and suspects.back == top
    weapons = read_page(page_at(client, suspects.steps[0]))
    assert weapons.back == step and len(weapons.steps) == 6
    rooms = read_page(page_at(client, weapons.steps[0]))
    assert rooms.steps == [] and len(rooms.actions) == 9
    assert all(a.startswith("accuse ") for a in rooms.actions)
    assert set(rooms.actions) <= set(view["legal"])  # every accusation is listed (325)
    for bad, message in [("x", "'x' is not an action id"), ("9999", "id 9999 cannot follow")]:
        refused = client.get(f"{top}?pick={bad}", headers=PAGE)
        assert refused.status_code == 400
        shown = read_page(refused.text)
        assert message in shown.texts["error"] and shown.actions == ["roll"]


@pytest.mark.parametrize(("game", "role", "options", "bots"), GAMES[:3])
def test_playing_by_form_goes_as_the_api_goes(
    client: TestClient, game: str, role: str, options: dict[str, str], bots: dict[int, str]
) -> None:
    """The same game played by the page's forms and by the API, action for action: the same
    views, to the end, whose page shows the result."""
    by_form = start(client, game, role, options, bots)["id"]
    by_api = start(client, game, role, options, bots)["id"]
    rng = random.Random(3)
    view = view_of(client, by_form)
    while not view["over"]:
        action = choose(client, by_form, rng)
        sent = send(client, by_form, {"action": action})
        assert sent.status_code == 303, sent.text
        assert sent.headers["location"] == f"/play/{by_form}"
        played = client.post(f"/api/play/{by_api}/action", json={"action": action})
        assert played.status_code == 200, played.text
        view = view_of(client, by_form)
        assert {**view, "id": by_api} == played.json()
    finished = page_of(client, by_form)
    page = shows_the_view(finished, view)
    assert page.actions == [] and "Result" in page.texts["result"]
    assert '<section id="moves" hidden>' in finished  # no "Your move" over a finished game
    over = send(client, by_form, {"action": "anything"})
    assert over.status_code == 400 and "the game is over" in read_page(over.text).texts["error"]


BAD_ACTIONS = [
    ({"action": "bogus 99"}, "'bogus 99' is not a fox action"),
    ({"action": "inspect 99"}, "inspect 99: holes are numbered 0..4"),
    ({"action": " "}, "is not a fox action"),
    ({"action": "x" * 2001}, "action: String should have at most 2000 characters"),
    ({}, "no action is given"),
    ("action=inspect+1&action=inspect+2", "action is given 2 times"),
    ({"action": "inspect 1", "colour": "red"}, "the form has no field 'colour'"),
]
"""A form's fields and the message the page shows for them."""


@pytest.mark.parametrize(("fields", "message"), BAD_ACTIONS)
def test_a_bad_action_is_the_page_again_naming_it_and_nothing_changes(
    client: TestClient, fields: Any, message: str
) -> None:
    view = start(client, "fox", "hunter", {"graph": "cycle:5"}, {1: "random"})
    sent = send(client, view["id"], fields)
    assert sent.status_code == 400, sent.text
    assert sent.headers["content-type"].startswith("text/html")
    page = shows_the_view(sent.text, view)
    assert message in page.texts["error"], page.texts["error"]
    if isinstance(fields, dict) and "colour" not in fields:
        assert page.typed == fields.get("action", "")  # the action as sent, to be corrected
    assert view_of(client, view["id"]) == view


def test_a_file_in_place_of_an_action_is_refused(client: TestClient) -> None:
    view = start(client, "fox", "hunter", {}, {1: "random"})
    sent = client.post(
        f"/play/{view['id']}/action",
        files={"action": ("action.txt", b"inspect 1", "text/plain")},
        headers=PAGE,
        follow_redirects=False,
    )
    assert sent.status_code == 400
    assert read_page(sent.text).texts["error"] == "action is a file, not a text"
    assert view_of(client, view["id"]) == view


@pytest.mark.parametrize("source", ["cross-site", "same-site"])
def test_an_action_another_site_sends_is_refused(client: TestClient, source: str) -> None:
    view = start(client, "fox", "hunter", {}, {1: "random"})
    sent = send(client, view["id"], {"action": view["legal"][0]}, **{"Sec-Fetch-Site": source})
    assert sent.status_code == 403, sent.text
    assert sent.headers["content-type"].startswith("text/html")
    assert f"played from this site's own game page, not a {source} one" in unescape(sent.text)
    assert view_of(client, view["id"]) == view
    own = send(
        client, view["id"], {"action": view["legal"][0]}, **{"Sec-Fetch-Site": "same-origin"}
    )
    assert own.status_code == 303, own.text


def test_another_session_can_neither_see_nor_play_a_game(app: FastAPI, client: TestClient) -> None:
    view = start(client, "fox", "hunter", {}, {1: "random"})
    with SettledClient(app) as stranger:
        seen = stranger.get(f"/play/{view['id']}", headers=PAGE)
        assert seen.status_code == 404
        for fields in ({"action": view["legal"][0]}, {"action": "bogus"}, {}):
            sent = send(stranger, view["id"], fields)
            assert sent.status_code == 404, sent.text
            assert "set-cookie" not in sent.headers
            assert view["legal"][0] not in sent.text
    assert view_of(client, view["id"]) == view


HIDING = [
    ("fox", "hunter", {"graph": "cycle:5"}, {1: "random"}),
    ("fugitive", "marshal", {}, {0: "random"}),
    ("cluedo", "player", {"players": "3", "max_turns": "90"}, {1: "random", 2: "random"}),
]
"""Games whose other seats have secrets from the human's."""


@pytest.mark.parametrize(("game", "role", "options", "bots"), HIDING)
def test_the_page_shows_no_hidden_information_while_the_game_is_on(
    app: FastAPI,
    client: TestClient,
    game: str,
    role: str,
    options: dict[str, str],
    bots: dict[int, str],
) -> None:
    """Played to its end by forms, a random action each time (no Cluedo accusation while
    another is open): no page drawn while the game was on holds the description of an event
    whose secret the human may not see; the final page's log holds some."""
    found_any = False
    for seed in range(2):
        view = start(client, game, role, options, bots, seed=seed)
        record, rng, pages = view["id"], random.Random(seed), []
        while not view["over"]:
            html = page_of(client, record)
            pages.append(html)
            shows_the_view(html, view)
            action = choose(client, record, rng, avoid="accuse")
            assert send(client, record, {"action": action}).status_code == 303
            view = view_of(client, record)
        live = LiveGame(app.state.store.get(client.cookies[COOKIE], "game", record))
        secrets = _secrets(live, live.seat)
        for html in pages:
            text = unescape(html)
            for secret in secrets:
                assert secret not in text, secret
            if game == "fox":  # the picture does not show the fox's hole
                assert not re.search(r'class="hole[^"]*\bfox\b', html)
        final = unescape(page_of(client, record))
        found_any |= any(secret in final for secret in secrets)
    assert found_any, "no secret was ever hidden: the test proves nothing"


def test_every_control_of_the_game_page_is_labelled(client: TestClient) -> None:
    game = client.post("/api/play", json={"game": "cluedo", "seed": 3}).json()
    page = client.get(f"/play/{game['id']}", headers=PAGE)
    assert page.status_code == 200
    assert unnamed_controls(page.text) == []
