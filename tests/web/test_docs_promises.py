"""What docs/web.md tells a user to type and to open exists: the install command works from a
clone (Sleuth is not on the package index), and the pages it names for the JSON API answer."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

WEB_MD = (Path(__file__).parents[2] / "docs" / "web.md").read_text(encoding="utf-8")


def test_the_install_is_from_a_clone() -> None:
    assert "pip install '.[web]'" in WEB_MD
    assert "sleuth[web]" not in WEB_MD  # no such package on the index


def test_every_page_named_for_the_json_api_answers(client: TestClient) -> None:
    paragraph = WEB_MD[WEB_MD.index("The assistants' JSON API") :].split(":\n")[0]
    named = re.findall(r"`(/[a-z.]+)`", paragraph)
    assert named == ["/api", "/openapi.json", "/docs"]
    assert client.get("/api").status_code == 200
    assert client.get("/openapi.json").json()["paths"]
    assert client.get("/docs").status_code == 404  # the text says these pages are off
    assert "are off" in paragraph
