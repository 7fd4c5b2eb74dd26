"""Every process of ``sleuth serve`` loads the games before it takes a request."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core import bots
from sleuth.core.registry import game_specs
from sleuth.web import warm
from sleuth.web.app import (
    FORGET_VARIABLE,
    STORE_VARIABLE,
    app_from_environment,
    create_app,
    set_environment,
)
from sleuth.web.live import new_log


def test_a_served_app_loads_every_game_before_its_first_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each process of ``sleuth serve --workers N`` (the app it builds from the environment)
    runs every default bot's warm-up as it starts, before a request is answered."""
    monkeypatch.setattr(bots, "_WARMED", set())
    for variable in (STORE_VARIABLE, FORGET_VARIABLE):  # put back after the test
        monkeypatch.setenv(variable, "")
    set_environment(tmp_path / "s.sqlite3", None)
    warm_ups = set()
    for spec in game_specs():
        for name in {b for b in new_log(spec.name, {}, None, None, {}, 0)["bots"] if b}:
            if spec.bot(name).warm_up is not None:
                warm_ups.add(spec.bot(name).warm_up)
    assert warm_ups  # some default bot has one (Fugitive's belief Marshal)
    with TestClient(app_from_environment()) as client:
        assert warm_ups <= bots._WARMED
        assert client.get("/").status_code == 200


def test_an_app_made_for_tests_loads_nothing_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(warm, "warm_games", lambda: calls.append(1))
    with TestClient(create_app(tmp_path / "s.sqlite3")):
        assert calls == []
    with TestClient(create_app(tmp_path / "s.sqlite3", warm=True)):
        assert calls == [1]
