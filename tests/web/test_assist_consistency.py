"""A notepad's cached live session never disagrees with its stored record: a read takes the
notepad's lock before reading the record, and a change whose store write fails leaves the cache
as it was before the change (the next request sees the stored state)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.web.store import Store
from tests.web.test_assist import enter, new


def test_a_failed_store_write_leaves_no_new_state_in_the_cache(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    notepad = enter(client, new(client, "fox"), "2")

    def failing_put(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patched:
        patched.setattr(Store, "put", failing_put)
        with pytest.raises(sqlite3.OperationalError):
            client.post(f"/api/assist/{notepad['id']}/entries", json={"text": "inspect 3"})
    now = client.get(f"/api/assist/{notepad['id']}").json()
    assert now["entries"] == notepad["entries"] == ["inspect 2"]
    assert (now["html"], now["svg"]) == (notepad["html"], notepad["svg"])
    assert enter(client, now, "inspect 3")["entries"] == ["inspect 2", "inspect 3"]


@pytest.mark.parametrize("path", ["", "/save"])
def test_a_read_sees_a_change_landing_before_it_takes_the_lock(
    path: str, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change stored between the read's first look (its 404 check) and its lock is what the
    read answers, and the live session built then holds it."""
    notepad = new(client, "fox")
    url = f"/api/assist/{notepad['id']}"
    get = Store.get
    landed: list[bool] = []

    def get_then_change(store: Store, session: str, kind: str, record_id: str) -> Any:
        data = get(store, session, kind, record_id)
        if not landed:  # another request's change lands right after this first look
            landed.append(True)
            store.put(session, kind, record_id, {**data, "entries": ["2"]})
        return data

    with monkeypatch.context() as patched:
        patched.setattr(Store, "get", get_then_change)
        answer = client.get(url + path)
    assert answer.status_code == 200, answer.text
    assert answer.text == client.get(url + path).text  # what a read after the change answers
    assert client.get(url).json()["entries"] == ["inspect 2"]


def test_a_fox_log_over_the_cap_is_refused_before_any_replay(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading a fox log replays each inspection from the start (quadratic): its inspections are
    counted first, and a log with more than a notepad holds never reaches the load."""
    from sleuth.games.fox.hunt import FoxSession
    from sleuth.web import assist_session

    notepad = new(client, "fox")
    for text in ("1", "2", "3"):
        notepad = enter(client, notepad, text)
    saved = client.get(f"/api/assist/{notepad['id']}/save").text
    target = enter(client, new(client, "fox"), "4")
    loads: list[int] = []
    load = FoxSession.load

    def counted(session: FoxSession, path: Any) -> None:
        loads.append(1)
        load(session, path)

    monkeypatch.setattr(FoxSession, "load", counted)
    monkeypatch.setattr(assist_session, "MAX_ENTRIES", 2)
    refused = client.post(f"/api/assist/{target['id']}/load", json={"log": saved})
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == ("the uploaded log has 3 entries: a notepad holds at most 2")
    assert loads == []
    assert client.get(f"/api/assist/{target['id']}").json()["entries"] == ["inspect 4"]
    monkeypatch.setattr(assist_session, "MAX_ENTRIES", 3)  # at the cap: loaded
    loaded = client.post(f"/api/assist/{target['id']}/load", json={"log": saved})
    assert loaded.status_code == 200, loaded.text
    assert loaded.json()["entries"] == notepad["entries"] and loads
