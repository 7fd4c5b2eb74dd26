"""Request bodies over their bound are a 413 with a JSON error, storing nothing (no record, no
session), whether the length is declared or the body is streamed without one."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.web.limits import BODY_BYTES, UPLOAD_BYTES
from tests.web.settled import SettledClient
from tests.web.test_assist import new


def rows(store: Path) -> tuple[int, int]:
    with sqlite3.connect(store) as db:
        sessions = db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
        records = db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    return sessions, records


def chunks(body: bytes) -> Iterator[bytes]:
    """The body in pieces, sent without a Content-Length (chunked)."""
    for start in range(0, len(body), 4096):
        yield body[start : start + 4096]


@pytest.mark.parametrize("streamed", [False, True])
def test_bodies_over_their_bound_are_refused_storing_nothing(
    streamed: bool, client: TestClient, store: Path
) -> None:
    notepad = new(client, "fox")
    before = rows(store)
    fresh = SettledClient(client.app)  # no cookie: a session would be a new row
    big = json.dumps({"game": "fox", "options": {"x" * BODY_BYTES: "1"}}).encode()
    upload = json.dumps({"log": "x" * UPLOAD_BYTES}).encode()
    for who, url, body in [
        (fresh, "/api/assist", big),
        (fresh, "/api/play", big),
        (client, f"/api/assist/{notepad['id']}/entries", big),
        (client, f"/api/assist/{notepad['id']}/load", upload),
    ]:
        content = chunks(body) if streamed else body
        headers = {"content-type": "application/json"}
        answer = who.post(url, content=content, headers=headers)
        assert answer.status_code == 413, (url, answer.text)
        assert answer.json()["error"].startswith("the request body is too large")
        assert "set-cookie" not in answer.headers
    assert rows(store) == before
    assert client.get(f"/api/assist/{notepad['id']}").json()["entries"] == []


def test_bodies_within_their_bound_still_pass(client: TestClient) -> None:
    notepad = new(client, "fox")
    padded = '{"text": "2"' + " " * (BODY_BYTES - 20) + "}"
    answer = client.post(
        f"/api/assist/{notepad['id']}/entries",
        content=padded,
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["entries"] == ["inspect 2"]


@pytest.mark.parametrize(
    "declared", [b"9" * 5000, b"0" * 5000 + b"1" * 30, str(UPLOAD_BYTES + 1).encode()]
)
def test_a_declared_length_of_any_size_is_a_413(declared: bytes) -> None:
    """A Content-Length too long for int() (over 4,300 digits) is refused like any other long
    length, before the body is read, not answered with a 500."""
    from sleuth.web.limits import BodyLimit

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("the app must not run")

    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        raise AssertionError("the body must not be read")

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "path": "/api/assist/x/load",
        "headers": [(b"content-length", declared)],
    }
    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs in this thread
        thread.submit(asyncio.run, BodyLimit(app)(scope, receive, send)).result()  # type: ignore[arg-type]
    assert sent[0]["status"] == 413
