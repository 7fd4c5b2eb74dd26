"""HEAD requests are answered as their GET without the body (a link checker, ``curl -I``)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient


@pytest.mark.parametrize(
    "path", ["/", "/play/new?game=fox", "/assist", "/api", "/static/sleuth.css"]
)
def test_a_page_answers_head_as_get_without_a_body(client: TestClient, path: str) -> None:
    got, head = client.get(path), client.head(path)
    assert got.status_code == head.status_code == 200
    assert head.content == b"" and got.content
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == str(len(got.content))


def test_head_of_a_missing_page_is_its_404_and_other_methods_are_unchanged(
    client: TestClient,
) -> None:
    assert client.head("/play/no-such-game").status_code == 404
    assert client.put("/play/new").status_code == 405
