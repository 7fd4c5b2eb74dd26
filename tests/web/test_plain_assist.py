"""The notepad pages without their scripts: the server draws ``/assist/ID`` from the notepad's
payload (what ``GET /api/assist/ID`` answers) and its forms, sent form-encoded (a log as a
multipart upload) as a browser sends them, change the notepad through the JSON endpoints' own
functions, then send the browser back to the page with the change's message (303).  A refused
change is the page again (400) with the message and the typed text kept, and nothing changed;
another site's form is refused (403), another session's notepad is not found (404)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.pages import PAGE, json_at, page_at
from tests.web.test_assist import SETUPS

OTHER_SITE = {**PAGE, "Sec-Fetch-Site": "cross-site"}
"""A form another site's page sent."""


class NotepadPage(HTMLParser):
    """What a notepad page shows, as a browser without scripts reads it: the text of its
    title, status, message, error and entry help; each entry of the history; the value of
    each text box by its name (an entry's box by the entry's number); the commands offered;
    where its forms send; and whether the entry form is hidden."""

    TEXTS = ("title", "status", "message", "error", "entry-help")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: dict[str, str] = {}
        self.entries: list[str] = []
        self.boxes: dict[str, str] = {}
        self.commands: list[str] = []
        self.targets: set[str] = set()
        self.entry_form_hidden = False
        self._reading: str | None = None  # the id of the text being read, or "entry"
        self._number = ""  # the history entry being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        element = found.get("id") or ""
        if element in self.TEXTS:
            self._reading = element
            self.texts[element] = ""
        if tag == "li" and "data-entry" in found:
            self._number = found["data-entry"] or ""
        if tag == "span" and found.get("class") == "entry":
            self._reading = "entry"
            self.entries.append("")
        if tag == "form":
            self.targets.add(found.get("formaction") or found.get("action") or "")
            if element == "entry-form":
                self.entry_form_hidden = "hidden" in found
        if tag == "button" and found.get("formaction"):
            self.targets.add(found["formaction"] or "")
        if tag == "input" and found.get("type") != "hidden" and found.get("name"):
            name = found["name"] or ""
            key = self._number if name == "text" and self._number else name
            self.boxes[key] = found.get("value") or ""
        if tag == "button" and found.get("name") == "command":
            self.commands.append(found.get("value") or "")
        if tag == "label" and found.get("for") == "command-text":
            self._reading = "command-label"
            self.commands.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("p", "small", "pre", "span", "label"):
            self._reading = None
        if tag == "li":
            self._number = ""

    def handle_data(self, data: str) -> None:
        if self._reading == "entry":
            self.entries[-1] += data
        elif self._reading == "command-label":
            self.commands[-1] += data
        elif self._reading is not None:
            self.texts[self._reading] += data


def read_page(html: str) -> NotepadPage:
    page = NotepadPage()
    page.feed(html)
    return page


def payload(client: TestClient, record: str) -> dict[str, Any]:
    return json_at(client, f"/api/assist/{record}")


def shows(client: TestClient, html: str, record: str, message: str = "") -> None:
    """The page ``html`` shows exactly the notepad's payload, with ``message``."""
    notepad = payload(client, record)
    page = read_page(html)
    status = (
        "over: undo, edit or delete to go on"
        if notepad["finished"]
        else f"{len(notepad['entries'])} entries"
    )
    assert page.texts["title"] == notepad["title"]
    assert page.texts["status"] == status
    assert page.texts["message"] == message
    assert page.texts["entry-help"] == notepad["entry_help"]
    assert page.entries == notepad["entries"]
    assert page.entry_form_hidden == notepad["finished"]
    assert f'<div id="rendering" class="rendering">{notepad["html"]}</div>' in html
    hidden = "" if notepad["svg"] else " hidden"  # no picture (yet): no board
    assert f'aria-label="picture"{hidden}>{notepad["svg"]}</div>' in html
    offered = [c["usage"] if c["argument"] else c["names"][0] for c in notepad["commands"]]
    assert page.commands == offered
    for number, text in enumerate(notepad["entries"], start=1):
        assert page.boxes[str(number)] == text  # each entry's box, to edit it
        for change in ("edit", "insert", "delete"):
            assert f"/assist/{record}/entries/{number}/{change}" in page.targets


def post(client: TestClient, url: str, fields: dict[str, str]) -> str:
    """Send a notepad page's form; the page it sends the browser to (303)."""
    answer = client.post(url, data=fields, headers=PAGE, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"])


def follow(client: TestClient, location: str) -> tuple[str, str]:
    """The page at ``location`` (where a form sent the browser) and the message it shows."""
    html = page_at(client, location)
    return html, read_page(html).texts["message"]


def open_by_form(client: TestClient, game: str) -> str:
    """A notepad opened by ``game``'s form on /assist, as its card sends it; its id."""
    options, params, _ = SETUPS[game]
    fields = {"game": game}
    fields |= {f"option:{name}": value for name, value in options.items()}
    fields |= {f"param:{name}": value for name, value in params.items()}
    location = post(client, "/assist", fields)
    assert location.startswith("/assist/")
    return location.removeprefix("/assist/")


@pytest.mark.parametrize("game", list(SETUPS))
def test_each_assistant_by_its_forms(game: str, client: TestClient) -> None:
    record = open_by_form(client, game)
    opened = payload(client, record)
    options, params, entries = SETUPS[game]
    by_api = client.post("/api/assist", json={"game": game, "options": options, "params": params})
    for part in ("options", "params", "entries", "html", "svg"):
        assert opened[part] == by_api.json()[part]  # opened as the JSON API opens it
    html, message = follow(client, f"/assist/{record}")
    shows(client, html, record, message)
    first = len(opened["entries"])  # a Cluedo setup given as settings is entered first
    for text in entries:
        html, message = follow(client, post(client, f"/assist/{record}/entries", {"text": text}))
        assert message.startswith("ok: ")
        shows(client, html, record, message)
    typed = payload(client, record)["entries"]
    assert len(typed) == first + 3

    html, message = follow(client, post(client, f"/assist/{record}/undo", {"count": "2"}))
    assert message == f"took back: {typed[-1]}; {typed[-2]}"
    assert payload(client, record)["entries"] == typed[:-2]
    shows(client, html, record, message)
    post(client, f"/assist/{record}/undo", {})  # one, as the JSON API's undo without a count
    assert payload(client, record)["entries"] == typed[:-3]
    for text in entries:
        post(client, f"/assist/{record}/entries", {"text": text})

    last = len(typed)
    edited = post(client, f"/assist/{record}/entries/{last}/edit", {"text": entries[-1]})
    html, message = follow(client, edited)
    assert message.startswith(f"edited entry {last}: ")
    assert payload(client, record)["entries"] == typed
    shows(client, html, record, message)

    before = payload(client, record)
    refused = client.post(f"/assist/{record}/entries", data={"text": "zzz 999"}, headers=PAGE)
    assert refused.status_code == 400
    page = read_page(refused.text)
    assert page.texts["error"] and page.boxes["text"] == "zzz 999"  # kept, to fix
    assert payload(client, record) == before
    shows(client, refused.text, record)


def test_insert_delete_commands_and_forget_by_form(client: TestClient) -> None:
    record = open_by_form(client, "fox")
    for text in SETUPS["fox"][2]:
        post(client, f"/assist/{record}/entries", {"text": text})
    entries = payload(client, record)["entries"]
    html, message = follow(client, post(client, f"/assist/{record}/entries/2/delete", {}))
    assert message == f"deleted entry 2: {entries[1]}"
    assert payload(client, record)["entries"] == [entries[0], *entries[2:]]
    shows(client, html, record, message)
    inserted = post(client, f"/assist/{record}/entries/2/insert", {"text": entries[1]})
    html, message = follow(client, inserted)
    assert message.startswith("inserted entry 2: ")
    assert payload(client, record)["entries"] == entries
    shows(client, html, record, message)
    html, message = follow(client, post(client, f"/assist/{record}/command", {"command": "hint"}))
    assert message and payload(client, record)["entries"] == entries
    shows(client, html, record, message)

    before = payload(client, record)
    for url, fields, box, status in [
        (f"/assist/{record}/entries/9/edit", {"text": "2"}, "text", 400),
        (f"/assist/{record}/entries/9/delete", {}, "", 400),
        (f"/assist/{record}/undo", {"count": "9"}, "count", 400),
        (f"/assist/{record}/undo", {"count": "two"}, "count", 400),
        (f"/assist/{record}/command", {"command": "fly away"}, "command", 400),
        (f"/assist/{record}/entries", {"text": "2", "extra": "x"}, "text", 400),
    ]:
        refused = client.post(url, data=fields, headers=PAGE)
        assert refused.status_code == status, (url, refused.text)
        page = read_page(refused.text)
        assert page.texts["error"], url
        if box in ("count", "command"):
            assert page.boxes[box] == fields[box]
        assert payload(client, record) == before

    cluedo = open_by_form(client, "cluedo")
    html, message = follow(
        client, post(client, f"/assist/{cluedo}/command", {"command": "why green"})
    )
    assert "green" in message.lower()
    shows(client, html, cluedo, message)

    assert post(client, f"/assist/{record}/forget", {}) == "/assist"
    assert client.get(f"/api/assist/{record}").status_code == 404
    assert f"/assist/{record}" not in client.get("/assist", headers=PAGE).text


def test_a_log_loads_as_an_uploaded_file(client: TestClient) -> None:
    source = open_by_form(client, "fox")
    for text in SETUPS["fox"][2]:
        post(client, f"/assist/{source}/entries", {"text": text})
    saved = client.get(f"/api/assist/{source}/save").content
    target = open_by_form(client, "fox")
    files = {"log": ("notepad.jsonl", saved, "application/x-ndjson")}
    answer = client.post(
        f"/assist/{target}/load", files=files, headers=PAGE, follow_redirects=False
    )
    assert answer.status_code == 303
    html, message = follow(client, answer.headers["location"])
    assert message == "loaded 3 entries"
    assert payload(client, target)["entries"] == payload(client, source)["entries"]
    shows(client, html, target, message)
    before = payload(client, target)
    for log in (b"not a log", b"\xff\xfe"):
        files = {"log": ("bad.jsonl", log, "application/x-ndjson")}
        refused = client.post(f"/assist/{target}/load", files=files, headers=PAGE)
        assert refused.status_code == 400 and read_page(refused.text).texts["error"]
        assert payload(client, target) == before


def test_a_refused_new_notepad_keeps_the_choices_and_opens_nothing(client: TestClient) -> None:
    fields = {"game": "fox", "option:graph": "nonsense:9"}
    refused = client.post("/assist", data=fields, headers=PAGE)
    assert refused.status_code == 400
    assert 'value="nonsense:9"' in refused.text and "graph" in refused.text
    assert "my-notepads" not in refused.text
    unknown = client.post("/assist", data={"game": "chess"}, headers=PAGE)
    assert unknown.status_code == 400 and "chess" in unknown.text
    assert "my-notepads" not in client.get("/assist", headers=PAGE).text


def changing_forms(record: str) -> list[tuple[str, dict[str, str]]]:
    """Every form of notepad ``record``'s page that would change it, with good fields."""
    return [
        (f"/assist/{record}/entries", {"text": "3"}),
        (f"/assist/{record}/entries/1/edit", {"text": "3"}),
        (f"/assist/{record}/entries/1/insert", {"text": "3"}),
        (f"/assist/{record}/entries/1/delete", {}),
        (f"/assist/{record}/undo", {"count": "1"}),
        (f"/assist/{record}/command", {"command": "hint"}),
        (f"/assist/{record}/load", {"log": "x"}),
        (f"/assist/{record}/forget", {}),
    ]


def test_another_sites_forms_are_refused_and_change_nothing(client: TestClient) -> None:
    record = open_by_form(client, "fox")
    post(client, f"/assist/{record}/entries", {"text": "2"})
    before = payload(client, record)
    for url, fields in [("/assist", {"game": "fox"}), *changing_forms(record)]:
        answer = client.post(url, data=fields, headers=OTHER_SITE)
        assert answer.status_code == 403, url
        assert payload(client, record) == before
    assert client.get("/assist", headers=PAGE).text.count('href="/assist/') == 1


def test_another_sessions_notepad_is_not_found(app: FastAPI, client: TestClient) -> None:
    record = open_by_form(client, "fox")
    post(client, f"/assist/{record}/entries", {"text": "2"})
    before = payload(client, record)
    with TestClient(app) as stranger:
        assert stranger.get(f"/assist/{record}", headers=PAGE).status_code == 404
        for url, fields in [
            (f"/assist/{record}/entries", {"text": "zzz"}),
            *changing_forms(record),
        ]:
            answer = stranger.post(url, data=fields, headers=PAGE)
            assert answer.status_code == 404, url
    assert payload(client, record) == before


def test_a_changes_message_is_shown_once_and_not_again_on_reload(client: TestClient) -> None:
    record = open_by_form(client, "fox")
    location = post(client, f"/assist/{record}/entries", {"text": "2"})
    assert location == f"/assist/{record}"  # the message is not in the address
    html, message = follow(client, location)
    assert message.startswith("ok: ")
    shows(client, html, record, message)
    html, message = follow(client, location)  # a reload
    assert message == ""
    shows(client, html, record)
