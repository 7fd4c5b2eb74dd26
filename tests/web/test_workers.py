"""Requests of one browser session served by different processes (``sleuth serve --workers``):
two apps on one store file stand for two workers.  What one stores, the other answers from
(its cached game or notepad is not used once stale); two changes of one record at once are
made one after the other, never one lost; a form's message shows on the page whichever
worker serves it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sleuth.core import registry
from sleuth.web import assist_session as notes
from sleuth.web.app import COOKIE, create_app
from tests.core import toy
from tests.web.settled import SettledClient


def workers(store: Path, count: int = 2) -> list[TestClient]:
    """``count`` apps on one store, with one browser session's cookie once it has one; each
    answers once its bots have moved (they move in the background)."""
    return [SettledClient(create_app(store)) for _ in range(count)]


def share_cookie(source: TestClient, *others: TestClient) -> None:
    for other in others:
        other.cookies.set(COOKIE, source.cookies[COOKIE])


def test_a_move_stored_by_one_worker_is_seen_and_built_on_by_the_other(store: Path) -> None:
    one, two = workers(store)
    game = one.post("/api/play", json={"game": "fox", "options": {"graph": "path:5"}, "seed": 1})
    assert game.status_code == 201, game.text
    share_cookie(one, two)
    record = game.json()["id"]
    for turn in range(4):  # the workers take turns: each answers from what the other stored
        worker = (one, two)[turn % 2]
        before = worker.get(f"/api/play/{record}").json()
        if before["over"]:
            break
        after = worker.post(f"/api/play/{record}/action", json={"action": before["legal"][0]})
        assert after.status_code == 200, after.text
        assert len(after.json()["events"]) > len(before["events"])
        assert (one, two)[(turn + 1) % 2].get(f"/api/play/{record}").json() == after.json()


def test_one_move_sent_to_two_workers_at_once_is_played_once(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both workers may hold the game before either stores it: the second to store finds the
    game changed and refuses the move (or, if the first stored it before the second read it,
    finds it is no longer the human's turn, and says so); the game has the move once."""
    monkeypatch.setitem(registry._REGISTERED, "highcard", toy.SPEC)
    one, two = workers(store)
    started = one.post(
        "/api/play", json={"game": "highcard", "seat": 0, "bots": {"1": "sleepy"}, "seed": 2}
    )
    assert started.status_code == 201, started.text
    share_cookie(one, two)
    record = started.json()["id"]
    answers: list[tuple[int, str]] = []

    def send(worker: TestClient) -> None:
        answer = worker.post(f"/api/play/{record}/action", json={"action": "call"})
        answers.append((answer.status_code, answer.text))

    threads = [threading.Thread(target=send, args=(worker,)) for worker in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(status for status, _ in answers) == [200, 400], answers
    refusal = next(text for status, text in answers if status == 400)
    assert "changed meanwhile" in refusal or "not your turn" in refusal, refusal
    final = two.get(f"/api/play/{record}").json()
    assert final["over"] and [e["action"] for e in final["log"]][2:] == ["call", "call"]


def test_a_forms_message_shows_on_the_page_another_worker_serves(store: Path) -> None:
    one, two = workers(store)
    notepad = one.post("/api/assist", json={"game": "fox", "options": {"graph": "path:20"}})
    assert notepad.status_code == 201, notepad.text
    share_cookie(one, two)
    record = notepad.json()["id"]
    sent = one.post(f"/assist/{record}/entries", data={"text": "2"}, follow_redirects=False)
    assert sent.status_code == 303, sent.text
    page = two.get(f"/assist/{record}")  # the redirect, served by the other worker
    assert page.status_code == 200 and "entry 1" in message(page.text), message(page.text)
    assert message(one.get(f"/assist/{record}").text) == ""  # shown once


def message(page: str) -> str:
    """The message line of a notepad's page."""
    return page.split('id="message" role="status">')[1].split("</p>")[0].strip()


def test_a_kept_answer_is_not_given_once_another_worker_stored_a_move(store: Path) -> None:
    """Each worker keeps its answers by the game's stored version: a move stored through one
    worker is in the other's next answer at once, for the game's starter and for a friend's
    seat link, on the JSON API and on the page."""
    one, two = workers(store)
    started = one.post(
        "/api/play", json={"game": "fox", "options": {"graph": "path:5"}, "people": [1], "seed": 1}
    )
    assert started.status_code == 201, started.text
    share_cookie(one, two)
    record = started.json()["id"]
    friend = next(link["url"] for link in started.json()["links"] if link["seat"] == 1)
    seen = two.get(f"/api/play/{record}").json()
    assert two.get(f"/api/play/{record}").json() == seen  # kept: the same answer
    their_view = two.get(f"/api{friend}").json()
    mover = f"/api/play/{record}" if seen["your_turn"] else f"/api{friend}"  # whose turn it is
    legal = two.get(mover).json()["legal"]
    assert one.post(f"{mover}/action", json={"action": legal[0]}).status_code == 200
    moved = one.get(f"/api/play/{record}").json()
    assert len(moved["events"]) > len(seen["events"])
    assert two.get(f"/api/play/{record}").json() == moved
    assert two.get(f"/api{friend}").json() == one.get(f"/api{friend}").json() != their_view
    assert moved["events"][-1] in two.get(f"/play/{record}").text


def test_a_notepad_another_worker_changed_is_brought_up_to_date_not_replayed(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries sent to two workers in turn: each worker's cached notepad is behind by the
    other's entry, and is brought up to it by entering that entry alone (no replay of the
    whole notepad after a worker's first look), answering what a fresh rebuild answers."""
    replays: list[int] = []
    replay = notes.replay
    monkeypatch.setattr(
        notes,
        "replay",
        lambda *args: replays.append(1) or replay(*args),  # type: ignore[func-returns-value]
    )
    one, two = workers(store)
    opened = one.post("/api/assist", json={"game": "fox", "options": {"graph": "path:20"}})
    assert opened.status_code == 201, opened.text
    share_cookie(one, two)
    notepad = opened.json()["id"]
    for number, hole in enumerate("0101010101"):
        worker = (one, two)[number % 2]
        answer = worker.post(f"/api/assist/{notepad}/entries", json={"text": hole})
        assert answer.status_code == 200, answer.text
        if number == 1:
            replays.clear()  # each worker has built the notepad once
    assert replays == []
    fresh = TestClient(create_app(store))
    share_cookie(one, fresh)
    assert one.get(f"/api/assist/{notepad}").json() == fresh.get(f"/api/assist/{notepad}").json()
    assert two.get(f"/api/assist/{notepad}").json() == fresh.get(f"/api/assist/{notepad}").json()
