"""The assistants in the browser: each one through the API (entries, undo, edit, delete, insert,
commands, save and load, a restart), compared with the same session driven directly."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.errors import SleuthError
from sleuth.core.registry import game_spec
from sleuth.games.fox.hunt import FoxSession
from sleuth.games.fox.rules import FoxGame
from sleuth.web.app import create_app
from sleuth.web.assist import rendered_html
from tests.web.test_plain_form import unnamed_controls

SETUPS: dict[str, tuple[dict[str, str], dict[str, str], list[str]]] = {
    "fox": ({"graph": "path:5"}, {}, ["2", "inspect 3", "3"]),
    "fugitive": ({}, {}, ["hideout 1", "hideout 2", "draw 2 17"]),
    "camel-up": (
        {},
        {"rollouts": "500"},
        ["start 1:blue 2:green,orange 3:yellow,white", "roll blue 2", "leg blue"],
    ),
    "scotland-yard": ({}, {"starts": "9,10,15,17,19"}, ["x taxi", "d1 taxi 8", "d2 taxi 11"]),
    "cluedo": (
        {},
        {"players": "Ann, Bob, Cy, Dan", "me": "Ann", "hand": "Plum, Knife, Hall, Rope, Study"},
        ["Bob suggests Green Rope Study", "Cy passes", "Dan shows"],
    ),
}
"""Per game: options, settings and three entries that follow them."""


def new(client: TestClient, game: str) -> dict[str, Any]:
    options, params, _ = SETUPS[game]
    answer = client.post("/api/assist", json={"game": game, "options": options, "params": params})
    assert answer.status_code == 201, answer.text
    notepad: dict[str, Any] = answer.json()
    return notepad


def enter(client: TestClient, notepad: dict[str, Any], text: str) -> dict[str, Any]:
    answer = client.post(f"/api/assist/{notepad['id']}/entries", json={"text": text})
    assert answer.status_code == 200, answer.text
    out: dict[str, Any] = answer.json()
    return out


def same(client: TestClient, notepad: dict[str, Any]) -> None:
    """The stored notepad is ``notepad`` (what the last successful change answered)."""
    now = client.get(f"/api/assist/{notepad['id']}").json()
    assert {**now, "message": ""} == {**notepad, "message": ""}


@pytest.mark.parametrize("game", list(SETUPS))
def test_each_assistant_through_the_api(game: str, store: Path, client: TestClient) -> None:
    notepad = new(client, game)
    first = len(notepad["entries"])  # a Cluedo setup given as settings is entered first
    for text in SETUPS[game][2]:
        notepad = enter(client, notepad, text)
        assert notepad["message"].startswith("ok: ")
    assert len(notepad["entries"]) == first + 3 and notepad["svg"].startswith("<svg")
    after_two = client.post(f"/api/assist/{notepad['id']}/undo", json={"count": 1}).json()
    assert after_two["entries"] == notepad["entries"][:-1]
    assert after_two["message"] == f"took back: {notepad['entries'][-1]}"
    again = enter(client, after_two, SETUPS[game][2][-1])
    assert again["html"] == notepad["html"] and again["svg"] == notepad["svg"]
    # the same session driven directly renders the same text
    options, params, entries = SETUPS[game]
    assert again["html"] == rendered_html(_direct(game, options, params, entries))
    # a restart: a new app on the same store rebuilds the notepad from its record
    cookies = dict(client.cookies)
    with TestClient(create_app(store), cookies=cookies) as restarted:
        rebuilt = restarted.get(f"/api/assist/{notepad['id']}").json()
    assert {**rebuilt, "message": ""} == {**again, "message": ""}


def _direct(game: str, options: dict[str, str], params: dict[str, str], entries: list[str]) -> Any:
    from sleuth.web.assist_session import assistant, param_value

    helper = assistant(game)
    values = {p.name: param_value(p, params.get(p.name, "")) for p in helper.params}
    session = helper.make(game_spec(game).make(options, canonical=True), values)
    for text in entries:
        session.enter(text)
    return session


def test_edit_delete_and_insert_replay_the_later_entries(client: TestClient) -> None:
    notepad = new(client, "fox")
    for text in ["1", "2", "3"]:
        notepad = enter(client, notepad, text)
    url = f"/api/assist/{notepad['id']}/entries"
    edited = client.put(f"{url}/2", json={"text": "4"}).json()
    assert edited["entries"] == ["inspect 1", "inspect 4", "inspect 3"]
    assert edited["message"] == "edited entry 2: inspect 2 -> inspect 4"
    deleted = client.delete(f"{url}/1").json()
    assert deleted["entries"] == ["inspect 4", "inspect 3"]
    inserted = client.post(f"{url}/1", json={"text": "0"}).json()
    assert inserted["entries"] == ["inspect 0", "inspect 4", "inspect 3"]
    appended = client.post(f"{url}/4", json={"text": "1"}).json()
    assert appended["entries"] == ["inspect 0", "inspect 4", "inspect 3", "inspect 1"]
    assert appended["html"] == rendered_html(_direct("fox", {}, {}, ["0", "4", "3", "1"]))


def test_an_edit_that_breaks_a_later_entry_changes_nothing(client: TestClient) -> None:
    notepad = new(client, "scotland-yard")
    notepad = enter(client, notepad, "x taxi")
    notepad = enter(client, notepad, "d1 taxi 8")
    url = f"/api/assist/{notepad['id']}/entries"
    # entry 1 is the detectives' start (a setting): without it no later entry is possible
    answer = client.delete(f"{url}/1")
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("nothing changed: entry 1 (x taxi):")
    same(client, notepad)
    # an edit whose replay fails half-way: the live session is put back and goes on as before
    answer = client.put(f"{url}/2", json={"text": "x bus"})  # Mr. X still has bus tickets
    assert answer.status_code == 200, answer.text
    # d1 starting at 10 instead: entries 1 and 2 are entered again, then entry 3 is refused
    answer = client.put(f"{url}/1", json={"text": "start 10,9,15,17,19"})
    assert answer.status_code == 400 and "entry 3 (d1 taxi 8)" in answer.json()["error"]
    before = client.get(f"/api/assist/{notepad['id']}").json()
    assert before["entries"][1:] == ["x bus", "d1 taxi 8"]
    later = enter(client, before, "d2 taxi 11")
    options, params, _ = SETUPS["scotland-yard"]
    direct = _direct("scotland-yard", options, params, ["x bus", "d1 taxi 8", "d2 taxi 11"])
    assert later["html"] == rendered_html(direct)


def test_bad_input_is_a_4xx_with_the_assistants_message_and_changes_nothing(
    client: TestClient,
) -> None:
    notepad = enter(client, new(client, "fox"), "2")
    rid = notepad["id"]
    cases = [
        ("post", f"/api/assist/{rid}/entries", {"text": "7"}, 400, "hole 7 is not on the board"),
        ("post", f"/api/assist/{rid}/entries", {"text": "two"}, 400, "cannot read 'two'"),
        ("post", f"/api/assist/{rid}/entries", {"text": ""}, 422, "text"),
        ("post", f"/api/assist/{rid}/entries", {"txt": "1"}, 422, "txt"),
        ("put", f"/api/assist/{rid}/entries/5", {"text": "1"}, 400, "there is no entry 5"),
        ("put", f"/api/assist/{rid}/entries/0", {"text": "1"}, 400, "there is no entry 0"),
        ("delete", f"/api/assist/{rid}/entries/2", None, 400, "there is no entry 2"),
        ("post", f"/api/assist/{rid}/entries/3", {"text": "1"}, 400, "insert takes 1 to 2"),
        ("put", f"/api/assist/{rid}/entries/x", {"text": "1"}, 422, "number"),
        ("post", f"/api/assist/{rid}/undo", {"count": 2}, 400, "there are only 1 entry"),
        ("post", f"/api/assist/{rid}/undo", {"count": 0}, 422, "count"),
        ("post", f"/api/assist/{rid}/command", {"command": "marks"}, 400, "no command 'marks'"),
        ("post", f"/api/assist/{rid}/load", {"log": "not json"}, 400, "the uploaded log"),
    ]
    for method, url, body, status, words in cases:
        answer = client.request(method.upper(), url, json=body)
        assert answer.status_code == status, (url, body, answer.text)
        assert words in answer.json()["error"], (url, body, answer.json())
        same(client, notepad)


@pytest.mark.parametrize(
    ("choice", "words"),
    [
        ({"game": "chess"}, "no assistant for 'chess'"),
        ({"game": "fox", "options": {"k": "0"}}, "k"),
        ({"game": "fox", "options": {"graph": "/etc/passwd"}}, "graph"),
        ({"game": "scotland-yard", "options": {"map": "/tmp"}}, "reads no files"),
        ({"game": "camel-up", "params": {"rollouts": "10000000"}}, "above the web app's limit"),
        ({"game": "camel-up", "params": {"rollouts": "0"}}, "below the least value 1"),
        ({"game": "camel-up", "params": {"seat": "x"}}, "'x' is not a number"),
        ({"game": "camel-up", "params": {"seat": "9"}}, "seat 9"),
        ({"game": "fugitive", "params": {"model": "wild"}}, "not one of uniform"),
        ({"game": "fox", "params": {"marks": "1"}}, "no setting 'marks'"),
        ({"game": "scotland-yard", "params": {"starts": "1,2"}}, "start"),
    ],
)
def test_bad_choices_for_a_new_notepad(
    client: TestClient, choice: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/assist", json=choice)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]
    page = client.get("/assist", headers={"accept": "text/html"})
    assert 'id="my-notepads"' not in page.text  # nothing was stored


def test_another_sessions_notepad_is_not_found_and_unchanged(app: Any, client: TestClient) -> None:
    notepad = enter(client, new(client, "fox"), "2")
    rid = notepad["id"]
    with TestClient(app) as other:
        for method, url, body in [
            ("GET", f"/api/assist/{rid}", None),
            ("POST", f"/api/assist/{rid}/entries", {"text": "1"}),
            ("PUT", f"/api/assist/{rid}/entries/1", {"text": "1"}),
            ("DELETE", f"/api/assist/{rid}/entries/1", None),
            ("POST", f"/api/assist/{rid}/entries/1", {"text": "1"}),
            ("POST", f"/api/assist/{rid}/undo", {"count": 1}),
            ("POST", f"/api/assist/{rid}/command", {"command": "hint"}),
            ("GET", f"/api/assist/{rid}/save", None),
            ("POST", f"/api/assist/{rid}/load", {"log": "x"}),
            ("DELETE", f"/api/assist/{rid}", None),
            ("GET", f"/assist/{rid}", None),
        ]:
            answer = other.request(method, url, json=body)
            assert answer.status_code == 404, (method, url, answer.text)
            assert rid[:8] not in answer.text or "no notepad" in answer.text
        listed = other.get("/assist", headers={"accept": "text/html"}).text
        assert rid not in listed
    same(client, notepad)
    assert rid in client.get("/assist", headers={"accept": "text/html"}).text


def test_requests_for_unknown_notepads_leave_no_lock_behind(app: Any, client: TestClient) -> None:
    """Made-up ids are 404s that keep nothing in memory (else any client could grow the
    server's table of per-notepad locks without bound)."""
    for number in range(5):
        rid = f"made-up-{number}"
        for method, url, body in [
            ("POST", f"/api/assist/{rid}/entries", {"text": "1"}),
            ("POST", f"/api/assist/{rid}/undo", {"count": 1}),
            ("POST", f"/api/assist/{rid}/command", {"command": "hint"}),
            ("DELETE", f"/api/assist/{rid}/entries/1", None),
            ("GET", f"/api/assist/{rid}", None),
        ]:
            assert client.request(method, url, json=body).status_code == 404
    assert not getattr(app.state, "assist_live", None) or not app.state.assist_live.locks


def test_a_log_with_more_entries_than_a_notepad_holds_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleuth.web import assist_session

    notepad = new(client, "fox")
    for text in ("1", "2", "3"):
        notepad = enter(client, notepad, text)
    saved = client.get(f"/api/assist/{notepad['id']}/save").text
    target = enter(client, new(client, "fox"), "4")
    monkeypatch.setattr(assist_session, "MAX_ENTRIES", 2)
    refused = client.post(f"/api/assist/{target['id']}/load", json={"log": saved})
    assert refused.status_code == 400, refused.text
    assert "at most 2" in refused.json()["error"]
    same(client, target)


def test_save_and_load_round_trip_and_the_terminals_format(
    client: TestClient, tmp_path: Path
) -> None:
    for game in SETUPS:
        notepad = new(client, game)
        for text in SETUPS[game][2]:
            notepad = enter(client, notepad, text)
        saved = client.get(f"/api/assist/{notepad['id']}/save")
        assert saved.status_code == 200
        assert f"sleuth-{game}-notepad.jsonl" in saved.headers["content-disposition"]
        other = new(client, game)
        loaded = client.post(f"/api/assist/{other['id']}/load", json={"log": saved.text})
        assert loaded.status_code == 200, loaded.text
        body = loaded.json()
        assert body["entries"] == notepad["entries"] and body["html"] == notepad["html"]
        assert body["message"] == f"loaded {len(notepad['entries'])} entries"
        # the loaded notepad goes on as any other: undo, and enter again
        undone = client.post(f"/api/assist/{other['id']}/undo", json={"count": 1}).json()
        assert undone["entries"] == notepad["entries"][:-1]
        # a log of another game is refused, changing nothing
        wrong = "fugitive" if game == "fox" else "fox"
        refused = client.post(
            f"/api/assist/{new(client, wrong)['id']}/load", json={"log": saved.text}
        )
        assert refused.status_code == 400 and "the uploaded log" in refused.json()["error"]
    # a log whose lines parse but whose fields have the wrong shape: refused, nothing changed
    good = enter(client, new(client, "fox"), "1")
    saved_fox = client.get(f"/api/assist/{good['id']}/save").text
    lines = [json.loads(line) for line in saved_fox.splitlines()]
    for line in lines:
        if line.get("kind") == "inspected":
            line["public"]["holes"] = 1
    broken = "\n".join(json.dumps(line) for line in lines)
    refused = client.post(f"/api/assist/{good['id']}/load", json={"log": broken})
    assert refused.status_code == 400 and "wrong shape" in refused.json()["error"]
    same(client, good)
    # the terminal's 'save FILE' loads in the browser and the other way round
    terminal = FoxSession(_cycle6())
    terminal.enter("1")
    terminal.enter("4")
    path = tmp_path / "fox.jsonl"
    terminal.save(path)
    notepad = new(client, "fox")
    loaded = client.post(f"/api/assist/{notepad['id']}/load", json={"log": path.read_text()})
    assert loaded.json()["entries"] == ["inspect 1", "inspect 4"]
    assert loaded.json()["options"]["graph"] == "cycle:6"
    fugitive = new(client, "fugitive")
    for text in SETUPS["fugitive"][2]:
        fugitive = enter(client, fugitive, text)
    log = client.get(f"/api/assist/{fugitive['id']}/save").text
    other = client.post("/api/assist", json={"game": "fugitive", "options": {"edition": "second"}})
    assert other.json()["options"]["edition"] == "second"
    taken = client.post(f"/api/assist/{other.json()['id']}/load", json={"log": log}).json()
    assert taken["options"] == fugitive["options"] and taken["html"] == fugitive["html"]
    back = tmp_path / "back.jsonl"
    back.write_text(client.get(f"/api/assist/{notepad['id']}/save").text)
    reread = FoxSession(_cycle6())
    reread.load(back)
    assert reread.history() == ["inspect 1", "inspect 4"]


def _cycle6() -> FoxGame:
    game = game_spec("fox").make({"graph": "cycle:6"}, canonical=True)
    assert isinstance(game, FoxGame)
    return game


def test_the_fox_puzzle(client: TestClient) -> None:
    notepad = new(client, "fox")
    # each hole is one click's inspection, and the holes the fox may be in are marked
    assert re.findall(r'data-action="inspect (\d)"', notepad["svg"]) == list("01234")
    assert notepad["svg"].count('class="hole possible') == 5
    notepad = enter(client, notepad, "inspect 1")
    assert notepad["svg"].count('class="hole possible') == 4  # not hole 0 after a look at 1
    hint = client.post(f"/api/assist/{notepad['id']}/command", json={"command": "hint"}).json()
    assert hint["message"].startswith("hint: inspect ")
    solved = client.post(f"/api/assist/{notepad['id']}/command", json={"command": "solve"})
    said = solved.json()["message"]
    assert said.startswith("the fox is sure to be caught within 6 days: ")  # path:5 needs 6
    sweep = new(client, "fox")  # the quantum fox cannot dodge the solver's sequence
    for holes in re.findall(r"day \d+: ([\d,]+)", said):
        sweep = enter(client, sweep, holes)
    assert sweep["finished"] and "Caught on day 6" in sweep["html"]
    for holes in ("3", "2"):
        notepad = enter(client, notepad, holes)
    ended = client.post(f"/api/assist/{notepad['id']}/command", json={"command": "give up"})
    body = ended.json()
    assert body["finished"] and body["ended_by"] == "give up" and "walk" in body["svg"]
    caption = body["svg"].split("the fox&#x27;s walk:")[1].split("<")[0]
    walk = [int(hole) for hole in re.findall(r"\d+", caption)]
    assert len(walk) == 3 and walk[0] != 1 and walk[1] != 3 and walk[2] != 2  # dodged all
    assert all(abs(a - b) == 1 for a, b in itertools.pairwise(walk))  # along the tunnels
    days = re.findall(r'class="walk-days" data-hole="(\d+)">([\d,]+)<', body["svg"])
    drawn = {int(day): int(hole) for hole, listed in days for day in listed.split(",")}
    assert [drawn[day] for day in sorted(drawn)] == walk  # the days above the holes
    refused = client.post(f"/api/assist/{notepad['id']}/entries", json={"text": "2"})
    assert refused.status_code == 400 and "the game is over" in refused.json()["error"]
    same(client, body)
    resumed = client.post(f"/api/assist/{notepad['id']}/undo", json={"count": 1}).json()
    assert not resumed["finished"] and resumed["ended_by"] is None
    assert resumed["entries"] == ["inspect 1", "inspect 3"]


def test_the_pictures_hold_each_assistants_deduction(client: TestClient) -> None:
    pictures = {}
    for game in SETUPS:
        notepad = new(client, game)
        for text in SETUPS[game][2]:
            notepad = enter(client, notepad, text)
        pictures[game] = notepad["svg"]
    # Scotland Yard: the rings' probabilities are Mr. X's distribution (they sum to 1)
    chances = [
        float(p)
        for p in re.findall(r'class="chance"[^>]*data-p="([0-9.]+)"', pictures["scotland-yard"])
    ]
    assert chances and abs(sum(chances) - 1) < 0.01
    # Camel Up: each column of bars sums to 1 (leg first, leg second, winner, loser)
    bars = [float(p) for p in re.findall(r'data-p="([0-9.]+)"', pictures["camel-up"])]
    assert len(bars) == 20
    for column in range(4):
        assert abs(sum(bars[column::4]) - 1) < 0.01
    # Fugitive: hideout 1 was placed with 1 sprint card: position 1 holds 1 to 5 at most
    cells = re.findall(r'data-position="1" data-value="(\d+)"', pictures["fugitive"])
    assert cells and all(1 <= int(v) <= 5 for v in cells)
    # Cluedo: the notepad, an entropy line and the best suggestion in each of the nine rooms
    assert 'class="entropy"' in pictures["cluedo"] and "Mr. Green" in pictures["cluedo"]
    assert pictures["cluedo"].count('class="suggestion"') == 9


def test_the_cluedo_why_command(client: TestClient) -> None:
    notepad = new(client, "cluedo")
    for text in SETUPS["cluedo"][2]:
        notepad = enter(client, notepad, text)
    assert [c["names"][0] for c in notepad["commands"]] == ["why"]
    answer = client.post(f"/api/assist/{notepad['id']}/command", json={"command": "why green"})
    assert answer.status_code == 200, answer.text
    assert "Green" in answer.json()["message"] and answer.json()["ended_by"] is None
    bare = client.post(f"/api/assist/{notepad['id']}/command", json={"command": "Why "})
    assert bare.status_code == 400
    assert bare.json()["error"] == "'why' needs CARD: why CARD"  # not "no command 'why'"


def test_the_pages(client: TestClient) -> None:
    home = client.get("/assist", headers={"accept": "text/html"})
    assert home.status_code == 200
    for game in SETUPS:
        assert f'data-game="{game}"' in home.text
    notepad = new(client, "fox")
    page = client.get(f"/assist/{notepad['id']}", headers={"accept": "text/html"})
    assert page.status_code == 200 and notepad["id"] in page.text
    assert notepad["id"] in client.get("/assist", headers={"accept": "text/html"}).text
    for name in ("assist.js", "assist_new.js", "assist.css"):
        assert client.get(f"/static/{name}").status_code == 200
    gone = client.delete(f"/api/assist/{notepad['id']}")
    assert gone.status_code == 204
    assert client.get(f"/api/assist/{notepad['id']}").status_code == 404


def test_random_changes_match_a_direct_replay(client: TestClient) -> None:
    """Random entries, undos, edits, deletes and inserts through the API against a model list
    of entries: each change is accepted exactly when entering the resulting list into a fresh
    session works (and the session before was not over, for a new entry), and the notepad is
    then that session."""
    over = 0
    for seed in range(3):
        over += _random_changes(client, random.Random(seed))
    assert over  # entries were refused after a catch


def _random_changes(client: TestClient, rng: random.Random) -> int:
    """One notepad's random changes, checked; how many new entries came after a catch."""
    board = {"graph": "path:3"}  # small enough that random inspections catch the fox
    notepad = client.post("/api/assist", json={"game": "fox", "options": board}).json()
    url = f"/api/assist/{notepad['id']}"
    model: list[str] = []
    over = 0
    for _ in range(40):
        op = rng.choice(["enter", "enter", "undo", "edit", "delete", "insert"])
        text = str(rng.randrange(3))
        number = rng.randrange(len(model) + 2)
        if op == "enter":
            wanted, answer = [*model, text], client.post(f"{url}/entries", json={"text": text})
        elif op == "undo":
            wanted, answer = model[:-1], client.post(f"{url}/undo", json={"count": 1})
        elif op == "edit":
            wanted = [*model[: number - 1], text, *model[number:]]
            answer = client.put(f"{url}/entries/{number}", json={"text": text})
        elif op == "delete":
            wanted = [*model[: number - 1], *model[number:]]
            answer = client.delete(f"{url}/entries/{number}")
        else:
            wanted = [*model[: number - 1], text, *model[number - 1 :]]
            answer = client.post(f"{url}/entries/{number}", json={"text": text})
        in_range = {"enter": True, "undo": bool(model)}.get(op, 1 <= number <= len(model))
        if op == "insert":
            in_range = 1 <= number <= len(model) + 1
        possible = in_range
        if possible:
            try:
                direct = _direct("fox", board, {}, wanted)
            except SleuthError:
                possible = False
        if op == "enter" and model and _direct("fox", board, {}, model).finished:
            possible, over = False, over + 1
        assert answer.status_code == (200 if possible else 400), (op, number, text, answer.text)
        if possible:
            model = [f"inspect {t}" if t.isdigit() else t for t in wanted]
            body = answer.json()
            assert body["entries"] == model
            assert body["html"] == rendered_html(direct)
        assert client.get(url).json()["entries"] == model
    return over


def test_the_cluedo_chart_outlines_this_turn_s_room_only_while_i_play(client: TestClient) -> None:
    """The suggestion chart outlines the room of the "This turn" line, its tooltip the line;
    once my accusation was wrong I make no more moves, so neither the text nor the chart
    advises one."""
    params = {"players": "Ann, Bob, Cy, Dan", "me": "Ann", "hand": "Plum, Knife, Hall, Rope, Study"}
    record = client.post("/api/assist", json={"game": "cluedo", "params": params}).json()["id"]

    def enter(text: str) -> dict[str, Any]:
        answer = client.post(f"/api/assist/{record}/entries", json={"text": text})
        assert answer.status_code == 200, answer.text
        shown: dict[str, Any] = answer.json()
        return shown

    playing = enter("I am in the kitchen")
    outlined = re.findall(
        r'<rect[^>]*data-plan="this-turn"[^>]*><title>([^<]*)</title>', playing["svg"]
    )
    assert len(outlined) == 1 and outlined[0].startswith("Kitchen: suggest "), outlined
    assert "This turn: suggest " in outlined[0] and "This turn: suggest " in playing["html"]
    out = enter("I accuse green rope kitchen wrong, envelope mustard wrench ballroom")
    assert 'class="suggestion"' in out["svg"]  # the chart is still drawn
    assert "this-turn" not in out["svg"] and "This turn" not in out["svg"]
    assert "This turn" not in out["html"]


def test_the_notepad_pages_controls_are_labelled_and_the_log_downloads_without_a_script(
    client: TestClient,
) -> None:
    page = client.get("/assist", headers={"Accept": "text/html"})
    assert unnamed_controls(page.text) == []
    notepad = new(client, "cluedo")
    page = client.get(f"/assist/{notepad['id']}", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert unnamed_controls(page.text) == []
    save = re.search(r'<a [^>]*id="save"[^>]*>', page.text)
    assert save is not None and f'href="/api/assist/{notepad["id"]}/save"' in save.group(0)
    assert client.get(f"/api/assist/{notepad['id']}/save").status_code == 200


def test_the_fox_s_switch_and_its_collected_holes_come_from_its_page_plugin(
    client: TestClient,
) -> None:
    """The switch of the possible holes is the fox's (its page plug-in's ``switches``), with
    the picture's own style for it; no other game has one.  With two holes a day, each hole is
    an item to collect (``data-collect``) while the hunt goes on, none once it is over."""
    for game in SETUPS:
        notepad = new(client, game)
        page = client.get(f"/assist/{notepad['id']}", headers={"Accept": "text/html"}).text
        if game == "fox":
            assert notepad["switches"] == [
                {"name": "possible", "label": "show the holes the fox may be in"}
            ]
            assert "<style>.hide-possible .possible circle" in notepad["svg"]
            assert 'id="show-possible" data-switch="possible" checked' in page
        else:
            assert notepad["switches"] == [] and "data-switch" not in page
    one = new(client, "fox")
    assert "data-collect" not in one["svg"]  # one hole a day: each is an action
    two = client.post(
        "/api/assist", json={"game": "fox", "options": {"graph": "path:5", "k": "2"}}
    ).json()
    assert re.findall(r'data-hole="(\d)" data-collect="(\d)"', two["svg"]) == [
        (hole, hole) for hole in "01234"
    ]
    assert "data-action" not in two["svg"]
    ended = client.post(f"/api/assist/{two['id']}/command", json={"command": "give up"}).json()
    assert ended["finished"] and "data-collect" not in ended["svg"]
