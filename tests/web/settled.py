"""A test client that waits for the bots, as a person does: it sees each game once chance and
the bots have moved.

Bots move in the background (:mod:`sleuth.web.mover`), so an answer may come while a bot is
still to move.  Tests about what a person sees at their turn use :class:`SettledClient`:
before each request (each hop of a redirect too) it waits until the app's mover has nothing
left to do, and an answer about a game that is still waiting (``"waiting": true``) is asked
for again (``GET /api/play/ID``) once the mover is done, keeping the first answer's status and
cookies.  The tests of the immediate answers use the plain TestClient.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2 as httpx
from fastapi.testclient import TestClient

from sleuth.web.mover import Mover

SETTLE_SECONDS = 120.0
"""The longest a test waits for the bots of its games."""


class SettledClient(TestClient):
    """A TestClient of a Sleuth app whose answers come once its bots have moved."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._transport = _Settling(self._transport, app.state.mover)


class _Settling(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport, mover: Mover) -> None:
        self.inner, self.mover = inner, mover

    def settle(self) -> None:
        assert self.mover.settle(SETTLE_SECONDS), "the bots did not finish moving"

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.settle()
        response = self.inner.handle_request(request)
        json_type = response.headers.get("content-type", "").startswith("application/json")
        if request.method == "HEAD" or not json_type:
            return response
        response.read()
        answer = json.loads(response.content)
        if not (isinstance(answer, dict) and answer.get("waiting") and "id" in answer):
            return response
        self.settle()
        cookie = request.headers.get("cookie", "")
        for set_cookie in response.headers.get_list("set-cookie"):  # a new session's
            cookie = set_cookie.split(";")[0]
        again = httpx.Request(
            "GET",
            request.url.copy_with(path=f"/api/play/{answer['id']}", query=None),
            headers={"cookie": cookie} if cookie else {},
        )
        fresh = self.inner.handle_request(again)
        fresh.read()
        headers = [
            (k, v) for k, v in response.headers.multi_items() if k.lower() != "content-length"
        ]
        return httpx.Response(response.status_code, headers=headers, content=fresh.content)

    def close(self) -> None:
        self.inner.close()
