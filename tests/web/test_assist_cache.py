"""The notepads' pictures are drawn once per record state and kept for a few states: what the
API answers from that cache (after entries, an undo, the same entry again) is what a fresh
session renders, and the cache keeps at most its bound."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.render import notepad_svg as visual
from sleuth.web import assist
from sleuth.web import assist_session as notes
from sleuth.web.assist import rendered_html
from tests.web.test_assist import SETUPS, enter, new


def fresh(game: str, notepad: dict[str, Any]) -> tuple[str, str]:
    """The rendering and picture of a session rebuilt afresh from the notepad's record."""
    record = {key: notepad[key] for key in ("game", "options", "params", "entries", "ended_by")}
    session = notes.rebuild({**record, "base": None})
    return rendered_html(session), visual(game, session)


@pytest.mark.parametrize("game", list(SETUPS))
def test_cached_pictures_are_fresh_ones(
    game: str, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []

    def counted(session: Any) -> str:
        drawn.append(str(session.history()))
        return rendered_html(session)

    monkeypatch.setattr(assist, "rendered_html", counted)
    notepad = new(client, game)
    seen = [notepad]
    for text in SETUPS[game][2]:
        notepad = enter(client, notepad, text)
        seen.append(notepad)
    url = f"/api/assist/{notepad['id']}"
    count = len(drawn)
    for before in reversed(seen[1:-1]):  # each undo shows a state drawn already
        notepad = client.post(f"{url}/undo", json={"count": 1}).json()
        assert notepad["entries"] == before["entries"]
        assert (notepad["html"], notepad["svg"]) == (before["html"], before["svg"])
        assert (notepad["html"], notepad["svg"]) == fresh(game, notepad)
    again = enter(client, notepad, SETUPS[game][2][1])
    assert len(drawn) == count  # nothing drawn again
    assert (again["html"], again["svg"]) == (seen[2]["html"], seen[2]["svg"])
    assert (again["html"], again["svg"]) == fresh(game, again)


def test_the_cache_keeps_the_latest_states_up_to_its_bound(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(assist, "DRAWN", 3)
    notepad = new(client, "fox")
    for text in ["0", "1", "2", "3", "4"]:
        notepad = enter(client, notepad, text)
    live = client.app.state.assist_live  # type: ignore[attr-defined]
    assert len(live.drawn) == 3
    undone = client.post(f"/api/assist/{notepad['id']}/undo", json={"count": 4}).json()
    assert (undone["html"], undone["svg"]) == fresh("fox", undone)  # drawn again
    assert len(live.drawn) == 3
