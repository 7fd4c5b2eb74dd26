"""What the no-script page tests share: asking as a browser does, and reading an answer that
must have succeeded."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PAGE = {"Accept": "text/html"}
"""The header a browser sends for a page (without it the server answers JSON)."""


def json_at(client: TestClient, url: str) -> dict[str, Any]:
    """The JSON object a GET of ``url`` answers with 200."""
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def page_at(client: TestClient, url: str) -> str:
    """The HTML page a browser's GET of ``url`` is answered with (200)."""
    answer = client.get(url, headers=PAGE)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    return answer.text
