"""The new-game form without its script: the page's form, sent form-encoded as a browser
sends it (every field, the options at their defaults included), starts the game ``POST
/api/play`` starts from the same choices and sends the browser to its page (303); a bad form
is the form again (400) with the choices as sent and the message naming the field at fault,
and nothing is stored."""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.registry import game_specs
from sleuth.web.live import ChoiceError, new_log
from tests.web.pages import PAGE, json_at, page_at

GAME_PAGE = re.compile(r"/play/([A-Za-z0-9_-]+)")


class FormFields(HTMLParser):
    """The fields of the page's ``#new-game`` form as a browser sends them untouched: each
    input's value, each select's selected (else first) option, each textarea's text; and the
    names of the fields marked ``aria-invalid``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: dict[str, str] = {}
        self.invalid: list[str] = []
        self.action: tuple[str | None, str | None] | None = None
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("id") == "new-game":
            self._in_form = True
            self.action = (found.get("action"), found.get("method"))
        if not self._in_form:
            return
        name = found.get("name")
        if name is not None and found.get("aria-invalid") == "true":
            self.invalid.append(name)
        if tag == "input" and name is not None:
            self.fields[name] = found.get("value") or ""
        elif tag == "select" and name is not None:
            self._select = name
        elif tag == "option" and self._select is not None:
            if self._select not in self.fields or "selected" in found:
                self.fields[self._select] = found.get("value") or ""
        elif tag == "textarea" and name is not None:
            self._textarea = name
            self.fields[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.fields[self._textarea] += data


def read_form(html: str) -> FormFields:
    form = FormFields()
    form.feed(html)
    return form


def the_form(client: TestClient, game: str) -> dict[str, str]:
    """The fields the new-game page of ``game`` sends when nothing is changed."""
    return read_form(page_at(client, f"/play/new?game={game}")).fields


def send(client: TestClient, fields: dict[str, str]) -> Any:
    return client.post("/play/new", data=fields, headers=PAGE, follow_redirects=False)


def shown_error(html: str) -> str:
    """The text of the page's ``#error`` paragraph."""
    found = re.search(r'<p class="error" id="error" role="alert">(.*?)</p>', html, re.S)
    assert found is not None, html
    return unescape(found.group(1))


def stored(store: Path) -> tuple[int, int]:
    """The store's (sessions, records) counts."""
    with sqlite3.connect(store) as db:
        sessions = db.execute("SELECT count(*) FROM sessions").fetchone()[0]
        records = db.execute("SELECT count(*) FROM records").fetchone()[0]
    return sessions, records


def game_seen(client: TestClient, record: str) -> dict[str, Any]:
    """The game as ``GET /api/play/ID`` answers, without its id."""
    game = json_at(client, f"/api/play/{record}")
    return {key: value for key, value in game.items() if key != "id"}


def test_the_form_posts_to_the_server_by_itself(client: TestClient) -> None:
    page = client.get("/play/new?game=fox", headers=PAGE)
    form = read_form(page.text)
    assert form.action == ("/play/new", "post")
    assert form.fields["game"] == "fox"


def test_a_form_sent_as_is_starts_the_game_the_api_starts_for_every_game_and_role(
    client: TestClient,
) -> None:
    """The options at their defaults, as the form sends them, are the game's defaults: the
    one-detective role of Scotland Yard gets its seat per detective, as through the API."""
    for spec in game_specs():
        fields = the_form(client, spec.name)
        roles = list(dict.fromkeys([*spec.make({}).roles, *spec.roles]))
        for role in roles:
            sent = send(client, {**fields, "role": role, "seed": "11"})
            assert sent.status_code == 303, (spec.name, role, sent.text)
            found = GAME_PAGE.fullmatch(sent.headers["location"])
            assert found is not None, sent.headers["location"]
            api = client.post("/api/play", json={"game": spec.name, "role": role, "seed": 11})
            assert api.status_code == 201, api.text
            assert game_seen(client, found.group(1)) == game_seen(client, api.json()["id"])
            assert client.get(sent.headers["location"], headers=PAGE).status_code == 200


def test_the_forms_choices_make_the_game(client: TestClient, store: Path) -> None:
    fields = the_form(client, "fox")
    sent = send(
        client,
        {**fields, "role": "hunter", "bots": "\r\n 1 = ismcts:iterations=200 \r\n\r\n",
         "option:graph": "cycle:5", "option:days": "3", "seed": "4"},
    )  # fmt: skip
    assert sent.status_code == 303, sent.text
    assert "sleuth_session=" in sent.headers["set-cookie"]
    record = GAME_PAGE.fullmatch(sent.headers["location"])
    assert record is not None
    seen = game_seen(client, record.group(1))
    assert [p["player"] for p in seen["players"]] == ["you", "ismcts:iterations=200"]
    assert seen["options"]["graph"] == "cycle:5" and seen["options"]["days"] == 3
    api = client.post(
        "/api/play",
        json={"game": "fox", "role": "hunter", "bots": {"1": "ismcts:iterations=200"},
              "options": {"graph": "cycle:5", "days": "3"}, "seed": 4},
    )  # fmt: skip
    assert seen == game_seen(client, api.json()["id"])
    assert stored(store) == (1, 2)


def test_a_seat_chooses_among_the_seats_of_a_role(client: TestClient) -> None:
    fields = the_form(client, "camel-up")
    sent = send(client, {**fields, "seat": "2", "seed": "1"})
    assert sent.status_code == 303, sent.text
    record = GAME_PAGE.fullmatch(sent.headers["location"])
    assert record is not None
    assert game_seen(client, record.group(1))["seat"] == 2


BAD_FORMS = [
    ("fox", {"bots": "1=no-such-bot"}, "bots", "unknown bot 'no-such-bot' for fox"),
    ("fox", {"bots": "1=ismcts:iterations=9000"}, "bots",
     "option iterations=9000 of bot 'ismcts' of fox: at most 5,000 when a person waits"),
    ("fox", {"bots": "1=ismcts:epsilon=2"}, "bots", "must be at most 1"),
    ("cluedo", {"bots": "1=velma:sampler=exact"}, "bots", "the web app allows at most 60 s"),
    ("fox", {"bots": "1=solver"}, "bots", "bot 'solver' cannot play the fox (seat 1)"),
    ("fox", {"bots": "0=quantum"}, "bots", "bot for seat 0: not a bot's seat (yours is 0)"),
    ("fox", {"bots": "ismcts"}, "bots", "bot line 'ismcts': write seat=bot"),
    ("fox", {"bots": "1= "}, "bots", "bot for seat 1: no bot named (leave the seat out)"),
    ("fox", {"bots": "one=ismcts"}, "bots", "bot line 'one=ismcts': the seat is not a number"),
    ("fox", {"bots": "1=quantum\n1=random"}, "bots", "seat 1 has a bot already"),
    ("fox", {"bots": "\n".join(f"{s}=random" for s in range(2, 23))}, "bots",
     "at most 20 items"),
    ("fox", {"seat": "7"}, "seat", "seat 7 does not exist: fox has seats 0 to 1"),
    ("fox", {"seat": "-1"}, "seat", "seat -1 does not exist"),
    ("fox", {"seat": "1.5"}, "seat", "seat '1.5' is not a whole number"),
    ("fox", {"seed": "abc"}, "seed", "seed 'abc' is not a whole number"),
    ("fox", {"seed": str(2**63)}, "seed", f"seed {2**63} does not fit in 64 bits"),
    ("fox", {"role": "mrx"}, "role", "no role 'mrx' in this fox game; its roles: hunter, fox"),
    ("fox", {"option:graph": "no-such-graph"}, "option:graph", "option graph='no-such-graph'"),
    ("fox", {"option:k": "0"}, "option:k", "k"),
    ("scotland-yard", {"option:map": "/etc"}, "option:map", "the web app reads no files"),
    ("fox", {"option:colour": "red"}, "option:colour", "unknown option 'colour' for fox"),
    ("cluedo", {"option:players": "4", "option:suspects": "scarlet,mustard,white"}, "options",
     "suspects: 3 named for 4 players: name one per seat, or set players=3"),
]  # fmt: skip
"""Game, the fields changed from the form as sent, the field at fault, part of the message."""


@pytest.mark.parametrize(("game", "changed", "field", "message"), BAD_FORMS)
def test_a_bad_form_is_the_form_again_naming_the_field_and_nothing_is_stored(
    client: TestClient, store: Path, game: str, changed: dict[str, str], field: str, message: str
) -> None:
    form = the_form(client, game)
    fields = {**form, "seed": "3", **changed}
    sent = send(client, fields)
    assert sent.status_code == 400, sent.text
    assert sent.headers["content-type"].startswith("text/html")
    assert "set-cookie" not in sent.headers
    error = shown_error(sent.text)
    assert error.startswith(f"{field.replace(':', ' ')}: ") and message in error, error
    again = read_form(sent.text)
    kept = {name: text for name, text in fields.items() if name in form}
    if field == "role":  # a role the game lacks cannot be chosen in the form's list
        kept["role"] = form["role"]
    assert again.fields == kept  # the choices stay, to be corrected
    if field == "options":
        assert again.invalid == [name for name in form if name.startswith("option:")]
    else:
        assert again.invalid == ([field] if field in form else [])
    assert stored(store) == (0, 0)


@pytest.mark.parametrize(
    ("game", "changed", "api"),
    [
        ("fox", {"bots": "1=no-such-bot"}, {"bots": {"1": "no-such-bot"}}),
        ("fox", {"bots": "1=ismcts:iterations=9000"}, {"bots": {"1": "ismcts:iterations=9000"}}),
        ("fox", {"seat": "7"}, {"seat": 7}),
        ("fox", {"role": "mrx"}, {"role": "mrx"}),
        ("fox", {"option:graph": "no-such-graph"}, {"options": {"graph": "no-such-graph"}}),
    ],
)  # fmt: skip
def test_the_form_and_the_api_refuse_a_choice_with_one_message(
    client: TestClient, store: Path, game: str, changed: dict[str, str], api: dict[str, Any]
) -> None:
    """The page's message is the API's, after the name of the field at fault."""
    form = the_form(client, game)
    sent = send(client, {**form, **changed})
    refused = client.post("/api/play", json={"game": game, "role": form["role"], **api})
    assert sent.status_code == refused.status_code == 400, (sent.text, refused.text)
    field, message = shown_error(sent.text).split(": ", 1)
    assert message == refused.json()["error"]
    assert field in ("bots", "seat", "role", "option graph")
    assert refused.json()["field"] == next(iter(changed))  # the form's name for the field
    assert stored(store) == (0, 0)


def test_the_api_names_the_one_field_at_fault(client: TestClient) -> None:
    """``field`` names the request's field at fault as the form names it, when one is."""
    unknown = client.post("/api/play", json={"game": "no-such-game", "role": "hunter"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "game"
    malformed = client.post("/api/play", json={"game": "fox", "seat": "abc"})
    assert malformed.status_code == 422 and malformed.json()["field"] == "seat"
    both = client.post("/api/play", json={"game": "fox", "seat": "abc", "seed": "x"})
    assert both.status_code == 422 and "field" not in both.json(), both.json()
    missing = client.post("/api/play/no-such-record/action", json={"action": "inspect 1"})
    assert missing.status_code == 404 and "field" not in missing.json(), missing.json()


def test_a_form_for_no_known_game_is_an_error_page_naming_it(
    client: TestClient, store: Path
) -> None:
    for fields, message in [
        ({"game": "no-such-game", "role": "hunter"}, "unknown game 'no-such-game'"),
        ({"role": "hunter"}, "no game is chosen"),
        ({"game": " "}, "no game is chosen"),
    ]:
        sent = send(client, fields)
        assert sent.status_code == 400, sent.text
        assert sent.headers["content-type"].startswith("text/html")
        assert message in unescape(sent.text), sent.text
        assert 'id="new-game"' not in sent.text
    assert stored(store) == (0, 0)


def test_a_field_the_form_does_not_have_or_sends_twice_is_refused(
    client: TestClient, store: Path
) -> None:
    fields = the_form(client, "fox")
    sent = send(client, {**fields, "colour": "red"})
    assert sent.status_code == 400
    assert shown_error(sent.text) == "colour: the form has no field 'colour'"
    twice = client.post(
        "/play/new",
        content="game=fox&seat=0&seat=1",
        headers={**PAGE, "Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert twice.status_code == 400
    assert shown_error(twice.text) == "seat: seat is given 2 times"
    assert stored(store) == (0, 0)


def test_a_file_in_place_of_a_text_is_refused(client: TestClient, store: Path) -> None:
    sent = client.post(
        "/play/new",
        data={"game": "fox"},
        files={"bots": ("bots.txt", b"1=quantum", "text/plain")},
        headers=PAGE,
        follow_redirects=False,
    )
    assert sent.status_code == 400
    assert shown_error(sent.text) == "bots: bots is a file, not a text"
    assert stored(store) == (0, 0)


def test_the_refused_page_shows_the_choices_as_sent_when_they_are_markup(
    client: TestClient,
) -> None:
    """What was typed comes back as text: a bot line that is markup is escaped."""
    fields = {**the_form(client, "fox"), "bots": '1=<script>alert("x")</script>'}
    sent = send(client, fields)
    assert sent.status_code == 400
    assert "<script>alert" not in sent.text
    assert read_form(sent.text).fields["bots"] == fields["bots"]


@pytest.mark.parametrize(
    ("choice", "field"),
    [
        ({"name": "no-such-game"}, "game"),
        ({"options": {"k": "0"}}, "option:k"),
        ({"options": {"k": "x" * 501}}, "option:k"),
        ({"bots": {1: "x" * 501}}, "bots"),
        ({"role": "mrx"}, "role"),
        ({"seat": 2}, "seat"),
        ({"bots": {1: "no-such-bot"}}, "bots"),
        ({"seed": -(2**63) - 1}, "seed"),
    ],
)
def test_new_log_names_the_field_at_fault(choice: dict[str, Any], field: str) -> None:
    arguments: dict[str, Any] = {
        "name": "fox", "options": {}, "seat": None, "role": None, "bots": {}, "seed": 1,
        **choice,
    }  # fmt: skip
    with pytest.raises(ChoiceError) as refused:
        new_log(**arguments)
    assert refused.value.field == field


@pytest.mark.parametrize("source", ["cross-site", "same-site"])
def test_a_form_another_site_sends_is_refused_and_keeps_the_session(
    client: TestClient, store: Path, source: str
) -> None:
    """Another site's page cannot start a game in this browser, nor, by the fresh session's
    cookie the answer would set, replace the person's session (their cookie is not sent with
    a cross-site form: SameSite=Lax)."""
    fields = {**the_form(client, "fox"), "seed": "3"}
    sent = client.post(
        "/play/new", data=fields, headers={**PAGE, "Sec-Fetch-Site": source},
        follow_redirects=False,
    )  # fmt: skip
    assert sent.status_code == 403, sent.text
    assert sent.headers["content-type"].startswith("text/html")
    assert f"not a {source} one" in unescape(sent.text)
    assert "set-cookie" not in sent.headers
    assert stored(store) == (0, 0)
    own = client.post(
        "/play/new", data=fields, headers={**PAGE, "Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )  # fmt: skip
    assert own.status_code == 303, own.text
    assert stored(store) == (1, 1)


class UnnamedControls(HTMLParser):
    """The visible form controls of a page that have no accessible name: neither inside a
    ``<label>``, nor named by a ``<label for>``, ``aria-label`` or ``aria-labelledby``; each
    as its ``name`` (or ``id``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._labels_open = 0
        self._labelled_ids: set[str] = set()
        self._outside_labels: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "label":
            self._labels_open += 1
            if attributes.get("for"):
                self._labelled_ids.add(str(attributes["for"]))
        elif tag in ("input", "select", "textarea"):
            if attributes.get("type") in ("hidden", "submit", "button"):
                return
            if self._labels_open or "aria-label" in attributes or "aria-labelledby" in attributes:
                return
            self._outside_labels.append(attributes)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._labels_open -= 1

    def unnamed(self) -> list[str]:
        return [
            str(control.get("name") or control.get("id"))
            for control in self._outside_labels
            if control.get("id") not in self._labelled_ids
        ]


def unnamed_controls(page: str) -> list[str]:
    """The form controls of ``page`` without an accessible name (see :class:`UnnamedControls`)."""
    parser = UnnamedControls()
    parser.feed(page)
    return parser.unnamed()


def test_every_field_of_the_new_game_form_is_labelled(client: TestClient) -> None:
    for spec in game_specs():
        page = client.get(f"/play/new?game={spec.name}", headers=PAGE)
        assert page.status_code == 200
        assert unnamed_controls(page.text) == [], spec.name
