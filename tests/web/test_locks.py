"""Record locks serialise the requests on one record and are dropped once no request uses
them: the table does not grow with every game and notepad ever opened."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.web.locks import RecordLocks


def test_one_record_is_held_by_one_thread_at_a_time() -> None:
    locks = RecordLocks()
    inside = 0
    most = 0
    count = threading.Lock()

    def visit(_: int) -> None:
        nonlocal inside, most
        with locks.hold("game"):
            with count:
                inside += 1
                most = max(most, inside)
            time.sleep(0.002)
            with count:
                inside -= 1

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(visit, range(40)))
    assert most == 1 and len(locks) == 0


def test_a_lock_lives_while_a_thread_holds_or_waits_for_it() -> None:
    locks = RecordLocks()
    held, release, waited = threading.Event(), threading.Event(), threading.Event()

    def holder() -> None:
        with locks.hold("a"):
            held.set()
            release.wait(10)

    def waiter() -> None:
        with locks.hold("a"):
            waited.set()

    first = threading.Thread(target=holder)
    first.start()
    held.wait(10)
    with locks.hold("b"):  # another record is not blocked
        assert len(locks) == 2
    second = threading.Thread(target=waiter)
    second.start()
    time.sleep(0.05)
    assert not waited.is_set() and len(locks) == 1  # "a", shared by the holder and the waiter
    release.set()
    first.join(10)
    second.join(10)
    assert waited.is_set() and len(locks) == 0


def test_the_app_keeps_no_lock_of_a_record_no_request_uses(
    app: FastAPI, client: TestClient
) -> None:
    for seed in range(5):
        game = client.post("/api/play", json={"game": "fox", "seed": seed}).json()
        played = client.post(f"/api/play/{game['id']}/action", json={"action": game["legal"][0]})
        assert played.status_code == 200 and client.get(f"/api/play/{game['id']}").is_success
        if seed % 2:
            assert client.delete(f"/api/play/{game['id']}").status_code == 204
        notepad = client.post("/api/assist", json={"game": "fox"}).json()
        entered = client.post(f"/api/assist/{notepad['id']}/entries", json={"text": "0"})
        assert entered.status_code == 200, entered.text
        assert client.get(f"/api/assist/{notepad['id']}").is_success
    assert len(app.state.live.locks) == 0
    assert len(app.state.assist_live.locks) == 0
