"""People's names on their seats, and a seat taken back from the bot it was handed to.

Names: given when the game starts (the starter's and the friends') or by each person for their
own seat through their link; every page shows them (who plays each seat, whose turn it is, the
events), escaped; a bad name is refused by name and changes nothing.  Taking a seat back: only
through the seat's own key, only from a bot; the bot moves no more once the answer is given,
even when it was thinking meanwhile, and a bot named later for the seat is the one that moves.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from html import unescape
from typing import Any, ClassVar

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.registry import GameSpec
from sleuth.web.app import COOKIE
from sleuth.web.live import MAX_NAME, LiveGame
from tests.web.pages import PAGE
from tests.web.settled import SettledClient

FOX = {"game": "fox", "role": "hunter", "seed": 4, "options": {"graph": "cycle:5"}}
"""The hunter (seat 0, the starter) and the fox (seat 1); the fox hides first."""
BOB = "Bob <b>&amp;"
"""A friend's name that a page must escape."""


def _links(game: dict[str, Any]) -> dict[int, str]:
    return {link["seat"]: link["url"].removeprefix("/play/") for link in game["links"]}


def _together(alice: TestClient, **names: Any) -> tuple[dict[str, Any], str]:
    """A fox game of Alice (the hunter, by the game's id) and a friend (the fox, by the
    link); Alice's answer and the fox's key."""
    started = alice.post("/api/play", json={**FOX, "people": [1], **names})
    assert started.status_code == 201, started.text
    game = started.json()
    return game, _links(game)[1]


def _hide(client: TestClient, key: str, hole: str = "hole 3") -> dict[str, Any]:
    answer = client.post(f"/api/play/{key}/action", json={"action": hole})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_names_given_at_the_start_are_on_every_page(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice, name=" Alice ", names={1: BOB})
        assert [(p["player"], p["name"]) for p in game["players"]] == [
            ("you", "Alice"),
            (BOB, BOB),
        ]
        assert game["status"] == f"fox to move (seat 1: {BOB})"
        mine = bob.get(f"/api/play/{fox}").json()
        assert [p["player"] for p in mine["players"]] == ["Alice", "you"]
        _hide(bob, fox)
        seen = bob.get(f"/api/play/{fox}").json()
        assert seen["status"] == "hunter to move (seat 0: Alice)"
        assert f"night 0: {BOB} (the fox) is in 3" in seen["events"]
        told = alice.get(f"/api/play/{game['id']}").json()
        assert f"night 0: {BOB} (the fox) moved (unseen)" in told["events"]
        alice.post(f"/api/play/{game['id']}/action", json={"action": "inspect 0"})
        seen = bob.get(f"/api/play/{fox}").json()
        assert "day 1: Alice (the hunter) inspected 0: no fox" in seen["events"]
        for client, key in ((alice, game["id"]), (bob, fox)):
            page = client.get(f"/play/{key}", headers=PAGE).text
            assert "Bob &lt;b&gt;&amp;amp;" in page and "<b>" not in page
            assert BOB in unescape(page) and "Alice" in page


def test_a_person_names_their_own_seat_and_a_bad_name_changes_nothing(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        before = bob.get(f"/api/play/{fox}").json()
        for body, message in [
            ({"name": "x" * (MAX_NAME + 1)}, f"longer than {MAX_NAME} characters"),
            ({"name": "Bob\nthe fox"}, "is not one line of printable text"),
            ({"name": "Bob\x00"}, "is not one line of printable text"),
            ({"name": " You "}, "the name 'you' is what each page calls its own seat"),
        ]:
            refused = bob.post(f"/api/play/{fox}/name", json=body)
            assert refused.status_code == 400, refused.text
            assert refused.json()["field"] == "name" and message in refused.json()["error"]
        assert bob.post(f"/api/play/{fox}/name", json={"name": "x" * 501}).status_code == 422
        assert bob.post(f"/api/play/{fox}/name", json={"nom": "Bob"}).status_code == 422
        assert bob.post("/api/play/no-such-seat/name", json={"name": "Bob"}).status_code == 404
        assert bob.post(f"/api/play/{game['id']}/name", json={"name": "Bob"}).status_code == 404
        assert bob.get(f"/api/play/{fox}").json() == before
        named = bob.post(f"/api/play/{fox}/name", json={"name": BOB}).json()
        assert named["players"][1] == {
            "seat": 1,
            "role": "fox",
            "player": "you",
            "name": BOB,
            "bot": None,
        }
        assert named["moves"] == before["moves"]  # a name is no move
        theirs = alice.get(f"/api/play/{game['id']}").json()
        assert theirs["players"][1]["player"] == BOB and BOB in theirs["status"]
        assert theirs["players"][0]["name"] is None  # a link names only its own seat
        cleared = bob.post(f"/api/play/{fox}/name", json={"name": "  "}).json()
        assert cleared["players"][1]["name"] is None
        assert alice.get(f"/api/play/{game['id']}").json()["players"][1]["player"] == "a person"


def test_a_new_game_refuses_bad_names_by_field(app: FastAPI) -> None:
    with SettledClient(app) as alice:
        for extra, field, message in [
            ({"names": {0: "Ann"}}, "names", "name for seat 0: not a friend's seat"),
            ({"names": {5: "Ann"}}, "names", "name for seat 5: not a friend's seat"),
            ({"name": "A" * (MAX_NAME + 1)}, "name", f"longer than {MAX_NAME} characters"),
            ({"names": {1: "a\tb"}}, "names", "is not one line of printable text"),
        ]:
            refused = alice.post("/api/play", json={**FOX, "people": [1], **extra})
            assert refused.status_code == 400, refused.text
            assert refused.json()["field"] == field and message in refused.json()["error"]
        assert COOKIE not in alice.cookies  # nothing was stored, not even a session
        form = {"game": "fox", "role": "hunter", "option:graph": "cycle:5", "people": "1"}
        bad = alice.post("/play/new", data={**form, "names": "one=Ann"}, headers=PAGE)
        assert bad.status_code == 400
        assert "names: name line 'one=Ann': the seat is not a number" in unescape(bad.text)
        page = alice.post(
            "/play/new", data={**form, "name": "Alice", "names": "1=Bo"}, headers=PAGE
        )
        assert page.status_code == 200, page.text
        game = alice.get(f"/api/play/{page.url.path.rsplit('/', 1)[1]}").json()
        assert [p["name"] for p in game["players"]] == ["Alice", "Bo"]


def test_the_name_form_works_without_scripts(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        named = bob.post(f"/play/{fox}/name", data={"name": BOB}, headers=PAGE)
        assert named.status_code == 200 and named.url.path == f"/play/{fox}"
        assert 'value="Bob &lt;b&gt;&amp;amp;"' in named.text
        bad = bob.post(f"/play/{fox}/name", data={"name": "y" * 41}, headers=PAGE)
        assert bad.status_code == 400 and "longer than 40 characters" in bad.text
        assert alice.get(f"/api/play/{game['id']}").json()["players"][1]["name"] == BOB


class _Recorder(Bot):
    """A bot that plays its first legal action and counts its decisions by class."""

    calls: ClassVar[int] = 0

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        type(self).calls += 1
        return next(iter(legal))


class _First(_Recorder):
    calls: ClassVar[int] = 0


class _Second(_Recorder):
    calls: ClassVar[int] = 0


class _Thinker(Bot):
    """A bot that says when it starts thinking and moves only once the test lets it."""

    thinking = threading.Event()
    go = threading.Event()

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        self.thinking.set()
        assert self.go.wait(60), "the test never let the bot move"
        return next(iter(legal))


TEST_BOTS = {
    "first": BotSpec("first", ("hunter", "fox"), _First, "records its moves"),
    "second": BotSpec("second", ("hunter", "fox"), _Second, "records its moves"),
    "thinker": BotSpec("thinker", ("hunter", "fox"), _Thinker, "moves when let"),
}


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots of :data:`TEST_BOTS` besides the games' own."""
    own = GameSpec.bot

    def bot(self: GameSpec, name: str, interactive: bool = False) -> BotSpec:
        return TEST_BOTS[name] if name in TEST_BOTS else own(self, name, interactive)

    monkeypatch.setattr(GameSpec, "bot", bot)
    _First.calls = _Second.calls = 0
    _Thinker.thinking.clear()
    _Thinker.go.clear()


def test_a_seat_is_taken_back_only_by_its_own_key_from_a_bot(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        before = bob.get(f"/api/play/{fox}").json()
        for client, key, body, message in [
            (bob, fox, {}, "seat 1 is not played by a bot"),
            (alice, game["id"], {}, "seat 0 is not played by a bot"),
            (bob, fox, {"seat": 0}, "this link is seat 1's: it takes back only its own seat"),
            (alice, game["id"], {"seat": 1}, "this link is seat 0's"),
        ]:
            refused = client.post(f"/api/play/{key}/reclaim", json=body)
            assert refused.status_code == 400, refused.text
            assert refused.json()["field"] == "seat" and message in refused.json()["error"]
        alice.post(f"/api/play/{game['id']}/bot", json={"seat": 1, "bot": "random"})
        # the starter handed the friend's seat: only the friend's link takes it back
        refused = alice.post(f"/api/play/{game['id']}/reclaim", json={"seat": 1})
        assert refused.status_code == 400 and "this link is seat 0's" in refused.text
        assert bob.post("/api/play/no-such-seat/reclaim", json={}).status_code == 404
        assert bob.post(f"/api/play/{fox}/reclaim", json={"bot": "x"}).status_code == 422
        handed = bob.get(f"/api/play/{fox}").json()
        assert handed["players"][1]["bot"] == "random"
        if not handed["over"]:
            back = bob.post(f"/api/play/{fox}/reclaim", json={}).json()
            assert back["players"][1] == {**before["players"][1], "bot": None}
        alice.post(f"/api/play/{game['id']}/bot", json={"bot": "random"})
        bob.post(f"/api/play/{fox}/bot", json={"bot": "random"})
        over = alice.get(f"/api/play/{game['id']}").json()
        assert over["over"]
        late = alice.post(f"/api/play/{game['id']}/reclaim", json={})
        assert late.status_code == 400 and "the game is over" in late.json()["error"]


def test_a_bot_thinking_when_its_seat_is_taken_back_never_moves(
    app: FastAPI, test_bots: None
) -> None:
    """The hunter's seat goes to a bot that thinks until the test lets it; the seat is taken
    back meanwhile, answered at once with the person to move; the bot's move, made after,
    is thrown away, and the person plays on."""
    with TestClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        _hide(bob, fox)
        handed = alice.post(f"/api/play/{game['id']}/bot", json={"bot": "thinker"}).json()
        assert handed["waiting"] and handed["status"] == "hunter to move (seat 0: thinker)"
        assert _Thinker.thinking.wait(30), "the bot never started to think"
        back = alice.post(f"/api/play/{game['id']}/reclaim", json={})
        assert back.status_code == 200, back.text
        taken = back.json()
        assert taken["your_turn"] and not taken["waiting"] and taken["moves"] == handed["moves"]
        _Thinker.go.set()
        assert app.state.mover.settle(30)
        after = alice.get(f"/api/play/{game['id']}").json()
        assert after == taken  # the bot's move was thrown away
        log = app.state.store.read("game", game["id"])[0]
        assert log["bots"] == [None, None] and len(log["actions"]) == handed["moves"]
        played = alice.post(f"/api/play/{game['id']}/action", json={"action": "inspect 0"})
        assert played.status_code == 200 and played.json()["moves"] == taken["moves"] + 1


def test_the_bot_named_after_a_seat_is_taken_back_is_the_one_that_moves(
    app: FastAPI, test_bots: None
) -> None:
    """The mover keeps the bots it made with the games it keeps: a seat handed to ``first``,
    taken back, then handed to ``second`` is played by ``second`` (not by the ``first`` the
    mover made for it)."""
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        _hide(bob, fox)
        alice.post(f"/api/play/{game['id']}/bot", json={"bot": "first"})
        assert _First.calls == 1  # it inspected hole 0; now the fox (Bob) moves
        alice.post(f"/api/play/{game['id']}/reclaim", json={})
        alice.post(f"/api/play/{game['id']}/bot", json={"bot": "second"})
        assert _First.calls == 1 and _Second.calls == 0  # the fox is to move
        legal = bob.get(f"/api/play/{fox}").json()["legal"]
        bob.post(f"/api/play/{fox}/action", json={"action": legal[-1]})
        assert (_First.calls, _Second.calls) == (1, 1)
        assert not LiveGame(app.state.store.read("game", game["id"])[0]).forfeits


def test_the_reclaim_button_works_without_scripts(app: FastAPI) -> None:
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        page = bob.get(f"/play/{fox}", headers=PAGE).text
        assert '<section id="reclaim" hidden>' in page
        alice.post(f"/api/play/{game['id']}/bot", json={"seat": 1, "bot": "random"})
        assert not alice.get(f"/api/play/{game['id']}").json()["over"]  # the hunter is to move
        page = bob.get(f"/play/{fox}", headers=PAGE).text
        assert '<section id="reclaim">' in page and f'action="/play/{fox}/reclaim"' in page
        back = bob.post(f"/play/{fox}/reclaim", headers=PAGE)
        assert back.status_code == 200 and back.url.path == f"/play/{fox}"
        assert '<section id="reclaim" hidden>' in back.text
        again = bob.post(f"/play/{fox}/reclaim", headers=PAGE)
        assert again.status_code == 400 and "seat 1 is not played by a bot" in again.text
        other = bob.post(f"/play/{fox}/reclaim", headers={**PAGE, "Sec-Fetch-Site": "cross-site"})
        assert other.status_code == 403


def test_a_write_of_another_worker_meanwhile_refuses_no_name_nor_reclaim(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (a worker's request, or its mover storing a bot's move) stores the game
    between the read and the write of a name or of a seat taken back: the change is made again
    from the game as it is now, keeping the other one, not refused."""
    with SettledClient(app) as alice, SettledClient(app) as bob:
        game, fox = _together(alice)
        store = app.state.store
        swap = type(store).swap
        raced: list[str] = []

        def racing(self: Any, kind: str, record: str, version: int, data: Any) -> bool:
            if len(raced) < 2 and data["names"][0] is None:  # Alice renamed in another worker
                raced.append(record)
                stored, now = self.read(kind, record)
                names = ["Alice", *stored["names"][1:]]
                assert swap(self, kind, record, now, {**stored, "names": names})
            return bool(swap(self, kind, record, version, data))

        monkeypatch.setattr(type(store), "swap", racing)
        named = bob.post(f"/api/play/{fox}/name", json={"name": "Bob"})
        assert named.status_code == 200, named.text
        assert raced and [p["name"] for p in named.json()["players"]] == ["Alice", "Bob"]
        monkeypatch.setattr(type(store), "swap", swap)
        alice.post(f"/api/play/{game['id']}/bot", json={"seat": 1, "bot": "random"})
        log, _ = store.read("game", game["id"])
        assert log["bots"][1] == "random"
        store.swap("game", game["id"], store.version(game["id"]), {**log, "names": [None, "Bob"]})
        raced.clear()
        monkeypatch.setattr(type(store), "swap", racing)
        back = bob.post(f"/api/play/{fox}/reclaim", json={})
        assert back.status_code == 200, back.text
        assert raced and [p["bot"] for p in back.json()["players"]] == [None, None]
        assert [p["name"] for p in back.json()["players"]] == ["Alice", "Bob"]
