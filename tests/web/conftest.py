"""Fixtures of the web tests: an app on a fresh store file, and a client (a browser session
that sees each game once its bots have moved, see :mod:`tests.web.settled`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the dev extra)")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sleuth.web.app import create_app
from tests.web.settled import SettledClient


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def app(store: Path) -> FastAPI:
    return create_app(store)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with SettledClient(app) as test_client:
        yield test_client
