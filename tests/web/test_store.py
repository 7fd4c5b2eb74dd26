"""The session store: records belong to one session, survive reopening, and a wrong session
changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.web.store import NotFoundError, Store


def test_records_belong_to_their_session(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    alice, bob = store.new_session(), store.new_session()
    assert alice != bob and len(alice) >= 43  # 256 random bits, URL-safe
    assert store.has_session(alice) and not store.has_session("made-up")
    record = store.create(alice, "game", {"moves": [1]})
    assert store.get(alice, "game", record) == {"moves": [1]}
    for wrong in [
        lambda: store.get(bob, "game", record),
        lambda: store.get(alice, "notepad", record),
        lambda: store.put(bob, "game", record, {"moves": []}),
        lambda: store.delete(bob, "game", record),
        lambda: store.get(alice, "game", "nothing"),
    ]:
        with pytest.raises(NotFoundError, match="in this browser session"):
            wrong()
    assert store.get(alice, "game", record) == {"moves": [1]}
    assert store.list(bob, "game") == []
    with pytest.raises(ValueError, match="unknown record kind"):
        store.create(alice, "secret", {})


def test_the_store_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "s.sqlite3"
    first = Store(path)
    session = first.new_session()
    one = first.create(session, "game", {"n": 1})
    two = first.create(session, "notepad", {"n": 2})
    first.put(session, "game", one, {"n": 3})
    again = Store(path)
    assert again.has_session(session)
    assert again.list(session, "game") == [(one, {"n": 3})]
    assert again.list(session, "notepad") == [(two, {"n": 2})]
    again.delete(session, "game", one)
    assert again.list(session, "game") == []
