"""Browser sessions are stored only when they come to own something: static files and
cookie-less page views and reads store no session and set no cookie; creating a game or a
notepad stores the session with its record and sets an HttpOnly, SameSite=Lax cookie whose id
the browser did not choose."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI

from sleuth.web.app import COOKIE
from tests.web.settled import SettledClient


def sessions(store: Path) -> int:
    with sqlite3.connect(store) as db:
        count: int = db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    return count


def test_views_without_a_cookie_store_no_session(app: FastAPI, store: Path) -> None:
    static = next(
        path.name for path in (Path(__file__).parents[2] / "src/sleuth/web/static").iterdir()
    )
    for url in ["/", "/assist", "/api", "/api/games", "/api/assist", f"/static/{static}"]:
        with SettledClient(app) as browser:
            for _ in range(3):
                answer = browser.get(url, headers={"accept": "text/html"})
                assert answer.status_code == 200, (url, answer.text)
                assert "set-cookie" not in answer.headers, url
    with SettledClient(app, cookies={COOKIE: "chosen-by-the-browser"}) as browser:
        assert browser.get("/api/play/not-an-id").status_code == 404
        assert browser.get("/").status_code == 200
    assert sessions(store) == 0


@pytest.mark.parametrize(
    "url, body", [("/api/play", {"game": "fox", "seed": 1}), ("/api/assist", {"game": "fox"})]
)
def test_creating_a_record_stores_the_session_and_sets_the_cookie(
    app: FastAPI, store: Path, url: str, body: dict[str, object]
) -> None:
    with SettledClient(app) as browser:
        chosen = {"cookie": f"{COOKIE}=chosen-by-the-browser"}
        assert browser.get("/", headers=chosen).status_code == 200
        answer = browser.post(url, json=body, headers=chosen)
        assert answer.status_code == 201, answer.text
        cookie = answer.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie
        session = cookie.split(";")[0].removeprefix(f"{COOKIE}=")
        assert session != "chosen-by-the-browser" and len(session) >= 40
        assert sessions(store) == 1
        again = browser.post(url, json=body)
        assert "set-cookie" not in again.headers  # the same session from now on
        listed = browser.get("/api/assist" if "assist" in url else "/").status_code
        assert listed == 200
        assert sessions(store) == 1
        assert app.state.store.list(session, "game" if "play" in url else "notepad")
